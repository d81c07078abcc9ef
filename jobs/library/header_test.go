package library

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A result read in place (the viewer, an export, a search) has the header
// its import reads (input.PickHeader): title lines above it passed over, a
// header of two rows read as one.
func TestHeaderAsTheImportReadsIt(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		headers    []string
		rows       [][]string
	}{
		{"first line", "\ufeffOwner,Phone\nJOHN,5125550101\n\nJANE,5125550103\n",
			[]string{"Owner", "Phone"}, [][]string{{"JOHN", "5125550101"}, {"JANE", "5125550103"}}},
		{"title lines", "Skip trace results\nexported 11/20/2026\nOwner,Phone,DNC\nJOHN,5125550101,Yes\n",
			[]string{"Owner", "Phone", "DNC"}, [][]string{{"JOHN", "5125550101", "Yes"}}},
		{"two rows", ",,Phone 1,,,Phone 2,,\nOwner,Address,Number,Type,DNC,Number,Type,DNC\nJOHN,1 MAIN ST,5125550101,Mobile,Yes,5125550102,Landline,No\n",
			[]string{"Owner", "Address", "Phone 1 Number", "Phone 1 Type", "Phone 1 DNC", "Phone 2 Number", "Phone 2 Type", "Phone 2 DNC"},
			[][]string{{"JOHN", "1 MAIN ST", "5125550101", "Mobile", "Yes", "5125550102", "Landline", "No"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "r.csv")
			if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			rr := wantRowReader(t, tc.text, tc.rows)
			if _, err := rr.Next(); err != io.EOF || !slices.Equal(rr.Headers(), tc.headers) {
				t.Errorf("RowReader: headers %q, after the rows %v; want %q, EOF", rr.Headers(), err, tc.headers)
			}
			for _, limit := range []int{-1, 1} {
				r, err := openResult(context.Background(), path, nil, limit)
				if err != nil {
					t.Fatal(err)
				}
				var got [][]string
				for i := range r.Len() {
					got = append(got, slices.Clone(r.Row(i)))
				}
				r.Close()
				if !slices.Equal(r.Headers(), tc.headers) || !slices.EqualFunc(got, tc.rows, slices.Equal) {
					t.Errorf("Result (limit %d): %q %q, want %q %q", limit, r.Headers(), got, tc.headers, tc.rows)
				}
			}
		})
	}
}
