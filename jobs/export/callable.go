package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/calltime"
	"github.com/skipdesk/skipdesk/jobs/dialer"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// CallableOptions tune ExportCallable.
type CallableOptions struct {
	// OnlyCallable keeps only the phones that may be called (the
	// "callable" filter): valid numbers, clean on every list the call
	// depends on. Every other phone is left out.
	OnlyCallable bool
	// Filters are quick filters to apply ("matched", "mobile", "not-dnc",
	// "not-litigator", "callable"; see jobs.QuickFilter): a row filter drops
	// rows, a phone filter leaves out the phones that fail it and drops the
	// rows left with none.
	Filters []jobs.QuickFilter
	// DNC are further DNC results (any layout) whose flags join the
	// result's phones, after the one ExportCallable is given; of two
	// results with a number, the newest wins.
	DNC []string
	// Layout is the result's layout (one the person corrected); nil
	// detects it.
	Layout *layout.Layout
	// Rows are the 0-based data rows to export, in order (a viewer's
	// filtered and sorted view); nil exports every row in file order.
	Rows     []int
	Format   string        // "xlsx" or "csv"; empty: from dst's extension
	Meta     *library.Meta // the result's job record, for the Summary sheet
	Progress func(done, total int)

	// Internal is the company's own do-not-call list: a number on it is
	// never callable. Nil applies no list.
	Internal layout.NumberSet
	// Now, when set, judges the age of the scrubs: an answer older than
	// layout.MaxScrubAge is stale, and a stale phone is not callable.
	// OwnDate is when the result's own flags were scrubbed (zero: they
	// were not, or it is not known).
	Now, OwnDate time.Time
	// LeaveOutStale leaves out the phones only a stale scrub clears.
	// Without it, an export that would keep such a phone fails with a
	// *StaleError naming the scrub and its date, and writes nothing.
	LeaveOutStale bool
	// LeaveOutMobiles leaves out mobiles, and phones whose type is not
	// known (a call placed by an autodialer needs a landline).
	LeaveOutMobiles bool
	// KeepLitigators keeps phones whose only reason not to be called is the
	// litigator list (off: they are left out).
	KeepLitigators bool
	// KeepUnknown keeps phones whose only reasons are answers not known
	// (off: unknown is never callable). Their flags say "unknown". It
	// never keeps a phone whose answer is stale, undated or unsure.
	KeepUnknown bool
	// LeaveOutUnsure exports although a file's layout has open questions
	// that bear on callability, leaving out the phones they touch (off:
	// the export refuses with a *layout.QuestionError naming them).
	LeaveOutUnsure bool
	// Corrections gives the person's answers for a header signature, for
	// every file the export reads (the result, when Layout is nil, and the
	// DNC results).
	Corrections func(signature string) *layout.Correction
	// Proof, when set, is recorded with the export: a Compliance sheet in
	// an .xlsx, and a PDF beside dst ("<name> proof.pdf"). ExportCallable
	// fills in the hashes, the scrubs, the counts and the options.
	Proof *Proof

	// Calltime places each kept phone and gives its calling window, written
	// after its flags as "<phone> time zone", "<phone> call from" and
	// "<phone> call until" (the called person's local HH:MM, on the day of
	// CallableAt, or of the export). Nil: the rules SkipDesk ships.
	Calltime *calltime.Engine
	// CallableAt, when set, leaves out every phone that may not be called
	// at that instant, counted per reason. Zero: no phone is left out for
	// the time rule, unless Filters hold "callable-now": then it is Now.
	CallableAt time.Time
	// Calls are a dialer's call log's calls to each number (10 digits) in
	// the 24 hours up to CallableAt, or the export's time: a number that
	// reached the calls-per-24-hours cap of one of its states (FL, OK, MD:
	// 3) is left out. CallLog names the log for the proof ("" none given).
	Calls   map[string]int
	CallLog string
	// Preset, when set, writes the rows as a dialer or CRM imports them
	// (its columns, phone format, one row per owner or per phone), in as
	// many files as its rows-per-file limit asks. Nil: the result's own
	// layout with the flags and windows added.
	Preset *dialer.Preset
	// readFirst: the result is read once before its rows are written, even
	// where each number's answer is the same in every row
	// (NumberDecides): an export whose rows said more of a phone than its
	// number's answers is made again so (errRowStated).
	readFirst bool
}

