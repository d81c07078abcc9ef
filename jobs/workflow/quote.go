package workflow

import (
	"context"
	"fmt"
	"slices"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/estimate"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/prepare"
)

// Counts are what a plan's upload will hold, read from the file the way
// the upload will be written: what the provider will bill, row for row.
type Counts struct {
	key countKey

	// Traces: the upload's rows and company rows, with duplicates dropped
	// when the plan says so; Without* are the figures without duplicates
	// (equal when none were found or they are dropped).
	Rows, EntityRows               int
	RowsWithout, EntityRowsWithout int
	// Duplicates are rows repeating an earlier row's mapped values (a
	// scrub: numbers already in the list).
	Duplicates int
	// Upload is the mapping the upload will carry (derived columns
	// included) and its name columns.
	mapping       mapping.Mapping
	nameColumns   []string
	splitFailures map[string]int
	repaired      prepare.Repaired
	ins           *input.Inspection

	// Phones is the scan of a scrub's phone column.
	Phones *phone.Scan

	// reuse are the rows the library already holds (Service.Count).
	reuse *reuseCounts
	// tally is the count these figures come from (nil for a scrub).
	tally *prepare.Tally
}

// countKey is what counts depend on: the same key, the same counts.
type countKey struct {
	kind       jobs.Kind
	path       string
	headerLine int
	sheet      string
	m          string
	splits     string
	repairs    string
}

func keyOf(p Plan) countKey {
	k := countKey{kind: p.Kind, path: p.Path, headerLine: p.Input.HeaderLine, sheet: p.Input.Sheet,
		m: canonicalMapping(p.Mapping)}
	for _, sp := range p.Splits {
		k.splits += sp.Column + "\x00" + string(sp.Kind) + "\x00" + string(sp.Order) + "\x01"
	}
	if p.Kind != jobs.KindDNC { // a scrub's repairs change its price only
		k.repairs = fmt.Sprint(p.PadZips, p.LeaveOutNoAddress)
	}
	return k
}

// canonicalMapping is a mapping in one canonical text.
func canonicalMapping(m mapping.Mapping) string {
	var b []byte
	for _, k := range m.Clean().SortedKeys() {
		b = append(b, k...)
		b = append(b, 0)
		b = append(b, m[k]...)
		b = append(b, 1)
	}
	return string(b)
}

// Fits reports whether c was counted for p's file, mapping and splits:
// what counts depend on. Mode and the LLC choice only change the price.
func (c *Counts) Fits(p Plan) bool { return c != nil && c.key == keyOf(p) }

// Count reads the plan's file as its upload will be read and counts what
// the provider will bill: rows and company rows by the mapped names (after
// splits), with and without duplicates; for a scrub, the phone column's
// valid, invalid and repeated numbers. ins is the picked file's inspection.
// The rows the library already holds are looked up too (a trace's keys
// read in the same pass), unless the library holds nothing they could be.
func (s *QuoteService) Count(ctx context.Context, p Plan, ins *input.Inspection) (*Counts, error) {
	look := s.lookFor(ctx, p, true)
	defer look.close()
	c, err := count(ctx, p, ins, look)
	if err != nil {
		return nil, err
	}
	// What the library already holds: the quote offers to reuse it.
	c.reuse = look.finish(ctx, s.core, p, ins, c)
	return c, ctx.Err()
}

// Count is Service.Count without the library: it needs no session.
func Count(ctx context.Context, p Plan, ins *input.Inspection) (*Counts, error) {
	return count(ctx, p, ins, nil)
}

// count counts the plan's upload in one reading of the file; a trace's
// rows are handed to look (when not nil) as they are read.
func count(ctx context.Context, p Plan, ins *input.Inspection, look *reuseLook) (*Counts, error) {
	if ins == nil {
		return nil, fmt.Errorf("%s: the file was not read", p.Path)
	}
	if p.Kind == jobs.KindDNC {
		scan, err := phone.ScanColumn(ctx, p.Path, p.Mapping[mapping.Phone], scanOptions(p, ins))
		if err != nil {
			return nil, err
		}
		return scrubCounts(p, ins, scan), nil
	}
	plan := p.prepare(ins, true)
	counter, err := look.counter(p.Path, ins, plan)
	if err != nil {
		return nil, err
	}
	t, err := counter.Read(ctx, p.Path, ins, plan)
	if err != nil {
		return nil, err
	}
	return countsOf(p, ins, t), nil
}

