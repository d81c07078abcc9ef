// Package estimate prices a submission before it is sent, with the
// provider's billing rules (CONTRACT §3, §5, §6): billable rows per tier,
// the rate of each, the total charged up front, what the account has left
// afterwards and whether it can pay at all.
//
// Company rows depend on which columns are mapped to first_name and
// last_name (CONTRACT §2), so the trace estimate needs an Inspection made with
// those columns as NameColumns: Options gives the input options for a mapping
// and Reinspect re-reads a file when the name mapping changes. Result.Stale
// says when the inspection given does not fit the mapping.
package estimate

import (
	"context"
	"fmt"
	"slices"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/prepare"
)

// Tier is one billing tier of a trace.
type Tier struct {
	Rows    int    `json:"rows"`
	Rate    int64  `json:"rate"`    // credits per row; 0 when not billed
	Credits int64  `json:"credits"` // Rows × Rate
	Billed  bool   `json:"billed"`  // false: the rows are skipped, neither traced nor billed
	Note    string `json:"note"`    // how the tier is billed, in words
}

// Result is the estimate of a bulk trace.
type Result struct {
	Mode        jobs.Mode `json:"mode"`
	IncludeLLCs bool      `json:"include_llcs"`
	// TotalRows and EntityRows are what the provider will report as
	// total_rows and entity_rows.
	TotalRows  int `json:"total_rows"`
	EntityRows int `json:"entity_rows"`
	// Individuals and Companies are the two tiers (the provider's
	// breakdown.individuals and breakdown.llcs).
	Individuals Tier `json:"individuals"`
	Companies   Tier `json:"companies"`
	// SkippedRows are company rows that will not be traced (include_llcs
	// false): result match_status "skipped", not billed.
	SkippedRows int `json:"skipped_rows"`
	// Credits is the charge up front: the cost the provider will answer.
	Credits int64 `json:"credits"`
	// DuplicateRows repeat an earlier row's mapped values; the provider
	// bills them again. DuplicateSavings is what dropping them would save,
	// approximately: the inspection does not say how many duplicates are
	// company rows, so they are assumed to be spread like all rows. The
	// exact figure is the estimate of the prepared file (prepare with
	// DropDuplicates, then inspect the upload).
	DuplicateRows    int   `json:"duplicate_rows"`
	DuplicateSavings int64 `json:"duplicate_savings"`
	Payment
	// Stale is set when the inspection was not made for this mapping's
	// name columns, so EntityRows may be wrong: call Reinspect.
	Stale bool `json:"stale,omitempty"`
}

// Payment is whether and how the account pays a charge.
type Payment struct {
	BillingMode string `json:"billing_mode"`
	// Balance and BalanceAfter are the prepaid credits before and after the
	// charge (metered accounts keep their credits).
	Balance      int64 `json:"balance"`
	BalanceAfter int64 `json:"balance_after"`
	// CanPay: the provider will accept the charge (prepaid: enough
	// credits; metered: not past due). Shortfall is the prepaid credits
	// missing. Blocker says why not, in words.
	CanPay    bool   `json:"can_pay"`
	Shortfall int64  `json:"shortfall,omitempty"`
	Blocker   string `json:"blocker,omitempty"`
	// Metered shows usage against the card threshold; nil for prepaid.
	Metered *MeteredOutlook `json:"metered,omitempty"`
	// Plan shows the subscription's credits after the charge; nil without one.
	Plan *PlanOutlook `json:"plan,omitempty"`
	// Warnings are things to know that do not block the charge.
	Warnings []string `json:"warnings,omitempty"`
}

// MeteredOutlook is a metered account's usage before and after the charge.
type MeteredOutlook struct {
	Threshold     int64  `json:"threshold"`
	UnbilledUsage int64  `json:"unbilled_usage"`
	UsageAfter    int64  `json:"usage_after"`
	ChargesCard   bool   `json:"charges_card"` // the usage reaches the threshold: the card is charged
	CardLast4     string `json:"card_last4,omitempty"`
	PastDue       bool   `json:"past_due"`
}

