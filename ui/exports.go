package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/dialer"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// exports is the export flow the jobs list and the viewers share: where to
// save (asked before anything is written), the callable list's choices,
// the open questions and the stale scrub that hold a callable list back,
// and the message that says where it was saved. It keeps the state of the
// dialogs it shows while they show.
type exports struct {
	sh      *shell
	presets PresetsBackend
	stale   StaleScrubs
	// newDNC opens the DNC scrub of a phone list (a stale scrub's numbers).
	newDNC func(path string)

	// saved is the file the "Saved" message names while it shows;
	// saving is true while the save dialog asks where to save.
	saved  string
	saving bool
	// callableAsk is the callable list's choices while they show;
	// rescrubBtn the stale scrub's "Scrub these numbers again".
	callableAsk *dialog.ConfirmDialog
	rescrubBtn  *widget.Button
	// callableLayouts and callableWhen are the choices of columns and of
	// calling time while callableAsk shows.
	callableLayouts *presetChoice
	callableWhen    *timeChoice
}

// ended ends an export to dest: a callable list held back by open
// questions offers to check the columns (check) or to make it without
// those phones; one resting on a stale scrub offers a scrub of just those
// numbers (rescrub, nil: the DNC scrub of the list) or to make it without
// them; again writes it once more with the choices amended. Anything else
// says how the export ended.
func (ex *exports) ended(dest string, rep *workflow.ExportReport, err error, choices *workflow.CallableChoices,
	check func(), rescrub func(path string), again func(workflow.CallableChoices)) {
	if err != nil {
		dropEmpty(dest)
	}
	amended := func(f func(*workflow.CallableChoices)) func() {
		return func() {
			c := workflow.CallableChoices{}
			if choices != nil {
				c = *choices
			}
			f(&c)
			again(c)
		}
	}
	if rescrub == nil {
		rescrub = ex.newDNC
	}
	var stale *workflow.StaleError
	var open *workflow.QuestionError
	switch {
	case errors.As(err, &open):
		ex.offerQuestions(open, check, amended(func(c *workflow.CallableChoices) { c.LeaveOutUnsure = true }))
	case errors.As(err, &stale):
		ex.offerStale(stale, rescrub, amended(func(c *workflow.CallableChoices) { c.LeaveOutStale = true }))
	default:
		ex.showExported(dest, rep, err)
	}
}

// askSavePath asks where to save a file before anything is written: the
// save dialog opens in the export folder with name, made free ("name
// (2).xlsx") when a file of that name is there. Picking a file that exists
// asks before replacing it. then runs with the chosen path (UI thread);
// nothing runs when the person cancels.
func (ex *exports) askSavePath(name string, then func(path string)) {
	dir := ex.outputDir()
	_ = os.MkdirAll(dir, 0o755) // the dialog opens on it; a failure shows when writing
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) { ex.savePicked(w, err, then) }, ex.sh.win)
	d.SetFileName(filepath.Base(workflow.FreePath(filepath.Join(dir, name))))
	if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
		d.SetLocation(l)
	}
	d.SetConfirmText("Save")
	d.SetOnClosed(func() { ex.saving = false })
	d.Resize(fyne.NewSize(800, 560))
	ex.saving = true
	d.Show()
	ex.sh.fire("save-as")
}

// savePicked is the save dialog's answer. The dialog has already asked
// before replacing a file and opened it for writing; the export writes the
// file itself (through a temporary file), so the writer is only closed.
func (ex *exports) savePicked(w fyne.URIWriteCloser, err error, then func(path string)) {
	if err != nil {
		ex.sh.showError(err)
		return
	}
	if w == nil {
		return // cancelled
	}
	path := w.URI().Path()
	w.Close()
	then(path)
}

