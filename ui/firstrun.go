package ui

import (
	"context"
	"errors"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// firstRun is the screen with the two ways in: an API key, or the sandbox.
type firstRun struct {
	sh *shell
	be Sessions
	// opened is told of the session a key or the sandbox opened.
	opened  func(workflow.Session)
	baseURL *widget.Entry
	key     *widget.Entry
	connect *widget.Button
	sandbox *widget.Button
	status  *widget.Label
	// stop is the Cancel button shown while a key is checked (a server
	// that does not answer is retried for up to Options.ConnectTimeout).
	stop     *widget.Button
	stopWork context.CancelFunc
	content  fyne.CanvasObject
	// onDone is called on the UI thread when a connect attempt ends.
	onDone func(error)
}

// showFirstRun replaces the window's content with the first-run screen.
func (a *App) showFirstRun() *firstRun {
	f := a.newFirstRun()
	a.firstRun = f
	a.win.SetContent(f.content)
	a.win.Canvas().Focus(f.key)
	a.showNotice()
	return f
}

// showConnect is "Use my API key…" from the sandbox: the same screen, with
// a way back.
func (a *App) showConnect() {
	a.showFirstRun()
	a.fire("first-run")
}

func (a *App) newFirstRun() *firstRun {
	var back fyne.CanvasObject
	if a.session.Sandbox {
		back = a.main
	}
	return newFirstRun(a.shell, a.svc.Sessions, a.openSession, back)
}

// newFirstRun is the first-run screen over be; opened is told of the
// session it opens; back, when set, is the screen "Back to the sandbox"
// returns to.
func newFirstRun(a *shell, be Sessions, opened func(workflow.Session), back fyne.CanvasObject) *firstRun {
	f := &firstRun{sh: a, be: be, opened: opened}
	f.baseURL = widget.NewEntry()
	f.baseURL.SetPlaceHolder("the address from your provider, for example api.example.com")
	if s := be.Settings(); s.BaseURL != "" && !s.Sandbox {
		f.baseURL.SetText(s.BaseURL)
	} else if workflow.DefaultBaseURL != "" {
		f.baseURL.SetText(workflow.DefaultBaseURL)
	}
	f.key = widget.NewPasswordEntry()
	f.key.SetPlaceHolder("your API key")
	f.key.OnSubmitted = func(string) { f.onConnect() }
	f.connect = &widget.Button{Text: "Connect", Importance: widget.HighImportance, OnTapped: f.onConnect}
	f.sandbox = &widget.Button{Text: "Try the sandbox", OnTapped: f.onSandbox}
	f.status = widget.NewLabel("")
	f.status.Wrapping = fyne.TextWrapWord
	f.stop = widget.NewButton("Cancel", func() {
		if f.stopWork != nil {
			f.stopWork()
		}
	})
	f.stop.Hide()

	title := widget.NewLabelWithStyle("Welcome to SkipDesk", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	intro := widget.NewLabel("Skip-trace owner lists and scrub phone lists against the Do-Not-Call and litigator lists.")
	intro.Alignment = fyne.TextAlignCenter

	keyHelp := widget.NewLabel("Create a key in the provider's dashboard (API section, Keys page).\nIt is checked, then kept in this computer's keyring.")
	keyCard := widget.NewCard("Use your account", "Enter your API key",
		container.NewVBox(
			widget.NewForm(widget.NewFormItem("Provider's address", f.baseURL), widget.NewFormItem("API key", f.key)),
			keyHelp, f.connect))
	sandboxHelp := widget.NewLabel("A practice account with demo credits, running on this\ncomputer. Nothing is charged; results are made up.\nA sample owner list is ready to try.")
	sandboxCard := widget.NewCard("Just looking?", "Try the sandbox", container.NewVBox(sandboxHelp, f.sandbox))

	cards := container.NewGridWithColumns(2, keyCard, sandboxCard)
	box := container.NewVBox(title, intro, cards, f.status, container.NewCenter(f.stop))
	if back != nil {
		// Came here from the sandbox: offer the way back.
		box.Add(container.NewCenter(widget.NewButton("Back to the sandbox", func() { a.win.SetContent(back) })))
	}
	f.content = container.NewCenter(box)
	return f
}

func (f *firstRun) busy(on bool, msg string) {
	f.status.SetText(msg)
	if on {
		f.connect.Disable()
		f.sandbox.Disable()
	} else {
		f.connect.Enable()
		f.sandbox.Enable()
		f.stop.Hide()
		f.stopWork = nil
	}
}

func (f *firstRun) onConnect() { f.tryConnect(false) }

func (f *firstRun) tryConnect(sessionOnly bool) {
	a := f.sh
	base, err := workflow.CompleteBaseURL(f.baseURL.Text)
	key := strings.TrimSpace(f.key.Text)
	switch {
	case err != nil:
		f.status.SetText(capitalise(err.Error()) + ".")
		f.done(err)
		return
	case key == "":
		f.status.SetText("Enter your API key.")
		f.done(errors.New("no key"))
		return
	}
	f.busy(true, "Checking the key with "+workflow.HostOf(base)+"…")
	ctx, cancel := context.WithTimeout(a.ctx, a.opts.ConnectTimeout)
	f.stopWork = cancel
	f.stop.Show()
	background(a, ctx, func(ctx context.Context) (workflow.Session, error) {
		return f.be.Connect(ctx, base, key, sessionOnly)
	}, func(s workflow.Session, err error) {
		cancel()
		f.busy(false, "")
		switch {
		case err == nil:
			f.opened(s)
		case errors.Is(err, workflow.ErrKeyringUnavailable):
			dialog.ShowConfirm("No keyring on this computer",
				"The key works, but this computer has no keyring to keep it safely.\n"+
					"Use it for this session only? (You will enter it again next time;\n"+
					"or set SKIPDESK_API_KEY in the environment.)",
				func(ok bool) {
					if ok {
						f.tryConnect(true)
					}
				}, a.win)
		case errors.Is(err, context.Canceled):
			f.status.SetText("Cancelled: the key was not checked or saved.")
		default:
			// Named after the server typed here, not the session's.
			a.showProblem(workflow.Explain(err, workflow.HostOf(base)))
		}
		f.done(err)
	})
}

func (f *firstRun) done(err error) {
	if f.onDone != nil {
		f.onDone(err)
	}
}

func (f *firstRun) onSandbox() {
	f.busy(true, "Starting the sandbox…")
	a := f.sh
	background(a, a.ctx, f.be.StartSandbox, func(s workflow.Session, err error) {
		f.busy(false, "")
		if err != nil {
			a.showError(err)
		} else {
			f.opened(s)
		}
		f.done(err)
	})
}
