// Command gen writes a generated owner list (see package corpus):
//
//	go run ./jobs/input/internal/gen -size 50000000 -o owners.csv
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/skipdesk/skipdesk/jobs/input/internal/corpus"
)

func main() {
	out := flag.String("o", "owners.csv", "output file")
	size := flag.Int64("size", 50_000_000, "stop once the file has this many bytes")
	rows := flag.Int("rows", -1, "stop after this many rows (-1: no limit)")
	seed := flag.Uint64("seed", 1, "random seed")
	enc := flag.String("encoding", "UTF-8", `"UTF-8", "UTF-8 BOM", "UTF-16LE", "UTF-16BE" or "Windows-1252"`)
	flag.Parse()
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	g := corpus.New(*seed)
	n, err := corpus.WriteUntil(bw, g, *rows, *size, corpus.Format{Encoding: *enc})
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Close()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	fmt.Printf("%s: %d bytes, %d rows, %d company rows, %d duplicates\n", *out, n, g.Expect.Rows, g.Expect.EntityRows, g.Expect.DuplicateRows)
}
