package lookup

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/busy"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// Env is how the screen runs, given by the window (tests serialise Do,
// since the Fyne test driver runs fyne.Do inline on the calling goroutine).
type Env struct {
	// Do runs f on the UI thread.
	Do func(f func())
	// Busy counts the screen's background work; nil: a tracker of its
	// own. The app passes its own, so that waiting for the app to be idle
	// waits for the lookup too.
	Busy *busy.Tracker
}

// DefaultEnv is the app's.
func DefaultEnv() Env { return Env{Do: fyne.Do} }

// Screen is the single lookup: the form, the cost before the click and the
// result inline.
type Screen struct {
	win fyne.Window
	be  Backend

	ctx    context.Context
	cancel context.CancelFunc

	first, last, street, city, state, zip *keys.Entry
	mStreet, mCity, mState, mZip          *keys.Entry
	stateErr, mailErr, mStateErr          *widget.Label
	entityChk                             *widget.Check
	entityTouched                         bool
	settingEntity                         bool
	price                                 *widget.Label
	missing                               *widget.Label
	lookupBtn                             *widget.Button
	busy                                  *widget.ProgressBarInfinite
	result                                *fyne.Container
	form                                  *fyne.Container
	root                                  fyne.CanvasObject

	pricing *client.Pricing
	rateErr error
	running bool
	// shownFor is the request the result shown answers (nil: none shown).
	shownFor *client.SingleTraceRequest

	env Env
	bg  *busy.Tracker // background work in flight (tests wait until it is idle)
}

// Show opens the single lookup in a dialog over win.
func Show(win fyne.Window, b Backend, env Env) *Screen {
	s := New(win, b, env)
	d := dialog.NewCustom("Single lookup", "Close", s.Content(), win)
	d.SetOnClosed(s.Close)
	keys.Track(win, d, s.submit, nil) // Enter looks up, Escape closes
	sz := win.Canvas().Size()
	d.Resize(fyne.NewSize(max(min(sz.Width*0.9, 980), 640), max(sz.Height*0.9, 560)))
	d.Show()
	win.Canvas().Focus(s.first) // type the name straight away
	return s
}

