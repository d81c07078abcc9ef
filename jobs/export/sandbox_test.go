package export

import (
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// sandboxTruth is what the sandbox decides of a number (docs/sandbox.md,
// "Result layouts").
type sandboxTruth struct{ dnc, lit, state, unknown bool }

func truthOfNumber(d string) sandboxTruth {
	h := fnv.New32a()
	h.Write([]byte(d))
	x := h.Sum32()
	m := x / 7500 % 40
	return sandboxTruth{dnc: x%5 == 0, lit: x/5%25 == 0, state: x/375%20 == 0, unknown: m >= 1 && m <= 3}
}

type sandboxRun struct {
	c   *client.Client
	srv *sandbox.Server
	dir string
}

func startLayoutSandbox(t *testing.T, l sandbox.ResultLayouts) *sandboxRun {
	t.Helper()
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 0.01}
	cfg.MatchRate = 0.8
	cfg.ResultLayouts = l
	cfg.Keys[0].Credits = 1_000_000
	srv, err := sandbox.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ts := newServer(t, srv)
	c, err := client.New(ts+"/v1", sandbox.DemoKey)
	if err != nil {
		t.Fatal(err)
	}
	return &sandboxRun{c: c, srv: srv, dir: t.TempDir()}
}

// trace runs a trace of owners and downloads its result.
func (r *sandboxRun) trace(t *testing.T, owners string) string {
	t.Helper()
	ctx := context.Background()
	in := filepath.Join(r.dir, "owners.csv")
	os.WriteFile(in, []byte(owners), 0o600)
	created, err := r.c.Traces.Create(ctx, &client.TraceUpload{Path: in, ColumnMapping: map[string]string{
		"first_name": "First", "last_name": "Last", "property_street": "Street", "property_city": "City",
		"property_state": "State", "property_zip": "Zip"}})
	if err != nil {
		t.Fatal(err)
	}
	r.srv.FinishPending()
	dst := filepath.Join(r.dir, "trace-"+created.ID+".csv")
	if _, err := r.c.Traces.Download(ctx, created.ID, dst, nil); err != nil {
		t.Fatal(err)
	}
	return dst
}

