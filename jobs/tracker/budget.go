package tracker

import (
	"context"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/internal/backoff"
)

// budget is a token bucket over the tracker's reads, which also waits out
// the server's window when its X-RateLimit-* headers say little is left.
type budget struct {
	api    *client.Client
	rate   float64 // tokens per second
	burst  float64
	tokens float64
	last   time.Time
	mu     chan struct{} // a one-slot semaphore: waiting callers queue in order
}

func newBudget(perMinute int, api *client.Client) *budget {
	b := &budget{api: api, rate: float64(perMinute) / 60, burst: max(1, min(10, float64(perMinute)/60)),
		mu: make(chan struct{}, 1)}
	b.tokens = b.burst
	b.last = time.Now()
	return b
}

// take waits for one read.
func (b *budget) take(ctx context.Context) error {
	select {
	case b.mu <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-b.mu }()
	if d := b.serverWait(time.Now()); d > 0 {
		if err := backoff.Sleep(ctx, d); err != nil {
			return err
		}
	}
	for {
		now := time.Now()
		b.tokens = min(b.burst, b.tokens+now.Sub(b.last).Seconds()*b.rate)
		b.last = now
		if b.tokens >= 1 {
			b.tokens--
			return nil
		}
		need := time.Duration((1 - b.tokens) / b.rate * float64(time.Second))
		if err := backoff.Sleep(ctx, need); err != nil {
			return err
		}
	}
}

// serverWait: when the last read response said under a tenth of the read
// window is left, wait for the window to reset.
func (b *budget) serverWait(now time.Time) time.Duration {
	if b.api == nil {
		return 0
	}
	rl := b.api.RateLimit()
	if rl.Bucket != "read" || rl.Limit <= 0 || rl.Remaining < 0 || rl.Reset.IsZero() {
		return 0
	}
	if rl.Remaining*10 >= rl.Limit {
		return 0
	}
	return min(rl.Reset.Sub(now)+100*time.Millisecond, 61*time.Second)
}
