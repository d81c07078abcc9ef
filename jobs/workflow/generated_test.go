package workflow

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/resultgen"
	"github.com/skipdesk/skipdesk/jobs/secrets"
)

// The adversary of the result reader: result files written as trace
// vendors, scrub services, CRMs and dialers write them (jobs/resultgen),
// each with its truth, exported as callable lists through the application
// layer exactly as the window and the command line export them. Every
// number a callable export writes must be truly callable; with "leave out
// mobiles", truly not a mobile.

var (
	genCases = flag.Int("gen.cases", 0, "how many generated cases TestGeneratedResultsNeverLeak runs (0: 2000; 100 under -race or with -short)")
	genFirst = flag.Int64("gen.seed", 1, "the first seed TestGeneratedResultsNeverLeak runs")
)

// genExport is one callable export of a case.
type genExport struct {
	ext     string // ".csv" or ".xlsx"
	mobiles bool   // leave out mobiles
	preset  string // a dialer or CRM preset to write the list in ("" none)
}

func (e genExport) String() string {
	s := e.ext
	if e.preset != "" {
		s += " in the " + e.preset + " preset"
	}
	if e.mobiles {
		s += " leaving out mobiles"
	}
	return s
}

// exportOf is the export made of the case of seed: in turn a CSV, an
// XLSX, a CSV leaving out mobiles, an XLSX leaving out mobiles, and a CSV
// in one of the dialer and CRM presets.
func (g *genDesk) exportOf(seed int64) genExport {
	all := []genExport{{".csv", false, ""}, {".xlsx", false, ""}, {".csv", true, ""}, {".xlsx", true, ""}, {".csv", false, ""}}
	e := all[(seed%5+5)%5]
	if (seed%5+5)%5 == 4 && len(g.presets) > 0 {
		e.preset = g.presets[(seed/5%int64(len(g.presets))+int64(len(g.presets)))%int64(len(g.presets))]
	}
	return e
}

// genOutcome is what one export of one case did.
type genOutcome struct {
	seed   int64
	export genExport
	// refused is the refusal's message in general words ("" none);
	// wroteAnyway: refused, yet the file is there.
	refused     string
	wroteAnyway bool
	// question is the open question a first export refused with, before
	// the export leaving out the phones it touches ("" none).
	question string
	written  []string
	leaks    []resultgen.Leak
	// empty: it succeeded and wrote no number; callable is how many truly
	// callable numbers the exported file has.
	empty    bool
	callable int
	stats    resultgen.Stats
}

// genDesk is a worker's application layer: a Service in a session (the
// sandbox's, as the window runs it), whose ledger holds the company's
// do-not-call list. The cases a worker runs share it: a number one case
// puts on the list can only make another case's export leave out more.
type genDesk struct {
	d *Service
	// presets are the dialer and CRM presets' IDs.
	presets []string
}

func openGenDesk(ctx context.Context, home string) (*genDesk, error) {
	d, err := Open(Config{Secrets: secrets.Memory(), Home: home, Sandbox: fastSandbox()})
	if err != nil {
		return nil, err
	}
	if _, err := d.Sessions().StartSandbox(ctx); err != nil {
		d.Close()
		return nil, err
	}
	g := &genDesk{d: d}
	ps, _, err := d.Presets().DialerPresets()
	if err != nil {
		d.Close()
		return nil, err
	}
	for _, p := range ps {
		g.presets = append(g.presets, p.ID)
	}
	return g, nil
}

// setUp writes a case's files into dir (with the job records of ours it
// has), puts the company's numbers on the list, and imports the files
// that reach SkipDesk by the library's import. It returns the paths the
// export reads (and the imported copies, to remove), or the import's
// refusal.
func (g *genDesk) setUp(ctx context.Context, c *resultgen.Case, dir string) (paths, imported []string, refused, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, nil, err
	}
	if paths, err = c.Write(dir); err != nil {
		return nil, nil, nil, err
	}
	if len(c.Company) > 0 {
		if _, err := g.d.Compliance().AddInternal(ctx, c.Company, "generated case", "the company's list"); err != nil {
			return nil, nil, nil, err
		}
	}
	for i, f := range c.Files {
		if !f.Import {
			continue
		}
		it, err := g.d.Library().ImportResult(ctx, paths[i], ImportOptions{Scrubbed: f.StatedTime(c.Now)})
		if err != nil {
			return nil, imported, fmt.Errorf("import of %s: %w", f.Name, err), nil
		}
		paths[i] = it.Path
		imported = append(imported, it.Path, library.RecordPath(it.Path))
	}
	return paths, imported, nil, nil
}

