package layout

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestScrubDate(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 0, 0, 0, 0, time.UTC) }
	cases := []struct {
		v       string
		order   DateOrder
		want    time.Time
		problem dateProblem
	}{
		{"2026-11-12", OrderEither, day(11, 12), dateKnown},
		{"11/12/2026", OrderMDY, day(11, 12), dateKnown},
		{"12/11/2026", OrderDMY, day(11, 12), dateKnown},
		// Read month first it is December 11, not yet come; day first,
		// two weeks old: which one the vendor meant is not known.
		{"12/11/2026", OrderEither, day(11, 12), dateMaybeFuture},
		{"12/11/2026", OrderMDY, day(12, 11), dateFuture},
		// Both readings past: the earlier one, so that no answer looks
		// fresher than it may be.
		{"03/11/2026", OrderEither, day(3, 11), dateKnown},
		{"11/03/2026", OrderEither, day(3, 11), dateKnown},
		{"2026-12-11", OrderEither, day(12, 11), dateFuture},
		{"31/13/2026", OrderEither, time.Time{}, dateNone},
		{"soon", OrderEither, time.Time{}, dateNone},
		// Excel's serial numbers: days since 1899-12-30, 2000 to 2099.
		{"46345", OrderEither, day(11, 19), dateKnown},
		{"46345.75", OrderEither, day(11, 19).Add(18 * time.Hour), dateKnown},
		{"46360", OrderEither, day(12, 4), dateFuture},
		{"12345", OrderEither, time.Time{}, dateNone},
		{"4634", OrderEither, time.Time{}, dateNone},
		{"46345.x", OrderEither, time.Time{}, dateNone},
	}
	for _, c := range cases {
		got, problem := scrubDate(c.v, c.order, now)
		if problem != c.problem || (problem != dateNone && !got.Equal(c.want)) {
			t.Errorf("scrubDate(%q, %s) = %s, %d; want %s, %d", c.v, c.order, got.Format(time.DateOnly), problem,
				c.want.Format(time.DateOnly), c.problem)
		}
	}
}

// A scrub date whose day and month read both ways, one way in the future,
// dates no answer: the phone it dates is not callable, and the tally says
// why.
func TestAmbiguousFutureDateIsNotCallable(t *testing.T) {
	t.Parallel()
	h := []string{"Phone", "scrubbed_at", "ResultCode", "IsWirelessOrVoIP", "Known Litigator"}
	rows := [][]string{{"+14802150826", "12/11/2026", "C", "N", "0"}}
	for _, now := range []time.Time{
		time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC), // December 11 not yet come
		time.Date(2026, 12, 12, 12, 0, 0, 0, time.UTC), // both readings past
	} {
		l := Detect(h, rows, Options{Now: now})
		x := NewFlagIndex()
		x.SetDates(time.Time{}, now)
		var row Row
		l.NewReader(x).Read(rows[0], &row)
		if len(row.Phones) != 1 {
			t.Fatalf("%s: read %d phones, want 1", now.Format(time.DateOnly), len(row.Phones))
		}
		p := row.Phones[0]
		past := now.Month() == time.December
		if p.Callable() != past {
			t.Errorf("now %s: callable = %v (block %v, scrubbed %s), want %v", now.Format(time.DateOnly), p.Callable(),
				p.Block, p.Scrubbed.Format(time.DateOnly), past)
		}
		if past && !p.Scrubbed.Equal(time.Date(2026, 11, 12, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("dated %s, want the earlier reading 2026-11-12", p.Scrubbed.Format(time.DateOnly))
		}
		q := badDates(&l.Columns[1], []ValueN{{V: "12/11/2026", N: 1}}, now)
		if !past && q == nil {
			t.Errorf("no question about a date that may lie in the future")
		}
	}
}

