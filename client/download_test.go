package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var resultCSV = func() []byte {
	var b bytes.Buffer
	b.WriteString("First,Last,phone_1,match_status\r\n")
	for i := range 2000 {
		fmt.Fprintf(&b, "John%d,Smith,21255501%02d,matched\r\n", i, i%100)
	}
	return b.Bytes()
}()

// cut answers with the full Content-Length but only the first n bytes of
// the body from offset from, then drops the connection.
func cut(from, n int, ranges bool, etag string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		status := "200 OK"
		extra := ""
		if ranges {
			extra = "Accept-Ranges: bytes\r\n"
		}
		if etag != "" {
			extra += "ETag: " + etag + "\r\n"
		}
		length := len(resultCSV) - from
		if from > 0 {
			status = "206 Partial Content"
			extra += fmt.Sprintf("Content-Range: bytes %d-%d/%d\r\n", from, len(resultCSV)-1, len(resultCSV))
		}
		hijackClose(w, fmt.Sprintf("HTTP/1.1 %s\r\nContent-Type: text/csv\r\nContent-Length: %d\r\n%s\r\n", status, length, extra)+
			string(resultCSV[from:from+n]))
	}
}

var fixedTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// serveRange serves the result honouring Range like a real file server.
func serveRange(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("ETag", `"v1"`)
	http.ServeContent(w, r, "", fixedTime, bytes.NewReader(resultCSV))
}

func TestDownloadResumesWithRange(t *testing.T) {
	t.Parallel()
	s := newScripted(t, cut(0, 5000, true, `"v1"`), serveRange)
	dir := t.TempDir()
	out := filepath.Join(dir, "r.csv")
	var calls []int64
	n, err := s.client(t).Traces.Download(context.Background(), "trc_1", out, func(done, total int64) {
		calls = append(calls, done)
		if total != int64(len(resultCSV)) {
			t.Errorf("total %d", total)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if n != int64(len(resultCSV)) || !bytes.Equal(got, resultCSV) {
		t.Fatalf("file differs: %d bytes, n=%d", len(got), n)
	}
	r := s.request(1)
	if r.Header.Get("Range") != "bytes=5000-" || r.Header.Get("If-Range") != `"v1"` || r.URL.Path != "/v1/traces/trc_1/download" {
		t.Fatalf("second request: %s %v", r.URL, r.Header)
	}
	for i := 1; i < len(calls); i++ {
		if calls[i] < calls[i-1] {
			t.Fatalf("progress went back: %v", calls)
		}
	}
	assertNoTempFiles(t, dir)
}

func TestDownloadRestartsWithoutRanges(t *testing.T) {
	t.Parallel()
	full := reply(200, map[string]string{"Content-Type": "text/csv"}, string(resultCSV))
	tests := []struct {
		name  string
		steps []http.HandlerFunc
	}{
		{"no Accept-Ranges", []http.HandlerFunc{cut(0, 3000, false, ""), full}},
		{"Range ignored: 200 again", []http.HandlerFunc{cut(0, 3000, true, ""), full}},
		{"wrong Content-Range", []http.HandlerFunc{cut(0, 3000, true, ""), cut(1000, len(resultCSV)-1000, true, ""), full}},
		{"cut twice", []http.HandlerFunc{cut(0, 100, true, ""), cut(100, 2000, true, ""), serveRange}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScripted(t, tt.steps...)
			dir := t.TempDir()
			out := filepath.Join(dir, "r.csv")
			n, err := s.client(t).DNC.Download(context.Background(), "dnc_1", out, nil)
			got, _ := os.ReadFile(out)
			if err != nil || n != int64(len(resultCSV)) || !bytes.Equal(got, resultCSV) {
				t.Fatalf("err %v, n %d, file %d bytes (equal %v)", err, n, len(got), bytes.Equal(got, resultCSV))
			}
			if tt.name == "no Accept-Ranges" && s.request(1).Header.Get("Range") != "" {
				t.Error("asked for a range the server does not support")
			}
			assertNoTempFiles(t, dir)
		})
	}
}

func TestDownloadUnknownLength(t *testing.T) {
	t.Parallel()
	s := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.WriteHeader(200)
		for i := 0; i < len(resultCSV); i += 4096 {
			w.Write(resultCSV[i:min(i+4096, len(resultCSV))])
			w.(http.Flusher).Flush() // chunked: no Content-Length
		}
	})
	out := filepath.Join(t.TempDir(), "r.csv")
	var lastTotal int64
	n, err := s.client(t).Traces.Download(context.Background(), "t", out, func(_, total int64) { lastTotal = total })
	if err != nil || n != int64(len(resultCSV)) || lastTotal != -1 {
		t.Fatalf("n %d, total %d, %v", n, lastTotal, err)
	}
}