// scanOptions is how a scrub's phone column is scanned.
func scanOptions(p Plan, ins *input.Inspection) phone.ScanOptions {
	return phone.ScanOptions{Input: readOptions(p, ins), ListInvalid: MaxListedInvalid}
}

// scrubCounts are a scrub's counts from the scan of its phone column.
func scrubCounts(p Plan, ins *input.Inspection, scan *phone.Scan) *Counts {
	c := &Counts{key: keyOf(p), ins: ins, Phones: scan, Duplicates: scan.Duplicates}
	c.Rows, c.RowsWithout = scan.Rows, scan.Rows-scan.Duplicates
	return c
}

// countsOf are a trace's counts from its upload's tally.
func countsOf(p Plan, ins *input.Inspection, t *prepare.Tally) *Counts {
	c := &Counts{key: keyOf(p), ins: ins}
	without := &t.Without
	c.mapping, c.nameColumns, c.splitFailures, c.repaired = without.Mapping, without.NameColumns, without.SplitFailures, without.Repaired
	c.RowsWithout, c.EntityRowsWithout, c.Duplicates = without.Rows, without.EntityRows, without.DroppedDuplicates
	c.Rows, c.EntityRows = t.With.Rows, t.With.EntityRows
	c.tally = t
	return c
}

// readOptions is how the plan's file is read: the header line and sheet
// of its inspection unless the plan names others.
func readOptions(p Plan, ins *input.Inspection) input.Options {
	o := p.Input
	if o.HeaderLine == 0 {
		o.HeaderLine = ins.HeaderLine
	}
	if o.Sheet == "" {
		o.Sheet = ins.Sheet
	}
	return o
}

// MaxListedInvalid is how many invalid phone rows a scrub's count lists.
const MaxListedInvalid = 1000

// Rates are what a price is made with: the provider's rates and the
// account that pays.
type Rates struct {
	Pricing *client.Pricing
	Account *client.Account
}

// Rates reads GET /pricing and GET /account, asked together (a price
// waits one round trip to the provider, not two). The rates can change:
// read them before each price.
func (s *QuoteService) Rates(ctx context.Context) (Rates, error) {
	var a *client.Account
	var aerr error
	asked := make(chan struct{})
	go func() {
		defer close(asked)
		a, aerr = s.sessions().Account(ctx)
	}()
	p, err := s.sessions().Pricing(ctx)
	<-asked
	if err != nil {
		return Rates{}, err
	}
	if aerr != nil {
		return Rates{Pricing: p}, aerr
	}
	return Rates{Pricing: p, Account: a}, nil
}

// Quote is what a plan costs and whether the account can pay: the window's
// cost section and the command line's estimate show the same Quote, and
// Credits is what the provider charges.
type Quote struct {
	Kind jobs.Kind `json:"-"`
	// Rows are the rows uploaded and billed.
	Rows int `json:"rows"`
	// Credits are charged up front: the job's credits_charged.
	Credits int64      `json:"credits"`
	Lines   []CostLine `json:"lines"`
	// Duplicates found, whether they are left out, and the credits leaving
	// them out saves (or saved).
	Duplicates        int   `json:"duplicate_rows"`
	DroppedDuplicates int   `json:"dropped_duplicates"`
	DuplicateSavings  int64 `json:"duplicate_savings"`

	// Upload says how the file will be sent: as it is, or a prepared copy.
	Upload UploadInfo `json:"upload"`

	Trace   *estimate.Result    `json:"estimate,omitempty"`
	DNC     *estimate.DNCResult `json:"dnc_estimate,omitempty"`
	Phones  *phone.Scan         `json:"phones,omitempty"`
	Payment estimate.Payment    `json:"payment"`

	// Reuse is what the library already holds of the plan's rows (nil
	// when it was not looked at).
	Reuse *Reuse `json:"reuse,omitempty"`
	// AlreadyTraced (a trace) and ReusablePhones (a scrub) are Reuse.Rows,
	// for the command line's JSON.
	AlreadyTraced  *int `json:"already_traced_rows,omitempty"`
	ReusablePhones *int `json:"reusable_phones,omitempty"`

	// Repairs are the repairs a trace's file can have before paying
	// (nil: none); a scrub's is leaving out Phones.Invalid.
	Repairs *RepairOffer `json:"repairs,omitempty"`
}

// CostLine is one billed tier of a quote.
type CostLine struct {
	Label   string `json:"label"`
	Rows    int    `json:"rows"`
	Rate    int64  `json:"rate"`
	Credits int64  `json:"credits"`
	Note    string `json:"note,omitempty"` // "skipped: not traced, not billed" and the like
}

