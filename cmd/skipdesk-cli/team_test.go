package main

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"

	"github.com/skipdesk/skipdesk/jobs/sqldb/pgtest"
)

// The command line on a team's database from SKIPDESK_DATABASE_URL: team
// share moves this computer's internal list into it, team says which
// database and computer, the list is then the team's; the password never
// shows.
func TestTeamCommands(t *testing.T) {
	url := pgtest.URL(t)
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	if code, _, stderr := runCLI(t, "dnc-list", "add", "(512) 555-0142", "--reason", "asked"); code != 0 {
		t.Fatalf("dnc-list add: %d %s", code, stderr)
	}
	if code, stdout, _ := runCLI(t, "team"); code != 0 || !strings.Contains(stdout, "keeps its own records") {
		t.Fatalf("team before sharing: %d %q", code, stdout)
	}
	t.Setenv("SKIPDESK_DATABASE_URL", url)
	code, stdout, stderr := runCLI(t, "team", "share", "--name", "ci-box")
	if code != 0 || !strings.Contains(stdout, "1 numbers of the internal list") {
		t.Fatalf("team share: %d %q %q", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(t, "--json", "team")
	var st struct {
		On        bool     `json:"on"`
		FromEnv   bool     `json:"from_env"`
		Database  string   `json:"database"`
		Computer  string   `json:"computer"`
		Computers []string `json:"computers"`
	}
	if code != 0 || json.Unmarshal([]byte(stdout), &st) != nil || !st.On || !st.FromEnv || st.Computer != "ci-box" || st.Database == "" {
		t.Fatalf("team: %d %q %q", code, stdout, stderr)
	}
	if code, stdout, _ := runCLI(t, "dnc-list"); code != 0 || !strings.Contains(stdout, "(512) 555-0142") {
		t.Fatalf("the team's list: %d %q", code, stdout)
	}
	if code, _, stderr := runCLI(t, "team", "share", "postgres://x"); code != exitUsage || !strings.Contains(stderr, "never from the command line") {
		t.Fatalf("a connection string on the command line: %d %q", code, stderr)
	}
	for _, out := range []string{stdout, stderr} {
		if strings.Contains(out, pgtest.Password()) {
			t.Fatal("the database password was printed")
		}
	}
}

// results search on a team's database finds a row of a result on another
// computer and says whose library it is in.
func TestTeamResultsSearch(t *testing.T) {
	url := pgtest.URL(t)
	sb := startSubmitSandbox(t, 0.2)
	submitEnv(t, sb)
	t.Setenv("SKIPDESK_DATABASE_URL", url)
	t.Setenv("SKIPDESK_COMPUTER", "front-desk")
	file := writeOwners(t)
	code, out, errs := runCLI(t, append(append([]string{"traces", "submit", "--file", file}, submitMaps...), "--wait")...)
	if code != 0 {
		t.Fatalf("the front desk's trace: exit %d\n%s\n%s", code, out, errs)
	}
	if code, out, errs := runCLI(t, "results", "search", "ann lee"); code != 0 || !strings.Contains(out, "row 1") {
		t.Fatalf("the front desk's search: exit %d\n%s\n%s", code, out, errs)
	}
	// Another computer: its own data folder, the same team.
	submitEnv(t, sb)
	t.Setenv("SKIPDESK_COMPUTER", "back-office")
	code, out, errs = runCLI(t, "results", "search", "ann lee")
	if code != 0 || !strings.Contains(out, "in front-desk's library  row 1") {
		t.Fatalf("the back office's search: exit %d\n%s\n%s", code, out, errs)
	}
}

// withStdin runs f with text on standard input.
func withStdin(t *testing.T, text string, f func()) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString(text)
	w.Close()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin, _ = old, r.Close() }()
	f()
}

// team stop copies back what this computer needs on its own: a number a
// teammate put on the team's list is on this computer's list afterwards.
// --preview says what would be copied and stops nothing.
func TestCLITeamStopKeepsTheList(t *testing.T) {
	keyring.MockInit()
	url := pgtest.URL(t)
	home := t.TempDir()
	t.Setenv("SKIPDESK_HOME", home)
	t.Setenv("SKIPDESK_DATABASE_URL", "")
	withStdin(t, url+"\n", func() {
		if code, out, errOut := runCLI(t, "team", "share", "--name", "front-desk"); code != 0 {
			t.Fatalf("team share: %d %q %q", code, out, errOut)
		}
	})
	// A teammate, on the same database, adds a number.
	t.Setenv("SKIPDESK_HOME", t.TempDir())
	t.Setenv("SKIPDESK_DATABASE_URL", url)
	if code, _, errOut := runCLI(t, "dnc-list", "add", "(214) 555-0199", "--reason", "litigator's client"); code != 0 {
		t.Fatalf("the teammate's add: %d %q", code, errOut)
	}
	t.Setenv("SKIPDESK_HOME", home)
	t.Setenv("SKIPDESK_DATABASE_URL", "")

	code, out, errOut := runCLI(t, "team", "stop", "--preview")
	if code != 0 || !strings.Contains(out, "Stopping would copy back to this computer: the company's do-not-call list (1 number,") {
		t.Fatalf("team stop --preview: %d %q %q", code, out, errOut)
	}
	if code, out, _ := runCLI(t, "team"); code != 0 || !strings.Contains(out, "Team database:") {
		t.Fatalf("a preview stopped sharing: %d %q", code, out)
	}
	code, out, errOut = runCLI(t, "team", "stop")
	if code != 0 || !strings.Contains(out, "copied back from the team's database: the company's do-not-call list (1 number,") {
		t.Fatalf("team stop: %d %q %q", code, out, errOut)
	}
	if code, out, _ := runCLI(t, "dnc-list"); code != 0 || !strings.Contains(out, "(214) 555-0199") || !strings.Contains(out, "litigator's client") {
		t.Fatalf("this computer's list after stopping: %d %q", code, out)
	}
	if code, out, _ := runCLI(t, "team"); code != 0 || !strings.Contains(out, "keeps its own records") {
		t.Fatalf("team after stopping: %d %q", code, out)
	}
}

// A trace accepted (and charged) by the provider, after which the team's
// database goes away before the job is recorded: the command line says the
// outcome is unknown — may be charged — and exits 4, never "nothing was sent
// to the provider or charged".
func TestTeamAwayAfterUploadIsUnknown(t *testing.T) {
	proxy, viaProxy := pgtest.NewProxy(t, pgtest.URL(t))
	sb := startSubmitSandbox(t, 0.2)
	submitEnv(t, sb)
	t.Setenv("SKIPDESK_DATABASE_URL", viaProxy)
	t.Setenv("SKIPDESK_COMPUTER", "front-desk")
	cut := func(r *http.Request, body []byte) []byte {
		if r.Method == http.MethodPost {
			proxy.Cut()
		}
		return body
	}
	sb.edit.Store(&cut)
	code, out, errs := runCLI(t, append([]string{"traces", "submit", "--file", writeOwners(t)}, submitMaps...)...)
	if n, _ := sb.jobs(t); n != 1 {
		t.Fatalf("the provider has %d jobs, want the one accepted", n)
	}
	if code != exitOutcomeUnknown || !strings.Contains(errs, "may have been created and charged") || !strings.Contains(errs, "team's database") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if strings.Contains(errs, "nothing was sent") {
		t.Fatalf("says nothing was sent of a charged job:\n%s", errs)
	}
}
