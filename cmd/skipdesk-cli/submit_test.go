package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// submitSandbox is a sandbox behind a handler that counts result downloads.
type submitSandbox struct {
	srv       *sandbox.Server
	url       string
	downloads atomic.Int64
	// edit, when set, sees every answer once the sandbox handled the
	// request and before the answer leaves, and may change its body (a
	// job-creating POST handled: the moment to cut a team's database).
	edit atomic.Pointer[func(r *http.Request, body []byte) []byte]
}

func startSubmitSandbox(t *testing.T, minSeconds float64) *submitSandbox {
	t.Helper()
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: minSeconds, RowsPerSecond: 100000}
	srv := clienttest.StartSandbox(t, cfg)
	sb := &submitSandbox{srv: srv}
	h := srv.Handler()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/download") {
			sb.downloads.Add(1)
		}
		if f := sb.edit.Load(); f != nil && !strings.HasSuffix(r.URL.Path, "/download") {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			body := (*f)(r, rec.Body.Bytes())
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(rec.Code)
			w.Write(body)
			return
		}
		h.ServeHTTP(w, r)
	}))
	sb.url = hs.URL + "/v1"
	t.Cleanup(hs.Close)
	return sb
}

// jobs counts the bulk traces and DNC jobs on the sandbox
// (clienttest.Jobs), and lists its bulk traces.
func (sb *submitSandbox) jobs(t *testing.T) (int, []client.Trace) {
	t.Helper()
	api, err := client.New(sb.url, sandbox.DemoKey)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := api.Traces.List(context.Background(), &client.TraceListOptions{Limit: 100, Type: client.TypeBulk})
	if err != nil {
		t.Fatal(err)
	}
	return clienttest.Jobs(t, api), tl.Traces
}

const submitOwners = "First,Last,Street,City,State,Zip\r\n" +
	"Ann,Lee,1 Main St,Austin,TX,78701\r\n" +
	"Bob,Ray,2 Oak Ave,Austin,TX,78702\r\n" +
	"Cal,Poe,3 Elm Rd,Austin,TX,78703\r\n"

var submitMaps = []string{"--map", "first_name=First", "--map", "last_name=Last", "--map", "property_street=Street",
	"--map", "property_city=City", "--map", "property_state=State", "--map", "property_zip=Zip"}

func writeOwners(t *testing.T) string {
	t.Helper()
	return testlists.WriteFile(t, "owners.csv", submitOwners)
}

// submitEnv points the in-process CLI at the sandbox and a fresh home.
func submitEnv(t *testing.T, sb *submitSandbox) string {
	home := t.TempDir()
	t.Setenv("SKIPDESK_HOME", home)
	t.Setenv("SKIPDESK_API_KEY", sandbox.DemoKey)
	t.Setenv("SKIPDESK_BASE_URL", sb.url)
	t.Setenv("SKIPDESK_TEST_PAUSE_AT", "")
	return home
}