// PlanOutlook is the subscription's use of its credits after the charge.
type PlanOutlook struct {
	PlanName     string `json:"plan_name"`
	CreditsLimit int64  `json:"credits_limit"`
	CreditsUsed  int64  `json:"credits_used"`
	UsedAfter    int64  `json:"used_after"`
	OverLimit    bool   `json:"over_limit"`
}

// Estimate prices a bulk trace of the inspected file with mapping m
// (CONTRACT §3):
//
//	normal,   include_llcs=false: individuals × normal; companies skipped
//	normal,   include_llcs=true:  individuals × normal + companies × llc
//	enhanced, include_llcs=false: individuals × enhanced; companies skipped
//	enhanced, include_llcs=true:  every row × enhanced (folded into the main job)
//
// Company rows are those whose mapped name columns hold an entity token;
// with no name column mapped there are none. ins must have been made with
// the mapping's name columns (Options, Reinspect); otherwise Stale is set.
// splits are the accepted splits when m names their derived columns and
// ins is of the original file (see Options).
// A nil pricing prices at 0 with a warning; a nil account cannot pay.
func Estimate(ins *input.Inspection, m mapping.Mapping, mode jobs.Mode, includeLLCs bool, pricing *client.Pricing, account *client.Account, splits ...mapping.Split) Result {
	if mode == "" {
		mode = jobs.ModeNormal
	}
	r := Result{Mode: mode, IncludeLLCs: includeLLCs}
	var rates client.Rates
	if pricing != nil {
		rates = pricing.Rates
	}
	if ins != nil {
		r.TotalRows = ins.Rows
		r.DuplicateRows = ins.DuplicateRows
		if len(m.NameColumns()) > 0 {
			r.EntityRows = ins.EntityRows
		}
		r.Stale = !Fits(ins, m, splits...)
	}
	indRate := rates.Normal
	if mode == jobs.ModeEnhanced {
		indRate = rates.Enhanced
	}
	r.Individuals = Tier{Rows: r.TotalRows - r.EntityRows, Rate: indRate, Billed: true,
		Note: fmt.Sprintf("individuals at the %s rate", mode)}
	r.Companies = Tier{Rows: r.EntityRows}
	switch {
	case !includeLLCs:
		r.SkippedRows = r.EntityRows
		r.Companies.Note = "companies skipped: not traced, not billed (include LLCs to trace them)"
	case mode == jobs.ModeEnhanced:
		r.Companies.Rate, r.Companies.Billed = rates.Enhanced, true
		r.Companies.Note = "companies folded into the enhanced job, at the enhanced rate"
	default:
		r.Companies.Rate, r.Companies.Billed = rates.LLC, true
		r.Companies.Note = "companies as a parallel job at the LLC rate"
	}
	r.Individuals.Credits = int64(r.Individuals.Rows) * r.Individuals.Rate
	r.Companies.Credits = int64(r.Companies.Rows) * r.Companies.Rate
	r.Credits = r.Individuals.Credits + r.Companies.Credits
	r.DuplicateSavings = duplicateSavings(r)
	r.Payment = pay(r.Credits, account)
	if pricing == nil {
		r.Warnings = append(r.Warnings, "pricing not loaded: the rates are unknown")
	}
	if r.Stale {
		r.Warnings = append(r.Warnings, "the company-row count was made for other name columns: inspect the file again")
	}
	if mode != jobs.ModeNormal && mode != jobs.ModeEnhanced {
		r.Warnings = append(r.Warnings, fmt.Sprintf("mode %q is not one the provider knows", mode))
	}
	return r
}

func duplicateSavings(r Result) int64 {
	if r.DuplicateRows <= 0 || r.TotalRows <= 0 {
		return 0
	}
	// Credits per row on average, times the duplicates, rounded to nearest.
	return min((r.Credits*int64(r.DuplicateRows)+int64(r.TotalRows)/2)/int64(r.TotalRows), r.Credits)
}

