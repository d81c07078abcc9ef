package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	pathpkg "path"
	"strings"
	"sync"
	"testing"
	"time"
)

// testConfig is DefaultConfig with tiny delays.
func testConfig() Config {
	cfg := DefaultConfig()
	cfg.Processing = Processing{MinSeconds: 0.02, RowsPerSecond: 0}
	cfg.Webhook.RetryDelaysSeconds = []float64{0.01, 0.02, 0.03, 0.04, 0.05}
	cfg.Webhook.TimeoutSeconds = 2
	return cfg
}

// limitsConfig is testConfig with a record limit and an upload size limit,
// and a key "sk_poor" holding credits.
func limitsConfig(records int, maxBytes, credits int64) Config {
	cfg := testConfig()
	cfg.RecordLimit = records
	cfg.MaxUploadBytes = maxBytes
	cfg.Keys = append(cfg.Keys, KeyConfig{Key: "sk_poor", Credits: credits})
	return cfg
}

// fuzzServer is a sandbox for fuzzing: its jobs stay processing, nothing is
// rate limited, credits never run out and uploads stop at 64 KiB.
func fuzzServer(f *testing.F) *Server {
	cfg := testConfig()
	cfg.Processing.MinSeconds = 3600
	cfg.RateLimits = RateLimits{ReadPerMinute: -1, WritePerMinute: -1}
	cfg.Keys[0].Credits = 1 << 50
	cfg.MaxUploadBytes = 1 << 16
	s, err := New(cfg)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { s.Close() })
	return s
}

// serveFuzz serves req, sent with the demo key and contentType, and fails
// t when the handler panicked.
func serveFuzz(t *testing.T, s *Server, req *http.Request, contentType string) *httptest.ResponseRecorder {
	t.Helper()
	req.Header.Set("Authorization", "Bearer "+DemoKey)
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if s.Panics() != 0 {
		t.Fatal("handler panicked")
	}
	return rec
}

func startT(t *testing.T, cfg Config) *Server {
	t.Helper()
	s, err := Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if n := s.Panics(); n != 0 {
			t.Errorf("handler panicked %d times", n)
		}
		s.Close()
	})
	return s
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v: %s", err, r.body)
	}
	return m
}

func do(t *testing.T, method, url, key string, body io.Reader, contentType string) resp {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	c := &http.Client{Timeout: 20 * time.Second}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading body: %v", method, url, err)
	}
	return resp{res.StatusCode, res.Header, b}
}

func get(t *testing.T, s *Server, key, path string) resp {
	return do(t, "GET", s.URL()+path, key, nil, "")
}

func postJSON(t *testing.T, s *Server, key, path, body string) resp {
	return do(t, "POST", s.URL()+path, key, strings.NewReader(body), "application/json")
}

// part is one multipart form part; file parts have a filename.
type part struct {
	name, filename, body string
}

func multipartBody(t testing.TB, parts ...part) (io.Reader, string) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for _, p := range parts {
		var w io.Writer
		var err error
		if p.filename != "" {
			w, err = mw.CreateFormFile(p.name, p.filename)
		} else {
			w, err = mw.CreateFormField(p.name)
		}
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, p.body)
	}
	mw.Close()
	return &buf, mw.FormDataContentType()
}

func postForm(t *testing.T, s *Server, key, path string, parts ...part) resp {
	t.Helper()
	body, ct := multipartBody(t, parts...)
	return do(t, "POST", s.URL()+path, key, body, ct)
}

const ownersCSV = "First,Last,Street,City,State,Zip\r\n" +
	"John,Smith,1 Main St,Austin,TX,78701\r\n" +
	"Acme Holdings LLC,,2 Main St,Austin,TX,78701\r\n" +
	"Mary,NOMATCH,3 Main St,Austin,TX,78701\r\n" +
	"Bob,UPSTREAMERR,4 Main St,Austin,TX,78701\r\n" +
	",,,,,\r\n" +
	"Smith Family Trust,,5 Main St,Austin,TX,78701\r\n" +
	"Jane,Doe,6 Main St,Austin,TX,78701\r\n"

const ownersMapping = `{"first_name":"First","last_name":"Last","property_street":"Street","property_city":"City","property_state":"State","property_zip":"Zip"}`

func traceParts(file, name, mapping string, extra ...part) []part {
	return append([]part{{name: "file", filename: name, body: file}, {name: "column_mapping", body: mapping}}, extra...)
}

// waitFinal finishes the job at path (its time has come) and reads it.
func waitFinal(t *testing.T, s *Server, key, path string) map[string]any {
	t.Helper()
	s.Finish(pathpkg.Base(path))
	r := get(t, s, key, path)
	if r.status != 200 {
		t.Fatalf("GET %s: %d %s", path, r.status, r.body)
	}
	m := r.json(t)
	if m["status"] == "processing" {
		t.Fatalf("%s still processing", path)
	}
	return m
}

func num(m map[string]any, k string) int64 {
	f, _ := m[k].(float64)
	return int64(f)
}

// fakeClock is a settable clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func newReq(method, url, key string) (*http.Request, error) {
	r, err := http.NewRequest(method, url, nil)
	if err == nil && key != "" {
		r.Header.Set("Authorization", "Bearer "+key)
	}
	return r, err
}

func doReq(t *testing.T, req *http.Request) resp {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("reading body: %v", err)
	}
	return resp{res.StatusCode, res.Header, b}
}

func timeAt(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func newHTTPTest(s *Server) *httptest.Server { return httptest.NewServer(s.Handler()) }
