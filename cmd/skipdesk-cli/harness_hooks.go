//go:build harness

package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// pauseEnv names the step at which a test stops the process.
const pauseEnv = "SKIPDESK_TEST_PAUSE_AT"

// harness, in a build for tests only: when SKIPDESK_TEST_PAUSE_AT names a
// step of a submission or a download, the process says so on stderr and
// stops there for good, so that a test can kill it at exactly that point.
func harness(cfg *workflow.Config, stderr io.Writer) {
	at := os.Getenv(pauseEnv)
	if at == "" {
		return
	}
	cfg.OnStep = func(step string) {
		if step != at {
			return
		}
		fmt.Fprintf(stderr, "SKIPDESK_PAUSED %s\n", step)
		for {
			time.Sleep(time.Hour)
		}
	}
}
