package ui

import (
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/desk"
)

// batchDelay is how long events are gathered before one UI update: a burst
// of tracker events (50 jobs completing in one poll) becomes one refresh.
var batchDelay = 100 * time.Millisecond

// eventBridge turns tracker callbacks (any goroutine) into batched updates on
// the UI thread.
type eventBridge struct {
	apply func([]desk.Event)

	mu      sync.Mutex
	pending []desk.Event
	timer   *time.Timer
	stopped bool
}

func newEventBridge(apply func([]desk.Event)) *eventBridge {
	return &eventBridge{apply: apply}
}

// push queues an event; safe from any goroutine.
func (b *eventBridge) push(ev desk.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped {
		return
	}
	b.pending = append(b.pending, ev)
	if b.timer == nil {
		b.timer = time.AfterFunc(batchDelay, b.flush)
	}
}

func (b *eventBridge) flush() {
	b.mu.Lock()
	batch := b.pending
	b.pending = nil
	b.timer = nil
	stopped := b.stopped
	b.mu.Unlock()
	if len(batch) == 0 || stopped {
		return
	}
	uiDo(func() { b.apply(batch) })
}

func (b *eventBridge) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stopped = true
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	b.pending = nil
}

// applyEvents runs on the UI thread with one batch of events.
func (a *App) applyEvents(batch []desk.Event) {
	if a.jobs == nil {
		return
	}
	account := false
	defer func() {
		if account && a.header != nil {
			a.header.refresh(func() { uiDo(func() { a.fire("events") }) })
		} else {
			a.fire("events")
		}
	}()
	for _, ev := range batch {
		switch ev.Kind {
		case desk.EventProgress:
			a.jobs.setProgress(ev.Job.Key, ev.Done, ev.Total)
			continue
		case desk.EventAccount:
			account = true
			continue
		case desk.EventCompleted, desk.EventFailed:
			account = true
			a.notify(ev)
		}
		if ev.Replaces != "" {
			a.jobs.replace(ev.Replaces, ev.Job)
		} else {
			a.jobs.upsert(ev.Job)
		}
		if ev.Kind == desk.EventCompleted && ev.Job.Kind == jobs.KindDNC {
			defer a.offerCallable(ev.Job)
		}
	}
	a.jobs.refreshTable()
}

// notify sends a desktop notification for a finished job, when enabled.
func (a *App) notify(ev desk.Event) {
	if !a.be.Settings().Notifications {
		return
	}
	j := ev.Job
	var n *fyne.Notification
	if ev.Kind == desk.EventCompleted {
		n = fyne.NewNotification("Job completed: "+j.Name,
			desk.Count(int64(j.Matches))+" matches of "+desk.Count(int64(j.Rows))+" rows; net "+desk.Count(j.Net())+" credits.")
	} else {
		msg := j.ErrorMessage
		if msg == "" {
			msg = "the server gave no reason"
		}
		n = fyne.NewNotification("Job failed: "+j.Name, msg+". The charge is refunded.")
	}
	a.fyne.SendNotification(n)
}

// uiMu serialises the window's own UI updates. With the real driver they
// all run on the main goroutine anyway; with the test driver fyne.Do runs
// inline on the calling goroutine, and this keeps two background results
// from updating widgets at the same moment. A function run by uiDo must not
// call uiDo itself synchronously.
var uiMu sync.Mutex

// uiDo runs f on the UI thread (fyne.Do), serialised with the window's
// other updates.
func uiDo(f func()) {
	fyne.Do(func() {
		uiMu.Lock()
		defer uiMu.Unlock()
		f()
	})
}

// inflight counts the window's background goroutines, so that Close can
// wait for them (a test's next window must not meet the last one's work).
var inflight sync.WaitGroup

// spawn runs f on a new goroutine counted in inflight.
func spawn(f func()) {
	inflight.Add(1)
	go func() {
		defer inflight.Done()
		f()
	}()
}

// waitInflight waits up to d for the background goroutines to end.
func waitInflight(d time.Duration) {
	done := make(chan struct{})
	go func() { inflight.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}
