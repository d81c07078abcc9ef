//go:build !harness

package main

import (
	"io"

	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// harness adds the test harness's hooks to the configuration: none in a
// release build (see harness_hooks.go, built with -tags harness).
func harness(*workflow.Config, io.Writer) {}
