package ui

import (
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// loopLimit is how long Fyne's event loop may take to end once the
// window has closed or the app has quit.
const loopLimit = 5 * time.Second

// ending ends the program once the window is to close, also when Fyne's
// event loop does not return. As the loop ends, Fyne (2.7) queues its
// "stopped" hook (it saves the app's preferences), which asks the main
// thread to run it and waits; the main thread empties its queue of calls
// once and stops taking them, and a call still on its way then is never
// run: Run waits for that hook for ever, which would leave the program
// running without a window and holding the ledger open. Armed when
// the window closes or the app quits; should the loop not have ended within
// loopLimit, the window's work is stopped (Close) and the program exits
// with its code.
type ending struct {
	code      *int
	loopEnded chan struct{}
	close     func()
	// limit is loopLimit, exit os.Exit and stuck exitIfStuck (tests give
	// their own).
	limit  time.Duration
	exit   func(code int)
	stuck  func(time.Duration)
	armed  sync.Once
	closed sync.Once
	// watched is closed when the wait armed has ended without exiting.
	watched chan struct{}
}

// newEnding is the end of a program whose exit code is *code and whose
// window's work stops with close.
func newEnding(code *int, close func()) *ending {
	return &ending{code: code, loopEnded: make(chan struct{}), close: close, limit: loopLimit, exit: os.Exit, stuck: exitIfStuck,
		watched: make(chan struct{})}
}

// arm starts the wait for the event loop's end (once).
func (e *ending) arm() {
	if e == nil {
		return // not run by Run (tests build the App with New)
	}
	e.armed.Do(func() {
		go func() {
			select {
			case <-e.loopEnded:
				close(e.watched)
				return
			case <-time.After(e.limit):
			}
			select {
			case <-e.loopEnded: // ended at the last moment
				close(e.watched)
				return
			default:
			}
			fmt.Fprintf(os.Stderr, "SkipDesk: the window's event loop did not end within %s after closing; closing without it\n", e.limit)
			go e.stuck(shutdownLimit)
			e.closeOnce()
			e.exit(*e.code)
		}()
	})
}

// armOnSignal arms the wait when the program is asked to stop (Ctrl+C in
// a terminal, the system shutting down): Fyne quits on these without
// closing the window.
func (e *ending) armOnSignal() {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		e.arm()
	}()
}

// closeOnce stops the window's work, once whoever comes first.
func (e *ending) closeOnce() { e.closed.Do(e.close) }
