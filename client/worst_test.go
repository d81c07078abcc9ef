package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The worst servers we can script: bodies that never end, lies about
// lengths, absurd Retry-After values, uploads nobody reads. Whatever they
// do, a call ends by itself with an error that names the problem, never
// panics, and never sends a charged POST twice.

// within runs f and fails the test if it has not returned after d: a hang
// detector (far above what any of these calls needs), not a speed check.
func within[T any](t *testing.T, d time.Duration, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(d):
		t.Fatalf("the call did not return within %v", d)
		panic("unreachable")
	}
}

// endless writes chunk forever (chunked encoding: no Content-Length) until
// the client goes away.
func endless(status int, chunk string, pause time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(status)
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, chunk); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			if pause > 0 {
				time.Sleep(pause) // the server's own pace between chunks is the case
			}
		}
	}
}

func TestWorstServerEndlessJSONBody(t *testing.T) {
	t.Parallel()
	// Fast: the size cap ends it, and the same answer is not asked again.
	s := newScripted(t, endless(200, `{"credits":1,"pad":"`+strings.Repeat("x", 64<<10), 0))
	err := within(t, time.Minute, func() error { _, err := s.client(t).Account(context.Background()); return err })
	if err == nil || !strings.Contains(err.Error(), "larger than") || s.hits.Load() != 1 {
		t.Fatalf("err %v after %d requests", err, s.hits.Load())
	}
	// Slow (a byte now and then, so the idle watch never fires): the body
	// timeout ends the attempt; a read is retried, then gives up.
	s = newScripted(t, endless(200, `{`, 5*time.Millisecond))
	p := fastRetry()
	c := s.client(t, WithBodyTimeout(150*time.Millisecond))
	err = within(t, time.Minute, func() error { _, err := c.Account(context.Background()); return err })
	var te *TransportError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "did not arrive in full") {
		t.Fatalf("trickling body: %v", err)
	}
	if n := s.hits.Load(); n != int32(p.MaxRetries+1) {
		t.Fatalf("%d requests, want %d", n, p.MaxRetries+1)
	}
	// The same trickle answering a charged POST: one request, outcome unknown.
	for name, call := range chargedCalls(t) {
		s := newScripted(t, endless(201, ` `, 5*time.Millisecond))
		c := s.client(t, WithBodyTimeout(150*time.Millisecond))
		err := within(t, time.Minute, func() error { return call(c) })
		if !errors.Is(err, ErrOutcomeUnknown) || s.hits.Load() != 1 {
			t.Errorf("%s: %v after %d requests", name, err, s.hits.Load())
		}
	}
}

// An error body that never ends is read up to its cap; the error is still
// the status's.
func TestWorstServerEndlessErrorBody(t *testing.T) {
	t.Parallel()
	s := newScripted(t, endless(404, strings.Repeat("<p>not found</p>", 1000), 0))
	err := within(t, time.Minute, func() error { _, err := s.client(t).Traces.Get(context.Background(), "trc_1"); return err })
	if !errors.Is(err, ErrNotFound) || s.hits.Load() != 1 || len(err.Error()) > 2000 {
		t.Fatalf("err %.300v after %d requests", err, s.hits.Load())
	}
}

func TestWorstServerEndlessDownload(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "r.csv")
	s := newScripted(t, endless(200, strings.Repeat("a,b,c\r\n", 4096), 0))
	c := s.client(t, WithMaxDownloadBytes(1<<20))
	err := within(t, time.Minute, func() error { _, err := c.Traces.Download(context.Background(), "trc_1", out, nil); return err })
	if err == nil || !strings.Contains(err.Error(), "larger than") || s.hits.Load() != 1 {
		t.Fatalf("err %v after %d requests", err, s.hits.Load())
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatal("a file was left at the destination")
	}
	assertNoTempFiles(t, dir)

	// An announced length over the cap is refused before reading anything.
	s = newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		hijackClose(w, "HTTP/1.1 200 OK\r\nContent-Length: 5000000000\r\n\r\nabc")
	})
	c = s.client(t, WithMaxDownloadBytes(1<<20))
	err = within(t, time.Minute, func() error { _, err := c.DNC.Download(context.Background(), "dnc_1", out, nil); return err })
	if err == nil || !strings.Contains(err.Error(), "larger than") || s.hits.Load() != 1 {
		t.Fatalf("announced 5 GB: %v after %d requests", err, s.hits.Load())
	}
	assertNoTempFiles(t, dir)
	if DefaultMaxDownloadBytes < 20*MaxUploadBytes {
		t.Errorf("the default cap (%d) is too close to the largest upload", DefaultMaxDownloadBytes)
	}
}

