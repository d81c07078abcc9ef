package sandbox

import (
	"strconv"
	"testing"
	"time"
)

func TestMeteredAccount(t *testing.T) {
	cfg := testConfig()
	cfg.MatchRate = 1
	cfg.Keys = []KeyConfig{{Key: "sk_meter", BillingMode: "metered", MeteredThreshold: 10, CardLast4: "1881", Credits: 7,
		Subscription: &SubscriptionConfig{PlanID: "p", PlanName: "Pro", CreditsLimit: 1000}}}
	s := startT(t, cfg)
	a := get(t, s, "sk_meter", "/account").json(t)
	m, ok := a["metered"].(map[string]any)
	if !ok || a["billing_mode"] != "metered" || num(m, "threshold") != 10 || m["card_last4"] != "1881" || m["past_due"] != false || num(m, "unbilled_usage") != 0 {
		t.Fatalf("account = %v", a)
	}
	single := `{"first_name":"John","last_name":"Smith","address":"1 Main","city":"Austin","state":"TX","zip":"78701"}`
	for i := 1; i <= 9; i++ {
		if r := postJSON(t, s, "sk_meter", "/traces/single", single); r.status != 200 {
			t.Fatalf("single %d: %d %s", i, r.status, r.body)
		}
	}
	a = get(t, s, "sk_meter", "/account").json(t)
	if num(a["metered"].(map[string]any), "unbilled_usage") != 9 || num(a, "credits") != 7 {
		t.Errorf("after 9 credits of use: %v (credits stay unchanged)", a)
	}
	if num(a["subscription"].(map[string]any), "credits_used") != 9 {
		t.Errorf("credits_used = %v", a["subscription"])
	}
	postJSON(t, s, "sk_meter", "/traces/single", single)
	a = get(t, s, "sk_meter", "/account").json(t)
	if num(a["metered"].(map[string]any), "unbilled_usage") != 0 {
		t.Errorf("reaching the threshold charges the card and resets usage: %v", a["metered"])
	}
	// Past due: every charged POST gets 402; reads still work.
	s.SetPastDue("sk_meter", true)
	if r := postJSON(t, s, "sk_meter", "/traces/single", single); r.status != 402 || r.json(t)["code"] != "PAST_DUE" {
		t.Errorf("single while past due: %d %s", r.status, r.body)
	}
	if r := postForm(t, s, "sk_meter", "/traces", traceParts(ownersCSV, "o.csv", ownersMapping)...); r.status != 402 {
		t.Errorf("trace while past due: %d", r.status)
	}
	if r := postForm(t, s, "sk_meter", "/dnc", part{name: "file", filename: "p.csv", body: "phone\n2125550147\n"}, part{name: "column_mapping", body: `{"phone":"phone"}`}); r.status != 402 {
		t.Errorf("dnc while past due: %d", r.status)
	}
	if a := get(t, s, "sk_meter", "/account").json(t); a["metered"].(map[string]any)["past_due"] != true {
		t.Errorf("past_due not shown: %v", a)
	}
	if r := get(t, s, "sk_meter", "/traces"); r.status != 200 {
		t.Errorf("reads while past due: %d", r.status)
	}
}

