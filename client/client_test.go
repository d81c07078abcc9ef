package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestNewBaseURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string // want "" = rejected
	}{
		{"https://api.example.com/v1", "https://api.example.com/v1/"},
		{"https://api.example.com/v1/", "https://api.example.com/v1/"},
		{"  https://api.example.com/v1?x=1#f ", "https://api.example.com/v1/"},
		{"http://127.0.0.1:8787/v1", "http://127.0.0.1:8787/v1/"},
		{"http://127.9.9.9/v1", "http://127.9.9.9/v1/"},
		{"http://localhost:1/v1", "http://localhost:1/v1/"},
		{"http://LOCALHOST/v1", "http://LOCALHOST/v1/"},
		{"http://[::1]:9/v1", "http://[::1]:9/v1/"},
		{"http://api.example.com/v1", ""},
		{"http://10.0.0.1/v1", ""},
		{"http://localhost.evil.com/v1", ""},
		{"ftp://127.0.0.1/v1", ""},
		{"api.example.com/v1", ""},
		{"https:///v1", ""},
		{"https://user:pw@api.example.com/v1", ""},
		{"", ""},
		{"://bad", ""},
	}
	for _, tt := range tests {
		c, err := New(tt.in, "k")
		if tt.want == "" {
			if err == nil {
				t.Errorf("New(%q) accepted", tt.in)
			} else if strings.Contains(err.Error(), "pw") {
				t.Errorf("New(%q) error shows the password: %v", tt.in, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("New(%q): %v", tt.in, err)
			continue
		}
		if c.BaseURL() != tt.want {
			t.Errorf("New(%q).BaseURL() = %q, want %q", tt.in, c.BaseURL(), tt.want)
		}
	}
	for _, key := range []string{"", "sk live", "sk\nlive", "sk\x7f"} {
		if _, err := New("https://api.example.com/v1", key); err == nil {
			t.Errorf("key %q accepted", key)
		}
	}
}

func TestRequestShape(t *testing.T) {
	t.Parallel()
	s := newScripted(t, reply(200, nil, `{"rates":{"normal":1,"enhanced":3,"llc":2,"dnc":1,"gold":9}}`))
	c := s.client(t, WithUserAgent("test/1"))
	p, err := c.Pricing(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if string(p.Rates.Extra["gold"]) != "9" {
		t.Errorf("unknown rate lost: %+v", p.Rates)
	}
	r := s.request(0)
	if r.Method != "GET" || r.URL.Path != "/v1/pricing" || r.Header.Get("Authorization") != "Bearer "+testKey ||
		r.Header.Get("User-Agent") != "test/1" || r.Header.Get("Accept") != "application/json" {
		t.Errorf("request %s %s %v", r.Method, r.URL, r.Header)
	}
}

func TestIDsAreEscapedAndUsedAsGiven(t *testing.T) {
	t.Parallel()
	s := newScripted(t, reply(200, nil, `{"id":"x"}`))
	c := s.client(t)
	ctx := context.Background()
	ids := []string{"trc_abc", "12345", "a/b", "../account", "a b?c#d", "%2F"}
	for _, id := range ids {
		if _, err := c.Traces.Get(ctx, id); err != nil {
			t.Fatalf("%q: %v", id, err)
		}
	}
	for i, id := range ids {
		r := s.request(i)
		want := "/v1/traces/" + id
		if r.URL.Path != want || strings.Count(r.URL.EscapedPath(), "/") != 3 {
			t.Errorf("id %q sent as %q (escaped %q)", id, r.URL.Path, r.URL.EscapedPath())
		}
	}
	if _, err := c.Traces.Get(ctx, " "); err == nil {
		t.Error("blank id accepted")
	}
	if _, err := c.DNC.Download(ctx, "", "x", nil); err == nil {
		t.Error("blank id accepted")
	}
}

func TestListQuery(t *testing.T) {
	t.Parallel()
	s := newScripted(t, reply(200, nil, `{"_metadata":{"page":2,"per_page":5,"page_count":2,"total_count":6},"traces":[{"id":"t6","status":"archived"}]}`))
	c := s.client(t)
	l, err := c.Traces.List(context.Background(), &TraceListOptions{Page: 2, Limit: 5, Type: TypeSingle})
	if err != nil {
		t.Fatal(err)
	}
	if q := s.request(0).URL.Query(); q.Get("page") != "2" || q.Get("limit") != "5" || q.Get("type") != "single" {
		t.Errorf("query %v", q)
	}
	if l.Traces[0].Status != "archived" || l.Traces[0].Status.Final() {
		t.Errorf("unknown status: %+v", l.Traces[0])
	}
	if _, err := c.DNC.List(context.Background(), &ListOptions{}); err != nil {
		t.Fatal(err)
	}
	if q := s.request(1).URL.RawQuery; q != "" {
		t.Errorf("zero options sent %q", q)
	}
}

func TestAllStopsOnError(t *testing.T) {
	t.Parallel()
	page := func(p, count int, ids ...string) http.HandlerFunc {
		items := make([]string, len(ids))
		for i, id := range ids {
			items[i] = `{"id":"` + id + `"}`
		}
		return reply(200, nil, fmt.Sprintf(`{"_metadata":{"page":%d,"per_page":2,"page_count":%d,"total_count":5},"jobs":[%s]}`, p, count, strings.Join(items, ",")))
	}
	s := newScripted(t, page(1, 3, "a", "b"), page(2, 3, "c", "d"), reply(404, nil, `{"error":"gone"}`))
	c := s.client(t)
	var got []string
	var gotErr error
	for j, err := range c.DNC.All(context.Background(), &ListOptions{Limit: 2}) {
		if err != nil {
			gotErr = err
			continue
		}
		got = append(got, j.ID)
	}
	if strings.Join(got, "") != "abcd" || !errors.Is(gotErr, ErrNotFound) {
		t.Fatalf("got %v, %v", got, gotErr)
	}
	// An empty page ends the walk even if page_count says otherwise.
	s2 := newScripted(t, reply(200, nil, `{"_metadata":{"page":1,"page_count":99},"traces":[]}`))
	n := 0
	for range s2.client(t).Traces.All(context.Background(), nil) {
		n++
	}
	if n != 0 || s2.hits.Load() != 1 {
		t.Fatalf("empty page: %d items, %d requests", n, s2.hits.Load())
	}
}

func TestUnknownMembersKept(t *testing.T) {
	t.Parallel()
	body := `{"id":"trc_1","status":"queued","mode":"turbo","new_field":{"a":[1,2]},"breakdown":null,` +
		`"download_url":null,"created_at":"2026-01-02T03:04:05.678Z","completed_at":null}`
	var tr Trace
	if err := json.Unmarshal([]byte(body), &tr); err != nil {
		t.Fatal(err)
	}
	if tr.Status != "queued" || tr.Mode != "turbo" || string(tr.Extra["new_field"]) != `{"a":[1,2]}` || len(tr.Extra) != 1 {
		t.Fatalf("trace = %+v", tr)
	}
	var v map[string][]int
	if !tr.Extra.Get("new_field", &v) || len(v["a"]) != 2 || tr.Extra.Get("missing", &v) {
		t.Fatalf("Extra.Get: %v", v)
	}
	out, err := json.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `"new_field":{"a":[1,2]}`) || strings.Contains(string(out), "completed_at") {
		t.Fatalf("re-encoded: %s", out)
	}
	var back Trace
	if err := json.Unmarshal(out, &back); err != nil || string(back.Extra["new_field"]) != `{"a":[1,2]}` || !back.CreatedAt.Equal(tr.CreatedAt) {
		t.Fatalf("round trip: %+v %v", back, err)
	}
	for _, v := range []any{&Account{}, &Subscription{}, &Metered{}, &Rates{}, &TraceCreated{}, &DNCJob{}, &DNCCreated{}, &SingleTraceResult{}, &WebhookDelivery{}} {
		if err := json.Unmarshal([]byte(`{"zz_new":true}`), v); err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		out, _ := json.Marshal(v)
		if !strings.Contains(string(out), `"zz_new":true`) {
			t.Errorf("%T lost the unknown member: %s", v, out)
		}
		if err := json.Unmarshal([]byte(`[1]`), v); err == nil {
			t.Errorf("%T accepted an array", v)
		}
	}
	var a Account
	if err := json.Unmarshal([]byte(`{"metered":{"threshold":5,"extra_fee":1},"subscription":{"plan_id":"p","x":2}}`), &a); err != nil ||
		string(a.Metered.Extra["extra_fee"]) != "1" || string(a.Subscription.Extra["x"]) != "2" {
		t.Fatalf("nested extras: %+v %v", a, err)
	}
}

func TestMalformedSuccessBody(t *testing.T) {
	t.Parallel()
	s := newScripted(t, reply(200, nil, `{"id": "trc_1", "status": `))
	_, err := s.client(t).Traces.Get(context.Background(), "trc_1")
	if err == nil || !strings.Contains(err.Error(), "decoding") || s.hits.Load() != 1 {
		t.Fatalf("err %v after %d requests", err, s.hits.Load())
	}
}

func TestRetryDelays(t *testing.T) {
	t.Parallel()
	p := RetryPolicy{MaxRetries: 3, BaseDelay: 100 * time.Millisecond, MaxDelay: 300 * time.Millisecond,
		MaxRetryAfter: time.Second, Budget: 2 * time.Second}.withDefaults()
	r := retrier{p: p}
	for n, max := range []time.Duration{100, 200, 300, 300} {
		max *= time.Millisecond
		for range 50 {
			if d := p.backoff(n); d < max/2 || d > max {
				t.Fatalf("backoff(%d) = %v, want in [%v, %v]", n, d, max/2, max)
			}
		}
	}
	if d, ok := r.next(700 * time.Millisecond); !ok || d != 700*time.Millisecond {
		t.Errorf("Retry-After 700ms: %v %v", d, ok)
	}
	if d, ok := r.next(time.Hour); !ok || d != time.Second {
		t.Errorf("huge Retry-After not capped: %v", d)
	}
	r.waited = 1900 * time.Millisecond
	if _, ok := r.next(time.Second); ok {
		t.Error("budget ignored")
	}
	r = retrier{p: p, retries: 3}
	if _, ok := r.next(0); ok {
		t.Error("retry count ignored")
	}
	if got := (RetryPolicy{MaxRetries: -1}).withDefaults(); got.MaxRetries != 0 || got.BaseDelay == 0 {
		t.Errorf("withDefaults = %+v", got)
	}
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
	}{
		{"", 0},
		{"3", 3 * time.Second},
		{" 120 ", 2 * time.Minute},
		{"0", 0},
		{"-5", 0},
		{"soon", 0},
		{"1.5", 0},
		{"99999999", 24 * time.Hour},
		{"999999999999999999999999", 24 * time.Hour},
		{"-999999999999999999999999", 0},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second},
		{now.Add(-time.Hour).Format(http.TimeFormat), 0},
		{now.Add(72 * time.Hour).Format(http.TimeFormat), 24 * time.Hour},
		{"Mon, 32 Foo 2026 99:00:00 GMT", 0},
	}
	for _, tt := range tests {
		if got := parseRetryAfter(tt.in, now); got != tt.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestGETRetries429WithEveryRetryAfterForm(t *testing.T) {
	t.Parallel()
	for _, ra := range []string{"1", time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat), "-3", "later", "86400000", ""} {
		t.Run(ra, func(t *testing.T) {
			s := newScripted(t,
				reply(429, map[string]string{"Retry-After": ra}, `{"error":"rate limit exceeded","code":"RATE_LIMITED"}`),
				reply(429, map[string]string{"Retry-After": ra}, `{"error":"rate limit exceeded","code":"RATE_LIMITED"}`),
				reply(200, nil, `{"credits":7}`))
			a, err := s.client(t).Account(context.Background())
			if err != nil || a.Credits != 7 || s.hits.Load() != 3 {
				t.Fatalf("account %+v, %v, %d requests", a, err, s.hits.Load())
			}
		})
	}
}

