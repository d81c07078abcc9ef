package workflow

import (
	"context"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/index/indextest"
)

// A damaged page in index.db (the app closed, the file hurt where the
// owner keys are): the next quote still finds the rows traced before — the
// read that met the damage had SQLite check the pages, and the index was
// rebuilt from the files — and a submission that reuses them (what
// --skip-traced asks) leaves every one out, charging nothing.
func TestDamagedIndexQuotesAfterRebuild(t *testing.T) {
	d := openDesk(t)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if _, err := d.StartSandbox(ctx); err != nil {
		t.Fatal(err)
	}
	sample, _ := d.SampleList(ctx)
	base := Plan{Kind: jobs.KindTrace, Path: sample, Mapping: sampleMapping, Mode: jobs.ModeNormal}
	_, first := traceAndWait(t, ctx, d, base, nil)
	if _, err := d.IndexLibrary(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	d.closeIndexes()
	if err := indextest.DamagePage(d.indexPath(libDir(d)), "owner_chunks"); err != nil {
		t.Fatal(err)
	}
	src, list := matchedRows(t, sample, first.ResultPath, 5)
	merged := submitAllReused(ctx, t, d, base, append([][]string{src[0]}, list...))
	if merged[1][col(t, merged[0], "source")] != "reused" {
		t.Errorf("merged %v", merged)
	}
}
