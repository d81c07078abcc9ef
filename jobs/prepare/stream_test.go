package prepare

import (
	"bytes"
	"context"
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// Stream writes, byte for byte, the copy Prepare writes, with the same
// SHA-256, rows and counts (repairs, duplicates dropped, splits, a keep
// rule), and the picked file itself when the plan uploads it as it is.
func TestStreamIsPrepare(t *testing.T) {
	t.Parallel()
	body := "First,Last,Street,City,State,Zip,Owner\n" +
		"Ann,Lee,1 Elm St,Hoboken,NJ,7030,LEE ANN\n" +
		"Bo,Wu,,Newark,NJ,7102,WU BO\n" +
		"Cy,Ng,3 Oak Ave,Austin,TX,78701,NG CY\n" +
		"Cy,Ng,3 Oak Ave,Austin,TX,78701,NG CY\n" +
		"Ed,\"Ma, Jr\",5 Pine Rd,Boston,MA,2108-1234,MA ED\n"
	p := testlists.WriteFile(t, "owners.csv", []byte(body))
	ins := inspect(t, p, input.Options{})
	m := mapping.Mapping{mapping.FirstName: "First", mapping.LastName: "Last", mapping.PropertyStreet: "Street",
		mapping.PropertyCity: "City", mapping.PropertyState: "State", mapping.PropertyZip: "Zip"}
	plans := map[string]Plan{
		"as it is": {Kind: jobs.KindTrace, Mapping: m},
		"repairs":  {Kind: jobs.KindTrace, Mapping: m, Repairs: Repairs{PadZips: []string{"Zip"}, LeaveOutBlank: []string{"Street"}}},
		"duplicates dropped, a split, a keep rule": {Kind: jobs.KindTrace, Mapping: m, DropDuplicates: true,
			Splits: []mapping.Split{{Kind: mapping.SplitName, Column: "Owner", Keys: []string{mapping.FirstName, mapping.LastName}, Order: mapping.LastFirst}},
			Keep:   func(rec []string) bool { return rec[0] != "Ann" }, KeepReason: "rows traced before are left out"},
	}
	for name, plan := range plans {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			plan.Dir = t.TempDir()
			want, err := Prepare(context.Background(), p, ins, plan)
			if err != nil {
				t.Fatal(err)
			}
			wantBytes, err := os.ReadFile(want.Path)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			u, err := Stream(context.Background(), p, ins, plan, &got)
			if err != nil {
				t.Fatal(err)
			}
			if !u.Written {
				if got.Len() != 0 || want.Written || u.Path != p {
					t.Fatalf("as it is: %d bytes streamed, upload %+v", got.Len(), u)
				}
				got.Write(wantBytes)
			}
			if !bytes.Equal(got.Bytes(), wantBytes) {
				t.Fatalf("streamed\n%q\nprepared\n%q", got.String(), wantBytes)
			}
			u.Path, want.Path, want.tempDir = "", "", ""
			if !reflect.DeepEqual(u, want) {
				t.Fatalf("streamed %+v\nprepared %+v", u, want)
			}
		})
	}
}

// A copy that grows past the provider's limit stops there, with
// ErrTooLarge, before the rest of the file is read.
func TestStreamStopsAtTheLimit(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	b.WriteString("First,Last,Street,City,State,Zip\n")
	for b.Len() <= input.MaxUploadBytes {
		b.WriteString("Annabel,Leeway,1234 Elmwood Street,Hoboken,NJ,7030\n")
	}
	p := testlists.WriteFile(t, "big.csv", b.Bytes())
	ins := inspect(t, p, input.Options{})
	m := mapping.Mapping{mapping.FirstName: "First", mapping.LastName: "Last", mapping.PropertyStreet: "Street",
		mapping.PropertyCity: "City", mapping.PropertyState: "State", mapping.PropertyZip: "Zip"}
	var n countOnly
	_, err := Stream(context.Background(), p, ins, Plan{Kind: jobs.KindTrace, Mapping: m, Repairs: Repairs{PadZips: []string{"Zip"}}}, &n)
	if !errors.Is(err, ErrTooLarge) || n > input.MaxUploadBytes {
		t.Fatalf("err %v after %d bytes", err, n)
	}
}

type countOnly int64

func (c *countOnly) Write(p []byte) (int, error) { *c += countOnly(len(p)); return len(p), nil }
