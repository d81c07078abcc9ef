package workflow

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs/export"
	"github.com/skipdesk/skipdesk/jobs/ledger"
)

// The proof says how a call log's times were read: in the zone the person
// named, or, where its times carry none, over the hours a log in any zone
// may be off by; and the calls counted for both ends of a row.
func TestCallLogSaysItsZone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.csv")
	if err := os.WriteFile(path, []byte("From,To,Call Time\n3055550199,3055550100,2026-11-25 09:00:00\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC)
	chicago, err := time.LoadLocation("America/Chicago")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		zone *time.Location
		want string
	}{
		{nil, "its times carry no zone: a call counts from "},
		{chicago, "times without a zone read in America/Chicago"},
	} {
		opts := export.CallableOptions{OnlyCallable: true, Now: at}
		req := ExportRequest{OnlyCallable: true, CallLog: path, CallLogZone: c.zone}
		if err := callLogOptions(context.Background(), &req, &opts); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(opts.CallLog, c.want) || !strings.Contains(opts.CallLog, "1 call counted for both ends") ||
			opts.Calls["3055550100"] != 1 || opts.Calls["3055550199"] != 1 {
			t.Errorf("zone %v: %q, calls %v", c.zone, opts.CallLog, opts.Calls)
		}
	}
}

// A file kept for the company's list that reads as an export of opt-outs
// (a dialer's dispositions, a CRM's DNC marks) is said to be one: every
// row's number goes on the list whatever it says, and the opt-outs import
// reads only the rows that are.
func TestListFileLooksLikeOptOuts(t *testing.T) {
	d := offline(t)
	dir := t.TempDir()
	for name, c := range map[string]struct{ text, want string }{
		"calls.csv":    {"Phone,Disposition,Date\n5125550101,DNC,2026-11-01\n5125550102,No Answer,2026-11-01\n", `an export of dialer dispositions (column "Disposition")`},
		"contacts.csv": {"Phone,Name,DoNotCall\n5125550101,Ann,true\n5125550102,Bob,false\n", `an export of opt-out marks (column "DoNotCall")`},
		"list.csv":     {"Phone,Name\n5125550101,Ann\n", ""},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(c.text), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := d.Compliance().ScanListFile(context.Background(), path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if f.OptOuts != c.want {
			t.Errorf("%s: %q, want %q", name, f.OptOuts, c.want)
		}
	}
}

// A date is not a number whose digits are lost: a list's date column is
// not offered as a phone column; a phone's lost digits still are.
func TestADateIsNotANumberLost(t *testing.T) {
	for v, want := range map[string]bool{"2026-11-01": false, "11/01/2026": false, "1/2/26": false, "2026-11-01 14:03": false,
		"2026-11-01T14:03:00Z": false, "512-555-010": true, "5.12555E+09": true, "(512) 555-01": true, "512-555-0101": true} {
		if got := numberLike(v); got != want {
			t.Errorf("numberLike(%q) = %v, want %v", v, got, want)
		}
	}
}

// An opt-out cannot be taken off the list before its time; a reply that
// only may be one can, once a person has read it.
func TestOnlyAMaybeOptOutMayBeRemoved(t *testing.T) {
	d := offline(t)
	path := filepath.Join(t.TempDir(), "replies.csv")
	if err := os.WriteFile(path, []byte("Phone,Message,Date\n3055550100,STOP,2026-11-20\n3055550101,wrong number,2026-11-20\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := d.Compliance().ImportOptOuts(context.Background(), path, time.UTC)
	if err != nil || res.Added != 2 {
		t.Fatalf("added %v, %v", res, err)
	}
	var kept *ledger.KeptError
	if err := d.Compliance().RemoveInternal(context.Background(), "3055550100", "tried"); !errors.As(err, &kept) {
		t.Errorf("an opt-out removed before its time: %v", err)
	}
	if err := d.Compliance().RemoveInternal(context.Background(), "3055550101", "read it: the person has the wrong number, not an opt-out"); err != nil {
		t.Errorf("a possible opt-out could not be removed once read: %v", err)
	}
}
