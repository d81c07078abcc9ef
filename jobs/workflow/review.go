package workflow

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// The review before paying: what a submission will send, what it leaves
// out and why, what the savings and repairs change and save, and what may
// be wrong with the values. The window's review step shows it, and every
// submission in the window passes through it; the command line prints it
// before sending (its JSON carries it). The savings and repairs that only
// save money and lose nothing are on unless the person turns them off
// (Plan.WithDefaults): the window and the command line start from the same
// choices.

// DefaultReuseWithin is how old an earlier trace's result may be to be
// reused by default; a scrub's answers are reused for 31 days at most
// whatever it says (the registry's rule).
const DefaultReuseWithin = 90 * 24 * time.Hour

// WithDefaults returns p with the savings and repairs that only save money
// and lose nothing turned on: the rows the library already holds reused (a
// trace's results of the last 90 days, a scrub's answers of the last 31),
// ZIP codes given back the zero Excel dropped, rows with no street address
// (which cannot be searched), invalid phones (which a scrub charges, then
// refunds) and numbers outside the US (which a US scrub charges for and
// cannot answer) left out before paying. Duplicates stay: dropping them
// changes the rows the result holds.
func (p Plan) WithDefaults() Plan {
	p.Reuse = true
	if p.Kind == jobs.KindDNC {
		p.LeaveOutInvalid, p.LeaveOutAbroad = true, true
		return p
	}
	if p.ReuseWithin == 0 {
		p.ReuseWithin = DefaultReuseWithin
	}
	p.PadZips, p.LeaveOutNoAddress = true, true
	return p
}

// The choices a review lists, by key: the command line names its flags
// after them, the window its check boxes.
const (
	ChoiceReuse             = "reuse"
	ChoiceDropDuplicates    = "drop_duplicates"
	ChoicePadZips           = "pad_zips"
	ChoiceLeaveOutNoAddress = "leave_out_no_address"
	ChoiceLeaveOutInvalid   = "leave_out_invalid"
	ChoiceLeaveOutAbroad    = "leave_out_abroad"
)

// Review is what a submission will do, set out before paying.
type Review struct {
	Kind jobs.Kind `json:"kind"`
	// File is the list as the person named it.
	File string `json:"file"`
	// Sent are the rows (a scrub: the phones) sent; Billed those charged
	// for, and Credits the charge up front with every choice as it stands.
	Sent    int        `json:"rows_sent"`
	Billed  int        `json:"rows_billed"`
	Credits int64      `json:"credits"`
	Lines   []CostLine `json:"lines"`
	// Refund is what comes back when a scrub completes (its invalid
	// numbers sent).
	Refund int64 `json:"refund,omitempty"`
	// LeftOut says what is not sent or not charged, and why.
	LeftOut []LeftOut `json:"left_out,omitempty"`
	// Savings and Repairs are the choices that apply to this list, each
	// with what it changes, and whether it is on.
	Savings []Choice `json:"savings,omitempty"`
	Repairs []Choice `json:"repairs,omitempty"`
	// Warnings are what may be wrong with the mapping and its values.
	Warnings []string `json:"warnings,omitempty"`
	// Balance and BalanceAfter are the account's credits (metered: its
	// unbilled usage) before and after; CanPay whether it can pay, and
	// Reason why not.
	Balance      int64  `json:"balance"`
	BalanceAfter int64  `json:"balance_after"`
	Metered      bool   `json:"metered,omitempty"`
	CanPay       bool   `json:"can_pay"`
	Reason       string `json:"cannot_pay,omitempty"`
	// Nothing says why nothing would be charged for: such a list is
	// refused before any charge (NothingBillableError). "" when something
	// is billed, or when every row is reused (no job is needed).
	Nothing string `json:"nothing_billable,omitempty"`
}

// LeftOut is a part of the list that is not sent or not charged.
type LeftOut struct {
	Rows int    `json:"rows"`
	Why  string `json:"why"`
}

// leaveOut lists rows of the list left out and why; a part with no rows
// is not listed.
func (r *Review) leaveOut(rows int, why string) {
	if rows > 0 {
		r.LeftOut = append(r.LeftOut, LeftOut{Rows: rows, Why: why})
	}
}

