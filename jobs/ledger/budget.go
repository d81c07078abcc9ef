package ledger

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skipdesk/skipdesk/internal/backoff"
)

// The provider's limits per key.
const (
	DefaultReadsPerMinute  = 1200
	DefaultWritesPerMinute = 120
)

// Limits are the API key's per-minute limits.
type Limits struct {
	ReadsPerMinute  int
	WritesPerMinute int
}

func (t Limits) withDefaults() Limits {
	if t.ReadsPerMinute <= 0 {
		t.ReadsPerMinute = DefaultReadsPerMinute
	}
	if t.WritesPerMinute <= 0 {
		t.WritesPerMinute = DefaultWritesPerMinute
	}
	return t
}

// Budget is the API client's budget of requests: nothing (the client's
// own pacing) on a computer's own ledger; on a team's, the share of the
// key's limits every computer takes from before each request (TakeBudget).
type Budget struct {
	limits Limits
	mu     sync.Mutex
	led    *Ledger
	// held counts the requests that waited for the budget.
	held atomic.Int64
}

// NewBudget is a budget of the key's limits (the provider's defaults where
// a limit is not set), taking nothing until Set gives it a team's ledger.
func NewBudget(limits Limits) *Budget { return &Budget{limits: limits.withDefaults()} }

// Set takes the budget from led when it is a team's (nil: no budget).
func (b *Budget) Set(led *Ledger) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if led != nil && !led.Shared() {
		led = nil
	}
	b.led = led
}

// Take waits until the team's budget has a request of bucket ("read" or
// "write") free and takes it. The budget is a token bucket whose burst is a
// tenth of the limit and whose rate fills eight tenths in a minute: no
// fixed minute sees more than nine tenths of the limit taken, the rest is
// room for requests taken at a minute's end that arrive in the next. When
// the database does not answer, the request is not made.
func (b *Budget) Take(ctx context.Context, bucket string) error {
	b.mu.Lock()
	led := b.led
	b.mu.Unlock()
	if led == nil {
		return nil
	}
	limit := float64(b.limits.ReadsPerMinute)
	if bucket != "read" {
		limit = float64(b.limits.WritesPerMinute)
	}
	rate, burst := 0.8*limit/60, max(1, limit/10)
	waited := false
	for {
		wait, err := led.team().TakeBudget(ctx, bucket, rate, burst)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("nothing was sent to the provider: %w", err)
		}
		if wait == 0 {
			return nil
		}
		if !waited {
			waited = true
			b.held.Add(1)
		}
		// Computers waiting together do not all ask again at once.
		wait += time.Duration(rand.Int64N(int64(wait)/2 + 1))
		if err := backoff.Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// Held counts the requests that waited for the budget.
func (b *Budget) Held() int64 { return b.held.Load() }
