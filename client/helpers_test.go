package client

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// newLoopbackServer serves h on 127.0.0.1 and returns its URL.
func newLoopbackServer(t testing.TB, h http.Handler) string {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}
