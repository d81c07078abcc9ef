package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// apiSandbox starts a sandbox with tiny delays and a webhook receiver, and
// points the CLI at it with the demo key.
func apiSandbox(t *testing.T) (*sandbox.Server, *client.Client) {
	t.Helper()
	return apiSandboxWith(t, sandbox.Processing{MinSeconds: 0.01})
}

// apiSandboxWith is apiSandbox with the jobs' processing time given.
func apiSandboxWith(t *testing.T, p sandbox.Processing) (*sandbox.Server, *client.Client) {
	t.Helper()
	keyring.MockInit()
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(hook.Close)
	cfg := sandbox.DefaultConfig()
	cfg.Processing = p
	cfg.Keys[0].WebhookURL = hook.URL
	cfg.Keys[0].WebhookSecret = "whsec_cli"
	srv, c := clienttest.Sandbox(t, cfg)
	// A fresh data folder: the commands that go through the ledger (traces
	// single) must not write into the user's own.
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	t.Setenv("SKIPDESK_API_KEY", sandbox.DemoKey)
	t.Setenv("SKIPDESK_BASE_URL", srv.URL())
	t.Setenv("SKIPDESK_HOME", t.TempDir()) // single lookups are recorded in its ledger
	return srv, c
}

// checkSinglesRecorded: every single lookup is charged, so each is in the
// ledger with the job the service created.
func checkSinglesRecorded(t *testing.T, want int) {
	t.Helper()
	led := readLedger(t, os.Getenv("SKIPDESK_HOME"))
	subs, err := led.Submissions().List(context.Background())
	led.Close()
	var singles int
	for _, s := range subs {
		if s.Kind == jobs.KindSingle && s.State == ledger.StateCreated && s.JobID != "" {
			singles++
		}
	}
	if err != nil || singles != want {
		t.Fatalf("the ledger holds %d created single lookups, want %d (%v)", singles, want, err)
	}
}

func decodeJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
}

const cliOwners = "First,Last,Street,City,State,Zip\nJohn,Smith,1 Main St,Austin,TX,78701\nAcme LLC,,2 Oak Ave,Austin,TX,78702\n"

var cliMapping = map[string]string{"first_name": "First", "last_name": "Last",
	"property_street": "Street", "property_city": "City", "property_state": "State", "property_zip": "Zip"}