// A scrub date named for a phone dates that phone's answers alone: a phone
// with none of its own is not dated by another's, and a date naming no
// phone dates every phone of the row (the oldest wins).
func TestPhoneScrubDates(t *testing.T) {
	now := Options{Now: time.Date(2025, 5, 10, 0, 0, 0, 0, time.UTC)}
	undated := NewFlagIndex() // the file itself is not dated (no record, no date given)
	undated.SetDates(time.Time{}, now.Now)
	callable := func(l *Layout, rows [][]string) [][]bool {
		var out [][]bool
		for _, r := range readAll(t, l, rows, undated) {
			var row []bool
			for _, p := range r {
				row = append(row, strings.HasSuffix(p, "callable"))
			}
			out = append(out, row)
		}
		return out
	}
	h := []string{"Phone 1", "Phone 1 DNC", "Phone 1 Scrub Date", "Phone 2", "Phone 2 DNC", "Litigator"}
	rows := [][]string{{"5125550101", "N", "2025-05-01", "5125550102", "N", "N"}}
	l := Detect(h, rows, now)
	if !slices.Equal(l.Slots[0].Dates, []int{2}) || len(l.Slots[1].Dates) != 0 || len(l.Dates) != 0 || !l.HasDates() {
		t.Fatalf("dates: row %v, slots %v and %v", l.Dates, l.Slots[0].Dates, l.Slots[1].Dates)
	}
	if got := callable(l, rows)[0]; !slices.Equal(got, []bool{true, false}) {
		t.Errorf("callable %v: want the first, the second not dated", got)
	}
	// With a date of the row too, the older of the two dates a phone; a
	// row's date not known leaves its phones undated.
	h = append(h, "Date Scrubbed")
	rows = [][]string{
		{"5125550101", "N", "2025-05-01", "5125550102", "N", "N", "2025-05-02"},
		{"5125550103", "N", "2025-05-01", "5125550104", "N", "N", "2025-03-01"}, // the row's date is stale
		{"5125550105", "N", "2025-05-01", "5125550106", "N", "N", ""},
		{"5125550107", "N", "2025-03-01", "5125550108", "N", "N", "2025-05-02"}, // the first phone's is
	}
	l = Detect(h, rows, now)
	want := [][]bool{{true, true}, {false, false}, {false, false}, {false, true}}
	if got := callable(l, rows); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("callable %v, want %v", got, want)
	}
	// A phone's bare date ("Tel 2 Fecha") may be when it was scrubbed: it
	// makes that phone's date older, never fresher.
	h = []string{"Tel 1", "Tel 1 DNC", "Tel 2", "Tel 2 DNC", "Tel 2 Fecha", "Litigator", "Date Scrubbed"}
	rows = [][]string{
		{"5125550101", "N", "5125550102", "N", "2025-03-01", "N", "2025-05-02"},
		{"5125550103", "N", "5125550104", "N", "2025-05-08", "N", "2025-05-02"},
	}
	l = Detect(h, rows, now)
	want = [][]bool{{true, false}, {true, true}}
	if got := callable(l, rows); !slices.EqualFunc(got, want, slices.Equal) || !slices.Equal(l.Slots[1].Dates, []int{4}) {
		t.Errorf("a phone's bare date: callable %v (want %v), its slot's dates %v", got, want, l.Slots[1].Dates)
	}
	// The row's "DNC Date", which may be its scrub's, older than the
	// phone's own date: the phone's answers may be that old.
	h = []string{"Phone 1", "Phone 1 DNC", "Phone 1 Scrub Date", "Litigator", "DNC Date"}
	rows = [][]string{{"5125550101", "N", "2025-05-01", "N", "2025-03-01"}, {"5125550102", "N", "2025-05-01", "N", "2025-05-05"}}
	l = Detect(h, rows, now)
	want = [][]bool{{false}, {true}}
	if got := callable(l, rows); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("a row's older DNC Date: callable %v, want %v", got, want)
	}
}

// Dates written in a way SkipDesk does not read date no answer: a column
// named for the scrub's date is asked about, its rows not callable; a bare
// "Date" that may be the scrub's leaves its row undated, not dated by the
// file's own date, unless it holds no date at all ("n/a", blank).
func TestUnreadDatesDateNothing(t *testing.T) {
	now := Options{Now: time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)}
	given := NewFlagIndex() // the date given when the file was imported
	given.SetDates(time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC), now.Now)
	for _, h := range []string{"Last Scrubbed", "Date"} {
		hs := []string{"Phone", "DNC", "Litigator", h}
		rows := [][]string{{"5125550101", "N", "N", "13th June 2026"}, {"5125550102", "N", "N", "13th June 2026"},
			{"5125550103", "N", "N", "n/a"}, {"5125550104", "N", "N", ""}}
		l := Detect(hs, rows, now)
		if l.Columns[3].Role != RoleScrubDate {
			t.Fatalf("%s: role %q", h, l.Columns[3].Role)
		}
		asked := slices.ContainsFunc(l.Questions, func(q Question) bool { return q.Topic == "date" })
		if asked != (h == "Last Scrubbed") {
			t.Errorf("%s: asked %v: %v", h, asked, l.Questions)
		}
		got := readAll(t, l, rows, given)
		for i, want := range []bool{false, false, h == "Date", h == "Date"} {
			if c := strings.HasSuffix(got[i][0], "callable"); c != want {
				t.Errorf("%s: %q: %s, want callable %v", h, rows[i][3], got[i][0], want)
			}
		}
	}
}

// When a phone was last seen in the vendor's sources is no scrub's date:
// an old one does not make the phone's scrub stale.
func TestLastSeenIsNoScrubDate(t *testing.T) {
	h := []string{"Phone 1", "Phone 1 DNC", "Litigator", "Phone 1 Last Seen Date", "Scrub Date"}
	l := Detect(h, [][]string{{"5125550101", "N", "N", "2019-03-04", "2026-11-20"}}, Options{})
	if l.Columns[3].Role == RoleScrubDate || len(l.Slots[0].Dates) != 0 {
		t.Errorf("%q read as %q, the phone's dates %v", h[3], l.Columns[3].Role, l.Slots[0].Dates)
	}
}
