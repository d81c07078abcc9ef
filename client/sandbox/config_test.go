package sandbox

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseConfig(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{
		"rates": {"normal": 2, "enhanced": 5, "llc": 4, "dnc": 1},
		"record_limit": 100,
		"processing": {"min_seconds": 0.05},
		"match_rate": 0.25,
		"id_style": "plain",
		"webhook": {"retry_delays_seconds": [0.1, 0.2], "timeout_seconds": 1.5},
		"faults": {"error_rate": 0.1, "slow_ms": 5, "reset_downloads_after_bytes": 1000, "drop_create_responses": 1},
		"keys": [
			{"key": "sk_a", "email": "a@example.com", "billing_mode": "metered", "metered_threshold": 500,
			 "webhook_url": "http://127.0.0.1:9/h", "webhook_secret": "s",
			 "subscription": {"plan_id": "pro", "plan_name": "Pro", "credits_limit": 9000, "credits_used": 10,
			                  "current_period_end": "2027-01-01T00:00:00Z"}},
			{"key": "sk_b", "credits": 50, "banned": true, "past_due": true}
		]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Rates.LLC != 4 || cfg.RecordLimit != 100 || cfg.MatchRate != 0.25 || cfg.IDStyle != "plain" {
		t.Errorf("cfg = %+v", cfg)
	}
	if cfg.MaxUploadBytes != DefaultMaxUploadBytes || cfg.RateLimits.ReadPerMinute != 1200 || cfg.Processing.RowsPerSecond != 2000 {
		t.Errorf("absent fields keep the defaults: %+v", cfg)
	}
	if len(cfg.Webhook.RetryDelaysSeconds) != 2 || cfg.Webhook.MaxAttempts != 5 || cfg.Webhook.TimeoutSeconds != 1.5 {
		t.Errorf("webhook = %+v", cfg.Webhook)
	}
	if len(cfg.Keys) != 2 || cfg.Keys[0].Subscription.CreditsLimit != 9000 || !cfg.Keys[1].Banned || cfg.Faults.DropCreateResponses != 1 {
		t.Errorf("keys = %+v", cfg.Keys)
	}
	s := startT(t, cfg)
	a := get(t, s, "sk_a", "/account").json(t)
	if a["subscription"].(map[string]any)["current_period_end"] != "2027-01-01T00:00:00.000Z" {
		t.Errorf("account = %v", a)
	}
}

func TestParseConfigDefaultsAndErrors(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{}`))
	if err != nil || len(cfg.Keys) != 1 || cfg.Keys[0].Key != DemoKey || len(cfg.Webhook.RetryDelaysSeconds) != 5 {
		t.Fatalf("empty config: %+v %v", cfg, err)
	}
	bad := map[string]string{
		"unknown field":       `{"rate_limit": {}}`,
		"syntax":              "{\n\"rates\": {,}\n}",
		"trailing":            `{} {}`,
		"match_rate":          `{"match_rate": 2}`,
		"id_style":            `{"id_style": "short"}`,
		"billing_mode":        `{"keys": [{"key": "k", "billing_mode": "free"}]}`,
		"blank key":           `{"keys": [{"key": " "}]}`,
		"duplicate key":       `{"keys": [{"key": "k"}, {"key": "k"}]}`,
		"webhook url":         `{"keys": [{"key": "k", "webhook_url": "ftp://x"}]}`,
		"negative rate":       `{"rates": {"normal": -1}}`,
		"negative delay":      `{"webhook": {"retry_delays_seconds": [-1]}}`,
		"error_rate":          `{"faults": {"error_rate": 1.5}}`,
		"wrong type":          `{"record_limit": "many"}`,
		"negative processing": `{"processing": {"min_seconds": -1}}`,
	}
	for name, text := range bad {
		if _, err := ParseConfig([]byte(text)); err == nil {
			t.Errorf("%s: no error for %s", name, text)
		}
	}
	if _, err := ParseConfig([]byte("{\n\"rates\": {,}\n}")); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("syntax errors name the line: %v", err)
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sandbox.json")
	os.WriteFile(p, []byte(`{"match_rate": 0.5}`), 0o600)
	cfg, err := LoadConfig(p)
	if err != nil || cfg.MatchRate != 0.5 {
		t.Fatalf("%+v %v", cfg, err)
	}
	if _, err := LoadConfig(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file")
	}
	os.WriteFile(p, []byte(`{"match_rate": 3}`), 0o600)
	if _, err := LoadConfig(p); err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("errors name the file: %v", err)
	}
}

func TestStartErrors(t *testing.T) {
	if _, err := Start(Config{MatchRate: -1}, "127.0.0.1:0"); err == nil {
		t.Error("invalid config accepted")
	}
	if _, err := Start(DefaultConfig(), "256.0.0.1:99999"); err == nil {
		t.Error("bad address accepted")
	}
	// A zero Config works: defaults fill in, no keys.
	s, err := Start(Config{}, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") || !strings.HasSuffix(s.URL(), "/v1") {
		t.Errorf("URL %q", s.URL())
	}
	if err := s.AddKey(KeyConfig{Key: "sk_new", Credits: 5}); err != nil {
		t.Fatal(err)
	}
	if err := s.AddKey(KeyConfig{Key: "sk_new"}); err == nil {
		t.Error("duplicate key accepted")
	}
	if r := get(t, s, "sk_new", "/account"); r.status != 200 || num(r.json(t), "credits") != 5 {
		t.Errorf("added key: %d %s", r.status, r.body)
	}
	if err := s.Close(); err != nil {
		t.Error(err)
	}
	if err := s.Close(); err != nil {
		t.Error("second Close:", err)
	}
}

// Handler can be mounted in httptest; download_url follows the request host.
func TestHandlerInHTTPTest(t *testing.T) {
	s, err := New(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts := newHTTPTest(s)
	defer ts.Close()
	r := do(t, "GET", ts.URL+"/v1/pricing", DemoKey, nil, "")
	if r.status != 200 {
		t.Fatalf("%d", r.status)
	}
	body, ct := multipartBody(t, traceParts(ownersCSV, "o.csv", ownersMapping)...)
	id := do(t, "POST", ts.URL+"/v1/traces", DemoKey, body, ct).json(t)["id"].(string)
	s.FinishPending()
	j := do(t, "GET", ts.URL+"/v1/traces/"+id, DemoKey, nil, "").json(t)
	if j["download_url"] != ts.URL+"/v1/traces/"+id+"/download" {
		t.Errorf("download_url = %v", j["download_url"])
	}
}

// The last-resort recover answers 500 in the plain shape and counts the panic.
func TestRecoverAnswers500(t *testing.T) {
	s, err := New(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.hook = func(r *http.Request) {
		if r.URL.Path == "/v1/pricing" {
			panic("boom")
		}
	}
	ts := newHTTPTest(s)
	defer ts.Close()
	r := do(t, "GET", ts.URL+"/v1/pricing", DemoKey, nil, "")
	if r.status != 500 || r.json(t)["code"] != "INTERNAL_ERROR" || s.Panics() != 1 {
		t.Errorf("%d %s, panics %d", r.status, r.body, s.Panics())
	}
	if r := do(t, "GET", ts.URL+"/v1/account", DemoKey, nil, ""); r.status != 200 {
		t.Errorf("the server keeps serving: %d", r.status)
	}
}

// TestUnplugReplug: an unplugged server refuses connections at its
// address; plugged in again it answers there with the state it had.
func TestUnplugReplug(t *testing.T) {
	s := startT(t, testConfig())
	if err := s.SetCredits(DemoKey, 123); err != nil {
		t.Fatal(err)
	}
	if err := s.Unplug(); err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Timeout: 5 * time.Second}
	if res, err := c.Get(s.URL() + "/account"); err == nil {
		res.Body.Close()
		t.Fatal("an unplugged server answered")
	}
	if err := s.Unplug(); err != nil {
		t.Errorf("unplugging twice: %v", err)
	}
	if err := s.Replug(); err != nil {
		t.Fatal(err)
	}
	if r := get(t, s, DemoKey, "/account"); r.status != 200 || num(r.json(t), "credits") != 123 {
		t.Errorf("after Replug: %d %s", r.status, r.body)
	}
}
