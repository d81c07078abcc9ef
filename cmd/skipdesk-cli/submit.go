package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// Submitting jobs and waiting for them, through the application layer: it
// records the intent, creates the job and records its id, each step
// committed, so that nothing is charged twice or lost when the process dies.

func init() {
	classifiers = append(classifiers, classifySubmitError)

	register("traces submit", &command{
		usage: "--file FILE --map key=Header ... [--mode normal|enhanced] [--include-llcs] [--drop-duplicates] [--pad-zips=false] [--leave-out-no-address=false] " +
			"[--skip-traced=false | --reuse-within D] [--values-right KEY] [--accept-splits] [--header-line N] [--sheet NAME] [--presets FILE] [--name NAME] [--again] [--wait [--wait-limit D]] [--out DIR]",
		summary: "submit a bulk skip trace (charged), after printing the review: what is sent, left out, saved and repaired; with --wait, track it and download the result",
		run:     runSubmit(jobs.KindTrace),
	})
	register("dnc submit", &command{
		usage: "(--file FILE --phone-column HEADER | --from-trace JOB_ID) [--drop-duplicates] [--leave-out-invalid=false] [--leave-out-abroad=false] [--skip-scrubbed=false] [--header-line N] [--sheet NAME] " +
			"[--name NAME] [--again] [--wait [--wait-limit D]] [--out DIR]",
		summary: "submit a DNC + litigator scrub (charged) of a phone list or of a traced job's phones, after printing the review; with --wait, track it and download the result",
		run:     runSubmit(jobs.KindDNC),
	})
}

// classifySubmitError: a duplicate needs --again (a usage matter); a
// ledger held by the app, or a result that cannot be written into the
// library, is local trouble; a job the API will not let finish (not visible
// to the key, its result not downloadable) is the API's.
func classifySubmitError(err error) (int, bool) {
	var se *workflow.StuckError
	var wl *workflow.WaitLimitError
	switch {
	case errors.Is(err, workflow.ErrDuplicate), errors.Is(err, workflow.ErrNothingBillable):
		return exitUsage, true
	case errors.As(err, &se) && se.Local:
		return exitFailure, true
	case errors.As(err, &se):
		return exitAPI, true
	case errors.As(err, &wl):
		return exitAPI, true
	}
	return 0, false
}

// submitFlags are submit's flags beyond the plan's.
type submitFlags struct {
	file, phoneCol, name, out string
	again, wait               bool
	waitLimit                 time.Duration
}