// Content-Length that lies: longer than the body (the connection closes,
// or stays open and silent) fails after the retries with nothing at the
// destination; shorter gives the announced bytes only.
func TestWorstServerLyingContentLength(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	prev := filepath.Join(dir, "prev.csv")
	os.WriteFile(prev, []byte("old"), 0o644)
	steps := map[string]http.HandlerFunc{
		"longer, then closed": func(w http.ResponseWriter, r *http.Request) {
			hijackClose(w, "HTTP/1.1 200 OK\r\nAccept-Ranges: bytes\r\nETag: \"x\"\r\nContent-Length: 10000\r\n\r\n"+strings.Repeat("z", 5000))
		},
		"longer, then silent": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "10000")
			w.WriteHeader(200)
			io.WriteString(w, strings.Repeat("z", 5000))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		},
		"206 to every Range, never the rest": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Accept-Ranges", "bytes")
			w.Header().Set("Content-Length", "100")
			if r.Header.Get("Range") != "" {
				w.Header().Set("Content-Range", "bytes 0-99/999999")
				w.WriteHeader(206)
			} else {
				w.WriteHeader(200)
			}
			io.WriteString(w, strings.Repeat("q", 50))
		},
	}
	for name, step := range steps {
		t.Run(name, func(t *testing.T) {
			s := newScripted(t, step)
			c := s.client(t, WithIdleTimeout(100*time.Millisecond))
			err := within(t, time.Minute, func() error { _, err := c.Traces.Download(context.Background(), "trc_1", prev, nil); return err })
			var te *TransportError
			if !errors.As(err, &te) {
				t.Fatalf("err %v", err)
			}
			if n := s.hits.Load(); n != int32(fastRetry().MaxRetries+1) {
				t.Errorf("%d requests, want %d", n, fastRetry().MaxRetries+1)
			}
			if got, _ := os.ReadFile(prev); string(got) != "old" {
				t.Fatalf("the destination changed: %.20q", got)
			}
			assertNoTempFiles(t, dir)
		})
	}
}

// Retry-After values that would stop a naive client for years: capped by
// the policy, so the call goes on (a read) or ends at once (a charged POST,
// which is never resent).
func TestWorstServerAbsurdRetryAfter(t *testing.T) {
	t.Parallel()
	tenYears := fmt.Sprint(int64(10 * 365 * 24 * time.Hour / time.Second))
	date := time.Now().AddDate(10, 0, 0).UTC().Format(http.TimeFormat)
	for _, ra := range []string{tenYears, date, "99999999999999999999999999", "-1", "1e9", "soon"} {
		t.Run(ra, func(t *testing.T) {
			limited := reply(429, map[string]string{"Retry-After": ra}, `{"error":"slow down","code":"RATE_LIMITED"}`)
			s := newScripted(t, limited, reply(200, nil, `{"credits":2}`))
			var a *Account
			err := within(t, time.Minute, func() error {
				var err error
				a, err = s.client(t).Account(context.Background())
				return err
			})
			if a == nil || a.Credits != 2 || s.hits.Load() != 2 {
				t.Fatalf("%+v %v after %d requests", a, err, s.hits.Load())
			}
			for name, call := range chargedCalls(t) {
				s := newScripted(t, limited, reply(201, nil, `{"id":"x_1","matched":true}`))
				err := within(t, time.Minute, func() error { return call(s.client(t)) })
				var ae *APIError
				if !errors.As(err, &ae) || !errors.Is(err, ErrRateLimited) || errors.Is(err, ErrOutcomeUnknown) || s.hits.Load() != 1 {
					t.Errorf("%s: %v after %d requests", name, err, s.hits.Load())
				}
			}
		})
	}
	// With the default policy a ten-year wait becomes the cap, a minute.
	p := DefaultRetryPolicy()
	r := retrier{p: p}
	if d, ok := r.next(parseRetryAfter(tenYears, time.Now())); !ok || d != p.MaxRetryAfter || d > time.Minute {
		t.Fatalf("ten years waits %v (%v)", d, ok)
	}
}