// askCallableChoices asks how the callable list of name is to be made,
// then calls then with the choices (UI thread). now says the list is of a
// "Callable now" view: its calling time is "right now" unless changed.
func (ex *exports) askCallableChoices(name string, now bool, then func(workflow.CallableChoices)) {
	mobiles := widget.NewCheck("Leave out mobiles and phones of unknown type (for calls placed by an autodialer)", nil)
	litigators := widget.NewCheck("Keep litigators who are on no DNC list", nil)
	unknown := widget.NewCheck("Keep phones whose DNC or litigator answer is not known", nil)
	warn := widget.NewLabel("")
	warn.Importance = widget.DangerImportance
	warn.Wrapping = fyne.TextWrapWord
	update := func(bool) {
		var w []string
		if litigators.Checked {
			w = append(w, "Litigators sue over calls: a list with them is at your own risk.")
		}
		if unknown.Checked {
			w = append(w, "A phone whose answer is not known may be on the registry: calling it can cost $500 to $1,500 a call.")
		}
		warn.SetText(strings.Join(w, "\n"))
		if len(w) == 0 {
			warn.Hide() // no empty line before the choices below
		} else {
			warn.Show()
		}
	}
	update(false)
	litigators.OnChanged, unknown.OnChanged = update, update
	intro := widget.NewLabel("The callable list leaves out every phone on the Do-Not-Call registry or a state list, on your own " +
		"do-not-call list, and every invalid number. Each phone carries its time zone and calling window. " +
		"A proof of scrub (PDF) is saved beside it.")
	intro.Wrapping = fyne.TextWrapWord
	layouts := ex.presetChoice()
	when := ex.timeChoice()
	if now {
		when.sel.SetSelected(rightNow)
	}
	calls := ex.callLogChoice()
	body := container.NewVBox(intro, mobiles, litigators, unknown, warn,
		container.NewBorder(nil, nil, widget.NewLabel("Columns for"), nil, layouts.sel),
		container.NewBorder(nil, nil, widget.NewLabel("Calling time"), nil, when.sel), when.at,
		container.NewBorder(nil, nil, container.NewVBox(calls.pick), nil, calls.name))
	d := dialog.NewCustomConfirm("Callable list of "+name, "Export", "Cancel", body, func(ok bool) {
		if !ok {
			return
		}
		at, err := when.instant(ex.sh.now())
		if err != nil {
			ex.sh.showError(err)
			return
		}
		then(workflow.CallableChoices{LeaveOutMobiles: mobiles.Checked, KeepLitigators: litigators.Checked, KeepUnknown: unknown.Checked,
			Preset: layouts.chosen(), CallableAt: at, CallLog: calls.path})
	}, ex.sh.win)
	d.SetOnClosed(func() { ex.callableAsk, ex.callableLayouts, ex.callableWhen = nil, nil, nil })
	keys.Track(ex.sh.win, d, d.Confirm, nil) // Enter exports, Escape closes
	ex.callableAsk, ex.callableLayouts, ex.callableWhen = d, layouts, when
	d.Resize(fyne.NewSize(560, 0))
	d.Show()
	ex.sh.fire("callable-choices")
}

// timeChoice is the choice of the instant a callable list is judged at
// (CallableChoices.CallableAt): none (every phone kept, each with its
// calling hours), now, or a time the person writes in this computer's
// time.
type timeChoice struct {
	sel *widget.Select
	at  *widget.Entry
}

// The calling-time choices.
const (
	anyTime  = "every callable phone, each with its calling hours"
	rightNow = "only the phones that may be called right now"
	atTime   = "only the phones that may be called at…"
)

// atLayout is how the person writes the instant, in this computer's time.
const atLayout = "2006-01-02 15:04"

func (ex *exports) timeChoice() *timeChoice {
	c := &timeChoice{at: widget.NewEntry()}
	c.at.SetPlaceHolder("the day and time, " + atLayout + " (this computer's time)")
	c.at.Validator = func(s string) error {
		_, err := parseAt(s)
		return err
	}
	c.at.Hide()
	c.sel = widget.NewSelect([]string{anyTime, rightNow, atTime}, func(s string) {
		if s == atTime {
			c.at.Show()
		} else {
			c.at.Hide()
		}
	})
	c.sel.SetSelected(anyTime)
	return c
}