// Price prices counts made for p (Count) at rates: no I/O, so a screen can
// call it on every change of an option.
func Price(c *Counts, p Plan, r Rates) Quote {
	var q Quote
	if p.Kind == jobs.KindDNC {
		q = priceDNC(c, p, r)
	} else {
		q = priceTrace(c, p, r)
	}
	pp := prepare.Plan{Splits: p.Splits, DropDuplicates: p.DropDuplicates, Repairs: p.repairs(c.ins)}
	if q.Reuse != nil && q.Reuse.Skipped {
		pp.Keep, pp.KeepReason = keepAll, reuseReason(p.Kind)
	}
	written, reasons := prepare.Describe(c.ins, pp)
	q.Upload = UploadInfo{FileName: p.name(written), Rows: q.Rows, Written: written, Reasons: reasons,
		DroppedDuplicates: q.DroppedDuplicates, SplitFailures: c.splitFailures,
		PaddedZips: c.repaired.PaddedZips, LeftOutNoAddress: c.repaired.LeftOutBlank}
	if p.Kind == jobs.KindDNC && p.LeaveOutInvalid && c.Phones != nil {
		q.Upload.LeftOutInvalid = c.Phones.Invalid
	}
	if p.Kind == jobs.KindDNC && p.LeaveOutAbroad && c.Phones != nil {
		q.Upload.LeftOutAbroad = c.Phones.Abroad
	}
	if o := Repairable(c.ins, p); o != (RepairOffer{}) {
		q.Repairs = &o
	}
	return q
}

func priceTrace(c *Counts, p Plan, r Rates) Quote {
	mode := p.mode()
	est := func(rows, entities int) estimate.Result {
		ins := *c.ins
		ins.Rows, ins.EntityRows, ins.DuplicateRows = rows, entities, 0
		ins.NameColumns = slices.Clone(c.nameColumns)
		return estimate.Estimate(&ins, c.mapping, mode, p.IncludeLLCs, r.Pricing, r.Account)
	}
	// Rows the library already holds leave the upload with the person's
	// choice: reused[1] of the rows without duplicates, reused[0] with.
	reuse, reused := c.reuse.reuseFor(p), [2]*Reuse{}
	if reuse != nil {
		pd := p
		pd.DropDuplicates = false
		reused[0] = c.reuse.reuseFor(pd)
		pd.DropDuplicates = true
		reused[1] = c.reuse.reuseFor(pd)
	}
	left := func(r *Reuse) (int, int) {
		if r == nil || !r.Skipped {
			return 0, 0
		}
		return r.Rows, r.EntityRows
	}
	n0, e0 := left(reused[0])
	n1, e1 := left(reused[1])
	e := est(c.Rows-n0, c.EntityRows-e0)
	if p.DropDuplicates {
		e = est(c.RowsWithout-n1, c.EntityRowsWithout-e1)
	}
	q := Quote{Kind: jobs.KindTrace, Rows: e.TotalRows, Credits: e.Credits, Duplicates: c.Duplicates, Payment: e.Payment}
	if reuse != nil {
		rows, ents := c.Rows, c.EntityRows
		if p.DropDuplicates {
			rows, ents = c.RowsWithout, c.EntityRowsWithout
		}
		if reuse.Rows > 0 {
			reuse.Savings = est(rows, ents).Credits - est(rows-reuse.Rows, ents-reuse.EntityRows).Credits
		}
		q.Reuse = reuse
		n := reuse.Rows
		q.AlreadyTraced = &n
	}
	if c.Duplicates > 0 {
		with, without := est(c.Rows-n0, c.EntityRows-e0), est(c.RowsWithout-n1, c.EntityRowsWithout-e1)
		q.DuplicateSavings = with.Credits - without.Credits
		e.DuplicateRows, e.DuplicateSavings = c.Duplicates, q.DuplicateSavings
		if p.DropDuplicates {
			q.DroppedDuplicates = c.Duplicates
			e.DuplicateRows, e.DuplicateSavings = 0, 0
		}
	}
	q.Trace = &e
	label := "Individuals (normal rate)"
	if mode == jobs.ModeEnhanced {
		label = "Individuals (enhanced rate)"
	}
	q.Lines = append(q.Lines, CostLine{Label: label, Rows: e.Individuals.Rows, Rate: e.Individuals.Rate, Credits: e.Individuals.Credits})
	comp := CostLine{Label: "Companies / LLCs", Rows: e.Companies.Rows, Rate: e.Companies.Rate, Credits: e.Companies.Credits}
	switch {
	case !e.Companies.Billed:
		comp.Note = "skipped: not traced, not billed"
	case mode == jobs.ModeEnhanced:
		comp.Label = "Companies / LLCs (in the enhanced job)"
	default:
		comp.Label = "Companies / LLCs (llc rate)"
	}
	q.Lines = append(q.Lines, comp)
	return q
}

