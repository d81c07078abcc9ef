package workflow

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs/export"
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