func Test503Burst(t *testing.T) {
	t.Parallel()
	unavailable := reply(503, map[string]string{"Retry-After": "1"}, `{"error":"unavailable","code":"SERVICE_UNAVAILABLE"}`)
	s := newScripted(t, unavailable, unavailable, unavailable, reply(200, nil, `{"rates":{"normal":1}}`))
	if _, err := s.client(t).Pricing(context.Background()); err != nil || s.hits.Load() != 4 {
		t.Fatalf("%v after %d", err, s.hits.Load())
	}
	// A burst longer than the retry count gives the last error.
	s = newScripted(t, unavailable)
	_, err := s.client(t).Pricing(context.Background())
	var ae *APIError
	if !errors.As(err, &ae) || !errors.Is(err, ErrServer) || ae.RetryAfter != time.Second || ae.Code != "SERVICE_UNAVAILABLE" {
		t.Fatalf("err %#v", err)
	}
	if n := s.hits.Load(); n != int32(fastRetry().MaxRetries+1) {
		t.Fatalf("%d requests, want %d", n, fastRetry().MaxRetries+1)
	}
	// 501 is not transient.
	s = newScripted(t, reply(501, nil, ""))
	if _, err := s.client(t).Pricing(context.Background()); !errors.Is(err, ErrServer) || s.hits.Load() != 1 {
		t.Fatalf("501: %v after %d", err, s.hits.Load())
	}
	// 4xx are never retried.
	s = newScripted(t, reply(404, nil, `{"error":"no"}`))
	if _, err := s.client(t).Traces.Get(context.Background(), "x"); !errors.Is(err, ErrNotFound) || s.hits.Load() != 1 {
		t.Fatalf("404: %v after %d", err, s.hits.Load())
	}
}

