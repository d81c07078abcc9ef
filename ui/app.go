// Package ui is the SkipDesk window: the first-run screen, the header with
// the account, the jobs list, the result viewer, the library and the
// settings. It reaches the rest of the program only through Backend (the
// application layer, jobs/workflow); every Backend call runs off the UI thread and comes
// back through fyne.Do.
package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/busy"
	"github.com/skipdesk/skipdesk/jobs/fanout"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
	"github.com/skipdesk/skipdesk/ui/lookup"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

// Flows opens the screens that create jobs (ui/wizard, ui/lookup).
type Flows interface {
	NewTrace(path string)
	NewDNC(path string)
	SingleLookup()
	// ScrubTrace opens the DNC scrub on a completed trace's phones; onDone
	// gets the DNC job's id once submitted.
	ScrubTrace(resultPath, traceID string, onDone func(dncID string))
	// RescrubTrace opens the DNC scrub on some of a trace's phones (a
	// phone list), linked to the trace as a scrub of its phones.
	RescrubTrace(phonesPath, traceID string, onDone func(dncID string))
}

// App is the window: it keeps the tabs, the screens of the session and the
// event bridge. Each screen is built with the shell and the service it
// uses, and keeps its own state.
type App struct {
	*shell

	svc Services
	// Flows opens the wizard and the lookup; replaced by tests.
	Flows Flows
	// exports is the export flow the jobs list and the viewers share.
	exports *exports

	header  *header
	jobs    *jobsView
	library *libraryView
	// firstRun is the first-run screen while it shows.
	firstRun *firstRun
	tabs     *container.AppTabs
	internal *internalView
	viewers  map[*container.TabItem]*viewer
	main     fyne.CanvasObject
	badge    fyne.CanvasObject
	// sampleBtn is the welcome panel's "Try the sample list" (sandbox).
	sampleBtn *widget.Button

	// menu is the window's main menu (the main actions and their shortcuts).
	menu *fyne.MainMenu

	stopEvents func()
	bridge     *eventBridge

	// onReady is called (on the UI thread) once the main screen shows with
	// its first jobs and account loaded: the end-to-end harness waits on it.
	onReady []func()
	ready   bool

	// notice is shown once the window is up: a problem that let SkipDesk
	// start with defaults (a damaged settings file).
	notice error

	// end is the program's end once the window is to close (see Run; nil
	// in an App built by New alone).
	end *ending
}

// Options are how the window runs. DefaultOptions are the app's; tests
// give their own (the Fyne test driver runs fyne.Do inline on the calling
// goroutine, so a test's Do serialises the callbacks as the real driver's
// main thread does, and its delays are short).
type Options struct {
	// Do runs f on the UI thread.
	Do func(f func())
	// Sync runs f from any goroutine in turn with the UI updates, also
	// once the event loop has ended (closing the window).
	Sync func(f func())
	// BatchDelay gathers a burst of job events into one update.
	BatchDelay time.Duration
	// FilterDelay waits after the last key before a filter or a search runs.
	FilterDelay time.Duration
	// TickEvery redraws the elapsed time of jobs in flight.
	TickEvery time.Duration
	// Now is the clock the viewer's calling times and "Callable now" are
	// read by (nil: the computer's); MinuteEvery is how often they are read
	// again (nil ticks: never).
	Now         func() time.Time
	MinuteEvery time.Duration
	// ConnectTimeout bounds the key check and the keyring write.
	ConnectTimeout time.Duration
	// OfflineRetry is how often the window tries the server again while
	// it is away; AccountEvery how often it reloads the account while the
	// server answers (0: only on events and Refresh), so that the server
	// going away shows without waiting for a job or a click.
	OfflineRetry, AccountEvery time.Duration
	// Wizard and Lookup are how those screens run.
	Wizard wizard.Env
	Lookup lookup.Env
}

// DefaultOptions are the app's.
func DefaultOptions() Options {
	return Options{Do: fyne.Do, Sync: func(f func()) { f() }, BatchDelay: 100 * time.Millisecond,
		FilterDelay: 250 * time.Millisecond, TickEvery: time.Second, ConnectTimeout: 30 * time.Second, OfflineRetry: 15 * time.Second,
		AccountEvery: time.Minute, MinuteEvery: time.Minute,
		Wizard: wizard.DefaultEnv(), Lookup: lookup.DefaultEnv()}
}

