package workflow

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
)

const phonesScrub = "phone,phone_normalized,dnc,litigator,line_type,status\r\n" +
	"5125550101,5125550101,false,false,mobile,ok\r\n" +
	"5125550102,5125550102,false,false,landline,ok\r\n" +
	"2145550103,2145550103,true,false,voip,ok\r\n"

// A phone list scrubbed again: its new result shows which numbers are on
// a list now and were not at the scrub before, and when that was.
func TestScrubbedAgainShowsWhatChanged(t *testing.T) {
	t.Parallel()
	d := offline(t)
	lib, err := library.Open(d.cfg.ResultsDir())
	if err != nil {
		t.Fatal(err)
	}
	first := time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC)
	second := first.AddDate(0, 0, 20)
	put := func(id string, at time.Time, body string) string {
		m := library.Meta{JobID: id, Kind: jobs.KindDNC, Name: "phones.csv", Status: jobs.StatusCompleted, CompletedAt: at}
		p := lib.PathFor(m)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := lib.Record(m, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	put("dnc_1", first, phonesScrub)
	// Three weeks later 0101 is on the registry and 0102 a litigator.
	again := strings.Replace(strings.Replace(phonesScrub, "5125550101,5125550101,false,false", "5125550101,5125550101,true,false", 1),
		"5125550102,5125550102,false,false", "5125550102,5125550102,false,true", 1)
	newer := put("dnc_2", second, again)
	ctx := context.Background()
	if _, err := d.Library().IndexLibrary(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	r := openIndexed(ctx, t, d, newer)
	defer r.Close()
	want := []struct {
		became layout.Block
		since  time.Time
	}{{layout.BlockDNC, first}, {layout.BlockLitigator, first}, {0, first}} // 0103 was on the registry already
	for i, w := range want {
		p := r.Person(i).Phones[0]
		if p.Became != w.became || w.became != 0 && !p.Since.Equal(w.since) {
			t.Errorf("%s: became %q since %v, want %q since %v", p.Display(), p.Became, p.Since, w.became, w.since)
		}
	}
	// The first scrub has nothing before it.
	r1 := openIndexed(ctx, t, d, lib.PathFor(library.Meta{JobID: "dnc_1", Kind: jobs.KindDNC, Name: "phones.csv", CompletedAt: first}))
	defer r1.Close()
	for i := 0; i < r1.Len(); i++ {
		if p := r1.Person(i).Phones[0]; p.Became != 0 {
			t.Errorf("the first scrub says %s became %s", p.Display(), p.Became)
		}
	}
}
