package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Servers that answer in ways the spec does not allow. Whatever they do, a
// call ends with a clear error (no panic, no hang) and a charged POST is
// never sent twice.

// chargedCalls are the three charged POSTs, each against the scripted
// server's client.
func chargedCalls(t *testing.T) map[string]func(*Client) error {
	dir := t.TempDir()
	owners := writeFile(t, dir, "owners.csv", ownersCSV)
	phones := writeFile(t, dir, "phones.csv", "Phone\n2125550147\n")
	return map[string]func(*Client) error{
		"POST /traces": func(c *Client) error {
			_, err := c.Traces.Create(context.Background(), &TraceUpload{Path: owners, ColumnMapping: ownersMapping})
			return err
		},
		"POST /dnc": func(c *Client) error {
			_, err := c.DNC.Create(context.Background(), &DNCUpload{Path: phones, PhoneColumn: "Phone"})
			return err
		},
		"POST /traces/single": func(c *Client) error {
			_, err := c.Traces.Single(context.Background(), &SingleTraceRequest{FirstName: "A", Address: "1", City: "B", State: "TX", Zip: "1"})
			return err
		},
	}
}

// A redirect answering a charged POST is never followed: 307/308 would
// resend the body (a second charge), 301/302/303 would turn it into a GET
// whose answer (a list) is not the job. It may come after the job was
// created, so its outcome is unknown.
func TestChargedPOSTRedirectNotFollowed(t *testing.T) {
	t.Parallel()
	for name, call := range chargedCalls(t) {
		for _, code := range []int{301, 302, 303, 307, 308} {
			t.Run(fmt.Sprintf("%s/%d", name, code), func(t *testing.T) {
				s := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
					drainBody(r)
					if r.Method == http.MethodPost && !strings.HasSuffix(r.URL.Path, "/elsewhere") {
						http.Redirect(w, r, "/v1/elsewhere", code)
						return
					}
					w.WriteHeader(201)
					io.WriteString(w, `{"success":true,"id":"trc_2","_metadata":{"page":1},"traces":[]}`)
				})
				err := call(s.client(t))
				if s.hits.Load() != 1 {
					t.Fatalf("%d requests reached the server, want 1 (the redirect was followed)", s.hits.Load())
				}
				var ae *APIError
				if !errors.As(err, &ae) || ae.StatusCode != code || !errors.Is(err, ErrOutcomeUnknown) {
					t.Fatalf("err %v, want an APIError with status %d and an unknown outcome", err, code)
				}
				if !strings.Contains(err.Error(), "/v1/elsewhere") || !strings.Contains(err.Error(), "redirect") {
					t.Errorf("error does not say where it was redirected: %v", err)
				}
			})
		}
	}
	// The same holds with a caller's own HTTP client.
	s := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		drainBody(r)
		http.Redirect(w, r, "/v1/elsewhere", http.StatusTemporaryRedirect)
	})
	c := s.client(t, WithHTTPClient(&http.Client{}))
	if _, err := c.Traces.Single(context.Background(), &SingleTraceRequest{FirstName: "A"}); err == nil || s.hits.Load() != 1 {
		t.Fatalf("own client: %v after %d requests", err, s.hits.Load())
	}
}

// A redirect refused by policy (a loop, or https to plain http) is not
// retried: it would be refused again.
func TestRefusedRedirectNotRetried(t *testing.T) {
	t.Parallel()
	s := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path, http.StatusFound) // to itself, forever
	})
	_, err := s.client(t).Account(context.Background())
	if err == nil || !strings.Contains(err.Error(), "redirects") {
		t.Fatalf("err %v", err)
	}
	if n := s.hits.Load(); n != 5 {
		t.Fatalf("%d requests, want 5 (the policy's limit, then no retry)", n)
	}
}