func TestDownloadFailureLeavesDestinationAlone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "r.csv")
	if err := os.WriteFile(out, []byte("previous result"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newScripted(t, cut(0, 1000, true, ""), cut(1000, 1000, true, ""))
	_, err := s.client(t).Traces.Download(context.Background(), "trc_1", out, nil)
	var te *TransportError
	if !errors.As(err, &te) {
		t.Fatalf("err %v", err)
	}
	if got, _ := os.ReadFile(out); string(got) != "previous result" {
		t.Fatalf("destination changed: %q", got)
	}
	assertNoTempFiles(t, dir)

	// An API error (job not completed) is not retried and leaves nothing.
	s = newScripted(t, reply(409, nil, `{"error":"the result is not ready","code":"JOB_NOT_COMPLETED"}`))
	_, err = s.client(t).Traces.Download(context.Background(), "trc_1", filepath.Join(dir, "new.csv"), nil)
	var ae *APIError
	if !errors.As(err, &ae) || ae.Code != "JOB_NOT_COMPLETED" || s.hits.Load() != 1 {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "new.csv")); !os.IsNotExist(err) {
		t.Fatal("file created for a failed download")
	}
	assertNoTempFiles(t, dir)

	// Bytes beyond the announced length are not part of the file.
	s = newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		hijackClose(w, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\na,b\r\n1,2\r\n0123456789")
	})
	if n, err := s.client(t).Traces.Download(context.Background(), "x", filepath.Join(dir, "ten.csv"), nil); err != nil || n != 10 {
		t.Fatalf("n %d err %v", n, err)
	}
}

func TestDownloadBadDestination(t *testing.T) {
	t.Parallel()
	s := newScripted(t, serveRange)
	c := s.client(t)
	if _, err := c.Traces.Download(context.Background(), "x", filepath.Join(t.TempDir(), "missing", "r.csv"), nil); err == nil ||
		!strings.Contains(err.Error(), "missing") {
		t.Fatalf("err %v", err)
	}
	if _, err := c.Traces.Download(context.Background(), "x", "", nil); err == nil {
		t.Fatal("empty destination accepted")
	}
	if s.hits.Load() != 0 {
		t.Fatalf("%d requests for a download that cannot be stored", s.hits.Load())
	}
}

func TestParseContentRange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in           string
		start, total int64
		ok           bool
	}{
		{"bytes 100-199/200", 100, 200, true},
		{"bytes 0-0/*", 0, -1, true},
		{"bytes 5-9", 0, -1, false},
		{"items 1-2/3", 0, -1, false},
		{"bytes x-9/10", 0, -1, false},
		{"bytes 1/10", 0, -1, false},
		{"bytes -1-9/10", 0, -1, false},
		{"bytes 1-9/ten", 0, -1, false},
		{"", 0, -1, false},
	}
	for _, tt := range tests {
		s, tot, ok := parseContentRange(tt.in)
		if s != tt.start || tot != tt.total || ok != tt.ok {
			t.Errorf("parseContentRange(%q) = %d %d %v", tt.in, s, tot, ok)
		}
	}
}

// The connection is reset (RST, not a clean close) halfway through the
// body: the next attempt asks for the rest and the file arrives whole.
func TestDownloadConnectionResetHalfway(t *testing.T) {
	t.Parallel()
	reset := func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nAccept-Ranges: bytes\r\nETag: \"v1\"\r\nContent-Length: %d\r\n\r\n", len(resultCSV))
		buf.Write(resultCSV[:len(resultCSV)/2])
		buf.Flush()
		time.Sleep(50 * time.Millisecond) // let the half arrive before the reset
		if tc, ok := conn.(*net.TCPConn); ok {
			tc.SetLinger(0)
		}
		conn.Close()
	}
	s := newScripted(t, reset, serveRange)
	dir := t.TempDir()
	out := filepath.Join(dir, "r.csv")
	n, err := s.client(t).Traces.Download(context.Background(), "trc_1", out, nil)
	got, _ := os.ReadFile(out)
	if err != nil || n != int64(len(resultCSV)) || !bytes.Equal(got, resultCSV) {
		t.Fatalf("err %v, %d bytes, intact %v", err, n, bytes.Equal(got, resultCSV))
	}
	if s.hits.Load() != 2 || !strings.HasPrefix(s.request(1).Header.Get("Range"), "bytes=") || s.request(1).Header.Get("If-Range") != `"v1"` {
		t.Fatalf("%d requests; second asked %q", s.hits.Load(), s.request(1).Header.Get("Range"))
	}
	assertNoTempFiles(t, dir)
}
