// Package fanout hands each event to every function subscribed to it: the
// tracker's events to the application layer, the application layer's to
// the window and the command line.
package fanout

import "sync"

// List is the functions subscribed to events of type E; its zero value is
// empty and ready. It is safe for use by many goroutines.
type List[E any] struct {
	mu   sync.Mutex
	next int
	subs map[int]func(E)
}

// Subscribe calls f with every event sent from now on, until cancel.
func (l *List[E]) Subscribe(f func(E)) (cancel func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.subs == nil {
		l.subs = map[int]func(E){}
	}
	id := l.next
	l.next++
	l.subs[id] = f
	return func() {
		l.mu.Lock()
		delete(l.subs, id)
		l.mu.Unlock()
	}
}

// Send calls every function subscribed with e, on the caller's goroutine,
// outside the list's lock: a function may subscribe or cancel.
func (l *List[E]) Send(e E) {
	l.mu.Lock()
	fs := make([]func(E), 0, len(l.subs))
	for _, f := range l.subs {
		fs = append(fs, f)
	}
	l.mu.Unlock()
	for _, f := range fs {
		f(e)
	}
}
