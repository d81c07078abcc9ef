package ui

import "sync/atomic"

// latest numbers the answers to one question asked again and again (the
// account, the jobs list, the team's status): an answer that arrives after
// a newer one was shown is dropped, so a slow reload started before a
// change never shows the state from before it.
type latest struct {
	asked atomic.Uint64
	shown uint64 // the newest answer shown (UI thread)
}

// ask numbers a new asking (any goroutine).
func (l *latest) ask() uint64 { return l.asked.Add(1) }

// last is the newest asking so far: what a change made now is newer than
// the answers to (any goroutine).
func (l *latest) last() uint64 { return l.asked.Load() }

// fresh reports whether the answer to asking n may be shown: no newer one
// was; it is then the newest shown (UI thread).
func (l *latest) fresh(n uint64) bool {
	if n < l.shown {
		return false
	}
	l.shown = n
	return true
}