func runSubmit(kind jobs.Kind) func(ctx context.Context, env *Env, args []string) error {
	name := "traces submit"
	if kind == jobs.KindDNC {
		name = "dnc submit"
	}
	return func(ctx context.Context, env *Env, args []string) error {
		var o prepOptions
		var f submitFlags
		fs := newFlags(env, name, commands[name])
		fs.StringVar(&f.file, "file", "", "the list to submit (CSV or XLSX)")
		fs.IntVar(&o.headerLine, "header-line", 0, "1-based line of the header (0 detects it)")
		fs.StringVar(&o.sheet, "sheet", "", "sheet of an .xlsx workbook (default: the first)")
		fs.BoolVar(&o.dropDuplicates, "drop-duplicates", false, "leave out rows that repeat an earlier row (traces: the mapped values; DNC: the phone)")
		fs.StringVar(&f.name, "name", "", "the job's name (default: the file's name)")
		fs.BoolVar(&f.again, "again", false, "submit even though the same file, mapping and options were submitted in the last 24 hours")
		fs.BoolVar(&f.wait, "wait", false, "track the job until it finishes, download the result and print the spend")
		fs.DurationVar(&f.waitLimit, "wait-limit", 0, "with --wait: give up waiting after this long (e.g. 30m; the job stays tracked); 0 waits until it ends")
		fs.StringVar(&f.out, "out", "", "with --wait: also copy the result into this folder")
		repairFlags(fs, &o, kind)
		valuesFlag(fs, &o)
		if kind == jobs.KindTrace {
			fs.Var(&o.maps, "map", "map a service key to a header: key=Header (repeatable)")
			fs.StringVar((*string)(&o.mode), "mode", "", "normal (default) or enhanced")
			fs.BoolVar(&o.acceptSplits, "accept-splits", false, "accept the suggested splits of full-name and one-line address columns")
			fs.StringVar(&o.presets, "presets", "", "JSON file of saved mappings, used when --map is not given (default: the job records' presets)")
			fs.BoolVar(&o.includeLLCs, "include-llcs", false, "also trace company/LLC rows (billed at the llc rate, or the enhanced rate in enhanced mode)")
			d := workflow.Plan{Kind: jobs.KindTrace}.WithDefaults()
			o.reuseWithin = ageFlag(d.ReuseWithin)
			fs.BoolVar(&o.reuse, "skip-traced", d.Reuse, "leave out the rows traced before (same owner and property address, in the library's results) and merge their earlier results into this one (=false: trace them again)")
			fs.Var(&o.reuseWithin, "reuse-within", "with --skip-traced: reuse only results this recent (e.g. 90d, 26w, 1y, 720h; 0 any age)")
		} else {
			o.dnc = true
			fs.BoolVar(&o.reuse, "skip-scrubbed", workflow.Plan{Kind: jobs.KindDNC}.WithDefaults().Reuse, "leave out the phones scrubbed in the last 31 days and reuse their answers in the result (=false: scrub them again)")
			fs.StringVar(&f.phoneCol, "phone-column", "", "header of the column holding the phone numbers")
			fs.StringVar(&o.fromTrace, "from-trace", "", "scrub the phones of this completed trace (its result in the library), as the window's Scrub phones does")
		}
		pos, err := parseFlags(fs, args)
		if err != nil {
			return err
		}
		o.withinGiven = given(fs, "reuse-within")
		if f.file == "" && len(pos) == 1 {
			f.file, pos = pos[0], nil
		}
		if err := checkSubmitUsage(name, kind, &o, &f, pos); err != nil {
			return err
		}
		env.Config.PresetsFile = o.presets
		svc, err := env.connect(ctx)
		if err != nil {
			return err
		}
		if o.fromTrace != "" {
			if f.file, err = tracePhones(ctx, svc, o.fromTrace); err != nil {
				return err
			}
			f.phoneCol = "phone"
		}
		if kind == jobs.KindDNC {
			o.maps.m = mapping.Mapping{mapping.Phone: f.phoneCol}
		}
		return submitPlan(ctx, env, svc, &o, &f)
	}
}

func checkSubmitUsage(name string, kind jobs.Kind, o *prepOptions, f *submitFlags, pos []string) error {
	if len(pos) > 0 {
		return usageErrorf("%s: unexpected arguments %q", name, pos)
	}
	if err := checkSubmitInput(name, kind, o, f); err != nil {
		return err
	}
	switch {
	case f.out != "" && !f.wait:
		return usageErrorf("%s: --out needs --wait", name)
	case f.waitLimit != 0 && !f.wait:
		return usageErrorf("%s: --wait-limit needs --wait", name)
	case f.waitLimit < 0:
		return usageErrorf("%s: --wait-limit must be positive", name)
	case o.withinGiven && !o.reuse:
		return usageErrorf("%s: --reuse-within needs --skip-traced", name)
	}
	return nil
}

