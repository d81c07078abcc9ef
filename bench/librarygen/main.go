// Command librarygen writes the library of bench/library.sh: generated
// trace results (26 columns, ≈196 bytes a row) with their job records.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/skipdesk/skipdesk/jobs/index/indextest"
)

func main() {
	dir := flag.String("dir", "library/results", "the library folder")
	n := flag.Int("results", 20, "results")
	rows := flag.Int("rows", 400_000, "data rows of each result")
	flag.Parse()
	paths, err := indextest.WriteLibrary(*dir, *n, *rows)
	if err != nil {
		fmt.Fprintln(os.Stderr, "librarygen:", err)
		os.Exit(1)
	}
	for _, p := range paths {
		fmt.Println(p)
	}
}
