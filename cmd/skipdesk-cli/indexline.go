package main

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// indexLine follows the library index's rounds on w: once a round has
// run a second, how far it is (in the words say gives), on one line
// written over as it goes; the line ends with the round (or end).
type indexLine struct {
	w     io.Writer
	say   func(workflow.IndexProgress) string
	now   func() time.Time
	mu    sync.Mutex
	start time.Time // when the round under way was first heard of
	shown bool
}

func newIndexLine(w io.Writer, say func(workflow.IndexProgress) string, now func() time.Time) *indexLine {
	return &indexLine{w: w, say: say, now: now}
}

// step takes a round's progress.
func (l *indexLine) step(p workflow.IndexProgress) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !p.Running() {
		l.endLocked()
		return
	}
	if l.start.IsZero() {
		l.start = l.now()
	}
	if l.now().Sub(l.start) >= time.Second {
		fmt.Fprint(l.w, "\r"+l.say(p))
		l.shown = true
	}
}

// event is step for the layer's events (Jobs().Subscribe).
func (l *indexLine) event(e workflow.Event) {
	if e.Kind == workflow.EventIndex && e.Index != nil {
		l.step(*e.Index)
	}
}

// end ends the line, when one was written.
func (l *indexLine) end() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.endLocked()
}

func (l *indexLine) endLocked() {
	if l.shown {
		fmt.Fprintln(l.w)
	}
	l.shown, l.start = false, time.Time{}
}

// waitsForTheLibrary says, while a price waits for the library's index to
// be brought up to date, how far it is; the function it returns stops
// (once, however often it is called).
func waitsForTheLibrary(env *Env, svc *workflow.Service) (stop func()) {
	line := newIndexLine(env.Stderr, workflow.IndexProgress.Checking, time.Now)
	cancel := svc.Jobs().Subscribe(line.event)
	return sync.OnceFunc(func() { cancel(); line.end() })
}
