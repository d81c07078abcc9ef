package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// The company's own do-not-call list: a number on it is never in a
// callable list, whatever the registries say.
func init() {
	register("dnc-list", &command{
		usage:   "[--json]",
		summary: "list the internal do-not-call list: each number with when and why it was added, and from where",
		run:     runInternalList,
	})
	register("dnc-list add", &command{
		usage:   "NUMBER [NUMBER...] [--reason TEXT]",
		summary: "put numbers on the internal do-not-call list (any format)",
		run:     runInternalAdd,
	})
	register("dnc-list import", &command{
		usage:   "FILE [--column NAME]... [--reason TEXT] [--json]",
		summary: "put the phone numbers of a CSV or XLSX file on the internal do-not-call list: every phone-looking column over the whole file, or the columns named; every number added, already there, repeated or not valid (with its line) is reported, and every column not read, with why",
		run:     runInternalImport,
	})
	register("dnc-list export", &command{
		usage:   "FILE.csv",
		summary: "write the internal do-not-call list to a CSV file",
		run:     runInternalExport,
	})
	register("dnc-list remove", &command{
		usage:   "NUMBER --reason TEXT",
		summary: "take a number off the internal do-not-call list (the reason is kept in its history)",
		run:     runInternalRemove,
	})
	register("dnc-list history", &command{
		usage:   "[NUMBER] [--json]",
		summary: "every addition to and removal from the internal do-not-call list",
		run:     runInternalHistory,
	})
}

func runInternalList(ctx context.Context, env *Env, args []string) error {
	if err := groupOnly(env, "dnc-list", "add, import, export, remove, history", args); err != nil {
		return err
	}
	return showLocal(ctx, env, func(ctx context.Context, svc *workflow.Service) ([]workflow.InternalEntry, error) {
		list, err := svc.Compliance().InternalList(ctx)
		if list == nil {
			list = []workflow.InternalEntry{}
		}
		return list, err
	}, printInternalList)
}

// printInternalList prints the internal do-not-call list as a table.
func printInternalList(w io.Writer, list []workflow.InternalEntry) {
	if len(list) == 0 {
		fmt.Fprintln(w, "the internal do-not-call list is empty")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PHONE\tADDED\tREASON\tSOURCE\tBY\tKEEP UNTIL")
	for _, e := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", phone.Format(e.Number), e.AddedAt.Local().Format("2006-01-02 15:04"),
			cleanText(e.Reason), cleanText(e.Source), cleanText(e.By), workflow.KeepUntilText(e))
	}
	tw.Flush()
	fmt.Fprintf(w, "%d numbers\n", len(list))
}

func printAdded(env *Env, res workflow.InternalAdded) error {
	return env.Output(res, func(w io.Writer) {
		fmt.Fprintf(w, "added %d to the internal do-not-call list", res.Added)
		if res.Already > 0 {
			fmt.Fprintf(w, " (%d already on it)", res.Already)
		}
		fmt.Fprintln(w)
		for i, inv := range res.Invalid {
			if i == 10 {
				fmt.Fprintf(w, "and %d more not valid\n", len(res.Invalid)-10)
				break
			}
			fmt.Fprintf(w, "not a valid number, left out: %s\n", cleanText(inv))
		}
	})
}

func runInternalAdd(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "dnc-list add", commands["dnc-list add"])
	reason := fs.String("reason", "", "why: the person asked, a complaint...")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageErrorf("dnc-list add: NUMBER is required")
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	var numbers []string // as the window reads a paste: several an argument, by line, comma, semicolon or tab
	for _, p := range pos {
		numbers = append(numbers, workflow.SplitNumbers(p)...)
	}
	res, err := svc.Compliance().AddInternal(ctx, numbers, *reason, "by hand (command line)")
	if err != nil {
		return err
	}
	if res.Added+res.Already == 0 {
		return usageErrorf("dnc-list add: no valid phone number in %q", strings.Join(pos, " "))
	}
	return printAdded(env, res)
}

func runInternalImport(ctx context.Context, env *Env, args []string) error {
	var reason string
	var columns listFlag
	file, err := oneArg(env, "dnc-list import", "FILE", args, func(fs *flag.FlagSet) {
		fs.StringVar(&reason, "reason", "", "why these numbers go on the list")
		fs.Var(&columns, "column", "read this column (by header, in every sheet of a workbook holding it, or SHEET!HEADER; repeatable); default: every phone-looking column")
	})
	if err != nil {
		return err
	}
	return showLocal(ctx, env, func(ctx context.Context, svc *workflow.Service) (workflow.ListImported, error) {
		res, err := svc.Compliance().ImportInternal(ctx, workflow.ListImport{Path: file, Columns: columns.list, Reason: reason}, listProgress(env))
		if errors.Is(err, workflow.ErrNoListColumn) {
			return res, &exitError{code: exitUsage, err: err, plain: true}
		}
		return res, err
	}, printImported)
}

