package sandbox

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestFaultErrorRate(t *testing.T) {
	cfg := testConfig()
	cfg.Faults.ErrorRate = 0.5
	s := startT(t, cfg)
	var got []int
	for range 6 {
		got = append(got, get(t, s, DemoKey, "/pricing").status)
	}
	want := []int{200, 503, 200, 503, 200, 503}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("statuses %v, want %v", got, want)
		}
	}
	s.SetFaults(Faults{ErrorRate: 0.25})
	n503 := 0
	for range 8 {
		r := get(t, s, DemoKey, "/pricing")
		if r.status == 503 {
			n503++
			if r.header.Get("Retry-After") == "" || r.json(t)["code"] != "SERVICE_UNAVAILABLE" {
				t.Errorf("503: %v %s", r.header, r.body)
			}
		}
	}
	if n503 != 2 {
		t.Errorf("error_rate 0.25 over 8 requests gave %d errors, want 2", n503)
	}
}

func TestFaultSlow(t *testing.T) {
	cfg := testConfig()
	cfg.Faults.SlowMS = 30
	s := startT(t, cfg)
	start := time.Now()
	get(t, s, DemoKey, "/pricing")
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Errorf("slow_ms 30 answered in %v", d)
	}
}

func TestFaultResetDownload(t *testing.T) {
	cfg := testConfig()
	cfg.Faults.ResetDownloadsAfterBytes = 100
	s := startT(t, cfg)
	var b strings.Builder
	b.WriteString("First,Last,Street,City,State,Zip\n")
	for range 200 {
		b.WriteString("John,Smith,1 Main St,Austin,TX,78701\n")
	}
	id := postForm(t, s, DemoKey, "/traces", traceParts(b.String(), "o.csv", ownersMapping)...).json(t)["id"].(string)
	s.FinishPending()
	url := s.URL() + "/traces/" + id + "/download"
	req, _ := newReq("GET", url, DemoKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	first, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err == nil || !errors.Is(err, io.ErrUnexpectedEOF) || len(first) != 100 {
		t.Fatalf("first download: %d bytes, err %v; want a cut after 100 bytes", len(first), err)
	}
	// Resume with Range and If-Range: served whole from there.
	req, _ = newReq("GET", url, DemoKey)
	req.Header.Set("Range", "bytes=100-")
	req.Header.Set("If-Range", res.Header.Get("ETag"))
	rest := doReq(t, req)
	if rest.status != 206 {
		t.Fatalf("resume: %d", rest.status)
	}
	full := get(t, s, DemoKey, "/traces/"+id+"/download")
	if !bytes.Equal(append(first, rest.body...), full.body) || len(full.body) < 1000 {
		t.Errorf("resumed file differs from the whole file")
	}
}

func TestFaultDropCreateResponse(t *testing.T) {
	cfg := testConfig()
	cfg.Faults.DropCreateResponses = 1
	// The job stays processing: done, it would refund its unmatched rows
	// before the balance is read (20 ms on a loaded machine), and the
	// charge under test would not show.
	cfg.Processing.MinSeconds = 3600
	s := startT(t, cfg)
	body, ct := multipartBody(t, traceParts(ownersCSV, "o.csv", ownersMapping)...)
	req, _ := http.NewRequest("POST", s.URL()+"/traces", body)
	req.Header.Set("Authorization", "Bearer "+DemoKey)
	req.Header.Set("Content-Type", ct)
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		t.Fatalf("the response should have been dropped, got %d", res.StatusCode)
	}
	l := get(t, s, DemoKey, "/traces").json(t)
	if len(l["traces"].([]any)) != 1 {
		t.Errorf("the job exists although the answer was lost: %v", l)
	}
	if a, _ := s.Account(DemoKey); a.Credits != 25000-4 {
		t.Errorf("and it was charged: %d", a.Credits)
	}
	if r := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", ownersMapping)...); r.status != 201 {
		t.Errorf("only one response is dropped: %d", r.status)
	}
}

func TestHeadDownload(t *testing.T) {
	s := startT(t, testConfig())
	id := postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "o.csv", ownersMapping)...).json(t)["id"].(string)
	s.FinishPending()
	full := get(t, s, DemoKey, "/traces/"+id+"/download")
	r := do(t, "HEAD", s.URL()+"/traces/"+id+"/download", DemoKey, nil, "")
	if r.status != 200 || len(r.body) != 0 || r.header.Get("Content-Length") != strconv.Itoa(len(full.body)) {
		t.Errorf("HEAD: %d %v", r.status, r.header)
	}
}
