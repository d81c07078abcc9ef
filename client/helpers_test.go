package client

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
)

const testKey = "sk_live_SECRET0123456789"

// newLoopbackServer serves h on 127.0.0.1 and returns its URL.
func newLoopbackServer(t testing.TB, h http.Handler) string {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}

// scripted is an httptest server answering the n-th request with steps[n]
// (the last step repeats), recording every request it saw.
type scripted struct {
	hits  atomic.Int32
	mu    sync.Mutex
	reqs  []*http.Request
	url   string
	steps []http.HandlerFunc
}

func newScripted(t testing.TB, steps ...http.HandlerFunc) *scripted {
	t.Helper()
	s := &scripted{steps: steps}
	s.url = newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := int(s.hits.Add(1)) - 1
		s.mu.Lock()
		s.reqs = append(s.reqs, r.Clone(r.Context()))
		s.mu.Unlock()
		s.steps[min(n, len(s.steps)-1)](w, r)
	})) + "/v1"
	return s
}

func (s *scripted) request(i int) *http.Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reqs[i]
}

func (s *scripted) client(t testing.TB, opts ...Option) *Client {
	t.Helper()
	c, err := New(s.url, testKey, append([]Option{WithRetryPolicy(fastRetry())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// reply writes a fixed answer.
func reply(status int, header map[string]string, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// drop reads the whole request, then closes the connection without an
// answer.
func drop(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	hijackClose(w, "")
}

// hijackClose writes raw (possibly a partial response) and closes.
func hijackClose(w http.ResponseWriter, raw string) {
	conn, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(err)
	}
	if raw != "" {
		buf.WriteString(raw)
		buf.Flush()
	}
	conn.Close()
}
