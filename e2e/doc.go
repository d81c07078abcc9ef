//go:build harness

// Package e2e holds SkipDesk's end-to-end tests: small declarative tests,
// each one thing a person does ("a new trace shows its price before
// paying"), written against the driver of package ui/e2e (what a person
// does and sees) and its widget-tree helpers, never against the window's
// fields. They are grouped in suites, one start of the real binary each
// (SKIPDESK_E2E=<suite>), registered in init functions; the binary built
// with -tags harness imports this package (cmd/skipdesk/harness.go), and
// cmd/skipdesk's TestEndToEnd runs every suite under Xvfb.
package e2e
