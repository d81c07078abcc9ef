package workflow

import (
	"context"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/index/indextest"
)

// A damaged page in index.db (the app closed, the file hurt where the
// owner keys are): the next quote still finds the rows traced before — the
// read that met the damage had SQLite check the pages, and the index was
// rebuilt from the files — and a submission that reuses them (what
// --skip-traced asks) leaves every one out, charging nothing.
func TestDamagedIndexQuotesAfterRebuild(t *testing.T) {
	t.Parallel()
	reuseEveryRow(t, func(ctx context.Context, d *Service) {
		if _, err := d.Library().IndexLibrary(ctx, "", nil); err != nil {
			t.Fatal(err)
		}
		d.closeIndexes()
		if err := indextest.DamagePage(d.indexPath(libDir(d)), "owner_chunks"); err != nil {
			t.Fatal(err)
		}
	})
}
