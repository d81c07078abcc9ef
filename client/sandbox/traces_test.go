package sandbox

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"hash/fnv"
	"strings"
	"testing"
)

// billingCase is one mode of TestTraceBilling with what the six-row owner
// list (two of them companies) costs and gives back in it.
type billingCase struct {
	mode                 string
	llcs                 bool
	cost, refund         int64
	match, noMatch, errs int
	indRate, llcRate     int64
	indRefund, llcRefund int64
	skipped              int
}

func TestTraceBilling(t *testing.T) {
	cases := []billingCase{
		{"normal", false, 4, 2, 2, 1, 1, 0, 0, 0, 0, 2},
		{"normal", true, 4*1 + 2*2, 2, 4, 1, 1, 1, 2, 2, 0, 0},
		{"enhanced", false, 4 * 3, 6, 2, 1, 1, 0, 0, 0, 0, 2},
		{"enhanced", true, 6 * 3, 6, 4, 1, 1, 3, 3, 6, 0, 0},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/llcs=%v", c.mode, c.llcs), func(t *testing.T) {
			cfg := testConfig()
			cfg.MatchRate = 1
			s := startT(t, cfg)
			r := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "owners.csv", ownersMapping,
				part{name: "mode", body: c.mode}, part{name: "include_llcs", body: fmt.Sprint(c.llcs)})...)
			if r.status != 201 {
				t.Fatalf("POST /traces: %d %s", r.status, r.body)
			}
			created := r.json(t)
			checkTraceCreated(t, r, created, c)
			acct := get(t, s, DemoKey, "/account").json(t)
			if num(acct, "credits") != 25000-c.cost {
				t.Errorf("credits after submit = %v, want %d", acct["credits"], 25000-c.cost)
			}
			id := created["id"].(string)
			j := waitFinal(t, s, DemoKey, "/traces/"+id)
			checkTraceBilled(t, j, c)
			acct = get(t, s, DemoKey, "/account").json(t)
			if num(acct, "credits") != 25000-c.cost+c.refund {
				t.Errorf("credits after completion = %v, want %d", acct["credits"], 25000-c.cost+c.refund)
			}
			sub := acct["subscription"].(map[string]any)
			if num(sub, "credits_used") != c.cost-c.refund {
				t.Errorf("subscription credits_used = %v, want %d", sub["credits_used"], c.cost-c.refund)
			}
			checkTraceResultFile(t, get(t, s, DemoKey, "/traces/"+id+"/download"), c)
		})
	}
}

// checkTraceCreated checks the 201 body of POST /traces: exactly its
// members, the options echoed, the rows counted and the cost charged.
func checkTraceCreated(t *testing.T, r resp, created map[string]any, c billingCase) {
	t.Helper()
	want := []string{"success", "id", "status", "mode", "include_llcs", "total_rows", "entity_rows", "cost", "credits_charged", "columns"}
	if len(created) != len(want) {
		t.Errorf("201 body has %d members, want exactly %v: %s", len(created), want, r.body)
	}
	for _, k := range want {
		if _, ok := created[k]; !ok {
			t.Errorf("201 body lacks %s", k)
		}
	}
	if created["success"] != true || created["status"] != "processing" || created["mode"] != c.mode || created["include_llcs"] != c.llcs {
		t.Errorf("201 body = %s", r.body)
	}
	if num(created, "total_rows") != 6 || num(created, "entity_rows") != 2 {
		t.Errorf("rows = %v/%v, want 6/2", created["total_rows"], created["entity_rows"])
	}
	if num(created, "cost") != c.cost || num(created, "credits_charged") != c.cost {
		t.Errorf("cost = %v, credits_charged = %v, want %d", created["cost"], created["credits_charged"], c.cost)
	}
}