// Run builds the window and runs the app until the window closes; it returns
// the process exit code. startErr is an error opening the backend: with no
// backend the window says what went wrong and nothing else; with one (a
// damaged settings file replaced by the defaults) the window tells the
// person once it is up.
func Run(a fyne.App, svc *Services, startErr error) int {
	w := a.NewWindow("SkipDesk")
	w.Resize(fyne.NewSize(1180, 760))
	w.SetMaster()
	if svc == nil {
		msg := widget.NewLabel("SkipDesk could not start:\n" + startErr.Error() +
			"\n\nCheck that the SkipDesk folder is writable, then start the app again.")
		msg.Wrapping = fyne.TextWrapWord
		w.SetContent(container.NewPadded(msg))
		code := 1
		end := newEnding(&code, func() {})
		w.SetOnClosed(end.arm)
		w.ShowAndRun()
		close(end.loopEnded)
		return code
	}
	app := New(a, w, *svc, DefaultOptions())
	app.notice = startErr
	code := 0
	app.end = newEnding(&code, app.Close)
	app.harness(&code)
	w.SetOnClosed(app.end.arm)
	app.end.armOnSignal()
	app.Start()
	w.ShowAndRun()
	close(app.end.loopEnded)
	// The window is closed: the person expects the program to end, and a
	// program left running would keep the ledger and the index open.
	go exitIfStuck(shutdownLimit)
	app.end.closeOnce()
	return code
}

// shutdownLimit is how long closing (stopping the background work and
// the session, see Close and the Service's Close) may take after the
// window has closed.
const shutdownLimit = 20 * time.Second

// exitIfStuck ends the program when closing has not ended it within d,
// and first writes where it was stuck (every goroutine's stack) to the
// standard error. The ledger is written in transactions, so nothing
// recorded is lost; the exit code 3 says that closing did not finish.
func exitIfStuck(d time.Duration) {
	time.Sleep(d)
	fmt.Fprintf(os.Stderr, "SkipDesk: closing did not finish within %s; ending the program. Where it was:\n", d)
	_ = pprof.Lookup("goroutine").WriteTo(os.Stderr, 2)
	os.Exit(3)
}

// New builds the window; Start then resumes the last session.
func New(a fyne.App, w fyne.Window, svc Services, opts Options) *App {
	ctx, cancel := context.WithCancel(context.Background())
	app := &App{shell: &shell{fyne: a, win: w, ctx: ctx, cancel: cancel, opts: opts, settings: svc.Sessions.Settings, busy: &busy.Tracker{}}, svc: svc}
	// The wizard's and the lookup's results too are dropped once the
	// window has closed.
	app.opts.Wizard.Do, app.opts.Lookup.Do = app.gated(opts.Wizard.Do), app.gated(opts.Lookup.Do)
	// One tracker counts the window's work, the wizard's and the lookup's.
	app.opts.Wizard.Busy, app.opts.Lookup.Busy = app.busy, app.busy
	// An open wizard hears of the library index's rounds as the window does.
	if app.opts.Wizard.Indexing == nil {
		app.opts.Wizard.Indexing = &fanout.List[workflow.IndexProgress]{}
	}
	app.Flows = &screenFlows{win: w, svc: svc, opts: &app.opts, submitted: app.JobSubmitted}
	app.exports = &exports{sh: app.shell, presets: svc.Presets, stale: svc.Compliance,
		newDNC: func(path string) { app.Flows.NewDNC(path) }}
	app.applyTheme(svc.Sessions.Settings().Theme)
	w.SetOnDropped(app.onDropped)
	app.addShortcuts()
	w.SetContent(container.NewCenter(widget.NewLabel("Starting SkipDesk…")))
	return app
}

// Start resumes the last session (or lands in the sandbox) off the UI thread.
func (a *App) Start() { a.resume() }

// Window is the main window.
func (a *App) Window() fyne.Window { return a.win }

// Services are the services the window works with.
func (a *App) Services() Services { return a.svc }

// Session is the current connection (zero before one is open).
func (a *App) Session() workflow.Session { return a.session }

// Close stops the background work of the window and waits (briefly) for it.
func (a *App) Close() {
	a.closed.Store(true)
	a.fire("closing") // from here on no result reaches the window
	a.opts.Sync(func() {
		if a.stopEvents != nil {
			a.stopEvents()
			a.stopEvents = nil
		}
		if a.bridge != nil {
			a.bridge.stop()
		}
		if a.jobs != nil {
			a.jobs.stop()
		}
	})
	a.cancel()
	a.waitInflight(3 * time.Second)
}

