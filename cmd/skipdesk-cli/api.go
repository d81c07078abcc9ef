package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/entity"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/secrets"
)

// The commands that call the API directly: account, pricing, and reading,
// downloading, single traces and webhook re-sends of trace and DNC jobs.

func init() {
	classifiers = append(classifiers, classifyAPIError)

	register("account", &command{usage: "", summary: "show the account: credits, billing mode, plan", run: runAccount})
	register("pricing", &command{usage: "", summary: "show the credit rates per row", run: runPricing})

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

// classifyAPIError maps client errors to exit codes: a charged request with
// an unknown outcome 4, a validation refusal (400) 2, any other API or
// network failure 3.
func classifyAPIError(err error) (int, bool) {
	if errors.Is(err, client.ErrOutcomeUnknown) {
		return exitOutcomeUnknown, true
	}
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

// Client builds the API client from --base-url / SKIPDESK_BASE_URL and the
// key from SKIPDESK_API_KEY or, when unset, the system keyring.
func (e *Env) Client(ctx context.Context) (*client.Client, error) {
	base := strings.TrimSpace(e.BaseURL)
	if base == "" {
		return nil, usageErrorf("no API address: pass --base-url URL or set SKIPDESK_BASE_URL (it ends in /v1; the local sandbox is http://127.0.0.1:8787/v1)")
	}
	key := strings.TrimSpace(os.Getenv("SKIPDESK_API_KEY"))
	if key == "" {
		k, err := secrets.Get(ctx, secrets.APIKey)
		switch {
		case err == nil:
			key = strings.TrimSpace(k)
		case errors.Is(err, secrets.ErrNotFound):
			return nil, usageErrorf("no API key: set SKIPDESK_API_KEY, or save the key in the desktop app (it keeps it in the system keyring)")
		case errors.Is(err, secrets.ErrUnavailable):
			return nil, usageErrorf("no API key: SKIPDESK_API_KEY is not set and the system keyring is not available; set SKIPDESK_API_KEY")
		default:
			return nil, usageErrorf("no API key: SKIPDESK_API_KEY is not set and the keyring could not be read (%v)", err)
		}
		if key == "" {
			return nil, usageErrorf("no API key: the keyring holds an empty key; set SKIPDESK_API_KEY or save the key again")
		}
	}
	c, err := client.New(base, key, client.WithUserAgent("skipdesk-cli/1"))
	if err != nil {
		return nil, usageErrorf("%v", strings.TrimPrefix(err.Error(), "client: "))
	}
	return c, nil
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

// Explain turns a client error into words a user understands, keeping the
// error chain (and so the exit code). needed is what the request would have
// cost, or -1 when unknown; on a 402 the balance is read from GET /account.
func (e *Env) Explain(ctx context.Context, c *client.Client, err error, needed int64) error {
	if err == nil {
		return nil
	}
	var ae *client.APIError
	var te *client.TransportError
	switch {
	case errors.Is(err, client.ErrOutcomeUnknown):
		return fmt.Errorf("%w\nThe request may or may not have been accepted and charged. Do not resubmit blindly: "+
			"look for the job with `skipdesk-cli traces list` or `skipdesk-cli dnc list` first", err)
	case errors.As(err, &ae):
		return explainAPIError(ctx, c, ae, err, needed)
	case errors.As(err, &te):
		return fmt.Errorf("could not reach the service at %s: %w", c.BaseURL(), err)
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("interrupted: %w", err)
	}
	return err
}

func explainAPIError(ctx context.Context, c *client.Client, ae *client.APIError, err error, needed int64) error {
	switch ae.StatusCode {
	case 401:
		return fmt.Errorf("the service refused the API key (check SKIPDESK_API_KEY or the key saved in the desktop app): %w", err)
	case 402:
		return fmt.Errorf("%s: %w", paymentNeeded(ctx, c, ae, needed), err)
	case 403:
		return fmt.Errorf("this key or account is not allowed to do that: %w", err)
	case 404:
		return fmt.Errorf("no such job for this key (ids are used exactly as listed by `list`): %w", err)
	case 413:
		return fmt.Errorf("the file is over the service's 50 MB limit: %w", err)
	case 429:
		if ae.RetryAfter > 0 {
			return fmt.Errorf("too many requests; the service asks to wait %s: %w", ae.RetryAfter.Round(time.Second), err)
		}
		return fmt.Errorf("too many requests; wait a minute: %w", err)
	}
	if ae.StatusCode >= 500 {
		return fmt.Errorf("the service failed; try again later: %w", err)
	}
	return err
}

// paymentNeeded says why a 402 happened, in numbers when GET /account
// answers: a past-due account (whatever its billing mode), or credits short
// of what the request needs.
func paymentNeeded(ctx context.Context, c *client.Client, ae *client.APIError, needed int64) string {
	const pastDue = "the account is past due: settle the card on file in the provider's dashboard before submitting"
	if strings.EqualFold(ae.Code, "PAST_DUE") {
		return pastDue
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	acct, err := c.Account(ctx)
	if err != nil {
		if needed >= 0 {
			return fmt.Sprintf("not enough credits: this needs %s", credits(needed))
		}
		return "not enough credits, or the account is past due"
	}
	if acct.Metered != nil && acct.Metered.PastDue {
		return pastDue
	}
	switch {
	case needed >= 0 && acct.Credits < needed:
		return fmt.Sprintf("not enough credits: this needs %s and the balance is %s (short by %s)",
			credits(needed), num(acct.Credits), num(needed-acct.Credits))
	case needed >= 0:
		return fmt.Sprintf("the service refused to charge the %s this needs although the balance is %s: "+
			"the account may be past due (check billing in the provider's dashboard)", credits(needed), num(acct.Credits))
	}
	return fmt.Sprintf("not enough credits: the balance is %s", num(acct.Credits))
}

// credits is "1 credit" or "N credits".
func credits(n int64) string {
	if n == 1 {
		return "1 credit"
	}
	return num(n) + " credits"
}

// num formats an integer with thousands separators.
func num(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func jsonFlag(env *Env, fs interface {
	BoolVar(*bool, string, bool, string)
}) {
	fs.BoolVar(&env.JSON, "json", env.JSON, "print JSON")
}

func runAccount(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "account", commands["account"])
	jsonFlag(env, fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("account takes no arguments")
	}
	c, err := env.Client(ctx)
	if err != nil {
		return err
	}
	a, err := c.Account(ctx)
	if err != nil {
		return env.Explain(ctx, c, err, -1)
	}
	return env.Output(a, func(w io.Writer) {
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
	})
}

func runPricing(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "pricing", commands["pricing"])
	jsonFlag(env, fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("pricing takes no arguments")
	}
	c, err := env.Client(ctx)
	if err != nil {
		return err
	}
	p, err := c.Pricing(ctx)
	if err != nil {
		return env.Explain(ctx, c, err, -1)
	}
	return env.Output(p, func(w io.Writer) {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "normal trace\t%s per row\n", credits(p.Rates.Normal))
		fmt.Fprintf(tw, "enhanced trace\t%s per row\n", credits(p.Rates.Enhanced))
		fmt.Fprintf(tw, "company/LLC row\t%s per row\n", credits(p.Rates.LLC))
		fmt.Fprintf(tw, "DNC scrub\t%s per phone\n", credits(p.Rates.DNC))
		tw.Flush()
	})
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
	fs := newFlags(env, "traces list", commands["traces list"])
	jsonFlag(env, fs)
	var pf pageFlags
	addPageFlags(fs, &pf)
	typ := fs.String("type", "", "bulk (CSV uploads) or single (one-owner lookups); default both")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("traces list takes no arguments (got %q)", pos[0])
	}
	if err := pf.check(); err != nil {
		return err
	}
	if *typ != "" && *typ != client.TypeBulk && *typ != client.TypeSingle {
		return usageErrorf("--type must be bulk or single, not %q", *typ)
	}
	c, err := env.Client(ctx)
	if err != nil {
		return err
	}
	opts := &client.TraceListOptions{Page: pf.page, Limit: pf.limit, Type: *typ}
	var traces []client.Trace
	var md *client.Metadata
	if pf.all {
		for t, err := range c.Traces.All(ctx, opts) {
			if err != nil {
				return env.Explain(ctx, c, err, -1)
			}
			traces = append(traces, *t)
		}
	} else {
		l, err := c.Traces.List(ctx, opts)
		if err != nil {
			return env.Explain(ctx, c, err, -1)
		}
		traces, md = l.Traces, &l.Metadata
	}
	var v any = map[string]any{"traces": nonNil(traces)}
	if md != nil {
		v = &client.TraceList{Metadata: *md, Traces: nonNil(traces)}
	}
	return env.Output(v, func(w io.Writer) {
		if len(traces) == 0 {
			fmt.Fprintln(w, "no trace jobs")
		} else {
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSTATUS\tTYPE\tMODE\tROWS\tMATCHED\tCHARGED\tREFUNDED\tCREATED\tNAME")
			for _, t := range traces {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\n", t.ID, t.Status, dash(t.Type), t.Mode, t.TotalRows,
					t.MatchCount, num(t.CreditsCharged), num(t.CreditsRefunded), when(t.CreatedAt), t.Name)
			}
			tw.Flush()
		}
		footer(w, md, len(traces), "trace jobs")
	})
}

