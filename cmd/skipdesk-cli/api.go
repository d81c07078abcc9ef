package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// The commands that call the API directly: account, pricing, and reading,
// downloading, single traces and webhook re-sends of trace and DNC jobs.

func init() {
	classifiers = append(classifiers, classifyAPIError)

	register("account", &command{usage: "", summary: "show the account: credits, billing mode, plan",
		run: showCommand("account", func(ctx context.Context, svc *workflow.Service) (*client.Account, error) {
			return svc.Sessions().Account(ctx)
		}, printAccount)})
	register("pricing", &command{usage: "", summary: "show the credit rates per row",
		run: showCommand("pricing", func(ctx context.Context, svc *workflow.Service) (*client.Pricing, error) {
			return svc.Sessions().Pricing(ctx)
		}, printPricing)})

	register("traces list", &command{usage: "[--type bulk|single] [--page N] [--limit N] [--all]",
		summary: "list trace jobs, newest first", run: runTracesList})
	register("traces get", &command{usage: "ID", summary: "show one trace job", run: runJobGet("traces")})
	register("traces download", &command{usage: "ID --out PATH", summary: "download the result CSV of a completed trace",
		run: runJobDownload("traces")})
	register("traces single", &command{
		usage:   "--first-name NAME [--last-name NAME] --address STREET --city CITY --state ST --zip ZIP [--mailing-address … --mailing-city … --mailing-state … --mailing-zip …] [--entity]",
		summary: "trace one owner now (charged: 1 row at the normal rate, or the llc rate for a company)",
		run:     runTracesSingle})
	register("traces retry-webhook", &command{usage: "ID", summary: "send a finished trace's webhook again",
		run: runJobRetryWebhook("traces")})

	register("dnc list", &command{usage: "[--page N] [--limit N] [--all]", summary: "list DNC scrub jobs, newest first", run: runDNCList})
	register("dnc get", &command{usage: "ID", summary: "show one DNC scrub job", run: runJobGet("dnc")})
	register("dnc download", &command{usage: "ID --out PATH", summary: "download the result CSV of a completed DNC scrub",
		run: runJobDownload("dnc")})
	register("dnc retry-webhook", &command{usage: "ID", summary: "send a finished DNC job's webhook again",
		run: runJobRetryWebhook("dnc")})
}

// classifyAPIError maps client errors to exit codes: a validation refusal
// (400) 2, any other API or network failure 3. (A charged request with an
// unknown outcome is 4 before any of these: see exitCode.)
func classifyAPIError(err error) (int, bool) {
	var ae *client.APIError
	if errors.As(err, &ae) {
		if ae.StatusCode == 400 {
			return exitUsage, true
		}
		return exitAPI, true
	}
	var te *client.TransportError
	if errors.As(err, &te) {
		return exitAPI, true
	}
	return 0, false
}

// Output prints v as indented JSON with --json, else calls text.
func (e *Env) Output(v any, text func(w io.Writer)) error {
	if e.JSON {
		enc := json.NewEncoder(e.Stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(v)
	}
	text(e.Stdout)
	return nil
}

// num formats an integer with thousands separators.
func num(n int64) string { return jobs.Thousands(n) }

// credits is "1 credit" or "N credits".
func credits(n int64) string { return jobs.Credits(n) }

func jsonFlag(env *Env, fs interface {
	BoolVar(*bool, string, bool, string)
}) {
	fs.BoolVar(&env.JSON, "json", env.JSON, "print JSON")
}

// parseCommand parses the flags of the command name, --json among them;
// more, when set, adds the command's own. It returns the positional
// arguments.
func parseCommand(env *Env, name string, args []string, more func(fs *flag.FlagSet)) ([]string, error) {
	fs := newFlags(env, name, commands[name])
	jsonFlag(env, fs)
	if more != nil {
		more(fs)
	}
	return parseFlags(fs, args)
}

// groupOnly is parseCommand for a command that has subcommands (subs
// names them): a word left after its flags is one it does not have.
func groupOnly(env *Env, name, subs string, args []string) error {
	pos, err := parseCommand(env, name, args, nil)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("%s: unknown subcommand %q (%s)", name, pos[0], subs)
	}
	return nil
}