// Choice is a saving or a repair the review offers.
type Choice struct {
	Key string `json:"key"`
	On  bool   `json:"on"`
	// Default: on unless the person turns it off.
	Default bool `json:"default"`
	// Rows are the rows (phones, values) it concerns; Saves the credits it
	// saves when on (Upto: at most).
	Rows  int   `json:"rows"`
	Saves int64 `json:"saves_credits,omitempty"`
	Upto  bool  `json:"saves_at_most,omitempty"`
	// Label says what it does; Changes what it changes in the list or the
	// result.
	Label   string `json:"label"`
	Changes string `json:"changes"`
}

// Words is the choice in one line, as the review lists it: "On: reuse 131
// rows traced before — saves 115 credits. Their earlier results are
// merged…".
func (c Choice) Words() string {
	state := "Off"
	if c.On {
		state = "On"
	}
	s := state + ": " + c.Label
	if c.Saves > 0 {
		upto := ""
		if c.Upto {
			upto = "up to "
		}
		if c.On {
			s += " — saves " + upto + jobs.Credits(c.Saves)
		} else {
			s += " — would save " + upto + jobs.Credits(c.Saves)
		}
	}
	return s + ". " + c.Changes
}

// ReviewOf sets out the plan priced as q, with its mapping's problems v.
func ReviewOf(p Plan, q Quote, v mapping.Result) Review {
	r := Review{Kind: p.Kind, File: filepath.Base(p.Path), Sent: q.Rows, Credits: q.Credits, Lines: q.Lines}
	pay := q.Payment
	r.Balance, r.BalanceAfter, r.CanPay, r.Reason = pay.Balance, pay.BalanceAfter, pay.CanPay, pay.Blocker
	if pay.Metered != nil {
		r.Metered, r.Balance, r.BalanceAfter = true, pay.Metered.UnbilledUsage, pay.Metered.UsageAfter
	}
	if !pay.CanPay && pay.Shortfall > 0 {
		r.Reason = fmt.Sprintf("not enough credits: %s more are needed", jobs.Thousands(pay.Shortfall))
	}
	for _, w := range v.Warnings() {
		r.Warnings = append(r.Warnings, w.Message)
	}
	r.Savings = savingsOf(p, q)
	if p.Kind == jobs.KindDNC {
		reviewDNC(&r, p, q)
	} else {
		reviewTrace(&r, p, q)
	}
	r.Nothing = nothingBillable(p, q)
	return r
}

// savingsOf are the savings a list can have: the rows the library holds,
// the duplicates.
func savingsOf(p Plan, q Quote) []Choice {
	var out []Choice
	if u := q.Reuse; u != nil && u.Rows > 0 {
		c := Choice{Key: ChoiceReuse, On: p.Reuse, Default: true, Rows: u.Rows, Saves: u.Savings}
		if p.Kind == jobs.KindDNC {
			c.Label = "reuse the answers of " + jobs.Plural(int64(u.Rows), "phone", "phones") + " scrubbed in the last 31 days"
			c.Changes = "They are not sent; the result holds their earlier answers, each with its own date."
		} else {
			c.Label = "reuse " + jobs.Plural(int64(u.Rows), "row", "rows") + " traced before" + within(p.ReuseWithin)
			c.Changes = "They are not sent; the result holds every row of your list in its order, each saying which job its data came from, and when."
		}
		out = append(out, c)
	}
	if q.Duplicates > 0 {
		what := jobs.Plural(int64(q.Duplicates), "row that repeats an earlier row", "rows that repeat an earlier row")
		if p.Kind == jobs.KindDNC {
			what = jobs.Plural(int64(q.Duplicates), "number already in the list", "numbers already in the list")
		}
		out = append(out, Choice{Key: ChoiceDropDuplicates, On: p.DropDuplicates, Rows: q.Duplicates, Saves: q.DuplicateSavings,
			Label:   "leave out " + what,
			Changes: "The result then has one row for each; the repeats are not in it."})
	}
	return out
}

// within says how old a reused result may be: " (from the last 90 days)".
func within(d time.Duration) string {
	if d <= 0 {
		return " (of any age)"
	}
	return fmt.Sprintf(" (from the last %d days)", int(d.Hours()/24+0.5))
}

