package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/sqldb/pgtest"
)

// TestMain gives the package's tests a data folder of their own. Commands
// run in-process read SKIPDESK_HOME as the real program does, and without it
// they would open the user's folder (~/.config/SkipDesk): its ledger and
// settings would change what the tests see, and the tests would write into
// them. Tests that need a fresh folder still set their own. The team
// database's tests share one throwaway PostgreSQL server.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "skipdesk-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("SKIPDESK_HOME", home)
	code := pgtest.Main(m)
	os.RemoveAll(home)
	os.Exit(code)
}
