//go:build harness

package main

// A build for tests (-tags harness) carries the end-to-end tests: the
// binary runs a suite of them when started with SKIPDESK_E2E=<suite>.
import (
	"fmt"
	"os"
	"time"

	"github.com/skipdesk/skipdesk/client"
	_ "github.com/skipdesk/skipdesk/e2e"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
)

// forTests, with SKIPDESK_E2E=list, prints the end-to-end suites and exits
// before any window opens (a window opened only to be closed at once can
// meet Fyne's glfw driver taking a pointer's move on a window already
// closing, and crash). With a suite named, it shortens the client's waits
// between tries of a server that is away (the suites take the sandbox away
// and bring it back): the app's behaviour is the same, the suite waits
// seconds instead of the quarter of a minute the release build gives a
// network to come back.
func forTests(cfg *workflow.Config) {
	if os.Getenv("SKIPDESK_E2E") == "list" {
		for _, n := range e2e.Names() {
			fmt.Println(n)
		}
		os.Exit(0)
	}
	if os.Getenv("SKIPDESK_E2E") != "" {
		cfg.Retry = client.RetryPolicy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	}
}
