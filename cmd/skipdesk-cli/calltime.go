package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/skipdesk/skipdesk/jobs/optout"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// The calling-time rules, the dialer presets and the opt-outs that come in
// from dialers and SMS tools.
func init() {
	register("rules", &command{
		usage:   "",
		summary: "the calling rules SkipDesk applies (windows, Sundays, holidays, caps, opt-outs), with their sources and the table's version",
		run:     runRules,
	})
	register("dnc-list opt-outs", &command{
		usage:   "FILE [--zone IANA] [--json]",
		summary: "put the opt-outs of an SMS tool's replies export or a dialer's dispositions export on the internal do-not-call list, with their deadlines",
		run:     runOptOuts,
	})
}

func runRules(_ context.Context, env *Env, args []string) error {
	fs := newFlags(env, "rules", commands["rules"])
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	text, err := svc.Compliance().RulesHelp()
	if err != nil {
		return err
	}
	fmt.Fprint(env.Stdout, text)
	return nil
}

// listPresets prints the dialer and CRM layouts: SkipDesk's and the
// person's, and the person's files that cannot be used.
func listPresets(env *Env) error {
	svc, err := env.service()
	if err != nil {
		return err
	}
	ps, problems, err := svc.Presets().DialerPresets()
	if err != nil {
		return err
	}
	type row struct {
		ID, Name, Phones, Rows string
		MaxRows                int
		Mine                   bool
	}
	var rows []row
	for _, p := range ps {
		rows = append(rows, row{ID: p.ID, Name: p.Name, Phones: p.PhoneFormat, Rows: p.Layout, MaxRows: p.MaxRows, Mine: !p.Builtin})
	}
	err = env.Output(rows, func(w io.Writer) {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "PRESET\tNAME\tPHONES\tROWS\tMAX ROWS A FILE")
		for _, r := range rows {
			max := "no limit"
			if r.MaxRows > 0 {
				max = fmt.Sprint(r.MaxRows)
			}
			name := r.Name
			if r.Mine {
				name += " (yours)"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, cleanText(name), r.Phones, r.Rows, max)
		}
		tw.Flush()
		fmt.Fprintf(w, "your own presets: %s\n", svc.Presets().PresetsDir())
	})
	for _, p := range problems {
		fmt.Fprintf(env.Stderr, "warning: preset %s\n", p)
	}
	return err
}

// callableAt reads --callable-at; it and --preset shape a callable list.
func callableAt(at, preset string, callable bool) (time.Time, error) {
	if (at != "" || preset != "") && !callable {
		return time.Time{}, usageErrorf("export: --callable-at and --preset shape a callable list: add --only-callable")
	}
	if at == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return time.Time{}, usageErrorf("export: --callable-at %q is not an RFC 3339 instant like 2026-11-24T15:00:00-05:00", at)
	}
	return t, nil
}

func runOptOuts(ctx context.Context, env *Env, args []string) error {
	var zone string
	file, err := oneArg(env, "dnc-list opt-outs", "FILE", args, func(fs *flag.FlagSet) {
		fs.StringVar(&zone, "zone", "", "time zone of dates written without one (IANA name, e.g. America/Chicago; default this computer's)")
	})
	if err != nil {
		return err
	}
	var loc *time.Location
	if zone != "" {
		if loc, err = time.LoadLocation(zone); err != nil {
			return usageErrorf("dnc-list opt-outs: --zone %q is not a time zone (like America/New_York)", zone)
		}
	}
	return showLocal(ctx, env, func(ctx context.Context, svc *workflow.Service) (*workflow.OptOutImport, error) {
		return svc.Compliance().ImportOptOuts(ctx, file, loc)
	}, func(w io.Writer, res *workflow.OptOutImport) { printOptOuts(w, res.Import, res.Added, res.Already) })
}

func printOptOuts(w io.Writer, imp *optout.Import, added, already int) {
	fmt.Fprintf(w, "%s read as %s (%s): %d rows\n", cleanText(imp.File), imp.Layout, cleanText(imp.ColumnsRead()), imp.Rows)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PHONE\tSAID\tMADE\tHONOUR BY\tKEEP UNTIL AT LEAST")
	for _, e := range imp.Entries {
		said := cleanText(e.Said)
		if e.Class == optout.Maybe {
			said += " (may be an opt-out: read it)"
		}
		made := e.Made.Format("2006-01-02 15:04")
		if e.DateNote != "" {
			made += " (date not read)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", phone.Format(e.Number), said, made, e.Terms.HonourBy.Format(time.DateOnly),
			e.Terms.NotBefore.Format(time.DateOnly))
	}
	tw.Flush()
	fmt.Fprintf(w, "added %d to the internal do-not-call list (%d already on it); %d replies or dispositions are not opt-outs",
		added, already, imp.NotOptOut)
	if imp.Outbound > 0 {
		fmt.Fprintf(w, "; %d messages sent (not replies) passed over", imp.Outbound)
	}
	fmt.Fprintln(w)
	for d, n := range imp.Unrecognised {
		fmt.Fprintf(w, "disposition not recognised (%d rows): %s — not taken as an opt-out; check it\n", n, cleanText(d))
	}
	for _, p := range imp.Problems {
		fmt.Fprintf(w, "not imported: %s\n", cleanText(p))
	}
	for _, n := range imp.Notes {
		fmt.Fprintf(w, "note: %s\n", cleanText(n))
	}
}
