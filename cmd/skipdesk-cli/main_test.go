package main

import (
	"fmt"
	"os"
	"testing"
)

// TestMain gives every test a data folder of its own by default: no test
// writes to the data folder of the person running them.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "skipdesk-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("SKIPDESK_HOME", home)
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}
