package library

import (
	"slices"
	"testing"
)

// Spaces after a closing quote are text (the input reader reads them the
// same way): a value spanning lines stays one row, with no warning; a line
// break inside a quoted value is kept as written.
func TestSpaceAfterClosingQuoteKeepsRows(t *testing.T) {
	body := "h1,h2,h3\r\na,b,\"c\" \r\nd,\"e\r\nx\" ,f\r\ng,\"h\ny\"\t,i\r\nj,k,l\r\n"
	want := [][]string{{"a", "b", "c "}, {"d", "e\r\nx ", "f"}, {"g", "h\ny\t", "i"}, {"j", "k", "l"}}
	rr := wantRowReader(t, body, want)
	if _, err := rr.Next(); err == nil {
		t.Error("a spurious row")
	}
	if w := rr.Warnings(); w != nil {
		t.Errorf("warnings %q", w)
	}
	r := openBody(t, "r.csv", body)
	rows, _ := r.page(0, 10)
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("indexed reader: %q", rows)
	}
}