func reviewTrace(r *Review, p Plan, q Quote) {
	if e := q.Trace; e != nil {
		r.Billed = e.Individuals.Rows
		if e.Companies.Billed {
			r.Billed += e.Companies.Rows
		} else {
			r.leaveOut(e.SkippedRows, "company rows (LLCs, trusts, corporations): not traced and not charged, as \"Include LLCs and companies\" is off")
		}
	}
	if u := q.Reuse; u != nil && u.Skipped {
		r.leaveOut(u.Rows, "traced before: their earlier results are reused")
	}
	r.leaveOut(q.DroppedDuplicates, "duplicates of an earlier row")
	r.leaveOut(q.Upload.LeftOutNoAddress, "no street address: they cannot be searched")
	o := q.Repairs
	if o == nil {
		return
	}
	if o.ShortZips > 0 {
		r.Repairs = append(r.Repairs, Choice{Key: ChoicePadZips, On: p.PadZips, Default: true, Rows: o.ShortZips,
			Label:   "give " + jobs.Plural(int64(o.ShortZips), "ZIP code", "ZIP codes") + " back the leading zero Excel dropped",
			Changes: fmt.Sprintf("%q is sent as %q; without it these rows are searched in the wrong place.", o.ZipExample, o.ZipFixed)})
	}
	if o.NoAddress > 0 {
		c := Choice{Key: ChoiceLeaveOutNoAddress, On: p.LeaveOutNoAddress, Default: true, Rows: o.NoAddress, Upto: true,
			Label:   "leave out " + jobs.Plural(int64(o.NoAddress), "row", "rows") + " with no street address in " + fmt.Sprintf("%q", o.StreetColumn),
			Changes: "They cannot be searched, so they are not sent and not charged; the result does not hold them."}
		if e := q.Trace; e != nil {
			c.Saves = int64(o.NoAddress) * max(e.Individuals.Rate, e.Companies.Rate)
		}
		r.Repairs = append(r.Repairs, c)
	}
}

func reviewDNC(r *Review, p Plan, q Quote) {
	if e := q.DNC; e != nil {
		r.Billed = e.Rows - e.InvalidRows
		r.Refund = e.Refund
		if e.InvalidRows > 0 {
			r.Warnings = append(r.Warnings, jobs.Plural(int64(e.InvalidRows), "invalid number is", "invalid numbers are")+
				" sent: charged now, refunded when the job completes, and not scrubbed.")
		}
	}
	if u := q.Reuse; u != nil && u.Skipped {
		r.leaveOut(u.Rows, "scrubbed in the last 31 days: their answers are reused")
	}
	r.leaveOut(p.Flagged, "numbers the trace's result already puts on a do-not-call or litigator list, or says not to call: no scrub makes them callable")
	r.leaveOut(p.Abroad, abroadLeftOut)
	r.leaveOut(q.DroppedDuplicates, "numbers already in the list")
	r.leaveOut(q.Upload.LeftOutInvalid, "invalid numbers: not sent, not charged")
	r.leaveOut(q.Upload.LeftOutAbroad, abroadLeftOut)
	if ph := q.Phones; ph != nil && ph.Invalid > 0 {
		c := Choice{Key: ChoiceLeaveOutInvalid, On: p.LeaveOutInvalid, Default: true, Rows: ph.Invalid,
			Label:   "leave out " + jobs.Plural(int64(ph.Invalid), "invalid number", "invalid numbers"),
			Changes: "They are not sent: not charged now, rather than charged and refunded when the job completes; the result does not hold them."}
		if e := q.DNC; e != nil {
			c.Saves = int64(ph.Invalid) * e.Rate
		}
		r.Repairs = append(r.Repairs, c)
	}
	if ph := q.Phones; ph != nil && ph.Abroad > 0 {
		c := Choice{Key: ChoiceLeaveOutAbroad, On: p.LeaveOutAbroad, Default: true, Rows: ph.Abroad,
			Label: "leave out " + jobs.Plural(int64(ph.Abroad), "number", "numbers") + " outside the US",
			Changes: "They are not sent, so not charged: the US registry and litigator list do not answer for Canada or the Caribbean, " +
				"whose own lists nothing here checks, and SkipDesk never counts such a number callable; the result does not hold them."}
		if e := q.DNC; e != nil {
			c.Saves = int64(ph.Abroad-abroadDropped(p, ph)) * e.Rate
		}
		r.Repairs = append(r.Repairs, c)
	}
}

// abroadLeftOut is what the review says of the numbers outside the US left
// out of a scrub: those of a trace's phones, and those of a list.
const abroadLeftOut = "numbers outside the US (Canada, the Caribbean): a US scrub does not make them callable"

