package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/export"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

func init() {
	register("export", &command{
		usage: "RESULT.csv --out FILE.xlsx|FILE.csv [--job-record RESULT.job.json] [--dnc DNC.csv ...] [--only-callable] " +
			"[--callable-at RFC3339] [--call-log CALLS.csv [--call-log-zone ZONE]] [--preset NAME] [--filter NAME[,NAME...]] [--leave-out-mobiles] [--keep-litigators] [--keep-unknown] " +
			"[--leave-out-stale] [--leave-out-unsure] [--truncate-long-cells] [--force] | --list-presets",
		summary: "export a result (any service's layout) to Excel (.xlsx) or CSV, optionally only its callable phones (with a proof of " +
			"scrub PDF beside it, each phone's time zone and calling window, at an instant, in a dialer's layout) or those passing " +
			"quick filters; the internal do-not-call list always applies",
		run: runExport,
	})
	register("results layout", &command{
		usage: "FILE [--json]",
		summary: "how SkipDesk reads a result file: its people and phones, every column that bears on whether a phone may be " +
			"called (the list it answers for, the phones it answers for, how each value reads) and every open question",
		run: runResultsLayout,
	})
	register("results import", &command{
		usage: "FILE [--scrubbed YYYY-MM-DD] [--json]",
		summary: "copy a result made elsewhere (CSV or XLSX, any layout) into the library, to view, search, scrub and export it; " +
			"--scrubbed says when its DNC answers were scrubbed (a file without its own scrub dates makes no phone callable without it)",
		run: runResultsImport,
	})
	register("results search", &command{
		usage:   "TEXT [--dir DIR] [--limit N]",
		summary: "search every downloaded result for a phone, a name or an address",
		run:     runResultsSearch,
	})
}

func runExport(ctx context.Context, env *Env, args []string) error {
	c := commands["export"]
	fs := newFlags(env, "export", c)
	out := fs.String("out", "", "file to write: .xlsx or .csv")
	record := fs.String("job-record", "", "job record for the Summary sheet (default: the one beside the result, when present)")
	var dnc listFlag
	fs.Var(&dnc, "dnc", "DNC result of the trace's phones, any layout (repeatable; of two with a number, the first): their flags are merged in")
	only := fs.Bool("only-callable", false, "keep only the phones that may be called (valid; clean on the DNC, state, litigator lists the results report)")
	filter := fs.String("filter", "", "quick filters, comma-separated: "+quickFilterNames()+" (a phone filter keeps in each row only the phones that pass; callable-now: callable at the moment of the export, or at --callable-at)")
	trunc := fs.Bool("truncate-long-cells", false, "cut cells longer than Excel's 32,767 characters (listed) instead of failing")
	force := fs.Bool("force", false, "replace the --out file (and a callable list's proof beside it) when it exists")
	noMobiles := fs.Bool("leave-out-mobiles", false, "leave out mobiles and phones of unknown type (for autodialed calls)")
	keepLit := fs.Bool("keep-litigators", false, "keep phones whose only reason not to call is the litigator list")
	keepUnknown := fs.Bool("keep-unknown", false, "keep phones whose DNC or litigator answer is not known (never advised)")
	noStale := fs.Bool("leave-out-stale", false, "leave out the phones of scrubs over 31 days old instead of refusing the export")
	noUnsure := fs.Bool("leave-out-unsure", false, "leave out the phones whose answers rest on columns SkipDesk is not sure how to read, instead of refusing the export")
	at := fs.String("callable-at", "", "leave out every phone that may not be called at this instant (RFC 3339, e.g. 2026-11-24T15:00:00-05:00), per reason")
	preset := fs.String("preset", "", "write the callable list in a dialer's or CRM's layout (see --list-presets)")
	callLog := fs.String("call-log", "", "a dialer's call log (CSV or XLSX): leave out the numbers called as many times as their state's cap (FL, OK, MD: 3) in the 24 hours before --callable-at, or now")
	logZone := fs.String("call-log-zone", "", "the time zone the call log's times without one are written in (IANA name, e.g. America/Chicago); without it they count in any zone from UTC to Hawaii's")
	list := fs.Bool("list-presets", false, "list the dialer and CRM layouts --preset takes, and stop")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *list {
		return listPresets(env)
	}
	if err := checkExportArgs(pos, *out); err != nil {
		return err
	}
	filters, err := jobs.ParseQuickFilters(*filter)
	if err != nil {
		return usageErrorf("export: --filter: %v", err)
	}
	callable := *only || slices.ContainsFunc(filters, jobs.QuickFilter.Callable)
	zone, err := callLogZone(*callLog, *logZone, callable)
	if err != nil {
		return err
	}
	instant, err := callableAt(*at, *preset, callable)
	if err != nil {
		return err
	}
	src := pos[0]
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	exportNotes(ctx, env, callable, *keepUnknown)
	progress := func(done, total int64) {
		if !env.JSON && total > 0 {
			fmt.Fprintf(env.Stderr, "\rexporting: %d/%d rows", done, total)
		}
	}
	rep, err := svc.Results().Export(ctx, workflow.ExportRequest{Source: src, Dest: *out, Record: *record, DNC: dnc.list, OnlyCallable: *only,
		Filters: filters, TruncateLongCells: *trunc, Progress: progress, LeaveOutMobiles: *noMobiles, KeepLitigators: *keepLit,
		KeepUnknown: *keepUnknown, LeaveOutStale: *noStale, LeaveOutUnsure: *noUnsure, CallableAt: instant, Preset: *preset, CallLog: *callLog, CallLogZone: zone, Replace: *force})
	if !env.JSON {
		fmt.Fprintln(env.Stderr)
	}
	if err != nil {
		return exportError(svc, err)
	}
	return printExport(env, src, rep)
}