// unknownBlocks are the reasons that say an answer is not known.
const unknownBlocks = layout.UnknownBlocks

// ExportCallable writes a result (a trace or a DNC result, in any layout)
// with each phone's flags in words: after each phone's columns come
// "<phone> flags" ("federal DNC clean, litigator flagged, state DNC not
// checked") and "<phone> callable" ("yes", or "no: " and why). The flags
// are the result's own (PropStream's "Phone 1 DNC", a DNC result's
// columns) merged with those of dncResult and opts.DNC, DNC results in any
// layout joined on the numbers' 10 digits (a number none of them has is
// unknown). dncResult may be "" when the result carries its own flags.
//
// A phone left out (not callable under OnlyCallable, or failing a phone
// filter) appears nowhere in the written file: every column of its slot
// (number, raw twin, type, flags, details) is blanked; a number left out
// for its flags (callable, not-dnc, not-litigator) in one row is left out
// of every row; and under those filters any other cell that writes a valid
// number other than the row's kept phones (the person's own phone column,
// notes, a phone column the layout did not recognise) is blanked too.
// Rows left with no phone are dropped.
func ExportCallable(ctx context.Context, src, dncResult, dst string, opts CallableOptions) (*Report, error) {
	guessed := false
	rep, err := exportCallable(ctx, src, dncResult, dst, opts, &guessed)
	for tries := 0; err != nil && ctx.Err() == nil && tries < 2; tries++ {
		switch {
		case errors.Is(err, errRowStated) && !opts.readFirst:
			// A row said more of a phone than its number's answers: a
			// number left out in one row may have been written from an
			// earlier one. Made again, the result read first.
			opts.readFirst = true
		case guessed:
			// The rows were read with the layout of the file's first
			// rows, and the whole file reads in another, or the export
			// stopped before that was known: nothing read with it stands.
			guessed = false
		default:
			return rep, err
		}
		rep, err = exportCallable(ctx, src, dncResult, dst, opts, nil)
	}
	return rep, err
}

// errRowStated: the rows were judged as they were written, each number's
// answer being the same in every row, and a row said more of a phone than
// its number's answers (a note in its cell): the export is made again with
// the result read first (CallableOptions.readFirst).
var errRowStated = errors.New("a row states more of a phone than its number's answers")