func TestCLIAccountAndPricing(t *testing.T) {
	apiSandbox(t)
	code, out, errOut := runCLI(t, "account")
	if code != 0 || !strings.Contains(out, "25,000") || !strings.Contains(out, "prepaid") || !strings.Contains(out, "Sandbox") {
		t.Fatalf("account: %d %q %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, "--json", "account")
	var a client.Account
	decodeJSON(t, out, &a)
	if code != 0 || a.Credits != 25000 || a.Subscription == nil {
		t.Fatalf("account --json: %+v", a)
	}
	code, out, _ = runCLI(t, "pricing")
	if code != 0 || !strings.Contains(strings.Join(strings.Fields(out), " "), "enhanced trace 3 credits per row company/LLC row 2 credits per row") {
		t.Fatalf("pricing: %q", out)
	}
	code, out, _ = runCLI(t, "pricing", "--json")
	var p client.Pricing
	decodeJSON(t, out, &p)
	if code != 0 || p.Rates.LLC != 2 {
		t.Fatalf("pricing --json: %q", out)
	}
}

func TestCLITraceCommands(t *testing.T) {
	srv, c := apiSandbox(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "owners.csv")
	os.WriteFile(path, []byte(cliOwners), 0o644)
	cr, err := c.Traces.Create(context.Background(), &client.TraceUpload{Path: path, ColumnMapping: cliMapping, IncludeLLCs: true})
	if err != nil {
		t.Fatal(err)
	}
	srv.FinishPending()

	code, out, errOut := runCLI(t, "traces", "single", "--first-name", "Ann", "--last-name", "Lee", "--address", "4 Pine Rd",
		"--city", "Austin", "--state", "TX", "--zip", "78704")
	if code != 0 || !strings.Contains(out, "Ann Lee") || !strings.Contains(out, "Credits") {
		t.Fatalf("single: %d %q %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, "traces", "single", "--json", "--first-name", "Acme Holdings LLC", "--address", "1 Main St",
		"--city", "Austin", "--state", "TX", "--zip", "78701", "--mailing-address", "PO Box 1", "--mailing-city", "Reno",
		"--mailing-state", "NV", "--mailing-zip", "89501")
	var single client.SingleTraceResult
	decodeJSON(t, out, &single)
	if code != 0 || !single.IsEntity || single.Credits != 2 {
		t.Fatalf("entity single: %+v", single)
	}

	checkSinglesRecorded(t, 2)

	code, out, _ = runCLI(t, "traces", "list")
	if code != 0 || !strings.Contains(out, cr.ID) || !strings.Contains(out, "page 1 of 1 (3 trace jobs in all)") {
		t.Fatalf("list: %q", out)
	}
	code, out, _ = runCLI(t, "traces", "list", "--type", "single", "--json")
	var l client.TraceList
	decodeJSON(t, out, &l)
	if code != 0 || len(l.Traces) != 2 || l.Metadata.TotalCount != 2 {
		t.Fatalf("list --type single: %s", out)
	}
	code, out, _ = runCLI(t, "traces", "list", "--all", "--limit", "1", "--json")
	var all struct{ Traces []client.Trace }
	decodeJSON(t, out, &all)
	if code != 0 || len(all.Traces) != 3 {
		t.Fatalf("list --all: %s", out)
	}

	code, out, _ = runCLI(t, "traces", "get", cr.ID)
	if code != 0 || !strings.Contains(out, "completed") || !strings.Contains(out, "companies") || !strings.Contains(out, "owners.csv") {
		t.Fatalf("get: %q", out)
	}
	code, out, _ = runCLI(t, "traces", "get", cr.ID, "--json")
	var tr client.Trace
	decodeJSON(t, out, &tr)
	if code != 0 || tr.ID != cr.ID || tr.Breakdown == nil {
		t.Fatalf("get --json: %s", out)
	}

	code, out, errOut = runCLI(t, "traces", "download", cr.ID, "--out", dir)
	want := filepath.Join(dir, cr.ID+".csv")
	data, _ := os.ReadFile(want)
	if code != 0 || !strings.Contains(out, want) || !bytes.Contains(data, []byte("match_status")) {
		t.Fatalf("download: %d %q %q", code, out, errOut)
	}
	code, out, _ = runCLI(t, "traces", "retry-webhook", cr.ID)
	if code != 0 || !strings.Contains(out, "queued webhook delivery whd_") {
		t.Fatalf("retry-webhook: %q", out)
	}
}

func TestCLIDNCCommands(t *testing.T) {
	// The scrub stays in processing until the test finishes it.
	srv, c := apiSandboxWith(t, sandbox.Processing{MinSeconds: 3600})
	dir := t.TempDir()
	path := filepath.Join(dir, "phones.csv")
	os.WriteFile(path, []byte("Phone\n2125550147\nbad\n"), 0o644)
	cr, err := c.DNC.Create(context.Background(), &client.DNCUpload{Path: path, PhoneColumn: "Phone"})
	if err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "dnc", "download", cr.ID, "--out", filepath.Join(dir, "early.csv"))
	if code != exitAPI || !strings.Contains(errOut, "not available") {
		t.Fatalf("download while processing: %d %q", code, errOut)
	}
	srv.FinishPending()
	code, out, _ := runCLI(t, "dnc", "list")
	if code != 0 || !strings.Contains(out, cr.ID) || !strings.Contains(out, "completed") {
		t.Fatalf("dnc list: %q", out)
	}
	code, out, _ = runCLI(t, "dnc", "list", "--all", "--json")
	var all struct{ Jobs []client.DNCJob }
	decodeJSON(t, out, &all)
	if code != 0 || len(all.Jobs) != 1 {
		t.Fatalf("dnc list --all: %s", out)
	}
	code, out, _ = runCLI(t, "dnc", "get", cr.ID)
	if code != 0 || !strings.Contains(out, "1 invalid") {
		t.Fatalf("dnc get: %q", out)
	}
	dest := filepath.Join(dir, "scrubbed.csv")
	code, _, errOut = runCLI(t, "dnc", "download", "--out", dest, cr.ID)
	if data, _ := os.ReadFile(dest); code != 0 || !bytes.Contains(data, []byte("phone_normalized")) {
		t.Fatalf("dnc download: %d %q", code, errOut)
	}
	code, out, _ = runCLI(t, "dnc", "retry-webhook", cr.ID, "--json")
	var d client.WebhookDelivery
	decodeJSON(t, out, &d)
	if code != 0 || d.Status != "pending" {
		t.Fatalf("dnc retry-webhook: %s", out)
	}
}

func TestCLIAPIErrors(t *testing.T) {
	srv, _ := apiSandbox(t)
	single := []string{"traces", "single", "--first-name", "Ann", "--address", "4 Pine Rd", "--city", "Austin", "--state", "TX", "--zip", "78704"}

	code, _, errOut := runCLI(t, "traces", "get", "trc_missing")
	if code != exitAPI || !strings.Contains(errOut, "does not know this job") {
		t.Errorf("404: %d %q", code, errOut)
	}
	srv.SetCredits(sandbox.DemoKey, 0)
	code, _, errOut = runCLI(t, single...)
	if code != exitAPI || !strings.Contains(errOut, "This needs 1 credit; the balance is 0") {
		t.Errorf("402: %d %q", code, errOut)
	}
	// A company name costs the llc rate, with or without --entity.
	srv.SetCredits(sandbox.DemoKey, 1)
	code, _, errOut = runCLI(t, "traces", "single", "--first-name", "Acme Holdings LLC", "--address", "4 Pine Rd", "--city", "Austin", "--state", "TX", "--zip", "78704")
	if code != exitAPI || !strings.Contains(errOut, "This needs 2 credits; the balance is 1 (1 short)") {
		t.Errorf("402 for a company: %d %q", code, errOut)
	}
	srv.SetBanned(sandbox.DemoKey, true)
	code, _, errOut = runCLI(t, "account")
	if code != exitAPI || !strings.Contains(errOut, "not allowed") {
		t.Errorf("403: %d %q", code, errOut)
	}
	t.Setenv("SKIPDESK_API_KEY", "sk_wrong_0123456789")
	code, _, errOut = runCLI(t, "pricing")
	if code != exitAPI || !strings.Contains(errOut, "did not accept the API key") || strings.Contains(errOut, "sk_wrong_0123456789") {
		t.Errorf("401: %d %q", code, errOut)
	}
}

// A 402 is explained by what caused it: a past-due account (prepaid or
// metered) is not "short by 0 credits"; an unexplained refusal with enough
// credits says so.
func TestCLIPaymentRequiredWording(t *testing.T) {
	srv, _ := apiSandbox(t)
	single := []string{"traces", "single", "--first-name", "Ann", "--address", "4 Pine Rd", "--city", "Austin", "--state", "TX", "--zip", "78704"}
	srv.SetPastDue(sandbox.DemoKey, true)
	code, _, errOut := runCLI(t, single...)
	if code != exitAPI || !strings.Contains(errOut, "past due") || strings.Contains(errOut, " short)") || strings.Contains(errOut, "not enough credits") {
		t.Errorf("prepaid past due: %d %q", code, errOut)
	}
	srv.SetPastDue(sandbox.DemoKey, false)

	// A provider answering 402 without a code, with the balance enough.
	keyring.MockInit()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		switch r.URL.Path {
		case "/v1/account":
			io.WriteString(w, `{"credits":500,"billing_mode":"prepaid"}`)
		case "/v1/pricing":
			io.WriteString(w, `{"rates":{"normal":1,"enhanced":3,"llc":2,"dnc":1}}`)
		default:
			w.WriteHeader(402)
			io.WriteString(w, `{"error":"payment required"}`)
		}
	}))
	defer hs.Close()
	code, _, errOut = runCLI(t, append([]string{"--base-url", hs.URL + "/v1"}, single...)...)
	if code != exitAPI || !strings.Contains(errOut, "refused the charge although the balance (500 credits) covers this job (1 credit)") {
		t.Errorf("402 with enough credits: %d %q", code, errOut)
	}
}