// DNCResult is the estimate of a DNC scrub.
type DNCResult struct {
	Rows    int   `json:"rows"`
	Rate    int64 `json:"rate"`
	Credits int64 `json:"credits"` // Rows × Rate, charged up front
	// InvalidRows (blank or not a 10-digit NANP number) are charged, then
	// refunded when the job completes: Refund. NetCredits is what stays
	// charged.
	InvalidRows int   `json:"invalid_rows"`
	Refund      int64 `json:"refund"`
	NetCredits  int64 `json:"net_credits"`
	// DuplicateRows repeat a number already in the file; each is billed.
	DuplicateRows    int   `json:"duplicate_rows"`
	DuplicateSavings int64 `json:"duplicate_savings"`
	Payment
}

// EstimateDNC prices a DNC scrub of the scanned phone column (CONTRACT §5):
// every data row at the dnc rate up front, invalid ones refunded afterwards.
func EstimateDNC(scan *phone.Scan, pricing *client.Pricing, account *client.Account) DNCResult {
	var r DNCResult
	if pricing != nil {
		r.Rate = pricing.Rates.DNC
	}
	if scan != nil {
		r.Rows, r.InvalidRows, r.DuplicateRows = scan.Rows, scan.Invalid, scan.Duplicates
	}
	r.Credits = int64(r.Rows) * r.Rate
	r.Refund = int64(r.InvalidRows) * r.Rate
	r.NetCredits = r.Credits - r.Refund
	r.DuplicateSavings = int64(r.DuplicateRows) * r.Rate
	r.Payment = pay(r.Credits, account)
	if pricing == nil {
		r.Warnings = append(r.Warnings, "pricing not loaded: the rates are unknown")
	}
	return r
}

// pay decides whether the account can take a charge (CONTRACT §6).
func pay(cost int64, a *client.Account) Payment {
	if a == nil {
		return Payment{Blocker: "account not loaded"}
	}
	p := Payment{BillingMode: a.BillingMode, Balance: a.Credits, BalanceAfter: a.Credits}
	switch a.BillingMode {
	case client.BillingMetered:
		mo := &MeteredOutlook{}
		if a.Metered != nil {
			mo = &MeteredOutlook{Threshold: a.Metered.Threshold, UnbilledUsage: a.Metered.UnbilledUsage,
				CardLast4: a.Metered.CardLast4, PastDue: a.Metered.PastDue}
		}
		mo.UsageAfter = mo.UnbilledUsage + cost
		mo.ChargesCard = mo.Threshold > 0 && mo.UsageAfter >= mo.Threshold
		p.Metered = mo
		p.CanPay = !mo.PastDue
		if mo.PastDue {
			p.Blocker = "the metered account is past due: the provider refuses every charged submission until the card on file is paid"
		} else if mo.ChargesCard {
			card := "the card on file"
			if mo.CardLast4 != "" {
				card = "the card ending " + mo.CardLast4
			}
			p.Warnings = append(p.Warnings, fmt.Sprintf("usage reaches the %d-credit threshold: %s will be charged", mo.Threshold, card))
		}
	default:
		if a.BillingMode != client.BillingPrepaid {
			p.Warnings = append(p.Warnings, fmt.Sprintf("billing mode %q unknown: checked as prepaid", a.BillingMode))
		}
		p.BalanceAfter = a.Credits - cost
		p.CanPay = a.Credits >= cost
		if !p.CanPay {
			p.Shortfall = cost - a.Credits
			p.Blocker = fmt.Sprintf("not enough credits: %d needed, %d available (%d short)", cost, a.Credits, p.Shortfall)
		}
	}
	if s := a.Subscription; s != nil {
		p.Plan = &PlanOutlook{PlanName: s.PlanName, CreditsLimit: s.CreditsLimit, CreditsUsed: s.CreditsUsed, UsedAfter: s.CreditsUsed + cost}
		p.Plan.OverLimit = s.CreditsLimit > 0 && p.Plan.UsedAfter > s.CreditsLimit
		if p.Plan.OverLimit {
			p.Warnings = append(p.Warnings, fmt.Sprintf("the %s plan's %d credits for the period would be exceeded (%d used after this job)", s.PlanName, s.CreditsLimit, p.Plan.UsedAfter))
		}
	}
	return p
}