func TestGETRetriesNetworkErrors(t *testing.T) {
	t.Parallel()
	s := newScripted(t, drop, func(w http.ResponseWriter, r *http.Request) {
		// Headers, then half the body, then the connection drops.
		hijackClose(w, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{\"credits\":")
	}, reply(200, nil, `{"credits":3}`))
	a, err := s.client(t).Account(context.Background())
	if err != nil || a.Credits != 3 || s.hits.Load() != 3 {
		t.Fatalf("%+v %v after %d", a, err, s.hits.Load())
	}
	// Persistent failure: a TransportError, not an outcome-unknown one.
	s = newScripted(t, drop)
	_, err = s.client(t).Account(context.Background())
	var te *TransportError
	if !errors.As(err, &te) || errors.Is(err, ErrOutcomeUnknown) || strings.Contains(err.Error(), testKey) {
		t.Fatalf("err %v", err)
	}
}

func TestRetryWebhookFollowsReadPolicy(t *testing.T) {
	t.Parallel()
	s := newScripted(t, reply(502, nil, "<html><title>Bad gateway</title></html>"), reply(200, nil, `{"delivery_id":"whd_1","attempt":2,"status":"pending"}`))
	d, err := s.client(t).DNC.RetryWebhook(context.Background(), "dnc_1")
	if err != nil || d.DeliveryID != "whd_1" || s.hits.Load() != 2 || s.request(1).Method != "POST" || s.request(1).URL.Path != "/v1/dnc/dnc_1/retry-webhook" {
		t.Fatalf("%+v %v", d, err)
	}
}

func TestContextCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	s := newScripted(t, reply(503, map[string]string{"Retry-After": "30"}, ""))
	c := s.client(t, WithRetryPolicy(RetryPolicy{MaxRetryAfter: time.Minute}))
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Pricing(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("returned after %v: the backoff ignored the context", d)
	}
	if s.hits.Load() != 1 {
		t.Fatalf("%d requests", s.hits.Load())
	}
	// A deadline shorter than the wait: the error comes back at once.
	ctx, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel2()
	_, err = c.Pricing(ctx)
	if !errors.Is(err, ErrServer) || ctx.Err() != nil {
		t.Fatalf("err %v (ctx %v)", err, ctx.Err())
	}
}