func TestTracesSubmitWait(t *testing.T) {
	sb := startSubmitSandbox(t, 0.3)
	home := submitEnv(t, sb)
	file := writeOwners(t)
	code, out, errs := runCLI(t, append(append([]string{"traces", "submit", "--file", file}, submitMaps...), "--wait")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	n, traces := sb.jobs(t)
	if n != 1 || len(lines) != 3 || lines[0] != traces[0].ID {
		t.Fatalf("stdout %q; server jobs %d", out, n)
	}
	tr := traces[0]
	if !strings.HasPrefix(lines[1], "result "+filepath.Join(home, "results")) {
		t.Fatalf("result line %q", lines[1])
	}
	if _, err := os.Stat(strings.TrimPrefix(lines[1], "result ")); err != nil {
		t.Fatal(err)
	}
	want := "spend charged 3 refunded " + itoa64(tr.CreditsRefunded) + " net " + itoa64(3-tr.CreditsRefunded)
	if lines[2] != want {
		t.Fatalf("spend line %q, want %q", lines[2], want)
	}
	if !strings.Contains(errs, "owners.csv: 3 rows sent, 3 credits charged up front.") || !strings.Contains(errs, "completed") {
		t.Fatalf("stderr %q", errs)
	}

	checkKeyNotWritten(t, home, out+errs)
	checkExportSummary(t, strings.TrimPrefix(lines[1], "result "), tr)

	// The same submission again needs --again.
	code, _, errs = runCLI(t, append([]string{"traces", "submit", "--file", file}, submitMaps...)...)
	if code != exitUsage || !strings.Contains(errs, "--again") || !strings.Contains(errs, tr.ID) {
		t.Fatalf("duplicate: exit %d, %q", code, errs)
	}
	if n, _ := sb.jobs(t); n != 1 {
		t.Fatalf("a duplicate reached the server (%d jobs)", n)
	}
	checkJobsListed(t, tr)
}

// checkKeyNotWritten: the API key is in no file SkipDesk wrote (ledger,
// WAL, results, records), nor in what it printed.
func checkKeyNotWritten(t *testing.T, home, printed string) {
	t.Helper()
	if strings.Contains(printed, sandbox.DemoKey) {
		t.Error("the output holds the API key")
	}
	filepath.WalkDir(home, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte(sandbox.DemoKey)) {
				t.Errorf("%s holds the API key", p)
			}
		}
		return nil
	})
}

// checkExportSummary exports the result to Excel: the summary sheet's
// figures are the job's.
func checkExportSummary(t *testing.T, result string, tr client.Trace) {
	t.Helper()
	xlsx := filepath.Join(t.TempDir(), "owners.xlsx")
	if code, _, errs := runCLI(t, "export", result, "--out", xlsx); code != 0 {
		t.Fatalf("export: %d %s", code, errs)
	}
	summary := readSummary(t, xlsx)
	for k, v := range map[string]int64{"Total rows": int64(tr.TotalRows), "Matches": int64(tr.MatchCount),
		"No matches": int64(tr.NoMatchCount), "Errors": int64(tr.ErrorCount), "Credits charged": tr.CreditsCharged,
		"Credits refunded": tr.CreditsRefunded, "Net credits": tr.CreditsCharged - tr.CreditsRefunded, "Rows exported": 3} {
		if summary[k] != itoa64(v) {
			t.Errorf("summary %q = %q, the job says %d", k, summary[k], v)
		}
	}
	if summary["Job ID"] != tr.ID || summary["Mode"] != tr.Mode || summary["Status"] != "completed" ||
		summary["Created"] != tr.CreatedAt.UTC().Format("2006-01-02 15:04:05")+" UTC" {
		t.Errorf("summary %v, job %+v", summary, tr)
	}
}

// checkJobsListed: skipdesk-cli jobs lists the trace with its spend, as JSON
// and as a table.
func checkJobsListed(t *testing.T, tr client.Trace) {
	t.Helper()
	code, out, errs := runCLI(t, "jobs", "--json")
	if code != 0 {
		t.Fatalf("jobs: %d %s", code, errs)
	}
	var got jobsOut
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Jobs) != 1 || got.Jobs[0].ID != tr.ID || got.Jobs[0].Status != "completed" || got.Jobs[0].Charged != 3 ||
		got.Jobs[0].Refunded != tr.CreditsRefunded || got.Jobs[0].Result == "" || got.Spend["net"] != 3-tr.CreditsRefunded {
		t.Fatalf("jobs: %s", out)
	}
	code, out, _ = runCLI(t, "jobs")
	// The job is named after the person's file; the submission's tag stays
	// in the uploaded file's name, on the server.
	if code != 0 || !strings.Contains(out, tr.ID) || !strings.Contains(out, " owners.csv ") || strings.Contains(out, "[sd-") ||
		!strings.Contains(out, "total: charged 3") {
		t.Fatalf("jobs table: %s", out)
	}
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }

