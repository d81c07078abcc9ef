package input

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
)

// Every value that needs quotes gets them, and only those: what
// AppendRecord writes reads back as the same record.
func TestAppendRecordQuotesWhatNeedsIt(t *testing.T) {
	t.Parallel()
	cases := []struct {
		v      string
		quoted bool
	}{
		{"", false}, {"plain", false}, {"Main St", false}, {"a,b", true}, {`say "hi"`, true}, {"two\nlines", true},
		{"cr\rhere", true}, {" lead", true}, {"\tlead", true}, {"trail ", false}, {"ünïcode", false}, {",", true},
	}
	for _, c := range cases {
		if got := needsQuotes(c.v); got != c.quoted {
			t.Errorf("needsQuotes(%q) = %v, want %v", c.v, got, c.quoted)
		}
	}
	rec := make([]string, len(cases))
	for i, c := range cases {
		rec[i] = c.v
	}
	line := AppendRecord(nil, append([]string{"x"}, rec...))
	back, err := csv.NewReader(bytes.NewReader(line)).Read()
	if err != nil {
		t.Fatal(err)
	}
	want := append([]string{"x"}, rec...)
	if strings.Join(back, "|") != strings.Join(want, "|") {
		t.Errorf("read back %q, want %q", back, want)
	}
}

// BenchmarkAppendRecord writes an owner list's row of twelve values.
func BenchmarkAppendRecord(b *testing.B) {
	rec := []string{"JOHN", "SMITH", "", "1234 N MAIN ST", "SPRINGFIELD", "IL", "62704", "PO BOX 12", "SPRINGFIELD", "IL",
		"62705", "SMITH, JOHN & MARY"}
	var line []byte
	b.ReportAllocs()
	for b.Loop() {
		line = AppendRecord(line[:0], rec)
	}
}