func TestRateLimitWindows(t *testing.T) {
	clock := &fakeClock{t: timeAt("2026-03-01T10:00:15Z")}
	cfg := testConfig()
	cfg.Now = clock.Now
	cfg.RateLimits = RateLimits{ReadPerMinute: 5, WritePerMinute: 3}
	cfg.Keys = append(cfg.Keys, KeyConfig{Key: "sk_b"})
	s := startT(t, cfg)
	reset := strconv.FormatInt(timeAt("2026-03-01T10:01:00Z").Unix(), 10)
	for i := 1; i <= 3; i++ {
		r := get(t, s, DemoKey, "/pricing")
		if r.status != 200 {
			t.Fatalf("write-level request %d: %d", i, r.status)
		}
		h := r.header
		if h.Get("X-RateLimit-Limit") != "3" || h.Get("X-RateLimit-Remaining") != strconv.Itoa(3-i) || h.Get("X-RateLimit-Reset") != reset {
			t.Errorf("request %d headers: %v", i, h)
		}
	}
	r := get(t, s, DemoKey, "/account")
	if r.status != 429 || r.json(t)["code"] != "RATE_LIMITED" {
		t.Fatalf("4th write-level request: %d %s", r.status, r.body)
	}
	if r.header.Get("Retry-After") != "45" || r.header.Get("X-RateLimit-Remaining") != "0" || r.header.Get("X-RateLimit-Reset") != reset {
		t.Errorf("429 headers: %v", r.header)
	}
	// The read level has its own count, and so has another key.
	if g := get(t, s, DemoKey, "/traces"); g.status != 200 || g.header.Get("X-RateLimit-Limit") != "5" || g.header.Get("X-RateLimit-Remaining") != "4" {
		t.Errorf("read level: %d %v", g.status, g.header)
	}
	if g := get(t, s, "sk_b", "/pricing"); g.status != 200 {
		t.Errorf("another key: %d", g.status)
	}
	// Errors are counted too and carry the headers.
	if g := get(t, s, DemoKey, "/traces/trc_x"); g.status != 404 || g.header.Get("X-RateLimit-Remaining") != "3" {
		t.Errorf("404 headers: %v", g.header)
	}
	clock.Add(44 * time.Second) // 10:00:59
	if g := get(t, s, DemoKey, "/pricing"); g.status != 429 || g.header.Get("Retry-After") != "1" {
		t.Errorf("still in the window: %d %v", g.status, g.header)
	}
	clock.Add(time.Second) // 10:01:00: a new window
	g := get(t, s, DemoKey, "/pricing")
	if g.status != 200 || g.header.Get("X-RateLimit-Remaining") != "2" || g.header.Get("X-RateLimit-Reset") != strconv.FormatInt(timeAt("2026-03-01T10:02:00Z").Unix(), 10) {
		t.Errorf("new window: %d %v", g.status, g.header)
	}
}

func TestRateLimitLevels(t *testing.T) {
	cfg := testConfig()
	cfg.Processing.MinSeconds = 60
	s := startT(t, cfg)
	tr := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", ownersMapping)...)
	id := tr.json(t)["id"].(string)
	cases := []struct {
		method, path string
		limit        string
	}{
		{"GET", "/account", "120"}, {"GET", "/pricing", "120"}, {"POST", "/traces/single", "120"},
		{"POST", "/traces/" + id + "/retry-webhook", "120"}, {"POST", "/dnc", "120"},
		{"GET", "/traces", "1200"}, {"GET", "/traces/" + id, "1200"}, {"GET", "/traces/" + id + "/download", "1200"},
		{"GET", "/dnc", "1200"}, {"GET", "/dnc/dnc_x", "1200"}, {"GET", "/dnc/dnc_x/download", "1200"},
	}
	if tr.header.Get("X-RateLimit-Limit") != "120" {
		t.Errorf("POST /traces limit header %q", tr.header.Get("X-RateLimit-Limit"))
	}
	for _, c := range cases {
		r := do(t, c.method, s.URL()+c.path, DemoKey, nil, "")
		if r.header.Get("X-RateLimit-Limit") != c.limit {
			t.Errorf("%s %s (%d): limit %q, want %s", c.method, c.path, r.status, r.header.Get("X-RateLimit-Limit"), c.limit)
		}
	}
}

func TestRetryWebhookProcessingRefused(t *testing.T) {
	cfg := testConfig()
	cfg.Processing.MinSeconds = 60
	cfg.Keys[0].WebhookURL = "http://127.0.0.1:1/hook"
	s := startT(t, cfg)
	id := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", ownersMapping)...).json(t)["id"].(string)
	r := postJSON(t, s, DemoKey, "/traces/"+id+"/retry-webhook", "")
	if r.status != 409 || r.json(t)["code"] != "JOB_NOT_FINISHED" {
		t.Errorf("retry-webhook on a processing trace: %d %s", r.status, r.body)
	}
	did := postForm(t, s, DemoKey, "/dnc", part{name: "file", filename: "p.csv", body: "phone\n2125550147\n"}, part{name: "column_mapping", body: `{"phone":"phone"}`}).json(t)["id"].(string)
	if r := postJSON(t, s, DemoKey, "/dnc/"+did+"/retry-webhook", ""); r.status != 409 {
		t.Errorf("retry-webhook on a processing DNC job: %d %s", r.status, r.body)
	}
	if r := postJSON(t, s, DemoKey, "/dnc/dnc_nope/retry-webhook", ""); r.status != 404 {
		t.Errorf("unknown job: %d", r.status)
	}
}
