package wizard

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// The offer not to pay twice: when the library holds earlier results of
// some rows (traced before; for a scrub, phones scrubbed in the last 31
// days), the review says so and what skipping them saves. It is on by
// default (results of the last 90 days for a trace); the person turns it
// off or chooses how old a reused result may be.

// reuseAges are the ages a reused trace result may have.
var reuseAges = []struct {
	label string
	age   time.Duration
}{
	{"any age", 0},
	{"the last year", 365 * 24 * time.Hour},
	{"the last 6 months", 182 * 24 * time.Hour},
	{"the last 90 days", 90 * 24 * time.Hour},
	{"the last 30 days", 30 * 24 * time.Hour},
}

// reuseControls are the offer's widgets.
type reuseControls struct {
	check *keys.Check
	age   *keys.Select
	note  *widget.Label
	box   *fyne.Container
}

// newReuseControls builds the offer (hidden until the library holds
// something of the list), on or off and with the age allowed as given.
// onChange runs with the choices.
func newReuseControls(kind jobs.Kind, on bool, within time.Duration, onChange func(on bool, within time.Duration)) *reuseControls {
	rc := &reuseControls{}
	rc.check = keys.NewCheck("", nil)
	rc.check.Checked = on
	rc.check.OnChanged = func(on bool) { onChange(on, within) }
	rc.note = wrapping("", widget.LowImportance)
	if kind == jobs.KindDNC {
		rc.box = container.NewVBox(rc.check, rc.note)
	} else {
		labels := make([]string, len(reuseAges))
		for i, a := range reuseAges {
			labels[i] = a.label
		}
		rc.age = keys.NewSelect(labels, nil)
		rc.age.SetSelectedIndex(0)
		for i, a := range reuseAges {
			if a.age == within {
				rc.age.SetSelectedIndex(i)
			}
		}
		rc.age.OnChanged = func(s string) {
			for _, a := range reuseAges {
				if a.label == s {
					within = a.age
				}
			}
			onChange(rc.check.Checked, within)
		}
		// The list as wide as its longest choice: "the last 90 days" is
		// read whole, not "the last 90 …".
		wide := float32(0)
		for _, l := range labels {
			wide = max(wide, fyne.MeasureText(l, theme.TextSize(), fyne.TextStyle{}).Width)
		}
		age := container.NewGridWrap(fyne.NewSize(wide+4*theme.Padding()+theme.IconInlineSize(), rc.age.MinSize().Height), rc.age)
		rc.box = container.NewVBox(rc.check, container.NewHBox(widget.NewLabel("Reuse results from"), age), rc.note)
	}
	rc.box.Hide()
	return rc
}

// show updates the offer from a quote (priced false: not known yet).
func (rc *reuseControls) show(q workflow.Quote, priced bool) {
	r := q.Reuse
	if !priced || r == nil || (r.Rows == 0 && r.Older == 0) {
		if rc.box.Visible() && (!priced || r == nil || r.Unavailable == "") {
			rc.box.Hide()
		}
		return
	}
	offer := r.Offer(q.Kind)
	if r.Skipped {
		skip := *r
		skip.Skipped = false
		offer = skip.Offer(q.Kind)
	}
	note := ""
	switch {
	case r.Rows == 0:
		offer = "Skip the rows traced before and reuse their results"
		note = fmt.Sprintf("%s traced before, longer ago than you allow: they are traced again.",
			jobs.Plural(int64(r.Older), "row was", "rows were"))
	case r.Older > 0:
		note = fmt.Sprintf("%s traced longer ago than you allow: traced again.", jobs.Plural(int64(r.Older), "more row was", "more rows were"))
	case q.Kind == jobs.KindDNC:
		note = "Phones scrubbed longer ago than 31 days are scrubbed again (the registry's rule)."
	default:
		note = "The result holds every row of your list in its order; each row says which job its data came from, and when."
	}
	if r.Rows == 0 {
		rc.check.Disable()
	} else {
		rc.check.Enable()
	}
	setCheckText(rc.check, offer)
	setText(rc.note, note)
	if !rc.box.Visible() {
		rc.box.Show()
	}
}

// costLine is the cost section's line for rows left out, "" when none.
func reuseCostLine(q workflow.Quote) string {
	r := q.Reuse
	if r == nil || !r.Skipped || r.Rows == 0 {
		return ""
	}
	what := "Traced before, reused"
	if q.Kind == jobs.KindDNC {
		what = "Scrubbed in the last 31 days, reused"
	}
	return fmt.Sprintf("%s: %s (saves %s)", what, jobs.Plural(int64(r.Rows), "row", "rows"), jobs.Credits(r.Savings))
}
