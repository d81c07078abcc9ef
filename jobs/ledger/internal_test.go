package ledger

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

func TestInternalList(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, st store) {
		l := st.open(t)
		ctx := context.Background()
		clock := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		l.now = func() time.Time { return clock }

		n, err := l.CompanyList().AddInternal(ctx, []InternalEntry{
			{Number: "5125550101", Reason: "asked on a call", Source: "by hand", By: "laptop-1"},
			{Number: "5125550102", Source: "file owners.csv"},
		})
		if err != nil || n != 2 {
			t.Fatalf("add: %d %v", n, err)
		}
		// A number already on the list keeps its first date and reason.
		clock = clock.Add(time.Hour)
		n, err = l.CompanyList().AddInternal(ctx, []InternalEntry{{Number: "5125550101", Reason: "again"}, {Number: "2145550103", Reason: "complaint"}})
		if err != nil || n != 1 {
			t.Fatalf("add again: %d %v", n, err)
		}
		if _, err := l.CompanyList().AddInternal(ctx, []InternalEntry{{Number: "512555010"}}); err == nil {
			t.Fatal("a 9-digit number was accepted")
		}
		list, err := l.CompanyList().InternalList(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range list {
			got = append(got, fmt.Sprintf("%s %s %q %q %q", e.Number, e.AddedAt.Format("15:04"), e.Reason, e.Source, e.By))
		}
		want := fmt.Sprint([]string{`2145550103 10:00 "complaint" "" ""`, `5125550101 09:00 "asked on a call" "by hand" "laptop-1"`,
			`5125550102 09:00 "" "file owners.csv" ""`})
		if fmt.Sprint(got) != want {
			t.Fatalf("list:\n%s\nwant\n%s", got, want)
		}

		// A removal needs a reason, and is logged.
		if err := l.CompanyList().RemoveInternal(ctx, "5125550101", "", ""); err == nil {
			t.Fatal("removed without a reason")
		}
		if err := l.CompanyList().RemoveInternal(ctx, "5125550101", "added by mistake", "laptop-2"); err != nil {
			t.Fatal(err)
		}
		if err := l.CompanyList().RemoveInternal(ctx, "5125550101", "twice", ""); !errors.Is(err, ErrNotOnList) {
			t.Fatalf("removing a number not on the list: %v", err)
		}
		// Added back: a new entry with its own date; the log has the story.
		clock = clock.Add(time.Hour)
		if n, err := l.CompanyList().AddInternal(ctx, []InternalEntry{{Number: "5125550101", Reason: "asked again"}}); err != nil || n != 1 {
			t.Fatalf("add back: %d %v", n, err)
		}
		log, err := l.CompanyList().InternalLog(ctx, "5125550101")
		if err != nil {
			t.Fatal(err)
		}
		var story []string
		for _, c := range log {
			story = append(story, c.At.Format("15:04")+" "+c.Action+" "+c.Reason)
		}
		if fmt.Sprint(story) != "[09:00 added asked on a call 10:00 removed added by mistake 11:00 added asked again]" {
			t.Fatalf("log: %q", story)
		}

		// Everything survives a reopen, and, on a team's database, another
		// computer reads it.
		l = st.reopen(t, l)
		if list, err := l.CompanyList().InternalList(ctx); err != nil || len(list) != 3 {
			t.Fatalf("after a reopen: %d %v", len(list), err)
		}
		if st.other != nil {
			if list, err := st.other(t, l, "laptop-2").CompanyList().InternalList(ctx); err != nil || len(list) != 3 {
				t.Fatalf("another computer: %d %v", len(list), err)
			}
		}
	})
}

// A computer's own ledger is read beside the app holding it.
func TestInternalListReadOnly(t *testing.T) {
	t.Parallel()
	l, dir := openTest(t)
	ctx := context.Background()
	if _, err := l.CompanyList().AddInternal(ctx, []InternalEntry{{Number: "5125550101", Reason: "asked"}}); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if list, err := ro.CompanyList().InternalList(ctx); err != nil || len(list) != 1 {
		t.Fatalf("read-only: %d %v", len(list), err)
	}
}