func TestChargedPOSTNeverResentAfterSending(t *testing.T) {
	t.Parallel()
	calls := chargedCalls(t)
	faults := []struct {
		name    string
		step    http.HandlerFunc
		unknown bool
		is      error
	}{
		{"connection dropped after reading", drop, true, nil},
		{"201 body cut short", func(w http.ResponseWriter, r *http.Request) {
			drainBody(r)
			hijackClose(w, "HTTP/1.1 201 Created\r\nContent-Length: 50\r\n\r\n{\"id\":\"trc_")
		}, true, nil},
		{"201 body not JSON", reply(201, nil, `<html>created</html>`), true, nil},
		{"500", reply(500, nil, `{"error":"internal"}`), true, ErrServer},
		{"503 with Retry-After", reply(503, map[string]string{"Retry-After": "1"}, ""), true, ErrServer},
		{"502 HTML", reply(502, map[string]string{"Content-Type": "text/html"}, "<html><title>502 Bad Gateway</title></html>"), true, ErrServer},
		{"400", reply(400, nil, `{"error":"bad mapping","details":["x"]}`), false, ErrBadRequest},
		{"402", reply(402, nil, `{"error":"insufficient credits","code":"INSUFFICIENT_CREDITS"}`), false, ErrInsufficientCredits},
		{"413", reply(413, nil, `{"error":"too large"}`), false, ErrTooLarge},
		{"422", reply(422, nil, `{"error":"too many rows"}`), false, ErrUnprocessable},
	}
	for name, call := range calls {
		for _, f := range faults {
			t.Run(name+"/"+f.name, func(t *testing.T) {
				s := newScripted(t, f.step)
				err := call(s.client(t))
				if s.hits.Load() != 1 {
					t.Fatalf("%d requests reached the server, want exactly 1", s.hits.Load())
				}
				if errors.Is(err, ErrOutcomeUnknown) != f.unknown {
					t.Fatalf("errors.Is(err, ErrOutcomeUnknown) = %v, want %v: %v", !f.unknown, f.unknown, err)
				}
				if f.is != nil && !errors.Is(err, f.is) {
					t.Fatalf("err %v is not %v", err, f.is)
				}
				if strings.Contains(err.Error(), testKey) {
					t.Fatalf("key in error: %v", err)
				}
			})
		}
	}
}