// checkSubmitInput checks what a submission reads: a DNC scrub's file and
// phone column or the trace it takes its phones from; a trace's file and
// its mapping.
func checkSubmitInput(name string, kind jobs.Kind, o *prepOptions, f *submitFlags) error {
	switch {
	case kind == jobs.KindDNC && o.fromTrace != "" && (f.file != "" || f.phoneCol != ""):
		return usageErrorf("dnc submit: --from-trace takes the trace's phones; give it without --file and --phone-column")
	case kind == jobs.KindDNC && o.fromTrace == "" && f.file == "":
		return usageErrorf("dnc submit: want --file FILE --phone-column HEADER, or --from-trace JOB_ID")
	case kind == jobs.KindDNC && o.fromTrace == "" && f.phoneCol == "":
		return usageErrorf("dnc submit: --phone-column HEADER is required")
	case kind == jobs.KindTrace && f.file == "":
		return usageErrorf("%s: want --file FILE (and no other arguments)", name)
	case kind == jobs.KindTrace && o.maps.m == nil && o.presets == "":
		// The automatic mapping or a saved preset would do, but paying
		// for a guess is not something to do silently.
		return usageErrorf("traces submit: give the mapping with --map key=Header, or --presets FILE (see `skipdesk-cli validate FILE` for the automatic one)")
	}
	return nil
}

// tracePhones writes the phone list of a completed trace in the library,
// as the window's Scrub phones does.
func tracePhones(ctx context.Context, svc *workflow.Service, traceID string) (string, error) {
	list, err := svc.Jobs().LocalJobs(ctx)
	if err != nil {
		return "", err
	}
	for _, j := range list {
		if j.ID == traceID && j.ResultPath != "" {
			p, err := svc.Submissions().TracePhones(ctx, j.ResultPath, j.ID)
			return p.Path, err
		}
	}
	return "", usageErrorf("dnc submit: trace %s has no downloaded result on this computer (see `skipdesk-cli jobs`)", traceID)
}

// submitPlan reads the file, checks the mapping, prices it and submits it.
func submitPlan(ctx context.Context, env *Env, svc *workflow.Service, o *prepOptions, f *submitFlags) error {
	// Read the file and check the mapping before anything costs money.
	// Read once: inspected, counted and its fingerprint taken; the upload
	// may start meanwhile, its end held until Submit sends it.
	o.submit, o.name = true, f.name
	// The rates for the review are asked for while the file is read.
	actx, stop := context.WithCancel(ctx)
	ahead := svc.Quotes().AskRates(actx)
	defer func() { stop(); ahead.Rates() }()
	stopWaits := waitsForTheLibrary(env, svc)
	defer stopWaits()
	p, err := settle(ctx, env, f.file, o, svc, true)
	if err != nil {
		return err
	}
	defer p.early.Abandon(ctx, errors.New("nothing was submitted"))
	if !p.OK {
		printMapping(env.Stderr, p)
		return p.report(env)
	}
	for _, pr := range p.Validation.Warnings() {
		fmt.Fprintf(env.Stderr, "warning: %s\n", pr.Message)
	}
	p.plan.Name = f.name
	if f.wait {
		// The result is to be saved: find out before paying whether it
		// can be.
		if err := svc.Library().LibraryWritable(); err != nil {
			return &exitError{code: exitFailure, plain: true, err: fmt.Errorf("%s\nnothing was submitted", words(err))}
		}
	}
	// The review before paying, as the window shows it.
	q, review := quoteSubmission(ctx, env, svc, p, ahead)
	stopWaits()
	opts := workflow.SubmitOptions{Again: f.again, Quote: q, Progress: uploadProgress(env), Early: p.early}
	res, err := svc.Submissions().Submit(ctx, p.plan, p.ins, opts)
	if errors.Is(err, workflow.ErrNothingBillable) && env.JSON {
		env.Output(map[string]any{"submitted": false, "review": review}, nil)
	}
	if res != nil {
		printSettled(env, res.Settled)
	}
	if err != nil {
		return submitError(err)
	}
	if res.JobID == "" && res.ResultPath != "" {
		// Every row was in the library: nothing to send, nothing charged.
		fmt.Fprintf(env.Stderr, "all %s reused from earlier results: nothing submitted, nothing charged\n", plural(res.Reused, "row", "rows"))
		return reportOutcome(env, &workflow.Outcome{Job: workflow.Job{Status: jobs.StatusCompleted}, ResultPath: res.ResultPath}, f.out, review)
	}
	if res.Reused > 0 {
		fmt.Fprintf(env.Stderr, "%s left out: their earlier results are merged into the result\n", plural(res.Reused, "row", "rows"))
	}
	if env.JSON && !f.wait {
		return env.Output(withProblem(map[string]any{"job_id": res.JobID, "credits_charged": res.Charged, "submission": res.Submission,
			"review": review}, res.Problem), nil)
	}
	if !env.JSON {
		fmt.Fprintln(env.Stdout, res.JobID)
	}
	fmt.Fprintf(env.Stderr, "created job %s, charged %s%s\n", res.JobID, credits(res.Charged), notRight(res.Problem))
	if !f.wait {
		return nil
	}
	return waitAndReport(ctx, env, svc, res.JobID, f.out, f.waitLimit, review)
}