// run makes the case's export and judges what it wrote.
func (g *genDesk) run(ctx context.Context, c *resultgen.Case, dir string, e genExport) (genOutcome, error) {
	truth := c.Truth()
	stats := resultgen.Count(truth)
	o := genOutcome{seed: c.Seed, export: e, callable: stats.Callable, stats: stats}
	paths, imported, refused, err := g.setUp(ctx, c, dir)
	defer func() {
		for _, p := range imported {
			os.Remove(p)
		}
	}()
	if err != nil {
		return o, err
	}
	if refused != nil {
		o.refused = generalWords(refused, dir)
		return o, nil
	}
	dest := filepath.Join(dir, "callable"+e.ext)
	req := ExportRequest{Source: paths[0], Dest: dest, DNC: paths[1:], OnlyCallable: true, LeaveOutMobiles: e.mobiles, Preset: e.preset}
	_, err = g.d.Results().Export(ctx, req)
	if q := (*layout.QuestionError)(nil); errors.As(err, &q) {
		// The person's way on: leave out the phones the questions touch.
		o.question = generalWords(err, dir)
		req.LeaveOutUnsure = true
		_, err = g.d.Results().Export(ctx, req)
	}
	if err != nil {
		o.refused = generalWords(err, dir)
		_, serr := os.Stat(dest)
		o.wroteAnyway = serr == nil
		return o, nil
	}
	if o.written, err = resultgen.NumbersIn(dest); err != nil {
		return o, err
	}
	o.leaks = resultgen.Leaks(truth, o.written, e.mobiles)
	o.empty = len(o.written) == 0
	return o, nil
}

var (
	reDigits   = regexp.MustCompile(`[0-9]+`)
	reQuoted   = regexp.MustCompile(`"[^"]*"`)
	reFolders  = regexp.MustCompile(`(?:/[^/\s]+)+/`)
	reImported = regexp.MustCompile(`(\w+) \(imported\) [0-9-]+ \w+\.csv`)
)

// generalWords is an error's message with what differs from case to case
// (folders, numbers, quoted names, imported copies' names) taken out, to
// count refusals by their message.
func generalWords(err error, dir string) string {
	s := strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), "")
	s = reFolders.ReplaceAllString(s, "")
	s = reImported.ReplaceAllString(s, "$1 (imported).csv")
	s = reQuoted.ReplaceAllString(s, `"…"`)
	s = reDigits.ReplaceAllString(s, "#")
	if len(s) > 140 {
		s = s[:140] + "…"
	}
	return s
}

// genTally sums the outcomes of a run.
type genTally struct {
	mu                            sync.Mutex
	cases, exports, phones, truly int
	exported, leaked              int
	leaks                         map[string]map[int64]bool // class → seeds
	leakNumbers                   map[string]int
	first                         map[string]genOutcome // class → its first outcome (lowest seed)
	refusals                      map[string]int
	questions                     map[string]int
	silent, emptyNothing          []int64 // succeeded, wrote nothing: with callable numbers / with none
	wroteAnyway                   []int64
}

func newTally() *genTally {
	return &genTally{leaks: map[string]map[int64]bool{}, leakNumbers: map[string]int{}, first: map[string]genOutcome{},
		refusals: map[string]int{}, questions: map[string]int{}}
}

func (t *genTally) add(o genOutcome) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.cases++
	t.exports++
	t.phones += o.stats.Phones
	t.truly += o.stats.Callable
	t.exported += len(o.written)
	t.leaked += len(o.leaks)
	if o.question != "" {
		t.questions[o.question]++
	}
	switch {
	case o.refused != "":
		t.refusals[o.refused]++
		if o.wroteAnyway {
			t.wroteAnyway = append(t.wroteAnyway, o.seed)
		}
	case o.empty && o.callable > 0:
		t.silent = append(t.silent, o.seed)
	case o.empty:
		t.emptyNothing = append(t.emptyNothing, o.seed)
	}
	for _, l := range o.leaks {
		if t.leaks[l.Class] == nil {
			t.leaks[l.Class] = map[int64]bool{}
		}
		t.leaks[l.Class][o.seed] = true
		t.leakNumbers[l.Class]++
		if f, ok := t.first[l.Class]; !ok || o.seed < f.seed {
			t.first[l.Class] = o
		}
	}
}