// flagsOnly is parseCommand for a command that takes no positional
// arguments.
func flagsOnly(env *Env, name string, args []string, more func(fs *flag.FlagSet)) error {
	pos, err := parseCommand(env, name, args, more)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("%s takes no arguments (got %q)", name, pos[0])
	}
	return nil
}

// fetchAndShow connects, asks get for a value and prints it: as JSON with
// --json, else through text.
func fetchAndShow[T any](ctx context.Context, env *Env, get func(context.Context, *workflow.Service) (T, error),
	text func(io.Writer, T)) error {
	svc, err := env.connect(ctx)
	if err != nil {
		return err
	}
	return getAndShow(ctx, env, svc, get, text)
}

// showLocal is fetchAndShow on this computer's records, with no session.
func showLocal[T any](ctx context.Context, env *Env, get func(context.Context, *workflow.Service) (T, error),
	text func(io.Writer, T)) error {
	svc, err := env.service()
	if err != nil {
		return err
	}
	return getAndShow(ctx, env, svc, get, text)
}

// getAndShow prints what get answers from svc, as text or JSON.
func getAndShow[T any](ctx context.Context, env *Env, svc *workflow.Service, get func(context.Context, *workflow.Service) (T, error),
	text func(io.Writer, T)) error {
	v, err := get(ctx, svc)
	if err != nil {
		return err
	}
	return env.Output(v, func(w io.Writer) { text(w, v) })
}

// showCommand is a command that takes only flags and prints what get
// answers.
func showCommand[T any](name string, get func(context.Context, *workflow.Service) (T, error),
	text func(io.Writer, T)) func(context.Context, *Env, []string) error {
	return func(ctx context.Context, env *Env, args []string) error {
		if err := flagsOnly(env, name, args, nil); err != nil {
			return err
		}
		return fetchAndShow(ctx, env, get, text)
	}
}

func printAccount(w io.Writer, a *client.Account) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "Account\t%s\n", a.ID)
	fmt.Fprintf(tw, "E-mail\t%s\n", a.Email)
	fmt.Fprintf(tw, "Billing\t%s\n", a.BillingMode)
	fmt.Fprintf(tw, "Credits\t%s\n", num(a.Credits))
	if s := a.Subscription; s != nil {
		fmt.Fprintf(tw, "Plan\t%s (%s): %s of %s credits used", s.PlanName, s.PlanID, num(s.CreditsUsed), num(s.CreditsLimit))
		if !s.CurrentPeriodEnd.IsZero() {
			fmt.Fprintf(tw, ", period ends %s", s.CurrentPeriodEnd.Local().Format("2006-01-02"))
		}
		fmt.Fprintln(tw)
	}
	if m := a.Metered; m != nil {
		due := "no"
		if m.PastDue {
			due = "YES: submissions are refused until the card is settled"
		}
		fmt.Fprintf(tw, "Metered\tunbilled %s of %s credits; card ending %s; past due: %s\n",
			num(m.UnbilledUsage), num(m.Threshold), m.CardLast4, due)
	}
	tw.Flush()
}

func printPricing(w io.Writer, p *client.Pricing) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "normal trace\t%s per row\n", credits(p.Rates.Normal))
	fmt.Fprintf(tw, "enhanced trace\t%s per row\n", credits(p.Rates.Enhanced))
	fmt.Fprintf(tw, "company/LLC row\t%s per row\n", credits(p.Rates.LLC))
	fmt.Fprintf(tw, "DNC scrub\t%s per phone\n", credits(p.Rates.DNC))
	tw.Flush()
}