func priceDNC(c *Counts, p Plan, r Rates) Quote {
	scan := *c.Phones
	if p.LeaveOutInvalid {
		// Left out before paying: not charged, so not refunded either.
		scan.Rows -= scan.Invalid
		scan.Invalid, scan.Blank = 0, 0
	}
	dups := c.Duplicates
	if p.LeaveOutAbroad {
		// Left out before paying, before the duplicates are looked for:
		// their repeats are no duplicates of the upload.
		scan.Rows -= scan.Abroad
		scan.Valid -= scan.Abroad
		scan.Duplicates -= scan.AbroadRepeats
		dups -= scan.AbroadRepeats
	}
	if p.DropDuplicates {
		scan.Rows -= scan.Duplicates
		scan.Duplicates = 0
	}
	// Phones scrubbed within the window leave the upload with the
	// person's choice.
	reuse := c.reuse.reuseFor(p)
	dupSavings := int64(dups)
	if reuse != nil && reuse.Skipped {
		scan.Rows -= reuse.Rows
		scan.Valid -= reuse.Rows
		pd := p
		pd.DropDuplicates = !p.DropDuplicates
		other := c.reuse.reuseFor(pd)
		with, without := reuse.Rows, other.Rows
		if p.DropDuplicates {
			with, without = other.Rows, reuse.Rows
		}
		dupSavings = int64(dups - (with - without))
	}
	e := estimate.EstimateDNC(&scan, r.Pricing, r.Account)
	q := Quote{Kind: jobs.KindDNC, Rows: e.Rows, Credits: e.Credits, Duplicates: dups, DNC: &e, Phones: c.Phones,
		Payment: e.Payment, DuplicateSavings: dupSavings * e.Rate}
	if reuse != nil {
		reuse.Savings = int64(reuse.Rows) * e.Rate
		q.Reuse = reuse
		n := reuse.Rows
		q.ReusablePhones = &n
	}
	if p.DropDuplicates {
		q.DroppedDuplicates = dups
	}
	q.Lines = []CostLine{{Label: "Phones (dnc rate)", Rows: e.Rows, Rate: e.Rate, Credits: e.Credits}}
	return q
}

// Quote counts the plan's file and prices it at the current rates.
func (s *QuoteService) Quote(ctx context.Context, p Plan, ins *input.Inspection) (*Quote, error) {
	return s.quotes().QuoteCounted(ctx, p, ins, nil, nil)
}

// QuoteCounted is Quote with the counts made already (by Read); counts
// that do not fit p (nil, or made for another mapping) are made again.
// The rates are those asked for ahead (AskRates, while the list was read),
// or asked for now, while the list is counted.
func (s *QuoteService) QuoteCounted(ctx context.Context, p Plan, ins *input.Inspection, c *Counts, ahead *AskedRates) (*Quote, error) {
	if ahead == nil {
		ahead = s.AskRates(ctx)
	}
	var err error
	if !c.Fits(p) {
		c, err = s.quotes().Count(ctx, p, ins)
	}
	r, rerr := ahead.Rates()
	if err != nil {
		return nil, err
	}
	if rerr != nil {
		return nil, rerr
	}
	q := Price(c, p, r)
	return &q, nil
}

// AskedRates are the rates asked for ahead of a price (AskRates).
type AskedRates struct {
	done chan struct{}
	r    Rates
	err  error
}

// AskRates asks for the rates (Rates) on a goroutine of its own, so that
// they come while a list is read or counted; QuoteCounted takes them.
func (s *QuoteService) AskRates(ctx context.Context) *AskedRates {
	a := &AskedRates{done: make(chan struct{})}
	go func() {
		defer close(a.done)
		a.r, a.err = s.quotes().Rates(ctx)
	}()
	return a
}

// Rates waits for the rates asked for.
func (a *AskedRates) Rates() (Rates, error) {
	<-a.done
	return a.r, a.err
}