func runDNCList(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "dnc list", commands["dnc list"])
	jsonFlag(env, fs)
	var pf pageFlags
	addPageFlags(fs, &pf)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("dnc list takes no arguments (got %q)", pos[0])
	}
	if err := pf.check(); err != nil {
		return err
	}
	c, err := env.Client(ctx)
	if err != nil {
		return err
	}
	opts := &client.ListOptions{Page: pf.page, Limit: pf.limit}
	var jobs []client.DNCJob
	var md *client.Metadata
	if pf.all {
		for j, err := range c.DNC.All(ctx, opts) {
			if err != nil {
				return env.Explain(ctx, c, err, -1)
			}
			jobs = append(jobs, *j)
		}
	} else {
		l, err := c.DNC.List(ctx, opts)
		if err != nil {
			return env.Explain(ctx, c, err, -1)
		}
		jobs, md = l.Jobs, &l.Metadata
	}
	var v any = map[string]any{"jobs": nonNil(jobs)}
	if md != nil {
		v = &client.DNCList{Metadata: *md, Jobs: nonNil(jobs)}
	}
	return env.Output(v, func(w io.Writer) {
		if len(jobs) == 0 {
			fmt.Fprintln(w, "no DNC jobs")
		} else {
			tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tSTATUS\tROWS\tFLAGGED\tERRORS\tCHARGED\tREFUNDED\tCREATED\tNAME")
			for _, j := range jobs {
				fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", j.ID, j.Status, j.TotalRows, j.MatchCount, j.ErrorCount,
					num(j.CreditsCharged), num(j.CreditsRefunded), when(j.CreatedAt), j.Name)
			}
			tw.Flush()
		}
		footer(w, md, len(jobs), "DNC jobs")
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
func oneID(env *Env, name string, args []string, extra func(fs interface {
	StringVar(*string, string, string, string)
})) (string, error) {
	fs := newFlags(env, name, commands[name])
	jsonFlag(env, fs)
	if extra != nil {
		extra(fs)
	}
	pos, err := parseFlags(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", usageErrorf("%s: want one job ID, got %d arguments", name, len(pos))
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
		c, err := env.Client(ctx)
		if err != nil {
			return err
		}
		if resource == "traces" {
			t, err := c.Traces.Get(ctx, id)
			if err != nil {
				return env.Explain(ctx, c, err, -1)
			}
			return env.Output(t, func(w io.Writer) { printTrace(w, t) })
		}
		j, err := c.DNC.Get(ctx, id)
		if err != nil {
			return env.Explain(ctx, c, err, -1)
		}
		return env.Output(j, func(w io.Writer) { printDNC(w, j) })
	}
}

func printTrace(w io.Writer, t *client.Trace) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "ID\t%s\n", t.ID)
	if t.EncodedID != "" && t.EncodedID != t.ID {
		fmt.Fprintf(tw, "Encoded ID\t%s\n", t.EncodedID)
	}
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
	fmt.Fprintf(tw, "Created\t%s\n", when(t.CreatedAt))
	if !t.CompletedAt.IsZero() {
		fmt.Fprintf(tw, "Completed\t%s\n", when(t.CompletedAt))
	}
	if t.ErrorMessage != nil && *t.ErrorMessage != "" {
		fmt.Fprintf(tw, "Error\t%s\n", *t.ErrorMessage)
	}
	fmt.Fprintf(tw, "Result\t%s\n", strOr(t.DownloadURL, "-"))
	tw.Flush()
}