type pageFlags struct {
	page, limit int
	all         bool
}

func addPageFlags(fs interface {
	IntVar(*int, string, int, string)
	BoolVar(*bool, string, bool, string)
}, p *pageFlags) {
	fs.IntVar(&p.page, "page", 0, "page number (default 1)")
	fs.IntVar(&p.limit, "limit", 0, "jobs per page, at most 100 (default 10; 100 with --all)")
	fs.BoolVar(&p.all, "all", false, "every page")
}

func (p *pageFlags) check() error {
	if p.page < 0 {
		return usageErrorf("--page must be 1 or more")
	}
	if p.limit < 0 || p.limit > 100 {
		return usageErrorf("--limit must be between 1 and 100")
	}
	return nil
}

func runTracesList(ctx context.Context, env *Env, args []string) error {
	var pf pageFlags
	var typ string
	err := flagsOnly(env, "traces list", args, func(fs *flag.FlagSet) {
		addPageFlags(fs, &pf)
		fs.StringVar(&typ, "type", "", "bulk (CSV uploads) or single (one-owner lookups); default both")
	})
	if err != nil {
		return err
	}
	if err := pf.check(); err != nil {
		return err
	}
	if typ != "" && typ != client.TypeBulk && typ != client.TypeSingle {
		return usageErrorf("--type must be bulk or single, not %q", typ)
	}
	svc, err := env.connect(ctx)
	if err != nil {
		return err
	}
	listed, err := svc.API().ListTraces(ctx, client.TraceListOptions{Page: pf.page, Limit: pf.limit, Type: typ}, pf.all)
	if err != nil {
		return err
	}
	return traceTable.show(env, listed)
}

func runDNCList(ctx context.Context, env *Env, args []string) error {
	var pf pageFlags
	if err := flagsOnly(env, "dnc list", args, func(fs *flag.FlagSet) { addPageFlags(fs, &pf) }); err != nil {
		return err
	}
	if err := pf.check(); err != nil {
		return err
	}
	svc, err := env.connect(ctx)
	if err != nil {
		return err
	}
	listed, err := svc.API().ListDNC(ctx, client.ListOptions{Page: pf.page, Limit: pf.limit}, pf.all)
	if err != nil {
		return err
	}
	return dncTable.show(env, listed)
}

// jobTable prints a listing of the API's jobs of one kind.
type jobTable[T any] struct {
	member string // the list's member in the JSON page: "traces", "jobs"
	what   string // the jobs in words: "trace jobs"
	header string // the table's heading, tab-separated
	row    func(w io.Writer, j *T)
}

var traceTable = jobTable[client.Trace]{member: "traces", what: "trace jobs",
	header: "ID\tSTATUS\tTYPE\tMODE\tROWS\tMATCHED\tCHARGED\tREFUNDED\tCREATED\tNAME",
	row: func(w io.Writer, t *client.Trace) {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\n", t.ID, t.Status, dash(t.Type), t.Mode, t.TotalRows,
			t.MatchCount, num(t.CreditsCharged), num(t.CreditsRefunded), when(t.CreatedAt), t.Name)
	}}

var dncTable = jobTable[client.DNCJob]{member: "jobs", what: "DNC jobs",
	header: "ID\tSTATUS\tROWS\tFLAGGED\tERRORS\tCHARGED\tREFUNDED\tCREATED\tNAME",
	row: func(w io.Writer, j *client.DNCJob) {
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", j.ID, j.Status, j.TotalRows, j.MatchCount, j.ErrorCount,
			num(j.CreditsCharged), num(j.CreditsRefunded), when(j.CreatedAt), j.Name)
	}}

