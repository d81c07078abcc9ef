// Package busy counts the work an application has in flight — goroutines it
// started, timers it armed, updates queued for its window — and tells when
// there is none. Tests and end-to-end scripts wait for the application to be
// idle instead of sleeping. Unlike a sync.WaitGroup, a Tracker may be added
// to while someone waits, and waited on again and again.
package busy

import (
	"context"
	"sync"
	"time"
)

// Tracker counts work in flight. The zero value is ready to use.
type Tracker struct {
	mu   sync.Mutex
	n    int
	idle chan struct{} // closed while n == 0; a fresh one when work starts
}

// closedChan is closed: what Idle returns of a tracker never used.
var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// Add counts one piece of work. The returned done ends it; calling it again
// does nothing.
func (t *Tracker) Add() (done func()) {
	t.mu.Lock()
	if t.n == 0 {
		t.idle = make(chan struct{})
	}
	t.n++
	t.mu.Unlock()
	var once sync.Once
	return func() { once.Do(t.done) }
}

func (t *Tracker) done() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n--
	if t.n == 0 {
		close(t.idle)
	}
}

// Go runs f on a goroutine of its own, counted until it returns.
func (t *Tracker) Go(f func()) {
	done := t.Add()
	go func() {
		defer done()
		f()
	}()
}

// Timer is a timer armed through a Tracker: counted until it has fired and
// its function returned, or until it is stopped.
type Timer struct {
	t    *time.Timer
	done func()
}

// AfterFunc runs f after d on its own goroutine, counted from now.
func (t *Tracker) AfterFunc(d time.Duration, f func()) *Timer {
	done := t.Add()
	return &Timer{done: done, t: time.AfterFunc(d, func() {
		defer done()
		f()
	})}
}

// Stop stops the timer; it reports whether it stopped it before it fired
// (its work then ends). A nil Timer is stopped already.
func (tm *Timer) Stop() bool {
	if tm == nil {
		return false
	}
	if tm.t.Stop() {
		tm.done()
		return true
	}
	return false
}

// Idle is closed once no work is in flight (at once when none is). Work
// started later does not reopen it: ask again.
func (t *Tracker) Idle() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.idle == nil {
		return closedChan
	}
	return t.idle
}

// Wait waits until no work is in flight, or ctx ends.
func (t *Tracker) Wait(ctx context.Context) error {
	for {
		select {
		case <-t.Idle():
			if t.Busy() == 0 {
				return nil
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Busy is the number of pieces of work in flight.
func (t *Tracker) Busy() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}