// quoteSubmission prices the submission and prints its review before
// paying on the standard error, as the window shows it, with the prepared
// upload. Both nil when the price could not be worked out (a warning says
// why).
func quoteSubmission(ctx context.Context, env *Env, svc *workflow.Service, p *prepared, ahead *workflow.AskedRates) (*workflow.Quote, *workflow.Review) {
	q, err := svc.Quotes().QuoteCounted(ctx, p.plan, p.ins, p.counts, ahead)
	if err != nil {
		fmt.Fprintf(env.Stderr, "warning: the price could not be worked out: %s\n", words(err))
		return nil, nil
	}
	rv := workflow.ReviewOf(p.plan, *q, p.Validation)
	printReview(env.Stderr, rv)
	if q.Upload.Written && rv.Nothing == "" {
		fmt.Fprintf(env.Stderr, "uploading a prepared copy: %s\n", strings.Join(q.Upload.Reasons, "; "))
	}
	return q, &rv
}

// submitError is the command's error for a submission refused: a
// duplicate and a changed price say what to do next.
func submitError(err error) error {
	if errors.Is(err, workflow.ErrDuplicate) {
		return &exitError{code: exitUsage, err: fmt.Errorf("%s\npass --again to submit it anyway, or follow the earlier job with `skipdesk-cli jobs wait`", words(err)), plain: true}
	}
	if errors.Is(err, workflow.ErrQuoteChanged) {
		return &exitError{code: exitFailure, err: fmt.Errorf("%s\nrun `skipdesk-cli estimate` to see the new price, then submit again", words(err)), plain: true}
	}
	return err
}

// uploadProgress prints the upload's progress in quarters.
func uploadProgress(env *Env) func(sent, total int64) {
	var last int64 = -1
	return func(sent, total int64) {
		if total < 1<<20 {
			return
		}
		if pct := sent * 100 / total; pct/25 != last/25 {
			last = pct
			fmt.Fprintf(env.Stderr, "uploaded %d%%\n", pct)
		}
	}
}

// printSettled tells of earlier unknown submissions whose state changed.
func printSettled(env *Env, list []workflow.Settled) {
	for _, st := range list {
		if st.Changed {
			fmt.Fprintf(env.Stderr, "earlier submission %d (%s): %s — %s\n", st.Submission, cleanText(st.FileName), st.StateWords(), cleanText(st.Reason))
		}
	}
}