// show prints listed, after a warning for each item that could not be
// read. The JSON is the API's page (its _metadata when it had one), with
// the jobs that could be read.
func (t jobTable[T]) show(env *Env, listed workflow.Listed[T]) error {
	list, md := nonNil(listed.Jobs), listed.Metadata
	warnUnreadable(env, listed.Unreadable)
	v := map[string]any{t.member: list}
	if md != nil {
		v["_metadata"] = *md
	}
	return env.Output(v, func(w io.Writer) {
		if len(list) == 0 {
			fmt.Fprintf(w, "no %s\n", t.what)
		} else {
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, t.header)
			for i := range list {
				t.row(tw, &list[i])
			}
			tw.Flush()
		}
		footer(w, md, len(list), t.what)
	})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func footer(w io.Writer, md *client.Metadata, n int, what string) {
	if md != nil {
		fmt.Fprintf(w, "page %d of %d (%d %s in all)\n", md.Page, md.PageCount, md.TotalCount, what)
	} else {
		fmt.Fprintf(w, "%d %s\n", n, what)
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04")
}

func strOr(p *string, def string) string {
	if p == nil || *p == "" {
		return def
	}
	return *p
}

// oneID parses the flags of an "ID" command.
func oneID(env *Env, name string, args []string, extra func(fs *flag.FlagSet)) (string, error) {
	return oneArg(env, name, "job ID", args, extra)
}

// oneArg is parseCommand for a command that takes one positional argument
// (what, in the message when it gets another count): it returns it.
func oneArg(env *Env, name, what string, args []string, more func(fs *flag.FlagSet)) (string, error) {
	pos, err := parseCommand(env, name, args, more)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", usageErrorf("%s: want one %s, got %d arguments", name, what, len(pos))
	}
	return pos[0], nil
}

func runJobGet(resource string) func(context.Context, *Env, []string) error {
	name := resource + " get"
	return func(ctx context.Context, env *Env, args []string) error {
		id, err := oneID(env, name, args, nil)
		if err != nil {
			return err
		}
		if resource == "traces" {
			return fetchAndShow(ctx, env, func(ctx context.Context, svc *workflow.Service) (*client.Trace, error) {
				return svc.API().Trace(ctx, id)
			}, printTrace)
		}
		return fetchAndShow(ctx, env, func(ctx context.Context, svc *workflow.Service) (*client.DNCJob, error) {
			return svc.API().DNCJob(ctx, id)
		}, printDNC)
	}
}

func printTrace(w io.Writer, t *client.Trace) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	printJobID(tw, t.ID, t.EncodedID)
	fmt.Fprintf(tw, "Name\t%s\n", t.Name)
	fmt.Fprintf(tw, "Status\t%s\n", t.Status)
	if t.Type != "" {
		fmt.Fprintf(tw, "Type\t%s\n", t.Type)
	}
	fmt.Fprintf(tw, "Mode\t%s (company rows %s)\n", t.Mode, map[bool]string{true: "included", false: "skipped"}[t.IncludeLLCs])
	fmt.Fprintf(tw, "Rows\t%d (%d company rows)\n", t.TotalRows, t.EntityRows)
	if t.Status.Final() {
		fmt.Fprintf(tw, "Results\t%d matched, %d no match, %d errors\n", t.MatchCount, t.NoMatchCount, t.ErrorCount)
	}
	fmt.Fprintf(tw, "Credits\t%s charged, %s refunded, %s net\n", num(t.CreditsCharged), num(t.CreditsRefunded), num(t.CreditsCharged-t.CreditsRefunded))
	if b := t.Breakdown; b != nil {
		for _, x := range []struct {
			n string
			t client.Tier
		}{{"individuals", b.Individuals}, {"companies", b.LLCs}} {
			fmt.Fprintf(tw, "  %s\t%d rows at %d: %d matched, %d no match, %d errors; %s charged, %s refunded\n", x.n, x.t.Rows, x.t.Rate,
				x.t.Match, x.t.NoMatch, x.t.Error, num(x.t.CreditsCharged), num(x.t.CreditsRefunded))
		}
	}
	printJobEnd(tw, t.CreatedAt, t.CompletedAt, t.ErrorMessage, t.DownloadURL)
	tw.Flush()
}