func TestDNCSubmitWaitOut(t *testing.T) {
	sb := startSubmitSandbox(t, 0.3)
	submitEnv(t, sb)
	p := filepath.Join(t.TempDir(), "phones.csv")
	os.WriteFile(p, []byte("Name,Phone\r\nA,(512) 555-0101\r\nB,512-555-0102\r\nC,nope\r\n"), 0o644)
	out := t.TempDir()
	code, stdout, errs := runCLI(t, "dnc", "submit", "--file", p, "--phone-column", "Phone", "--leave-out-invalid=false", "--wait", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, errs)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "dnc_") || !strings.HasPrefix(lines[1], "result "+out) ||
		lines[2] != "spend charged 3 refunded 1 net 2" {
		t.Fatalf("stdout %q", stdout)
	}
	data, err := os.ReadFile(strings.TrimPrefix(lines[1], "result "))
	if err != nil || !strings.Contains(string(data), "phone_normalized") {
		t.Fatalf("copied result: %v %q", err, data)
	}
	if code, _, errs := runCLI(t, "dnc", "submit", "--file", p); code != exitUsage || !strings.Contains(errs, "--phone-column") {
		t.Fatalf("without --phone-column: %d %s", code, errs)
	}
}

func TestSubmitOutcomeUnknown(t *testing.T) {
	sb := startSubmitSandbox(t, 0.3)
	submitEnv(t, sb)
	sb.srv.SetFaults(sandbox.Faults{DropCreateResponses: 1})
	file := writeOwners(t)
	code, out, errs := runCLI(t, append([]string{"traces", "submit", "--file", file}, submitMaps...)...)
	if code != exitOutcomeUnknown || !strings.Contains(errs, "may have been") || !strings.Contains(errs, "skipdesk-cli jobs reconcile") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = runCLI(t, "jobs")
	if code != 0 || !strings.Contains(out, "unknown — may be charged") {
		t.Fatalf("jobs: %s", out)
	}
	code, out, errs = runCLI(t, "jobs", "reconcile")
	_, traces := sb.jobs(t)
	if code != 0 || !strings.Contains(out, "created") || !strings.Contains(out, traces[0].ID) {
		t.Fatalf("reconcile: exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "jobs", "wait")
	if code != 0 {
		t.Fatalf("jobs wait: %d %s %s", code, out, errs)
	}
	if n, _ := sb.jobs(t); n != 1 || sb.downloads.Load() != 1 {
		t.Fatalf("%d jobs, %d downloads", n, sb.downloads.Load())
	}
}

func TestSubmitWhileTheAppHoldsTheLedger(t *testing.T) {
	sb := startSubmitSandbox(t, 0.3)
	home := submitEnv(t, sb)
	led, err := ledger.Open(home) // the desktop app
	if err != nil {
		t.Fatal(err)
	}
	defer led.Close()
	if err := led.Jobs().UpsertJob(context.Background(), ledger.Job{ID: "trc_app", Kind: jobs.KindTrace, Name: "app.csv", Status: "processing"}); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "jobs")
	if code != 0 || !strings.Contains(out, "trc_app") {
		t.Fatalf("jobs while the app runs: %d %s", code, out)
	}
	code, _, errs := runCLI(t, append([]string{"traces", "submit", "--file", writeOwners(t)}, submitMaps...)...)
	if code != exitFailure || !strings.Contains(errs, "is using this account's job records") {
		t.Fatalf("submit while the app runs: %d %s", code, errs)
	}
	if n, _ := sb.jobs(t); n != 0 {
		t.Fatal("submitted although the ledger was held")
	}
}

func TestJobsEmpty(t *testing.T) {
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	code, out, _ := runCLI(t, "jobs")
	if code != 0 || strings.TrimSpace(out) != "no jobs yet" {
		t.Fatalf("%d %q", code, out)
	}
}

// readSummary reads the Summary sheet of an exported workbook: label → value.
func readSummary(t *testing.T, path string) map[string]string {
	t.Helper()
	got := map[string]string{}
	for _, r := range sheetRows(t, path, "Summary") {
		if len(r) == 2 {
			got[r[0]] = r[1]
		}
	}
	return got
}

// A library folder that cannot take the result is found before paying.
func TestSubmitWaitUnwritableLibrary(t *testing.T) {
	sb := startSubmitSandbox(t, 0.3)
	home := submitEnv(t, sb)
	// A file where the results folder goes: no write in it can succeed,
	// whoever runs the test.
	if err := os.WriteFile(filepath.Join(home, "results"), []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCLI(t, append(append([]string{"traces", "submit", "--file", writeOwners(t)}, submitMaps...), "--wait")...)
	if code != exitFailure || !strings.Contains(errs, filepath.Join(home, "results")) || !strings.Contains(errs, "nothing was submitted") {
		t.Fatalf("exit %d, %s", code, errs)
	}
	if n, _ := sb.jobs(t); n != 0 {
		t.Fatalf("%d jobs submitted", n)
	}
}

func sha256File(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Figures that cannot be right are shown as reported and not summed into
// the spend total.
func TestJobsLeavesImplausibleFiguresOutOfTheTotal(t *testing.T) {
	home := t.TempDir()
	t.Setenv("SKIPDESK_HOME", home)
	led, err := ledger.Open(home)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for id, s := range map[string]ledger.Spend{"trc_ok": {Charged: 100, Refunded: 20}, "trc_neg": {Charged: 10, Refunded: -90}} {
		if err := led.Jobs().RecordJobState(ctx, ledger.Job{ID: id, Kind: jobs.KindTrace, Status: jobs.StatusCompleted, Name: id}, s); err != nil {
			t.Fatal(err)
		}
	}
	led.Close()
	code, out, errs := runCLI(t, "jobs")
	if code != 0 || !strings.Contains(out, "total: charged 100, refunded 20, net 80") || !strings.Contains(out, "not counted: job trc_neg") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
}

// A service that reports an absurd charge: the submission's line and
// --wait's spend show the figures as reported and flag them, as the jobs
// list does, never as if they were right.
func TestSubmitWaitFlagsAbsurdFigures(t *testing.T) {
	sb := startSubmitSandbox(t, 0.2)
	submitEnv(t, sb)
	charged := regexp.MustCompile(`"credits_charged":\s*\d+`)
	absurd := func(_ *http.Request, body []byte) []byte {
		return charged.ReplaceAll(body, []byte(`"credits_charged": 99000000000`))
	}
	sb.edit.Store(&absurd)
	code, out, errs := runCLI(t, append(append([]string{"traces", "submit", "--file", writeOwners(t)}, submitMaps...), "--wait")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "charged 99,000,000,000 credits (cannot be right: the service reported an absurd charge") {
		t.Errorf("the submission's line is not flagged:\n%s", errs)
	}
	if !strings.Contains(out, "spend charged 99000000000") || !strings.Contains(out, "cannot be right: the service reported an absurd charge") {
		t.Errorf("--wait's spend is not flagged:\n%s", out)
	}
}

// --wait-limit: a job that has not finished in time is left tracked, and
// the command says so and how to follow it later; the job is not lost.
func TestSubmitWaitLimit(t *testing.T) {
	sb := startSubmitSandbox(t, 30) // each job takes 30 s
	submitEnv(t, sb)
	file := writeOwners(t)
	code, out, errs := runCLI(t, append(append([]string{"traces", "submit", "--file", file}, submitMaps...), "--wait", "--wait-limit", "1s")...)
	n, traces := sb.jobs(t)
	if code != exitAPI || n != 1 {
		t.Fatalf("exit %d, %d jobs\n%s\n%s", code, n, out, errs)
	}
	id := traces[0].ID
	if !strings.Contains(errs, "has not finished after 1s") || !strings.Contains(errs, "jobs wait "+id) {
		t.Errorf("stderr does not say the job is still followed and how: %q", errs)
	}
	if code, out, _ := runCLI(t, "jobs"); code != 0 || !strings.Contains(out, id) {
		t.Errorf("the job is not in the ledger: %d %q", code, out)
	}
}
