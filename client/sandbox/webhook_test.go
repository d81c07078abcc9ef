package sandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

type hit struct {
	header http.Header
	body   []byte
	at     time.Time
}

// receiver answers failFirst attempts with 500, then 200.
type receiver struct {
	mu        sync.Mutex
	hits      []hit
	failFirst int
	got       chan struct{}
}

func newReceiver(t *testing.T, failFirst int) (*receiver, *httptest.Server) {
	rc := &receiver{failFirst: failFirst, got: make(chan struct{}, 100)}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		rc.hits = append(rc.hits, hit{r.Header.Clone(), b, time.Now()})
		n := len(rc.hits)
		rc.mu.Unlock()
		if n <= rc.failFirst {
			w.WriteHeader(500)
		} else {
			w.Write([]byte(`{"received":true}`))
		}
		rc.got <- struct{}{}
	}))
	t.Cleanup(ts.Close)
	return rc, ts
}

func (rc *receiver) wait(t *testing.T, n int) []hit {
	t.Helper()
	for range n {
		select {
		case <-rc.got:
		case <-time.After(10 * time.Second):
			t.Fatalf("webhook attempt not received")
		}
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]hit(nil), rc.hits...)
}

func TestWebhookDeliveryRetriesAndSignature(t *testing.T) {
	rc, ts := newReceiver(t, 2)
	cfg := testConfig()
	cfg.Webhook.RetryDelaysSeconds = []float64{0.05, 0.1, 1, 1, 1}
	cfg.Keys[0].WebhookURL = ts.URL + "/hook"
	cfg.Keys[0].WebhookSecret = "whsec_test"
	s := startT(t, cfg)
	id := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", ownersMapping, part{name: "include_llcs", body: "true"})...).json(t)["id"].(string)
	hits := rc.wait(t, 3)
	get1 := get(t, s, DemoKey, "/traces/"+id)
	ids := map[string]bool{}
	for i, h := range hits {
		mac := hmac.New(sha256.New, []byte("whsec_test"))
		mac.Write(h.body)
		if got := h.header.Get("X-Service-Signature"); !hmac.Equal([]byte(got), []byte(hex.EncodeToString(mac.Sum(nil)))) {
			t.Errorf("attempt %d: bad signature %q", i+1, got)
		}
		if h.header.Get("X-Service-Event") != "trace.completed" || h.header.Get("X-Service-Attempt") != strconv.Itoa(i+1) {
			t.Errorf("attempt %d headers: %v", i+1, h.header)
		}
		did := h.header.Get("X-Service-Delivery-Id")
		if len(did) < 5 || did[:4] != "whd_" || ids[did] {
			t.Errorf("attempt %d: delivery id %q must be whd_ and unique per attempt", i+1, did)
		}
		ids[did] = true
		var env struct {
			Event string          `json:"event"`
			Data  json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(h.body, &env); err != nil || env.Event != "trace.completed" {
			t.Fatalf("envelope %s", h.body)
		}
		if string(env.Data)+"\n" != string(get1.body) {
			t.Errorf("data differs from GET by id:\n%s\n%s", env.Data, get1.body)
		}
		if string(h.body) != string(hits[0].body) {
			t.Errorf("every attempt carries the same body")
		}
	}
	// Spacing follows retry_delays_seconds (lower bounds only: timers never fire early).
	if d := hits[1].at.Sub(hits[0].at); d < 50*time.Millisecond {
		t.Errorf("attempt 2 came %v after attempt 1, want >= 50ms", d)
	}
	if d := hits[2].at.Sub(hits[1].at); d < 100*time.Millisecond {
		t.Errorf("attempt 3 came %v after attempt 2, want >= 100ms", d)
	}
	waitDelivery(t, s, "delivered")
	ds := s.Deliveries()
	if len(ds) != 1 || len(ds[0].Attempts) != 3 || ds[0].Attempts[2].StatusCode != 200 || ds[0].ID != hits[0].header.Get("X-Service-Delivery-Id") {
		t.Errorf("deliveries = %+v", ds)
	}

	// retry-webhook queues a fresh delivery: attempt numbering restarts at 1.
	r := postJSON(t, s, DemoKey, "/traces/"+id+"/retry-webhook", "")
	if r.status != 202 {
		t.Fatalf("retry-webhook: %d %s", r.status, r.body)
	}
	m := r.json(t)
	if m["status"] != "pending" || num(m, "attempt") != 1 || m["delivery_id"] == ds[0].ID {
		t.Errorf("retry-webhook body %s", r.body)
	}
	h := rc.wait(t, 1)[3]
	if h.header.Get("X-Service-Attempt") != "1" || h.header.Get("X-Service-Delivery-Id") != m["delivery_id"] || string(h.body) != string(hits[0].body) {
		t.Errorf("re-sent delivery: %v", h.header)
	}
	if j := get(t, s, DemoKey, "/traces/"+id).json(t); num(j, "credits_refunded") != num(get1.json(t), "credits_refunded") {
		t.Errorf("retry-webhook must not recompute credits")
	}
}

func waitDelivery(t *testing.T, s *Server, status string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		changed := s.DeliveriesChanged()
		if ds := s.Deliveries(); len(ds) > 0 && ds[len(ds)-1].Status == status {
			return
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatalf("no delivery reached %s: %+v", status, s.Deliveries())
		}
	}
}