// checkTraceBilled checks the completed job: its counts, what it charged and
// refunded, and with include_llcs the breakdown by tier, whose figures add
// up to the job's.
func checkTraceBilled(t *testing.T, j map[string]any, c billingCase) {
	t.Helper()
	if j["status"] != "completed" || j["download_url"] == nil || j["completed_at"] == nil || j["error_message"] != nil {
		t.Fatalf("job = %v", j)
	}
	if num(j, "match_count") != int64(c.match) || num(j, "no_match_count") != int64(c.noMatch) || num(j, "error_count") != int64(c.errs) {
		t.Errorf("counts = %v/%v/%v, want %d/%d/%d", j["match_count"], j["no_match_count"], j["error_count"], c.match, c.noMatch, c.errs)
	}
	if num(j, "credits_charged") != c.cost || num(j, "credits_refunded") != c.refund {
		t.Errorf("charged/refunded = %v/%v, want %d/%d", j["credits_charged"], j["credits_refunded"], c.cost, c.refund)
	}
	bd, has := j["breakdown"].(map[string]any)
	if has != c.llcs {
		t.Fatalf("breakdown present = %v, want %v", has, c.llcs)
	}
	if !has {
		return
	}
	ind, llc := bd["individuals"].(map[string]any), bd["llcs"].(map[string]any)
	if num(ind, "rate") != c.indRate || num(llc, "rate") != c.llcRate {
		t.Errorf("tier rates = %v/%v, want %d/%d", ind["rate"], llc["rate"], c.indRate, c.llcRate)
	}
	if num(ind, "rows") != 4 || num(llc, "rows") != 2 {
		t.Errorf("tier rows = %v/%v", ind["rows"], llc["rows"])
	}
	for top, k := range map[string]string{"match_count": "match", "no_match_count": "no_match", "error_count": "error", "credits_refunded": "credits_refunded", "credits_charged": "credits_charged"} {
		if num(ind, k)+num(llc, k) != num(j, top) {
			t.Errorf("breakdown %s: %v + %v != %s %v", k, ind[k], llc[k], top, j[top])
		}
	}
	if num(ind, "credits_refunded") != c.indRefund || num(llc, "credits_refunded") != c.llcRefund {
		t.Errorf("tier refunds = %v/%v", ind["credits_refunded"], llc["credits_refunded"])
	}
}

// checkTraceResultFile checks the downloaded result: UTF-8 CSV with CRLF
// line ends, the upload's columns then the result's, a row per input row
// with its match status.
func checkTraceResultFile(t *testing.T, d resp, c billingCase) {
	t.Helper()
	if d.status != 200 || !strings.HasPrefix(d.header.Get("Content-Type"), "text/csv") {
		t.Fatalf("download: %d %s", d.status, d.header.Get("Content-Type"))
	}
	if bytes.HasPrefix(d.body, []byte{0xEF, 0xBB, 0xBF}) || !bytes.Contains(d.body, []byte("\r\n")) || bytes.Contains(bytes.ReplaceAll(d.body, []byte("\r\n"), nil), []byte("\n")) {
		t.Errorf("result must be UTF-8 without BOM with CRLF line ends")
	}
	recs, err := csv.NewReader(bytes.NewReader(d.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	wantHeader := "First,Last,Street,City,State,Zip," + strings.Join(traceResultColumns, ",")
	if strings.Join(recs[0], ",") != wantHeader {
		t.Errorf("header = %v", recs[0])
	}
	if len(recs) != 7 {
		t.Fatalf("result has %d data rows, want 6", len(recs)-1)
	}
	statuses := map[string]int{}
	for _, rec := range recs[1:] {
		statuses[rec[len(rec)-1]]++
	}
	if statuses["skipped"] != c.skipped || statuses["matched"] != c.match || statuses["error"] != c.errs {
		t.Errorf("match_status counts = %v", statuses)
	}
}

// The outcome rule of an ordinary row is fnv32a(fields joined by 0x1f)/2^32 < match_rate.
func TestTraceOutcomeFollowsHash(t *testing.T) {
	cfg := testConfig()
	cfg.MatchRate = 0.5
	s := startT(t, cfg)
	var b strings.Builder
	b.WriteString("First,Last,Street,City,State,Zip\r\n")
	want := map[string]string{}
	for i := range 40 {
		fields := []string{fmt.Sprintf("Person%d", i), "Lee", fmt.Sprintf("%d Oak Rd", i), "Reno", "NV", "89501"}
		b.WriteString(strings.Join(fields, ",") + "\r\n")
		h := fnv.New32a()
		h.Write([]byte(strings.Join(fields, "\x1f")))
		st := "no_match"
		if float64(h.Sum32())/(1<<32) < 0.5 {
			st = "matched"
		}
		want[fields[0]] = st
	}
	r := postForm(t, s, DemoKey, "/traces", traceParts(b.String(), "hash.csv", ownersMapping)...)
	if r.status != 201 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	id := r.json(t)["id"].(string)
	waitFinal(t, s, DemoKey, "/traces/"+id)
	d := get(t, s, DemoKey, "/traces/"+id+"/download")
	recs, _ := csv.NewReader(bytes.NewReader(d.body)).ReadAll()
	seen := map[string]bool{}
	for _, rec := range recs[1:] {
		st := rec[len(rec)-1]
		seen[st] = true
		if want[rec[0]] != st {
			t.Errorf("%s: %s, want %s", rec[0], st, want[rec[0]])
		}
		if st == "matched" {
			for _, col := range []int{8, 10, 12} { // phone_1, phone_2, phone_3
				p := rec[col]
				if p != "" && (len(p) != 10 || p[3:8] != "55501") {
					t.Errorf("phone %q is not a fictional 555-01xx number", p)
				}
			}
			if rec[14] != "" && !strings.HasSuffix(rec[14], "@example.com") {
				t.Errorf("email %q", rec[14])
			}
		}
	}
	if !seen["matched"] || !seen["no_match"] {
		t.Errorf("40 rows at match_rate 0.5 should give both outcomes: %v", seen)
	}
}

func TestTraceFailJob(t *testing.T) {
	s := startT(t, testConfig())
	r := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "list-FAILJOB.csv", ownersMapping, part{name: "include_llcs", body: "true"})...)
	if r.status != 201 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	id := r.json(t)["id"].(string)
	j := waitFinal(t, s, DemoKey, "/traces/"+id)
	if j["status"] != "failed" || j["download_url"] != nil || j["error_message"] == nil || j["error_message"] == "" {
		t.Fatalf("failed job = %v", j)
	}
	if num(j, "credits_refunded") != num(j, "credits_charged") {
		t.Errorf("a failed job is refunded in full: %v", j)
	}
	bd := j["breakdown"].(map[string]any)
	ind, llc := bd["individuals"].(map[string]any), bd["llcs"].(map[string]any)
	if num(ind, "credits_refunded")+num(llc, "credits_refunded") != num(j, "credits_refunded") {
		t.Errorf("breakdown refunds do not sum: %v", bd)
	}
	if acct := get(t, s, DemoKey, "/account").json(t); num(acct, "credits") != 25000 {
		t.Errorf("credits = %v after a full refund", acct["credits"])
	}
	if d := get(t, s, DemoKey, "/traces/"+id+"/download"); d.status != 409 || d.json(t)["code"] != "JOB_FAILED" {
		t.Errorf("download of a failed job: %d %s", d.status, d.body)
	}
}

