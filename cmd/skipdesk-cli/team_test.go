package main

import (
	"encoding/json"
	"strings"
	"testing"

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
