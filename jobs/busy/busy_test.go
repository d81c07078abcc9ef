package busy

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestIdleAtOnce(t *testing.T) {
	var b Tracker
	select {
	case <-b.Idle():
	default:
		t.Fatal("a tracker never used is not idle")
	}
	if err := b.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// Work added while someone waits is waited for; the tracker can be waited
// on again (a WaitGroup panics when reused so).
func TestAddWhileWaiting(t *testing.T) {
	var b Tracker
	for round := range 100 {
		release := make(chan struct{})
		first := b.Add()
		waited := make(chan error, 1)
		go func() { waited <- b.Wait(context.Background()) }()
		second := b.Add() // while Wait runs
		first()
		select {
		case <-waited:
			t.Fatalf("round %d: idle with work in flight", round)
		default:
		}
		b.Go(func() { <-release })
		second()
		close(release)
		if err := <-waited; err != nil {
			t.Fatal(err)
		}
		if b.Busy() != 0 {
			t.Fatalf("round %d: %d in flight after idle", round, b.Busy())
		}
	}
}

func TestTimers(t *testing.T) {
	var b Tracker
	fired, release := make(chan struct{}), make(chan struct{})
	// The timer's work holds until released: in flight whether or not it
	// has fired when counted.
	b.AfterFunc(time.Millisecond, func() { <-release; close(fired) })
	stopped := b.AfterFunc(time.Hour, func() { t.Error("a stopped timer fired") })
	if b.Busy() != 2 {
		t.Fatalf("%d in flight", b.Busy())
	}
	if !stopped.Stop() || stopped.Stop() {
		t.Error("stop")
	}
	close(release)
	<-fired
	if err := b.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	var none *Timer
	if none.Stop() {
		t.Error("a nil timer stopped")
	}
}

func TestDoneTwiceCountsOnce(t *testing.T) {
	var b Tracker
	a, c := b.Add(), b.Add()
	a()
	a()
	if b.Busy() != 1 {
		t.Fatalf("%d in flight", b.Busy())
	}
	c()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := b.Wait(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestWaitObeysContext(t *testing.T) {
	var b Tracker
	done := b.Add()
	defer done()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.Wait(ctx); err == nil {
		t.Fatal("waited through a cancelled context")
	}
}

func TestConcurrent(t *testing.T) {
	var b Tracker
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				b.Go(func() {})
				_ = b.Wait(context.Background())
			}
		}()
	}
	wg.Wait()
	if err := b.Wait(context.Background()); err != nil || b.Busy() != 0 {
		t.Fatalf("%v, %d in flight", err, b.Busy())
	}
}
