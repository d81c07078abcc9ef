package ledger

import (
	"context"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// Item 10 of the hostile-server issue. The duplicate guard matches the
// content of the file the person picked as well as the prepared upload, and
// a submission whose job failed and was refunded in full is not a duplicate
// (it cost nothing).
func TestFindDuplicateByContentSkipsRefundedFailures(t *testing.T) {
	t.Parallel()
	eachLedger(t, func(t *testing.T, l *Ledger) {
		ctx := context.Background()
		since := time.Now().Add(-time.Hour)
		m := map[string]string{"phone": "Phone"}
		add := func(hash, source string) int64 {
			t.Helper()
			id, err := l.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindDNC, FileName: "p.csv", FileHash: hash, SourceHash: source, Mapping: m})
			if err != nil {
				t.Fatal(err)
			}
			l.Submissions().MarkSent(ctx, id)
			return id
		}
		// The same list picked again, prepared into other bytes (another
		// header line chosen, another file type): its picked bytes match.
		first := add("prepared-1", "picked")
		if err := l.Submissions().MarkCreated(ctx, first, Created{JobID: "dnc_1", Charged: 10, Job: Job{Status: jobs.StatusProcessing}}); err != nil {
			t.Fatal(err)
		}
		d, err := l.Submissions().FindDuplicate(ctx, DuplicateKey{Kind: jobs.KindDNC, FileHash: "prepared-2", SourceHash: "picked", Mapping: m}, since)
		if err != nil || d == nil || d.ID != first {
			t.Fatalf("same picked file: %+v, %v", d, err)
		}
		if d, _ := l.Submissions().FindDuplicate(ctx, DuplicateKey{Kind: jobs.KindDNC, FileHash: "prepared-2", SourceHash: "other", Mapping: m}, since); d != nil {
			t.Fatalf("another file matched: %+v", d)
		}
		if d, _ := l.Submissions().FindDuplicate(ctx, DuplicateKey{Kind: jobs.KindDNC, FileHash: "prepared-1", Mapping: m}, since); d == nil || d.ID != first {
			t.Fatal("the same prepared bytes no longer match")
		}
		// Its job failed: still a duplicate until the refund covers the charge.
		l.Jobs().RecordJobState(ctx, Job{ID: "dnc_1", Kind: jobs.KindDNC, Status: jobs.StatusFailed}, Spend{Charged: 10, Refunded: 4})
		if d, _ := l.Submissions().FindDuplicate(ctx, DuplicateKey{Kind: jobs.KindDNC, FileHash: "prepared-1", Mapping: m}, since); d == nil {
			t.Fatal("a failed job refunded in part is not a duplicate")
		}
		l.Jobs().RecordJobState(ctx, Job{ID: "dnc_1", Kind: jobs.KindDNC, Status: jobs.StatusFailed}, Spend{Charged: 10, Refunded: 10})
		if d, _ := l.Submissions().FindDuplicate(ctx, DuplicateKey{Kind: jobs.KindDNC, FileHash: "prepared-1", SourceHash: "picked", Mapping: m}, since); d != nil {
			t.Fatalf("a failed job refunded in full is a duplicate: %+v", d)
		}
		// An unknown submission of the same content still counts: it may be
		// charged.
		u := add("prepared-3", "picked")
		l.Submissions().MarkUnknown(ctx, u, "lost")
		if d, _ := l.Submissions().FindDuplicate(ctx, DuplicateKey{Kind: jobs.KindDNC, FileHash: "prepared-9", SourceHash: "picked", Mapping: m}, since); d == nil || d.ID != u {
			t.Fatalf("unknown submission: %+v", d)
		}
		if s, _ := l.Submissions().Submission(ctx, u); s.SourceHash != "picked" {
			t.Fatalf("source hash not kept: %+v", s)
		}
	})
}