func printDNC(w io.Writer, j *client.DNCJob) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	printJobID(tw, j.ID, j.EncodedID)
	if j.Name != "" {
		fmt.Fprintf(tw, "Name\t%s\n", j.Name)
	}
	fmt.Fprintf(tw, "Status\t%s\n", j.Status)
	fmt.Fprintf(tw, "Phones\t%d\n", j.TotalRows)
	if j.Status.Final() {
		fmt.Fprintf(tw, "Results\t%d on the DNC or litigator lists, %d invalid\n", j.MatchCount, j.ErrorCount)
	}
	fmt.Fprintf(tw, "Credits\t%s charged at %d per phone, %s refunded, %s net\n", num(j.CreditsCharged), j.Rate,
		num(j.CreditsRefunded), num(j.CreditsCharged-j.CreditsRefunded))
	printJobEnd(tw, j.CreatedAt, j.CompletedAt, j.ErrorMessage, j.DownloadURL)
	tw.Flush()
}

// printJobID prints a job's id, and its encoded id where that differs.
func printJobID(tw io.Writer, id, encoded string) {
	fmt.Fprintf(tw, "ID\t%s\n", id)
	if encoded != "" && encoded != id {
		fmt.Fprintf(tw, "Encoded ID\t%s\n", encoded)
	}
}

// printJobEnd prints the lines a job's details end with: when it was
// created and completed, its error and its result's address.
func printJobEnd(tw io.Writer, created, completed time.Time, errMsg, downloadURL *string) {
	fmt.Fprintf(tw, "Created\t%s\n", when(created))
	if !completed.IsZero() {
		fmt.Fprintf(tw, "Completed\t%s\n", when(completed))
	}
	if errMsg != nil && *errMsg != "" {
		fmt.Fprintf(tw, "Error\t%s\n", *errMsg)
	}
	fmt.Fprintf(tw, "Result\t%s\n", strOr(downloadURL, "-"))
}

func runJobDownload(resource string) func(context.Context, *Env, []string) error {
	name := resource + " download"
	return func(ctx context.Context, env *Env, args []string) error {
		var out string
		id, err := oneID(env, name, args, func(fs *flag.FlagSet) {
			fs.StringVar(&out, "out", "", "file to write (or an existing folder: ID.csv inside it)")
		})
		if err != nil {
			return err
		}
		if out == "" {
			return usageErrorf("%s: --out PATH is required", name)
		}
		if st, err := os.Stat(out); err == nil && st.IsDir() {
			out = filepath.Join(out, safeFileName(id)+".csv")
		}
		svc, err := env.connect(ctx)
		if err != nil {
			return err
		}
		n, err := svc.API().DownloadTo(ctx, resourceKind(resource), id, out, nil)
		if err != nil {
			var ae *client.APIError
			if errors.As(err, &ae) && ae.StatusCode == 409 {
				return &exitError{code: exitAPI, plain: true, err: fmt.Errorf("the result of %s is not available (the job is still processing or has failed): %w", id, err)}
			}
			return err
		}
		return env.Output(map[string]any{"id": id, "path": out, "bytes": n}, func(w io.Writer) {
			fmt.Fprintf(w, "saved %s bytes to %s\n", num(n), out)
		})
	}
}

// safeFileName keeps an id usable as a file name on every system (the
// characters and device names Windows forbids included).
func safeFileName(id string) string {
	if s := library.SanitizeName(id); s != "" {
		return s
	}
	return "result"
}