func TestWebhookGivesUpAfterMaxAttempts(t *testing.T) {
	rc, ts := newReceiver(t, 100)
	cfg := testConfig()
	cfg.Keys[0].WebhookURL = ts.URL
	s := startT(t, cfg)
	r := postForm(t, s, DemoKey, "/dnc", part{name: "file", filename: "FAILJOB.csv", body: "phone\n2125550147\n"}, part{name: "column_mapping", body: `{"phone":"phone"}`})
	id := r.json(t)["id"].(string)
	hits := rc.wait(t, 5)
	waitDelivery(t, s, "failed")
	if len(hits) != 5 || hits[4].header.Get("X-Service-Attempt") != "5" || hits[0].header.Get("X-Service-Event") != "dnc.failed" {
		t.Errorf("%d attempts", len(hits))
	}
	var env struct {
		Data map[string]any `json:"data"`
	}
	json.Unmarshal(hits[0].body, &env)
	if env.Data["status"] != "failed" || env.Data["download_url"] != nil || env.Data["error_message"] == nil || env.Data["id"] != id {
		t.Errorf("dnc.failed data %v", env.Data)
	}
	select {
	case <-rc.got:
		t.Error("a sixth attempt was made")
	case <-time.After(100 * time.Millisecond):
	}
}

// A receiver slower than timeout_seconds counts as a failed attempt.
func TestWebhookTimeout(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	attempts := 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		attempts++
		n := attempts
		mu.Unlock()
		if n == 1 {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
	}))
	defer ts.Close()
	defer close(release)
	cfg := testConfig()
	cfg.Webhook.TimeoutSeconds = 0.1
	cfg.Keys[0].WebhookURL = ts.URL
	s := startT(t, cfg)
	postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", ownersMapping)...)
	waitDelivery(t, s, "delivered")
	ds := s.Deliveries()
	if len(ds[0].Attempts) != 2 || ds[0].Attempts[0].Err == "" || ds[0].Attempts[1].StatusCode != 200 {
		t.Errorf("attempts %+v", ds[0].Attempts)
	}
}

// Close stops deliveries waiting for their next attempt, and webhooks never
// hold up request handling.
func TestCloseStopsPendingDeliveries(t *testing.T) {
	rc, ts := newReceiver(t, 100)
	cfg := testConfig()
	cfg.Webhook.RetryDelaysSeconds = []float64{3600}
	cfg.Keys[0].WebhookURL = ts.URL
	s, err := Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", ownersMapping)...)
	rc.wait(t, 1)
	if r := get(t, s, DemoKey, "/traces"); r.status != 200 {
		t.Errorf("list during a pending delivery: %d", r.status)
	}
	done := make(chan struct{})
	go func() { s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close waited for the pending delivery")
	}
	if ds := s.Deliveries(); ds[0].Status != "cancelled" {
		t.Errorf("delivery status %q", ds[0].Status)
	}
}

func TestRetryWebhookWithoutURL(t *testing.T) {
	s := startT(t, testConfig())
	id := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", ownersMapping)...).json(t)["id"].(string)
	s.FinishPending()
	if r := postJSON(t, s, DemoKey, "/traces/"+id+"/retry-webhook", ""); r.status != 422 || r.json(t)["code"] != "WEBHOOK_NOT_CONFIGURED" {
		t.Errorf("%d %s", r.status, r.body)
	}
	// Set one: the retry is queued (to an unreachable port: it fails quietly).
	s.SetWebhook(DemoKey, "http://127.0.0.1:1/x", "sec")
	if r := postJSON(t, s, DemoKey, "/traces/"+id+"/retry-webhook", ""); r.status != 202 {
		t.Errorf("%d %s", r.status, r.body)
	}
}