// New builds the single lookup screen and fetches the rates.
func New(win fyne.Window, b Backend, env Env) *Screen {
	s := &Screen{win: win, be: b, env: env, bg: env.Busy}
	if s.bg == nil {
		s.bg = &busy.Tracker{}
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.build()
	s.fetchPricing()
	s.update()
	return s
}

// Content is the screen's canvas object.
func (s *Screen) Content() fyne.CanvasObject { return s.root }

// Close stops background work.
func (s *Screen) Close() { s.cancel() }

func (s *Screen) goBG(f func()) {
	s.bg.Go(f)
}

func (s *Screen) entry(placeholder string) *keys.Entry {
	e := keys.NewEntry()
	e.SetPlaceHolder(placeholder)
	e.OnChanged = func(string) { s.update() }
	e.OnSubmitted = func(string) { s.submit() } // Enter in any field looks up
	return e
}

// submit is Enter: the lookup, when the form is complete.
func (s *Screen) submit() {
	if !s.lookupBtn.Disabled() {
		s.lookup()
	}
}

func errLabel() *widget.Label {
	l := widget.NewLabel("")
	l.Importance = widget.DangerImportance
	l.Wrapping = fyne.TextWrapWord
	l.Hide()
	return l
}

func (s *Screen) build() {
	s.first = s.entry("Owner first name, or the full company / LLC name")
	s.last = s.entry("Leave blank for a company")
	s.street = s.entry("Property street address")
	s.city = s.entry("City")
	s.state = s.entry("TX")
	s.zip = s.entry("ZIP code")
	s.mStreet = s.entry("Optional: improves the match")
	s.mCity = s.entry("City")
	s.mState = s.entry("TX")
	s.mZip = s.entry("ZIP code")
	s.stateErr, s.mStateErr, s.mailErr = errLabel(), errLabel(), errLabel()
	s.entityChk = widget.NewCheck("Company / LLC (billed at the llc rate)", func(bool) {
		if !s.settingEntity {
			s.entityTouched = true
		}
		s.update()
	})
	s.price = widget.NewLabel("")
	s.price.TextStyle = fyne.TextStyle{Bold: true}
	s.price.Wrapping = fyne.TextWrapWord
	s.missing = widget.NewLabel("")
	s.missing.Importance = widget.LowImportance
	s.missing.Wrapping = fyne.TextWrapWord
	s.lookupBtn = widget.NewButtonWithIcon("Look up", theme.SearchIcon(), s.lookup)
	s.lookupBtn.Importance = widget.HighImportance
	s.busy = widget.NewProgressBarInfinite()
	s.busy.Stop()
	s.busy.Hide()
	s.result = container.NewVBox()

	bold := func(t string) *widget.Label {
		return widget.NewLabelWithStyle(t, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	// One label width for the three groups, so that their fields start at
	// one edge (a form per group sized its labels to its own).
	var labelW float32
	for _, t := range []string{"First name *", "Last name", "Street *", "City *"} {
		labelW = max(labelW, widget.NewLabel(t).MinSize().Width)
	}
	sized := func(t string, w float32) fyne.CanvasObject {
		l := widget.NewLabel(t)
		return container.NewGridWrap(fyne.NewSize(w, l.MinSize().Height), l)
	}
	label := func(t string) fyne.CanvasObject { return sized(t, labelW) }
	stateW, zipW := widget.NewLabel("State *").MinSize().Width, widget.NewLabel("ZIP *").MinSize().Width
	form := func(objs ...fyne.CanvasObject) fyne.CanvasObject {
		return container.New(layout.NewFormLayout(), objs...)
	}
	owner := form(label("First name *"), s.first, label("Last name"), s.last, label(""), s.entityChk)
	// mark is " *" on the property address, whose every field is required.
	cityLine := func(city, state, zip *keys.Entry, mark string) fyne.CanvasObject {
		return container.NewBorder(nil, nil, nil,
			container.NewHBox(sized("State"+mark, stateW), fixedWidth(state, 64), sized("ZIP"+mark, zipW), fixedWidth(zip, 110)), city)
	}
	property := container.NewVBox(form(label("Street *"), s.street, label("City *"), cityLine(s.city, s.state, s.zip, " *")), s.stateErr)
	mailing := container.NewVBox(form(label("Street"), s.mStreet, label("City"), cityLine(s.mCity, s.mState, s.mZip, "")), s.mStateErr, s.mailErr)
	actions := container.NewBorder(nil, nil, nil, container.NewVBox(s.lookupBtn), container.NewVBox(s.price, s.missing))
	s.form = container.NewVBox(
		bold("Owner"), owner,
		bold("Property address"), property,
		bold("Mailing address (optional)"), mailing,
		widget.NewSeparator(), actions, s.busy,
	)
	left := container.NewVScroll(container.NewPadded(s.form))
	right := container.NewVScroll(container.NewPadded(s.result))
	split := container.NewHSplit(left, right)
	split.Offset = 0.55
	s.root = split
	s.showHint()
}

// fixedWidth keeps a short entry (state, zip) at a sensible width.
func fixedWidth(e *keys.Entry, w float32) fyne.CanvasObject {
	return container.NewGridWrap(fyne.NewSize(w, e.MinSize().Height), e)
}

func (s *Screen) showHint() {
	l := widget.NewLabel("The result appears here: phones with their types and e-mails, each with a copy button. A lookup that finds no match is refunded in full.")
	l.Wrapping = fyne.TextWrapWord
	l.Importance = widget.LowImportance
	s.result.Objects = []fyne.CanvasObject{l}
	s.result.Refresh()
}

func (s *Screen) fetchPricing() {
	ctx := s.ctx
	s.goBG(func() {
		p, err := s.be.Pricing(ctx)
		s.env.Do(func() {
			if ctx.Err() != nil {
				return
			}
			s.pricing, s.rateErr = p, err
			s.update()
		})
	})
}

// form is the request the fields make, trimmed; state codes uppercased.
func (s *Screen) request() *client.SingleTraceRequest {
	t := func(e *keys.Entry) string { return strings.TrimSpace(e.Text) }
	return &client.SingleTraceRequest{
		FirstName: t(s.first), LastName: t(s.last),
		Address: t(s.street), City: t(s.city), State: strings.ToUpper(t(s.state)), Zip: t(s.zip),
		MailingAddress: t(s.mStreet), MailingCity: t(s.mCity), MailingState: strings.ToUpper(t(s.mState)), MailingZip: t(s.mZip),
		IsEntity: s.entityChk.Checked,
	}
}

// update re-checks the form, the entity detection and the price.
func (s *Screen) update() {
	name := strings.TrimSpace(strings.TrimSpace(s.first.Text) + " " + strings.TrimSpace(s.last.Text))
	detected := workflow.SingleIsCompany(client.SingleTraceRequest{FirstName: name})
	if !s.entityTouched && s.entityChk.Checked != detected {
		s.settingEntity = true
		s.entityChk.SetChecked(detected)
		s.settingEntity = false
	}
	label := "Company / LLC (billed at the llc rate)"
	if detected {
		label = "Company / LLC — detected from the name"
	}
	if s.entityChk.Text != label {
		s.entityChk.Text = label
		s.entityChk.Refresh()
	}

	r := s.request()
	p := workflow.CheckSingle(*r)
	showErr(s.stateErr, joinProblems(p.State, p.Zip))
	showErr(s.mStateErr, joinProblems(p.MailingState, p.MailingZip))
	showErr(s.mailErr, p.Mailing)
	if s.shownFor != nil && *s.shownFor != *r {
		// The result shown answers other details: gone, not mistaken
		// for the answer to these.
		s.shownFor = nil
		s.showHint()
	}

	switch {
	case s.pricing == nil && s.rateErr != nil:
		s.price.SetText("Rates could not be read: " + workflow.Explain(s.rateErr, "").What)
	case s.pricing == nil:
		s.price.SetText("Reading the current rates…")
	case r.IsEntity:
		s.price.SetText(fmt.Sprintf("Costs %s (llc rate, company). Refunded in full if nothing is found.", jobs.Credits(workflow.SingleCost(*r, s.pricing.Rates))))
	default:
		s.price.SetText(fmt.Sprintf("Costs %s (normal rate). Refunded in full if nothing is found.", jobs.Credits(workflow.SingleCost(*r, s.pricing.Rates))))
	}
	switch {
	case len(p.Missing) > 0:
		s.missing.SetText("Fill in: " + strings.Join(p.Missing, ", ") + ".")
	case !p.OK():
		s.missing.SetText("Fix the fields marked in red.")
	default:
		s.missing.SetText("")
	}
	if p.OK() && s.pricing != nil && !s.running {
		s.lookupBtn.Enable()
	} else {
		s.lookupBtn.Disable()
	}
	s.form.Refresh()
}

// joinProblems is the problems that are not "", one after the other.
func joinProblems(ps ...string) string {
	var out []string
	for _, p := range ps {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, " ")
}

func showErr(l *widget.Label, msg string) {
	if msg == "" {
		if l.Visible() {
			l.SetText("")
			l.Hide()
		}
		return
	}
	if l.Text != msg {
		l.SetText(msg)
	}
	l.Show()
}

// lookup sends the request; charged, so never resent automatically.
func (s *Screen) lookup() {
	r := s.request()
	if !workflow.CheckSingle(*r).OK() || s.running {
		return
	}
	s.running = true
	s.busy.Show()
	s.busy.Start()
	s.update()
	ctx := s.ctx
	s.goBG(func() {
		res, err := s.be.Single(ctx, *r)
		var onList map[string]bool
		if err == nil && res != nil {
			var nums []string
			for _, p := range res.Phones {
				nums = append(nums, p.Number)
			}
			// Not knowing the list is not a reason to hide the result:
			// without it, no number is marked.
			onList, _ = s.be.OnInternalList(ctx, nums)
		}
		s.env.Do(func() {
			s.running = false
			s.busy.Stop()
			s.busy.Hide()
			s.update()
			if err != nil {
				s.showError(err)
				return
			}
			s.showResult(r, res, onList)
			s.shownFor = r
		})
	})
}

// showError shows what went wrong in the user's terms, in place of the
// result.
func (s *Screen) showError(err error) {
	p := workflow.Explain(err, "")
	if errors.Is(err, client.ErrOutcomeUnknown) {
		p = workflow.Problem{Title: "Lookup outcome unknown",
			What: "The connection broke after the lookup was sent: it may have been charged. It was not sent again.",
			Do:   "Check the jobs list (it shows the lookup as \"unknown — may be charged\") before looking up again."}
	}
	title := widget.NewLabelWithStyle("Lookup failed: "+p.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.Wrapping = fyne.TextWrapWord
	title.Importance = widget.DangerImportance
	l := widget.NewLabel(p.String())
	l.Wrapping = fyne.TextWrapWord
	s.result.Objects = []fyne.CanvasObject{title, l}
	s.result.Refresh()
}

// showResult shows a result inline: matched or not, the phones with their
// types and the e-mails (each with a copy button), the credits.
func (s *Screen) showResult(r *client.SingleTraceRequest, res *client.SingleTraceResult, onList map[string]bool) {
	var objs []fyne.CanvasObject
	name := strings.TrimSpace(res.FirstName + " " + res.LastName)
	if name == "" {
		name = strings.TrimSpace(r.FirstName + " " + r.LastName)
	}
	if res.Matched {
		h := widget.NewLabelWithStyle("Match found: "+name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		h.Importance = widget.SuccessImportance
		objs = append(objs, h)
	} else {
		h := widget.NewLabelWithStyle("No match for "+name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		h.Importance = widget.WarningImportance
		objs = append(objs, h)
	}
	if res.IsEntity {
		objs = append(objs, widget.NewLabel("Traced as a company / LLC."))
	}
	if len(res.Phones) > 0 {
		objs = append(objs, widget.NewLabelWithStyle("Phones", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		for _, p := range res.Phones {
			typ := p.Type
			if typ == "" {
				typ = "type unknown"
			}
			row := s.copyRow(phone.Format(p.Number)+"   "+typ, p.Number)
			if n := phone.Normalize(p.Number); n.Valid && onList[n.Digits] {
				badge := widget.NewLabel("on your do-not-call list")
				badge.Importance = widget.DangerImportance
				row = container.NewHBox(row, badge)
			}
			objs = append(objs, row)
		}
	}
	if len(res.Emails) > 0 {
		objs = append(objs, widget.NewLabelWithStyle("E-mails", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
		for _, e := range res.Emails {
			objs = append(objs, s.copyRow(e, e))
		}
	}
	if res.Matched && len(res.Phones) == 0 && len(res.Emails) == 0 {
		objs = append(objs, widget.NewLabel("The match carries no phone or e-mail."))
	}
	spend := fmt.Sprintf("Charged %s, refunded %s: net %s.", jobs.Credits(res.Credits), jobs.Credits(res.CreditsRefunded), jobs.Credits(res.Credits-res.CreditsRefunded))
	objs = append(objs, widget.NewSeparator(), widget.NewLabel(spend))
	s.result.Objects = objs
	s.result.Refresh()
}

// copyRow is a value with a button that puts copy on the clipboard.
func (s *Screen) copyRow(shown, copy string) fyne.CanvasObject {
	btn := widget.NewButtonWithIcon("", theme.ContentCopyIcon(), nil)
	l := widget.NewLabel(shown)
	l.Selectable = true
	btn.OnTapped = func() {
		fyne.CurrentApp().Clipboard().SetContent(copy)
		btn.SetText("Copied")
	}
	return container.NewBorder(nil, nil, nil, btn, l)
}
