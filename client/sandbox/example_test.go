package sandbox_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client/sandbox"
)

// The public API as other packages use it: Start, URL, DemoKey, Close.
func TestPublicAPI(t *testing.T) {
	srv, err := sandbox.Start(sandbox.DefaultConfig(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL()+"/account", nil)
	req.Header.Set("Authorization", "Bearer "+sandbox.DemoKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var acct struct {
		BillingMode  string          `json:"billing_mode"`
		Credits      int64           `json:"credits"`
		Subscription json.RawMessage `json:"subscription"`
	}
	json.NewDecoder(res.Body).Decode(&acct)
	res.Body.Close()
	if acct.BillingMode != "prepaid" || acct.Credits != 25000 || string(acct.Subscription) == "null" {
		t.Errorf("demo account = %+v", acct)
	}
	if a, ok := srv.Account(sandbox.DemoKey); !ok || a.Credits != 25000 {
		t.Errorf("Account() = %+v", a)
	}
}

// A DNC job end to end on a handler mounted in httptest, with a webhook
// re-sent through retry-webhook.
func TestHandlerDNCAndRetryWebhook(t *testing.T) {
	var mu sync.Mutex
	var events []string
	got := make(chan struct{}, 10)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		events = append(events, r.Header.Get("X-Service-Event")+"#"+r.Header.Get("X-Service-Attempt"))
		mu.Unlock()
		got <- struct{}{}
	}))
	defer hook.Close()
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 3600}
	srv, err := sandbox.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if err := srv.AddKey(sandbox.KeyConfig{Key: "sk_hooked", Credits: 10, WebhookURL: hook.URL, WebhookSecret: "s"}); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	base := ts.URL + "/v1"

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "phones.csv")
	io.WriteString(fw, "Phone\r\n(212) 555-0147\r\nnot a phone\r\n")
	mw.WriteField("column_mapping", `{"phone":"Phone"}`)
	mw.Close()
	req, _ := http.NewRequest("POST", base+"/dnc", &body)
	req.Header.Set("Authorization", "Bearer sk_hooked")
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var created struct {
		ID string `json:"id"`
	}
	json.NewDecoder(res.Body).Decode(&created)
	res.Body.Close()
	if res.StatusCode != 201 || created.ID == "" {
		t.Fatalf("POST /dnc: %d", res.StatusCode)
	}
	srv.FinishPending()
	retry := func() int {
		req, _ := http.NewRequest("POST", base+"/dnc/"+created.ID+"/retry-webhook", nil)
		req.Header.Set("Authorization", "Bearer sk_hooked")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if code := retry(); code != 202 {
		t.Fatalf("retry-webhook: %d", code)
	}
	for range 2 {
		select {
		case <-got:
		case <-time.After(10 * time.Second):
			t.Fatal("webhook not received")
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(events) != 2 || events[0] != "dnc.completed#1" || events[1] != "dnc.completed#1" {
		t.Errorf("events = %v", events)
	}
	if ds := srv.Deliveries(); len(ds) != 2 || ds[0].ID == ds[1].ID {
		t.Errorf("deliveries = %+v", ds)
	}
}