func drainBody(r *http.Request) {
	buf := make([]byte, 32<<10)
	for {
		if _, err := r.Body.Read(buf); err != nil {
			return
		}
	}
}

// A 429 to a charged POST is a definite refusal (nothing charged), but the
// request reached the server: it is not resent. The caller gets the 429
// with its Retry-After.
func TestChargedPOSTNotResentOn429(t *testing.T) {
	t.Parallel()
	for name, call := range chargedCalls(t) {
		t.Run(name, func(t *testing.T) {
			s := newScripted(t, reply(429, map[string]string{"Retry-After": "7"}, `{"error":"slow down","code":"RATE_LIMITED"}`),
				reply(201, nil, `{"id":"x_1","matched":true,"credits":1}`))
			err := call(s.client(t))
			var ae *APIError
			if !errors.As(err, &ae) || !errors.Is(err, ErrRateLimited) || errors.Is(err, ErrOutcomeUnknown) || ae.RetryAfter != 7*time.Second {
				t.Fatalf("err %v", err)
			}
			if s.hits.Load() != 1 {
				t.Fatalf("%d requests reached the server, want 1", s.hits.Load())
			}
		})
	}
}

func TestChargedPOSTRetriedWhenNeverSent(t *testing.T) {
	t.Parallel()
	s := newScripted(t, reply(201, nil, `{"id":"dnc_1","status":"processing"}`))
	tr := newTransport()
	dial := tr.DialContext
	dials := 0
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		dials++
		if dials <= 2 {
			return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("connection refused")}
		}
		return dial(ctx, network, addr)
	}
	c := s.client(t, WithHTTPClient(&http.Client{Transport: tr}))
	phones := writeFile(t, t.TempDir(), "p.csv", "Phone\n2125550147\n")
	got, err := c.DNC.Create(context.Background(), &DNCUpload{Path: phones, PhoneColumn: "Phone"})
	if err != nil || got.ID != "dnc_1" || s.hits.Load() != 1 || dials != 3 {
		t.Fatalf("%+v %v, %d requests, %d dials", got, err, s.hits.Load(), dials)
	}
	// Nothing listens: every attempt fails to connect, which is safe to
	// report as a plain transport error.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	c2, _ := New("http://"+addr+"/v1", testKey, WithRetryPolicy(fastRetry()))
	_, err = c2.DNC.Create(context.Background(), &DNCUpload{Path: phones, PhoneColumn: "Phone"})
	var te *TransportError
	if !errors.As(err, &te) || errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("refused connection: %v", err)
	}
}

