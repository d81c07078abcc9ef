package client

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/client/hostile"
)

// The hostile-server suite: the fake provider of client/hostile answering
// the way a broken proxy, a login wall or a careless provider might. Each
// test names the rule it holds the client to.

func fakeClient(t *testing.T, s *hostile.Server, opts ...Option) *Client {
	t.Helper()
	c, err := New(s.URL, s.Key, append([]Option{WithRetryPolicy(fastRetry())}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// fakeCharged are the three charged POSTs against a client.
func fakeCharged(t *testing.T) map[string]struct {
	route string
	call  func(*Client) error
} {
	dir := t.TempDir()
	owners := writeFile(t, dir, "owners.csv", ownersCSV)
	phones := writeFile(t, dir, "phones.csv", "Phone\n2125550147\n")
	return map[string]struct {
		route string
		call  func(*Client) error
	}{
		"POST /traces": {hostile.TraceCreate, func(c *Client) error {
			_, err := c.Traces.Create(context.Background(), &TraceUpload{Path: owners, ColumnMapping: ownersMapping})
			return err
		}},
		"POST /dnc": {hostile.DNCCreate, func(c *Client) error {
			_, err := c.DNC.Create(context.Background(), &DNCUpload{Path: phones, PhoneColumn: "Phone"})
			return err
		}},
		"POST /traces/single": {hostile.TraceSingle, func(c *Client) error {
			_, err := c.Traces.Single(context.Background(), &SingleTraceRequest{FirstName: "Ann", LastName: "Lee", Address: "1 Main St", City: "Austin", State: "TX", Zip: "78701"})
			return err
		}},
	}
}

// Item 1. Only a 2xx carrying a job is "created" and only the refusals the
// spec defines are "not created": any other answer to a charged POST may
// come after the job was made and charged, so it is "unknown", is sent
// once, and a redirect is never followed.
func TestHostileChargedAnswerClassification(t *testing.T) {
	t.Parallel()
	unknown := map[string]http.HandlerFunc{}
	for _, code := range []int{301, 302, 303, 307, 308} {
		unknown[fmt.Sprintf("%d redirect", code)] = hostile.Redirect("/v1/traces", code)
	}
	for _, code := range []int{304, 405, 408, 409, 410, 418, 451, 500, 502, 504} {
		unknown[fmt.Sprintf("%d", code)] = hostile.Reply(code, nil, `{"error":"something happened"}`)
	}
	unknown["2xx, body not JSON"] = hostile.Reply(201, map[string]string{"Content-Type": "text/html"}, "<html>created</html>")
	unknown["connection closed after the request"] = hostile.Drop
	for name, charged := range fakeCharged(t) {
		for what, answer := range unknown {
			t.Run(name+"/"+what, func(t *testing.T) {
				s := hostile.New(t)
				s.Next(charged.route, s.AfterCreating(answer))
				err := charged.call(fakeClient(t, s))
				if !errors.Is(err, ErrOutcomeUnknown) || ChargedOutcome(err) != Unknown {
					t.Fatalf("the job was created and charged, but the answer %s gave %v (outcome %v): want unknown", what, err, ChargedOutcome(err))
				}
				if n := len(s.Requests()); n != 1 {
					t.Fatalf("%d requests reached the server, want 1 (nothing resent, no redirect followed)", n)
				}
				if s.Created() != 1 {
					t.Fatalf("%d jobs exist", s.Created())
				}
			})
		}
		for _, code := range []int{400, 401, 402, 403, 404, 413, 422, 429} {
			t.Run(fmt.Sprintf("%s/%d refusal", name, code), func(t *testing.T) {
				s := hostile.New(t)
				s.Next(charged.route, hostile.Reply(code, map[string]string{"Retry-After": "1"}, `{"error":"refused"}`))
				err := charged.call(fakeClient(t, s))
				if errors.Is(err, ErrOutcomeUnknown) || ChargedOutcome(err) != Refused {
					t.Fatalf("a %d refusal gave %v (outcome %v), want refused", code, err, ChargedOutcome(err))
				}
			})
		}
	}
	if ChargedOutcome(nil) != Created {
		t.Error("nil is not created")
	}
	// A request that never left (nothing listens) is not sent, and is
	// safe to send again.
	l, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := l.Addr().String()
	l.Close()
	c, _ := New("http://"+addr+"/v1", hostile.FakeKey(), WithRetryPolicy(RetryPolicy{MaxRetries: -1}))
	_, err := c.Traces.Single(context.Background(), &SingleTraceRequest{FirstName: "A"})
	if ChargedOutcome(err) != NotSent {
		t.Errorf("connection refused: %v (outcome %v)", err, ChargedOutcome(err))
	}
}

// Item 5. The bearer key goes to the base URL's origin only: not to another
// port of the same host, not to a subdomain, never from https to http, on
// any redirect of any request (reads and downloads included). A redirect
// within the origin keeps it.
func TestHostileKeyStaysWithItsOrigin(t *testing.T) {
	t.Parallel()
	read := func(c *Client) error { _, err := c.Account(context.Background()); return err }
	download := func(c *Client) error {
		_, err := c.Traces.Download(context.Background(), "trc_1", filepath.Join(t.TempDir(), "r.csv"), nil)
		return err
	}
	csv := hostile.Reply(200, map[string]string{"Content-Type": "text/csv"}, "a,b\r\n1,2\r\n")
	for _, tc := range []struct {
		name  string
		route string
		call  func(*Client) error
	}{{"a read", hostile.Account, read}, {"a download", hostile.TraceDownload, download}} {
		t.Run(tc.name+" redirected to another port", func(t *testing.T) {
			api, other := hostile.New(t), hostile.New(t)
			other.Always(hostile.Account, hostile.Reply(200, nil, `{"credits":1}`))
			other.Always(hostile.TraceDownload, csv)
			api.Next(tc.route, hostile.Redirect(strings.TrimSuffix(other.URL, "/v1")+"/v1"+strings.TrimPrefix(requestPath(tc.route), "/v1"), http.StatusFound))
			tc.call(fakeClient(t, api))
			for _, r := range other.Requests() {
				if h := r.Header.Get("Authorization"); h != "" {
					t.Fatalf("another port of the same host got the key: %q", h)
				}
			}
			if len(other.Requests()) == 0 {
				t.Fatal("the redirect was not followed at all (it may be, without the key)")
			}
		})
		t.Run(tc.name+" redirected from https to http", func(t *testing.T) {
			api, plain := hostile.NewTLS(t), hostile.New(t)
			api.Next(tc.route, hostile.Redirect(strings.TrimSuffix(plain.URL, "/v1")+requestPath(tc.route), http.StatusFound))
			err := tc.call(fakeClient(t, api, WithHTTPClient(api.Client())))
			if n := len(plain.Requests()); n != 0 || err == nil || !strings.Contains(err.Error(), "https") {
				t.Fatalf("%d requests went to plain http; err %v", n, err)
			}
		})
		t.Run(tc.name+" redirected to a subdomain", func(t *testing.T) {
			api, sub := hostile.NewTLS(t), hostile.NewTLS(t)
			sub.Always(hostile.Account, hostile.Reply(200, nil, `{"credits":1}`))
			sub.Always(hostile.TraceDownload, csv)
			// example.test and api.example.test both lead to loopback.
			apiAddr, subAddr := hostOf(api.URL), hostOf(sub.URL)
			_, apiPort, _ := net.SplitHostPort(apiAddr)
			_, subPort, _ := net.SplitHostPort(subAddr)
			tr := api.Client().Transport.(*http.Transport).Clone()
			tr.TLSClientConfig.InsecureSkipVerify = true
			tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
				switch addr {
				case "example.test:" + apiPort:
					addr = apiAddr
				case "api.example.test:" + subPort:
					addr = subAddr
				}
				return (&net.Dialer{}).DialContext(ctx, network, addr)
			}
			api.Next(tc.route, hostile.Redirect("https://api.example.test:"+subPort+requestPath(tc.route), http.StatusTemporaryRedirect))
			c, err := New("https://example.test:"+apiPort+"/v1", api.Key, WithHTTPClient(&http.Client{Transport: tr}), WithRetryPolicy(fastRetry()))
			if err != nil {
				t.Fatal(err)
			}
			tc.call(c)
			if len(sub.Requests()) == 0 {
				t.Fatal("the redirect was not followed")
			}
			for _, r := range sub.Requests() {
				if h := r.Header.Get("Authorization"); h != "" {
					t.Fatalf("a subdomain got the key: %q", h)
				}
			}
		})
	}
	// Within the origin the key stays.
	s := hostile.New(t)
	s.Next(hostile.Account, hostile.Redirect("/v1/pricing", http.StatusFound))
	s.Always(hostile.Pricing, hostile.Reply(200, nil, `{"credits":3}`))
	if _, err := fakeClient(t, s).Account(context.Background()); err != nil {
		t.Fatal(err)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || reqs[1].Header.Get("Authorization") != "Bearer "+s.Key {
		t.Fatalf("same-origin redirect: %+v", reqs)
	}
}

// requestPath is a concrete path for a route pattern.
func requestPath(route string) string {
	_, p, _ := strings.Cut(route, " ")
	return strings.ReplaceAll(p, "{id}", "trc_1")
}

func hostOf(base string) string {
	u, _ := url.Parse(base)
	return u.Host
}

// Item 4. A download answered with something other than a CSV file (a
// login page with 200, JSON, the JSON a redirect leads to, an empty body, a
// line of text) is an error, nothing is kept under the result's name, and
// it is not asked again within the call (it would come back the same; the
// tracker asks later).
func TestHostileDownloadMustBeCSV(t *testing.T) {
	t.Parallel()
	cases := map[string]http.HandlerFunc{
		"200 HTML login page": hostile.Reply(200, map[string]string{"Content-Type": "text/html; charset=utf-8"},
			"<!DOCTYPE html><html><head><title>Sign in</title></head><body><form>…</form></body></html>"),
		"HTML sent as CSV":            hostile.Reply(200, map[string]string{"Content-Type": "text/csv"}, "\r\n  <html><body>Sign in</body></html>"),
		"JSON":                        hostile.Reply(200, nil, `{"error":"session expired"}`),
		"JSON sent as CSV":            hostile.Reply(200, map[string]string{"Content-Type": "text/csv"}, `{"traces":[]}`),
		"redirect to a JSON endpoint": hostile.Redirect("/v1/traces", http.StatusFound),
		"empty body":                  hostile.Reply(200, map[string]string{"Content-Type": "text/csv"}, ""),
		"a line of text":              hostile.Reply(200, map[string]string{"Content-Type": "text/plain"}, "Please sign in again\n"),
		"binary":                      hostile.Reply(200, map[string]string{"Content-Type": "application/octet-stream"}, "PK\x03\x04\x00\x00binary,data\n"),
		"XML":                         hostile.Reply(200, map[string]string{"Content-Type": "application/xml"}, "a,b\n1,2\n"),
		"rows of another width":       hostile.Reply(200, map[string]string{"Content-Type": "text/plain"}, "Dear customer, your session\nhas expired, please log in, again, now\n"),
	}
	for name, answer := range cases {
		t.Run(name, func(t *testing.T) {
			s := hostile.New(t)
			s.Always(hostile.TraceDownload, answer)
			dir := t.TempDir()
			out := filepath.Join(dir, "r.csv")
			_, err := fakeClient(t, s).Traces.Download(context.Background(), "trc_1", out, nil)
			if !errors.Is(err, ErrNotResult) {
				t.Fatalf("err %v, want ErrNotResult", err)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Fatal("the answer was kept as the result")
			}
			assertNoTempFiles(t, dir)
			if n := s.Count(hostile.TraceDownload); n != 1 {
				t.Fatalf("asked %d times within one call", n)
			}
		})
	}
	// A real result, with a byte order mark, quoted line breaks and any
	// type a CSV is sent as, is kept.
	for _, ctype := range []string{"text/csv", "text/plain", "application/octet-stream", ""} {
		s := hostile.New(t)
		body := "\xef\xbb\xbfname,\"notes\"\r\nAnn,\"two\r\nlines\"\r\n"
		s.Always(hostile.TraceDownload, func(w http.ResponseWriter, r *http.Request) {
			w.Header()["Content-Type"] = []string{ctype}
			w.Write([]byte(body))
		})
		out := filepath.Join(t.TempDir(), "r.csv")
		if _, err := fakeClient(t, s).Traces.Download(context.Background(), "trc_1", out, nil); err != nil {
			t.Fatalf("%q: %v", ctype, err)
		}
		if got, _ := os.ReadFile(out); string(got) != body {
			t.Fatalf("%q: kept %q", ctype, got)
		}
	}
}

// Item 4. A download has an overall deadline: a server trickling a byte
// every few moments (never idle long enough for the idle watch) cannot hold
// the caller for days. Nothing is kept.
func TestHostileDownloadDeadline(t *testing.T) {
	t.Parallel()
	s := hostile.New(t)
	s.Always(hostile.TraceDownload, hostile.Trickle(map[string]string{"Content-Type": "text/csv"},
		"a,b\r\n", strings.Repeat("1,2\r\n", 20000), 20*time.Millisecond))
	dir := t.TempDir()
	out := filepath.Join(dir, "r.csv")
	c := fakeClient(t, s, WithDownloadTimeout(400*time.Millisecond), WithIdleTimeout(time.Second))
	err := within(t, 20*time.Second, func() error {
		_, err := c.Traces.Download(context.Background(), "trc_1", out, nil)
		return err
	})
	var te *DownloadTimeoutError
	if !errors.As(err, &te) || te.Limit != 400*time.Millisecond {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatal("a partial result was kept")
	}
	assertNoTempFiles(t, dir)
	if DefaultDownloadTimeout < 10*time.Minute || DefaultDownloadTimeout > 2*time.Hour {
		t.Errorf("default download deadline %v", DefaultDownloadTimeout)
	}
}

// Item 3. One job in a list page that the client cannot read (created_at
// not a date, a number for a name, no id, not an object) leaves the others
// readable, and is reported by its id when that can be read.
func TestHostileListWithOneBadItem(t *testing.T) {
	t.Parallel()
	s := hostile.New(t)
	good1 := s.Add(&hostile.Job{Name: "a.csv"})
	bad := s.Add(&hostile.Job{})
	bad.Raw = `{"id":"` + bad.ID + `","status":"processing","created_at":"yesterday","name":"b.csv"}`
	s.Add(&hostile.Job{Raw: `{"id":"trc_num","name":42,"status":"processing","created_at":"2026-01-01T00:00:00.000Z"}`})
	s.Add(&hostile.Job{Raw: `"not an object"`})
	good2 := s.Add(&hostile.Job{Name: "c.csv"})
	l, err := fakeClient(t, s).Traces.List(context.Background(), &TraceListOptions{Limit: 100})
	if err != nil {
		t.Fatalf("one bad item stopped the whole list: %v", err)
	}
	var ids []string
	for _, tr := range l.Traces {
		ids = append(ids, tr.ID)
	}
	if strings.Join(ids, ",") != good2.ID+","+good1.ID {
		t.Fatalf("readable jobs %v", ids)
	}
	var badIDs []string
	for _, e := range l.Invalid {
		badIDs = append(badIDs, e.ID)
	}
	if len(l.Invalid) != 3 || !strings.Contains(strings.Join(badIDs, ","), bad.ID) || !strings.Contains(strings.Join(badIDs, ","), "trc_num") {
		t.Fatalf("invalid items %v", l.Invalid)
	}
	if !strings.Contains(l.Invalid[0].Error(), "cannot be read") {
		t.Errorf("error text %q", l.Invalid[0].Error())
	}
	// The same for DNC lists, and All goes past a bad item.
	s.Add(&hostile.Job{Kind: "dnc", Name: "p.csv"})
	s.Add(&hostile.Job{Kind: "dnc", Raw: `{"id":"dnc_bad","total_rows":"many"}`})
	dl, err := fakeClient(t, s).DNC.List(context.Background(), nil)
	if err != nil || len(dl.Jobs) != 1 || len(dl.Invalid) != 1 || dl.Invalid[0].ID != "dnc_bad" {
		t.Fatalf("DNC list: %+v, %v", dl, err)
	}
	n, bads := 0, 0
	for tr, err := range fakeClient(t, s).Traces.All(context.Background(), &TraceListOptions{Limit: 2}) {
		var ie *ListItemError
		switch {
		case errors.As(err, &ie):
			bads++
		case err != nil:
			t.Fatal(err)
		case tr != nil:
			n++
		}
	}
	if n != 2 || bads != 3 {
		t.Fatalf("All: %d jobs, %d bad items", n, bads)
	}
}

// hostileText is what a hostile server puts in its text: a terminal title
// change, a screen clear, a bell, a carriage return that overwrites the
// line, C1 controls, bidi overrides, zero-width characters.
const hostileText = "owners\x1b]0;pwned\x07\x1b[2J\x1b[31m.csv\r\x07\u009b2J\u0085\u202eRLO\u2066\u200bend\x00\x7f\U000E0041"

// assertClean fails when s holds a control or invisible format character,
// or lost its visible text.
func assertClean(t *testing.T, field, s string, visible ...string) {
	t.Helper()
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || (unicode.Is(unicode.Cf, r) && r != 0x200c && r != 0x200d) {
			t.Errorf("%s: %U left in %q", field, r, s)
			return
		}
	}
	if !utf8.ValidString(s) {
		t.Errorf("%s: invalid UTF-8 %q", field, s)
	}
	for _, v := range visible {
		if !strings.Contains(s, v) {
			t.Errorf("%s: %q lost from %q", field, v, s)
		}
	}
}

// Item 7. Server text reaches people clean: every string field the client
// decodes (job names, error_message, statuses, modes, API error messages,
// lookup results, account text) has its escape sequences, control and
// bidirectional characters removed, one test per field.
func TestHostileServerTextIsCleaned(t *testing.T) {
	t.Parallel()
	js, _ := json.Marshal(hostileText)
	ht := string(js)
	s := hostile.New(t)
	tr := s.Add(&hostile.Job{})
	tr.Raw = `{"id":"` + tr.ID + `","type":"bulk","name":` + ht + `,"status":` + ht + `,"mode":` + ht + `,"error_message":` + ht +
		`,"download_url":` + ht + `,"created_at":"2026-01-01T00:00:00.000Z","x_note":` + ht + `}`
	dn := s.Add(&hostile.Job{Kind: "dnc"})
	dn.Raw = `{"id":"` + dn.ID + `","name":` + ht + `,"status":` + ht + `,"error_message":` + ht + `,"created_at":"2026-01-01T00:00:00.000Z"}`
	c := fakeClient(t, s)
	ctx := context.Background()

	got, err := c.Traces.Get(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	var note string
	got.Extra.Get("x_note", &note)
	for field, v := range map[string]string{"trace name": got.Name, "trace status": string(got.Status), "trace mode": got.Mode,
		"trace error_message": deref(got.ErrorMessage), "trace download_url": deref(got.DownloadURL), "trace extra member": note} {
		assertClean(t, field, v, "owners", ".csv", "RLO", "end")
	}
	tl, err := c.Traces.List(ctx, nil)
	if err != nil || len(tl.Traces) != 1 {
		t.Fatalf("%+v %v", tl, err)
	}
	assertClean(t, "trace name in a list", tl.Traces[0].Name, "owners")
	dj, err := c.DNC.Get(ctx, dn.ID)
	if err != nil {
		t.Fatal(err)
	}
	for field, v := range map[string]string{"dnc name": dj.Name, "dnc status": string(dj.Status), "dnc error_message": deref(dj.ErrorMessage)} {
		assertClean(t, field, v, "owners", "end")
	}
	dl, err := c.DNC.List(ctx, nil)
	if err != nil || len(dl.Jobs) != 1 {
		t.Fatalf("%+v %v", dl, err)
	}
	assertClean(t, "dnc name in a list", dl.Jobs[0].Name, "owners")

	// Create answers.
	dir := t.TempDir()
	owners := writeFile(t, dir, "owners.csv", ownersCSV)
	s.Next(hostile.TraceCreate, hostile.Reply(201, nil, `{"id":"trc_9","status":`+ht+`,"mode":`+ht+`,"columns":{`+ht+`:`+ht+`}}`))
	tc, err := c.Traces.Create(ctx, &TraceUpload{Path: owners, ColumnMapping: ownersMapping})
	if err != nil {
		t.Fatal(err)
	}
	assertClean(t, "trace create status", string(tc.Status), "owners")
	assertClean(t, "trace create mode", tc.Mode, "owners")
	for k, v := range tc.Columns {
		assertClean(t, "trace create column key", k, "owners")
		assertClean(t, "trace create column", v, "owners")
	}
	s.Next(hostile.DNCCreate, hostile.Reply(201, nil, `{"id":"dnc_9","name":`+ht+`,"status":`+ht+`}`))
	dc, err := c.DNC.Create(ctx, &DNCUpload{Path: owners, PhoneColumn: "First"})
	if err != nil {
		t.Fatal(err)
	}
	assertClean(t, "dnc create name", dc.Name, "owners")
	assertClean(t, "dnc create status", string(dc.Status), "owners")
	s.Next(hostile.TraceSingle, hostile.Reply(200, nil, `{"matched":true,"first_name":`+ht+`,"last_name":`+ht+`,"phones":[{"number":`+ht+`,"type":`+ht+`}],"emails":[`+ht+`]}`))
	sr, err := c.Traces.Single(ctx, &SingleTraceRequest{FirstName: "A"})
	if err != nil {
		t.Fatal(err)
	}
	for field, v := range map[string]string{"single first_name": sr.FirstName, "single last_name": sr.LastName,
		"single phone number": sr.Phones[0].Number, "single phone type": sr.Phones[0].Type, "single email": sr.Emails[0]} {
		assertClean(t, field, v, "owners")
	}
	s.Next(hostile.Account, hostile.Reply(200, nil, `{"email":`+ht+`,"billing_mode":`+ht+`,"subscription":{"plan_name":`+ht+`}}`))
	acc, err := c.Account(ctx)
	if err != nil {
		t.Fatal(err)
	}
	assertClean(t, "account email", acc.Email, "owners")
	assertClean(t, "account billing_mode", acc.BillingMode, "owners")
	assertClean(t, "subscription plan_name", acc.Subscription.PlanName, "owners")

	// API errors, in each shape.
	for shape, body := range map[string]string{
		"general": `{"error":{"code":` + ht + `,"message":` + ht + `,"details":[{"field":` + ht + `,"message":` + ht + `}]}}`,
		"mapping": `{"error":` + ht + `,"details":[` + ht + `]}`,
		"plain":   `{"error":` + ht + `,"code":` + ht + `}`,
		"text":    hostileText,
	} {
		s.Next(hostile.Pricing, hostile.Reply(400, nil, body))
		_, err := c.Pricing(ctx)
		var ae *APIError
		if !errors.As(err, &ae) {
			t.Fatalf("%s: %v", shape, err)
		}
		assertClean(t, shape+" error message", ae.Message, "owners")
		assertClean(t, shape+" error code", ae.Code)
		for _, d := range ae.Details {
			assertClean(t, shape+" error detail", d.Field+" "+d.Message, "owners")
		}
		for _, p := range ae.Problems {
			assertClean(t, shape+" error problem", p, "owners")
		}
		assertClean(t, shape+" Error()", err.Error(), "owners")
	}
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func TestCleanText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain name.csv", "plain name.csv"},
		{"café ünïcödé 名前 😀", "café ünïcödé 名前 😀"},
		{"👩\u200d💻 team", "👩\u200d💻 team"}, // zero-width joiner kept
		{"a\x1b[31mred\x1b[0m", "ared"},
		{"title\x1b]0;pwned\x07after", "titleafter"},
		{"title\x1b]8;;http://x\x1b\\link", "titlelink"},
		{"cr\roverwrite", "cr overwrite"},
		{"tab\tline\nbreak", "tab line break"},
		{"bell\x07 nul\x00 del\x7f", "bell nul del"},
		{"c1\u0085\u009b31mx", "c1 x"},
		{"\u202egnp.exe", "gnp.exe"},
		{"iso\u2066late\u2069d", "isolated"},
		{"zero\u200bwidth\ufeff", "zerowidth"},
		{"tag\U000E0041s", "tags"},
		{"bad\xffutf8", "bad\ufffdutf8"},
		{"unfinished\x1b[", "unfinished"},
	} {
		if got := CleanText(tc.in); got != tc.want {
			t.Errorf("CleanText(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := CleanText(CleanText(tc.in)); got != CleanText(tc.in) {
			t.Errorf("CleanText is not idempotent on %q", tc.in)
		}
	}
}

// keyForms are the ways a server may echo the key: as it is, in another
// case, spaced, dashed, URL-encoded, JSON-escaped, HTML references, hex,
// and base64 on its own or inside a longer base64 text.
func keyForms(key string) map[string]string {
	spaced := strings.Join(strings.Split(key, ""), " ")
	var pct, uesc, html strings.Builder
	for i := 0; i < len(key); i++ {
		fmt.Fprintf(&pct, "%%%02X", key[i])
		fmt.Fprintf(&uesc, `\u%04x`, key[i])
		fmt.Fprintf(&html, "&#%d;", key[i])
	}
	return map[string]string{
		"as is":             key,
		"upper case":        strings.ToUpper(key),
		"lower case":        strings.ToLower(key),
		"spaced":            spaced,
		"dashed":            strings.Join(strings.Split(key, ""), "-"),
		"URL-encoded":       url.QueryEscape(key),
		"fully URL-encoded": pct.String(),
		"JSON-escaped":      uesc.String(),
		"HTML references":   html.String(),
		"hex":               hex.EncodeToString([]byte(key)),
		"base64":            base64.StdEncoding.EncodeToString([]byte("Bearer " + key)),
		"base64 URL":        base64.RawURLEncoding.EncodeToString([]byte("x" + key + "y")),
		"base64 wrapped":    wrap(base64.StdEncoding.EncodeToString([]byte("user:"+key)), 10),
	}
}

func wrap(s string, n int) string {
	var b strings.Builder
	for i := 0; i < len(s); i += n {
		b.WriteString(s[i:min(i+n, len(s))])
		b.WriteString("\r\n")
	}
	return b.String()
}

// keyShown reports whether text still holds the key in some form.
func keyShown(key, text string) bool {
	squash := func(s string) string {
		var b strings.Builder
		for _, r := range strings.ToLower(s) {
			if r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	dec, _ := url.QueryUnescape(text)
	for _, t := range []string{text, dec, strings.ReplaceAll(strings.ReplaceAll(text, "\r", ""), "\n", "")} {
		if strings.Contains(squash(t), squash(key)) || strings.Contains(t, hex.EncodeToString([]byte(key))) {
			return true
		}
		for _, f := range keyForms(key) {
			if strings.Contains(t, f) {
				return true
			}
		}
	}
	return false
}

// Item 9. The key is redacted in any case, spacing or encoding the server
// puts it in, in job names, error messages, members the spec does not name
// and API errors, before anything is shown or stored (a job is stored as
// the client's JSON of it).
func TestHostileKeyRedactedInServerText(t *testing.T) {
	t.Parallel()
	for form, echoed := range keyForms(hostile.FakeKey()) {
		t.Run(form, func(t *testing.T) {
			s := hostile.New(t)
			// The form of this server's key.
			echoed = keyForms(s.Key)[form]
			js, _ := json.Marshal("job " + echoed + " end")
			tr := s.Add(&hostile.Job{})
			tr.Raw = `{"id":"` + tr.ID + `","name":` + string(js) + `,"status":"processing","error_message":` + string(js) +
				`,"created_at":"2026-01-01T00:00:00.000Z","debug":{"auth":` + string(js) + `}}`
			c := fakeClient(t, s)
			got, err := c.Traces.Get(context.Background(), tr.ID)
			if err != nil {
				t.Fatal(err)
			}
			stored, _ := json.Marshal(got)
			for what, text := range map[string]string{"name": got.Name, "error_message": deref(got.ErrorMessage), "stored JSON": string(stored)} {
				if keyShown(s.Key, text) || !strings.Contains(text, "[redacted]") {
					t.Errorf("%s: %q", what, text)
				}
			}
			if !strings.Contains(got.Name, "job") || !strings.Contains(got.Name, "end") {
				t.Errorf("redaction took the text around the key: %q", got.Name)
			}
			s.Next(hostile.Account, hostile.Reply(401, nil, `{"error":{"code":"BAD_KEY","message":`+string(js)+`,"details":[{"field":"key","message":`+string(js)+`}]}}`))
			_, err = c.Account(context.Background())
			if err == nil || keyShown(s.Key, err.Error()) {
				t.Errorf("error text %v", err)
			}
		})
	}
}