// checkExportArgs checks the command's one result and its --out file.
func checkExportArgs(pos []string, out string) error {
	if len(pos) != 1 {
		return usageErrorf("export: want one RESULT.csv, got %d arguments", len(pos))
	}
	if out == "" {
		return usageErrorf("export: --out FILE.xlsx or FILE.csv is required")
	}
	lower := strings.ToLower(out)
	if !strings.HasSuffix(lower, ".xlsx") && !strings.HasSuffix(lower, ".csv") {
		return usageErrorf("export: --out must end in .xlsx or .csv: %s", out)
	}
	return nil
}

// exportNotes connects for a callable list's proof, which names the
// account and the provider (offline, the proof says so), and warns of
// --keep-unknown.
func exportNotes(ctx context.Context, env *Env, callable, keepUnknown bool) {
	if callable {
		if _, err := env.connect(ctx); err != nil {
			fmt.Fprintln(env.Stderr, "note: not connected; the proof of scrub will not name the account")
		}
	}
	if keepUnknown {
		fmt.Fprintln(env.Stderr, "warning: --keep-unknown keeps phones whose DNC or litigator answer is not known: they may be on a list")
	}
}

// printExport says what an export wrote: its warnings, the file (and a
// preset's further parts), the phones kept and left out, the proof.
func printExport(env *Env, src string, rep *export.Report) error {
	if env.JSON {
		return json.NewEncoder(env.Stdout).Encode(rep)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(env.Stderr, "warning: %s: %s\n", src, w)
	}
	for _, tr := range rep.Truncated {
		fmt.Fprintf(env.Stderr, "warning: row %d, column %q: %d characters cut to %d\n", tr.Row, tr.Column, tr.Length, export.ExcelMaxCellChars)
	}
	sheets := ""
	if len(rep.Sheets) > 1 {
		sheets = fmt.Sprintf(" in %d sheets (%s)", len(rep.Sheets), strings.Join(rep.Sheets, ", "))
	}
	fmt.Fprintf(env.Stdout, "%s: %d rows%s\n", rep.Path, rep.Rows, sheets)
	for _, p := range rep.Parts[min(1, len(rep.Parts)):] {
		fmt.Fprintf(env.Stdout, "and %s (the preset's limit of rows a file)\n", p)
	}
	if ph := rep.Phones; ph != nil && ph.LeftOut() > 0 {
		fmt.Fprintf(env.Stdout, "phones kept: %d; left out: %s\n", ph.Kept, leftOutText(ph.Left))
	}
	if rep.Proof != "" {
		fmt.Fprintf(env.Stdout, "proof of scrub: %s\n", rep.Proof)
	}
	return nil
}

// quickFilterNames lists the quick filters as --filter takes them.
func quickFilterNames() string {
	names := make([]string, len(jobs.QuickFilters))
	for i, f := range jobs.QuickFilters {
		names[i] = string(f)
	}
	return strings.Join(names, ", ")
}

// leftOutText is "3 federal DNC, 1 litigator", the reasons in order.
func leftOutText(left map[string]int) string {
	reasons := make([]string, 0, len(left))
	for r, n := range left {
		reasons = append(reasons, fmt.Sprintf("%d %s", n, r))
	}
	slices.Sort(reasons)
	return strings.Join(reasons, ", ")
}

