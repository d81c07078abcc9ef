package wizard

import (
	"errors"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
)

// costLine is one billed tier of an estimate.
type costLine struct {
	Label   string
	Rows    int
	Rate    int64
	Credits int64
	Note    string // "not traced" and the like, when Credits is 0 on purpose
}

// cost is what the wizard shows of an estimate.
type cost struct {
	Lines     []costLine
	Total     int64
	Metered   bool
	Balance   int64 // prepaid credits (or metered unbilled usage)
	After     int64 // balance after the charge (or usage after)
	CanPay    bool
	Shortfall int64
	Reason    string // why the account cannot pay, in words
	Dropped   int    // duplicate rows dropped
	Saved     int64  // credits that dropping duplicates saves (or would save)
}

// traceCost prices a trace with the provider's billing rules (CONTRACT §3).
func traceCost(ins *input.Inspection, m mapping.Mapping, mode string, includeLLCs, dropDups bool, p *client.Pricing, a *client.Account) cost {
	rows, entities, dups := ins.Rows, ins.EntityRows, ins.DuplicateRows
	if len(m.NameColumns()) == 0 {
		entities = 0
	}
	var c cost
	billable := func(rows, entities int) (indiv, llc int) {
		indiv = rows - entities
		if includeLLCs {
			llc = entities
		}
		return
	}
	if dropDups {
		// Duplicates are assumed spread like the rest: counted as individuals.
		rows -= dups
		c.Dropped = dups
	}
	indiv, llc := billable(rows, entities)
	r := p.Rates
	rate := r.Normal
	label := "Individuals (normal)"
	if mode == mapping.ModeEnhanced {
		rate, label = r.Enhanced, "Individuals (enhanced)"
	}
	c.Lines = append(c.Lines, costLine{Label: label, Rows: indiv, Rate: rate, Credits: int64(indiv) * rate})
	switch {
	case !includeLLCs:
		c.Lines = append(c.Lines, costLine{Label: "Companies / LLCs", Rows: entities, Note: "skipped, not billed"})
	case mode == mapping.ModeEnhanced:
		c.Lines = append(c.Lines, costLine{Label: "Companies / LLCs (in the enhanced job)", Rows: llc, Rate: r.Enhanced, Credits: int64(llc) * r.Enhanced})
	default:
		c.Lines = append(c.Lines, costLine{Label: "Companies / LLCs (llc rate)", Rows: llc, Rate: r.LLC, Credits: int64(llc) * r.LLC})
	}
	for _, l := range c.Lines {
		c.Total += l.Credits
	}
	if dups > 0 {
		c.Saved = int64(dups) * rate
	}
	c.account(a)
	return c
}

// dncCost prices a DNC scrub: every data row at the dnc rate.
func dncCost(rows int, p *client.Pricing, a *client.Account) cost {
	c := cost{Lines: []costLine{{Label: "Phones", Rows: rows, Rate: p.Rates.DNC, Credits: int64(rows) * p.Rates.DNC}}}
	c.Total = c.Lines[0].Credits
	c.account(a)
	return c
}

// account fills what the account can pay.
func (c *cost) account(a *client.Account) {
	c.CanPay = true
	if a == nil {
		return
	}
	if a.BillingMode == client.BillingMetered && a.Metered != nil {
		c.Metered = true
		c.Balance = a.Metered.UnbilledUsage
		c.After = c.Balance + c.Total
		if a.Metered.PastDue {
			c.CanPay = false
			c.Reason = "The account's card payment is past due: submissions are refused until it is settled."
		}
		return
	}
	c.Balance = a.Credits
	c.After = a.Credits - c.Total
	if c.After < 0 {
		c.CanPay = false
		c.Shortfall = -c.After
		c.Reason = "Not enough credits."
	}
}

// isDuplicate reports whether a submission was refused as a repeat of a
// recent one (the backend's submit.ErrDuplicate).
func isDuplicate(err error) bool {
	var d interface{ Duplicate() bool }
	if errors.As(err, &d) {
		return d.Duplicate()
	}
	return errors.Is(err, errDuplicate)
}

// errDuplicate stands for the backend's duplicate error in tests.
var errDuplicate = errors.New("this file was submitted recently with the same mapping and options")
