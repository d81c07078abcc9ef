package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/estimate"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/prepare"
	"github.com/skipdesk/skipdesk/jobs/submit"
	"github.com/skipdesk/skipdesk/jobs/tracker"
)

// Submitting jobs through the ledger, and waiting for them: submit records
// the intent, creates the job and records its id, each step committed, so
// that nothing is charged twice or lost when the process dies.

func init() {
	classifiers = append(classifiers, classifySubmitError)

	register("traces submit", &command{
		usage: "--file FILE --map key=Header ... [--mode normal|enhanced] [--include-llcs] [--drop-duplicates] " +
			"[--accept-splits] [--header-line N] [--sheet NAME] [--again] [--wait] [--out DIR]",
		summary: "submit a bulk skip trace (charged); with --wait, track it and download the result",
		run:     runSubmit(jobs.KindTrace),
	})
	register("dnc submit", &command{
		usage:   "--file FILE --phone-column HEADER [--drop-duplicates] [--header-line N] [--sheet NAME] [--again] [--wait] [--out DIR]",
		summary: "submit a DNC + litigator scrub (charged); with --wait, track it and download the result",
		run:     runSubmit(jobs.KindDNC),
	})
}

// classifySubmitError: a duplicate needs --again (a usage matter); a
// ledger held by the app, or a result that cannot be written into the
// library, is local trouble; a job the API will not let finish (not visible
// to the key, its result not downloadable) is the API's.
func classifySubmitError(err error) (int, bool) {
	switch {
	case errors.Is(err, submit.ErrDuplicate):
		return exitUsage, true
	case errors.Is(err, ledger.ErrLocked):
		return exitFailure, true
	}
	var se *tracker.StuckError
	if errors.As(err, &se) {
		if se.Local() {
			return exitFailure, true
		}
		return exitAPI, true
	}
	return 0, false
}

// pauseEnv names the step at which a test stops the process (see pauseAt).
const pauseEnv = "SKIPDESK_TEST_PAUSE_AT"

// pauseAt is a test hook: when SKIPDESK_TEST_PAUSE_AT names step, the
// process says so on stderr and stops there for good, so that a test can
// kill it at exactly that point of a submission.
func pauseAt(env *Env, step string) {
	if os.Getenv(pauseEnv) != step {
		return
	}
	fmt.Fprintf(env.Stderr, "SKIPDESK_PAUSED %s\n", step)
	for {
		time.Sleep(time.Hour)
	}
}

// openLedger opens the ledger for writing, with a message naming the
// process that holds it.
func openLedger() (*ledger.Ledger, error) {
	led, err := ledger.OpenHome()
	if errors.Is(err, ledger.ErrLocked) {
		return nil, fmt.Errorf("%w; the desktop app and the command line cannot both write the ledger (read-only commands such as `skipdesk-cli jobs` still work)", err)
	}
	return led, err
}

func openLibrary() (*library.Library, error) {
	dir, err := library.DefaultDir()
	if err != nil {
		return nil, err
	}
	return library.Open(dir)
}

