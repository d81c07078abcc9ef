package backoff

import (
	"context"
	"testing"
	"time"
)

// The pause doubles from the first up to the cap and is jittered within
// its upper half.
func TestDelayDoublesUpToTheCapWithJitter(t *testing.T) {
	first, max := 100*time.Millisecond, 300*time.Millisecond
	for n, top := range []time.Duration{100, 200, 300, 300, 300} {
		top *= time.Millisecond
		seen := map[time.Duration]bool{}
		for range 200 {
			d := Delay(first, max, n)
			if d < top/2 || d > top {
				t.Fatalf("Delay(%v, %v, %d) = %v, want in [%v, %v]", first, max, n, d, top/2, top)
			}
			seen[d] = true
		}
		if len(seen) < 2 {
			t.Errorf("Delay(%v, %v, %d) is always %v: no jitter", first, max, n, seen)
		}
	}
}

// A first pause above the cap is cut to the cap; a large n does not
// overflow.
func TestDelayIsCapped(t *testing.T) {
	for _, n := range []int{0, 1, 62, 1 << 20} {
		if d := Delay(time.Minute, time.Second, n); d < time.Second/2 || d > time.Second {
			t.Errorf("Delay(1m, 1s, %d) = %v", n, d)
		}
	}
}

// An ended context ends the sleep with its error; nothing to wait returns
// at once.
func TestSleepObeysTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour); err != context.Canceled {
		t.Fatalf("Sleep with an ended context: %v", err)
	}
	if err := Sleep(ctx, 0); err != context.Canceled {
		t.Fatalf("Sleep(0) with an ended context: %v", err)
	}
	if err := Sleep(context.Background(), 0); err != nil {
		t.Fatalf("Sleep(0): %v", err)
	}
	if err := Sleep(context.Background(), time.Nanosecond); err != nil {
		t.Fatalf("Sleep(1ns): %v", err)
	}
}