// A 2xx to a charged POST whose body names no job: the job may exist and
// be charged, but its id is unknown.
func TestChargedPOSTAnswerWithoutID(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	owners := writeFile(t, dir, "owners.csv", ownersCSV)
	phones := writeFile(t, dir, "phones.csv", "Phone\n2125550147\n")
	for _, body := range []string{`{}`, `null`, `{"success":true,"id":"","status":"processing"}`, `{"id":null}`, `{"id":"  "}`} {
		t.Run(body, func(t *testing.T) {
			s := newScripted(t, reply(201, nil, body))
			c := s.client(t)
			_, err := c.Traces.Create(context.Background(), &TraceUpload{Path: owners, ColumnMapping: ownersMapping})
			if !errors.Is(err, ErrOutcomeUnknown) || !strings.Contains(err.Error(), "no job id") {
				t.Errorf("POST /traces: %v", err)
			}
			_, err = c.DNC.Create(context.Background(), &DNCUpload{Path: phones, PhoneColumn: "Phone"})
			if !errors.Is(err, ErrOutcomeUnknown) || !strings.Contains(err.Error(), "no job id") {
				t.Errorf("POST /dnc: %v", err)
			}
			if s.hits.Load() != 2 {
				t.Errorf("%d requests, want 2", s.hits.Load())
			}
		})
	}
	// A single trace's id is optional ("may be present").
	s := newScripted(t, reply(200, nil, `{"matched":false,"credits":1,"credits_refunded":1}`))
	if res, err := s.client(t).Traces.Single(context.Background(), &SingleTraceRequest{FirstName: "A"}); err != nil || res.Matched {
		t.Fatalf("single without id: %+v %v", res, err)
	}
}

// Odd answers to a charged POST: each is one request and an error that
// says whether the outcome is known.
func TestChargedPOSTOddAnswers(t *testing.T) {
	t.Parallel()
	huge := strings.Repeat("x", 2<<20)
	faults := []struct {
		name    string
		step    http.HandlerFunc
		unknown bool
	}{
		{"201 with the id of the wrong type", reply(201, nil, `{"id":12,"status":"processing"}`), true},
		{"201 JSON array", reply(201, nil, `[{"id":"trc_1"}]`), true},
		{"201 with garbage after the object", reply(201, nil, `{"id":"trc_1"} trailing`), true},
		{"204 No Content", reply(204, nil, ""), true},
		{"201 body larger than the cap", func(w http.ResponseWriter, r *http.Request) {
			drainBody(r)
			w.WriteHeader(201)
			io.WriteString(w, `{"id":"trc_1","pad":"`)
			for range 9 {
				io.WriteString(w, huge)
			}
			io.WriteString(w, `"}`)
		}, true},
		{"response headers over the transport's limit", func(w http.ResponseWriter, r *http.Request) {
			drainBody(r)
			hijackClose(w, "HTTP/1.1 201 Created\r\nX-Pad: "+strings.Repeat("a", 11<<20)+"\r\n\r\n{}")
		}, true},
		{"status line not HTTP", func(w http.ResponseWriter, r *http.Request) {
			drainBody(r)
			hijackClose(w, "SSH-2.0-OpenSSH_9.6\r\n")
		}, true},
		{"status 999", func(w http.ResponseWriter, r *http.Request) {
			drainBody(r)
			hijackClose(w, "HTTP/1.1 999 Strange\r\nContent-Length: 2\r\n\r\n{}")
		}, true},
		{"304 Not Modified", reply(304, nil, ""), true},
		{"409 HTML", reply(409, map[string]string{"Content-Type": "text/html"}, "<html><title>Conflict</title></html>"), true},
		{"422 refusal", reply(422, nil, `{"error":"too many rows"}`), false},
	}
	for name, call := range chargedCalls(t) {
		for _, f := range faults {
			t.Run(name+"/"+f.name, func(t *testing.T) {
				s := newScripted(t, f.step)
				err := call(s.client(t))
				if err == nil {
					t.Fatal("no error")
				}
				if s.hits.Load() != 1 {
					t.Fatalf("%d requests reached the server, want 1", s.hits.Load())
				}
				if errors.Is(err, ErrOutcomeUnknown) != f.unknown {
					t.Fatalf("ErrOutcomeUnknown = %v, want %v: %v", !f.unknown, f.unknown, err)
				}
				if len(err.Error()) > 4000 || strings.Contains(err.Error(), testKey) {
					t.Fatalf("error text of %d bytes: %.200s", len(err.Error()), err)
				}
			})
		}
	}
}

