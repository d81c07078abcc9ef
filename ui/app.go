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
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
	"github.com/skipdesk/skipdesk/ui/lookup"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

// Flows opens the screens that create jobs (ui/wizard, ui/lookup).
type Flows interface {
	NewTrace(a *App, path string)
	NewDNC(a *App, path string)
	SingleLookup(a *App)
	// ScrubTrace opens the DNC scrub on a completed trace's phones; onDone
	// gets the DNC job's id once submitted.
	ScrubTrace(a *App, resultPath, traceID string, onDone func(dncID string))
	// RescrubTrace opens the DNC scrub on some of a trace's phones (a
	// phone list), linked to the trace as a scrub of its phones.
	RescrubTrace(a *App, phonesPath, traceID string, onDone func(dncID string))
}

// App is the window and the controller that coordinates the backend calls
// and the dialogs.
type App struct {
	fyne fyne.App
	win  fyne.Window
	be   Backend
	// Flows opens the wizard and the lookup; replaced by tests.
	Flows Flows

	ctx    context.Context
	cancel context.CancelFunc

	session workflow.Session

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
	// scrubParents maps a DNC job started with "Scrub phones" to its trace,
	// so that its completion offers the trace's callable list.
	scrubParents map[string]string
	// callableYes is the offer's "Export callable list" while it shows.
	callableYes *widget.Button
	// saved is the file the "Saved" message names while it shows;
	// saving is true while the save dialog asks where to save.
	saved  string
	saving bool
	// callableAsk is the callable list's choices while they show;
	// rescrubBtn the stale scrub's "Scrub these numbers again"; scrubAsk
	// an import's scrub date question.
	callableAsk *dialog.ConfirmDialog
	scrubAsk    *scrubDateAsk
	rescrubBtn  *widget.Button

	// menu is the window's main menu (the main actions and their shortcuts).
	menu *fyne.MainMenu

	stopEvents func()
	bridge     *eventBridge

	// onReady is called (on the UI thread) once the main screen shows with
	// its first jobs and account loaded: the end-to-end harness waits on it.
	onReady []func()
	ready   bool
	// hook, when set, is called on the UI thread at points tests wait on:
	// "session" (a session's screen shows with its data), "events" (a
	// batch of tracker events is shown), "signed-out".
	hook func(point string)

	opts Options
	// inflight counts the window's background goroutines, so that Close
	// can wait for them.
	inflight sync.WaitGroup
	// closed is set when the window has closed: a background result that
	// arrives later is dropped, not run against a window that is gone.
	closed atomic.Bool
	// notice is shown once the window is up: a problem that let SkipDesk
	// start with defaults (a damaged settings file).
	notice error
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
func Run(a fyne.App, be Backend, startErr error) int {
	w := a.NewWindow("SkipDesk")
	w.Resize(fyne.NewSize(1180, 760))
	w.SetMaster()
	if be == nil {
		msg := widget.NewLabel("SkipDesk could not start:\n" + startErr.Error() +
			"\n\nCheck that the SkipDesk folder is writable, then start the app again.")
		msg.Wrapping = fyne.TextWrapWord
		w.SetContent(container.NewPadded(msg))
		w.ShowAndRun()
		return 1
	}
	app := New(a, w, be, DefaultOptions())
	app.notice = startErr
	code := 0
	app.harness(&code)
	app.Start()
	w.ShowAndRun()
	// The window is closed: the person expects the program to end, and a
	// program left running would keep the ledger and the index open.
	go exitIfStuck(shutdownLimit)
	app.Close()
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
func New(a fyne.App, w fyne.Window, be Backend, opts Options) *App {
	ctx, cancel := context.WithCancel(context.Background())
	app := &App{fyne: a, win: w, be: be, ctx: ctx, cancel: cancel, opts: opts}
	// The wizard's and the lookup's results too are dropped once the
	// window has closed.
	app.opts.Wizard.Do, app.opts.Lookup.Do = app.gated(opts.Wizard.Do), app.gated(opts.Lookup.Do)
	app.Flows = screenFlows{}
	app.applyTheme(be.Settings().Theme)
	w.SetOnDropped(app.onDropped)
	app.addShortcuts()
	w.SetContent(container.NewCenter(widget.NewLabel("Starting SkipDesk…")))
	return app
}

// Start resumes the last session (or lands in the sandbox) off the UI thread.
func (a *App) Start() { a.resume() }

// Window is the main window.
func (a *App) Window() fyne.Window { return a.win }

// Backend is the backend the window works with.
func (a *App) Backend() Backend { return a.be }

// Session is the current connection (zero before one is open).
func (a *App) Session() workflow.Session { return a.session }

// Close stops the background work of the window and waits (briefly) for it.
func (a *App) Close() {
	a.closed.Store(true)
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
	background(a, a.ctx, a.be.Resume, func(s workflow.Session, err error) {
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
	background(a, a.ctx, a.be.StartSandbox, func(s workflow.Session, err error) {
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
	a.bridge = newEventBridge(a, a.applyEvents)
	a.stopEvents = a.be.Subscribe(a.bridge.push)
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
		_ = a.be.Refresh(a.ctx)
		a.do(func() { a.refreshAll(nil) })
	})
}

func (a *App) signOut() {
	background(a, a.ctx, func(ctx context.Context) (struct{}, error) {
		return struct{}{}, a.be.SignOut(ctx)
	}, func(_ struct{}, err error) {
		if err != nil {
			a.showError(err)
			return
		}
		if a.stopEvents != nil {
			a.stopEvents()
			a.stopEvents = nil
		}
		a.session = workflow.Session{}
		if a.jobs != nil {
			a.jobs.stop()
		}
		a.header, a.jobs, a.library = nil, nil, nil
		a.showFirstRun()
		a.fire("signed-out")
	})
}

// showNotice tells, once, of a problem SkipDesk started despite (damaged
// settings replaced by the defaults).
func (a *App) showNotice() {
	if a.notice != nil {
		a.showError(a.notice)
		a.notice = nil
	}
}

func (a *App) fire(point string) {
	if a.hook != nil {
		a.hook(point)
	}
}

// background runs work off the UI thread and hands its result to done on the
// UI thread.
func background[T any](a *App, ctx context.Context, work func(context.Context) (T, error), done func(T, error)) {
	a.spawn(func() {
		v, err := work(ctx)
		a.do(func() { done(v, err) })
	})
}

// withProgress shows a modal progress dialog with a Cancel button wired to
// the work's context, runs work off the UI thread, and calls done on the UI
// throttled is a progress function (any goroutine) that shows progress
// with show on the UI thread, at most every 100 ms and at the end; a
// progress without a total is not shown.
func (a *App) throttled(show func(done, total int64)) func(done, total int64) {
	var last time.Time
	var mu sync.Mutex
	return func(n, total int64) {
		if total <= 0 {
			return
		}
		mu.Lock()
		now := time.Now()
		if now.Sub(last) < 100*time.Millisecond && n < total {
			mu.Unlock()
			return
		}
		last = now
		mu.Unlock()
		a.do(func() { show(n, total) })
	}
}

// thread. progress may be called from any goroutine (it is throttled).
func (a *App) withProgress(title string, work func(ctx context.Context, progress func(done, total int64)) error, done func(error)) {
	ctx, cancel := context.WithCancel(a.ctx)
	// An endless bar until the work reports a total.
	bar := widget.NewProgressBar()
	bar.Hide()
	endless := widget.NewProgressBarInfinite()
	label := widget.NewLabel(title)
	var d *dialog.CustomDialog
	cancelBtn := widget.NewButton("Cancel", func() { cancel() })
	d = dialog.NewCustomWithoutButtons(title, container.NewVBox(label, container.NewStack(endless, bar), container.NewCenter(cancelBtn)), a.win)
	d.Resize(fyne.NewSize(420, 160))
	d.Show()
	progress := a.throttled(func(n, total int64) {
		if endless.Visible() {
			endless.Stop()
			endless.Hide()
			bar.Show()
		}
		bar.SetValue(float64(n) / float64(total))
	})
	a.spawn(func() {
		err := work(ctx, progress)
		cancel()
		a.do(func() {
			endless.Stop()
			d.Hide()
			done(err)
		})
	})
}

func (a *App) showMessage(title, msg string) {
	dialog.ShowInformation(title, msg, a.win)
}

// showError shows what happened and what to do.
func (a *App) showError(err error) {
	if err == nil || errors.Is(err, context.Canceled) {
		return
	}
	p := workflow.Explain(err, workflow.HostOf(a.session.BaseURL))
	a.showProblem(p)
}

func (a *App) showProblem(p workflow.Problem) {
	msg := widget.NewLabel(p.String())
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom(p.Title, "OK", msg, a.win)
	keys.Track(a.win, d, d.Hide, nil) // Enter and Escape close it
	d.Resize(fyne.NewSize(460, 220))
	d.Show()
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