// exportCallable is ExportCallable. With guessed, the result's layout,
// when it is to be detected, is that of its first rows until its rows are
// all read (layoutGuess); *guessed says the rows were read with a layout
// the whole file has not borne out yet.
func exportCallable(ctx context.Context, src, dncResult, dst string, opts CallableOptions, guessed *bool) (*Report, error) {
	format, err := formatOf(dst, opts.Format)
	if err != nil {
		return nil, err
	}
	dncs := opts.DNC
	if dncResult != "" {
		dncs = append([]string{dncResult}, dncs...)
	}
	ms, err := newMergeSource(ctx, src, dncs, opts, guessed)
	if err != nil {
		return nil, err
	}
	defer ms.Close()
	if opts.Proof != nil {
		startProof(src, ms, &opts)
	}
	if opts.Preset != nil {
		return exportPreset(ctx, src, dst, format, ms, opts)
	}
	eopts := Options{Meta: opts.Meta, Progress: opts.Progress}
	if format == FormatCSV {
		rep := &Report{Path: dst}
		rep.sum, err = writeAtomicSum(dst, func(w io.Writer) error { return writeCSV(ctx, ms, w, progressTotal(src, opts), eopts, rep) })
		if err != nil {
			return nil, err
		}
		return finishCallable(src, dst, rep, ms, opts.Proof)
	}
	// One reading of the result: its rows judged and written as sheet XML;
	// the workbook around them once they are counted.
	eopts.Format = FormatXLSX
	eopts.Phones = &ms.counts
	eopts.Proof = opts.Proof
	rep, err := writeStreamXLSX(ctx, ms, dst, progressTotal(src, opts), eopts, func(rows int) error {
		if err := ms.nothingKept(""); err != nil {
			return err
		}
		if p := opts.Proof; p != nil {
			p.Phones = ms.counts
			p.Rows = rows
			return ms.proofScrubs(src, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep.Warnings = append(ms.Warnings(), rep.Warnings...)
	rep.Phones = &ms.counts
	return rep, finishProof(dst, rep, opts.Proof)
}

// progressTotal is the rows a progress report counts towards (-1 when no
// one listens).
func progressTotal(src string, opts CallableOptions) int {
	switch {
	case opts.Progress == nil:
		return -1
	case opts.Rows != nil:
		return len(opts.Rows)
	}
	return estimateRows(src)
}

// finishCallable completes an export whose files are written: it refuses
// a list that kept no phone (removing what was written), and records the
// scrubs and the proof.
func finishCallable(src, dst string, rep *Report, ms *mergeSource, p *Proof) (*Report, error) {
	rep.Phones = &ms.counts
	if err := ms.nothingKept(rep.Path); err != nil {
		for _, part := range rep.Parts {
			os.Remove(part)
		}
		return nil, err
	}
	if p != nil {
		if err := ms.proofScrubs(src, p); err != nil {
			return nil, err
		}
	}
	return rep, finishProof(dst, rep, p)
}

// exportPreset writes a callable list shaped by a dialer preset, in as
// many files as its limit asks, each its own single-sheet import (no
// Summary or Compliance sheet a dialer could read as rows: the proof is the
// PDF beside it).
func exportPreset(ctx context.Context, src, dst, format string, ms *mergeSource, opts CallableOptions) (*Report, error) {
	s := &presetSource{m: ms, p: opts.Preset}
	ms.shape = func(j *rowJudge, n int) ([][]string, error) {
		rows, err := opts.Preset.Shape(j.owner())
		if err != nil {
			return nil, fmt.Errorf("export: %s row %d: %w", opts.Preset.Name, n, err)
		}
		return rows, nil
	}
	eopts := Options{Progress: opts.Progress, Format: format}
	rep, err := writePresetParts(dst, s, opts.Preset, func(part string, ls *limitSource) (*Report, error) {
		if format == FormatCSV {
			rep := &Report{Path: part}
			var err error
			rep.sum, err = writeAtomicSum(part, func(w io.Writer) error {
				return writeCSV(ctx, ls, w, progressTotal(src, opts), eopts, rep)
			})
			return rep, err
		}
		return writeStreamXLSX(ctx, ls, part, progressTotal(src, opts), eopts, nil)
	})
	if err != nil {
		return nil, err
	}
	rep.Warnings = append(ms.Warnings(), rep.Warnings...)
	return finishCallable(src, dst, rep, ms, opts.Proof)
}

// startProof fills what the proof knows before the export is written: the
// result's file and hash, the choices. The scrubs come after the rows are
// read (proofScrubs): each answer carries its own date.
func startProof(src string, ms *mergeSource, opts *CallableOptions) {
	p := opts.Proof
	p.Exported = ms.now
	p.Result = ProofFile{Name: filepath.Base(src)} // its hash as it is read
	p.Scrubs = p.Scrubs[:0]
	if opts.Internal != nil {
		p.Internal = opts.Internal.Len()
	}
	p.Choices = opts.choices()
	p.RulesVersion = ms.time.e.Table().Version
	p.CallableAt = opts.CallableAt
	p.TimeLeft = ms.timeLeft
	p.DialingMode = "manual"
	if opts.LeaveOutMobiles {
		p.DialingMode = "autodialed (mobiles and phones of unknown type left out, and phones in the states where any autodialed call needs written consent)"
	}
	p.CallLog = opts.CallLog
	p.Keep = keepText(ms.time.e.Table())
	if opts.Preset != nil {
		p.Preset = opts.Preset.Name
	}
}

// keepText says how long a proof is kept, from the rules table's records
// row, and where.
func keepText(t *calltime.Table) string {
	s := "SkipDesk writes it beside the export and never deletes proofs"
	for _, r := range t.Of(calltime.KindRecords, calltime.Federal) {
		if years, _, err := r.Keep(); err == nil {
			return fmt.Sprintf("%d years (%s); %s", years, r.Source, s)
		}
	}
	return s
}

// finishProof writes the proof PDF beside the export written at dst. When
// it cannot, the export is taken back: a callable list is never left
// without its proof.
func finishProof(dst string, rep *Report, p *Proof) error {
	if p == nil {
		return nil
	}
	p.Rows = rep.Rows
	p.Phones = *rep.Phones
	out := rep.Path // a preset's first part when its limit split the list
	sum, err := writtenSum(out, rep.sum)
	p.Parts = p.Parts[:0]
	for i, part := range rep.Parts {
		if err != nil {
			break
		}
		var ps string
		if ps, err = writtenSum(part, rep.partSum(i)); err != nil {
			break
		}
		p.Parts = append(p.Parts, ProofFile{Name: filepath.Base(part), SHA256: ps})
	}
	if err == nil {
		p.Output = ProofFile{Name: filepath.Base(out), SHA256: sum}
		p.PDF = ProofName(dst)
		if err = writeProofPDF(p.PDF, p); err == nil {
			rep.Proof = p.PDF
		}
	}
	if err != nil {
		os.Remove(out)
		for _, part := range rep.Parts {
			os.Remove(part)
		}
		return fmt.Errorf("export: the proof of scrub could not be written, so the export %s was removed: %w", filepath.Base(dst), err)
	}
	return nil
}

// writtenSum is the SHA-256 of a file the export wrote: the one taken while
// writing it, else read back.
func writtenSum(path, sum string) (string, error) {
	if sum != "" {
		return sum, nil
	}
	return fileSHA256(path)
}

// partSum is the SHA-256 of part i taken while it was written, or "".
func (rep *Report) partSum(i int) string {
	if i < len(rep.partSums) {
		return rep.partSums[i]
	}
	return ""
}

// NormalizePhone returns the 10-digit form of a North American number
// (phone.Normalize's rule), and whether it is one.
func NormalizePhone(s string) (string, bool) {
	k := phone.Key(s)
	if k == 0 {
		return "", false
	}
	return phone.KeyDigits(k), true
}

// mergeSource yields the result's rows with each phone's flags in words,
// the phones left out blanked.
type mergeSource struct {
	opts    CallableOptions
	join    *layout.FlagIndex
	src     source
	l       *layout.Layout
	filters []jobs.QuickFilter
	phoneF  bool // a phone filter is given
	flags   bool // the phones have flags: write them in words
	strict  bool // a flag filter: only the kept phones' numbers may appear
	// flagged are the numbers left out for their flags anywhere in the
	// result (under a flag filter); stale the phones only a stale scrub
	// clears. staleRead: both were read before the rows (readFlagged).
	flagged   *layout.FlaggedNumbers
	stale     *staleSet
	staleRead bool
	// guess is the layout of the file's first rows the rows are read
	// with, until the first reading of every row bears it out (nil: the
	// layout was given, or detected over the whole file); guessed is set
	// while it is not borne out.
	guess   *layoutGuess
	guessed *bool
	headers []string
	// out[j] is the source column of output column j, or -(2+slotCols*k+c)
	// for slot k's added column c (slotFlags, slotCallable, slotZone,
	// slotFrom, slotUntil).
	out []int

	dncWarnings []string // the DNC results', prefixed with their names

	// The rows are judged on every core (par, by judges), started at the
	// first row, each judge with a time rule of its own like time.
	time   *timeRule
	par    *judging
	judges []*rowJudge
	ended  bool // every row was read and what the judges counted added up
	// shape, for a preset, writes its own rows from the row a judge read
	// (its row, keep, win; n: the row in the source); the row in the
	// result's layout is not built.
	shape func(j *rowJudge, n int) ([][]string, error)

	// counts, dated and timeLeft are the judges' counts added up, once
	// every row is read: the phones kept and left out, the kept phones
	// by the scrub their answer rests on (the source, -1 the result's own
	// answers, and the day), those the time rule left out by reason.
	counts   PhoneCounts
	dated    map[scrubDay]int
	timeLeft map[string]int
	now      time.Time
}

// scrubDay is a DNC source and when its answers were scrubbed.
type scrubDay struct {
	src int
	day time.Time
}

// PhoneCounts are the phones an export kept and those it left out, each
// counted once under its first reason ("federal DNC", "litigator",
// "invalid number", "DNC unknown", "filtered by choice"…).
type PhoneCounts struct {
	Kept int            `json:"kept"`
	Left map[string]int `json:"left_out"`
}

// LeftOut is the number of phones left out for any reason.
func (c PhoneCounts) LeftOut() int {
	n := 0
	for _, v := range c.Left {
		n += v
	}
	return n
}

// leftFor is the reason a phone was left out of a row.
func (m *mergeSource) leftFor(p *layout.Phone, isBad bool) string {
	switch {
	case m.strict && m.block(p) != 0:
		return m.block(p).Primary()
	case isBad:
		return "flagged in another row"
	case m.opts.LeaveOutMobiles && p.Type == layout.Mobile:
		return "mobile (autodialed calls)"
	case m.opts.LeaveOutMobiles && p.Type.Wireless():
		return "type not certain (autodialed calls)"
	}
	return "filtered by choice"
}

// block is why a phone may not be called, less what the person chose to
// keep (litigators, unknown answers).
func (m *mergeSource) block(p *layout.Phone) layout.Block {
	b := p.Block
	if m.opts.KeepUnknown && b&(layout.DateBlocks|layout.BlockUnsure) == 0 {
		b &^= unknownBlocks
	}
	if m.opts.KeepLitigators {
		b &^= layout.BlockLitigator
	}
	return b
}

// passes reports whether a phone passes filter f, with the person's
// choices.
func (m *mergeSource) passes(f jobs.QuickFilter, p *layout.Phone) bool {
	if f.Callable() && (m.opts.KeepUnknown || m.opts.KeepLitigators) {
		return m.block(p) == 0
	}
	if (f == jobs.QuickNotDNC || f == jobs.QuickNotLitigator) && m.opts.KeepUnknown {
		q := *p
		q.Block = m.block(p) | p.Block&layout.BlockLitigator
		return layout.Passes(f, &q)
	}
	return layout.Passes(f, p)
}

// chosen reports whether a phone passes the person's choices that are not
// quick filters (leave out mobiles: every phone not certain to be a
// landline or VoIP).
func (m *mergeSource) chosen(p *layout.Phone) bool {
	return !m.opts.LeaveOutMobiles || !p.Type.Wireless()
}

func newMergeSource(ctx context.Context, path string, dncs []string, opts CallableOptions, guessed *bool) (*mergeSource, error) {
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	lopts := layout.Options{Corrections: opts.Corrections, Now: now}
	l, guess, err := resultLayout(ctx, path, lopts, opts, guessed)
	if err != nil {
		return nil, err
	}
	if len(l.Slots) == 0 {
		return nil, fmt.Errorf("export: %s: no phone column found: not a result whose phones can be exported", path)
	}
	join, open, dncWarns, err := loadJoin(ctx, path, l, lopts, dncs, opts, now)
	if err != nil {
		return nil, err
	}
	filters := exportFilters(&opts, now)
	if err := l.Check(join, filters...); err != nil {
		return nil, fmt.Errorf("export: %s: %w", filepath.Base(path), err)
	}
	if len(open) > 0 && safety(filters) && !opts.LeaveOutUnsure {
		return nil, &layout.QuestionError{Files: open}
	}
	flags := len(dncs) > 0 || l.Reports != 0
	if !flags && len(filters) == 0 {
		return nil, fmt.Errorf("export: %s has no DNC or litigator flags and no DNC result was given: scrub its phones first", filepath.Base(path))
	}
	m := &mergeSource{l: l, join: join, filters: filters, dncWarnings: dncWarnings(dncs, dncWarns),
		flags: flags, opts: opts,
		counts: PhoneCounts{Left: map[string]int{}}, now: now, dated: map[scrubDay]int{}, timeLeft: map[string]int{},
		phoneF: opts.LeaveOutMobiles || slices.ContainsFunc(filters, layout.PhoneLevel), guess: guess, guessed: guessed}
	if safety(filters) {
		m.strict = true
		if err := m.readFlagged(ctx, path); err != nil {
			return nil, err
		}
	}
	if err := m.openRows(path); err != nil {
		return nil, err
	}
	return m, nil
}

// resultLayout is the layout to read the result with: the one given, the
// one its first rows give while the export may guess (every row is read in
// file order, into one file: no chosen rows, no preset's parts), else the
// one detected over the whole file.
func resultLayout(ctx context.Context, path string, lopts layout.Options, opts CallableOptions, guessed *bool) (*layout.Layout, *layoutGuess, error) {
	if opts.Layout != nil {
		return opts.Layout, nil, nil
	}
	if guessed != nil && opts.Rows == nil && opts.Preset == nil {
		if g, err := guessLayout(path, lopts); err == nil {
			*guessed = true
			return g.guess, g, nil
		}
	}
	l, err := library.DetectLayoutContext(ctx, path, lopts)
	if err != nil {
		return nil, nil, fmt.Errorf("export: %w", err)
	}
	return l, nil, nil
}

// confirmGuess, once every row was read, fails the export when the whole
// file reads in another layout than the guess.
func (m *mergeSource) confirmGuess() error {
	if m.guess == nil {
		return nil
	}
	if err := m.guess.confirm(); err != nil {
		return err
	}
	*m.guessed = false
	return nil
}

// loadJoin reads the DNC results to join onto the result's phones, with
// the company's list and the dates their answers rest on; the questions
// still open come with them (the result's own first).
func loadJoin(ctx context.Context, path string, l *layout.Layout, lopts layout.Options, dncs []string, opts CallableOptions, now time.Time) (*layout.FlagIndex, []layout.FileQuestions, [][]string, error) {
	join, open, dncWarns, err := library.LoadFlagsWarned(ctx, lopts, dncs...)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("export: DNC result: %w", err)
	}
	if qs := l.Blocking(); len(qs) > 0 {
		open = append([]layout.FileQuestions{{File: path, Questions: qs}}, open...)
	}
	if opts.Internal != nil {
		join.SetInternal(opts.Internal)
	}
	join.SetDates(opts.OwnDate, now)
	return join, open, dncWarns, nil
}

// exportFilters are the quick filters the export applies: the callable
// one when only callable phones are asked for; "callable now" sets the
// options' instant to now when none is given.
func exportFilters(opts *CallableOptions, now time.Time) []jobs.QuickFilter {
	filters := slices.Clone(opts.Filters)
	if opts.OnlyCallable && !slices.ContainsFunc(filters, jobs.QuickFilter.Callable) {
		filters = append(filters, jobs.QuickCallable)
	}
	if slices.Contains(filters, jobs.QuickCallableNow) && opts.CallableAt.IsZero() {
		opts.CallableAt = now // "callable now": now is the export's instant
	}
	return filters
}

// dncWarnings are the damage met in each DNC result (warns[i] of dncs[i]),
// each named with its file.
func dncWarnings(dncs []string, warns [][]string) []string {
	var out []string
	for i, d := range dncs {
		for _, w := range warns[i] {
			out = append(out, "DNC result "+filepath.Base(d)+": "+w)
		}
	}
	return out
}

// openRows opens the rows to export (the result's, hashed as they are read
// when a proof is asked for and every row is read) and sets up what a row
// needs.
func (m *mergeSource) openRows(path string) error {
	src, err := openSource(path, m.opts.Rows)
	if m.opts.Rows == nil && m.opts.Proof != nil {
		src, err = openCSVSourceHashed(path, true)
	}
	if err != nil {
		return err
	}
	m.src = src
	m.buildHeaders(src.Headers())
	if m.time, err = newTimeRule(&m.opts, m.now); err != nil {
		return fmt.Errorf("export: calling rules: %w", err)
	}
	return nil
}

// safety reports filters that leave phones out for their flags: such a
// number must not appear anywhere in the file.
func safety(fs []jobs.QuickFilter) bool { return slices.ContainsFunc(fs, layout.FlagFilter) }

// readFlagged applies the rule of layout.FlaggedNumbers — a number a flag
// filter leaves out in one row is left out of every row — and refuses the
// phones only a stale scrub clears (unless the person chose to leave them
// out: a *StaleError). Where the file states answers of its own, a row's
// answer may differ from another's: the whole result is read first. Where
// every answer is the number's (layout.NumberDecides), each row says it
// itself and both are done as the rows are written (merge, Next).
func (m *mergeSource) readFlagged(ctx context.Context, path string) error {
	m.flagged = layout.NewFlaggedNumbers()
	m.stale = newStaleSet()
	if m.l.NumberDecides() && !m.opts.readFirst {
		return nil
	}
	src, err := openCSVSource(path)
	if err != nil {
		return err
	}
	defer src.Close()
	rd := m.l.NewReader(m.join)
	var row layout.Row
	for n := 0; ; n++ {
		if n%ctxEvery == 0 {
			if err := cancelled(ctx); err != nil {
				return err
			}
		}
		rec, _, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if m.guess != nil {
			m.guess.add(rec)
		}
		rd.ReadPhones(rec, &row)
		for i := range row.Phones {
			m.note(&row.Phones[i], m.flagged, m.stale)
		}
	}
	if err := m.confirmGuess(); err != nil {
		return err
	}
	m.staleRead = true
	return m.staleErr()
}

// note records a phone's number in flagged when a flag filter leaves it
// out, and the phone in stale when only a stale scrub clears it.
func (m *mergeSource) note(p *layout.Phone, flagged *layout.FlaggedNumbers, stale *staleSet) {
	if p.Key == 0 {
		return
	}
	flagged.Note(p, m.filters, m.passes)
	if b := m.block(p); b != 0 && b&^layout.DateBlocks == 0 {
		stale.add(p, m.join)
	}
}

// staleErr is the *StaleError of the phones only a stale scrub clears,
// unless the person chose to leave them out.
func (m *mergeSource) staleErr() error {
	if m.stale.len() > 0 && !m.opts.LeaveOutStale {
		return m.stale.err()
	}
	return nil
}

// The columns added after each phone's, in order.
const (
	slotFlags = iota
	slotCallable
	slotZone
	slotFrom
	slotUntil
	slotCols
)

var slotSuffixes = [slotCols]string{" flags", " callable", " time zone", " call from", " call until"}

// buildHeaders places each slot's added columns after its last column.
func (m *mergeSource) buildHeaders(hs []string) {
	after := map[int][]int{} // source column → slots whose columns end there
	for k, s := range m.l.Slots {
		last := slices.Max(s.Columns)
		after[last] = append(after[last], k)
	}
	taken := map[string]bool{}
	for _, h := range hs {
		taken[strings.ToLower(h)] = true
	}
	name := func(s string) string {
		for taken[strings.ToLower(s)] {
			s += " (SkipDesk)"
		}
		taken[strings.ToLower(s)] = true
		return s
	}
	for i, h := range hs {
		m.headers = append(m.headers, h)
		m.out = append(m.out, i)
		for _, k := range after[i] {
			if !m.flags {
				break
			}
			label := m.l.Slots[k].Label
			for c, suffix := range slotSuffixes {
				m.headers = append(m.headers, name(label+suffix))
				m.out = append(m.out, -(2 + slotCols*k + c))
			}
		}
	}
}

func (m *mergeSource) Headers() []string { return m.headers }
func (m *mergeSource) Total() int        { return -1 }
func (m *mergeSource) Close() error {
	if m.par != nil {
		m.par.stop()
	}
	if m.src == nil {
		return nil
	}
	return m.src.Close()
}

// Warnings are the damage met in the result and the DNC results.
func (m *mergeSource) Warnings() []string {
	return append(slices.Clone(m.dncWarnings), m.src.Warnings()...)
}

func (m *mergeSource) Next() ([]string, int, error) {
	if m.par == nil {
		m.startJudging()
	}
	out, n, err := m.par.next()
	if err == io.EOF {
		if eerr := m.end(); eerr != nil {
			return nil, 0, eerr
		}
	}
	if err != nil {
		return nil, 0, err
	}
	return out, n, nil
}

// end is called once every row is read: it fails the export when the
// whole file reads in another layout than the one the rows were read
// with, adds up what the judges counted, and fails it when a stale scrub
// clears a phone (before anything is written: the rows went to a
// temporary file).
func (m *mergeSource) end() error {
	if err := m.confirmGuess(); err != nil {
		return err
	}
	if m.ended {
		return nil
	}
	m.ended = true
	stated := false
	for _, j := range m.judges {
		m.gather(j)
		stated = stated || j.stated
	}
	if stated && !m.staleRead {
		return errRowStated
	}
	if m.stale != nil && !m.staleRead {
		m.staleRead = true
		return m.staleErr()
	}
	return nil
}

// NothingCallableError: a callable list would hold no phone. Nothing is
// written: an empty list is never handed over as if it were one.
type NothingCallableError struct {
	Phones PhoneCounts
}

func (e *NothingCallableError) Error() string {
	reasons := make([]string, 0, len(e.Phones.Left))
	for r, n := range e.Phones.Left {
		reasons = append(reasons, fmt.Sprintf("%s %s", jobs.Thousands(int64(n)), r))
	}
	slices.Sort(reasons)
	if len(reasons) == 0 {
		return "no phone to call: the result holds no phone numbers; nothing was written"
	}
	return "no phone may be called (" + strings.Join(reasons, ", ") + "); nothing was written"
}

// nothingKept refuses an export that hands over numbers to call and kept
// none, removing what was written at dst.
func (m *mergeSource) nothingKept(dst string) error {
	if !slices.ContainsFunc(m.filters, jobs.QuickFilter.Callable) || m.counts.Kept > 0 {
		return nil
	}
	if dst != "" {
		os.Remove(dst)
	}
	return &NothingCallableError{Phones: m.counts}
}

func cell(rec []string, i int) string {
	if i < len(rec) {
		return rec[i]
	}
	return ""
}

// numbers are a row's phone numbers (phone.Key): a row has a few, so a
// list looked through beats a map made and cleared each row.
type numbers []uint64

func (ns numbers) has(k uint64) bool { return slices.Contains(ns, k) }

// flagWordsCache keeps the words of the flags met: most phones of a
// result share a few readings.
type flagWordsCache map[flagWordsKey]string

// maxWords bounds the cache: past it, it starts again.
const maxWords = 1 << 16

// flagWordsKey is what flagWords reads of a phone.
type flagWordsKey struct {
	valid           bool
	flags           layout.Flags
	scrubbed, since int64
	became          layout.Block
}

// of is flagWords(p), from the cache when its reading was met before.
func (c *flagWordsCache) of(p *layout.Phone) string {
	k := flagWordsKey{valid: p.Key != 0, flags: p.Flags, became: p.Became}
	if !p.Scrubbed.IsZero() {
		k.scrubbed = p.Scrubbed.Unix()
	}
	if !p.Since.IsZero() {
		k.since = p.Since.Unix()
	}
	if w, ok := (*c)[k]; ok {
		return w
	}
	if *c == nil || len(*c) >= maxWords {
		*c = flagWordsCache{}
	}
	w := flagWords(p)
	(*c)[k] = w
	return w
}

// flagWords writes a phone's flags in words: "federal DNC clean, litigator
// flagged, state DNC not checked".
func flagWords(p *layout.Phone) string {
	if p.Key == 0 {
		return "invalid number"
	}
	f := p.Flags
	var parts []string
	for _, k := range layout.WordsOrder {
		if !f.Has.Has(k) {
			continue
		}
		v := f.Of(k).String()
		if k == layout.Number {
			if f.Of(k) == layout.Flagged {
				parts = append(parts, "number invalid")
			}
			continue
		}
		parts = append(parts, k.Words()+" "+v)
	}
	if !f.Has.AnswersRegistry() {
		parts = append(parts, "DNC unknown")
	}
	if !f.Has.AnswersLitigator() {
		parts = append(parts, "litigator unknown")
	}
	if !f.Has.AnswersState() && !f.Has.Has(layout.Combined) {
		parts = append(parts, "state DNC not checked")
	}
	if !p.Scrubbed.IsZero() {
		parts = append(parts, "scrubbed "+p.Scrubbed.UTC().Format("2006-01-02"))
	}
	if p.Became != 0 {
		parts = append(parts, "new since the scrub of "+p.Since.UTC().Format("2006-01-02")+": "+p.Became.String())
	}
	return strings.Join(parts, ", ")
}

// verdict is "yes", or "no: " and the reasons.
func verdict(p *layout.Phone) string {
	if p.Block == 0 {
		return "yes"
	}
	return "no: " + p.Block.String()
}