// listProgress prints how far an import is on standard error, a line each
// tenth of a step.
func listProgress(env *Env) func(workflow.ListProgress) {
	last := map[string]int64{}
	return func(p workflow.ListProgress) {
		if p.Total <= 0 {
			return
		}
		tenth := p.Done * 10 / p.Total
		if seen, ok := last[p.Step]; ok && tenth == seen {
			return
		}
		last[p.Step] = tenth
		what := "rows"
		if p.Step == "adding" {
			what = "numbers"
		}
		fmt.Fprintf(env.Stderr, "%s: %s of %s %s (%d%%)\n", p.Step, num(p.Done), num(p.Total), what, tenth*10)
	}
}

// printImported says what an import did: the numbers added, already on
// the list, repeated, every value not valid with its line and column, the
// columns read and every column not read, with why.
func printImported(w io.Writer, res workflow.ListImported) {
	fmt.Fprintf(w, "%s: %s\n", cleanText(res.File), jobs.Plural(int64(res.Rows), "row", "rows"))
	fmt.Fprintf(w, "added %s to the internal do-not-call list; %s already on it", num(int64(res.Added)), num(int64(res.Already)))
	if res.Repeated > 0 {
		fmt.Fprintf(w, "; %s repeated in the file", num(int64(res.Repeated)))
	}
	fmt.Fprintf(w, "; %s not valid\n", num(int64(len(res.Invalid))))
	for _, c := range res.Read {
		fmt.Fprintf(w, "read column %q: %s, %s not valid\n", cleanText(c.Label()), jobs.Plural(int64(c.Numbers), "number", "numbers"), num(int64(c.Invalid)))
	}
	for _, c := range res.NotRead {
		fmt.Fprintf(w, "not read: column %q %s\n", cleanText(c.Label()), c.Why)
	}
	for _, inv := range res.Invalid {
		fmt.Fprintf(w, "not a valid number, left out: line %d, column %q: %q (%s)\n", inv.Line, cleanText(inv.Column), cleanText(inv.Value), inv.Reason)
	}
	if res.OptOuts != "" {
		fmt.Fprintf(w, "note: the file looks like %s: every number of the columns read went on the list, whatever its row says; "+
			"`skipdesk-cli dnc-list opt-outs FILE` puts on only the rows that are opt-outs\n", cleanText(res.OptOuts))
	}
}

func runInternalExport(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "dnc-list export", commands["dnc-list export"])
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || !strings.HasSuffix(strings.ToLower(pos[0]), ".csv") {
		return usageErrorf("dnc-list export: want one FILE.csv")
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	n, err := svc.Compliance().ExportInternal(ctx, pos[0])
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "%s: %d numbers\n", pos[0], n)
	return nil
}

func runInternalRemove(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "dnc-list remove", commands["dnc-list remove"])
	reason := fs.String("reason", "", "why the number comes off the list (required: it is kept)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("dnc-list remove: want one NUMBER, got %d arguments", len(pos))
	}
	if strings.TrimSpace(*reason) == "" {
		return usageErrorf("dnc-list remove: --reason is required: the list keeps why a number came off it")
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	if err := svc.Compliance().RemoveInternal(ctx, pos[0], *reason); err != nil {
		if errors.Is(err, workflow.ErrNotOnList) {
			return &exitError{code: exitUsage, err: err}
		}
		return err
	}
	fmt.Fprintf(env.Stdout, "%s is off the internal do-not-call list\n", phone.Format(phone.Normalize(pos[0]).Digits))
	return nil
}

func runInternalHistory(ctx context.Context, env *Env, args []string) error {
	pos, err := parseCommand(env, "dnc-list history", args, nil)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usageErrorf("dnc-list history: at most one NUMBER")
	}
	number := ""
	if len(pos) == 1 {
		number = pos[0]
	}
	return showLocal(ctx, env, func(ctx context.Context, svc *workflow.Service) ([]workflow.InternalChange, error) {
		log, err := svc.Compliance().InternalLog(ctx, number)
		if log == nil {
			log = []workflow.InternalChange{}
		}
		return log, err
	}, printInternalLog)
}

// printInternalLog prints the internal list's history as a table.
func printInternalLog(w io.Writer, log []workflow.InternalChange) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WHEN\tPHONE\tWHAT\tREASON\tSOURCE\tBY")
	for _, c := range log {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.At.Local().Format("2006-01-02 15:04"), phone.Format(c.Number), c.Action,
			cleanText(c.Reason), cleanText(c.Source), cleanText(c.By))
	}
	tw.Flush()
}