// progressLine prints the events about jobs on stderr. Events come from
// the tracker's goroutines at once (a poll, a download): one is printed at
// a time.
func progressLine(env *Env, jobID string) func(workflow.Event) {
	var mu sync.Mutex
	var lastPct int64 = -1
	return func(e workflow.Event) {
		mu.Lock()
		defer mu.Unlock()
		j := e.Job
		if jobID != "" && j.ID != jobID && j.ID != "" {
			return
		}
		switch e.Kind {
		case workflow.EventStatus:
			if j.ID != "" && !j.Final() { // completed and failed have their own lines
				fmt.Fprintf(env.Stderr, "%s: %s\n", j.ID, cleanText(string(j.Status)))
			}
		case workflow.EventCompleted:
			fmt.Fprintf(env.Stderr, "%s: completed; downloading the result\n", j.ID)
		case workflow.EventFailed:
			fmt.Fprintf(env.Stderr, "%s: failed: %s\n", j.ID, cleanText(j.ErrorMessage))
		case workflow.EventProgress:
			if e.Total > 0 {
				if pct := e.Done * 100 / e.Total; pct/25 != lastPct/25 {
					lastPct = pct
					fmt.Fprintf(env.Stderr, "%s: downloaded %d%%\n", j.ID, pct)
				}
			}
		case workflow.EventDownloaded:
			fmt.Fprintf(env.Stderr, "%s: saved %s\n", j.ID, j.ResultPath)
		case workflow.EventWarning:
			fmt.Fprintf(env.Stderr, "warning: %s\n", words(e.Err))
		}
		if st := e.Settled; st != nil {
			fmt.Fprintf(env.Stderr, "earlier submission %d: %s — %s\n", st.Submission, st.StateWords(), cleanText(st.Reason))
		}
	}
}

// waitAndReport follows jobID until it failed or its result is downloaded,
// then prints the result path and the spend.
func waitAndReport(ctx context.Context, env *Env, svc *workflow.Service, jobID, out string, limit time.Duration, review *workflow.Review) error {
	defer svc.Jobs().Subscribe(progressLine(env, jobID))()
	fmt.Fprintf(env.Stderr, "%s: waiting (Ctrl+C stops waiting, the job goes on)\n", jobID)
	o, err := svc.Jobs().Wait(ctx, jobID, limit)
	if err != nil {
		return err
	}
	return reportOutcome(env, o, out, review)
}

// reportOutcome prints where a job ended: the result path (copied into out
// when given) and the spend; the JSON carries the review made before
// paying (nil: none).
func reportOutcome(env *Env, o *workflow.Outcome, out string, review *workflow.Review) error {
	path := o.ResultPath
	if path != "" && out != "" {
		p, err := copyInto(path, out)
		if err != nil {
			return err
		}
		path = p
	}
	j := o.Job
	if env.JSON {
		v := map[string]any{"job_id": j.ID, "status": j.Status, "result": path,
			"credits_charged": j.Charged, "credits_refunded": j.Refunded, "credits_net": j.Net(),
			"error_message": j.ErrorMessage}
		if review != nil {
			v["review"] = review
		}
		return env.Output(withProblem(v, j.Problem), nil)
	}
	if path != "" {
		fmt.Fprintf(env.Stdout, "result %s\n", path)
	}
	fmt.Fprintf(env.Stdout, "spend charged %d refunded %d net %d%s\n", j.Charged, j.Refunded, j.Net(), notRight(j.Problem))
	if j.Status == jobs.StatusFailed {
		return &exitError{code: exitAPI, plain: true, err: fmt.Errorf("job %s failed: %s (refunded %s)", j.ID, j.ErrorMessage, credits(j.Refunded))}
	}
	return nil
}

// withProblem adds figures_problem to a JSON answer when the figures
// cannot be right.
func withProblem(out map[string]any, problem string) map[string]any {
	if problem != "" {
		out["figures_problem"] = problem
	}
	return out
}

// notRight flags figures the service reported that cannot be right (a
// Job's or a submission's Problem), as the jobs list does: "" when they
// can be.
func notRight(problem string) string {
	if problem == "" {
		return ""
	}
	return " (cannot be right: the service reported " + problem + "; left out of every total)"
}

// copyInto copies a result into dir under its own name, atomically.
func copyInto(src, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	dst := filepath.Join(dir, filepath.Base(src))
	in, err := os.Open(src)
	if err != nil {
		return "", err
	}
	defer in.Close()
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(src)+".*.part")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, in); err != nil {
		tmp.Close()
		return "", fmt.Errorf("copy the result to %s: %w", dir, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return "", err
	}
	return dst, nil
}