func TestChargedPOSTCancelledInFlight(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	s := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		drainBody(r)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err := s.client(t).Traces.Single(ctx, &SingleTraceRequest{FirstName: "A"})
	if !errors.Is(err, ErrOutcomeUnknown) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

func TestSentinels(t *testing.T) {
	t.Parallel()
	for status, want := range map[int]error{400: ErrBadRequest, 401: ErrUnauthorized, 402: ErrInsufficientCredits,
		403: ErrForbidden, 404: ErrNotFound, 413: ErrTooLarge, 422: ErrUnprocessable, 429: ErrRateLimited,
		500: ErrServer, 503: ErrServer, 599: ErrServer} {
		err := error(&APIError{StatusCode: status})
		if !errors.Is(err, want) {
			t.Errorf("%d is not %v", status, want)
		}
		for _, other := range []error{ErrBadRequest, ErrNotFound, ErrServer, ErrOutcomeUnknown} {
			if other != want && errors.Is(err, other) {
				t.Errorf("%d matches %v", status, other)
			}
		}
	}
	if err := (&APIError{StatusCode: 409}); errors.Is(err, ErrBadRequest) || errors.Is(err, ErrServer) || err.Error() != "409 Conflict" {
		t.Errorf("409: %v", err)
	}
}

func TestDotIDsStayIDs(t *testing.T) {
	t.Parallel()
	s := newScripted(t, reply(200, nil, `{}`))
	c := s.client(t)
	for _, id := range []string{".", ".."} {
		if _, err := c.DNC.Get(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range []string{"/v1/dnc/%2E", "/v1/dnc/%2E%2E"} {
		if got := s.request(i).URL.EscapedPath(); got != want {
			t.Errorf("sent %q, want %q", got, want)
		}
	}
}

func TestAllWithoutMetadata(t *testing.T) {
	t.Parallel()
	full := reply(200, nil, `{"traces":[{"id":"a"},{"id":"b"}]}`)
	s := newScripted(t, full, reply(200, nil, `{"traces":[{"id":"c"}]}`))
	var ids []string
	for tr, err := range s.client(t).Traces.All(context.Background(), &TraceListOptions{Limit: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, tr.ID)
	}
	if strings.Join(ids, "") != "abc" || s.hits.Load() != 2 {
		t.Fatalf("ids %v after %d requests", ids, s.hits.Load())
	}
}

func TestRedirects(t *testing.T) {
	t.Parallel()
	target := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"credits":9,"auth":"` + r.Header.Get("Authorization") + `"}`))
	})
	// Loopback to loopback on another port: followed; the key is not sent
	// to the other host.
	s := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.Replace(target.url, "127.0.0.1", "localhost", 1)+"/account", http.StatusFound)
	})
	a, err := s.client(t).Account(context.Background())
	if err != nil || a.Credits != 9 || string(a.Extra["auth"]) != `""` {
		t.Fatalf("redirect: %+v %v", a, err)
	}
	first, _ := http.NewRequest("GET", "https://example.com/v1/account", nil)
	via := []*http.Request{first}
	req, _ := http.NewRequest("GET", "http://example.com/x", nil)
	if err := checkRedirect(req, via); err == nil {
		t.Error("redirect to plain http accepted")
	}
	req, _ = http.NewRequest("GET", "https://example.com/x", nil)
	if err := checkRedirect(req, via); err != nil {
		t.Error(err)
	}
	if err := checkRedirect(req, []*http.Request{first, first, first, first, first}); err == nil {
		t.Error("sixth redirect followed")
	}
	post, _ := http.NewRequest("POST", "https://example.com/v1/traces", nil)
	if err := checkRedirect(req, []*http.Request{post}); err != http.ErrUseLastResponse {
		t.Errorf("redirect of a POST: %v", err)
	}
}

type failingRT struct{ n int }

func (f *failingRT) RoundTrip(r *http.Request) (*http.Response, error) {
	f.n++
	return nil, errors.New("no route")
}

// Through an opaque RoundTripper nothing proves the request was not sent.
func TestChargedPOSTThroughOpaqueTransport(t *testing.T) {
	t.Parallel()
	rt := &failingRT{}
	c, _ := New("https://api.example.com/v1", testKey, WithHTTPClient(&http.Client{Transport: rt}), WithRetryPolicy(fastRetry()))
	_, err := c.Traces.Single(context.Background(), &SingleTraceRequest{FirstName: "A"})
	if !errors.Is(err, ErrOutcomeUnknown) || rt.n != 1 {
		t.Fatalf("err %v after %d attempts", err, rt.n)
	}
	rt.n = 0
	if _, err := c.Pricing(context.Background()); err == nil || rt.n != fastRetry().MaxRetries+1 {
		t.Fatalf("GET: %v after %d attempts", err, rt.n)
	}
}