// A server that takes the request headers and then never reads the upload
// (nor answers): the send stalls, the attempt ends after the idle timeout,
// and the charged POST is reported as an unknown outcome, sent once.
func TestWorstServerNeverReadsUpload(t *testing.T) {
	t.Parallel()
	// 45 MB: more than the kernel's socket buffers can absorb (a receive
	// buffer may grow to 32 MB), so the sending really stalls.
	path := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(path, []byte("First,Last,Street,City,State,Zip\n"+strings.Repeat("John,Smith,1 Main St,Austin,TX,78701\n", 1_200_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	s := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		<-release // reads nothing, answers nothing
	})
	t.Cleanup(func() { close(release) }) // runs before the server's Close
	c := s.client(t, WithIdleTimeout(300*time.Millisecond))
	err := within(t, time.Minute, func() error {
		_, err := c.Traces.Create(context.Background(), &TraceUpload{Path: path, ColumnMapping: ownersMapping})
		return err
	})
	if !errors.Is(err, ErrOutcomeUnknown) || s.hits.Load() != 1 || !strings.Contains(err.Error(), "stalled") {
		t.Fatalf("err %v after %d requests", err, s.hits.Load())
	}
}

// Informational answers forever, a 200 whose chunk sizes are garbage, a
// redirect loop on a download: each ends with an error.
func TestWorstServerBrokenFraming(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "r.csv")
	cases := map[string]struct {
		step    http.HandlerFunc
		call    func(*Client) error
		charged bool
	}{
		"endless 1xx": {step: func(w http.ResponseWriter, r *http.Request) {
			hijackClose(w, strings.Repeat("HTTP/1.1 102 Processing\r\n\r\n", 1000))
		}, call: func(c *Client) error { _, err := c.Pricing(context.Background()); return err }},
		"endless 1xx to a charged POST": {step: func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			hijackClose(w, strings.Repeat("HTTP/1.1 102 Processing\r\n\r\n", 1000))
		}, call: func(c *Client) error {
			_, err := c.Traces.Single(context.Background(), &SingleTraceRequest{FirstName: "A"})
			return err
		}, charged: true},
		"bad chunk sizes": {step: func(w http.ResponseWriter, r *http.Request) {
			hijackClose(w, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n")
		}, call: func(c *Client) error { _, err := c.DNC.Download(context.Background(), "d", out, nil); return err }},
		"negative Content-Length": {step: func(w http.ResponseWriter, r *http.Request) {
			hijackClose(w, "HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\nabc")
		}, call: func(c *Client) error { _, err := c.DNC.Download(context.Background(), "d", out, nil); return err }},
		"redirect loop on a download": {step: func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, r.URL.Path+"x", http.StatusFound)
		}, call: func(c *Client) error { _, err := c.Traces.Download(context.Background(), "t", out, nil); return err }},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := newScripted(t, tc.step)
			err := within(t, time.Minute, func() error { return tc.call(s.client(t)) })
			if err == nil || strings.Contains(err.Error(), testKey) {
				t.Fatalf("err %v", err)
			}
			if tc.charged && (s.hits.Load() != 1 || !errors.Is(err, ErrOutcomeUnknown)) {
				t.Fatalf("charged: %v after %d requests", err, s.hits.Load())
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Fatal("a file was left at the destination")
			}
			assertNoTempFiles(t, dir)
		})
	}
}

// The delay before a retry is the server's Retry-After (seconds or an
// HTTP-date), not the much shorter backoff: lower bounds only, as timers
// never fire early.
func TestRetryAfterIsHonoured(t *testing.T) {
	t.Parallel()
	for _, ra := range []func() string{
		func() string { return "1" },
		func() string { return time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat) },
	} {
		var first, second atomic.Int64 // unix nanoseconds of each request
		s := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
			first.Store(time.Now().UnixNano())
			reply(429, map[string]string{"Retry-After": ra()}, `{"error":"slow down"}`)(w, r)
		}, func(w http.ResponseWriter, r *http.Request) {
			second.Store(time.Now().UnixNano())
			reply(200, nil, `{"credits":1}`)(w, r)
		})
		c := s.client(t, WithRetryPolicy(RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: time.Millisecond,
			MaxRetryAfter: 5 * time.Second, Budget: time.Minute}))
		if _, err := c.Account(context.Background()); err != nil || s.hits.Load() != 2 {
			t.Fatalf("%v after %d requests", err, s.hits.Load())
		}
		if gap := time.Duration(second.Load() - first.Load()); gap < 900*time.Millisecond {
			t.Errorf("retried %v after a 429 asking for about a second or more", gap)
		}
	}
}

// A server that takes requests and never answers (nor closes): each read
// attempt ends after the idle timeout, and the time lost counts against the
// retry budget, so the call ends after about one budget rather than one
// response timeout per retry.
func TestWorstServerNeverAnswers(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	s := newScripted(t, func(w http.ResponseWriter, r *http.Request) { <-release })
	s2 := newScripted(t, func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body); <-release })
	t.Cleanup(func() { close(release) }) // runs before the servers' Close
	c := s.client(t, WithIdleTimeout(200*time.Millisecond), WithRetryPolicy(RetryPolicy{MaxRetries: 20,
		BaseDelay: time.Millisecond, MaxDelay: time.Millisecond, Budget: 500 * time.Millisecond}))
	err := within(t, time.Minute, func() error { _, err := c.Pricing(context.Background()); return err })
	var te *TransportError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "no answer came within") {
		t.Fatalf("err %v", err)
	}
	if n := s.hits.Load(); n < 2 || n > 4 {
		t.Fatalf("%d attempts of 200 ms within a budget of 500 ms, want 2 to 4", n)
	}
	// A charged POST is not cut by the read's short wait (the server may be
	// checking the file), but by the caller's context; it is sent once.
	ctx, cancel := context.WithTimeout(context.Background(), 600*time.Millisecond)
	defer cancel()
	c2 := s2.client(t, WithIdleTimeout(200*time.Millisecond))
	_, err = c2.Traces.Single(ctx, &SingleTraceRequest{FirstName: "A"})
	if !errors.Is(err, ErrOutcomeUnknown) || s2.hits.Load() != 1 || strings.Contains(err.Error(), "no answer came within") {
		t.Fatalf("charged: %v after %d requests", err, s2.hits.Load())
	}
}