// parseAt reads the instant the person wrote.
func parseAt(s string) (time.Time, error) {
	t, err := time.ParseInLocation(atLayout, strings.TrimSpace(s), time.Local)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q is not a day and time like %s", s, time.Date(2026, 11, 24, 15, 0, 0, 0, time.Local).Format(atLayout))
	}
	return t, nil
}

// instant is the chosen instant (zero: none), now the window's minute.
func (c *timeChoice) instant(now time.Time) (time.Time, error) {
	switch c.sel.Selected {
	case rightNow:
		return now, nil
	case atTime:
		return parseAt(c.at.Text)
	}
	return time.Time{}, nil
}

// callLogChoice is a dialer's call log chosen for the cap of calls in 24
// hours (CallableChoices.CallLog).
type callLogChoice struct {
	pick *widget.Button
	name *widget.Label
	path string
}

func (ex *exports) callLogChoice() *callLogChoice {
	c := &callLogChoice{name: widget.NewLabel("No call log: no number is left out for the calls it already had")}
	c.name.Wrapping = fyne.TextWrapWord
	c.pick = widget.NewButtonWithIcon("Call log…", theme.FolderOpenIcon(), func() {
		ex.sh.pickFile([]string{".csv", ".txt", ".xlsx"}, func(path string) {
			c.path = path
			c.name.SetText(filepath.Base(path) + ": a number called as often as its state allows in the last 24 hours (FL, OK, MD: 3) is left out")
		})
	})
	return c
}

// presetChoice is the choice of the columns a callable list is written
// in: the result's own, or a dialer's or CRM's (the presets are read off
// the UI thread and filled in when they come).
type presetChoice struct {
	sel     *widget.Select
	presets []*dialer.Preset
}

// ownColumns is the choice of the result's own columns.
const ownColumns = "the result's own columns"

func (ex *exports) presetChoice() *presetChoice {
	c := &presetChoice{sel: widget.NewSelect([]string{ownColumns}, nil)}
	c.sel.SetSelected(ownColumns)
	ex.sh.spawn(func() {
		ps, _, err := ex.presets.DialerPresets()
		if err != nil {
			return // the result's own columns still export
		}
		ex.sh.do(func() {
			c.presets = ps
			for _, p := range ps {
				c.sel.Options = append(c.sel.Options, p.Name)
			}
			c.sel.Refresh()
			ex.sh.fire("callable-presets")
		})
	})
	return c
}

// chosen is the chosen preset's ID, "" for the result's own columns.
func (c *presetChoice) chosen() string {
	for _, p := range c.presets {
		if p.Name == c.sel.Selected {
			return p.ID
		}
	}
	return ""
}

// offerStale explains a refused stale scrub — when it was made, when it
// ran out, how many phones rest on it, that nothing was written — and
// offers a scrub of just those numbers (priced first: rescrub gets the
// list's path) or the list without them (without).
func (ex *exports) offerStale(e *workflow.StaleError, rescrub func(path string), without func()) {
	s := e.Scrubs[0]
	msg := fmt.Sprintf("The DNC scrub %s was made on %s: registry answers may be used for 31 days, so it ran out on %s.\n\n"+
		"%s would be called on it. Nothing was written.\n\nScrub just those numbers again (you see the price first), "+
		"or make the list without them.",
		s.Name, s.Date.Local().Format("Jan 2, 2006"), s.Date.AddDate(0, 0, 31).Local().Format("Jan 2, 2006"),
		jobs.Plural(int64(len(e.Numbers)), "phone", "phones"))
	d, again := ex.refusal("This scrub is too old", msg, fmt.Sprintf("Scrub these %d numbers again…", len(e.Numbers)), func() {
		path, err := ex.stale.StalePhones(e)
		if err != nil {
			ex.sh.showError(err)
			return
		}
		rescrub(path)
	}, "Export without them", without)
	d.SetOnClosed(func() { ex.rescrubBtn = nil })
	ex.rescrubBtn = again
	d.Resize(fyne.NewSize(600, 0))
	d.Show()
	ex.sh.fire("stale-scrub")
}