func runJobRetryWebhook(resource string) func(context.Context, *Env, []string) error {
	name := resource + " retry-webhook"
	return func(ctx context.Context, env *Env, args []string) error {
		id, err := oneID(env, name, args, nil)
		if err != nil {
			return err
		}
		return fetchAndShow(ctx, env, func(ctx context.Context, svc *workflow.Service) (*client.WebhookDelivery, error) {
			return svc.API().RetryWebhookOf(ctx, resourceKind(resource), id)
		}, func(w io.Writer, d *client.WebhookDelivery) {
			fmt.Fprintf(w, "queued webhook delivery %s (attempt %d, %s)\n", d.DeliveryID, d.Attempt, d.Status)
		})
	}
}

// singleFlags are the fields of a single trace, as flags.
func singleFlags(fs *flag.FlagSet, r *client.SingleTraceRequest) {
	fs.StringVar(&r.FirstName, "first-name", "", "owner first name, or the whole company name")
	fs.StringVar(&r.LastName, "last-name", "", "owner last name (blank for a company)")
	fs.StringVar(&r.Address, "address", "", "property street address")
	fs.StringVar(&r.City, "city", "", "property city")
	fs.StringVar(&r.State, "state", "", "property state, 2 letters")
	fs.StringVar(&r.Zip, "zip", "", "property zip code")
	fs.StringVar(&r.MailingAddress, "mailing-address", "", "mailing street address (improves matches)")
	fs.StringVar(&r.MailingCity, "mailing-city", "", "mailing city")
	fs.StringVar(&r.MailingState, "mailing-state", "", "mailing state")
	fs.StringVar(&r.MailingZip, "mailing-zip", "", "mailing zip code")
	fs.BoolVar(&r.IsEntity, "entity", false, "the owner is a company/LLC (llc rate)")
}

func runTracesSingle(ctx context.Context, env *Env, args []string) error {
	var r client.SingleTraceRequest
	pos, err := parseCommand(env, "traces single", args, func(fs *flag.FlagSet) { singleFlags(fs, &r) })
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("traces single takes flags only (got %q)", pos[0])
	}
	r.State = strings.ToUpper(strings.TrimSpace(r.State))
	r.MailingState = strings.ToUpper(strings.TrimSpace(r.MailingState))
	if p := workflow.CheckSingle(r); !p.OK() {
		return usageErrorf("traces single: %s", strings.Join(p.All(), " "))
	}
	svc, err := env.connect(ctx)
	if err != nil {
		return err
	}
	// Through the ledger, as in the window: recorded before it is sent,
	// never resent.
	res, err := svc.Submissions().Single(ctx, r)
	if err != nil {
		return err
	}
	return env.Output(res, func(w io.Writer) {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		who := strings.TrimSpace(res.FirstName + " " + res.LastName)
		if res.Matched {
			fmt.Fprintf(tw, "Matched\t%s\n", who)
		} else {
			fmt.Fprintf(tw, "No match\t%s\n", who)
		}
		if res.ID != "" {
			fmt.Fprintf(tw, "ID\t%s\n", res.ID)
		}
		if res.IsEntity {
			fmt.Fprintf(tw, "Company\tyes (llc rate)\n")
		}
		for i, p := range res.Phones {
			fmt.Fprintf(tw, "Phone %d\t%s (%s)\n", i+1, p.Number, dash(p.Type))
		}
		for i, e := range res.Emails {
			fmt.Fprintf(tw, "E-mail %d\t%s\n", i+1, e)
		}
		fmt.Fprintf(tw, "Credits\t%s charged, %s refunded\n", num(res.Credits), num(res.CreditsRefunded))
		tw.Flush()
	})
}

// resourceKind is the job kind of a command group ("traces", "dnc").
func resourceKind(resource string) jobs.Kind {
	if resource == "dnc" {
		return jobs.KindDNC
	}
	return jobs.KindTrace
}

// warnUnreadable tells of list items the service sent that could not be
// read; the others are listed.
func warnUnreadable(env *Env, items []*client.ListItemError) {
	for _, e := range items {
		fmt.Fprintf(env.Stderr, "warning: %s\n", cleanText(strings.TrimPrefix(e.Error(), "client: ")))
	}
}
