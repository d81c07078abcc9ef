package prepare

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/input"
)

// benchList writes an owner list of about size bytes, semicolon-separated
// (so that it must be converted), with a duplicate every 20 rows.
func benchList(b *testing.B, size int64) string {
	b.Helper()
	p := filepath.Join(b.TempDir(), "owners.csv")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintln(w, "First;Last;Address;City;State;Zip;Mail Address;Mail City;Mail State;Mail Zip;Phone;Notes")
	var n int64
	for i := 0; n < size; i++ {
		j := i
		if i%20 == 19 {
			j = i - 1
		}
		k, _ := fmt.Fprintf(w, "John%d;Smith%d;%d Elm St;Austin;TX;787%02d;PO Box %d;Waco;TX;767%02d;(212) 555-%04d;owner since %d\n",
			j, j%977, j%9000, j%100, j%500, j%100, j%10000, 1950+j%70)
		n += int64(k)
	}
	w.Flush()
	f.Close()
	return p
}

func BenchmarkPrepare(b *testing.B) {
	const size = 20 << 20
	p := benchList(b, size)
	ins, err := input.Inspect(context.Background(), p, input.Options{KeyColumns: m.Columns()})
	if err != nil {
		b.Fatal(err)
	}
	for _, drop := range []bool{false, true} {
		b.Run(fmt.Sprintf("drop=%v", drop), func(b *testing.B) {
			b.SetBytes(ins.Size)
			b.ReportAllocs()
			for b.Loop() {
				u, err := Prepare(context.Background(), p, ins, Plan{Mapping: m, DropDuplicates: drop})
				if err != nil {
					b.Fatal(err)
				}
				u.Remove()
			}
		})
	}
	b.Run("count", func(b *testing.B) {
		b.SetBytes(ins.Size)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Count(context.Background(), p, ins, Plan{Mapping: m, DropDuplicates: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
