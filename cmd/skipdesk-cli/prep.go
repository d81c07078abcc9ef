package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/estimate"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/prepare"
)

// Preparing a submission without sending it: validate a mapping (offline)
// and estimate what it will cost.

func init() {
	register("validate", &command{
		usage: "FILE [--map key=Header ...] [--mode normal|enhanced] [--dnc] [--accept-splits] [--header-line N] [--sheet NAME] [--presets FILE [--save-preset NAME]] [--json]",
		summary: "check a column mapping against a file with the provider's rules (offline; " +
			"without --map, shows the automatic mapping first)",
		run: runValidate,
	})
	register("estimate", &command{
		usage:   "FILE [--map key=Header ...] [--mode normal|enhanced] [--include-llcs] [--drop-duplicates] [--dnc] [--accept-splits] [--header-line N] [--sheet NAME] [--presets FILE] [--json]",
		summary: "what a submission of FILE will cost, and whether the account can pay it",
		run:     runEstimate,
	})
}

// mapFlags collects repeated --map key=Header.
type mapFlags struct{ m mapping.Mapping }

func (f *mapFlags) String() string {
	if f == nil || f.m == nil {
		return ""
	}
	var parts []string
	for _, k := range f.m.SortedKeys() {
		parts = append(parts, k+"="+f.m[k])
	}
	return strings.Join(parts, " ")
}

func (f *mapFlags) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	k = strings.TrimSpace(k)
	if !ok || k == "" {
		return fmt.Errorf("want key=Header, got %q", s)
	}
	if f.m == nil {
		f.m = mapping.Mapping{}
	}
	f.m[k] = v
	return nil
}

// prepOptions are the flags validate and estimate share.
type prepOptions struct {
	maps         mapFlags
	mode         jobs.Mode
	dnc          bool
	acceptSplits bool
	headerLine   int
	sheet        string
	presets      string
	jsonOut      bool
}

// prepared is the outcome of reading a file and settling its mapping.
type prepared struct {
	File       string              `json:"file"`
	Kind       jobs.Kind           `json:"kind"`
	Mode       jobs.Mode           `json:"mode,omitempty"`
	Source     string              `json:"mapping_source"` // "flags", "preset NAME" or "auto"
	Auto       *mapping.Suggestion `json:"auto,omitempty"`
	Splits     []mapping.Split     `json:"splits,omitempty"` // accepted
	Mapping    mapping.Mapping     `json:"mapping"`
	Headers    []string            `json:"headers"`
	Validation mapping.Result      `json:"validation"`
	OK         bool                `json:"ok"`

	ins *input.Inspection
}

// settle inspects the file, decides the mapping (flags, a preset or the
// automatic one) and validates it.
func settle(ctx context.Context, file string, o *prepOptions) (*prepared, error) {
	kind := jobs.KindTrace
	if o.dnc || (o.maps.m != nil && o.maps.m[mapping.Phone] != "") {
		kind = jobs.KindDNC
	}
	if kind == jobs.KindTrace && o.mode != "" && o.mode != jobs.ModeNormal && o.mode != jobs.ModeEnhanced {
		return nil, usageErrorf("--mode must be normal or enhanced, not %q", o.mode)
	}
	ins, err := input.Inspect(ctx, file, input.Options{HeaderLine: o.headerLine, Sheet: o.sheet})
	if err != nil {
		return nil, err
	}
	p := &prepared{File: file, Kind: kind, Headers: ins.Headers, ins: ins}
	if kind == jobs.KindTrace {
		p.Mode = o.mode
	}
	switch {
	case o.maps.m != nil:
		p.Source, p.Mapping = "flags", o.maps.m.Clone()
	default:
		if o.presets != "" {
			pr, err := mapping.MatchPreset(mapping.NewFileStore(o.presets), ins.Headers, kind)
			if err != nil {
				return nil, err
			}
			if pr != nil {
				p.Source, p.Mapping = "preset "+pr.Name, pr.Mapping
				if kind == jobs.KindTrace && o.mode == "" {
					p.Mode = pr.Mode // the preset's mode unless --mode says otherwise
				}
			}
		}
		if p.Mapping == nil {
			s := mapping.AutoMap(ins.Headers, ins.Sample, kind)
			p.Source, p.Auto, p.Mapping = "auto", &s, s.Mapping()
			if o.acceptSplits {
				p.Splits = s.Splits
				p.Mapping = s.WithSplits(ins.Headers)
			}
		}
	}
	if kind == jobs.KindTrace && p.Mode == "" {
		p.Mode = jobs.ModeNormal
	}
	// Validate against the headers the upload will have.
	headers := ins.Headers
	for _, sp := range p.Splits {
		headers = append(headers[:len(headers):len(headers)], sp.Columns(headers)...)
	}
	stats := mapping.WithStats(mapping.StatsFrom(ins.Headers, ins.Rows, ins.Blanks))
	if kind == jobs.KindDNC {
		p.Validation = mapping.ValidateDNC(headers, p.Mapping, stats)
	} else {
		p.Validation = mapping.Validate(headers, p.Mapping, p.Mode, stats)
	}
	p.OK = p.Validation.OK()
	return p, nil
}

