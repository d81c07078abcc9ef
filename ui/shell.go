package ui

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/busy"
	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
	"github.com/skipdesk/skipdesk/ui/pick"
)

// shell is what every view takes from the window: the window, the UI
// thread, the background work it starts (counted, so that closing and the
// tests can wait for it), and the dialogs that report. The App is built on
// one; a view is built with the shell and the service it uses, never with
// the App.
type shell struct {
	fyne fyne.App
	win  fyne.Window
	opts Options
	// settings are the person's settings as they are now.
	settings func() settings.Settings

	ctx    context.Context
	cancel context.CancelFunc

	// session is the current connection (zero before one is open): errors
	// name its server.
	session workflow.Session

	// hook, when set, is called on the UI thread at points tests wait on:
	// "session" (a session's screen shows with its data), "events" (a
	// batch of tracker events is shown), "signed-out".
	hook func(point string)

	// openFailed is the message that a file could not be opened, while it
	// shows (see openFile).
	openFailed *dialog.ConfirmDialog

	// busy counts the window's work in flight: every goroutine it starts
	// (spawn), every timer it arms and every batch of job events the
	// bridge holds, the wizard's and the lookup's too. Close waits for it;
	// the tests and the end-to-end driver wait until it is idle instead of
	// sleeping.
	busy *busy.Tracker
	// closed is set when the window has closed: a background result that
	// arrives later is dropped, not run against a window that is gone.
	closed atomic.Bool
}

// do runs f on the UI thread (Options.Do: fyne.Do in the app).
func (sh *shell) do(f func()) { sh.gated(sh.opts.Do)(f) }

// gated is do, a way of running f on the UI thread, that drops f once the
// window has closed (Close).
func (sh *shell) gated(do func(func())) func(func()) {
	if do == nil {
		return nil
	}
	return func(f func()) {
		do(func() {
			if !sh.closed.Load() {
				f()
			}
		})
	}
}

// doWait runs f on the UI thread and waits for it; false when the window
// closed first (f then never runs). A background goroutine never waits on
// the event queue of a window that is gone: closing does not wait for it.
func (sh *shell) doWait(f func()) bool {
	done := make(chan struct{})
	sh.do(func() {
		f()
		close(done)
	})
	select {
	case <-done:
		return true
	case <-sh.ctx.Done():
		return false
	}
}

// spawn runs f on a new goroutine counted as the window's work, so that
// Close and the tests can wait for it.
func (sh *shell) spawn(f func()) { sh.busy.Go(f) }

// after runs f after d on its own goroutine, counted as the window's work
// from now until it has run (or the timer is stopped).
func (sh *shell) after(d time.Duration, f func()) *busy.Timer { return sh.busy.AfterFunc(d, f) }

// waitInflight waits up to d for the window's work in flight to end.
func (sh *shell) waitInflight(d time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	_ = sh.busy.Wait(ctx)
}

func (sh *shell) fire(point string) {
	if sh.hook != nil {
		sh.hook(point)
	}
}

// background runs work off the UI thread and hands its result to done on the
// UI thread.
func background[T any](sh *shell, ctx context.Context, work func(context.Context) (T, error), done func(T, error)) {
	sh.spawn(func() {
		v, err := work(ctx)
		sh.do(func() { done(v, err) })
	})
}

// throttled is a progress function (any goroutine) that shows progress
// with show on the UI thread, at most every 100 ms and at the end; a
// progress without a total is not shown.
func (sh *shell) throttled(show func(done, total int64)) func(done, total int64) {
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
		sh.do(func() { show(n, total) })
	}
}

// backgroundErr runs work, which has no result, off the UI thread, and
// hands its error to done on the UI thread.
func backgroundErr(sh *shell, ctx context.Context, work func(context.Context) error, done func(error)) {
	background(sh, ctx, func(ctx context.Context) (struct{}, error) { return struct{}{}, work(ctx) },
		func(_ struct{}, err error) { done(err) })
}

// orShow is a done that shows the work's error, or runs ok.
func (sh *shell) orShow(ok func()) func(error) {
	return func(err error) {
		if err != nil {
			sh.showError(err)
			return
		}
		ok()
	}
}

