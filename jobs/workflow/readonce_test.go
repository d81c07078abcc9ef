package workflow

import (
	"os"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/reuse"
)

// A submission that would reuse earlier results, on a library holding no
// result a row could be found in, does not read the list for its keys or
// write a reuse folder: every row is uploaded and charged as quoted.
func TestReuseWithNothingToReuseReadsNoList(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	sample, err := d.Quotes().SampleList(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p := Plan{Kind: jobs.KindTrace, Path: sample, Mapping: sampleMapping, Mode: jobs.ModeNormal, IncludeLLCs: true, Reuse: true}
	q := quote(t, ctx, d, p)
	if q.Reuse == nil || q.Reuse.Rows != 0 || q.Reuse.Unavailable != "" {
		t.Fatalf("the quote's reuse on an empty library: %+v", q.Reuse)
	}
	ins, err := d.Quotes().Inspect(ctx, p.Path, p.Input)
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.Submissions().Submit(ctx, p, ins, SubmitOptions{Quote: q})
	if err != nil {
		t.Fatal(err)
	}
	if res.JobID == "" || res.Reused != 0 || res.Upload.Rows != q.Rows || res.Charged != q.Credits {
		t.Fatalf("submitted %+v, quoted %d rows for %d credits", res, q.Rows, q.Credits)
	}
	lib, err := d.library()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(reuse.Root(lib)); !os.IsNotExist(err) {
		t.Errorf("a reuse folder was made for a library holding nothing to reuse (%v)", err)
	}
}
