package ledger

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// BenchmarkSubmissionSteps is the ledger's share of one submission: three
// committed, fsynced writes (intent, sent, created).
func BenchmarkSubmissionSteps(b *testing.B) {
	l := openAt(b, b.TempDir())
	ctx := context.Background()
	mapping := map[string]string{"first_name": "First", "last_name": "Last"}
	b.ResetTimer()
	for i := range b.N {
		id, err := l.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "f.csv", FileHash: "h", Rows: 10, Mapping: mapping})
		if err != nil {
			b.Fatal(err)
		}
		if err := l.Submissions().MarkSent(ctx, id); err != nil {
			b.Fatal(err)
		}
		if err := l.Submissions().MarkCreated(ctx, id, Created{JobID: fmt.Sprintf("trc_%d", i), Charged: 10,
			Job: Job{Kind: jobs.KindTrace, Status: jobs.StatusProcessing}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRecordJobState is what the tracker writes when a job changes.
func BenchmarkRecordJobState(b *testing.B) {
	l := openAt(b, b.TempDir())
	ctx := context.Background()
	last := json.RawMessage(`{"id":"trc_1","status":"processing","total_rows":40000}`)
	b.ResetTimer()
	for i := range b.N {
		j := Job{ID: fmt.Sprintf("trc_%d", i%50), Kind: jobs.KindTrace, Status: jobs.StatusProcessing, Last: last, CreatedAt: time.Now()}
		if err := l.Jobs().RecordJobState(ctx, j, Spend{Charged: 40000}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEntries lists a ledger of 1,000 jobs (the jobs command, the
// window's list).
func BenchmarkEntries(b *testing.B) {
	l := openAt(b, b.TempDir())
	ctx := context.Background()
	for i := range 1000 {
		l.Jobs().RecordJobState(ctx, Job{ID: fmt.Sprintf("trc_%d", i), Kind: jobs.KindTrace, Status: jobs.StatusCompleted,
			Last: json.RawMessage(`{"id":"x"}`), CreatedAt: time.Now()}, Spend{Charged: 10, Refunded: 2})
	}
	b.ResetTimer()
	for range b.N {
		e, err := l.Jobs().Entries(ctx)
		if err != nil || len(e) != 1000 {
			b.Fatal(len(e), err)
		}
	}
}