// report prints the run's statistics.
func (t *genTally) report(tb testing.TB, elapsed time.Duration) {
	tb.Logf("generated results: %d cases, %d exports in %s; %d phones in the exported files, %d truly callable; %d numbers written "+
		"(%d truly callable, %d leaked)", t.cases, t.exports, elapsed.Round(time.Millisecond), t.phones, t.truly, t.exported,
		t.exported-t.leaked, t.leaked)
	for _, c := range sortedKeys(t.leaks) {
		tb.Logf("  leak: %-100s %5d numbers in %4d cases (first seed %d)", c, t.leakNumbers[c], len(t.leaks[c]), t.first[c].seed)
	}
	refusals := sortedKeys(t.refusals)
	sort.SliceStable(refusals, func(i, j int) bool { return t.refusals[refusals[i]] > t.refusals[refusals[j]] })
	for _, m := range refusals {
		tb.Logf("  refused %4d×: %s", t.refusals[m], m)
	}
	for _, m := range sortedKeys(t.questions) {
		tb.Logf("  asked %4d× (then exported leaving out the phones it touches): %s", t.questions[m], m)
	}
	tb.Logf("  succeeded with an empty list though the file has callable phones (never an empty list with exit 0): %d exports %s",
		len(t.silent), seedList(t.silent))
	tb.Logf("  succeeded with an empty list, the file having no callable phone: %d exports %s", len(t.emptyNothing), seedList(t.emptyNothing))
	if len(t.wroteAnyway) > 0 {
		tb.Logf("  refused yet wrote the file: %d exports %s", len(t.wroteAnyway), seedList(t.wroteAnyway))
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// seedList names up to ten seeds.
func seedList(seeds []int64) string {
	slices.Sort(seeds)
	if len(seeds) > 10 {
		return fmt.Sprintf("(seeds %v …)", seeds[:10])
	}
	if len(seeds) == 0 {
		return ""
	}
	return fmt.Sprintf("(seeds %v)", seeds)
}

// runSeeds runs the cases of seeds over a pool of workers, one a core.
func runSeeds(ctx context.Context, tb testing.TB, seeds []int64, now time.Time) *genTally {
	tally := newTally()
	work := make(chan int64)
	var wg sync.WaitGroup
	root := tb.TempDir()
	for w := range 4 * runtime.GOMAXPROCS(0) {
		g, err := openGenDesk(ctx, filepath.Join(root, fmt.Sprintf("home%d", w)))
		if err != nil {
			tb.Fatal(err)
		}
		defer g.d.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for seed := range work {
				dir := filepath.Join(root, fmt.Sprintf("w%d-%d", w, seed))
				o, err := g.run(ctx, resultgen.GenerateAt(seed, now), dir, g.exportOf(seed))
				if err != nil {
					tb.Errorf("seed %d: the test's own setup failed: %v", seed, err)
				}
				tally.add(o)
				os.RemoveAll(dir)
			}
		}()
	}
	for _, s := range seeds {
		work <- s
	}
	close(work)
	wg.Wait()
	return tally
}

// shrunk is the smallest case of the outcome's seed that still leaks in
// the outcome's class, as a failure prints it, with the leak.
func shrunk(ctx context.Context, tb testing.TB, g *genDesk, o genOutcome, class string, now time.Time, budget int) string {
	leakOf := func(leaks []resultgen.Leak) (resultgen.Leak, bool) {
		for _, l := range leaks {
			if l.Class == class {
				return l, true
			}
		}
		return resultgen.Leak{}, false
	}
	leak, _ := leakOf(o.leaks)
	root := tb.TempDir()
	n := 0
	still := func(sc *resultgen.Case) bool {
		n++
		dir := filepath.Join(root, fmt.Sprint(n))
		defer os.RemoveAll(dir)
		out, err := g.run(ctx, sc, dir, o.export)
		l, ok := leakOf(out.leaks)
		if err == nil && ok {
			leak = l
		}
		return err == nil && ok
	}
	small := resultgen.Shrink(resultgen.GenerateAt(o.seed, now), leak.Number, budget, still)
	return fmt.Sprintf("seed %d, export %s, leak class %q\nleaked %s\nsmallest case found (%d tries):\n%s",
		o.seed, o.export, class, leak, n, small.Report())
}

var genShrink = flag.Bool("gen.shrink", false, "TestGeneratedResultsNeverLeak shrinks and prints the first case of every leak class, known or not")

// casesToRun is -gen.cases, or by how the tests run: the race detector
// makes a case about ten times slower, so a run under it, like -short
// (the inner loop), takes 100 cases: make test runs the full 2,000
// without it, and the fuzz target draws more.
func casesToRun() int { return casesOr(*genCases, 2000, 100) }

// casesOr is the cases a generated test runs: asked (a flag, 0 none), or
// full, or light under -short or the race detector (make test runs the
// full count without it too).
func casesOr(asked, full, light int) int {
	switch {
	case asked > 0:
		return asked
	case testing.Short(), raceDetector:
		return light
	}
	return full
}

// TestGeneratedResultsNeverLeak: thousands of generated result files,
// exported as callable lists; every number written is truly callable.
func TestGeneratedResultsNeverLeak(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	now := time.Now()
	seeds := make([]int64, casesToRun())
	for i := range seeds {
		seeds[i] = *genFirst + int64(i)
	}
	start := time.Now()
	tally := runSeeds(ctx, t, seeds, now)
	tally.report(t, time.Since(start))
	if len(tally.wroteAnyway) > 0 {
		t.Errorf("%d exports refused yet left the file written %s", len(tally.wroteAnyway), seedList(tally.wroteAnyway))
	}
	var unknown []string
	for _, class := range sortedKeys(tally.leaks) {
		if !resultgen.Known(class) || *genShrink {
			unknown = append(unknown, class)
		}
	}
	if len(unknown) > 0 {
		failLeaks(ctx, t, tally, unknown, now)
		return
	}
	if len(tally.leaks) > 0 {
		t.Skipf("every leak found is of a known class, still leaking: %s (rerun with -gen.shrink, or one seed with -gen.seed=N "+
			"-gen.cases=1 -gen.shrink, to see the smallest files)", strings.Join(sortedKeys(tally.leaks), "; "))
	}
}

// failLeaks fails the test with the smallest case of each class.
func failLeaks(ctx context.Context, t *testing.T, tally *genTally, classes []string, now time.Time) {
	g, err := openGenDesk(ctx, filepath.Join(t.TempDir(), "shrink"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.d.Close()
	for _, class := range classes {
		if testing.Short() {
			t.Logf("leak %q: first seed %d", class, tally.first[class].seed)
			continue
		}
		t.Logf("%s", shrunk(ctx, t, g, tally.first[class], class, now, 150))
	}
	t.Errorf("%d classes of leaks: %s", len(classes), strings.Join(classes, "; "))
}

// FuzzGeneratedResults holds the invariant over random seeds: `make fuzz`
// runs it with the other fuzz targets (scripts/fuzz.sh), and a seed that
// leaks in a class not known fails with its smallest files.
func FuzzGeneratedResults(f *testing.F) {
	for seed := int64(1); seed <= 4; seed++ {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed int64) {
		ctx := t.Context()
		g, err := openGenDesk(ctx, filepath.Join(t.TempDir(), "home"))
		if err != nil {
			t.Fatal(err)
		}
		defer g.d.Close()
		now := time.Now()
		o, err := g.run(ctx, resultgen.GenerateAt(seed, now), filepath.Join(t.TempDir(), "case"), g.exportOf(seed))
		if err != nil {
			t.Fatalf("seed %d: the test's own setup failed: %v", seed, err)
		}
		if o.wroteAnyway {
			t.Fatalf("seed %d: the export refused (%s) yet left the file written", seed, o.refused)
		}
		var classes []string
		for _, l := range o.leaks {
			if !slices.Contains(classes, l.Class) {
				classes = append(classes, l.Class)
			}
		}
		for _, class := range classes {
			if !resultgen.Known(class) {
				t.Fatalf("%s", shrunk(ctx, t, g, o, class, now, 150))
			}
		}
		if len(classes) > 0 {
			t.Skipf("seed %d leaks in known classes only: %s", seed, strings.Join(classes, "; "))
		}
	})
}
