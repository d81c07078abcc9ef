package export

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/dialer"
	"github.com/skipdesk/skipdesk/jobs/library/libtest"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// withJudges runs f with n judges taking batches of rows rows.
func withJudges(n, rows int, f func()) {
	oldN, oldRows := judges, judgedRows
	judges, judgedRows = func() int { return n }, rows
	defer func() { judges, judgedRows = oldN, oldRows }()
	f()
}

// judgedExport is what a callable export wrote and reported, or the error
// that refused it.
type judgedExport struct {
	file     string
	phones   PhoneCounts
	warnings []string
	timeLeft map[string]int
	scrubs   []ProofScrub
	err      string
}

func exportJudged(t *testing.T, src, dnc string, opts CallableOptions) judgedExport {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "callable.csv")
	opts.Proof = &Proof{}
	rep, err := ExportCallable(context.Background(), src, dnc, dst, opts)
	if err != nil {
		if _, serr := os.Stat(dst); serr == nil {
			t.Fatalf("refused (%v) and wrote %s anyway", err, dst)
		}
		return judgedExport{err: err.Error()}
	}
	b, rerr := os.ReadFile(dst)
	if rerr != nil {
		t.Fatal(rerr)
	}
	return judgedExport{file: string(b), phones: *rep.Phones, warnings: rep.Warnings, timeLeft: opts.Proof.TimeLeft, scrubs: opts.Proof.Scrubs}
}

// A callable list is the same whichever judge read which row: every row
// in its place, the phones counted alike, the same refusals — over
// generated traces joined with a scrub (each number's answer its own), a
// result whose own answers differ between rows (the number left out of
// every row), stale scrubs spread over the rows, nothing callable, and
// dialer presets (one row per owner; one per phone).
func TestJudgesAgreeWithOneJudge(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "trace.csv")
	if err := libtest.WriteTraceFile(trace, 700, 7); err != nil {
		t.Fatal(err)
	}
	scrub := filepath.Join(dir, "scrub.csv")
	if err := libtest.WriteScrubFile(scrub); err != nil {
		t.Fatal(err)
	}
	keepScrubOf(t, scrub, trace) // a few exports a case: the join read each time
	datedAt(t, scrub, libtest.ScrubDay)
	// Its own answers: a number clean in one row, on the registry in a
	// row far after; half the rows scrubbed 40 days before the export.
	var own strings.Builder
	own.WriteString("name,phone,dnc,litigator,scrubbed\n")
	for i := range 2000 {
		dnc, day := "N", testScrub.Format(time.DateOnly)
		if i == 1700 {
			dnc = "Y"
		}
		if i%2 == 1 {
			day = testScrub.AddDate(0, 0, -40).Format(time.DateOnly)
		}
		fmt.Fprintf(&own, "Owner %d,212555%04d,%s,N,%s\n", i, i%1000, dnc, day)
	}
	ownFile := testlists.WriteFile(t, "own.csv", own.String())
	presets, err := dialer.Builtin()
	if err != nil {
		t.Fatal(err)
	}
	reisift, _ := dialer.Find(presets, "reisift")
	calltools, _ := dialer.Find(presets, "calltools")
	day := libtest.ScrubDay.AddDate(0, 0, 1)
	cases := []struct {
		name, src, dnc string
		opts           CallableOptions
	}{
		{"joined", trace, scrub, CallableOptions{OnlyCallable: true, Now: day}},
		{"joined, mobiles left out", trace, scrub, CallableOptions{OnlyCallable: true, LeaveOutMobiles: true, Now: day}},
		{"not DNC, unknown kept", trace, scrub, CallableOptions{Filters: []jobs.QuickFilter{jobs.QuickNotDNC}, KeepUnknown: true, Now: day}},
		{"a preset, one row per owner", trace, scrub, CallableOptions{OnlyCallable: true, Preset: reisift, Now: day}},
		{"a preset, one row per phone", trace, scrub, CallableOptions{OnlyCallable: true, Preset: calltools, Now: day}},
		{"stale, refused", ownFile, "", CallableOptions{OnlyCallable: true, Now: testNow}},
		{"stale, left out", ownFile, "", CallableOptions{OnlyCallable: true, LeaveOutStale: true, Now: testNow}},
		{"stale scrub joined, refused", trace, scrub, CallableOptions{OnlyCallable: true, Now: libtest.ScrubDay.AddDate(0, 2, 0)}},
		{"stale scrub joined, nothing callable", trace, scrub, CallableOptions{OnlyCallable: true, LeaveOutStale: true, Now: libtest.ScrubDay.AddDate(0, 2, 0)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var want judgedExport
			withJudges(1, aheadRows, func() { want = exportJudged(t, c.src, c.dnc, c.opts) })
			if want.err == "" && want.phones.Kept == 0 || strings.Contains(want.err, "cannot apply") {
				t.Fatalf("the case kept no phone: %+v", want.phones)
			}
			spread := [][2]int{{2, 1}, {3, 7}} // judges, rows a batch
			if testing.Short() {
				spread = spread[1:]
			}
			for _, j := range spread {
				var got judgedExport
				withJudges(j[0], j[1], func() { got = exportJudged(t, c.src, c.dnc, c.opts) })
				if got.err != want.err {
					t.Fatalf("%d judges, %d rows a batch: refused with %q; one judge: %q", j[0], j[1], got.err, want.err)
				}
				if got.file != want.file {
					t.Errorf("%d judges, %d rows a batch: the list differs from one judge's (%d bytes against %d)", j[0], j[1], len(got.file), len(want.file))
				}
				if !reflect.DeepEqual(got.phones, want.phones) || !reflect.DeepEqual(got.timeLeft, want.timeLeft) ||
					!reflect.DeepEqual(got.scrubs, want.scrubs) || !reflect.DeepEqual(got.warnings, want.warnings) {
					t.Errorf("%d judges, %d rows a batch: counted %+v %v %+v %q; one judge: %+v %v %+v %q", j[0], j[1],
						got.phones, got.timeLeft, got.scrubs, got.warnings, want.phones, want.timeLeft, want.scrubs, want.warnings)
				}
			}
		})
	}
}

// keepScrubOf keeps, of the DNC result at scrub, the lines of the numbers
// the trace holds.
func keepScrubOf(t *testing.T, scrub, trace string) {
	t.Helper()
	tb, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	sb, err := os.ReadFile(scrub)
	if err != nil {
		t.Fatal(err)
	}
	text := string(tb)
	lines := strings.SplitAfter(string(sb), "\n")
	kept := lines[:1]
	for _, l := range lines[1:] {
		if number, _, ok := strings.Cut(l, ","); ok && strings.Contains(text, number) {
			kept = append(kept, l)
		}
	}
	if len(kept) < 100 {
		t.Fatalf("the trace holds %d numbers of the scrub", len(kept)-1)
	}
	if err := os.WriteFile(scrub, []byte(strings.Join(kept, "")), 0o600); err != nil {
		t.Fatal(err)
	}
}