func runSubmit(kind jobs.Kind) func(ctx context.Context, env *Env, args []string) error {
	return func(ctx context.Context, env *Env, args []string) error {
		name := "traces submit"
		if kind == jobs.KindDNC {
			name = "dnc submit"
		}
		var o prepOptions
		c := commands[name]
		fs := newFlags(env, name, c)
		file := fs.String("file", "", "the list to submit (CSV or XLSX)")
		fs.IntVar(&o.headerLine, "header-line", 0, "1-based line of the header (0 detects it)")
		fs.StringVar(&o.sheet, "sheet", "", "sheet of an .xlsx workbook (default: the first)")
		dropDup := fs.Bool("drop-duplicates", false, "leave out rows that repeat an earlier row (traces: the mapped values; DNC: the phone)")
		again := fs.Bool("again", false, "submit even though the same file, mapping and options were submitted in the last 24 hours")
		wait := fs.Bool("wait", false, "track the job until it finishes, download the result and print the spend")
		out := fs.String("out", "", "with --wait: also copy the result into this folder")
		var llcs *bool
		var phoneCol *string
		if kind == jobs.KindTrace {
			fs.Var(&o.maps, "map", "map a service key to a header: key=Header (repeatable)")
			fs.StringVar((*string)(&o.mode), "mode", "", "normal (default) or enhanced")
			fs.BoolVar(&o.acceptSplits, "accept-splits", false, "accept the suggested splits of full-name and one-line address columns")
			fs.StringVar(&o.presets, "presets", "", "JSON file of saved mappings, used when --map is not given")
			llcs = fs.Bool("include-llcs", false, "also trace company/LLC rows (billed at the llc rate, or the enhanced rate in enhanced mode)")
		} else {
			o.dnc = true
			phoneCol = fs.String("phone-column", "", "header of the column holding the phone numbers")
		}
		pos, err := parseFlags(fs, args)
		if err != nil {
			return err
		}
		if *file == "" && len(pos) == 1 {
			*file, pos = pos[0], nil
		}
		if *file == "" || len(pos) > 0 {
			return usageErrorf("%s: want --file FILE (and no other arguments)", name)
		}
		if *out != "" && !*wait {
			return usageErrorf("%s: --out needs --wait", name)
		}
		if kind == jobs.KindDNC {
			if *phoneCol == "" {
				return usageErrorf("dnc submit: --phone-column HEADER is required")
			}
			o.maps.m = mapping.Mapping{mapping.Phone: *phoneCol}
		} else if o.maps.m == nil && o.presets == "" {
			return usageErrorf("traces submit: give the mapping with --map key=Header (see `skipdesk-cli validate FILE` for the automatic one)")
		}

		// Read the file and check the mapping before anything costs money.
		p, err := settle(ctx, *file, &o)
		if err != nil {
			return err
		}
		if !p.OK {
			printMapping(env.Stderr, p)
			return p.report(env)
		}
		for _, pr := range p.Validation.Warnings() {
			fmt.Fprintf(env.Stderr, "warning: %s\n", pr.Message)
		}
		up, err := prepare.Prepare(ctx, p.File, p.ins, prepare.Plan{Kind: p.Kind, Mapping: p.Mapping, Splits: p.Splits,
			DropDuplicates: *dropDup, Input: input.Options{HeaderLine: o.headerLine, Sheet: o.sheet}})
		if err != nil {
			return err
		}
		defer up.Remove()
		if up.Written {
			fmt.Fprintf(env.Stderr, "uploading a prepared copy: %s\n", strings.Join(up.Reasons, "; "))
		}

		api, err := env.Client(ctx)
		if err != nil {
			return err
		}
		if *wait {
			// The result is to be saved: find out before paying whether it
			// can be.
			lib, err := openLibrary()
			if err == nil {
				err = lib.Writable()
			}
			if err != nil {
				return fmt.Errorf("%w\nnothing was submitted", err)
			}
		}
		led, err := openLedger()
		if err != nil {
			return err
		}
		defer led.Close()
		// Settle what an earlier run left unknown first: the duplicate
		// check then sees what really happened.
		if err := reconcileQuietly(ctx, env, api, led); err != nil {
			fmt.Fprintf(env.Stderr, "warning: could not reconcile earlier submissions: %v\n", err)
		}

		req := submit.Request{
			File:    submit.File{Path: up.Path, Name: up.FileName, SHA256: up.SHA256, Size: up.Size, Rows: up.Rows},
			Mapping: up.Mapping,
			Options: submit.Options{DropDuplicates: *dropDup, Splits: splitColumns(p.Splits), HeaderLine: o.headerLine, Sheet: o.sheet},
			Again:   *again,
		}
		if up.Size >= 1<<20 {
			var last int64 = -1
			req.Progress = func(sent, total int64) {
				if total > 0 {
					if pct := sent * 100 / total; pct/25 != last/25 {
						last = pct
						fmt.Fprintf(env.Stderr, "uploaded %d%%\n", pct)
					}
				}
			}
		}
		var cost int64 = -1
		if kind == jobs.KindTrace {
			req.Kind, req.Mode, req.IncludeLLCs = jobs.KindTrace, p.Mode, *llcs
			if est, err := traceEstimate(ctx, api, up, p.Mode, *llcs); err == nil {
				req.Estimate, cost = &submit.Estimate{Credits: est.Credits, Rows: est.TotalRows, EntityRows: est.EntityRows}, est.Credits
			}
		} else {
			req.Kind = jobs.KindDNC
			if est, err := dncEstimate(ctx, api, up); err == nil {
				req.Estimate, cost = &submit.Estimate{Credits: est.Credits, Rows: est.Rows}, est.Credits
			}
		}
		req.OnStep = func(s submit.Step, _ *ledger.Submission) {
			if s == submit.StepIntent {
				// Past the duplicate check: this one goes out.
				if cost >= 0 {
					fmt.Fprintf(env.Stderr, "submitting %s: %d %s, estimated %d credits\n", up.FileName, up.Rows, plural(up.Rows, "row", "rows"), cost)
				} else {
					fmt.Fprintf(env.Stderr, "submitting %s: %d %s\n", up.FileName, up.Rows, plural(up.Rows, "row", "rows"))
				}
			}
			pauseAt(env, string(s))
		}
		res, err := submit.Submit(ctx, api, led, req)
		if err != nil {
			var de *submit.DuplicateError
			var ue *submit.UnknownError
			switch {
			case errors.As(err, &de):
				return fmt.Errorf("%w\npass --again to submit it anyway, or follow the earlier job with `skipdesk-cli jobs wait`", err)
			case errors.As(err, &ue):
				return &exitError{code: exitOutcomeUnknown, err: fmt.Errorf("%w\nthe job may have been created and charged; run `skipdesk-cli jobs reconcile` (never resubmit blindly)", err)}
			}
			return env.Explain(ctx, api, err, cost)
		}
		if env.JSON && !*wait {
			return env.Output(map[string]any{"job_id": res.JobID, "credits_charged": res.Charged, "submission": res.Submission.ID}, nil)
		}
		if !env.JSON {
			fmt.Fprintln(env.Stdout, res.JobID)
		}
		fmt.Fprintf(env.Stderr, "created job %s, charged %d credits\n", res.JobID, res.Charged)
		if !*wait {
			return nil
		}
		return waitAndReport(ctx, env, api, led, res.JobID, *out)
	}
}

