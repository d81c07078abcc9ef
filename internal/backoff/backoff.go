// Package backoff holds the waits between tries that the API client and
// the stores share: the jittered, doubling pause after a failure, and a
// sleep that the context ends. It imports nothing of the project, so the
// lowest layer (client) may use it as well as anything under jobs.
package backoff

import (
	"context"
	"math/rand/v2"
	"time"
)

// Delay is the pause before retry n (0 for the first retry): first doubled
// n times, at most max, then a random value between half and all of it,
// so that callers who failed together do not try again together.
func Delay(first, max time.Duration, n int) time.Duration {
	d := first
	for i := 0; i < n && d < max; i++ {
		d *= 2
	}
	d = min(d, max)
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(half)+1))
}

// Sleep waits d or until ctx ends, and then returns ctx's error. With d
// not above zero it returns at once (ctx's error, if it has ended).
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