// exportError is an export's failure with its exit code and what to do:
// an open question about a column (2: it names the file, the columns and
// the question), a filter that cannot apply (2), a list that would hold no
// phone (1), a stale scrub (1, with the list of numbers to scrub again).
func exportError(svc *workflow.Service, err error) error {
	{
		var tl *export.CellTooLongError
		var cannot *layout.CannotFilterError
		var exists *workflow.ExistsError
		if errors.As(err, &exists) {
			return &exitError{code: exitUsage, err: err}
		}
		var open *layout.QuestionError
		if errors.As(err, &open) {
			return &exitError{code: exitUsage, plain: true, err: fmt.Errorf("%s\n%s", questionsText(open),
				"(answer them with the window's Check the columns, or run again with --leave-out-unsure to leave out the phones they decide)")}
		}
		var none *export.NothingCallableError
		if errors.As(err, &none) {
			return &exitError{code: exitFailure, plain: true, err: err}
		}
		if errors.As(err, &cannot) {
			return &exitError{code: exitUsage, plain: true, err: fmt.Errorf("%w\n(give the DNC result of its phones with --dnc DNC.csv)", err)}
		}
		var stale *workflow.StaleError
		if errors.As(err, &stale) {
			msg := err.Error()
			if list, lerr := svc.Compliance().StalePhones(stale); lerr == nil {
				msg += fmt.Sprintf("\nthe %d numbers are listed in %s: `skipdesk-cli estimate %q --dnc` prices a scrub of just those, "+
					"`skipdesk-cli dnc submit --file %q --phone-column phone` makes it; or run again with --leave-out-stale",
					len(stale.Numbers), list, list, list)
			}
			return &exitError{code: exitFailure, plain: true, err: errors.New(msg)}
		}
		if errors.As(err, &tl) {
			return &exitError{code: exitUsage, plain: true, err: fmt.Errorf("%w\n(run again with --truncate-long-cells to cut such cells, or export to .csv)", err)}
		}
		return err
	}
}

// questionsText names each file, its columns and the question, one a line.
func questionsText(e *layout.QuestionError) string {
	var b strings.Builder
	b.WriteString("export: SkipDesk is not sure how to read columns a callable list depends on; nothing was written:")
	for _, f := range e.Files {
		for _, q := range f.Questions {
			cols := ""
			if named := slices.DeleteFunc(slices.Clone(q.Columns), func(c string) bool { return strings.TrimSpace(c) == "" }); len(named) > 0 {
				cols = " [" + strings.Join(named, ", ") + "]"
			}
			fmt.Fprintf(&b, "\n  %s%s: %s", f.File, cols, q.Message)
		}
	}
	return b.String()
}