func TestTraceJobStatesAndDownload(t *testing.T) {
	cfg := testConfig()
	cfg.Processing = Processing{MinSeconds: 60}
	s := startT(t, cfg)
	r := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, `C:\lists\owners.csv`, ownersMapping)...)
	created := r.json(t)
	id := created["id"].(string)
	j := get(t, s, DemoKey, "/traces/"+id).json(t)
	if j["status"] != "processing" || j["download_url"] != nil || j["completed_at"] != nil || j["error_message"] != nil {
		t.Errorf("processing job = %v", j)
	}
	if _, ok := j["match_count"]; ok {
		t.Errorf("match_count is present only after completion: %v", j)
	}
	if j["name"] != "owners.csv" || j["type"] != "bulk" {
		t.Errorf("name/type = %v/%v", j["name"], j["type"])
	}
	if d := get(t, s, DemoKey, "/traces/"+id+"/download"); d.status != 409 || d.json(t)["code"] != "JOB_NOT_COMPLETED" {
		t.Errorf("download while processing: %d %s", d.status, d.body)
	}
	s.FinishPending()
	j = get(t, s, DemoKey, "/traces/"+id).json(t)
	if j["status"] != "completed" {
		t.Fatalf("after FinishPending: %v", j)
	}
	url := j["download_url"].(string)
	if url != s.URL()+"/traces/"+id+"/download" {
		t.Errorf("download_url = %s", url)
	}
	full := do(t, "GET", url, DemoKey, nil, "")
	if full.status != 200 || full.header.Get("Accept-Ranges") != "bytes" || full.header.Get("ETag") == "" {
		t.Fatalf("download: %d %v", full.status, full.header)
	}
	req := func(h, v string) resp {
		t.Helper()
		rq, _ := newReq("GET", url, DemoKey)
		rq.Header.Set(h, v)
		return doReq(t, rq)
	}
	part := req("Range", "bytes=10-")
	if part.status != 206 || !bytes.Equal(part.body, full.body[10:]) {
		t.Errorf("Range: %d, %d bytes", part.status, len(part.body))
	}
	// Both id forms are accepted; the encoded one too in the download path.
	enc := j["encoded_id"].(string)
	if !strings.HasPrefix(enc, "trc_") || enc == id {
		t.Errorf("encoded_id = %q", enc)
	}
	if g := get(t, s, DemoKey, "/traces/"+enc); g.status != 200 || g.json(t)["id"] != id {
		t.Errorf("GET by encoded_id: %d %s", g.status, g.body)
	}
	if g := get(t, s, DemoKey, "/traces/"+enc+"/download"); g.status != 200 || !bytes.Equal(g.body, full.body) {
		t.Errorf("download by encoded_id: %d", g.status)
	}
	// A trace id is not a DNC id.
	if g := get(t, s, DemoKey, "/dnc/"+id); g.status != 404 {
		t.Errorf("trace id under /dnc: %d", g.status)
	}
}

