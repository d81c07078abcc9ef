package mapping

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
)

// TestAutoMapShippedUglyFiles maps the lists shipped under
// jobs/input/testdata/ugly as read by the input package: the mapping the
// window proposes for them, and what validation then says.
func TestAutoMapShippedUglyFiles(t *testing.T) {
	tests := []struct {
		file   string
		kind   jobs.Kind
		want   Mapping
		splits []string // columns offered for splitting
		codes  []string // problems of the proposed mapping (with the splits accepted)
	}{
		{"vendor-1252-semicolons.csv", jobs.KindTrace,
			Mapping{FirstName: "Owner 1 First Name", LastName: "Owner 1 Last Name", PropertyStreet: "Situs Address",
				PropertyCity: "Site City", PropertyZip: "Site Zip", MailingStreet: "Mail Address", MailingCity: "Mail City", MailingZip: "Mail Zip"},
			nil, []string{CodeNoAddressGroup, CodeIncompleteGroup, CodeIncompleteGroup}}, // the file has no state columns
		{"pasted-mixed-encodings.csv", jobs.KindTrace,
			Mapping{FirstName: "Owner First", LastName: "Owner Last", PropertyStreet: "Property Address",
				PropertyCity: "Property City", PropertyState: "Property State", PropertyZip: "Property Zip"},
			nil, nil},
		{"bom-title-dup-headers.csv", jobs.KindTrace, Mapping{}, []string{"Name"},
			[]string{CodeNoAddressGroup}},
		{"bom-title-dup-headers.csv", jobs.KindDNC, Mapping{Phone: "Phone"}, nil, nil},
		{"utf16le-tabs.csv", jobs.KindDNC, Mapping{Phone: "Phone"}, nil, nil},
		{"utf16le-nobom-chinese.csv", jobs.KindDNC, Mapping{Phone: "电话"}, nil, nil}, // from the values alone
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+string(tt.kind), func(t *testing.T) {
			ins, err := input.Inspect(context.Background(), filepath.Join("..", "input", "testdata", "ugly", tt.file), input.Options{})
			if err != nil {
				t.Fatal(err)
			}
			s := AutoMap(ins.Headers, ins.Sample, tt.kind)
			if got := s.Mapping(); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("mapping %v, want %v", got, tt.want)
			}
			var cols []string
			headers := ins.Headers
			for _, sp := range s.Splits {
				cols = append(cols, sp.Column)
				headers = append(headers[:len(headers):len(headers)], sp.Columns(ins.Headers)...)
			}
			if !reflect.DeepEqual(cols, tt.splits) {
				t.Errorf("splits of %q, want %q", cols, tt.splits)
			}
			var r Result
			if tt.kind == jobs.KindDNC {
				r = ValidateDNC(headers, s.Mapping())
			} else {
				r = Validate(headers, s.WithSplits(ins.Headers), jobs.ModeNormal)
			}
			if got := codes(Result{Problems: r.Errors()}); !reflect.DeepEqual(got, tt.codes) {
				t.Errorf("problems %v, want %v", r.Errors(), tt.codes)
			}
		})
	}
}
