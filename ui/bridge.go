package ui

import (
	"sync"
	"time"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/busy"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// eventBridge turns tracker callbacks (any goroutine) into batched updates on
// the UI thread.
type eventBridge struct {
	apply func([]workflow.Event)
	do    func(func())
	delay time.Duration // how long events are gathered before one update
	busy  *busy.Tracker // counts a batch from its first event until it is handed to the UI thread
	done  func()        // ends the count of the batch gathering

	mu      sync.Mutex
	pending []workflow.Event
	timer   *time.Timer
	stopped bool
}

func newEventBridge(sh *shell, apply func([]workflow.Event)) *eventBridge {
	return &eventBridge{apply: apply, do: sh.do, delay: sh.opts.BatchDelay, busy: sh.busy}
}

// push queues an event; safe from any goroutine.
func (b *eventBridge) push(ev workflow.Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.stopped {
		return
	}
	b.pending = append(b.pending, ev)
	if b.timer == nil {
		b.done = b.busy.Add()
		b.timer = time.AfterFunc(b.delay, b.flush)
	}
}

func (b *eventBridge) flush() {
	b.mu.Lock()
	batch := b.pending
	b.pending = nil
	b.timer = nil
	stopped := b.stopped
	done := b.done
	b.done = nil
	b.mu.Unlock()
	if done != nil {
		// Handed to the UI thread (where the test driver runs it at once).
		defer done()
	}
	if len(batch) == 0 || stopped {
		return
	}
	b.do(func() { b.apply(batch) })
}

func (b *eventBridge) stop() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stopped = true
	if b.timer != nil && b.timer.Stop() && b.done != nil {
		b.done()
		b.done = nil
	}
	b.timer = nil
	b.pending = nil
}

// applyEvents runs on the UI thread with one batch of events.
func (a *App) applyEvents(batch []workflow.Event) {
	if a.jobs == nil {
		return
	}
	account, scrubbed := false, false
	defer func() {
		if scrubbed {
			a.recheckTraces()
		}
		if account && a.header != nil {
			a.header.refresh(func() { a.do(func() { a.fire("events") }) })
		} else {
			a.fire("events")
		}
	}()
	for _, ev := range batch {
		switch ev.Kind {
		case workflow.EventProgress:
			a.jobs.setProgress(ev.Job.Key, ev.Done, ev.Total)
			continue
		case workflow.EventAccount:
			account = true
			continue
		case workflow.EventWarning:
			// The server away: said at once, not at the next refresh.
			if workflow.Unreachable(ev.Err) && a.header != nil {
				a.header.goOffline()
			}
			continue // the list keeps the job's last known state
		case workflow.EventIndex:
			if a.library != nil {
				a.library.indexing(*ev.Index)
			}
			a.opts.Wizard.Indexing.Send(*ev.Index)
			continue
		case workflow.EventCompleted, workflow.EventFailed:
			account = true
			a.notify(ev)
		}
		if ev.Replaces != "" {
			a.jobs.replace(ev.Replaces, ev.Job)
		} else {
			a.jobs.upsert(ev.Job)
		}
		if ev.Kind == workflow.EventDownloaded && ev.Job.Kind == jobs.KindDNC {
			// The scrub's answers are here: open results read them, and a
			// scrub of a trace's phones finishes or offers its callable list.
			scrubbed = true
			defer a.jobs.scrubDownloaded(ev.Job)
		}
	}
	a.jobs.refreshTable()
}

// notify sends a desktop notification for a finished job, when enabled.
func (a *App) notify(ev workflow.Event) {
	if !a.settings().Notifications {
		return
	}
	j := ev.Job
	var n *fyne.Notification
	if ev.Kind == workflow.EventCompleted {
		n = fyne.NewNotification("Job completed: "+j.Name,
			jobs.Thousands(int64(j.Matches))+" matches of "+jobs.Thousands(int64(j.Rows))+" rows; net "+jobs.Thousands(j.Net())+" credits.")
	} else {
		msg := j.ErrorMessage
		if msg == "" {
			msg = "the server gave no reason"
		}
		n = fyne.NewNotification("Job failed: "+j.Name, msg+". The charge is refunded.")
	}
	a.fyne.SendNotification(n)
}
