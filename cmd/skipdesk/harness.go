//go:build harness

package main

// A build for tests (-tags harness) carries the end-to-end tests: the
// binary runs a suite of them when started with SKIPDESK_E2E=<suite>.
import _ "github.com/skipdesk/skipdesk/e2e"