// Odd answers to a GET: a clear error or, for transient faults, a retry.
func TestGETOddAnswers(t *testing.T) {
	t.Parallel()
	good := reply(200, nil, `{"credits":5}`)
	tests := []struct {
		name  string
		steps []http.HandlerFunc
		ok    bool // the call ends in success (after retries)
		hits  int32
	}{
		{"200 garbage", []http.HandlerFunc{reply(200, nil, "\x00\xff garbage")}, false, 1},
		{"200 HTML", []http.HandlerFunc{reply(200, map[string]string{"Content-Type": "text/html"}, "<html>login</html>")}, false, 1},
		{"200 empty", []http.HandlerFunc{reply(200, nil, "")}, false, 1},
		{"200 null", []http.HandlerFunc{reply(200, nil, "null")}, true, 1},
		{"200 wrong types", []http.HandlerFunc{reply(200, nil, `{"credits":"lots"}`)}, false, 1},
		{"deep nesting", []http.HandlerFunc{reply(200, nil, strings.Repeat("[", 20000))}, false, 1},
		{"huge header, then fine", []http.HandlerFunc{func(w http.ResponseWriter, r *http.Request) {
			hijackClose(w, "HTTP/1.1 200 OK\r\nX-Pad: "+strings.Repeat("a", 11<<20)+"\r\n\r\n{}")
		}, good}, true, 2},
		{"not HTTP, then fine", []http.HandlerFunc{func(w http.ResponseWriter, r *http.Request) {
			hijackClose(w, "garbage\r\n\r\n")
		}, good}, true, 2},
		{"bad gzip, then fine", []http.HandlerFunc{reply(200, map[string]string{"Content-Encoding": "gzip"}, "not gzip at all"), good}, true, 2},
		{"slow body", []http.HandlerFunc{func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "13")
			for _, b := range []byte(`{"credits":5}`) {
				w.Write([]byte{b})
				w.(http.Flusher).Flush()
				time.Sleep(2 * time.Millisecond) // a slow body is the case: one byte at a time, apart
			}
		}}, true, 1},
		{"redirect without Location", []http.HandlerFunc{reply(302, nil, "")}, false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newScripted(t, tt.steps...)
			_, err := s.client(t).Account(context.Background())
			if (err == nil) != tt.ok {
				t.Fatalf("err %v", err)
			}
			if s.hits.Load() != tt.hits {
				t.Fatalf("%d requests, want %d", s.hits.Load(), tt.hits)
			}
			if err != nil && (len(err.Error()) > 4000 || strings.Contains(err.Error(), testKey)) {
				t.Fatalf("error text %.300q", err.Error())
			}
		})
	}
}

// A body that stops arriving ends the attempt after the idle timeout: a
// GET (a download too) is retried, a charged POST reports an unknown
// outcome. A slow but moving body is not cut.
func TestStalledBody(t *testing.T) {
	t.Parallel()
	stall := func(prefix string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			drainBody(r)
			w.Header().Set("Content-Length", "1000")
			w.WriteHeader(200)
			io.WriteString(w, prefix)
			w.(http.Flusher).Flush()
			<-r.Context().Done() // never more
		}
	}
	s := newScripted(t, stall(`{"credits":`), reply(200, nil, `{"credits":8}`))
	c := s.client(t, WithIdleTimeout(200*time.Millisecond))
	a, err := c.Account(context.Background())
	if err != nil || a.Credits != 8 || s.hits.Load() != 2 {
		t.Fatalf("%+v %v after %d requests", a, err, s.hits.Load())
	}

	s = newScripted(t, stall(`{"credits":`))
	_, err = s.client(t, WithIdleTimeout(200*time.Millisecond), WithRetryPolicy(RetryPolicy{MaxRetries: -1})).Account(context.Background())
	var te *TransportError
	if !errors.As(err, &te) || !strings.Contains(err.Error(), "no data") {
		t.Fatalf("persistent stall: %v", err)
	}

	s = newScripted(t, stall(`{"id":"trc_`))
	_, err = s.client(t, WithIdleTimeout(200*time.Millisecond)).Traces.Single(context.Background(), &SingleTraceRequest{FirstName: "A"})
	if !errors.Is(err, ErrOutcomeUnknown) || s.hits.Load() != 1 {
		t.Fatalf("charged POST: %v after %d", err, s.hits.Load())
	}

	// A download stalls halfway and resumes with Range.
	s = newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Accept-Ranges", "bytes")
		w.Header().Set("ETag", `"v1"`)
		w.Header().Set("Content-Length", fmt.Sprint(len(resultCSV)))
		w.WriteHeader(200)
		w.Write(resultCSV[:4000])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}, serveRange)
	out := filepath.Join(t.TempDir(), "r.csv")
	n, err := s.client(t, WithIdleTimeout(200*time.Millisecond)).Traces.Download(context.Background(), "trc_1", out, nil)
	got, _ := os.ReadFile(out)
	if err != nil || n != int64(len(resultCSV)) || string(got) != string(resultCSV) || s.request(1).Header.Get("Range") != "bytes=4000-" {
		t.Fatalf("stalled download: %v, %d bytes", err, n)
	}
}

