package wizard

import (
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// repairControls offer to mend a trace's file before paying: ZIP codes
// Excel shortened, rows without an address, and (when no name is mapped)
// the full-name split or Enhanced mode. Each shows only when it applies;
// the ZIP codes and the rows without an address are on by default (they
// lose nothing), and the choice stays when a new mapping hides them.
type repairControls struct {
	box      *fyne.Container
	title    *widget.Label
	zipCheck *keys.Check
	zipNote  *widget.Label
	addr     *keys.Check
	names    *widget.Label
	split    *widget.Button
	enhanced *widget.Button
}

func (t *Trace) newRepairControls() *repairControls {
	r := &repairControls{title: widget.NewLabelWithStyle("Before paying", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})}
	r.zipCheck = toggle("", &t.padZips, t.repairsChanged)
	r.zipNote = wrapping("", widget.LowImportance)
	r.addr = toggle("", &t.leaveOutNoAddress, t.repairsChanged)
	r.names = wrapping("", widget.WarningImportance)
	r.split = widget.NewButton("", t.acceptSplits)
	r.enhanced = widget.NewButton("Use Enhanced mode (no names needed)", func() { t.modeRadio.SetSelected("Enhanced") })
	r.box = container.NewVBox(r.title, r.zipCheck, r.zipNote, r.addr, r.names, container.NewHBox(r.split, r.enhanced))
	r.box.Hide()
	return r
}

// repairsChanged: the rows left out change the counts and the price.
func (t *Trace) repairsChanged() {
	t.scheduleRecount()
	t.updateCost()
}

// showRepairs offers the repairs that apply to the file as mapped now.
func (t *Trace) showRepairs() {
	r := t.repairs
	o := workflow.Repairable(t.ins, t.plan())
	offered := false
	if o.ShortZips > 0 {
		setCheckText(r.zipCheck, fmt.Sprintf("Give %s back the leading zero Excel dropped", plural(o.ShortZips, "ZIP code", "ZIP codes")))
		r.zipNote.SetText(fmt.Sprintf("For example %q becomes %q. Without it these rows are searched in the wrong place.", o.ZipExample, o.ZipFixed))
		r.zipCheck.Show()
		r.zipNote.Show()
		offered = true
	} else {
		r.zipCheck.Hide()
		r.zipNote.Hide()
	}
	if o.NoAddress > 0 {
		setCheckText(r.addr, fmt.Sprintf("Leave out the %s with no street address in %q: they cannot be searched, so they are not charged",
			plural(o.NoAddress, "row", "rows"), o.StreetColumn))
		r.addr.Show()
		offered = true
	} else {
		r.addr.Hide()
	}
	if t.showNameHelp() {
		offered = true
	}
	r.box.Hidden = !offered
	r.box.Refresh()
}

// showNameHelp: when Normal mode lacks the owner's name, the ways out — a
// full-name column split into first and last names, or Enhanced mode,
// which searches by address alone.
func (t *Trace) showNameHelp() bool {
	r := t.repairs
	missing := slices.ContainsFunc(t.board.result.Errors(), func(p mapping.Problem) bool { return p.Code == mapping.CodeMissingNames })
	if !missing || t.mode == jobs.ModeEnhanced {
		r.names.Hide()
		r.split.Hide()
		r.enhanced.Hide()
		return false
	}
	msg := "No owner name is mapped: Normal mode needs one."
	r.split.Hide()
	if i := slices.IndexFunc(t.sug.Splits, func(sp mapping.Split) bool { return sp.Kind == mapping.SplitName }); i >= 0 && len(t.splits) == 0 {
		sp := t.sug.Splits[i]
		r.split.SetText(fmt.Sprintf("Split %q into first and last names", sp.Column))
		r.split.Show()
		msg = fmt.Sprintf("No owner name is mapped, but %q holds whole names", sp.Column)
		if sp.Example != "" {
			msg += fmt.Sprintf(" (%q)", sp.Example)
		}
		msg += ": split it, or search by address alone in Enhanced mode."
	} else {
		msg += " Map the owner's name columns, or search by address alone in Enhanced mode."
	}
	r.names.SetText(msg)
	r.names.Show()
	r.enhanced.Show()
	return true
}

// repairedLines say what the repairs do to the upload, for the cost
// section: the rows left out are not charged.
func repairedLines(u workflow.UploadInfo) []string {
	var out []string
	if u.LeftOutNoAddress > 0 {
		out = append(out, fmt.Sprintf("Left out: %s with no street address (not charged)", plural(u.LeftOutNoAddress, "row", "rows")))
	}
	if u.LeftOutInvalid > 0 {
		out = append(out, fmt.Sprintf("Left out: %s (not charged)", plural(u.LeftOutInvalid, "invalid number", "invalid numbers")))
	}
	if u.LeftOutAbroad > 0 {
		out = append(out, fmt.Sprintf("Left out: %s outside the US (not charged)", plural(u.LeftOutAbroad, "number", "numbers")))
	}
	if u.PaddedZips > 0 {
		// Of the rows sent: those left out are not counted again.
		out = append(out, fmt.Sprintf("ZIP codes repaired in the rows sent: %s", jobs.Thousands(int64(u.PaddedZips))))
	}
	return out
}