func TestIDStylePlain(t *testing.T) {
	cfg := testConfig()
	cfg.IDStyle = "plain"
	s := startT(t, cfg)
	r := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", ownersMapping)...)
	id := r.json(t)["id"].(string)
	if strings.HasPrefix(id, "trc_") {
		t.Fatalf("plain id %q is prefixed", id)
	}
	j := get(t, s, DemoKey, "/traces/"+id).json(t)
	if enc := j["encoded_id"].(string); !strings.HasPrefix(enc, "trc_") {
		t.Errorf("encoded_id %q must stay prefixed", enc)
	} else if g := get(t, s, DemoKey, "/traces/"+enc); g.status != 200 {
		t.Errorf("GET by encoded_id: %d", g.status)
	}
	d := postForm(t, s, DemoKey, "/dnc", part{name: "file", filename: "p.csv", body: "phone\n2125550147\n"}, part{name: "column_mapping", body: `{"phone":"phone"}`})
	if did := d.json(t)["id"].(string); strings.HasPrefix(did, "dnc_") {
		t.Errorf("plain DNC id %q is prefixed", did)
	}
}

func TestOwnership(t *testing.T) {
	cfg := testConfig()
	cfg.Keys = append(cfg.Keys, KeyConfig{Key: "sk_other", Credits: 100, WebhookURL: "http://127.0.0.1:1/hook"})
	s := startT(t, cfg)
	tr := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", ownersMapping)...).json(t)
	dn := postForm(t, s, DemoKey, "/dnc", part{name: "file", filename: "p.csv", body: "phone\n2125550147\n"}, part{name: "column_mapping", body: `{"phone":"phone"}`}).json(t)
	s.FinishPending()
	tid, did := tr["id"].(string), dn["id"].(string)
	for _, p := range []string{"/traces/" + tid, "/traces/" + tid + "/download", "/dnc/" + did, "/dnc/" + did + "/download"} {
		if r := get(t, s, "sk_other", p); r.status != 404 || r.json(t)["code"] != "NOT_FOUND" {
			t.Errorf("GET %s with another key: %d %s", p, r.status, r.body)
		}
		if r := get(t, s, DemoKey, p); r.status != 200 {
			t.Errorf("GET %s with the owner key: %d", p, r.status)
		}
	}
	for _, p := range []string{"/traces/" + tid + "/retry-webhook", "/dnc/" + did + "/retry-webhook"} {
		if r := postJSON(t, s, "sk_other", p, ""); r.status != 404 {
			t.Errorf("POST %s with another key: %d", p, r.status)
		}
	}
	if l := get(t, s, "sk_other", "/traces").json(t); num(l["_metadata"].(map[string]any), "total_count") != 0 {
		t.Errorf("another key's list shows foreign traces: %v", l)
	}
	if r := get(t, s, DemoKey, "/traces/trc_doesnotexist"); r.status != 404 {
		t.Errorf("unknown id: %d", r.status)
	}
}

func TestTraceLimits(t *testing.T) {
	s := startT(t, limitsConfig(5, 2000, 3))
	// 6 data rows > record limit 5.
	if r := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", ownersMapping)...); r.status != 422 || r.json(t)["code"] != "RECORD_LIMIT_EXCEEDED" {
		t.Errorf("record limit: %d %s", r.status, r.body)
	}
	small := "First,Last,Street,City,State,Zip\nA,B,1 X,Y,TX,1\nC,D,2 X,Y,TX,1\nE,F,3 X,Y,TX,1\nG,H,4 X,Y,TX,1\n"
	if r := postForm(t, s, "sk_poor", "/traces", traceParts(small, "o.csv", ownersMapping)...); r.status != 402 || r.json(t)["code"] != "INSUFFICIENT_CREDITS" {
		t.Errorf("insufficient credits: %d %s", r.status, r.body)
	}
	if a, _ := s.Account("sk_poor"); a.Credits != 3 {
		t.Errorf("a refused job charged credits: %d", a.Credits)
	}
	big := strings.Repeat("x", 3000)
	if r := postForm(t, s, DemoKey, "/traces", traceParts(big, "o.csv", ownersMapping)...); r.status != 413 || r.json(t)["code"] != "PAYLOAD_TOO_LARGE" {
		t.Errorf("too large: %d %s", r.status, r.body)
	}
}

// A body far over the limit gets its 413 answer, not a reset connection.
func TestTooLargeAnswersBeforeReadingEverything(t *testing.T) {
	cfg := testConfig()
	cfg.MaxUploadBytes = 1000
	s := startT(t, cfg)
	big := strings.Repeat("a,b,c,d,e,f\n", 400_000) // ~4.8 MB
	r := postForm(t, s, DemoKey, "/traces", traceParts(big, "o.csv", ownersMapping)...)
	if r.status != 413 {
		t.Fatalf("status %d", r.status)
	}
	// The server still answers on a new connection.
	if g := get(t, s, DemoKey, "/pricing"); g.status != 200 {
		t.Errorf("after 413: %d", g.status)
	}
}