// withProgress shows a modal progress dialog with a Cancel button wired to
// the work's context, runs work off the UI thread, and calls done on the UI
// thread. progress may be called from any goroutine (it is throttled).
func (sh *shell) withProgress(title string, work func(ctx context.Context, progress func(done, total int64)) error, done func(error)) {
	ctx, cancel := context.WithCancel(sh.ctx)
	// An endless bar until the work reports a total.
	bar := widget.NewProgressBar()
	bar.Hide()
	endless := widget.NewProgressBarInfinite()
	label := widget.NewLabel(title)
	var d *dialog.CustomDialog
	cancelBtn := widget.NewButton("Cancel", func() { cancel() })
	d = dialog.NewCustomWithoutButtons(title, container.NewVBox(label, container.NewStack(endless, bar), container.NewCenter(cancelBtn)), sh.win)
	d.Resize(fyne.NewSize(420, 160))
	d.Show()
	progress := sh.throttled(func(n, total int64) {
		if endless.Visible() {
			endless.Stop()
			endless.Hide()
			bar.Show()
		}
		bar.SetValue(float64(n) / float64(total))
	})
	sh.spawn(func() {
		err := work(ctx, progress)
		cancel()
		sh.do(func() {
			endless.Stop()
			d.Hide()
			done(err)
		})
	})
}

// withProgressOf is withProgress for work with a result: done gets it, with
// the work's error, on the UI thread.
func withProgressOf[T any](sh *shell, title string, work func(ctx context.Context, progress func(done, total int64)) (T, error), done func(T, error)) {
	var v T
	sh.withProgress(title, func(ctx context.Context, progress func(done, total int64)) error {
		var err error
		v, err = work(ctx, progress)
		return err
	}, func(err error) { done(v, err) })
}

// orShowError is a done that shows the work's error, or hands its result
// to ok.
func orShowError[T any](sh *shell, ok func(T)) func(T, error) {
	return func(v T, err error) {
		if err != nil {
			sh.showError(err)
			return
		}
		ok(v)
	}
}

func (sh *shell) showMessage(title, msg string) {
	dialog.ShowInformation(title, msg, sh.win)
}

// showError shows what happened and what to do.
func (sh *shell) showError(err error) {
	if err == nil || errors.Is(err, context.Canceled) {
		return
	}
	p := workflow.Explain(err, workflow.HostOf(sh.session.BaseURL))
	sh.showProblem(p)
}

func (sh *shell) showProblem(p workflow.Problem) {
	msg := widget.NewLabel(p.String())
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustom(p.Title, "OK", msg, sh.win)
	keys.Track(sh.win, d, d.Hide, nil) // Enter and Escape close it
	d.Resize(fyne.NewSize(460, 220))
	d.Show()
}

// dialogOpen: a dialog or a wizard covers the window.
func (sh *shell) dialogOpen() bool { return sh.win.Canvas().Overlays().Top() != nil }

// pickFile asks for a file with one of exts and hands its path to then.
func (sh *shell) pickFile(exts []string, then func(path string)) {
	pick.File(sh.win, "Choose a file", exts, "", then)
}

// openFile opens path with the system's app for its kind. When none opens
// it, the window says so in words and offers its folder, where the person
// can open it with the app they choose.
func (sh *shell) openFile(path string) {
	err := sh.fyne.OpenURL(fileURL(path))
	if err == nil {
		return
	}
	name := filepath.Base(path)
	msg := widget.NewLabel("No app on this computer opened " + name + " (" + err.Error() + "). " +
		"Its folder can be shown instead: open the file from there with the app you choose.")
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Could not open "+name, "Show in folder", "Close", msg, func(show bool) {
		if show {
			sh.showInFolder(path)
		}
	}, sh.win)
	keys.Track(sh.win, d, d.Confirm, nil) // Enter shows the folder, Escape closes
	d.Resize(fyne.NewSize(480, 0))
	sh.openFailed = d
	d.SetOnClosed(func() { sh.openFailed = nil })
	d.Show()
	sh.fire("open-failed")
}

// showInFolder opens the folder holding path with the system file manager.
func (sh *shell) showInFolder(path string) {
	u := fileURL(filepath.Dir(path))
	if err := sh.fyne.OpenURL(u); err != nil {
		sh.showError(err)
	}
}

// openFolder opens dir with the system's file manager; a failure is shown.
func (sh *shell) openFolder(dir string) {
	if err := sh.fyne.OpenURL(fileURL(dir)); err != nil {
		sh.showError(err)
	}
}
