package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// Preparing a submission without sending it: validate a mapping (offline)
// and estimate what it will cost. Both go through the application layer,
// as the window's trace wizard does.

func init() {
	register("validate", &command{
		usage: "FILE [--map key=Header ...] [--mode normal|enhanced] [--dnc] [--accept-splits] [--header-line N] [--sheet NAME] [--presets FILE] [--save-preset NAME] [--values-right KEY] [--json]",
		summary: "check a column mapping against a file with the provider's rules (offline; " +
			"without --map, shows the automatic mapping first)",
		run: runValidate,
	})
	register("estimate", &command{
		usage:   "FILE [--map key=Header ...] [--mode normal|enhanced] [--include-llcs] [--drop-duplicates] [--pad-zips=false] [--leave-out-no-address=false] [--skip-traced=false | --reuse-within D] [--dnc [--skip-scrubbed=false] [--leave-out-invalid=false]] [--accept-splits] [--header-line N] [--sheet NAME] [--presets FILE] [--values-right KEY] [--json]",
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

// prepOptions are the flags validate, estimate and submit share: what a
// workflow.Plan is made of.
type prepOptions struct {
	maps           mapFlags
	mode           jobs.Mode
	dnc            bool
	acceptSplits   bool
	headerLine     int
	sheet          string
	presets        string
	includeLLCs    bool
	dropDuplicates bool
	fromTrace      string
	// reuse leaves out the rows the library already holds (--skip-traced,
	// --skip-scrubbed); reuseWithin is how old a reused result may be.
	reuse       bool
	reuseWithin ageFlag
	withinGiven bool // --reuse-within was given
	// valuesRight are the fields whose values the person says are right
	// although most do not look like the field's (--values-right KEY).
	valuesRight listFlag
	// Repairs before paying (--pad-zips, --leave-out-no-address,
	// --leave-out-invalid, --leave-out-abroad), as the window offers them.
	padZips, leaveOutNoAddress, leaveOutInvalid, leaveOutAbroad bool
	// submit: the list is read to be submitted (its upload may start as it
	// is read: workflow.SubmitService.ReadToSubmit), under the job's name.
	submit bool
	name   string
}

// repairFlags are the repairs made before paying. Those that lose nothing
// are on unless turned off (--pad-zips=false): the window's defaults
// (workflow.Plan.WithDefaults).
func repairFlags(fs *flag.FlagSet, o *prepOptions, kind jobs.Kind) {
	trace, dnc := workflow.Plan{Kind: jobs.KindTrace}.WithDefaults(), workflow.Plan{Kind: jobs.KindDNC}.WithDefaults()
	if kind != jobs.KindDNC {
		fs.BoolVar(&o.padZips, "pad-zips", trace.PadZips, "give the ZIP codes Excel shortened to 4 digits their leading zero back (=false: send them as they are)")
		fs.BoolVar(&o.leaveOutNoAddress, "leave-out-no-address", trace.LeaveOutNoAddress, "leave out the rows with no street address (they cannot be searched; not charged; =false: send them)")
	}
	if kind != jobs.KindTrace {
		fs.BoolVar(&o.leaveOutInvalid, "leave-out-invalid", dnc.LeaveOutInvalid, "leave out the invalid phone numbers (not charged, so not refunded; =false: send them)")
		fs.BoolVar(&o.leaveOutAbroad, "leave-out-abroad", dnc.LeaveOutAbroad,
			"leave out the numbers outside the US (Canada, the Caribbean): a US scrub charges for them and cannot answer them (=false: send them)")
	}
}

// choiceFlag is the flag that turns a review's choice on or off.
func choiceFlag(kind jobs.Kind, key string) string {
	switch key {
	case workflow.ChoiceReuse:
		if kind == jobs.KindDNC {
			return "--skip-scrubbed"
		}
		return "--skip-traced"
	case workflow.ChoiceDropDuplicates:
		return "--drop-duplicates"
	case workflow.ChoicePadZips:
		return "--pad-zips"
	case workflow.ChoiceLeaveOutNoAddress:
		return "--leave-out-no-address"
	case workflow.ChoiceLeaveOutInvalid:
		return "--leave-out-invalid"
	case workflow.ChoiceLeaveOutAbroad:
		return "--leave-out-abroad"
	}
	return ""
}

// printReview prints the review before paying, each choice with the flag
// that turns it off (or on).
func printReview(w io.Writer, r workflow.Review) {
	for _, s := range r.SentencesWith(func(c workflow.Choice) string {
		f := choiceFlag(r.Kind, c.Key)
		switch {
		case f == "":
			return ""
		case c.On:
			return " (" + f + "=false turns it off)"
		}
		return " (" + f + " turns it on)"
	}) {
		fmt.Fprintln(w, s)
	}
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

	ins    *input.Inspection
	plan   workflow.Plan
	counts *workflow.Counts // made in the reading of the file (Service.Read); nil: none
	early  *workflow.EarlyUpload
}

// settle inspects the file, decides the mapping (flags, a preset or the
// automatic one) and validates it, as the window's wizard does. With svc
// the upload is counted in the same reading of the file (Service.Read):
// the price needs no second one; with hash the file's fingerprint is
// taken in it too.
func settle(ctx context.Context, env *Env, file string, o *prepOptions, svc *workflow.Service, hash bool) (*prepared, error) {
	kind := jobs.KindTrace
	if o.dnc || (o.maps.m != nil && o.maps.m[mapping.Phone] != "") {
		kind = jobs.KindDNC
	}
	if kind == jobs.KindTrace && o.mode != "" && o.mode != jobs.ModeNormal && o.mode != jobs.ModeEnhanced {
		return nil, usageErrorf("--mode must be normal or enhanced, not %q", o.mode)
	}
	in := input.Options{HeaderLine: o.headerLine, Sheet: o.sheet, Hash: hash}
	p := &prepared{File: file, Kind: kind}
	decide := func(ins *input.Inspection) (workflow.Plan, error) {
		return p.decide(ctx, env, ins, in, o), nil
	}
	var ins *input.Inspection
	var err error
	if svc != nil && o.submit {
		ins, p.plan, p.counts, p.early, err = svc.Submissions().ReadToSubmit(ctx, file, in, decide)
	} else if svc != nil {
		ins, p.plan, p.counts, err = svc.Quotes().Read(ctx, file, in, decide)
	} else if ins, err = workflow.Inspect(ctx, file, in); err == nil {
		p.plan, _ = decide(ins)
	}
	if err != nil {
		return nil, err
	}
	p.Headers, p.ins = ins.Headers, ins
	plan := p.plan
	p.Mode, p.Mapping, p.Splits = plan.Mode, plan.Mapping, plan.Splits
	p.Validation = workflow.Validate(ins, plan)
	p.OK = p.Validation.OK()
	return p, nil
}

// printAbroad says how many of a scrub's numbers are outside the US, with
// the first of them.
func printAbroad(w io.Writer, s *phone.Scan) {
	if s.Abroad == 0 {
		return
	}
	fmt.Fprintf(w, "  %s outside the US (Canada, the Caribbean), which a US scrub does not answer:\n", plural(s.Abroad, "number is", "numbers are"))
	for _, e := range s.AbroadExamples {
		fmt.Fprintf(w, "    line %d: %s (%s)\n", e.Line, e.Raw, e.Reason)
	}
}

// decide makes the plan of the file whose start ins holds: the mapping
// from the flags, a preset saved for its headers, or the automatic one
// (from its headers and first rows).
func (p *prepared) decide(ctx context.Context, env *Env, ins *input.Inspection, in input.Options, o *prepOptions) workflow.Plan {
	kind := p.Kind
	plan := workflow.Plan{Kind: kind, Path: p.File, Input: in, IncludeLLCs: o.includeLLCs, DropDuplicates: o.dropDuplicates,
		ParentTraceID: o.fromTrace, Reuse: o.reuse, ReuseWithin: time.Duration(o.reuseWithin),
		PadZips: o.padZips, LeaveOutNoAddress: o.leaveOutNoAddress, LeaveOutInvalid: o.leaveOutInvalid,
		LeaveOutAbroad:  o.leaveOutAbroad,
		ValuesConfirmed: o.valuesRight.list, Name: o.name}
	plan.Input.Hash = false // a reading option, not the plan's
	if kind == jobs.KindTrace {
		plan.Mode = o.mode
	}
	switch {
	case o.maps.m != nil:
		p.Source, plan.Mapping = "flags", o.maps.m.Clone()
	default:
		if pr := matchPreset(ctx, env, ins.Headers, kind); pr != nil {
			p.Source, plan.Mapping = "preset "+pr.Name, pr.Mapping
			if kind == jobs.KindTrace && o.mode == "" {
				plan.Mode = pr.Mode // the preset's mode unless --mode says otherwise
			}
		}
		if plan.Mapping == nil {
			s := workflow.Suggest(ins, kind)
			p.Source, p.Auto, plan.Mapping = "auto", &s, s.Mapping()
			if o.acceptSplits {
				plan = workflow.AcceptSplits(plan, ins, s)
			}
		}
	}
	if kind == jobs.KindTrace && plan.Mode == "" {
		plan.Mode = jobs.ModeNormal
	}
	return plan
}

// matchPreset is the preset saved for these headers: in --presets FILE, or
// in the job records when an API key is configured; nil when none.
func matchPreset(ctx context.Context, env *Env, headers []string, kind jobs.Kind) *mapping.Preset {
	svc, err := env.service()
	if err != nil {
		return nil
	}
	if env.Config.PresetsFile == "" {
		if _, err := env.connect(ctx); err != nil {
			return nil
		}
	}
	pr, err := svc.Presets().MatchPreset(ctx, headers, kind)
	if err != nil {
		fmt.Fprintf(env.Stderr, "warning: presets: %s\n", words(err))
		return nil
	}
	return pr
}

// report prints every problem on stderr and returns the exit-2 error.
func (p *prepared) report(env *Env) error {
	for _, pr := range p.Validation.Problems {
		fmt.Fprintf(env.Stderr, "%s: %s%s\n", pr.Severity, pr.Message, keysOf(pr))
	}
	if p.OK {
		return nil
	}
	n := len(p.Validation.Errors())
	return usageErrorf("%s: the mapping has %s (listed above)", filepath.Base(p.File), plural(n, "problem", "problems"))
}

// keysOf names the keys a problem concerns, as --map takes them: the
// message says the fields in words, the command line is typed with keys.
func keysOf(pr mapping.Problem) string {
	if len(pr.Keys) == 0 || pr.Code == mapping.CodeUnknownKey {
		return ""
	}
	return " (keys: " + strings.Join(pr.Keys, ", ") + ")"
}

// plural is "1 row" or "2,000 rows".
func plural(n int, one, many string) string { return jobs.Plural(int64(n), one, many) }

// mappingNote says where a field's column came from: the split it was
// taken out of, or the automatic mapping's confidence and reason when it
// chose that column (conf, by key); "" otherwise.
func mappingNote(p *prepared, conf map[string]mapping.Guess, key, header string) string {
	note := ""
	if g, ok := conf[key]; ok && g.Header == header {
		note = fmt.Sprintf("confidence %.2f (%s)", g.Confidence, g.Reason)
	}
	for _, sp := range p.Splits {
		if slices.Contains(sp.Keys, key) {
			note = fmt.Sprintf("split from %q", sp.Column)
		}
	}
	return note
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
		note := mappingNote(p, conf, f.Key, h)
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
	if p.Auto != nil && len(p.Splits) == 0 {
		for _, sp := range p.Auto.Splits {
			fmt.Fprintf(w, "suggestion: split %q into %s", sp.Column, strings.Join(sp.Keys, ", "))
			if sp.Example != "" {
				fmt.Fprintf(w, " (%q → %s)", sp.Example, strings.Join(quoteAll(sp.ExampleInto), " | "))
			}
			fmt.Fprintln(w, "; accept with --accept-splits")
		}
	}
}

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
	save := fs.String("save-preset", "", "save the mapping (when valid) under this name for files with the same headers (in --presets FILE, or the job records)")
	file, err := o.parse(env, fs, "validate", args)
	if err != nil {
		return err
	}
	p, err := settle(ctx, env, file, &o, nil, false)
	if err != nil {
		return err
	}
	if *save != "" && p.OK {
		if err := savePreset(ctx, env, *save, p); err != nil {
			return err
		}
	}
	err = env.Output(p, func(w io.Writer) {
		fmt.Fprintf(w, "%s: %s, %s; mapping from %s", filepath.Base(p.File), plural(p.ins.Rows, "row", "rows"), plural(len(p.ins.Headers), "column", "columns"), p.Source)
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

// savePreset keeps the settled mapping as a preset, where presets live.
func savePreset(ctx context.Context, env *Env, name string, p *prepared) error {
	if env.Config.PresetsFile == "" {
		if _, err := env.connect(ctx); err != nil {
			return usageErrorf("validate: --save-preset keeps presets in the job records, which need an API key (SKIPDESK_API_KEY); or give --presets FILE")
		}
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	if err := svc.Presets().SavePreset(ctx, name, p.ins.Headers, p.plan); err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	where := "the job records"
	if env.Config.PresetsFile != "" {
		where = env.Config.PresetsFile
	}
	fmt.Fprintf(env.Stderr, "saved preset %q in %s\n", name, where)
	return nil
}

// parse parses the flags of validate or estimate and returns their one
// FILE; --presets takes effect on env.
func (o *prepOptions) parse(env *Env, fs *flag.FlagSet, name string, args []string) (string, error) {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return "", err
	}
	if len(pos) != 1 {
		return "", usageErrorf("%s: want one FILE, got %d arguments", name, len(pos))
	}
	env.Config.PresetsFile = o.presets
	return pos[0], nil
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
	fs.StringVar(&o.presets, "presets", "", "JSON file of saved mappings (default: the presets in the job records, shared with the window)")
	jsonFlag(env, fs)
	valuesFlag(fs, o)
	return fs
}

// valuesFlag adds --values-right KEY: the field's column is right although
// most of its values do not look like the field's.
func valuesFlag(fs *flag.FlagSet, o *prepOptions) {
	fs.Var(&o.valuesRight, "values-right", "the column mapped to this key is right although most of its values do not look like the field's (repeatable)")
}

// estimateOut is the JSON of the estimate command.
type estimateOut struct {
	*prepared
	*workflow.Quote
	Review workflow.Review `json:"review"`
}

func runEstimate(ctx context.Context, env *Env, args []string) error {
	var o prepOptions
	fs := prepFlagSet(env, "estimate", &o)
	fs.BoolVar(&o.includeLLCs, "include-llcs", false, "also trace company/LLC rows (billed at the llc rate, or the enhanced rate in enhanced mode)")
	fs.BoolVar(&o.dropDuplicates, "drop-duplicates", false, "leave out rows that repeat an earlier row (traces: the mapped values; DNC: the phone)")
	reuseFlags(fs, &o)
	repairFlags(fs, &o, "")
	file, err := o.parse(env, fs, "estimate", args)
	if err != nil {
		return err
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	// The session is opened and the rates asked for while the file is
	// read once: inspected, and its upload counted.
	actx, stop := context.WithCancel(ctx)
	ahead := env.ratesAhead(actx, svc)
	defer func() { stop(); ahead.wait() }()
	stopWaits := waitsForTheLibrary(env, svc)
	defer stopWaits()
	p, err := settle(ctx, env, file, &o, svc, false)
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
	rates, err := ahead.wait()
	if err != nil {
		return err
	}
	q, err := svc.Quotes().QuoteCounted(ctx, p.plan, p.ins, p.counts, rates)
	stopWaits() // priced: what follows is the estimate
	if err != nil {
		return err
	}
	out := estimateOut{prepared: p, Quote: q, Review: workflow.ReviewOf(p.plan, *q, p.Validation)}
	if err := env.Output(out, func(w io.Writer) { printQuote(w, p.File, q); printReview(w, out.Review) }); err != nil {
		return err
	}
	for _, pr := range p.Validation.Warnings() {
		fmt.Fprintf(env.Stderr, "warning: %s%s\n", pr.Message, keysOf(pr))
	}
	return nil
}

func printQuote(w io.Writer, file string, q *workflow.Quote) {
	up := q.Upload
	name := filepath.Base(file)
	if up.Written {
		fmt.Fprintf(w, "%s: uploaded as a prepared copy (%s)\n", name, strings.Join(up.Reasons, "; "))
		if up.DroppedDuplicates > 0 {
			fmt.Fprintf(w, "  %s left out\n", plural(up.DroppedDuplicates, "duplicate row", "duplicate rows"))
		}
		for col, n := range up.SplitFailures {
			fmt.Fprintf(w, "  %s of %q could not be split (kept whole)\n", plural(n, "value", "values"), col)
		}
	} else {
		fmt.Fprintf(w, "%s: uploaded as it is\n", name)
	}
	if r := q.DNC; r != nil {
		s := q.Phones
		fmt.Fprintf(w, "%d phone rows: %d valid (%d distinct), %d invalid, %d repeated\n", s.Rows, s.Valid, s.Unique, s.Invalid, s.Duplicates)
		for _, e := range s.Examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
		for _, e := range s.InvalidExamples {
			fmt.Fprintf(w, "  invalid %s\n", e)
		}
		if more := s.Invalid - len(s.InvalidExamples); more > 0 {
			fmt.Fprintf(w, "  … and %d more invalid (--json lists the first %d with their lines)\n", more, workflow.MaxListedInvalid)
		}
		printAbroad(w, s)
		fmt.Fprintf(w, "cost: %s × %d = %s up front", plural(r.Rows, "row", "rows"), r.Rate, jobs.Plural(r.Credits, "credit", "credits"))
		if r.Refund > 0 {
			fmt.Fprintf(w, "; %d refunded for the invalid numbers: %d net", r.Refund, r.NetCredits)
		}
		fmt.Fprintln(w)
	} else if r := q.Trace; r != nil {
		llcs := "no"
		if r.IncludeLLCs {
			llcs = "yes"
		}
		fmt.Fprintf(w, "%s, %s; %s mode, include LLCs: %s\n", plural(r.TotalRows, "row", "rows"),
			plural(r.EntityRows, "company", "companies"), r.Mode, llcs)
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
	}
	printReuseNotes(w, q)
	printPayment(w, q)
}

// printReuseNotes says what the review's choices do not: that the
// library could not be looked at, or rows found too old to reuse.
func printReuseNotes(w io.Writer, q *workflow.Quote) {
	r := q.Reuse
	switch {
	case r == nil:
	case r.Unavailable != "":
		fmt.Fprintf(w, "note: the library could not be looked at for earlier results: %s\n", r.Unavailable)
	case r.Older > 0:
		fmt.Fprintf(w, "%s earlier than --reuse-within allows: traced again\n", plural(r.Older, "row was traced", "rows were traced"))
	}
}

// reuseFlags adds --skip-traced (traces) or --skip-scrubbed (scrubs) and
// --reuse-within: on unless turned off, as in the window
// (workflow.Plan.WithDefaults).
func reuseFlags(fs *flag.FlagSet, o *prepOptions) {
	d := workflow.Plan{Kind: jobs.KindTrace}.WithDefaults()
	o.reuseWithin = ageFlag(d.ReuseWithin)
	fs.BoolVar(&o.reuse, "skip-traced", d.Reuse, "leave out the rows traced before (same owner and property address, in the library's results) and merge their earlier results into this one (=false: trace them again)")
	fs.BoolVar(&o.reuse, "skip-scrubbed", d.Reuse, "DNC: leave out the phones scrubbed in the last 31 days and reuse their answers (=false: scrub them again)")
	fs.Var(&o.reuseWithin, "reuse-within", "with --skip-traced: reuse only results this recent (e.g. 90d, 26w, 1y, 720h; 0 any age)")
}

// given reports whether the flag name was set on the command line.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// ageFlag is a duration written in days, weeks or years (90d, 26w, 1y) or
// as Go writes it (720h).
type ageFlag time.Duration

func (a *ageFlag) String() string { return time.Duration(*a).String() }

func (a *ageFlag) Set(s string) error {
	s = strings.TrimSpace(s)
	unit := map[byte]time.Duration{'d': 24 * time.Hour, 'w': 7 * 24 * time.Hour, 'y': 365 * 24 * time.Hour}
	if n := len(s); n > 1 {
		if u, ok := unit[s[n-1]]; ok {
			if v, err := strconv.Atoi(s[:n-1]); err == nil && v > 0 {
				*a = ageFlag(time.Duration(v) * u)
				return nil
			}
		}
	}
	if s == "0" {
		*a = 0 // any age
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return fmt.Errorf("want an age such as 90d, 26w, 1y or 720h (0: any age), not %q", s)
	}
	*a = ageFlag(d)
	return nil
}

func printPayment(w io.Writer, q *workflow.Quote) {
	pay := q.Payment
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
