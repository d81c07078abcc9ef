package ledger

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestInternalList(t *testing.T) { eachStore(t, testInternalList) }

func testInternalList(t *testing.T, st store) {
	l := st.open(t)
	ctx := context.Background()
	clock := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	l.now = func() time.Time { return clock }

	n, err := l.AddInternal(ctx, []InternalEntry{
		{Number: "5125550101", Reason: "asked on a call", Source: "by hand", By: "laptop-1"},
		{Number: "5125550102", Source: "file owners.csv"},
	})
	if err != nil || n != 2 {
		t.Fatalf("add: %d %v", n, err)
	}
	// A number already on the list keeps its first date and reason.
	clock = clock.Add(time.Hour)
	n, err = l.AddInternal(ctx, []InternalEntry{{Number: "5125550101", Reason: "again"}, {Number: "2145550103", Reason: "complaint"}})
	if err != nil || n != 1 {
		t.Fatalf("add again: %d %v", n, err)
	}
	if _, err := l.AddInternal(ctx, []InternalEntry{{Number: "512555010"}}); err == nil {
		t.Fatal("a 9-digit number was accepted")
	}
	list, err := l.InternalList(ctx)
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
	if err := l.RemoveInternal(ctx, "5125550101", "", ""); err == nil {
		t.Fatal("removed without a reason")
	}
	if err := l.RemoveInternal(ctx, "5125550101", "added by mistake", "laptop-2"); err != nil {
		t.Fatal(err)
	}
	if err := l.RemoveInternal(ctx, "5125550101", "twice", ""); !errors.Is(err, ErrNotOnList) {
		t.Fatalf("removing a number not on the list: %v", err)
	}
	// Added back: a new entry with its own date; the log has the story.
	clock = clock.Add(time.Hour)
	if n, err := l.AddInternal(ctx, []InternalEntry{{Number: "5125550101", Reason: "asked again"}}); err != nil || n != 1 {
		t.Fatalf("add back: %d %v", n, err)
	}
	log, err := l.InternalLog(ctx, "5125550101")
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
	if list, err := l.InternalList(ctx); err != nil || len(list) != 3 {
		t.Fatalf("after a reopen: %d %v", len(list), err)
	}
	if st.other != nil {
		if list, err := st.other(t, l, "laptop-2").InternalList(ctx); err != nil || len(list) != 3 {
			t.Fatalf("another computer: %d %v", len(list), err)
		}
	}
}

// A computer's own ledger is read beside the app holding it.
func TestInternalListReadOnly(t *testing.T) {
	l, dir := openTest(t)
	ctx := context.Background()
	if _, err := l.AddInternal(ctx, []InternalEntry{{Number: "5125550101", Reason: "asked"}}); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if list, err := ro.InternalList(ctx); err != nil || len(list) != 1 {
		t.Fatalf("read-only: %d %v", len(list), err)
	}
}
