package mapping

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

// FuzzAutoMap checks that AutoMap never panics, never maps a header twice or
// a key twice, and that splits and their Apply stay within their keys.
func FuzzAutoMap(f *testing.F) {
	f.Add("Owner Name|Property Address|Mail Zip", "SMITH JOHN|123 Main St, Springfield, IL 62704|0210")
	f.Add("First|Last|Address|City|ST|Zip", "Ann|Lee|1 Elm St|Austin|TX|78701")
	f.Add("||", "||")
	f.Add("Phone 1|Cell", "1.23E+10|(212) 555-0147 x1")
	f.Fuzz(func(t *testing.T, hs, row string) {
		headers := strings.Split(hs, "|")
		sample := [][]string{strings.Split(row, "|"), strings.Split(row, "|")[:1]}
		for _, kind := range []jobs.Kind{jobs.KindTrace, jobs.KindDNC} {
			s := AutoMap(headers, sample, kind)
			keys, cols := map[string]bool{}, map[int]bool{}
			for _, g := range s.Guesses {
				if keys[g.Key] || cols[g.Column] || headers[g.Column] != g.Header {
					t.Fatalf("bad guesses %+v", s.Guesses)
				}
				keys[g.Key], cols[g.Column] = true, true
			}
			for _, sp := range s.Splits {
				vals, _ := sp.Apply(row)
				if len(vals) != len(sp.Keys) || len(sp.Columns(headers)) != len(sp.Keys) {
					t.Fatalf("split %+v gives %q", sp, vals)
				}
			}
		}
		for _, o := range []NameOrder{FirstLast, LastFirst, LastCommaFirst, ""} {
			SplitFullName(row, o)
		}
		parseAddress(row)
	})
}

func BenchmarkAutoMap200(b *testing.B) {
	hs := headers200()
	sample := make([][]string, 20)
	for i := range sample {
		row := make([]string, len(hs))
		for j := range row {
			row[j] = fmt.Sprintf("value %d %d", i, j)
		}
		copy(row[150:], []string{"Ann", "Lee", "1 Elm St", "Austin", "TX", "78701", "PO Box 1", "Waco", "TX", "76701", "(212) 555-0147"})
		sample[i] = row
	}
	for b.Loop() {
		AutoMap(hs, sample, jobs.KindTrace)
	}
}