// scrub writes the valid phones of a result (read through its layout) to a
// list, scrubs it, and downloads the DNC result.
func (r *sandboxRun) scrub(t *testing.T, result string) (string, []string) {
	t.Helper()
	ctx := context.Background()
	l, err := library.DetectLayout(result, layout.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(result)
	defer f.Close()
	rr, _ := library.NewRowReader(f)
	rd := l.NewReader(nil)
	var row layout.Row
	var phones []string
	for {
		rec, err := rr.Next()
		if err == io.EOF {
			break
		}
		rd.Read(rec, &row)
		for _, p := range row.Phones {
			if p.Valid() && !slices.Contains(phones, p.Digits()) {
				phones = append(phones, p.Digits())
			}
		}
	}
	list := filepath.Join(r.dir, "phones.csv")
	os.WriteFile(list, []byte("Phone\r\n"+strings.Join(phones, "\r\n")+"\r\n555-0100\r\n"), 0o600)
	created, err := r.c.DNC.Create(ctx, &client.DNCUpload{Path: list, PhoneColumn: "Phone"})
	if err != nil {
		t.Fatal(err)
	}
	r.srv.FinishPending()
	dst := filepath.Join(r.dir, "dnc-"+created.ID+".csv")
	if _, err := r.c.DNC.Download(ctx, created.ID, dst, nil); err != nil {
		t.Fatal(err)
	}
	return dst, phones
}

func sandboxOwners(n int) string {
	var b strings.Builder
	b.WriteString("First,Last,Street,City,State,Zip\r\n")
	firsts := []string{"John", "Mary", "Linda", "Robert", "Ann", "Jose"}
	lasts := []string{"Smith", "Jones", "Davis", "Brown", "Lee", "NOMATCH", "Garcia"}
	for i := range n {
		fmt.Fprintf(&b, "%s,%s,%d Oak Ave,Austin,TX,787%02d\r\n", firsts[i%len(firsts)], lasts[i%len(lasts)], i+1, i%100)
	}
	b.WriteString("Oak Holdings LLC,,1 Main St,Austin,TX,78701\r\n")
	return b.String()
}

// The sandbox's layouts run end to end: trace → scrub the phones → callable
// export (.csv and .xlsx), in every trace layout with every DNC layout. The
// written file holds exactly the numbers that may be called.
func TestSandboxLayoutsEndToEnd(t *testing.T) {
	ctx := context.Background()
	owners := sandboxOwners(30)
	for _, tl := range sandbox.TraceLayouts {
		for _, dl := range sandbox.DNCLayouts {
			name := tl + "+" + dl
			r := startLayoutSandbox(t, sandbox.ResultLayouts{Trace: tl, DNC: dl})
			trace := r.trace(t, owners)
			tlay, err := library.DetectLayout(trace, layout.Options{})
			if err != nil || tlay.Kind != layout.KindTrace || !tlay.Sure() {
				t.Fatalf("%s: trace layout %+v, %v", name, tlay, err)
			}
			dnc, phones := r.scrub(t, trace)
			dlay, _ := library.DetectLayout(dnc, layout.Options{})
			if dlay.Kind != layout.KindDNC || !dlay.Sure() {
				t.Fatalf("%s: DNC layout %s, questions %+v", name, dlay.Kind, dlay.Questions)
			}
			if len(phones) < 20 {
				t.Fatalf("%s: only %d phones", name, len(phones))
			}
			// Numbers the row-level Litigator of a PropStream-style trace
			// flags: every phone of a row that has a litigator.
			rowLit := rowLitigators(t, trace, tlay)
			want := map[string]bool{}
			for _, p := range phones {
				tr := truthOfNumber(p)
				ok := !tr.dnc && !tr.lit && !rowLit[p]
				if dl != "skipdesk" {
					ok = ok && !tr.state && !tr.unknown
				}
				if ok {
					want[p] = true
				}
			}
			if len(want) == 0 || len(want) == len(phones) {
				t.Fatalf("%s: %d of %d phones callable: the test would prove nothing", name, len(want), len(phones))
			}
			for _, ext := range []string{"csv", "xlsx"} {
				dst := filepath.Join(r.dir, "callable-"+name+"."+ext)
				if _, err := ExportCallable(ctx, trace, dated(t, dnc), dst, at(CallableOptions{OnlyCallable: true})); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got := numbersIn(readOut(t, dst))
				if !mapsEqual(got, want) {
					t.Errorf("%s %s: numbers %v\nwant %v", name, ext, keys(got), keys(want))
				}
			}
			// The DNC result alone.
			dst := filepath.Join(r.dir, "dnc-callable-"+name+".csv")
			if _, err := ExportCallable(ctx, dated(t, dnc), "", dst, at(CallableOptions{OnlyCallable: true})); err != nil {
				t.Fatalf("%s: DNC alone: %v", name, err)
			}
			wantDNC := map[string]bool{}
			for _, p := range phones {
				tr := truthOfNumber(p)
				if !tr.dnc && !tr.lit && (dl == "skipdesk" || !tr.state && !tr.unknown) {
					wantDNC[p] = true
				}
			}
			if got := numbersIn(readOut(t, dst)); !mapsEqual(got, wantDNC) {
				t.Errorf("%s: DNC alone: numbers %v\nwant %v", name, keys(got), keys(wantDNC))
			}
		}
	}
}

// Traces whose layout carries flags (PropStream's DNC and Litigator,
// BatchData's DNC and TCPA) give a callable list without a DNC scrub.
func TestSandboxTraceOwnFlags(t *testing.T) {
	for _, tl := range []string{"propstream", "batchdata"} {
		r := startLayoutSandbox(t, sandbox.ResultLayouts{Trace: tl})
		trace := r.trace(t, sandboxOwners(30))
		l, _ := library.DetectLayout(trace, layout.Options{})
		rowLit := rowLitigators(t, trace, l)
		_, phones := r.scrub(t, trace)
		want := map[string]bool{}
		for _, p := range phones {
			if tr := truthOfNumber(p); !tr.dnc && !tr.lit && !rowLit[p] {
				want[p] = true
			}
		}
		dst := filepath.Join(r.dir, "own.csv")
		if _, err := ExportCallable(context.Background(), trace, "", dst, at(CallableOptions{OnlyCallable: true})); err != nil {
			t.Fatalf("%s: %v", tl, err)
		}
		if got := numbersIn(readOut(t, dst)); !mapsEqual(got, want) || len(want) == 0 {
			t.Errorf("%s: numbers %v\nwant %v", tl, keys(got), keys(want))
		}
	}
}

// rowLitigators lists the numbers that share a row with a litigator, when
// the layout has a row-level litigator flag.
func rowLitigators(t *testing.T, path string, l *layout.Layout) map[string]bool {
	out := map[string]bool{}
	rowLevel := false
	for _, c := range l.RowFlags {
		if l.Columns[c].Kind == layout.Litigator {
			rowLevel = true
		}
	}
	if !rowLevel {
		return out
	}
	f, _ := os.Open(path)
	defer f.Close()
	rr, _ := library.NewRowReader(f)
	rd := l.NewReader(nil)
	var row layout.Row
	for {
		rec, err := rr.Next()
		if err != nil {
			return out
		}
		rd.Read(rec, &row)
		lit := false
		for _, p := range row.Phones {
			lit = lit || truthOfNumber(p.Digits()).lit
		}
		for _, p := range row.Phones {
			if lit {
				out[p.Digits()] = true
			}
		}
	}
}

func mapsEqual(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// newServer serves the sandbox's handler; download_url follows its host.
func newServer(t *testing.T, srv *sandbox.Server) string {
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	return ts.URL
}
