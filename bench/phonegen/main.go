// Command phonegen writes the phone list of bench/quote.sh's scrub
// estimate: a name, a phone and a note a row, the numbers written as
// people's lists hold them (bare, punctuated, with a country code or an
// extension; blanks, junk and repeats among them).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
)

func main() {
	out := flag.String("o", "phones.csv", "output file")
	rows := flag.Int("rows", 1_000_000, "data rows")
	flag.Parse()
	if err := write(*out, *rows); err != nil {
		fmt.Fprintln(os.Stderr, "phonegen:", err)
		os.Exit(1)
	}
}

func write(path string, rows int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	fmt.Fprintln(w, "Name,Phone,Notes")
	var last string
	for i := range rows {
		d := fmt.Sprintf("%d%02d%d%06d", 2+rng.IntN(8), rng.IntN(100), 2+rng.IntN(8), rng.IntN(1_000_000))
		v := d
		switch rng.IntN(10) {
		case 0:
			v = fmt.Sprintf("(%s) %s-%s", d[:3], d[3:6], d[6:])
		case 1:
			v = d[:3] + "." + d[3:6] + "." + d[6:]
		case 2:
			v = "+1 " + d
		case 3:
			v = d + " x12"
		case 4:
			v = ""
		case 5:
			v = d[:7] // too short
		case 6:
			v = last // a repeat
		}
		last = v
		fmt.Fprintf(w, "Owner %d,%s,note %d\n", i, v, i%7)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
