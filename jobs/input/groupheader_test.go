package input

import (
	"slices"
	"strings"
	"testing"
)

// A header of two rows, a row of group labels over the columns' names, is
// read as one: each name joined to its group's label.
func TestGroupHeader(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		headers    []string
		line       int // the header's line (its second row's)
		rows       int
		grouped    bool
		skipped    string // the warning of lines skipped above the header
	}{
		{"phones grouped", ",,Phone 1,,,Phone 2,,\nOwner,Address,Number,Type,DNC,Number,Type,DNC\nJOHN,1 MAIN ST,5125550101,Mobile,Yes,5125550102,Landline,No\n",
			[]string{"Owner", "Address", "Phone 1 Number", "Phone 1 Type", "Phone 1 DNC", "Phone 2 Number", "Phone 2 Type", "Phone 2 DNC"}, 2, 1, true, ""},
		{"a title line above, a column after the groups", "Results exported 11/20/2026\n\n,Phone 1,,Phone 2,,\nOwner,Phone,DNC,Phone,DNC,Email\nJOHN,5125550101,Y,5125550102,N,j@example.com\n",
			[]string{"Owner", "Phone 1 Phone", "Phone 1 DNC", "Phone 2 Phone", "Phone 2 DNC", "Email"}, 4, 1, true, "1 line above it skipped"},
		{"groups named in every column", "Phone 1,Phone 1,Phone 2,Phone 2\nNumber,DNC,Number,DNC\n5125550101,Y,5125550102,N\n",
			[]string{"Phone 1 Number", "Phone 1 DNC", "Phone 2 Number", "Phone 2 DNC"}, 2, 1, true, ""},
		// Names that repeat with no row of labels: the row of names is the
		// header (not the first data row, though the rows are wider).
		{"names repeating, rows wider", "Owner list\nOwner,Phone,Type,Phone,Type\nJOHN,5125550101,Mobile,5125550102,Landline,,\nJANE,5125550103,Mobile,,,,\n",
			[]string{"Owner", "Phone", "Type", "Phone (2)", "Type (2)"}, 2, 2, false, "1 line above it skipped"},
		// A header with a blank cell over a row of data that repeats a value:
		// not a header of two rows.
		{"data repeating a value", "Owner,,Phone\nSMITH,JOHN,SMITH\nDOE,JANE,5125550103\n",
			[]string{"Owner", "Column 2", "Phone"}, 1, 2, false, ""},
		// Groups of other shapes sharing one name, numbers under it.
		{"a listed phone's group", ",,Phone 1,Phone 1,Phone 1,DNC Phone 1\nOwner,Zip,Number,DNC,TCPA,Number\nLuis,62853,1-512-705-3392 x844,Clear,No,1-201-599-3107 x793\n",
			[]string{"Owner", "Zip", "Phone 1 Number", "Phone 1 DNC", "Phone 1 TCPA", "DNC Phone 1 Number"}, 2, 1, true, ""},
		{"one group only", ",Phone 1,,\nOwner,Number,Type,DNC\nJOHN,5125550101,Mobile,Yes\n",
			[]string{"Owner", "Number", "Type", "DNC"}, 2, 1, false, "1 line above it skipped"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, rows, _ := readAll(t, "g.csv", tc.text, Options{})
			if !slices.Equal(r.Headers(), tc.headers) || r.HeaderLine() != tc.line || len(rows) != tc.rows {
				t.Errorf("headers %q on line %d, %d rows; want %q on line %d, %d rows", r.Headers(), r.HeaderLine(), len(rows), tc.headers, tc.line, tc.rows)
			}
			w := findWarning(r.Warnings(), "two rows")
			if (w != nil) != tc.grouped {
				t.Errorf("warnings %v: a header of two rows said: %v, want %v", r.Warnings(), w != nil, tc.grouped)
			}
			if w := findWarning(r.Warnings(), "above it skipped"); tc.skipped == "" && w != nil || tc.skipped != "" && (w == nil || !strings.Contains(w.Message, tc.skipped)) {
				t.Errorf("warnings %v: want %q of the lines skipped (a group row is not one)", r.Warnings(), tc.skipped)
			}
			// The rule the library reads a result's header by.
			var recs [][]string
			for _, l := range strings.Split(strings.TrimSuffix(tc.text, "\n"), "\n") {
				recs = append(recs, strings.Split(l, ","))
			}
			at, names := PickHeader(recs)
			if names == nil && at >= 0 {
				names = recs[at]
			}
			if at+1 != tc.line || (names != nil) != (at >= 0) {
				t.Errorf("PickHeader: record %d, names %q; want the record on line %d", at, names, tc.line)
			}
		})
	}
}
