package client

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

// ErrUploadIncomplete is matched (errors.Is) by the error of an upload
// produced while it was sent (HeldFile) that ended before its held-back
// tail left: the server never had the whole body (its last bytes and the
// closing boundary), so it cannot have created a job or charged for one.
// client.ChargedOutcome calls it NotSent.
var ErrUploadIncomplete = errors.New("the upload was stopped before its last bytes were sent")

// heldTail is how many of the last bytes written a HeldFile keeps back
// until Release.
const heldTail = 4 << 10

// heldQueue bounds the bytes written to a HeldFile and not yet taken by
// the transport: the writer waits beyond it, so memory stays flat.
const heldQueue = 1 << 20

// HeldFile is the file of a job-creating upload whose bytes are produced
// while the request is being sent (a prepared copy written straight into
// the request rather than to disk first). The bytes written go out as they
// come, but the last ones written (heldTail), and the closing boundary after them,
// are held back until Release: until then the server never has a complete
// body, and Abort ends the request with the body still incomplete.
//
// The body has no known length (it is sent chunked) and can be sent once:
// a request that would need it again fails with nothing sent. A request
// whose connection is lost while the tail is held returns once the tail
// is released (its outcome is then unknown) or aborted (not sent): the
// caller always does one or the other.
type HeldFile struct {
	mu       sync.Mutex
	cond     sync.Cond
	queue    [][]byte // written, not yet taken; its last heldTail bytes are held
	off      int      // bytes of queue[0] already taken
	queued   int
	free     [][]byte
	hint     int64 // the expected size, for progress
	written  int64
	closed   bool  // every byte is written
	released bool  // the tail may go
	aborted  error // the body fails with it
	gone     bool  // the transport is done with the body
	tailOut  bool  // a byte of the tail was taken: the body may be complete
	used     bool  // a request holds the body
	begun    bool  // a byte of the file was taken: it cannot be sent again
}

// NewHeldFile returns an empty held file; sizeHint is its expected size
// (progress reports it as the total until the last byte is written).
func NewHeldFile(sizeHint int64) *HeldFile {
	h := &HeldFile{hint: sizeHint}
	h.cond.L = &h.mu
	return h
}

// Write queues p to be sent, waiting while too much is queued. Once the
// request is over (answered early, or its connection lost) the bytes are
// counted and dropped, so that the writer can finish what it computes
// from them; after Abort it fails with the abort's error.
func (h *HeldFile) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for h.queued >= heldQueue && !h.gone && h.aborted == nil {
		h.cond.Wait()
	}
	switch {
	case h.aborted != nil:
		return 0, h.aborted
	case h.closed:
		return 0, errors.New("client: write to a held upload after Close")
	}
	h.written += int64(len(p))
	if h.gone || len(p) == 0 {
		return len(p), nil
	}
	var buf []byte
	if n := len(h.free); n > 0 && cap(h.free[n-1]) >= len(p) {
		buf, h.free = h.free[n-1][:len(p)], h.free[:n-1]
	} else {
		buf = make([]byte, len(p), max(len(p), 64<<10))
	}
	copy(buf, p)
	h.queue = append(h.queue, buf)
	h.queued += len(p)
	h.cond.Broadcast()
	return len(p), nil
}

// Close says every byte is written; the tail still waits for Release.
func (h *HeldFile) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	h.cond.Broadcast()
	return nil
}

// Release lets the held tail go once every byte is written (Close): the
// server may then have the whole body.
func (h *HeldFile) Release() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.released = true
	h.cond.Broadcast()
}

// Abort ends the request with its body incomplete: the transport's next
// read fails with err (wrapped in ErrUploadIncomplete), the connection is
// dropped and the server never gets the tail. It reports false when it
// came too late: a byte of the tail had left.
func (h *HeldFile) Abort(err error) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tailOut {
		return false
	}
	if h.aborted == nil {
		h.aborted = fmt.Errorf("%w: %w", ErrUploadIncomplete, err)
	}
	h.cond.Broadcast()
	return true
}

// interrupt is the request's context ending while the tail is held:
// the transport waits for the body's reads to end before it returns, so
// they end here.
func (h *HeldFile) interrupt(cause error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.tailOut && h.aborted == nil {
		h.aborted = fmt.Errorf("%w: %w", ErrUploadIncomplete, cause)
	}
	h.cond.Broadcast()
}

// TailSent reports whether a byte of the held tail was handed to the
// transport: only then may the server have the whole body.
func (h *HeldFile) TailSent() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.tailOut
}

// Size is the number of bytes written so far (all of them after Close).
func (h *HeldFile) Size() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.written
}

// take marks the body as held by a request; false when one holds it, or
// when a byte of the file was taken by an earlier one (it is not kept to
// be sent again).
func (h *HeldFile) take() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.used || h.begun || h.gone {
		return false
	}
	h.used = true
	return true
}

// put is the transport closing the body: an attempt that took no byte of
// the file leaves it to the next one; otherwise the body is done.
func (h *HeldFile) put() {
	h.mu.Lock()
	begun := h.begun
	h.used = false
	h.mu.Unlock()
	if begun {
		h.done()
	}
}

// read gives the transport the next bytes of the file: everything written
// but the tail, then the tail once released; io.EOF after it.
func (h *HeldFile) read(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for {
		switch {
		case h.aborted != nil:
			return 0, h.aborted
		case h.gone:
			return 0, fmt.Errorf("%w: the request is over", ErrUploadIncomplete)
		}
		open := h.closed && h.released
		ready := h.queued
		if !open {
			ready -= min(h.queued, heldTail)
		}
		if ready > 0 && len(p) > 0 {
			h.tailOut = h.tailOut || open
			h.begun = true
			return h.takeBytes(p[:min(len(p), ready)]), nil
		}
		if open {
			h.tailOut, h.begun = true, true
			return 0, io.EOF
		}
		h.cond.Wait()
	}
}

// takeBytes copies from the head of the queue into p.
func (h *HeldFile) takeBytes(p []byte) int {
	n := copy(p, h.queue[0][h.off:])
	h.off += n
	h.queued -= n
	if h.off == len(h.queue[0]) {
		h.free = append(h.free, h.queue[0])
		h.queue[0] = nil
		h.queue, h.off = h.queue[1:], 0
	}
	h.cond.Broadcast()
	return n
}

// done ends the body's use: later writes are dropped.
func (h *HeldFile) done() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gone = true
	h.queue, h.queued, h.free = nil, 0, nil
	h.cond.Broadcast()
}

// total is the body's size for progress: exact once every byte is
// written, else the hint (never less than what was sent).
func (h *HeldFile) total(envelope, sent int64) int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return envelope + h.written
	}
	return max(envelope+h.hint, sent+1) // below 100% until the last byte is written
}

type heldReader struct{ h *HeldFile }

func (r heldReader) Read(p []byte) (int, error) { return r.h.read(p) }
