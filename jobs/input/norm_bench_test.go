package input

import (
	"testing"

	"github.com/skipdesk/skipdesk/jobs/input/internal/corpus"
)

// BenchmarkKeyRow is the duplicate key of one generated row (12 fields).
func BenchmarkKeyRow(b *testing.B) {
	g := corpus.New(3)
	var rows [][][]byte
	n := 0
	for range 1024 {
		var row [][]byte
		for _, f := range g.Row() {
			row = append(row, []byte(f))
			n += len(f)
		}
		rows = append(rows, row)
	}
	kb := newKeyBuf()
	b.SetBytes(int64(n / len(rows)))
	i := 0
	for b.Loop() {
		kb.reset()
		for _, f := range rows[i&1023] {
			kb.add(f)
		}
		kb.sum()
		i++
	}
}
