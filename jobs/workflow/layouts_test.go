package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// The sandbox answering in other services' layouts, end to end through the
// application layer, as the window and the command line run it: trace →
// scrub the trace's phones → callable export. Every number the export
// writes is callable by the scrub's own flags; the numbers the scrub flags,
// and those it could not answer, appear nowhere in it.
func TestSandboxLayoutsThroughTheWorkflow(t *testing.T) {
	t.Parallel()
	for _, tl := range sandbox.TraceLayouts {
		dl := sandbox.DNCLayouts[len(tl)%len(sandbox.DNCLayouts)] // each DNC layout in turn
		t.Run(tl+"+"+dl, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t)
			sc := *cfg.Sandbox
			sc.ResultLayouts = sandbox.ResultLayouts{Trace: tl, DNC: dl}
			cfg.Sandbox = &sc
			d, err := Open(cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			if _, err := d.Sessions().StartSandbox(ctx); err != nil {
				t.Fatal(err)
			}
			owners := filepath.Join(t.TempDir(), "owners.csv")
			var b strings.Builder
			b.WriteString("First,Last,Street,City,State,Zip\r\n")
			for i := range 30 {
				fmt.Fprintf(&b, "Ann%d,Lee,%d Oak Ave,Austin,TX,787%02d\r\n", i, i+1, i)
			}
			os.WriteFile(owners, []byte(b.String()), 0o600)
			m := map[string]string{"first_name": "First", "last_name": "Last", "property_street": "Street",
				"property_city": "City", "property_state": "State", "property_zip": "Zip"}
			id := submitted(ctx, t, d, Plan{Kind: jobs.KindTrace, Path: owners, Mapping: m})
			trace, err := d.Jobs().Wait(ctx, id, 0)
			if err != nil {
				t.Fatal(err)
			}
			l, err := d.resultLayout(trace.ResultPath)
			if err != nil || l.Kind != layout.KindTrace || len(l.Slots) == 0 {
				t.Fatalf("the %s trace reads as %+v, %v", tl, l, err)
			}
			// Without its own flags, the callable list needs a scrub first.
			dest := filepath.Join(t.TempDir(), "callable.csv")
			_, err = d.Jobs().ExportJob(ctx, trace.Job, dest, &CallableChoices{}, nil)
			if l.Check(nil, jobs.QuickCallable) != nil && !errors.Is(err, ErrNeedScrub) {
				t.Fatalf("callable list of an unscrubbed %s trace: %v", tl, err)
			}
			plan, err := d.Submissions().TracePhones(ctx, trace.ResultPath, id)
			if err != nil {
				t.Fatal(err)
			}
			ins, err := d.Quotes().Inspect(ctx, plan.Path, plan.Input)
			if err != nil {
				t.Fatal(err)
			}
			res, err := d.Submissions().Submit(ctx, plan, ins, SubmitOptions{})
			if err != nil {
				t.Fatal(err)
			}
			scrub, err := d.Jobs().Wait(ctx, res.JobID, 0)
			if err != nil {
				t.Fatal(err)
			}
			// The scrub's own reading of each number.
			callable := map[string]bool{}
			flags, _, err := library.LoadFlags(ctx, layout.Options{}, scrub.ResultPath)
			if err != nil {
				t.Fatal(err)
			}
			tr, _ := library.OpenResult(trace.ResultPath)
			rd := l.NewReader(flags)
			var row layout.Row
			for i := 0; i < tr.Len(); i++ {
				rd.Read(tr.Row(i), &row)
				for _, p := range row.Phones {
					if p.Key != 0 {
						callable[p.Digits()] = callable[p.Digits()] || p.Callable()
					}
				}
			}
			tr.Close()
			if _, err := d.Jobs().ExportJob(ctx, trace.Job, dest, &CallableChoices{}, nil); err != nil {
				t.Fatalf("callable list after the scrub: %v", err)
			}
			body, _ := os.ReadFile(dest)
			kept, left := 0, 0
			for n, ok := range callable {
				in := strings.Contains(phoneDigitsOf(string(body)), n)
				switch {
				case ok && in:
					kept++
				case !ok && in:
					t.Errorf("%s: %s is not callable but is in the callable list", tl, n)
				case !ok:
					left++
				}
			}
			if kept == 0 || left == 0 {
				t.Fatalf("%s+%s: %d numbers kept, %d left out: the test proves nothing", tl, dl, kept, left)
			}
		})
	}
}

