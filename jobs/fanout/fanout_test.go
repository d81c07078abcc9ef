package fanout

import (
	"slices"
	"sync"
	"testing"
)

// Every function subscribed gets every event sent until it cancels; one
// may cancel itself from inside, and sends from many goroutines reach all.
func TestList(t *testing.T) {
	t.Parallel()
	var l List[int]
	var mu sync.Mutex
	var a, b []int
	stopA := l.Subscribe(func(e int) { mu.Lock(); a = append(a, e); mu.Unlock() })
	var stopB func()
	stopB = l.Subscribe(func(e int) {
		mu.Lock()
		b = append(b, e)
		mu.Unlock()
		if e == 2 {
			stopB() // from inside a send: no deadlock
		}
	})
	l.Send(1)
	l.Send(2)
	l.Send(3)
	stopA()
	l.Send(4)
	if !slices.Equal(a, []int{1, 2, 3}) || !slices.Equal(b, []int{1, 2}) {
		t.Fatalf("a got %v, b got %v", a, b)
	}
	var n int
	l.Subscribe(func(int) { mu.Lock(); n++; mu.Unlock() })
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() { l.Send(i) })
	}
	wg.Wait()
	if n != 8 {
		t.Fatalf("%d of 8 events sent at once arrived", n)
	}
}
