package layout

import (
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

// A number of Canada or the Caribbean answered clean by a US scrub is not
// callable: its own country's lists are not checked. The "Not DNC" filter
// does not keep it either. A US territory's number is the US's.
func TestAbroadNeverCallable(t *testing.T) {
	h := []string{"Phone", "DNC", "Litigator", "Scrub Date"}
	rows := [][]string{
		{"4165550101", "N", "N", "2025-05-01"}, // Toronto
		{"8765550102", "N", "N", "2025-05-01"}, // Jamaica
		{"7875550103", "N", "N", "2025-05-01"}, // Puerto Rico
		{"5125550104", "N", "N", "2025-05-01"},
	}
	l := Detect(h, rows, Options{})
	rd := l.NewReader(fresh())
	var row Row
	for i, rec := range rows {
		rd.Read(rec, &row)
		p := &row.Phones[0]
		abroad := i < 2
		if p.Callable() == abroad || (p.Block&BlockAbroad != 0) != abroad {
			t.Errorf("%s: block %q, want abroad %v", rec[0], p.Block, abroad)
		}
		if abroad && !strings.Contains(p.Block.String(), "outside the US") {
			t.Errorf("%s: said %q", rec[0], p.Block)
		}
		if abroad && Passes(jobs.QuickNotDNC, p) {
			t.Errorf("%s passes Not DNC", rec[0])
		}
	}
}
