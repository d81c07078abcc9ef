package client

import (
	"net/http"
	"sync"
	"time"
)

// serverClock remembers how far the server's clock, as its Date headers
// show it, is from this computer's. Reconciling a submission whose outcome
// is unknown compares the time it was sent (this computer's clock) with a
// job's created_at (the server's): a laptop clock a quarter of an hour off
// must not make an existing, charged job look absent.
type serverClock struct {
	mu     sync.Mutex
	offset time.Duration
	known  bool
}

// record notes the Date header of a response received at now.
func (s *serverClock) record(h http.Header, now time.Time) {
	v := h.Get("Date")
	if v == "" {
		return
	}
	d, err := http.ParseTime(v)
	if err != nil {
		return
	}
	// Date is cut to the second when the answer is written: its middle
	// is the better guess.
	off := d.Add(500 * time.Millisecond).Sub(now)
	s.mu.Lock()
	s.offset, s.known = off, true
	s.mu.Unlock()
}

func (s *serverClock) get() (time.Duration, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.offset, s.known
}

// ServerClockOffset is how far the server's clock is ahead of this
// computer's (negative: behind), from the Date header of the latest
// response that carried one, to within about a second; false before any
// did.
func (c *Client) ServerClockOffset() (time.Duration, bool) { return c.clock.get() }