func traceEstimate(ctx context.Context, api *client.Client, up *prepare.Upload, mode jobs.Mode, llcs bool) (*estimate.Result, error) {
	pricing, err := api.Pricing(ctx)
	if err != nil {
		return nil, err
	}
	account, err := api.Account(ctx)
	if err != nil {
		return nil, err
	}
	ins, err := input.Inspect(ctx, up.Path, estimate.Options(input.Options{SampleRows: -1, HeaderLine: 1}, up.Mapping))
	if err != nil {
		return nil, err
	}
	r := estimate.Estimate(ins, up.Mapping, mode, llcs, pricing, account)
	return &r, nil
}

func dncEstimate(ctx context.Context, api *client.Client, up *prepare.Upload) (*estimate.DNCResult, error) {
	pricing, err := api.Pricing(ctx)
	if err != nil {
		return nil, err
	}
	account, err := api.Account(ctx)
	if err != nil {
		return nil, err
	}
	scan, err := phone.ScanColumn(ctx, up.Path, up.Mapping[mapping.Phone], phone.ScanOptions{Input: input.Options{HeaderLine: 1}})
	if err != nil {
		return nil, err
	}
	r := estimate.EstimateDNC(scan, pricing, account)
	return &r, nil
}

// reconcileQuietly settles earlier unknown submissions, telling only about
// the ones it changed.
func reconcileQuietly(ctx context.Context, env *Env, api *client.Client, led *ledger.Ledger) error {
	outs, err := submit.Reconcile(ctx, api, led, nil)
	for _, o := range outs {
		if o.State != o.Submission.State {
			fmt.Fprintf(env.Stderr, "earlier submission %d (%s): %s — %s\n", o.Submission.ID, o.Submission.FileName, stateWords(o.State), o.Reason)
		}
	}
	return err
}

// newTracker makes the tracker the CLI uses, with its progress line.
func newTracker(env *Env, api *client.Client, led *ledger.Ledger) (*tracker.Tracker, error) {
	lib, err := openLibrary()
	if err != nil {
		return nil, err
	}
	tr := tracker.New(api, led, tracker.Options{Library: lib, OnStep: func(step, _ string) { pauseAt(env, step) }})
	return tr, nil
}

