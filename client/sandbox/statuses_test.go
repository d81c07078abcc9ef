package sandbox

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// shapeOf names the error body shape of the spec that body has: "plain"
// {error: string, code?}, "general" {error: {code, message, details?}} or
// "mapping" {error: string, details: [string]}; "" for anything else.
func shapeOf(body []byte) (shape, code string) {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return "", ""
	}
	var msg string
	if json.Unmarshal(top["error"], &msg) == nil && msg != "" {
		var details []string
		if raw, ok := top["details"]; ok {
			if json.Unmarshal(raw, &details) != nil || len(details) == 0 {
				return "", ""
			}
			return "mapping", ""
		}
		json.Unmarshal(top["code"], &code)
		return "plain", code
	}
	var g struct {
		Code    string          `json:"code"`
		Message string          `json:"message"`
		Details json.RawMessage `json:"details"`
	}
	if json.Unmarshal(top["error"], &g) == nil && g.Code != "" && g.Message != "" {
		var fields []FieldError
		if g.Details != nil && json.Unmarshal(g.Details, &fields) != nil {
			return "", ""
		}
		return "general", g.Code
	}
	return "", ""
}

// Every status code of the spec's table (and the sandbox's 405, 409, 500,
// 503), each in the body shape docs/sandbox.md gives it.
func TestStatusCodeMatrix(t *testing.T) {
	_, hook := newReceiver(t, 0)
	cfg := testConfig()
	cfg.Processing.MinSeconds = 3600
	cfg.RecordLimit = 3
	cfg.MaxUploadBytes = 4096
	cfg.Keys[0].WebhookURL = hook.URL
	cfg.Keys = append(cfg.Keys,
		KeyConfig{Key: "sk_banned", Banned: true},
		KeyConfig{Key: "sk_poor", Credits: 1},
		KeyConfig{Key: "sk_due", BillingMode: "metered", PastDue: true},
		KeyConfig{Key: "sk_other", Credits: 100})
	s := startT(t, cfg)
	small := "First,Last,Street,City,State,Zip\nA,B,1 X,Y,TX,1\nC,D,2 X,Y,TX,1\n"
	processing := postForm(t, s, DemoKey, "/traces", traceParts(small, "p.csv", ownersMapping)...).json(t)["id"].(string)
	failing := postForm(t, s, DemoKey, "/traces", traceParts(small, "FAILJOB.csv", ownersMapping)...).json(t)["id"].(string)
	s.SetProcessing(Processing{MinSeconds: 0})
	done := postForm(t, s, DemoKey, "/traces", traceParts(small, "d.csv", ownersMapping)...).json(t)["id"].(string)
	// Finish the two later jobs, keep the first processing.
	waitFinal(t, s, DemoKey, "/traces/"+done)
	s.mu.Lock()
	j := s.lookup(kindTrace, s.accounts[DemoKey], failing)
	s.mu.Unlock()
	s.finalize(j)

	four := small + "E,F,3 X,Y,TX,1\nG,H,4 X,Y,TX,1\n"
	single := `{"first_name":"Acme LLC","address":"1 Main St","city":"Austin","state":"TX","zip":"78701"}`
	form := func(key string, parts ...part) func() resp {
		return func() resp { return postForm(t, s, key, "/traces", parts...) }
	}
	rows := []struct {
		name   string
		call   func() resp
		status int
		shape  string
		code   string
	}{
		{"200 GET /account", func() resp { return get(t, s, DemoKey, "/account") }, 200, "", ""},
		{"201 POST /traces", form(DemoKey, traceParts(small, "o.csv", ownersMapping)...), 201, "", ""},
		{"202 retry-webhook", func() resp { return postJSON(t, s, DemoKey, "/traces/"+done+"/retry-webhook", "") }, 202, "", ""},
		{"206 ranged download", func() resp {
			req, _ := newReq("GET", s.URL()+"/traces/"+done+"/download", DemoKey)
			req.Header.Set("Range", "bytes=5-")
			return doReq(t, req)
		}, 206, "", ""},
		{"400 mapping", form(DemoKey, traceParts(small, "o.csv", `{"frist_name":"First"}`)...), 400, "mapping", ""},
		{"400 malformed parameter", form(DemoKey, traceParts(small, "o.csv", ownersMapping, part{name: "mode", body: "fast"})...), 400, "general", "VALIDATION_ERROR"},
		{"400 bad JSON body", func() resp { return postJSON(t, s, DemoKey, "/traces/single", "{") }, 400, "general", "VALIDATION_ERROR"},
		{"400 list parameter", func() resp { return get(t, s, DemoKey, "/dnc?limit=101") }, 400, "general", "VALIDATION_ERROR"},
		{"401 missing key", func() resp { return get(t, s, "", "/pricing") }, 401, "plain", "UNAUTHORIZED"},
		{"401 invalid key", func() resp { return get(t, s, "sk_nobody", "/traces") }, 401, "plain", "UNAUTHORIZED"},
		{"402 insufficient credits", func() resp { return postJSON(t, s, "sk_poor", "/traces/single", single) }, 402, "plain", "INSUFFICIENT_CREDITS"},
		{"402 past due", form("sk_due", traceParts(small, "o.csv", ownersMapping)...), 402, "plain", "PAST_DUE"},
		{"403 banned", func() resp { return get(t, s, "sk_banned", "/dnc") }, 403, "plain", "ACCOUNT_BANNED"},
		{"404 unknown id", func() resp { return get(t, s, DemoKey, "/dnc/dnc_none") }, 404, "plain", "NOT_FOUND"},
		{"404 another key's job", func() resp { return get(t, s, "sk_other", "/traces/"+done) }, 404, "plain", "NOT_FOUND"},
		{"404 unknown path", func() resp { return get(t, s, DemoKey, "/invoices") }, 404, "plain", "NOT_FOUND"},
		{"405 wrong method", func() resp { return do(t, "PUT", s.URL()+"/traces/"+done, DemoKey, nil, "") }, 405, "plain", "METHOD_NOT_ALLOWED"},
		{"409 download while processing", func() resp { return get(t, s, DemoKey, "/traces/"+processing+"/download") }, 409, "plain", "JOB_NOT_COMPLETED"},
		{"409 download of a failed job", func() resp { return get(t, s, DemoKey, "/traces/"+failing+"/download") }, 409, "plain", "JOB_FAILED"},
		{"409 retry-webhook while processing", func() resp { return postJSON(t, s, DemoKey, "/traces/"+processing+"/retry-webhook", "") }, 409, "plain", "JOB_NOT_FINISHED"},
		{"413 file too large", form(DemoKey, traceParts(strings.Repeat("x", 5000), "o.csv", ownersMapping)...), 413, "plain", "PAYLOAD_TOO_LARGE"},
		{"422 record limit", form(DemoKey, traceParts(four, "o.csv", ownersMapping)...), 422, "plain", "RECORD_LIMIT_EXCEEDED"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			r := row.call()
			if r.status != row.status {
				t.Fatalf("status %d, want %d: %s", r.status, row.status, r.body)
			}
			if row.shape == "" {
				return
			}
			shape, code := shapeOf(r.body)
			if shape != row.shape || code != row.code {
				t.Errorf("shape %q code %q, want %q %q: %s", shape, code, row.shape, row.code, r.body)
			}
			if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
			if strings.Contains(string(r.body), DemoKey) {
				t.Errorf("the key is in the body: %s", r.body)
			}
		})
	}

	// 429: its own server with a write limit of 1.
	cfg2 := testConfig()
	cfg2.RateLimits = RateLimits{ReadPerMinute: 1, WritePerMinute: 1}
	s2 := startT(t, cfg2)
	get(t, s2, DemoKey, "/pricing")
	r := get(t, s2, DemoKey, "/pricing")
	if shape, code := shapeOf(r.body); r.status != 429 || shape != "plain" || code != "RATE_LIMITED" || r.header.Get("Retry-After") == "" {
		t.Errorf("429: %d %v %s", r.status, r.header, r.body)
	}
	// 503: an injected fault.
	s2.SetFaults(Faults{ErrorRate: 1})
	r = get(t, s2, DemoKey, "/traces")
	if shape, code := shapeOf(r.body); r.status != 503 || shape != "plain" || code != "SERVICE_UNAVAILABLE" || r.header.Get("Retry-After") != "1" {
		t.Errorf("503: %d %v %s", r.status, r.header, r.body)
	}
	// 500: TestRecoverAnswers500 (a handler panic).
}

