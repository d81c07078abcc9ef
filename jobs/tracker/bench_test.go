package tracker

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
)

// BenchmarkObservePage100 is the tracker's work per list page of 100 jobs
// in flight, the API's answer aside: compare with the ledger, record the
// changed ones in one transaction (one fsync), emit their events.
func BenchmarkObservePage100(b *testing.B) {
	led, err := ledger.Open(filepath.Join(b.TempDir(), "home"))
	if err != nil {
		b.Fatal(err)
	}
	defer led.Close()
	ctx := context.Background()
	tr := New(nil, led, Options{})
	tr.Subscribe(func(Event) {})
	created := time.Now().Add(-time.Minute)
	obs := make([]observation, 100)
	for i := range obs {
		id := fmt.Sprintf("trc_%06d", i)
		j := &ledger.Job{ID: id, Kind: jobs.KindTrace, Status: jobs.StatusProcessing, CreatedAt: created}
		if err := led.Jobs().UpsertJob(ctx, *j); err != nil {
			b.Fatal(err)
		}
		obs[i] = observation{it: item{trace: &client.Trace{ID: id, Status: client.StatusProcessing, Name: "list.csv",
			TotalRows: 40000, CreditsCharged: 40000, CreatedAt: created}}, tr: &tracked{job: j, firstSeen: created}}
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		// Every job changed since the last look (rows processed so far,
		// say), so every one is written: the worst case.
		n++
		for _, o := range obs {
			o.it.trace.MatchCount = n
		}
		tr.observe(ctx, obs)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/100, "us/job")
}