// report prints every problem on stderr and returns the exit-2 error.
func (p *prepared) report(env *Env) error {
	for _, pr := range p.Validation.Problems {
		fmt.Fprintf(env.Stderr, "%s: %s\n", pr.Severity, pr.Message)
	}
	if p.OK {
		return nil
	}
	n := len(p.Validation.Errors())
	return &exitError{code: exitUsage, err: fmt.Errorf("%s: the mapping has %d %s (listed above)", filepath.Base(p.File), n, plural(n, "problem", "problems"))}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func printMapping(w io.Writer, p *prepared) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	conf := map[string]mapping.Guess{}
	if p.Auto != nil {
		for _, g := range p.Auto.Guesses {
			conf[g.Key] = g
		}
	}
	for _, f := range mapping.Fields(p.Kind) {
		h := p.Mapping[f.Key]
		note := ""
		if g, ok := conf[f.Key]; ok && g.Header == h {
			note = fmt.Sprintf("confidence %.2f (%s)", g.Confidence, g.Reason)
		}
		for _, sp := range p.Splits {
			for _, k := range sp.Keys {
				if k == f.Key {
					note = fmt.Sprintf("split from %q", sp.Column)
				}
			}
		}
		if h == "" {
			h = "-"
		} else {
			h = fmt.Sprintf("%q", h)
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", f.Key, f.Label, h, note)
	}
	// Keys outside the catalogue (typos) are shown too.
	var extra []string
	for k := range p.Mapping {
		if _, ok := mapping.FieldByKey(k); !ok || (p.Kind == jobs.KindTrace && k == mapping.Phone) {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	for _, k := range extra {
		fmt.Fprintf(tw, "  %s\t(unknown key)\t%q\t\n", k, p.Mapping[k])
	}
	tw.Flush()
	if p.Auto != nil && !containsSplits(p) {
		for _, sp := range p.Auto.Splits {
			fmt.Fprintf(w, "suggestion: split %q into %s", sp.Column, strings.Join(sp.Keys, ", "))
			if sp.Example != "" {
				fmt.Fprintf(w, " (%q → %s)", sp.Example, strings.Join(quoteAll(sp.ExampleInto), " | "))
			}
			fmt.Fprintln(w, "; accept with --accept-splits")
		}
	}
}

func containsSplits(p *prepared) bool { return len(p.Splits) > 0 }

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = fmt.Sprintf("%q", v)
	}
	return out
}

func runValidate(ctx context.Context, env *Env, args []string) error {
	var o prepOptions
	fs := prepFlagSet(env, "validate", &o)
	save := fs.String("save-preset", "", "with --presets FILE: save the mapping (when valid) under this name for files with the same headers")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("validate: want one FILE, got %d arguments", len(pos))
	}
	if *save != "" && o.presets == "" {
		return usageErrorf("validate: --save-preset needs --presets FILE")
	}
	env.JSON = env.JSON || o.jsonOut
	p, err := settle(ctx, pos[0], &o)
	if err != nil {
		return err
	}
	if *save != "" && p.OK {
		pr := mapping.NewPreset(*save, p.ins.Headers, p.Kind, p.Mapping, p.Mode, false)
		if len(p.Splits) > 0 {
			return usageErrorf("validate: a mapping with accepted splits cannot be saved as a preset (it names derived columns)")
		}
		if err := mapping.NewFileStore(o.presets).SavePreset(pr); err != nil {
			return err
		}
		fmt.Fprintf(env.Stderr, "saved preset %q in %s\n", *save, o.presets)
	}
	err = env.Output(p, func(w io.Writer) {
		fmt.Fprintf(w, "%s: %d %s, %d columns; mapping from %s", filepath.Base(p.File), p.ins.Rows, plural(p.ins.Rows, "row", "rows"), len(p.ins.Headers), p.Source)
		if p.Kind == jobs.KindTrace {
			fmt.Fprintf(w, ", %s mode", p.Mode)
		}
		fmt.Fprintln(w)
		printMapping(w, p)
		if p.OK {
			fmt.Fprintln(w, "mapping OK")
		}
	})
	if err != nil {
		return err
	}
	return p.report(env)
}