// Each of the five mapping cases alone gives one 400 in the mapping shape
// with exactly one detail; the did-you-mean and the available headers are
// in it.
func TestMappingCasesAloneOverHTTP(t *testing.T) {
	s := startT(t, testConfig())
	full := map[string]string{"first_name": "First", "last_name": "Last",
		"property_street": "Street", "property_city": "City", "property_state": "State", "property_zip": "Zip"}
	edit := func(f func(m map[string]string)) string {
		m := map[string]string{}
		for k, v := range full {
			m[k] = v
		}
		f(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	cases := []struct {
		name, mode, mapping string
		want                []string
	}{
		{"missing required names", "normal", edit(func(m map[string]string) { delete(m, "first_name") }),
			[]string{"first_name", "missing: first_name"}},
		{"no full address group", "enhanced", `{"first_name":"First"}`,
			[]string{"at least one complete address group", "property", "mailing"}},
		{"unknown key", "normal", edit(func(m map[string]string) { m["property_zipcode"] = "Zip" }),
			[]string{`"property_zipcode"`, `did you mean "property_zip"`}},
		{"incomplete group", "normal", edit(func(m map[string]string) { m["mailing_city"] = "City" }),
			[]string{"mailing address group is all-or-nothing", "mapped mailing_city", "missing mailing_street, mailing_state, mailing_zip"}},
		{"column absent from the CSV", "normal", edit(func(m map[string]string) { m["last_name"] = "Surname" }),
			[]string{`"Surname"`, "last_name", `available headers: "First", "Last", "Street", "City", "State", "Zip"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", c.mapping, part{name: "mode", body: c.mode})...)
			var body mappingError
			if r.status != 400 || json.Unmarshal(r.body, &body) != nil || len(body.Details) != 1 || body.Error == "" {
				t.Fatalf("%d %s", r.status, r.body)
			}
			if shape, _ := shapeOf(r.body); shape != "mapping" {
				t.Fatalf("shape %q", shape)
			}
			for _, sub := range c.want {
				if !strings.Contains(body.Details[0], sub) {
					t.Errorf("%q lacks %q", body.Details[0], sub)
				}
			}
		})
	}
	if a, _ := s.Account(DemoKey); a.Credits != 25000 {
		t.Errorf("refused mappings charged %d credits", 25000-a.Credits)
	}
}

// POST /dnc has the limits of POST /traces: 402, 413, 422, each charging
// nothing.
func TestDNCLimits(t *testing.T) {
	s := startT(t, limitsConfig(2, 1000, 1))
	dnc := func(key, file string) resp {
		return postForm(t, s, key, "/dnc", part{name: "file", filename: "p.csv", body: file}, part{name: "column_mapping", body: `{"phone":"Phone"}`})
	}
	two := "Phone\n2125550147\n3125550100\n"
	if r := dnc("sk_poor", two); r.status != 402 || !strings.Contains(r.json(t)["error"].(string), "costs 2 credits and the balance is 1") {
		t.Errorf("402: %d %s", r.status, r.body)
	}
	if r := dnc(DemoKey, two+"4155550100\n"); r.status != 422 || r.json(t)["code"] != "RECORD_LIMIT_EXCEEDED" {
		t.Errorf("422: %d %s", r.status, r.body)
	}
	if r := dnc(DemoKey, "Phone\n"+strings.Repeat("2125550147\n", 100)); r.status != 413 || r.json(t)["code"] != "PAYLOAD_TOO_LARGE" {
		t.Errorf("413: %d %s", r.status, r.body)
	}
	if a, _ := s.Account("sk_poor"); a.Credits != 1 {
		t.Errorf("credits %d", a.Credits)
	}
	if a, _ := s.Account(DemoKey); a.Credits != 25000 {
		t.Errorf("credits %d", a.Credits)
	}
	if r := dnc(DemoKey, two); r.status != 201 {
		t.Errorf("within the limits: %d %s", r.status, r.body)
	}
}

// An id holding an escaped slash is one path segment: it names no job, and
// does not reach the download (or any other) route.
func TestEscapedSlashInID(t *testing.T) {
	s := startT(t, testConfig())
	id := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", ownersMapping)...).json(t)["id"].(string)
	s.FinishPending()
	for _, p := range []string{"/traces/" + id + "%2Fdownload", "/traces/" + id + "%2F", "/traces/%2E%2E%2Faccount"} {
		if r := get(t, s, DemoKey, p); r.status != 404 {
			t.Errorf("GET %s: %d %.100s", p, r.status, r.body)
		}
	}
	// Escaped characters that are not slashes are unescaped as usual.
	if r := get(t, s, DemoKey, "/traces/"+strings.Replace(id, "_", "%5F", 1)); r.status != 200 {
		t.Errorf("escaped underscore: %d", r.status)
	}
}

// More bad input, on both upload endpoints: each a 4xx with a message,
// never a 5xx.
func TestMoreBadInput(t *testing.T) {
	s := startT(t, testConfig())
	traces := func(parts ...part) resp { return postForm(t, s, DemoKey, "/traces", parts...) }
	dnc := func(parts ...part) resp { return postForm(t, s, DemoKey, "/dnc", parts...) }
	phoneMap := part{name: "column_mapping", body: `{"phone":"Phone"}`}

	r := do(t, "POST", s.URL()+"/traces", DemoKey, strings.NewReader("--x\r\n"), "multipart/form-data")
	assertValidation(t, r, "body", "malformed multipart")
	r = do(t, "POST", s.URL()+"/dnc", DemoKey, strings.NewReader("garbage"), "multipart/form-data; boundary=zz")
	assertValidation(t, r, "body", "malformed multipart")
	r = do(t, "POST", s.URL()+"/dnc", DemoKey, strings.NewReader("a=b"), "application/x-www-form-urlencoded")
	assertValidation(t, r, "Content-Type", "multipart/form-data")
	assertValidation(t, traces(traceParts("\xEF\xBB\xBF", "bom.csv", ownersMapping)...), "file", "no header row")
	assertValidation(t, traces(traceParts("\xEF\xBB\xBFFirst,Last,Street,City,State,Zip\r\n", "bom.csv", ownersMapping)...), "file", "no data rows")
	assertValidation(t, traces(traceParts(ownersCSV, "o.csv", `{"first_name":["First"]}`)...), "column_mapping.first_name", "not an array")
	assertValidation(t, traces(traceParts(ownersCSV, "o.csv", `{"first_name":null}`)...), "column_mapping.first_name", "not null")
	assertValidation(t, traces(traceParts(ownersCSV, "o.csv", `true`)...), "column_mapping", "not a boolean")
	assertValidation(t, traces(traceParts(ownersCSV, "o.csv", `12`)...), "column_mapping", "not a number")
	assertValidation(t, traces(traceParts(ownersCSV, "o.csv", ownersMapping, part{name: "column_mapping", body: ownersMapping})...), "column_mapping", "more than once")
	assertValidation(t, traces(traceParts(ownersCSV, "o.csv", ownersMapping, part{name: "mode", body: strings.Repeat("m", 2<<20)})...), "mode", "larger than 1 MB")
	assertValidation(t, dnc(part{name: "file", filename: "p.csv", body: "\xEF\xBB\xBF"}, phoneMap), "file", "no header row")
	assertValidation(t, dnc(part{name: "file", filename: "p.csv", body: "Phone\n\"212"}, phoneMap), "file", "never closed")
	assertValidation(t, dnc(part{name: "file", filename: "p.csv", body: "Phone\n2125550147\x00\n"}, phoneMap), "file", "NUL")
	assertValidation(t, dnc(part{name: "file", filename: "p.csv", body: ""}, part{name: "column_mapping", body: `"Phone"`}), "column_mapping", "JSON object")

	// A BOM, ragged rows and a file part without a file name are accepted.
	r = dnc(part{name: "file", body: "\xEF\xBB\xBFName,Phone\r\nA\r\nB,2125550147,extra\r\n"}, phoneMap)
	if r.status != 201 || num(r.json(t), "total_rows") != 2 || r.json(t)["name"] != "upload.csv" {
		t.Fatalf("ragged DNC file with a BOM: %d %s", r.status, r.body)
	}
	s.FinishPending()
	j := get(t, s, DemoKey, "/dnc/"+r.json(t)["id"].(string)).json(t)
	if num(j, "error_count") != 1 || num(j, "total_rows") != 2 {
		t.Errorf("the short row has a blank phone (an error): %v", j)
	}
}

// The webhook defaults are the spec's: 10 s to reply, attempts 1 to 5 at
// delays of 1 s, 5 s, 30 s and 5 min (the spec's 30 min would be a sixth
// attempt, which X-Service-Attempt 1 to 5 rules out).
func TestWebhookDefaultsAreTheSpecs(t *testing.T) {
	w := DefaultConfig().Webhook
	if !reflect.DeepEqual(w.RetryDelaysSeconds, []float64{1, 5, 30, 300, 1800}) || w.TimeoutSeconds != 10 || w.MaxAttempts != 5 {
		t.Errorf("webhook defaults %+v", w)
	}
	n := Config{Keys: []KeyConfig{DemoKeyConfig()}}.normalized().Webhook
	if !reflect.DeepEqual(n, w) {
		t.Errorf("zero config normalises to %+v", n)
	}
}

// Whatever the method, path, content type and body, the API answers
// something other than a 5xx, and no handler panics.
func FuzzRequests(f *testing.F) {
	dncBody, dncType := multipartBody(f, part{name: "file", filename: "p.csv", body: "Phone\n2125550147\n"}, part{name: "column_mapping", body: `{"phone":"Phone"}`})
	db, _ := readAllString(dncBody)
	f.Add("POST", "/v1/dnc", dncType, []byte(db))
	f.Add("POST", "/v1/traces/single", "application/json", []byte(`{"first_name":"Acme LLC","address":"1 A","city":"B","state":"TX","zip":"1","is_entity":true}`))
	f.Add("POST", "/v1/traces/single", "", []byte(`{"first_name":{},"mailing_address":"x","mailing_state":"Texas"}`))
	f.Add("GET", "/v1/traces?page=2&limit=100&type=single", "", []byte{})
	f.Add("GET", "/v1/dnc/dnc_x/download", "", []byte{})
	f.Add("POST", "/v1/traces/trc_%2F/retry-webhook", "", []byte{})
	f.Add("DELETE", "/v1/traces", "", []byte{})
	s := fuzzServer(f)
	f.Fuzz(func(t *testing.T, method, path, contentType string, body []byte) {
		req, err := http.NewRequest(method, "http://sandbox.test"+path, strings.NewReader(string(body)))
		if err != nil || !strings.HasPrefix(req.URL.Path, "/") {
			return
		}
		rec := serveFuzz(t, s, req, contentType)
		if rec.Code >= 500 || rec.Code < 200 {
			t.Fatalf("%s %s (%q): status %d: %s", method, path, contentType, rec.Code, rec.Body)
		}
	})
}
