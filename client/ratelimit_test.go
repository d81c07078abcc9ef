package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

func rlHeader(limit, remaining int, reset string) http.Header {
	h := http.Header{}
	h.Set("X-RateLimit-Limit", strconv.Itoa(limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", reset)
	return h
}

func TestParseReset(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 30, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{strconv.FormatInt(now.Add(30*time.Second).Unix(), 10), now.Add(30 * time.Second), true},
		{"30", now.Add(30 * time.Second), true},
		{"0.5", now.Add(500 * time.Millisecond), true},
		{now.Add(time.Minute).Format(http.TimeFormat), now.Add(time.Minute), true},
		{now.Add(time.Minute).Format(time.RFC3339), now.Add(time.Minute), true},
		{"", time.Time{}, false},
		{"-1", time.Time{}, false},
		{"NaN", time.Time{}, false},
		{"1e300", time.Time{}, false},
		{"soon", time.Time{}, false},
	}
	for _, tt := range tests {
		got, ok := parseReset(tt.in, now)
		if ok != tt.ok || !got.Equal(tt.want) {
			t.Errorf("parseReset(%q) = %v %v, want %v %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestLimiterRecordsAndPaces(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	l := newLimiter()
	l.now = func() time.Time { return now }
	if got := l.last(); got.Limit != -1 || got.Remaining != -1 || !got.Seen.IsZero() {
		t.Fatalf("initial %+v", got)
	}
	if d := l.reserve(bucketRead); d != 0 {
		t.Fatalf("no information yet, waited %v", d)
	}
	reset := strconv.FormatInt(now.Add(40*time.Second).Unix(), 10)

	// Plenty left: no wait.
	l.record(bucketRead, rlHeader(1200, 1000, reset), now)
	if d := l.reserve(bucketRead); d != 0 {
		t.Fatalf("plenty left, waited %v", d)
	}
	// Headers absent or garbage: nothing changes.
	l.record(bucketRead, http.Header{"X-Ratelimit-Limit": {"lots"}}, now)
	if got := l.last(); got.Remaining != 1000 || got.Bucket != bucketRead {
		t.Fatalf("garbage recorded: %+v", got)
	}
	// Nothing left: wait for the reset.
	l.record(bucketWrite, rlHeader(120, 0, reset), now)
	if d := l.reserve(bucketWrite); d < 40*time.Second || d > 41*time.Second {
		t.Fatalf("exhausted: waited %v", d)
	}
	if d := l.reserve(bucketRead); d != 0 {
		t.Fatal("the read bucket was paced by the write bucket")
	}
	// Little left: spread what remains over the window.
	now = now.Add(30 * time.Second)
	reset = strconv.FormatInt(now.Add(30*time.Second).Unix(), 10)
	l.record(bucketWrite, rlHeader(120, 3, reset), now)
	d1, d2, d3 := l.reserve(bucketWrite), l.reserve(bucketWrite), l.reserve(bucketWrite)
	if d1 != 0 || d2 != 7500*time.Millisecond || d3 <= d2 {
		t.Fatalf("spread: %v %v %v", d1, d2, d3)
	}
	// A stale response with a higher count in the same window is ignored.
	l.record(bucketWrite, rlHeader(120, 50, reset), now)
	if got := l.last(); got.Remaining != 0 {
		t.Fatalf("remaining went up within the window: %+v", got)
	}
	// Past the reset: a new window, nothing known.
	now = now.Add(31 * time.Second)
	if d := l.reserve(bucketWrite); d != 0 {
		t.Fatalf("after reset, waited %v", d)
	}
}

func TestPacingWaitObeysContext(t *testing.T) {
	t.Parallel()
	reset := strconv.FormatInt(time.Now().Add(50*time.Second).Unix(), 10)
	s := newScripted(t, reply(200, map[string]string{"X-RateLimit-Limit": "1200", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset}, `{"traces":[]}`))
	c := s.client(t)
	ctx := context.Background()
	if _, err := c.Traces.List(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if rl := c.RateLimit(); rl.Remaining != 0 || rl.Limit != 1200 || rl.Bucket != bucketRead {
		t.Fatalf("rate limit %+v", rl)
	}
	ctx2, cancel := context.WithTimeout(ctx, 30*time.Millisecond)
	defer cancel()
	if _, err := c.Traces.List(ctx2, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("paced request: %v", err)
	}
	if s.hits.Load() != 1 {
		t.Fatalf("request sent although the window was used up")
	}
	// Account and pricing count against the write level, not the read one.
	if _, err := c.Account(ctx); err != nil {
		t.Fatal(err)
	}
	// Pacing off: the request goes at once.
	c2 := s.client(t, WithPacing(false))
	c2.limits = c.limits
	if _, err := c2.Traces.List(ctx, nil); err != nil {
		t.Fatal(err)
	}
}

// budgetLog records the buckets a shared budget was asked for, and refuses
// when told to.
type budgetLog struct {
	mu      sync.Mutex
	buckets []string
	refuse  error
}

func (b *budgetLog) Take(ctx context.Context, bucket string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buckets = append(b.buckets, bucket)
	return b.refuse
}

// A shared budget is asked before every request, in its rate-limit class;
// when it refuses, nothing is sent, and a charged POST is "never sent".
func TestSharedBudget(t *testing.T) {
	t.Parallel()
	s := newScripted(t, reply(200, nil, `{"traces":[]}`), reply(200, nil, `{"credits":5}`))
	b := &budgetLog{}
	c := s.client(t, WithBudget(b))
	ctx := context.Background()
	if _, err := c.Traces.List(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Account(ctx); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(b.buckets) != "[read write]" {
		t.Fatalf("budget asked for %v, want [read write]", b.buckets)
	}
	b.refuse = context.DeadlineExceeded
	path := filepath.Join(t.TempDir(), "o.csv")
	os.WriteFile(path, []byte("First,Last\nA,B\n"), 0o600)
	_, err := c.Traces.Create(ctx, &TraceUpload{Path: path, ColumnMapping: map[string]string{"first_name": "First"}})
	if err == nil || ChargedOutcome(err) != NotSent {
		t.Fatalf("a charged POST the budget held back: %v (%v), want NotSent", err, ChargedOutcome(err))
	}
	if s.hits.Load() != 2 {
		t.Fatalf("%d requests reached the server, want 2", s.hits.Load())
	}
}
