package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/submit"
	"github.com/skipdesk/skipdesk/jobs/tracker"
)

// The ledger from the command line: every job with its status and spend,
// reconciliation of unknown submissions, and waiting for jobs in flight.

func init() {
	register("jobs", &command{usage: "[--json]",
		summary: "every job in the local ledger: status, rows, credits charged, refunded and net, result file",
		run:     runJobs})
	register("jobs reconcile", &command{usage: "",
		summary: "settle submissions whose outcome is unknown by finding their jobs in the API's lists (never resubmits)",
		run:     runJobsReconcile})
	register("jobs wait", &command{usage: "[ID]",
		summary: "track the jobs in flight (or one job) until done, downloading the results; resumes after an interruption",
		run:     runJobsWait})
}

func stateWords(s ledger.State) string {
	switch s {
	case ledger.StateUnknown, ledger.StateSent:
		return "unknown — may be charged"
	case ledger.StateNotCreated:
		return "not created (not charged)"
	case ledger.StateCreated:
		return "created"
	case ledger.StateFailed:
		return "refused by the service (not charged)"
	case ledger.StateIntent:
		return "not sent"
	}
	return string(s)
}

type jobsOut struct {
	Jobs    []jobLine        `json:"jobs"`
	Pending []pendingLine    `json:"pending_submissions"`
	Total   ledger.Spend     `json:"-"`
	Spend   map[string]int64 `json:"spend"`
}

type jobLine struct {
	ID        string    `json:"id"`
	Kind      string    `json:"kind"`
	Name      string    `json:"name"`
	Status    string    `json:"status"`
	Rows      int       `json:"rows"`
	Charged   int64     `json:"credits_charged"`
	Refunded  int64     `json:"credits_refunded"`
	Net       int64     `json:"credits_net"`
	CreatedAt time.Time `json:"created_at"`
	Result    string    `json:"result,omitempty"`
	Error     string    `json:"error_message,omitempty"`
}

type pendingLine struct {
	Submission int64     `json:"submission"`
	Kind       string    `json:"kind"`
	File       string    `json:"file"`
	Rows       int       `json:"rows"`
	State      string    `json:"state"`
	CreatedAt  time.Time `json:"created_at"`
	Error      string    `json:"error,omitempty"`
}

func runJobs(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "jobs", commands["jobs"])
	jsonOut := fs.Bool("json", false, "print JSON")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return usageErrorf("jobs: unexpected arguments %q", pos)
	}
	env.JSON = env.JSON || *jsonOut
	home, err := ledger.Home()
	if err != nil {
		return err
	}
	// Read-only: works while the desktop app holds the ledger.
	led, err := ledger.OpenReadOnly(home)
	if errors.Is(err, ledger.ErrNoLedger) {
		return env.Output(jobsOut{Jobs: []jobLine{}, Pending: []pendingLine{}, Spend: map[string]int64{}}, func(w io.Writer) {
			fmt.Fprintln(w, "no jobs yet")
		})
	}
	if err != nil {
		return err
	}
	defer led.Close()
	entries, err := led.Entries(ctx)
	if err != nil {
		return err
	}
	pending, err := led.Submissions(ctx, ledger.StateIntent, ledger.StateSent, ledger.StateUnknown)
	if err != nil {
		return err
	}
	out := jobsOut{Jobs: []jobLine{}, Pending: []pendingLine{}}
	for _, e := range entries {
		l := jobLine{ID: e.ID, Kind: string(e.Kind), Name: e.Name, Status: string(e.Status), Rows: e.TotalRows, Charged: e.Spend.Charged,
			Refunded: e.Spend.Refunded, Net: e.Spend.Net(), CreatedAt: e.CreatedAt, Error: e.ErrorMessage}
		if e.Download != nil {
			l.Result = e.Download.Path
		}
		out.Jobs = append(out.Jobs, l)
		out.Total.Charged += e.Spend.Charged
		out.Total.Refunded += e.Spend.Refunded
	}
	for _, s := range pending {
		out.Pending = append(out.Pending, pendingLine{Submission: s.ID, Kind: string(s.Kind), File: s.FileName, Rows: s.Rows,
			State: stateWords(s.State), CreatedAt: s.CreatedAt, Error: s.Error})
	}
	out.Spend = map[string]int64{"charged": out.Total.Charged, "refunded": out.Total.Refunded, "net": out.Total.Net()}
	return env.Output(out, func(w io.Writer) {
		if len(out.Jobs) == 0 && len(out.Pending) == 0 {
			fmt.Fprintln(w, "no jobs yet")
			return
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tKIND\tSTATUS\tROWS\tCHARGED\tREFUNDED\tNET\tCREATED\tNAME\tRESULT")
		for _, l := range out.Jobs {
			created := ""
			if !l.CreatedAt.IsZero() {
				created = l.CreatedAt.Local().Format("2006-01-02 15:04")
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", l.ID, l.Kind, l.Status, l.Rows, l.Charged, l.Refunded, l.Net,
				created, l.Name, l.Result)
		}
		tw.Flush()
		fmt.Fprintf(w, "total: charged %d, refunded %d, net %d credits\n", out.Total.Charged, out.Total.Refunded, out.Total.Net())
		if len(out.Pending) > 0 {
			fmt.Fprintf(w, "\n%d %s with an unknown outcome (run `skipdesk-cli jobs reconcile`):\n", len(out.Pending),
				plural(len(out.Pending), "submission", "submissions"))
			for _, p := range out.Pending {
				fmt.Fprintf(w, "  #%d %s %s (%d rows) at %s: %s\n", p.Submission, p.Kind, p.File, p.Rows,
					p.CreatedAt.Local().Format("2006-01-02 15:04:05"), p.State)
			}
		}
	})
}