func runResultsSearch(ctx context.Context, env *Env, args []string) error {
	c := commands["results search"]
	fs := newFlags(env, "results search", c)
	dir := fs.String("dir", "", "library folder (default $SKIPDESK_HOME/results, else the user config folder's SkipDesk/results)")
	limit := fs.Int("limit", library.DefaultSearchLimit, "most hits to show")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	text := strings.TrimSpace(strings.Join(pos, " "))
	if text == "" {
		return usageErrorf("results search: TEXT is required")
	}
	if *limit <= 0 {
		return usageErrorf("results search: --limit must be positive")
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	if *dir == "" && svc.Team().Sharing() {
		// The team's index: a session on the team's database. Without
		// one this computer's results still answer.
		if _, err := env.connect(ctx); err != nil {
			fmt.Fprintf(env.Stderr, "warning: searching this computer's results only: %s\n", words(err))
		}
	}
	if _, err := os.Stat(svc.Library().ResultsDir(*dir)); err == nil && !env.JSON {
		indexForSearch(ctx, env, svc, svc.Library().ResultsDir(*dir))
	}
	hits, err := svc.Library().SearchRows(ctx, *dir, text, *limit)
	if errors.Is(err, workflow.ErrEmptyLibrary) {
		fmt.Fprintf(env.Stdout, "no results downloaded yet (%s)\n", svc.Library().ResultsDir(*dir))
		return nil
	}
	if err != nil {
		return err
	}
	return printRowHits(env, hits, text, *limit)
}

// printRowHits prints a search's hits (JSON: the list), saying when there
// are none and when the limit cut them.
func printRowHits(env *Env, hits []workflow.RowHit, text string, limit int) error {
	if env.JSON {
		if hits == nil {
			hits = []workflow.RowHit{}
		}
		return json.NewEncoder(env.Stdout).Encode(hits)
	}
	if len(hits) == 0 {
		fmt.Fprintf(env.Stdout, "no result holds %q\n", workflow.EchoQuery(text))
		return nil
	}
	for _, h := range hits {
		var fields []string
		for _, f := range h.Fields {
			fields = append(fields, f.Name+"="+f.Value)
		}
		if h.Path == "" {
			fmt.Fprintf(env.Stdout, "in %s's library  row %d  job %s  (%s)\n", h.Teammate, h.Row, h.JobID, h.JobName)
			continue
		}
		fmt.Fprintf(env.Stdout, "%s  row %d  job %s  (%s)\n    %s\n", h.Path, h.Row, h.JobID, h.Column, strings.Join(fields, "  "))
	}
	if len(hits) == limit {
		fmt.Fprintf(env.Stdout, "(first %d hits; --limit for more)\n", limit)
	}
	return nil
}

// listFlag collects a repeated flag.
type listFlag struct{ list []string }

func (f *listFlag) String() string     { return strings.Join(f.list, ",") }
func (f *listFlag) Set(v string) error { f.list = append(f.list, v); return nil }

// indexForSearch brings the index of dir up to date before a search,
// saying so when that takes a while, and names the files it cannot read.
func indexForSearch(ctx context.Context, env *Env, svc *workflow.Service, dir string) {
	line := newIndexLine(env.Stderr, func(p workflow.IndexProgress) string { return "indexing the library: " + p.Step() }, time.Now)
	rep, _ := svc.Library().IndexLibrary(ctx, dir, line.step)
	line.end()
	for _, name := range rep.Unreadable {
		fmt.Fprintf(env.Stderr, "warning: %s is not searched: it is not a result SkipDesk can read (`skipdesk-cli results layout` says why)\n", cleanText(name))
	}
}

func runResultsLayout(ctx context.Context, env *Env, args []string) error {
	file, err := oneArg(env, "results layout", "FILE", args, nil)
	if err != nil {
		return err
	}
	return showLocal(ctx, env, func(ctx context.Context, svc *workflow.Service) (layout.Summary, error) {
		return svc.Results().ReadLayout(ctx, file)
	}, func(w io.Writer, sum layout.Summary) { fmt.Fprint(w, cleanText(sum.Text())) })
}

func runResultsImport(ctx context.Context, env *Env, args []string) error {
	var scrubbed string
	file, err := oneArg(env, "results import", "FILE", args, func(fs *flag.FlagSet) {
		fs.StringVar(&scrubbed, "scrubbed", "", "when the file's DNC answers were scrubbed (YYYY-MM-DD): its own scrub dates, if it has any, win")
	})
	if err != nil {
		return err
	}
	var opts workflow.ImportOptions
	if scrubbed != "" {
		if opts.Scrubbed, err = time.ParseInLocation(time.DateOnly, scrubbed, time.Local); err != nil {
			return usageErrorf("results import: --scrubbed %q: want a date such as 2026-11-20", scrubbed)
		}
	}
	return showLocal(ctx, env, func(ctx context.Context, svc *workflow.Service) (workflow.LibraryItem, error) {
		it, err := svc.Library().ImportResult(ctx, file, opts)
		if errors.Is(err, workflow.ErrNotAResult) || errors.Is(err, workflow.ErrFutureDate) {
			return it, &exitError{code: exitUsage, err: err, plain: true}
		}
		return it, err
	}, func(w io.Writer, it workflow.LibraryItem) {
		fmt.Fprintf(w, "imported %s: %s, as %s\n", cleanText(it.Name), plural(it.Rows, "row", "rows"), it.Path)
		for _, o := range it.Others {
			fmt.Fprintf(w, "imported %s: %s, as %s (a sheet under other columns, a result of its own)\n", cleanText(o.Name), plural(o.Rows, "row", "rows"), o.Path)
		}
		for _, warn := range it.Warnings {
			fmt.Fprintf(w, "warning: %s\n", cleanText(warn))
		}
	})
}

// callLogZone checks --call-log and --call-log-zone: the zone named, or
// nil.
func callLogZone(log, zone string, callable bool) (*time.Location, error) {
	switch {
	case log != "" && !callable:
		return nil, usageErrorf("export: --call-log caps the calls of a callable list: add --only-callable")
	case zone == "":
		return nil, nil
	case log == "":
		return nil, usageErrorf("export: --call-log-zone names the zone of a --call-log")
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return nil, usageErrorf("export: --call-log-zone %q is not a time zone (like America/New_York)", zone)
	}
	return loc, nil
}
