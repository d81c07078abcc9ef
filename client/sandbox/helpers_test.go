package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
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
