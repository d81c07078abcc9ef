//go:build benchprofile

package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// A build for measuring (-tags benchprofile, bench/quote.sh): with
// SKIPDESK_CPUPROFILE set, the command's CPU profile is written there.
func init() {
	path := os.Getenv("SKIPDESK_CPUPROFILE")
	if path == "" {
		return
	}
	profile = func() func() {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintf(os.Stderr, "skipdesk-cli: the CPU profile: %v\n", err)
			return func() {}
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "skipdesk-cli: the CPU profile: %v\n", err)
			f.Close()
			return func() {}
		}
		return func() {
			pprof.StopCPUProfile()
			f.Close()
		}
	}
}
