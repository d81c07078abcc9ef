package workflow

import (
	"context"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// Read counts a list in the reading that inspects it, as Count counts it
// in a reading of its own: the same rows and company rows, with and
// without duplicates, whatever the plan settled from the file's start.
func TestReadCountsAsCount(t *testing.T) {
	t.Parallel()
	d := offline(t)
	ctx := context.Background()
	for _, l := range testlists.Lists() {
		path, err := l.Write(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		for _, drop := range []bool{false, true} {
			var head *input.Inspection
			settle := func(ins *input.Inspection) (Plan, error) {
				head = ins
				return Plan{Kind: jobs.KindTrace, Path: path, Mapping: mapping.Mapping(testlists.Mapping).Clone(), Mode: jobs.ModeNormal,
					DropDuplicates: drop, PadZips: true}, nil
			}
			ins, p, c, err := d.Quotes().Read(ctx, path, input.Options{Hash: true}, settle)
			if err != nil {
				t.Fatal(err)
			}
			if head == nil || c == nil || !c.Fits(p) {
				t.Fatalf("%s: read settled %v, counted %+v", l.Name, head != nil, c)
			}
			want, err := d.Quotes().Count(ctx, p, ins)
			if err != nil {
				t.Fatal(err)
			}
			if c.Rows != want.Rows || c.EntityRows != want.EntityRows || c.RowsWithout != want.RowsWithout ||
				c.EntityRowsWithout != want.EntityRowsWithout || c.Duplicates != want.Duplicates || c.repaired != want.repaired {
				t.Errorf("%s drop %v: read counted %+v, Count %+v", l.Name, drop, c, want)
			}
			if sum, _, _ := input.HashFile(path); ins.SHA256 != sum {
				t.Errorf("%s: the fingerprint %q, the file's %q", l.Name, ins.SHA256, sum)
			}
		}
	}
}
