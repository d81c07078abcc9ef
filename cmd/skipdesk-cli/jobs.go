package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
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
	register("jobs adopt", &command{usage: "SUBMISSION JOB_ID",
		summary: "record a job that `jobs reconcile` listed as looking like an unknown submission as that submission's, on your word",
		run:     runJobsAdopt})
	register("jobs dismiss", &command{usage: "SUBMISSION --reason TEXT",
		summary: "record that an unknown submission created no job (you checked the provider's dashboard)",
		run:     runJobsDismiss})
	register("jobs wait", &command{usage: "[ID]",
		summary: "track the jobs in flight (or one job) until done, downloading the results; resumes after an interruption",
		run:     runJobsWait})
}

type jobsOut struct {
	Jobs    []jobLine        `json:"jobs"`
	Pending []pendingLine    `json:"pending_submissions"`
	Spend   map[string]int64 `json:"spend"`

	Charged, Refunded int64 `json:"-"`
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
	Problem   string    `json:"figures_problem,omitempty"`
	// MergePending: the merge of the rows it reused is not written yet.
	MergePending bool `json:"merge_pending,omitempty"`
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
	if err := flagsOnly(env, "jobs", args, nil); err != nil {
		return err
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	// Read-only: works while the desktop app holds the job records.
	list, err := svc.Jobs().LocalJobs(ctx)
	if err != nil {
		return err
	}
	out := jobsOutOf(list)
	return env.Output(out, out.print)
}

// jobsOutOf is the jobs list as `jobs` prints it: the jobs, the
// submissions whose outcome is unknown apart, and the spend of the jobs
// whose figures can be right.
func jobsOutOf(list []workflow.Job) jobsOut {
	out := jobsOut{Jobs: []jobLine{}, Pending: []pendingLine{}}
	for _, j := range list {
		if j.Status == jobs.StatusUnknown {
			out.Pending = append(out.Pending, pendingLine{Submission: j.Submission, Kind: string(j.Kind), File: j.Name, Rows: j.Rows,
				State: "unknown — may be charged", CreatedAt: j.CreatedAt, Error: j.ErrorMessage})
			continue
		}
		out.Jobs = append(out.Jobs, jobLine{ID: j.ID, Kind: string(j.Kind), Name: j.Name, Status: string(j.Status), Rows: j.Rows,
			Charged: j.Charged, Refunded: j.Refunded, Net: j.Net(), CreatedAt: j.CreatedAt, Error: j.ErrorMessage, Result: j.ResultPath,
			Problem: j.Problem, MergePending: j.MergePending})
		if j.Problem != "" {
			continue // figures that cannot be right are not summed
		}
		out.Charged += j.Charged
		out.Refunded += j.Refunded
	}
	out.Spend = map[string]int64{"charged": out.Charged, "refunded": out.Refunded, "net": out.Charged - out.Refunded}
	return out
}

// print writes the jobs list as text.
func (out jobsOut) print(w io.Writer) {
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
		result := l.Result
		if l.MergePending {
			result = "(earlier results not merged in yet: `skipdesk-cli jobs wait` merges them)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%d\t%d\t%s\t%s\t%s\n", l.ID, l.Kind, l.Status, l.Rows, l.Charged, l.Refunded, l.Net,
			created, cleanText(l.Name), result)
	}
	tw.Flush()
	fmt.Fprintf(w, "total: charged %d, refunded %d, net %d credits\n", out.Charged, out.Refunded, out.Charged-out.Refunded)
	for _, l := range out.Jobs {
		if l.Problem != "" {
			fmt.Fprintf(w, "not counted: job %s reported %s\n", l.ID, l.Problem)
		}
	}
	if len(out.Pending) > 0 {
		fmt.Fprintf(w, "\n%d %s with an unknown outcome (run `skipdesk-cli jobs reconcile`):\n", len(out.Pending),
			plural(len(out.Pending), "submission", "submissions"))
		for _, p := range out.Pending {
			fmt.Fprintf(w, "  #%d %s %s (%d rows) at %s: %s\n", p.Submission, p.Kind, p.File, p.Rows,
				p.CreatedAt.Local().Format("2006-01-02 15:04:05"), p.State)
		}
	}
}

