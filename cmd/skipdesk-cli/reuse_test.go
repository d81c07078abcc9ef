package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// estimate --json says how many rows were traced before, left out by
// default (--skip-traced=false sends them); traces submit uploads only the
// others and the result holds every row; results search reads the index.
func TestSkipTracedCommands(t *testing.T) {
	sb := startSubmitSandbox(t, 0.2)
	submitEnv(t, sb)
	file := writeOwners(t)
	if code, out, errs := runCLI(t, append(append([]string{"traces", "submit", "--file", file}, submitMaps...), "--wait")...); code != 0 {
		t.Fatalf("first trace: exit %d\n%s\n%s", code, out, errs)
	}
	// The same owners, written otherwise, and one more.
	again := filepath.Join(t.TempDir(), "again.csv")
	os.WriteFile(again, []byte(submitOwners+"Dee,Fox,4 Pine Ln,Austin,TX,78704\r\n"), 0o644)
	os.WriteFile(again, []byte(strings.Replace(string(must(os.ReadFile(again))), "1 Main St", "1 MAIN STREET", 1)), 0o644)
	code, out, errs := runCLI(t, append(append([]string{"estimate", again}, submitMaps...), "--json")...)
	if code != 0 {
		t.Fatalf("estimate: exit %d\n%s\n%s", code, out, errs)
	}
	var est struct {
		Rows          int  `json:"rows"`
		AlreadyTraced *int `json:"already_traced_rows"`
		Reuse         struct {
			Rows    int   `json:"rows"`
			Savings int64 `json:"savings"`
		} `json:"reuse"`
	}
	if err := json.Unmarshal([]byte(out), &est); err != nil || est.AlreadyTraced == nil {
		t.Fatalf("estimate JSON %s: %v", out, err)
	}
	traced := *est.AlreadyTraced
	if traced == 0 || traced > 3 || est.Rows != 4-traced || est.Reuse.Savings == 0 {
		t.Fatalf("estimate: %+v (%s)", est, out)
	}
	estimateEveryRow(t, again)
	code, out, _ = runCLI(t, append([]string{"estimate", again}, submitMaps...)...)
	if code != 0 || !strings.Contains(out, "traced before (from the last 90 days) — saves") || !strings.Contains(out, "(--skip-traced=false turns it off)") {
		t.Errorf("estimate text: %s", out)
	}
	if code, _, errs := runCLI(t, append(append([]string{"traces", "submit", "--file", again}, submitMaps...), "--skip-traced=false", "--reuse-within", "90d")...); code != exitUsage {
		t.Errorf("--reuse-within without --skip-traced: exit %d %s", code, errs)
	}
	code, out, errs = runCLI(t, append(append([]string{"traces", "submit", "--file", again}, submitMaps...),
		"--skip-traced", "--reuse-within", "30d", "--wait")...)
	if code != 0 || !strings.Contains(errs, "left out: their earlier results are merged") {
		t.Fatalf("submit --skip-traced: exit %d\n%s\n%s", code, out, errs)
	}
	var result string
	for _, l := range strings.Split(out, "\n") {
		if p, ok := strings.CutPrefix(l, "result "); ok {
			result = p
		}
	}
	recs := readRows(t, result)
	if len(recs) != 5 || recs[0][len(recs[0])-3] != "source" {
		t.Fatalf("merged result %s: %v", result, recs)
	}
	reused := 0
	for _, r := range recs[1:] {
		if r[len(r)-3] == "reused" {
			reused++
		}
	}
	if reused != traced {
		t.Errorf("%d rows reused, the estimate said %d", reused, traced)
	}
	// The search reads the index: the merged result is found.
	code, out, _ = runCLI(t, "--json", "results", "search", "dee fox")
	var hits []struct {
		Path string
		Row  int
	}
	if code != 0 || json.Unmarshal([]byte(out), &hits) != nil || len(hits) != 1 || hits[0].Path != result || hits[0].Row != 4 {
		t.Errorf("search: exit %d %s", code, out)
	}
}

// dnc submit --skip-scrubbed reuses the answers of numbers scrubbed in the
// last 31 days.
func TestSkipScrubbedCommand(t *testing.T) {
	sb := startSubmitSandbox(t, 0.2)
	submitEnv(t, sb)
	dir := t.TempDir()
	first := filepath.Join(dir, "first.csv")
	os.WriteFile(first, []byte("phone\r\n2125550101\r\n2125550102\r\n"), 0o644)
	if code, out, errs := runCLI(t, "dnc", "submit", "--file", first, "--phone-column", "phone", "--wait"); code != 0 {
		t.Fatalf("first scrub: exit %d\n%s\n%s", code, out, errs)
	}
	second := filepath.Join(dir, "second.csv")
	os.WriteFile(second, []byte("phone\r\n(212) 555-0102\r\n3135550199\r\n"), 0o644)
	code, out, _ := runCLI(t, "estimate", second, "--dnc", "--map", "phone=phone", "--json")
	var est struct {
		Reusable *int `json:"reusable_phones"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &est) != nil || est.Reusable == nil || *est.Reusable != 1 {
		t.Fatalf("estimate: exit %d %s", code, out)
	}
	code, out, errs := runCLI(t, "--json", "dnc", "submit", "--file", second, "--phone-column", "phone", "--skip-scrubbed", "--wait")
	if code != 0 || !strings.Contains(errs, "1 row left out") {
		t.Fatalf("submit --skip-scrubbed: exit %d\n%s\n%s", code, out, errs)
	}
	var res struct {
		Result  string `json:"result"`
		Charged int64  `json:"credits_charged"`
	}
	json.Unmarshal([]byte(out), &res)
	b, _ := os.ReadFile(res.Result)
	if n := strings.Count(string(b), "\n"); n != 3 || !strings.Contains(string(b), "reused") {
		t.Errorf("merged scrub %s:\n%s", res.Result, b)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// estimateEveryRow: with --skip-traced=false the estimate prices the
// list's 4 rows, those traced before included.
func estimateEveryRow(t *testing.T, again string) {
	t.Helper()
	var est struct{ Rows int }
	code, out, _ := runCLI(t, append(append([]string{"estimate", again}, submitMaps...), "--skip-traced=false", "--json")...)
	if err := json.Unmarshal([]byte(out), &est); code != 0 || err != nil || est.Rows != 4 {
		t.Errorf("--skip-traced=false: exit %d, %+v %v", code, est, err)
	}
}
