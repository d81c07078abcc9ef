package client

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/internal/backoff"
)

// Rate-limit classes of the spec (Limits): 1200 reads and 120 writes per
// minute, per key, in fixed windows.
const (
	bucketRead  = "read"
	bucketWrite = "write"
)

// RateLimit is what the X-RateLimit-* headers of a response said.
type RateLimit struct {
	Limit     int       // requests allowed in the window (-1 when not sent)
	Remaining int       // requests left in the window (-1 when not sent)
	Reset     time.Time // when the window resets (zero when not sent)
	Bucket    string    // "read" or "write": the class of the request that carried them
	Seen      time.Time // when the response arrived (zero: no header seen yet)
}

// limiter remembers the last rate-limit state per bucket and paces requests
// so that a steady caller does not run into 429.
type limiter struct {
	mu      sync.Mutex
	buckets map[string]*bucketState
	latest  RateLimit
	now     func() time.Time
}

type bucketState struct {
	rl   RateLimit
	next time.Time // earliest time the next request of this bucket may go
}

func newLimiter() *limiter {
	return &limiter{buckets: map[string]*bucketState{}, now: time.Now,
		latest: RateLimit{Limit: -1, Remaining: -1}}
}

func (l *limiter) last() RateLimit {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.latest
}

// record stores the X-RateLimit-* headers of a response, when present.
func (l *limiter) record(bucket string, h http.Header, now time.Time) {
	limit, okL := headerInt(h, "X-RateLimit-Limit")
	rem, okR := headerInt(h, "X-RateLimit-Remaining")
	reset, okT := parseReset(h.Get("X-RateLimit-Reset"), now)
	if !okL && !okR && !okT {
		return
	}
	rl := RateLimit{Limit: -1, Remaining: -1, Bucket: bucket, Seen: now}
	if okL {
		rl.Limit = limit
	}
	if okR {
		rl.Remaining = rem
	}
	if okT {
		rl.Reset = reset
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[bucket]
	if b == nil {
		b = &bucketState{}
		l.buckets[bucket] = b
	}
	// Responses of concurrent requests arrive out of order: within one
	// window keep the lowest remaining count.
	if okR && b.rl.Remaining >= 0 && !b.rl.Reset.IsZero() && rl.Reset.Equal(b.rl.Reset) && b.rl.Remaining < rem {
		rl.Remaining = b.rl.Remaining
	}
	if !rl.Reset.Equal(b.rl.Reset) {
		b.next = time.Time{} // a new window: earlier spacing no longer applies
	}
	b.rl = rl
	l.latest = rl
}

// maxPace bounds any single pacing wait: windows are one minute long.
const maxPace = 61 * time.Second

// wait delays the caller as the last known state of the bucket asks: until
// the reset when nothing remains, and by an even share of the time left in
// the window when little remains (under a tenth of the limit).
func (l *limiter) wait(ctx context.Context, bucket string) error {
	d := l.reserve(bucket)
	if d <= 0 {
		return nil
	}
	return backoff.Sleep(ctx, d)
}

func (l *limiter) reserve(bucket string) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[bucket]
	if b == nil || b.rl.Remaining < 0 || b.rl.Reset.IsZero() {
		return 0
	}
	now := l.now()
	untilReset := b.rl.Reset.Sub(now)
	if untilReset <= 0 {
		return 0 // a new window: no information about it yet
	}
	untilReset = min(untilReset, maxPace)
	var d time.Duration
	switch {
	case b.rl.Remaining <= 0:
		// Send in the next window; a little margin for clock skew.
		d = untilReset + 100*time.Millisecond
		b.next = now.Add(d)
		return d
	case b.rl.Limit > 0 && b.rl.Remaining*10 < b.rl.Limit:
		gap := untilReset / time.Duration(b.rl.Remaining+1)
		start := now
		if b.next.After(now) {
			start = b.next
		}
		b.next = start.Add(gap)
		d = start.Sub(now)
		// Count the request against the window now, so concurrent callers
		// see it before the response arrives.
		b.rl.Remaining--
	default:
		if b.next.After(now) {
			d = b.next.Sub(now)
		}
	}
	return min(d, maxPace)
}

func headerInt(h http.Header, name string) (int, bool) {
	v := strings.TrimSpace(h.Get(name))
	if v == "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// parseReset reads X-RateLimit-Reset, whose format the spec does not show:
// a Unix time in seconds (values above 10⁹), a number of seconds from now,
// or an HTTP-date.
func parseReset(v string, now time.Time) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, false
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		switch {
		case f < 0 || f != f:
			return time.Time{}, false
		case f > 1e9 && f < 1e11:
			return time.Unix(0, int64(f*1e9)), true
		case f <= 1e9:
			return now.Add(time.Duration(min(f, 3600) * float64(time.Second))), true
		}
		return time.Time{}, false
	}
	if t, err := http.ParseTime(v); err == nil {
		return t, true
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, true
	}
	return time.Time{}, false
}
