package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
)

// A server that refuses an upload before reading it (413 at once, as the
// spec's size limit allows) gives a plain 413, not an unknown outcome.
func TestUploadAnsweredBeforeBodyRead(t *testing.T) {
	t.Parallel()
	s := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Connection", "close")
		w.WriteHeader(http.StatusRequestEntityTooLarge)
		io.WriteString(w, `{"error":"file exceeds 50 MB","code":"PAYLOAD_TOO_LARGE"}`)
	})
	path := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(path, make([]byte, 8<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := s.client(t).Traces.Create(context.Background(), &TraceUpload{Path: path, ColumnMapping: ownersMapping})
	if !errors.Is(err, ErrTooLarge) || errors.Is(err, ErrOutcomeUnknown) || s.hits.Load() != 1 {
		t.Fatalf("err %v after %d requests", err, s.hits.Load())
	}
}