// abroadDropped are the rows of numbers outside the US that the plan
// leaves out as repeats already (dropping duplicates): leaving them out
// again saves nothing.
func abroadDropped(p Plan, ph *phone.Scan) int {
	if p.DropDuplicates {
		return ph.AbroadRepeats
	}
	return 0
}

// nothingBillable says why the plan priced as q would charge for nothing
// ("" when something is billed, or when every row is reused and no job is
// needed).
func nothingBillable(p Plan, q Quote) string {
	if u := q.Reuse; u != nil && u.Skipped && u.Rows > 0 && q.Rows == 0 {
		return "" // every row reused: nothing is sent, the result is merged
	}
	switch {
	case p.Kind == jobs.KindDNC && q.DNC != nil && q.DNC.Rows-q.DNC.InvalidRows <= 0:
		if q.DNC.Rows == 0 {
			return "no phone number is left to scrub"
		}
		return "none of its phone numbers is a valid US number: each would be charged, then refunded"
	case p.Kind != jobs.KindDNC && q.Trace != nil:
		e := q.Trace
		billed := e.Individuals.Rows
		if e.Companies.Billed {
			billed += e.Companies.Rows
		}
		if billed > 0 {
			return ""
		}
		if e.SkippedRows > 0 {
			return "every row left is a company's, and companies are not traced (turn on \"Include LLCs and companies\" to trace them)"
		}
		return "no row is left to trace"
	}
	return ""
}

// Sentences are the review in a few lines of words: what is sent and
// charged, what is left out and why, each saving and repair with what it
// changes, the warnings.
func (r Review) Sentences() []string { return r.SentencesWith(nil) }

// SentencesWith is Sentences with hint(c) added to each choice's line (the
// command line names the flag that turns it off).
func (r Review) SentencesWith(hint func(Choice) string) []string {
	what := jobs.Plural(int64(r.Sent), "row", "rows")
	if r.Kind == jobs.KindDNC {
		what = jobs.Plural(int64(r.Sent), "phone", "phones")
	}
	out := []string{fmt.Sprintf("%s: %s sent, %s charged up front.", r.File, what, jobs.Credits(r.Credits))}
	if r.Refund > 0 {
		out = append(out, fmt.Sprintf("%s come back when the job completes (invalid numbers).", jobs.Credits(r.Refund)))
	}
	for _, l := range r.LeftOut {
		out = append(out, fmt.Sprintf("Left out: %s — %s.", jobs.Plural(int64(l.Rows), "row", "rows"), l.Why))
	}
	for _, c := range append(append([]Choice(nil), r.Savings...), r.Repairs...) {
		s := c.Words()
		if hint != nil {
			s += hint(c)
		}
		out = append(out, s)
	}
	for _, w := range r.Warnings {
		out = append(out, "Check: "+w)
	}
	if r.Nothing != "" {
		out = append(out, "Nothing to charge for: "+r.Nothing+". It is not sent.")
	}
	return out
}

// Applied are the savings and repairs that are on, in words, for the pay
// question: "131 rows traced before reused (saves 115 credits)".
func (r Review) Applied() []string {
	var out []string
	for _, c := range append(append([]Choice(nil), r.Savings...), r.Repairs...) {
		if !c.On {
			continue
		}
		s := strings.ToUpper(c.Label[:1]) + c.Label[1:]
		if c.Saves > 0 {
			upto := ""
			if c.Upto {
				upto = "up to "
			}
			s += " (saves " + upto + jobs.Credits(c.Saves) + ")"
		}
		out = append(out, s)
	}
	return out
}

// NothingBillableError: the list would be charged for nothing (every row a
// company's with companies not traced, every phone invalid, no row left):
// refused before anything is sent or charged.
type NothingBillableError struct {
	Kind jobs.Kind
	File string
	Why  string
}

func (e *NothingBillableError) Error() string {
	return fmt.Sprintf("%s: nothing to charge for: %s; nothing was sent and nothing was charged", e.File, e.Why)
}

// ErrNothingBillable matches every *NothingBillableError (errors.Is).
var ErrNothingBillable = errors.New("nothing billable")

// Is makes errors.Is(err, ErrNothingBillable) hold.
func (e *NothingBillableError) Is(target error) bool { return target == ErrNothingBillable }