func printDNC(w io.Writer, j *client.DNCJob) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "ID\t%s\n", j.ID)
	if j.EncodedID != "" && j.EncodedID != j.ID {
		fmt.Fprintf(tw, "Encoded ID\t%s\n", j.EncodedID)
	}
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
	fmt.Fprintf(tw, "Created\t%s\n", when(j.CreatedAt))
	if !j.CompletedAt.IsZero() {
		fmt.Fprintf(tw, "Completed\t%s\n", when(j.CompletedAt))
	}
	if j.ErrorMessage != nil && *j.ErrorMessage != "" {
		fmt.Fprintf(tw, "Error\t%s\n", *j.ErrorMessage)
	}
	fmt.Fprintf(tw, "Result\t%s\n", strOr(j.DownloadURL, "-"))
	tw.Flush()
}

func runJobDownload(resource string) func(context.Context, *Env, []string) error {
	name := resource + " download"
	return func(ctx context.Context, env *Env, args []string) error {
		var out string
		id, err := oneID(env, name, args, func(fs interface {
			StringVar(*string, string, string, string)
		}) {
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
		c, err := env.Client(ctx)
		if err != nil {
			return err
		}
		var n int64
		if resource == "traces" {
			n, err = c.Traces.Download(ctx, id, out, nil)
		} else {
			n, err = c.DNC.Download(ctx, id, out, nil)
		}
		if err != nil {
			var ae *client.APIError
			if errors.As(err, &ae) && ae.StatusCode == 409 {
				return fmt.Errorf("the result of %s is not available (the job is still processing or has failed): %w", id, err)
			}
			return env.Explain(ctx, c, err, -1)
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
		c, err := env.Client(ctx)
		if err != nil {
			return err
		}
		var d *client.WebhookDelivery
		if resource == "traces" {
			d, err = c.Traces.RetryWebhook(ctx, id)
		} else {
			d, err = c.DNC.RetryWebhook(ctx, id)
		}
		if err != nil {
			return env.Explain(ctx, c, err, -1)
		}
		return env.Output(d, func(w io.Writer) {
			fmt.Fprintf(w, "queued webhook delivery %s (attempt %d, %s)\n", d.DeliveryID, d.Attempt, d.Status)
		})
	}
}

func runTracesSingle(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "traces single", commands["traces single"])
	jsonFlag(env, fs)
	var r client.SingleTraceRequest
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
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("traces single takes flags only (got %q)", pos[0])
	}
	var missing []string
	for _, f := range []struct {
		flag, v string
	}{{"--first-name", r.FirstName}, {"--address", r.Address}, {"--city", r.City}, {"--state", r.State}, {"--zip", r.Zip}} {
		if strings.TrimSpace(f.v) == "" {
			missing = append(missing, f.flag)
		}
	}
	if len(missing) > 0 {
		return usageErrorf("traces single: missing %s", strings.Join(missing, ", "))
	}
	if len(strings.TrimSpace(r.State)) != 2 {
		return usageErrorf("traces single: --state must be a 2-letter code, not %q", r.State)
	}
	mailing := []string{r.MailingAddress, r.MailingCity, r.MailingState, r.MailingZip}
	set := 0
	for _, m := range mailing {
		if strings.TrimSpace(m) != "" {
			set++
		}
	}
	if set > 0 && strings.TrimSpace(r.MailingAddress) == "" {
		return usageErrorf("traces single: --mailing-city/--mailing-state/--mailing-zip need --mailing-address")
	}
	if set > 0 && set < 4 {
		return usageErrorf("traces single: with --mailing-address, give --mailing-city, --mailing-state and --mailing-zip too")
	}
	c, err := env.Client(ctx)
	if err != nil {
		return err
	}
	res, err := c.Traces.Single(ctx, &r)
	if err != nil {
		needed := int64(-1)
		if errors.Is(err, client.ErrInsufficientCredits) {
			if p, perr := c.Pricing(ctx); perr == nil {
				needed = p.Rates.Normal
				// The service prices a company name at the llc rate even
				// without --entity.
				if r.IsEntity || entity.IsEntity(r.FirstName+" "+r.LastName) {
					needed = p.Rates.LLC
				}
			}
		}
		return env.Explain(ctx, c, err, needed)
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