func TestCLIUnknownOutcomeAndValidation(t *testing.T) {
	keyring.MockInit()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		switch r.URL.Path {
		case "/v1/traces/single":
			conn, _, _ := http.NewResponseController(w).Hijack()
			conn.Close()
		case "/v1/account":
			w.WriteHeader(400)
			io.WriteString(w, `{"error":{"code":"VALIDATION_ERROR","message":"bad","details":[{"field":"x","message":"y"}]}}`)
		default:
			w.WriteHeader(503)
		}
	}))
	defer srv.Close()
	t.Setenv("SKIPDESK_API_KEY", "sk_test_1")
	base := srv.URL + "/v1"
	code, _, errOut := runCLI(t, "--base-url", base, "traces", "single", "--first-name", "Ann", "--address", "4 Pine Rd",
		"--city", "Austin", "--state", "TX", "--zip", "78704")
	if code != exitOutcomeUnknown || !strings.Contains(errOut, "may have been created and charged") {
		t.Errorf("unknown outcome: %d %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "--base-url", base, "account")
	if code != exitUsage || !strings.Contains(errOut, "x: y") {
		t.Errorf("400: %d %q", code, errOut)
	}
}

func TestCLIConfigurationErrors(t *testing.T) {
	keyring.MockInit()
	t.Setenv("SKIPDESK_BASE_URL", "")
	t.Setenv("SKIPDESK_API_KEY", "sk_test_1")
	code, _, errOut := runCLI(t, "account")
	if code != exitUsage || !strings.Contains(errOut, "SKIPDESK_BASE_URL") {
		t.Errorf("no base URL: %d %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "--base-url", "http://api.example.com/v1", "account")
	if code != exitUsage || !strings.Contains(errOut, "https") {
		t.Errorf("plain http: %d %q", code, errOut)
	}
	t.Setenv("SKIPDESK_API_KEY", "")
	code, _, errOut = runCLI(t, "--base-url", "https://api.example.com/v1", "account")
	if code != exitUsage || !strings.Contains(errOut, "SKIPDESK_API_KEY") {
		t.Errorf("no key: %d %q", code, errOut)
	}

	// The key from the keyring when the variable is unset.
	srv, _ := apiSandbox(t)
	t.Setenv("SKIPDESK_API_KEY", "")
	if err := secrets.OS().Set(context.Background(), secrets.APIKey, sandbox.DemoKey); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "--base-url", srv.URL(), "account")
	if code != 0 {
		t.Errorf("key from keyring: %d %q", code, errOut)
	}
	keyring.MockInitWithError(errors.New("no secret service"))
	code, _, errOut = runCLI(t, "account")
	if code != exitUsage || !strings.Contains(errOut, "SKIPDESK_API_KEY") {
		t.Errorf("broken keyring: %d %q", code, errOut)
	}
	keyring.MockInit()
}

func TestCLIUsageErrors(t *testing.T) {
	apiSandbox(t)
	for _, args := range [][]string{
		{"account", "extra"},
		{"pricing", "extra"},
		{"traces", "get"},
		{"traces", "get", "a", "b"},
		{"traces", "list", "--limit", "500"},
		{"traces", "list", "--page", "-1"},
		{"traces", "list", "--type", "weekly"},
		{"traces", "list", "stray"},
		{"dnc", "list", "--limit", "0x"},
		{"dnc", "list", "stray"},
		{"traces", "download", "trc_1"},
		{"traces", "single", "--first-name", "A"},
		{"traces", "single", "--first-name", "A", "--address", "1", "--city", "B", "--state", "Texas", "--zip", "78701"},
		{"traces", "single", "--first-name", "A", "--address", "1", "--city", "B", "--state", "TX", "--zip", "78701", "--mailing-city", "C"},
		{"traces", "single", "--first-name", "A", "--address", "1", "--city", "B", "--state", "TX", "--zip", "78701", "--mailing-address", "C"},
		{"traces", "single", "stray"},
	} {
		if code, _, errOut := runCLI(t, args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

func TestClassifyAPIError(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code int
	}{
		{&client.APIError{StatusCode: 400}, exitUsage},
		{&client.APIError{StatusCode: 402}, exitAPI},
		{&client.APIError{StatusCode: 503}, exitAPI},
		{&client.TransportError{Op: "GET /x", Err: errors.New("reset")}, exitAPI},
		{&client.TransportError{Op: "POST /dnc", Err: errors.New("reset"), OutcomeUnknown: true}, exitOutcomeUnknown},
		{&exitError{code: exitFailure, err: &client.TransportError{Op: "POST /dnc", Err: errors.New("reset"), OutcomeUnknown: true}}, exitOutcomeUnknown},
		{errors.New("other"), exitFailure},
	} {
		if code := exitCode(tc.err); code != tc.code {
			t.Errorf("%v: %d", tc.err, code)
		}
	}
	if num(1234567) != "1,234,567" || num(-1000) != "-1,000" || num(12) != "12" {
		t.Error("num")
	}
}

// A server that echoes the key into every error body, in each shape: no
// command prints it, and each exits 3 (4 for the charged single trace on a
// 5xx).
func TestCLIKeyNeverPrinted(t *testing.T) {
	keyring.MockInit()
	const key = "sk_live_DoNotPrint_0123456789"
	shapes := []string{
		`{"error":{"code":"VALIDATION_ERROR","message":"bad %s","details":[{"field":"%[1]s","message":"%[1]s"}]}}`,
		`{"error":"key %s refused","code":"%[1]s"}`,
		`{"error":"mapping %s","details":["%[1]s"]}`,
		`<html><title>%s</title></html>`,
		`%s`,
	}
	for i, shape := range shapes {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			status := 422
			if r.URL.Path == "/v1/traces/single" {
				status = 500
			}
			w.WriteHeader(status)
			fmt.Fprintf(w, shape, r.Header.Get("Authorization"))
		}))
		t.Setenv("SKIPDESK_API_KEY", key)
		t.Setenv("SKIPDESK_BASE_URL", srv.URL+"/v1")
		out := filepath.Join(t.TempDir(), "r.csv")
		for _, args := range [][]string{
			{"account"}, {"pricing"}, {"traces", "list", "--all"}, {"traces", "get", "trc_1"}, {"dnc", "get", "dnc_1"},
			{"dnc", "list"}, {"traces", "download", "trc_1", "--out", out}, {"dnc", "retry-webhook", "dnc_1"},
			{"traces", "single", "--first-name", "A", "--address", "1 B", "--city", "C", "--state", "TX", "--zip", "78701"},
		} {
			code, stdout, stderr := runCLI(t, args...)
			want := exitAPI
			if args[0] == "traces" && args[1] == "single" {
				want = exitOutcomeUnknown
			}
			if code != want || stderr == "" {
				t.Errorf("shape %d, %v: exit %d, stderr %q", i, args, code, stderr)
			}
			if strings.Contains(stdout+stderr, key) || strings.Contains(stdout+stderr, key[:12]) {
				t.Errorf("shape %d, %v: the key is printed: %q", i, args, stdout+stderr)
			}
		}
		srv.Close()
	}
}

// A listing prints the API's page as JSON (its _metadata first, when there
// was one) and as a table with its footer, or says there are no jobs.
func TestJobTableShow(t *testing.T) {
	md := &client.Metadata{Page: 1, PerPage: 10, PageCount: 1, TotalCount: 1}
	one := []client.DNCJob{{ID: "d1", Status: client.StatusCompleted, TotalRows: 3}}
	for _, tc := range []struct {
		name   string
		json   bool
		listed workflow.Listed[client.DNCJob]
		want   string
	}{
		{"json page", true, workflow.Listed[client.DNCJob]{Jobs: one, Metadata: md},
			`{"_metadata":{"page":1,"per_page":10,"page_count":1,"total_count":1},"jobs":[{"id":"d1",`},
		{"json without metadata", true, workflow.Listed[client.DNCJob]{}, `{"jobs":[]}`},
		{"table", false, workflow.Listed[client.DNCJob]{Jobs: one, Metadata: md}, "page 1 of 1 (1 DNC jobs in all)"},
		{"empty", false, workflow.Listed[client.DNCJob]{}, "no DNC jobs\n0 DNC jobs\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			env := &Env{Stdout: &out, Stderr: io.Discard, JSON: tc.json}
			if err := dncTable.show(env, tc.listed); err != nil {
				t.Fatal(err)
			}
			got := out.String()
			if tc.json {
				var compact bytes.Buffer
				if err := json.Compact(&compact, out.Bytes()); err != nil {
					t.Fatalf("%v: %s", err, got)
				}
				got = compact.String()
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("got %q, want it to hold %q", got, tc.want)
			}
		})
	}
}