func prepFlagSet(env *Env, name string, o *prepOptions) *flag.FlagSet {
	c := commands[name]
	fs := newFlags(env, name, c)
	fs.Var(&o.maps, "map", "map a service key to a header: key=Header (repeatable; key= leaves it unmapped)")
	fs.StringVar((*string)(&o.mode), "mode", "", "trace mode: normal (default, or a matched preset's) or enhanced")
	fs.BoolVar(&o.dnc, "dnc", false, "the file is a phone list for a DNC scrub (the key is phone)")
	fs.BoolVar(&o.acceptSplits, "accept-splits", false, "accept the suggested splits of full-name and one-line address columns")
	fs.IntVar(&o.headerLine, "header-line", 0, "1-based line of the header (0 detects it)")
	fs.StringVar(&o.sheet, "sheet", "", "sheet of an .xlsx workbook (default: the first)")
	fs.StringVar(&o.presets, "presets", "", "JSON file of saved mappings: a preset saved for these headers is used when --map is not given")
	fs.BoolVar(&o.jsonOut, "json", false, "print JSON")
	return fs
}

// estimateOut is the JSON of the estimate command.
type estimateOut struct {
	*prepared
	Upload   *prepare.Upload     `json:"upload"`
	Trace    *estimate.Result    `json:"estimate,omitempty"`
	DNC      *estimate.DNCResult `json:"dnc_estimate,omitempty"`
	PhoneRun *phone.Scan         `json:"phones,omitempty"`
}

func runEstimate(ctx context.Context, env *Env, args []string) error {
	var o prepOptions
	fs := prepFlagSet(env, "estimate", &o)
	llcs := fs.Bool("include-llcs", false, "also trace company/LLC rows (billed at the llc rate, or the enhanced rate in enhanced mode)")
	dropDup := fs.Bool("drop-duplicates", false, "leave out rows whose mapped values repeat an earlier row")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("estimate: want one FILE, got %d arguments", len(pos))
	}
	env.JSON = env.JSON || o.jsonOut
	p, err := settle(ctx, pos[0], &o)
	if err != nil {
		return err
	}
	if !p.OK {
		if env.JSON {
			env.Output(p, nil)
		} else {
			printMapping(env.Stdout, p)
		}
		return p.report(env)
	}
	c, err := env.Client(ctx)
	if err != nil {
		return err
	}
	pricing, err := c.Pricing(ctx)
	if err != nil {
		return env.Explain(ctx, c, err, -1)
	}
	account, err := c.Account(ctx)
	if err != nil {
		return env.Explain(ctx, c, err, -1)
	}
	plan := prepare.Plan{Kind: p.Kind, Mapping: p.Mapping, Splits: p.Splits, DropDuplicates: *dropDup,
		Input: input.Options{HeaderLine: o.headerLine, Sheet: o.sheet}}
	up, err := prepare.Prepare(ctx, p.File, p.ins, plan)
	if err != nil {
		return err
	}
	defer up.Remove()
	out := estimateOut{prepared: p, Upload: up}
	if p.Kind == jobs.KindDNC {
		scan, err := phone.ScanColumn(ctx, up.Path, up.Mapping[mapping.Phone], phone.ScanOptions{ListInvalid: maxListedInvalid})
		if err != nil {
			return err
		}
		r := estimate.EstimateDNC(scan, pricing, account)
		out.DNC, out.PhoneRun = &r, scan
	} else {
		// Inspect what will be uploaded, with the mapping's name columns:
		// the company rows and the rows are then exactly the provider's.
		ins, err := input.Inspect(ctx, up.Path, estimate.Options(input.Options{SampleRows: -1, HeaderLine: uploadHeaderLine(up, o.headerLine), Sheet: o.sheet}, up.Mapping))
		if err != nil {
			return err
		}
		r := estimate.Estimate(ins, up.Mapping, p.Mode, *llcs, pricing, account)
		if *dropDup {
			r.DuplicateRows, r.DuplicateSavings = 0, 0
		} else if r.DuplicateRows > 0 {
			// The exact saving: count the upload without its duplicates.
			dry := plan
			dry.DropDuplicates = true
			c, err := prepare.Count(ctx, p.File, p.ins, dry)
			if err != nil {
				return err
			}
			without := estimate.Estimate(estimate.WithCounts(p.ins, c), c.Mapping, p.Mode, *llcs, pricing, nil)
			r.DuplicateSavings = r.Credits - without.Credits
		}
		out.Trace = &r
	}
	if err := env.Output(out, func(w io.Writer) { printEstimate(w, &out) }); err != nil {
		return err
	}
	for _, pr := range p.Validation.Warnings() {
		fmt.Fprintf(env.Stderr, "warning: %s\n", pr.Message)
	}
	return nil
}

// maxListedInvalid is how many invalid phone rows the JSON of estimate
// lists.
const maxListedInvalid = 1000

// uploadHeaderLine is the header line of the upload: 1 for a written file,
// else the one asked for.
func uploadHeaderLine(up *prepare.Upload, asked int) int {
	if up.Written {
		return 1
	}
	return asked
}