// refusal asks what to do about an export that wrote nothing: msg says
// why; fix (the highlighted button, fixText) mends it, without
// (withoutText) makes the list without what is in doubt, Cancel does
// neither. It returns the dialog, not shown yet, and the fix's button.
func (ex *exports) refusal(title, msg, fixText string, fix func(), withoutText string, without func()) (*dialog.CustomDialog, *widget.Button) {
	label := widget.NewLabel(msg)
	label.Wrapping = fyne.TextWrapWord
	var d *dialog.CustomDialog
	fixBtn := &widget.Button{Text: fixText, Importance: widget.HighImportance, OnTapped: func() {
		d.Hide()
		fix()
	}}
	out := widget.NewButton(withoutText, func() {
		d.Hide()
		without()
	})
	cancel := widget.NewButton("Cancel", func() { d.Hide() })
	d = dialog.NewCustomWithoutButtons(title, container.NewVBox(label,
		container.NewHBox(layout.NewSpacer(), cancel, out, fixBtn)), ex.sh.win)
	return d, fixBtn
}

// showExported says how an export to dest ended: what went wrong, or
// where it was saved (with its proof of scrub, for a callable list).
func (ex *exports) showExported(dest string, rep *workflow.ExportReport, err error) {
	switch {
	case err != nil:
		ex.sh.showError(err)
	case rep != nil:
		ex.showSaved(dest, rep.Proof)
	default:
		ex.showSaved(dest, "")
	}
}

// showSaved tells where a file was written, with a way to open its folder;
// a callable list's proof of scrub, beside it (proof, "" when none), is
// named, with a way to open it.
func (ex *exports) showSaved(path, proof string) {
	defer ex.sh.fire("saved")
	text, width := "Saved to "+path, float32(520)
	var d *dialog.CustomDialog
	buttons := []fyne.CanvasObject{layout.NewSpacer(), &widget.Button{Text: "Show in folder", Icon: theme.FolderOpenIcon(), OnTapped: func() {
		d.Hide()
		ex.sh.showInFolder(path)
	}}}
	if proof != "" {
		text += "\n\nIts proof of scrub: " + filepath.Base(proof) + ", beside it. Keep both: the proof " +
			"names the scrubs, their dates, what was left out and why, and fingerprints of the files."
		width = 560
		buttons = append(buttons, &widget.Button{Text: "Open the proof", Icon: theme.DocumentIcon(), OnTapped: func() {
			d.Hide()
			ex.sh.openFile(proof)
		}})
	}
	buttons = append(buttons, keys.NewPrimary("OK", nil, func() { d.Hide() }), layout.NewSpacer())
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	d = dialog.NewCustomWithoutButtons("Saved", container.NewVBox(msg, container.NewHBox(buttons...)), ex.sh.win)
	d.Resize(fyne.NewSize(width, 0))
	ex.saved = path
	d.SetOnClosed(func() { ex.saved = "" })
	keys.Track(ex.sh.win, d, d.Hide, nil) // Enter and Escape close it
	d.Show()
}

func (ex *exports) outputDir() string {
	if d := ex.sh.settings().OutputDir; d != "" {
		return d
	}
	return defaultOutputDir()
}

// offerQuestions explains a callable list refused for columns SkipDesk is
// not sure how to read — each file, its columns and the question — and
// offers to check them (check) or to make the list without the phones they
// decide (without).
func (ex *exports) offerQuestions(e *workflow.QuestionError, check func(), without func()) {
	var lines []string
	for _, f := range e.Files {
		for _, q := range f.Questions {
			lines = append(lines, "• "+filepath.Base(f.File)+": "+q.Message)
		}
	}
	msg := "SkipDesk is not sure how to read columns this callable list depends on. Nothing was written.\n\n" +
		strings.Join(lines, "\n") + "\n\nCheck the columns and say what they mean, or make the list without the phones they decide."
	d, _ := ex.refusal("Not sure how to read some columns", msg, "Check the columns…", check, "Export without those phones", without)
	keys.Track(ex.sh.win, d, d.Hide, nil)
	d.Resize(fyne.NewSize(640, 0))
	d.Show()
	ex.sh.fire("open-questions")
}