// The list's numbers are read alone, in order, as a set: what a callable
// export checks. A number taken off is not in it.
func TestInternalKeys(t *testing.T) {
	t.Parallel()
	eachLedger(t, func(t *testing.T, l *Ledger) {
		ctx := context.Background()
		if keys, err := l.CompanyList().InternalKeys(ctx); err != nil || keys.Len() != 0 {
			t.Fatalf("an empty list: %d %v", keys.Len(), err)
		}
		var entries []InternalEntry
		for _, n := range []string{"9725550100", "2125550147", "5125550101", "2125550147"} {
			entries = append(entries, InternalEntry{Number: n, Source: "file a.csv"})
		}
		if n, err := l.CompanyList().AddInternal(ctx, entries); err != nil || n != 3 {
			t.Fatalf("add: %d %v", n, err)
		}
		if err := l.CompanyList().RemoveInternal(ctx, "5125550101", "by mistake", ""); err != nil {
			t.Fatal(err)
		}
		keys, err := l.CompanyList().InternalKeys(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(keys.Keys()); got != "[2125550147 9725550100]" {
			t.Fatalf("keys %s", got)
		}
	})
}

// Two computers import overlapping numbers into the team's list at the
// same moment, each in batches and in its own order: both succeed, the
// list is the union, and each number is logged as added once. (Numbers
// written in the order given locked in opposite orders, and one import
// failed with the server's "deadlock detected".) With -short the lists are
// a fifth as long.
func TestInternalImportsAtOnce(t *testing.T) {
	t.Parallel()
	pg := postgresStore()
	a := pg.open(t)
	b := pg.other(t, a, "laptop-2")
	numbers := func(from, to int, by string) []InternalEntry {
		var out []InternalEntry
		for i := from; i < to; i++ {
			out = append(out, InternalEntry{Number: fmt.Sprintf("512555%04d", i), Source: "file " + by + ".csv", By: by})
		}
		return out
	}
	third := 3000
	if testing.Short() {
		third = 600
	}
	listA := numbers(0, 2*third, "a")
	listB := numbers(third, 3*third, "b")
	slices.Reverse(listB)
	ctx := context.Background()
	start := make(chan struct{})
	errs := make(chan error, 2)
	imp := func(l *Ledger, list []InternalEntry) {
		<-start
		for i := 0; i < len(list); i += third / 2 {
			if _, err := l.CompanyList().AddInternal(ctx, list[i:min(len(list), i+third/2)]); err != nil {
				errs <- err
				return
			}
		}
		errs <- nil
	}
	go imp(a, listA)
	go imp(b, listB)
	close(start)
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("an import failed: %v", err)
		}
	}
	if n := count(t, a, "internal_dnc"); n != 3*third {
		t.Fatalf("%d numbers on the list, want %d", n, 3*third)
	}
	var logged, distinct int
	a.db.QueryRowContext(ctx, "SELECT COUNT(*), COUNT(DISTINCT number) FROM internal_dnc_log WHERE action = 'added'").Scan(&logged, &distinct)
	if logged != 3*third || distinct != 3*third {
		t.Fatalf("%d additions logged for %d numbers, want one each of %d", logged, distinct, 3*third)
	}
}

// A window onto the list: the entries a number's digits or a word of the
// reason or source picks, newest first, at most Limit of them, with how
// many it picks in all; % and _ are plain characters.
func TestFindInternal(t *testing.T) {
	t.Parallel()
	eachLedger(t, func(t *testing.T, l *Ledger) {
		ctx := context.Background()
		clock := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		for i, e := range []InternalEntry{{Number: "5125550101", Reason: "Complaint"}, {Number: "5125550102", Source: "file 100%_off.csv"},
			{Number: "2145550103", Reason: "asked"}} {
			l.now = func() time.Time { return clock.Add(time.Duration(i) * time.Hour) }
			if _, err := l.CompanyList().AddInternal(ctx, []InternalEntry{e}); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range []struct {
			f    InternalFilter
			want string
			n    int
		}{
			{InternalFilter{}, "[2145550103 5125550102 5125550101]", 3},
			{InternalFilter{Limit: 2}, "[2145550103 5125550102]", 3},
			{InternalFilter{Digits: "555010"}, "[2145550103 5125550102 5125550101]", 3},
			{InternalFilter{Digits: "512", Limit: 1}, "[5125550102]", 2},
			{InternalFilter{Text: "COMPLAINT"}, "[5125550101]", 1},
			{InternalFilter{Text: "0%_"}, "[5125550102]", 1},
			{InternalFilter{Text: "0_o"}, "[]", 0},
			{InternalFilter{Digits: "214", Text: "complaint"}, "[2145550103 5125550101]", 2},
		} {
			list, n, err := l.CompanyList().FindInternal(ctx, c.f)
			var got []string
			for _, e := range list {
				got = append(got, e.Number)
			}
			if err != nil || fmt.Sprint(got) != c.want && !(c.want == "[]" && got == nil) || n != c.n {
				t.Errorf("%+v: %v (%d), %v; want %s (%d)", c.f, got, n, err, c.want, c.n)
			}
		}
	})
}

// An entry kept until a date (an opt-out the law keeps) keeps the date as
// data, is not removed before it, and is after.
func TestInternalKeepUntil(t *testing.T) {
	t.Parallel()
	eachLedger(t, func(t *testing.T, led *Ledger) {
		l := led.CompanyList()
		ctx := context.Background()
		clock := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
		led.now = func() time.Time { return clock }
		until := time.Date(2036, 3, 2, 0, 0, 0, 0, time.UTC)
		if _, err := l.AddInternal(ctx, []InternalEntry{
			{Number: "7035550101", Reason: `opt-out: text reply "STOP"`, KeepUntil: until},
			{Number: "7035550102", Reason: "asked on a call"},
		}); err != nil {
			t.Fatal(err)
		}
		list, err := l.InternalList(ctx)
		if err != nil {
			t.Fatal(err)
		}
		keep := map[string]time.Time{}
		for _, e := range list {
			keep[e.Number] = e.KeepUntil
		}
		if !keep["7035550101"].Equal(until) || !keep["7035550102"].IsZero() {
			t.Fatalf("keep-until dates read back: %v", keep)
		}
		var kept *KeptError
		if err := l.RemoveInternal(ctx, "7035550101", "the owner asked", "laptop"); !errors.As(err, &kept) || !kept.Until.Equal(until) {
			t.Fatalf("removal before the keep-until date: %v", err)
		}
		if err := l.RemoveInternal(ctx, "7035550102", "added by mistake", "laptop"); err != nil {
			t.Fatalf("an entry with no keep-until date: %v", err)
		}
		clock = until.Add(-time.Millisecond)
		if err := l.RemoveInternal(ctx, "7035550101", "the owner asked", "laptop"); !errors.As(err, &kept) {
			t.Fatalf("removal the moment before the date: %v", err)
		}
		clock = until
		if err := l.RemoveInternal(ctx, "7035550101", "ten years passed", "laptop"); err != nil {
			t.Fatalf("removal on the keep-until date: %v", err)
		}
		if list, _ := l.InternalList(ctx); len(list) != 0 {
			t.Fatalf("left on the list: %v", list)
		}
	})
}
