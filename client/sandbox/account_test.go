package sandbox

import (
	"testing"
)

func TestAccountAndPricing(t *testing.T) {
	s := startT(t, testConfig())
	r := get(t, s, DemoKey, "/account")
	if r.status != 200 {
		t.Fatalf("GET /account: %d %s", r.status, r.body)
	}
	m := r.json(t)
	if m["billing_mode"] != "prepaid" || m["credits"] != float64(25000) || m["metered"] != nil {
		t.Errorf("account = %s", r.body)
	}
	sub, ok := m["subscription"].(map[string]any)
	if !ok || sub["plan_id"] == "" || sub["current_period_end"] == nil {
		t.Errorf("subscription = %v", m["subscription"])
	}
	r = get(t, s, DemoKey, "/pricing")
	rates := r.json(t)["rates"].(map[string]any)
	for _, k := range []string{"normal", "enhanced", "llc", "dnc"} {
		if _, ok := rates[k].(float64); !ok {
			t.Errorf("rates.%s missing: %s", k, r.body)
		}
	}
}

func TestAuth(t *testing.T) {
	cfg := testConfig()
	cfg.Keys = append(cfg.Keys, KeyConfig{Key: "sk_banned", Banned: true})
	s := startT(t, cfg)
	cases := []struct {
		name, key string
		status    int
		code      string
	}{
		{"missing", "", 401, "UNAUTHORIZED"},
		{"invalid", "sk_nope", 401, "UNAUTHORIZED"},
		{"banned", "sk_banned", 403, "ACCOUNT_BANNED"},
		{"ok", DemoKey, 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := get(t, s, c.key, "/account")
			if r.status != c.status {
				t.Fatalf("status %d, want %d: %s", r.status, c.status, r.body)
			}
			if c.code != "" {
				m := r.json(t)
				if m["code"] != c.code || m["error"] == "" {
					t.Errorf("body %s, want plain shape with code %s", r.body, c.code)
				}
			}
		})
	}
}
