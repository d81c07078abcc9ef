package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

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
		usage:   "FILE [--reason TEXT]",
		summary: "put the phone numbers of a CSV or XLSX file on the internal do-not-call list",
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
	fs := newFlags(env, "dnc-list", commands["dnc-list"])
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("dnc-list: unknown subcommand %q (add, import, export, remove, history)", pos[0])
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	list, err := svc.InternalList(ctx)
	if err != nil {
		return err
	}
	if list == nil {
		list = []workflow.InternalEntry{}
	}
	return env.Output(list, func(w io.Writer) {
		if len(list) == 0 {
			fmt.Fprintln(w, "the internal do-not-call list is empty")
			return
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "PHONE\tADDED\tREASON\tSOURCE\tBY")
		for _, e := range list {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", phone.Format(e.Number), e.AddedAt.Local().Format("2006-01-02 15:04"),
				cleanText(e.Reason), cleanText(e.Source), cleanText(e.By))
		}
		tw.Flush()
		fmt.Fprintf(w, "%d numbers\n", len(list))
	})
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
	res, err := svc.AddInternal(ctx, pos, *reason, "by hand (command line)")
	if err != nil {
		return err
	}
	if res.Added+res.Already == 0 {
		return usageErrorf("dnc-list add: no valid phone number in %q", strings.Join(pos, " "))
	}
	return printAdded(env, res)
}

func runInternalImport(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "dnc-list import", commands["dnc-list import"])
	reason := fs.String("reason", "", "why these numbers go on the list")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("dnc-list import: want one FILE, got %d arguments", len(pos))
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	res, err := svc.ImportInternal(ctx, pos[0], *reason)
	if err != nil {
		return err
	}
	return printAdded(env, res)
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
	n, err := svc.ExportInternal(ctx, pos[0])
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
	if err := svc.RemoveInternal(ctx, pos[0], *reason); err != nil {
		if errors.Is(err, workflow.ErrNotOnList) {
			return &exitError{code: exitUsage, err: err}
		}
		return err
	}
	fmt.Fprintf(env.Stdout, "%s is off the internal do-not-call list\n", phone.Format(phone.Normalize(pos[0]).Digits))
	return nil
}

func runInternalHistory(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "dnc-list history", commands["dnc-list history"])
	pos, err := parseFlags(fs, args)
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
	svc, err := env.service()
	if err != nil {
		return err
	}
	log, err := svc.InternalLog(ctx, number)
	if err != nil {
		return err
	}
	if log == nil {
		log = []workflow.InternalChange{}
	}
	return env.Output(log, func(w io.Writer) {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "WHEN\tPHONE\tWHAT\tREASON\tSOURCE\tBY")
		for _, c := range log {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.At.Local().Format("2006-01-02 15:04"), phone.Format(c.Number), c.Action,
				cleanText(c.Reason), cleanText(c.Source), cleanText(c.By))
		}
		tw.Flush()
	})
}
