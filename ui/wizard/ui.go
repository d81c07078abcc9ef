package wizard

import (
	"time"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/jobs/busy"
	"github.com/skipdesk/skipdesk/jobs/fanout"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// Env is how the screens run, given by the window (tests give their own:
// the Fyne test driver runs fyne.Do inline on the calling goroutine, so a
// test's Do serialises the callbacks as the real driver's main thread does).
type Env struct {
	// Do runs f on the UI thread.
	Do func(f func())
	// RecountDelay lets a burst of mapping changes read the file once.
	RecountDelay time.Duration
	// PreviewDelay is the pause after which the preview grids are redrawn.
	PreviewDelay time.Duration
	// RetryDelay is how soon the rates are read again while the server
	// is away.
	RetryDelay time.Duration
	// After arms the retry while the server is away: f runs after d unless
	// stop is called first (stop reports whether it stopped it). nil:
	// time.AfterFunc. Tests give a clock they advance by hand.
	After func(d time.Duration, f func()) (stop func() bool)
	// Busy counts the work the wizard has in flight (goroutines, timers);
	// nil: a tracker of its own. The app passes its own, so that waiting
	// for the app to be idle waits for the wizard too.
	Busy *busy.Tracker
	// Indexing carries the library index's progress while it is brought
	// up to date, sent on the UI thread (the app sends what its event
	// bridge gets): a price that waits for the library says so. nil: none.
	Indexing *fanout.List[workflow.IndexProgress]
}

// tracker is the env's busy tracker, or a new one.
func (e Env) tracker() *busy.Tracker {
	if e.Busy != nil {
		return e.Busy
	}
	return &busy.Tracker{}
}

// after is the env's After, or time.AfterFunc.
func (e Env) after(d time.Duration, f func()) (stop func() bool) {
	if e.After != nil {
		return e.After(d, f)
	}
	return time.AfterFunc(d, f).Stop
}

// DefaultEnv is the app's.
func DefaultEnv() Env {
	return Env{Do: fyne.Do, RecountDelay: 300 * time.Millisecond, PreviewDelay: 250 * time.Millisecond, RetryDelay: 10 * time.Second,
		Indexing: &fanout.List[workflow.IndexProgress]{}}
}
