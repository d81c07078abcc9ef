package sandbox

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"strings"
	"testing"
)

func TestSingleTrace(t *testing.T) {
	cfg := testConfig()
	cfg.MatchRate = 1
	cfg.Keys[0].WebhookURL = "http://127.0.0.1:1/never"
	s := startT(t, cfg)
	base := `"address":"1 Main St","city":"Austin","state":"TX","zip":"78701"`
	cases := []struct {
		name, body      string
		matched, entity bool
		credits, refund int64
	}{
		{"person", `{"first_name":"John","last_name":"Smith",` + base + `}`, true, false, 1, 0},
		{"company auto", `{"first_name":"Acme Holdings, L.L.C.",` + base + `}`, true, true, 2, 0},
		{"forced entity", `{"first_name":"John","last_name":"Smith","is_entity":true,` + base + `}`, true, true, 2, 0},
		{"no match", `{"first_name":"John","last_name":"NOMATCH",` + base + `}`, false, false, 1, 1},
		{"upstream error", `{"first_name":"UPSTREAMERR","last_name":"X",` + base + `}`, false, false, 1, 1},
		{"with mailing", `{"first_name":"Ann","last_name":"Lee",` + base + `,"mailing_address":"PO Box 9","mailing_city":"Reno","mailing_state":"NV","mailing_zip":"89501"}`, true, false, 1, 0},
	}
	spent := int64(0)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := postJSON(t, s, DemoKey, "/traces/single", c.body)
			if r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			m := r.json(t)
			if m["matched"] != c.matched || m["is_entity"] != c.entity || num(m, "credits") != c.credits || num(m, "credits_refunded") != c.refund {
				t.Errorf("result = %s", r.body)
			}
			phones, _ := m["phones"].([]any)
			emails, isList := m["emails"].([]any)
			if !isList {
				t.Errorf("emails must be an array: %s", r.body)
			}
			if c.matched != (len(phones) > 0) {
				t.Errorf("phones = %v", phones)
			}
			for _, p := range phones {
				pm := p.(map[string]any)
				n, typ := pm["number"].(string), pm["type"].(string)
				if len(n) != 10 || n[3:8] != "55501" || (typ != "mobile" && typ != "landline" && typ != "voip") {
					t.Errorf("phone %v", pm)
				}
			}
			for _, e := range emails {
				if !strings.HasSuffix(e.(string), "@example.com") {
					t.Errorf("email %v", e)
				}
			}
			spent += c.credits - c.refund
			if a, _ := s.Account(DemoKey); a.Credits != 25000-spent {
				t.Errorf("credits = %d, want %d", a.Credits, 25000-spent)
			}
			// The trace is listed as a completed single job with a one-row result.
			id := m["id"].(string)
			j := get(t, s, DemoKey, "/traces/"+id).json(t)
			if j["type"] != "single" || j["status"] != "completed" || num(j, "total_rows") != 1 || !strings.HasPrefix(j["name"].(string), "Single: ") {
				t.Errorf("single job = %v", j)
			}
			if d := get(t, s, DemoKey, "/traces/"+id+"/download"); d.status != 200 || bytes.Count(d.body, []byte("\r\n")) != 2 {
				t.Errorf("single result: %d %q", d.status, d.body)
			}
		})
	}
	l := get(t, s, DemoKey, "/traces?type=single").json(t)
	if num(l["_metadata"].(map[string]any), "total_count") != int64(len(cases)) {
		t.Errorf("type=single list: %v", l["_metadata"])
	}
	if l := get(t, s, DemoKey, "/traces?type=bulk").json(t); num(l["_metadata"].(map[string]any), "total_count") != 0 {
		t.Errorf("type=bulk list: %v", l["_metadata"])
	}
	if d := s.Deliveries(); len(d) != 0 {
		t.Errorf("single traces never fire webhooks: %v", d)
	}
	// retry-webhook does not apply to a single trace.
	id := get(t, s, DemoKey, "/traces?type=single&limit=1").json(t)["traces"].([]any)[0].(map[string]any)["id"].(string)
	if r := postJSON(t, s, DemoKey, "/traces/"+id+"/retry-webhook", ""); r.status != 422 {
		t.Errorf("retry-webhook on a single trace: %d %s", r.status, r.body)
	}
}