// A 206 nobody asked for, starting past 0, is not taken for the file's
// beginning.
func TestDownloadUnaskedPartialContent(t *testing.T) {
	t.Parallel()
	unasked := func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Range") != "" {
			serveRange(w, r)
			return
		}
		w.Header().Set("Accept-Ranges", "bytes")
		w.Header().Set("Content-Range", fmt.Sprintf("bytes 500-%d/%d", len(resultCSV)-1, len(resultCSV)))
		w.Header().Set("Content-Length", fmt.Sprint(len(resultCSV)-500))
		w.WriteHeader(http.StatusPartialContent)
		w.Write(resultCSV[500:])
	}
	s := newScripted(t, unasked, serveRange)
	dir := t.TempDir()
	out := filepath.Join(dir, "r.csv")
	n, err := s.client(t).Traces.Download(context.Background(), "trc_1", out, nil)
	got, _ := os.ReadFile(out)
	if err != nil || n != int64(len(resultCSV)) || string(got) != string(resultCSV) {
		t.Fatalf("err %v, %d bytes, equal %v", err, n, string(got) == string(resultCSV))
	}
	if r := s.request(1).Header.Get("Range"); r != "" {
		t.Errorf("the second request asked for %q: the unasked piece was kept", r)
	}
	assertNoTempFiles(t, dir)
}

// A server that ignores the page parameter (or repeats a page forever)
// does not make All loop without end.
func TestAllStopsOnRepeatedPages(t *testing.T) {
	t.Parallel()
	page := `{"_metadata":{"page":1,"per_page":2,"page_count":1000000,"total_count":2000000},"traces":[{"id":"a"},{"id":"b"}]}`
	s := newScripted(t, reply(200, nil, page))
	var ids []string
	var gotErr error
	for tr, err := range s.client(t).Traces.All(context.Background(), &TraceListOptions{Limit: 2}) {
		if err != nil {
			gotErr = err
			break
		}
		ids = append(ids, tr.ID)
	}
	if strings.Join(ids, "") != "ab" || gotErr == nil || !strings.Contains(gotErr.Error(), "page 1") || s.hits.Load() != 2 {
		t.Fatalf("ids %v, err %v, %d requests", ids, gotErr, s.hits.Load())
	}
	// Without _metadata, the same full page again.
	s = newScripted(t, reply(200, nil, `{"jobs":[{"id":"a"},{"id":"b"}]}`))
	n := 0
	gotErr = nil
	for _, err := range s.client(t).DNC.All(context.Background(), &ListOptions{Limit: 2}) {
		if err != nil {
			gotErr = err
			break
		}
		n++
	}
	if n != 2 || gotErr == nil || s.hits.Load() != 2 {
		t.Fatalf("%d items, err %v, %d requests", n, gotErr, s.hits.Load())
	}
}

// The server resets the connection (RST) after reading part of an upload:
// one request, and an unknown outcome (bytes reached the server).
func TestChargedPOSTResetMidUpload(t *testing.T) {
	t.Parallel()
	s := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		io.CopyN(io.Discard, r.Body, 256<<10)
		conn, _, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		if tc, ok := conn.(*net.TCPConn); ok {
			tc.SetLinger(0) // close with RST
		}
		conn.Close()
	})
	path := filepath.Join(t.TempDir(), "big.csv")
	if err := os.WriteFile(path, []byte("First,Last,Street,City,State,Zip\n"+strings.Repeat("John,Smith,1 Main St,Austin,TX,78701\n", 200_000)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := s.client(t).Traces.Create(context.Background(), &TraceUpload{Path: path, ColumnMapping: ownersMapping})
	if !errors.Is(err, ErrOutcomeUnknown) || s.hits.Load() != 1 {
		t.Fatalf("err %v after %d requests", err, s.hits.Load())
	}
}