func runJobsReconcile(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "jobs reconcile", commands["jobs reconcile"])
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return usageErrorf("jobs reconcile: unexpected arguments %q", pos)
	}
	api, err := env.Client(ctx)
	if err != nil {
		return err
	}
	led, err := openLedger()
	if err != nil {
		return err
	}
	defer led.Close()
	outs, err := submit.Reconcile(ctx, api, led, nil)
	if err != nil {
		return env.Explain(ctx, api, err, -1)
	}
	unknown := 0
	type line struct {
		Submission int64  `json:"submission"`
		File       string `json:"file"`
		State      string `json:"state"`
		JobID      string `json:"job_id,omitempty"`
		Reason     string `json:"reason"`
	}
	lines := []line{}
	for _, o := range outs {
		if o.State == ledger.StateUnknown {
			unknown++
		}
		lines = append(lines, line{o.Submission.ID, o.Submission.FileName, string(o.State), o.JobID, o.Reason})
	}
	err = env.Output(lines, func(w io.Writer) {
		if len(outs) == 0 {
			fmt.Fprintln(w, "nothing to reconcile")
		}
		for _, o := range outs {
			fmt.Fprintf(w, "#%d %s: %s — %s\n", o.Submission.ID, o.Submission.FileName, stateWords(o.State), o.Reason)
		}
	})
	if err != nil {
		return err
	}
	if unknown > 0 {
		return &exitError{code: exitOutcomeUnknown, err: fmt.Errorf("%d %s still unknown — may be charged; run `skipdesk-cli jobs reconcile` again later",
			unknown, plural(unknown, "submission is", "submissions are"))}
	}
	return nil
}

func runJobsWait(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "jobs wait", commands["jobs wait"])
	out := fs.String("out", "", "with an ID: also copy the result into this folder")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageErrorf("jobs wait: at most one job id")
	}
	api, err := env.Client(ctx)
	if err != nil {
		return err
	}
	led, err := openLedger()
	if err != nil {
		return err
	}
	defer led.Close()
	if err := reconcileQuietly(ctx, env, api, led); err != nil {
		fmt.Fprintf(env.Stderr, "warning: could not reconcile earlier submissions: %v\n", err)
	}
	if len(pos) == 1 {
		if _, err := led.Job(ctx, pos[0]); err != nil {
			return usageErrorf("jobs wait: %s is not in the ledger (see `skipdesk-cli jobs`)", pos[0])
		}
		return waitAndReport(ctx, env, api, led, pos[0], *out)
	}
	if *out != "" {
		return usageErrorf("jobs wait: --out needs a job id")
	}
	tr, err := newTracker(env, api, led)
	if err != nil {
		return err
	}
	defer tr.Subscribe(progressLine(env, ""))()
	stop := runTracker(ctx, tr)
	defer stop()
	if err := tr.WaitIdle(ctx); err != nil {
		var se *tracker.StuckError
		if errors.As(err, &se) {
			code := exitAPI
			if se.Local() {
				code = exitFailure
			}
			return &exitError{code: code, err: stuckHint(fmt.Errorf("every other job is done; %w", err))}
		}
		return fmt.Errorf("stopped waiting: %w", err)
	}
	fmt.Fprintln(env.Stdout, "no job in flight; every result is downloaded")
	return nil
}