func runJobsReconcile(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "jobs reconcile", commands["jobs reconcile"])
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) > 0 {
		return usageErrorf("jobs reconcile: unexpected arguments %q", pos)
	}
	svc, err := env.connect(ctx)
	if err != nil {
		return err
	}
	outs, err := svc.Jobs().Reconcile(ctx)
	if err != nil {
		return err
	}
	unknown := 0
	lines := []workflow.Settled{}
	for _, o := range outs {
		if o.Unknown() {
			unknown++
		}
		lines = append(lines, o)
	}
	err = env.Output(lines, func(w io.Writer) {
		if len(outs) == 0 {
			fmt.Fprintln(w, "nothing to reconcile")
		}
		for _, o := range outs {
			fmt.Fprintf(w, "#%d %s: %s — %s\n", o.Submission, cleanText(o.FileName), o.StateWords(), cleanText(o.Reason))
			for _, la := range o.LookAlikes {
				fmt.Fprintf(w, "    looks like job %s %q (%s, created %s, charged %s)\n", la.JobID, cleanText(la.Name),
					plural(la.Rows, "row", "rows"), la.CreatedAt.Local().Format("2006-01-02 15:04:05"), credits(la.Charged))
			}
			if len(o.LookAlikes) > 0 {
				fmt.Fprintf(w, "    none carries this submission's mark: if one is yours, `skipdesk-cli jobs adopt %d JOB_ID`; "+
					"if the dashboard shows none was made, `skipdesk-cli jobs dismiss %d --reason ...`\n", o.Submission, o.Submission)
			}
		}
	})
	if err != nil {
		return err
	}
	if unknown > 0 {
		return &exitError{code: exitOutcomeUnknown, plain: true, err: fmt.Errorf("%s still unknown — may be charged; run `skipdesk-cli jobs reconcile` again later",
			plural(unknown, "submission is", "submissions are"))}
	}
	return nil
}

func runJobsWait(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "jobs wait", commands["jobs wait"])
	out := fs.String("out", "", "with an ID: also copy the result into this folder")
	limit := fs.Duration("wait-limit", 0, "with an ID: give up waiting after this long (the job stays tracked); 0 waits until it ends")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageErrorf("jobs wait: at most one job id")
	}
	if len(pos) == 0 && (*out != "" || *limit != 0) {
		return usageErrorf("jobs wait: --out and --wait-limit need a job id")
	}
	svc, err := env.connect(ctx)
	if err != nil {
		return err
	}
	if len(pos) == 1 {
		settled, err := svc.Jobs().Reconcile(ctx)
		if err != nil {
			fmt.Fprintf(env.Stderr, "warning: could not reconcile earlier submissions: %s\n", words(err))
		}
		printSettled(env, settled)
		return waitAndReport(ctx, env, svc, pos[0], *out, *limit, nil)
	}
	defer svc.Jobs().Subscribe(progressLine(env, ""))()
	if err := svc.Jobs().WaitAll(ctx); err != nil {
		var se *workflow.StuckError
		if errors.As(err, &se) {
			return fmt.Errorf("every other job is done; %w", err)
		}
		return err
	}
	if svc.Team().Sharing() {
		// A teammate's result is downloaded where it is opened.
		fmt.Fprintln(env.Stdout, "no job in flight; every result submitted from this computer is downloaded (teammates' results stay in their libraries until opened here)")
		return nil
	}
	fmt.Fprintln(env.Stdout, "no job in flight; every result is downloaded")
	return nil
}

func runJobsAdopt(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "jobs adopt", commands["jobs adopt"])
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usageErrorf("jobs adopt: want SUBMISSION JOB_ID")
	}
	sub, err := submissionNumber("jobs adopt", pos[0])
	if err != nil {
		return err
	}
	svc, err := env.connect(ctx)
	if err != nil {
		return err
	}
	if err := svc.Jobs().Adopt(ctx, sub, pos[1]); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "submission #%d is job %s\n", sub, pos[1])
	return nil
}

// submissionNumber reads a submission's number as `jobs` prints it ("#12"
// or "12").
func submissionNumber(name, arg string) (int64, error) {
	sub, err := strconv.ParseInt(strings.TrimPrefix(arg, "#"), 10, 64)
	if err != nil {
		return 0, usageErrorf("%s: %q is not a submission number (see `skipdesk-cli jobs`)", name, arg)
	}
	return sub, nil
}

func runJobsDismiss(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "jobs dismiss", commands["jobs dismiss"])
	reason := fs.String("reason", "", "what you checked (kept with the record)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || strings.TrimSpace(*reason) == "" {
		return usageErrorf("jobs dismiss: want SUBMISSION --reason TEXT")
	}
	sub, err := submissionNumber("jobs dismiss", pos[0])
	if err != nil {
		return err
	}
	svc, err := env.connect(ctx)
	if err != nil {
		return err
	}
	if err := svc.Jobs().Dismiss(ctx, sub, *reason); err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "submission #%d: no job, not charged\n", sub)
	return nil
}