func TestSinglePaymentRequired(t *testing.T) {
	cfg := testConfig()
	cfg.Keys = []KeyConfig{{Key: "sk_one", Credits: 1}, {Key: "sk_due", BillingMode: "metered", PastDue: true}}
	s := startT(t, cfg)
	body := `{"first_name":"Acme LLC","address":"1 Main St","city":"Austin","state":"TX","zip":"78701"}`
	if r := postJSON(t, s, "sk_one", "/traces/single", body); r.status != 402 || r.json(t)["code"] != "INSUFFICIENT_CREDITS" {
		t.Errorf("llc rate 2 with 1 credit: %d %s", r.status, r.body)
	}
	if r := postJSON(t, s, "sk_due", "/traces/single", body); r.status != 402 || r.json(t)["code"] != "PAST_DUE" {
		t.Errorf("past due: %d %s", r.status, r.body)
	}
}

func TestDNCJob(t *testing.T) {
	s := startT(t, testConfig())
	phones := []string{"(212) 555-0147", "+1 305-555-0123 ext. 9", "1.23E+10", "", "123-456-7890", "212.555.0199 x12", "2125550147#3", "12125550147"}
	var b strings.Builder
	b.WriteString("Name,Phone\r\n")
	for i, p := range phones {
		fmt.Fprintf(&b, "P%d,%s\r\n", i, p)
	}
	b.WriteString(",\r\n")
	r := postForm(t, s, DemoKey, "/dnc", part{name: "column_mapping", body: `{"phone":"Phone"}`}, part{name: "file", filename: "phones.csv", body: b.String()})
	if r.status != 201 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	c := r.json(t)
	for _, k := range []string{"id", "name", "status", "total_rows", "rate", "credits_charged"} {
		if _, ok := c[k]; !ok {
			t.Errorf("create body lacks %s: %s", k, r.body)
		}
	}
	if len(c) != 6 {
		t.Errorf("create body has %d members, want exactly the spec's 6: %s", len(c), r.body)
	}
	if num(c, "total_rows") != 8 || num(c, "credits_charged") != 8 || c["status"] != "processing" || c["name"] != "phones.csv" {
		t.Errorf("created = %s", r.body)
	}
	id := c["id"].(string)
	j := waitFinal(t, s, DemoKey, "/dnc/"+id)
	// Invalid: "1.23E+10", "", "123-456-7890".
	if j["status"] != "completed" || num(j, "error_count") != 3 || num(j, "credits_refunded") != 3 || num(j, "rate") != 1 {
		t.Errorf("job = %v", j)
	}
	if a, _ := s.Account(DemoKey); a.Credits != 25000-5 {
		t.Errorf("credits = %d", a.Credits)
	}
	d := get(t, s, DemoKey, "/dnc/"+id+"/download")
	recs, err := csv.NewReader(bytes.NewReader(d.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != "Name,Phone,phone_normalized,dnc,litigator,line_type,status" {
		t.Errorf("header %v", recs[0])
	}
	wantNorm := []string{"2125550147", "3055550123", "", "", "", "2125550199", "2125550147", "2125550147"}
	matches := 0
	for i, rec := range recs[1:] {
		if rec[2] != wantNorm[i] {
			t.Errorf("%q normalised to %q, want %q", phones[i], rec[2], wantNorm[i])
		}
		valid := wantNorm[i] != ""
		if (rec[6] == "ok") != valid || (!valid && (rec[3] != "false" || rec[5] != "unknown")) {
			t.Errorf("row %q", rec)
		}
		if rec[3] == "true" || rec[4] == "true" {
			matches++
		}
	}
	if int64(matches) != num(j, "match_count") {
		t.Errorf("match_count %v, rows flagged %d", j["match_count"], matches)
	}
	// The list carries the same shape.
	l := get(t, s, DemoKey, "/dnc").json(t)
	items := l["jobs"].([]any)
	if len(items) != 1 || items[0].(map[string]any)["id"] != id {
		t.Errorf("list = %v", l)
	}
}

func TestNormalizePhone(t *testing.T) {
	cases := map[string]string{
		"2125550147": "2125550147", "(212) 555-0147": "2125550147", "1-212-555-0147": "2125550147",
		"+1 (212) 555 0147 ext 55": "2125550147", "212-555-0147 EXT. 5": "2125550147", "212 555 0147 x5": "2125550147",
		"212-555-0147#22": "2125550147", "1.23E+10": "", "2.12555014E+9": "", " 2.12555014e+09 ": "", "": "", "012-555-0147": "", "212-055-0147": "",
		"22125550147": "", "212555014": "", "phone: 212 555 0147": "2125550147", "212555014712345678": "",
	}
	for in, want := range cases {
		got, ok := normalizePhone(in)
		if got != want || ok != (want != "") {
			t.Errorf("normalizePhone(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestIsEntityName(t *testing.T) {
	cases := map[string]bool{
		"Acme LLC": true, "ACME, L.L.C.": true, "Smith Family Trust": true, "Smith-Trust": true, "Bank of Ohio": true,
		"Co": true, "Jones & Co.": true, "John Smith": false, "Costa": false, "Trustee Smith": false,
		"Incognito": false, "": false, "Blue Sky Properties": true, "inc": true, "P.C.": true,
		"Llcx": false, strings.Repeat("A", 40) + " LLC": true, strings.Repeat("LLC", 20): false,
	}
	for in, want := range cases {
		if got := isEntityName([]byte(in)); got != want {
			t.Errorf("isEntityName(%q) = %v, want %v", in, got, want)
		}
	}
	if !isEntityName([]byte("Acme"), []byte("Holdings")) || isEntityName([]byte("Mary"), []byte("Lee")) {
		t.Error("first and last names are joined with a space")
	}
	if isEntityName([]byte("AcmeL"), []byte("LC")) {
		t.Error("the joining space separates tokens")
	}
}

func TestListPagination(t *testing.T) {
	clock := &fakeClock{t: timeAt("2026-01-02T03:04:05Z")}
	cfg := testConfig()
	cfg.Now = clock.Now
	cfg.Processing.MinSeconds = 60
	s := startT(t, cfg)
	var ids []string
	for i := range 25 {
		if i%2 == 0 {
			clock.Add(1e9) // some jobs share a created_at: then the later id comes first
		}
		r := postForm(t, s, DemoKey, "/dnc", part{name: "file", filename: fmt.Sprintf("p%d.csv", i), body: "phone\n2125550147\n"}, part{name: "column_mapping", body: `{"phone":"phone"}`})
		ids = append(ids, r.json(t)["id"].(string))
	}
	var got []string
	for page := 1; page <= 4; page++ {
		l := get(t, s, DemoKey, fmt.Sprintf("/dnc?page=%d&limit=7", page)).json(t)
		md := l["_metadata"].(map[string]any)
		if num(md, "page") != int64(page) || num(md, "per_page") != 7 || num(md, "page_count") != 4 || num(md, "total_count") != 25 {
			t.Errorf("page %d metadata %v", page, md)
		}
		for _, it := range l["jobs"].([]any) {
			got = append(got, it.(map[string]any)["id"].(string))
		}
	}
	if len(got) != 25 {
		t.Fatalf("got %d jobs over the pages", len(got))
	}
	for i := range got {
		if got[i] != ids[24-i] {
			t.Fatalf("order: item %d is %s, want %s (newest first)", i, got[i], ids[24-i])
		}
	}
	if l := get(t, s, DemoKey, "/dnc?page=9").json(t); len(l["jobs"].([]any)) != 0 {
		t.Errorf("a page past the end is empty: %v", l)
	}
	if md := get(t, s, DemoKey, "/dnc").json(t)["_metadata"].(map[string]any); num(md, "per_page") != 10 || num(md, "page") != 1 {
		t.Errorf("defaults: %v", md)
	}
}