// Options returns the input options that make an inspection fit mapping m:
// company rows decided by the mapped name columns (none when no name is
// mapped) and duplicates keyed on the mapped columns (what the provider
// looks up; all columns when nothing is mapped).
//
// With accepted splits, m may name derived columns that the file does not
// have yet: a name split's source column then stands for first_name and
// last_name (a full name holds a company token exactly when its split
// parts do, since a company name is kept whole), and split source columns
// join the duplicate key, as prepare.DefaultKeyColumns does. The estimate
// of the original file is then that of the prepared upload.
func Options(base input.Options, m mapping.Mapping, splits ...mapping.Split) input.Options {
	o := base
	o.NameColumns = nameColumns(m, splits)
	o.KeyColumns = nil
	for _, h := range m.Clean().Columns() {
		if !derived(h, m, splits) {
			o.KeyColumns = append(o.KeyColumns, h)
		}
	}
	for _, sp := range splits {
		if !slices.Contains(o.KeyColumns, sp.Column) {
			o.KeyColumns = append(o.KeyColumns, sp.Column)
		}
	}
	return o
}

// nameColumns are the columns deciding company rows: never nil, empty
// when no name is mapped.
func nameColumns(m mapping.Mapping, splits []mapping.Split) []string {
	out := []string{}
	for _, k := range []string{mapping.FirstName, mapping.LastName} {
		h := m[k]
		if h == "" {
			continue
		}
		for _, sp := range splits {
			if sp.Kind == mapping.SplitName && slices.Contains(sp.Keys, k) {
				h = sp.Column
			}
		}
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// derived reports whether header h of m is a column a split derives.
func derived(h string, m mapping.Mapping, splits []mapping.Split) bool {
	for _, sp := range splits {
		for _, k := range sp.Keys {
			if m[k] == h {
				return true
			}
		}
	}
	return false
}

// Fits reports whether ins was made with the name columns of m (and its
// splits).
func Fits(ins *input.Inspection, m mapping.Mapping, splits ...mapping.Split) bool {
	want := nameColumns(m, splits)
	if len(want) == 0 {
		return true // no company rows whatever the inspection counted
	}
	have := slices.Clone(ins.NameColumns)
	slices.Sort(have)
	slices.Sort(want)
	return slices.Equal(slices.Compact(have), slices.Compact(want))
}

// WithCounts returns a copy of ins that describes the upload prepare.Count
// found (rows and company rows after dropped duplicates and splits). Pass
// it to Estimate with counts.Mapping, the mapping that will be sent: the
// estimate is then exactly the provider's cost for the prepared upload,
// without writing it.
func WithCounts(ins *input.Inspection, c *prepare.Counts) *input.Inspection {
	cp := *ins
	cp.Rows, cp.EntityRows = c.Rows, c.EntityRows
	cp.NameColumns = append([]string{}, c.NameColumns...)
	if c.DroppedDuplicates > 0 {
		cp.DuplicateRows = 0
	}
	return &cp
}

// Reinspect reads the inspected file again with the options mapping m (and
// its accepted splits) implies, with the same header line and sheet. Call
// it when the columns mapped to first_name/last_name (or the mapped
// columns, for duplicates) change.
func Reinspect(ctx context.Context, ins *input.Inspection, m mapping.Mapping, splits ...mapping.Split) (*input.Inspection, error) {
	o := Options(input.Options{HeaderLine: ins.HeaderLine, Sheet: ins.Sheet, SampleRows: len(ins.Sample)}, m, splits...)
	if o.SampleRows == 0 {
		o.SampleRows = -1
	}
	return input.Inspect(ctx, ins.Path, o)
}