// A job's details show its encoded id only where it differs, its completion
// only once there is one, its error only when it has one, and "-" for a
// result not yet available.
func TestPrintJobDetails(t *testing.T) {
	created := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	msg, url := "the file could not be read", "https://example.test/r.csv"
	for _, tc := range []struct {
		name      string
		print     func(w io.Writer)
		want, not []string
	}{
		{"failed dnc", func(w io.Writer) {
			printDNC(w, &client.DNCJob{ID: "dnc_1", EncodedID: "ZG5j", Status: client.StatusFailed, CreatedAt: created, ErrorMessage: &msg})
		}, []string{"Encoded ID  ZG5j", "Error       the file could not be read", "Created     " + when(created), "Result      -"},
			[]string{"Completed"}},
		{"completed trace", func(w io.Writer) {
			printTrace(w, &client.Trace{ID: "trc_1", EncodedID: "trc_1", Status: client.StatusCompleted, CreatedAt: created,
				CompletedAt: created.Add(time.Hour), DownloadURL: &url})
		}, []string{"ID", "Completed", when(created.Add(time.Hour)), "Result", url},
			[]string{"Encoded ID", "Error"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			tc.print(&b)
			wantLines(t, "details", b.String(), tc.want...)
			for _, n := range tc.not {
				if strings.Contains(b.String(), n) {
					t.Errorf("details hold %q:\n%s", n, b.String())
				}
			}
		})
	}
}