func printEstimate(w io.Writer, out *estimateOut) {
	up := out.Upload
	name := filepath.Base(out.File)
	if up.Written {
		fmt.Fprintf(w, "%s: uploaded as a prepared copy (%s)\n", name, strings.Join(up.Reasons, "; "))
		if up.DroppedDuplicates > 0 {
			fmt.Fprintf(w, "  %d duplicate %s left out\n", up.DroppedDuplicates, plural(up.DroppedDuplicates, "row", "rows"))
		}
		for col, n := range up.SplitFailures {
			fmt.Fprintf(w, "  %d %s of %q could not be split (kept whole)\n", n, plural(n, "value", "values"), col)
		}
	} else {
		fmt.Fprintf(w, "%s: uploaded as it is\n", name)
	}
	var pay estimate.Payment
	if r := out.DNC; r != nil {
		s := out.PhoneRun
		fmt.Fprintf(w, "%d phone rows: %d valid (%d distinct), %d invalid, %d repeated\n", s.Rows, s.Valid, s.Unique, s.Invalid, s.Duplicates)
		for _, e := range s.Examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
		for _, e := range s.InvalidExamples {
			fmt.Fprintf(w, "  invalid %s\n", e)
		}
		if more := s.Invalid - len(s.InvalidExamples); more > 0 {
			fmt.Fprintf(w, "  … and %d more invalid (--json lists the first %d with their lines)\n", more, maxListedInvalid)
		}
		fmt.Fprintf(w, "cost: %d rows × %d = %d credits up front", r.Rows, r.Rate, r.Credits)
		if r.Refund > 0 {
			fmt.Fprintf(w, "; %d refunded for the invalid numbers: %d net", r.Refund, r.NetCredits)
		}
		fmt.Fprintln(w)
		if r.DuplicateRows > 0 {
			fmt.Fprintf(w, "dropping the %d repeated %s (--drop-duplicates) would save %d %s\n", r.DuplicateRows,
				plural(r.DuplicateRows, "number", "numbers"), r.DuplicateSavings, plural(int(r.DuplicateSavings), "credit", "credits"))
		}
		pay = r.Payment
	} else if r := out.Trace; r != nil {
		llcs := "no"
		if r.IncludeLLCs {
			llcs = "yes"
		}
		fmt.Fprintf(w, "%d %s, %d %s; %s mode, include LLCs: %s\n", r.TotalRows, plural(r.TotalRows, "row", "rows"),
			r.EntityRows, plural(r.EntityRows, "company", "companies"), r.Mode, llcs)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintf(tw, "  individuals\t%d\t× %d\t= %d\t credits\n", r.Individuals.Rows, r.Individuals.Rate, r.Individuals.Credits)
		if r.Companies.Billed {
			fmt.Fprintf(tw, "  companies\t%d\t× %d\t= %d\t credits\n", r.Companies.Rows, r.Companies.Rate, r.Companies.Credits)
		}
		tw.Flush()
		if !r.Companies.Billed && r.Companies.Rows > 0 {
			fmt.Fprintf(w, "  companies: %d skipped, not traced and not billed (--include-llcs to trace them)\n", r.Companies.Rows)
		}
		fmt.Fprintf(w, "cost: %d credits up front (no-matches are refunded after the job)\n", r.Credits)
		if r.DuplicateRows > 0 {
			fmt.Fprintf(w, "%d %s an earlier row: dropping %s (--drop-duplicates) would save %d %s\n",
				r.DuplicateRows, plural(r.DuplicateRows, "row repeats", "rows repeat"), plural(r.DuplicateRows, "it", "them"),
				r.DuplicateSavings, plural(int(r.DuplicateSavings), "credit", "credits"))
		}
		pay = r.Payment
	}
	switch {
	case pay.Metered != nil:
		m := pay.Metered
		fmt.Fprintf(w, "metered billing: usage %d → %d of the %d threshold\n", m.UnbilledUsage, m.UsageAfter, m.Threshold)
	default:
		fmt.Fprintf(w, "balance: %d → %d credits (%s)\n", pay.Balance, pay.BalanceAfter, pay.BillingMode)
	}
	if pay.Plan != nil {
		fmt.Fprintf(w, "plan %s: %d → %d of %d credits this period\n", pay.Plan.PlanName, pay.Plan.CreditsUsed, pay.Plan.UsedAfter, pay.Plan.CreditsLimit)
	}
	for _, s := range pay.Warnings {
		fmt.Fprintf(w, "note: %s\n", s)
	}
	if pay.CanPay {
		fmt.Fprintln(w, "the account can pay")
	} else {
		fmt.Fprintf(w, "the account cannot pay: %s\n", pay.Blocker)
	}
}