// progressLine prints the tracker's events about jobs on stderr.
func progressLine(env *Env, jobID string) func(tracker.Event) {
	var lastPct int64 = -1
	return func(e tracker.Event) {
		if jobID != "" && e.JobID != jobID && e.JobID != "" {
			return
		}
		switch e.Type {
		case tracker.StatusChanged:
			if !e.Status.Final() { // completed and failed have their own lines
				fmt.Fprintf(env.Stderr, "%s: %s\n", e.JobID, e.Status)
			}
		case tracker.Completed:
			fmt.Fprintf(env.Stderr, "%s: completed; downloading the result\n", e.JobID)
		case tracker.Failed:
			msg := ""
			if e.Job != nil {
				msg = e.Job.ErrorMessage
			}
			fmt.Fprintf(env.Stderr, "%s: failed: %s\n", e.JobID, msg)
		case tracker.DownloadProgress:
			if e.Total > 0 {
				if pct := e.Done * 100 / e.Total; pct/25 != lastPct/25 {
					lastPct = pct
					fmt.Fprintf(env.Stderr, "%s: downloaded %d%%\n", e.JobID, pct)
				}
			}
		case tracker.Downloaded:
			fmt.Fprintf(env.Stderr, "%s: saved %s\n", e.JobID, e.Path)
		case tracker.Error:
			fmt.Fprintf(env.Stderr, "warning: %v\n", e.Err)
		case tracker.Reconciled:
			fmt.Fprintf(env.Stderr, "earlier submission %d: %s — %s\n", e.Submission, stateWords(ledger.State(e.SubmissionState)), e.Reason)
		}
	}
}

// runTracker runs tr until the returned stop is called.
func runTracker(ctx context.Context, tr *tracker.Tracker) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { tr.Run(ctx); close(done) }()
	return func() { cancel(); <-done }
}

// waitAndReport tracks jobID until it failed or its result is downloaded,
// then prints the result path and the spend.
func waitAndReport(ctx context.Context, env *Env, api *client.Client, led *ledger.Ledger, jobID, out string) error {
	tr, err := newTracker(env, api, led)
	if err != nil {
		return err
	}
	defer tr.Subscribe(progressLine(env, jobID))()
	if j, err := led.Job(ctx, jobID); err == nil && !j.Status.Final() {
		fmt.Fprintf(env.Stderr, "%s: %s; waiting (Ctrl+C stops waiting, the job goes on)\n", jobID, j.Status)
	}
	stop := runTracker(ctx, tr)
	defer stop()
	o, err := tr.Wait(ctx, jobID)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("stopped waiting; job %s is recorded: `skipdesk-cli jobs wait` resumes: %w", jobID, ctx.Err())
		}
		return stuckHint(err)
	}
	return reportOutcome(env, o, out)
}

// reportOutcome prints where a job ended: the result path (copied into out
// when given) and the spend.
func reportOutcome(env *Env, o *tracker.Outcome, out string) error {
	path := ""
	if o.Download != nil {
		path = o.Download.Path
		if out != "" {
			p, err := copyInto(o.Download.Path, out)
			if err != nil {
				return err
			}
			path = p
		}
	}
	if env.JSON {
		return env.Output(map[string]any{"job_id": o.Job.ID, "status": o.Job.Status, "result": path,
			"credits_charged": o.Spend.Charged, "credits_refunded": o.Spend.Refunded, "credits_net": o.Spend.Net(),
			"error_message": o.Job.ErrorMessage}, nil)
	}
	if path != "" {
		fmt.Fprintf(env.Stdout, "result %s\n", path)
	}
	fmt.Fprintf(env.Stdout, "spend charged %d refunded %d net %d\n", o.Spend.Charged, o.Spend.Refunded, o.Spend.Net())
	if o.Job.Status == jobs.StatusFailed {
		return &exitError{code: exitAPI, err: fmt.Errorf("job %s failed: %s (refunded %d credits)", o.Job.ID, o.Job.ErrorMessage, o.Spend.Refunded)}
	}
	return nil
}

// stuckHint adds to a job stuck on this computer what gets it going again.
func stuckHint(err error) error {
	var se *tracker.StuckError
	if errors.As(err, &se) && se.Local() {
		return fmt.Errorf("%w\nmake the folder writable (or free some space), then `skipdesk-cli jobs wait` downloads what is missing", err)
	}
	return err
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

// splitColumns names the columns of accepted splits.
func splitColumns(ss []mapping.Split) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Column)
	}
	return out
}