// OnReady calls f on the UI thread once the main screen is up with its data
// (at once when it already is).
func (a *App) OnReady(f func()) {
	if a.ready {
		f()
		return
	}
	a.onReady = append(a.onReady, f)
}

func (a *App) resume() {
	background(a.shell, a.ctx, a.svc.Sessions.Resume, func(s workflow.Session, err error) {
		switch {
		case err == nil:
			a.openSession(s)
		case errors.Is(err, workflow.ErrNoKey):
			// A new user lands in the sandbox with the sample list ready;
			// the welcome panel offers the other way in (their own key).
			a.startSandbox()
		default:
			a.showFirstRun()
			a.showError(err)
			a.fire("first-run")
		}
	})
}

func (a *App) startSandbox() {
	a.win.SetContent(container.NewCenter(widget.NewLabel("Starting the sandbox…")))
	background(a.shell, a.ctx, a.svc.Sessions.StartSandbox, func(s workflow.Session, err error) {
		if err != nil {
			a.showFirstRun()
			a.showError(err)
			a.fire("first-run")
			return
		}
		a.openSession(s)
	})
}

// openSession shows the main screen for session s.
func (a *App) openSession(s workflow.Session) {
	a.session = s
	a.buildMain()
	a.win.SetContent(a.main)
	// The title bar says SANDBOX too: it stays visible over every dialog
	// (the wizard's included).
	if s.Sandbox {
		a.win.SetTitle("SkipDesk — SANDBOX (demo account, nothing is charged)")
	} else {
		a.win.SetTitle("SkipDesk — " + workflow.HostOf(s.BaseURL))
	}
	if a.stopEvents != nil {
		a.stopEvents()
	}
	a.bridge = newEventBridge(a.shell, a.applyEvents)
	a.stopEvents = a.svc.Jobs.Subscribe(a.bridge.push)
	a.showNotice()
	a.refreshAll(func() {
		a.fire("session")
		if !a.ready {
			a.ready = true
			for _, f := range a.onReady {
				f()
			}
			a.onReady = nil
		}
	})
}

// refreshAll reloads the account, the pricing and the jobs; then calls done.
func (a *App) refreshAll(done func()) {
	var wg sync.WaitGroup
	wg.Add(2)
	finish := func() {
		wg.Done()
	}
	a.header.refresh(finish)
	a.jobs.reload(finish)
	a.spawn(func() {
		wg.Wait()
		if done != nil {
			a.do(done)
		}
	})
}

// refreshNow asks the tracker to poll, then reloads everything (Ctrl+R).
func (a *App) refreshNow() {
	if a.header == nil {
		return
	}
	a.spawn(func() {
		_ = a.svc.Jobs.Refresh(a.ctx)
		a.do(func() { a.refreshAll(nil) })
	})
}

func (a *App) signOut() {
	backgroundErr(a.shell, a.ctx, a.svc.Sessions.SignOut, a.orShow(func() {
		if a.stopEvents != nil {
			a.stopEvents()
			a.stopEvents = nil
		}
		a.session = workflow.Session{}
		if a.jobs != nil {
			a.jobs.stop()
		}
		if a.header != nil {
			a.header.stop()
		}
		a.header, a.jobs, a.library = nil, nil, nil
		a.showFirstRun()
		a.fire("signed-out")
	}))
}

// showNotice tells, once, of a problem SkipDesk started despite (damaged
// settings replaced by the defaults).
func (a *App) showNotice() {
	if a.notice != nil {
		a.showError(a.notice)
		a.notice = nil
	}
}

// ShowError shows err in a dialog over w, in the user's terms (for the
// wizard and the lookup screens).
func ShowError(w fyne.Window, err error, baseURL string) {
	if err == nil || errors.Is(err, context.Canceled) {
		return
	}
	p := workflow.Explain(err, workflow.HostOf(baseURL))
	msg := widget.NewLabel(p.String())
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom(p.Title, "OK", msg, w)
	keys.Track(w, d, d.Hide, nil) // Enter and Escape close it
	d.Resize(fyne.NewSize(460, 220))
	d.Show()
}

// home is where exports go when no output folder is set.
func defaultOutputDir() string {
	h, err := os.UserHomeDir()
	if err != nil {
		return os.TempDir()
	}
	// Exports go where people look for documents, when that folder exists.
	if fi, err := os.Stat(filepath.Join(h, "Documents")); err == nil && fi.IsDir() {
		return filepath.Join(h, "Documents")
	}
	return h
}