// phoneDigitsOf is every run of digits of s that is a phone number, as 10
// digits, joined: what "a number appears in the file" means whatever its
// format there.
func phoneDigitsOf(s string) string {
	var out []string
	var run []byte
	flush := func() {
		if n := phone.Normalize(string(run)); n.Valid {
			out = append(out, n.Digits)
		}
		run = run[:0]
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= '0' && c <= '9' || c == '(' || c == ')' || c == '-' || c == ' ' || c == '.' || c == '+' {
			run = append(run, c)
			continue
		}
		flush()
	}
	flush()
	return strings.Join(out, " ")
}

// A sorted or filtered view reads each of its rows as the person it shows:
// the people view and the file's columns never disagree.
func TestPersonFollowsTheView(t *testing.T) {
	t.Parallel()
	d := offline(t)
	r, err := d.Results().OpenResult(context.Background(), filepath.Join("..", "layout", "testdata", "propstream.csv"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	last := 5 // Owner 1 Last Name
	if r.Headers()[last] != "Owner 1 Last Name" {
		t.Fatalf("headers %q", r.Headers())
	}
	for _, q := range []Query{
		{SortCol: last, Desc: true},
		{SortCol: last},
		{Text: "(512) 555-0104", SortCol: -1},
		{Quick: []jobs.QuickFilter{jobs.QuickCallable}, SortCol: last, Desc: true},
	} {
		v, err := r.Query(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for i := 0; i < v.Len(); i++ {
			p := v.Person(i)
			if len(p.People) == 0 || p.People[0].Last != v.Cell(i, last) {
				t.Errorf("%+v: view row %d shows %q, reads as %+v", q, i, v.Cell(i, last), p.People)
			}
			got = append(got, v.Cell(i, last))
		}
		t.Logf("%+v: %q", q, got)
	}
}

// A second correction of a layout keeps what the first one said about the
// columns it leaves alone.
func TestCorrectionsAddUp(t *testing.T) {
	t.Parallel()
	d := offline(t)
	home := d.cfg.Home
	ctx := context.Background()
	r := openIndexed(ctx, t, d, filepath.Join("..", "layout", "testdata", "invented_scrub.csv"))
	defer r.Close()
	sig := r.Layout().Signature
	first := &layout.Correction{Signature: sig, Values: map[string]map[string]layout.Flag{"Known Litigator": {"blank": layout.Clean}}}
	if err := d.Results().CorrectLayout(ctx, r, first); err != nil {
		t.Fatal(err)
	}
	// The blank is clean now; what is left is the file's own date, 2025:
	// its answers are far too old to call on.
	if p := r.Person(0).Phones[0]; p.Block != layout.BlockStale || p.Flags.Of(layout.Litigator) != layout.Clean {
		t.Fatalf("after the first correction: %s", p.Block)
	}
	// The second says State DNC List is not a flag at all.
	second := &layout.Correction{Signature: sig, Columns: map[string]layout.ColumnFix{"State DNC List": {Role: layout.RoleOther}}}
	if err := d.Results().CorrectLayout(ctx, r, second); err != nil {
		t.Fatal(err)
	}
	p := r.Person(0).Phones[0]
	if p.Flags.Has.Has(layout.State) {
		t.Error("State DNC List is still read as a flag")
	}
	if p.Flags.Of(layout.Litigator) != layout.Clean {
		t.Errorf("the first correction was lost: litigator %s", p.Flags.Of(layout.Litigator))
	}
	// Both are what the next file with these columns is read with.
	b, err := os.ReadFile(filepath.Join(home, layoutsFile))
	if err != nil || !strings.Contains(string(b), "Known Litigator") || !strings.Contains(string(b), "State DNC List") {
		t.Errorf("%s: %s %v", layoutsFile, b, err)
	}
}

// The viewer finds a result's layout in the pass that builds its store, as
// every other reader finds it (library.DetectLayoutContext, a pass of its
// own): the same roles, and the same conventions read over the whole file.
// Until then the viewer reads no row through a layout.
func TestViewerLayoutIsEveryReadersLayout(t *testing.T) {
	t.Parallel()
	d := offline(t)
	ctx := context.Background()
	for _, name := range []string{"propstream.csv", "dealmachine.csv", "invented_scrub.csv", "tracerfy.csv", "dnc_vendor_codes.csv"} {
		path := filepath.Join("..", "layout", "testdata", name)
		r, err := d.Results().OpenResult(ctx, path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if p := r.Person(0); len(p.Phones)+len(p.People) != 0 {
			t.Errorf("%s: a row is read through a layout before it is known: %+v", name, p)
		}
		if err := r.Index(ctx, nil); err != nil {
			t.Fatal(err)
		}
		want, err := library.DetectLayoutContext(ctx, path, d.layoutOptions())
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(r.Layout())
		exp, _ := json.Marshal(want)
		if string(got) != string(exp) {
			t.Errorf("%s: the viewer's layout\n%s\nevery reader's\n%s", name, got, exp)
		}
		r.Close()
	}
}
