package ui

import (
	"sync/atomic"
	"testing"
	"time"
)

// endingForTest is an ending whose exit and stuck guard report to the test
// instead of ending the process.
func endingForTest(code int, limit time.Duration) (e *ending, closes *atomic.Int32, exits chan int) {
	closes = &atomic.Int32{}
	exits = make(chan int, 1)
	e = newEnding(&code, func() { closes.Add(1) })
	e.limit, e.exit, e.stuck = limit, func(c int) { exits <- c }, func(time.Duration) {}
	return e, closes, exits
}

// A window closed whose event loop never returns (Fyne's shutdown lost a
// call) still stops the window's work and ends with the program's code.
func TestEndingWhenTheEventLoopHangs(t *testing.T) {
	e, closes, exits := endingForTest(1, time.Millisecond)
	e.arm()
	e.arm() // the window closed and the app quit: armed once
	select {
	case code := <-exits:
		if code != 1 {
			t.Errorf("exit code %d, want the program's 1", code)
		}
	case <-time.After(time.Minute):
		t.Fatal("the program did not end while the event loop hung")
	}
	if n := closes.Load(); n != 1 {
		t.Errorf("the window's work stopped %d times, want once", n)
	}
	// Run's own close, should the loop end after all, does not stop it again.
	e.closeOnce()
	if n := closes.Load(); n != 1 {
		t.Errorf("the window's work stopped %d times after Run's close, want once", n)
	}
}

// A loop that ends leaves the end to Run: the watch neither stops the work
// nor exits.
func TestEndingWhenTheEventLoopEnds(t *testing.T) {
	e, closes, exits := endingForTest(0, 0)
	close(e.loopEnded)
	e.arm()
	e.closeOnce() // Run's close
	select {
	case code := <-exits:
		t.Fatalf("exited with %d although the event loop ended", code)
	case <-e.watched:
	}
	if n := closes.Load(); n != 1 {
		t.Errorf("the window's work stopped %d times, want once", n)
	}
	var none *ending // an App built by New alone
	none.arm()
}
