package calltime

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// hasRow reports the row of a kind, state and days (and hours for a window).
func hasRow(t *testing.T, tab *Table, kind Kind, state, days, from, until string) *Rule {
	t.Helper()
	for _, r := range tab.State(state) {
		if r.Kind == kind && r.Days.Text == days && (kind != KindWindow || r.From.String() == from && r.Until.String() == until) {
			return r
		}
	}
	t.Errorf("no %s row for %s %s %s–%s", kind, state, days, from, until)
	return nil
}

func shipped(t *testing.T) *Table {
	t.Helper()
	tab, err := Rules()
	if err != nil {
		t.Fatal(err)
	}
	if tab.Version == "" {
		t.Fatal("no version")
	}
	return tab
}

// TestShippedWindows: the windows and Sunday bans the product promises.
func TestShippedWindows(t *testing.T) {
	tab := shipped(t)
	hasRow(t, tab, KindWindow, "US", "all", "08:00", "21:00")
	for _, s := range []string{"FL", "OK", "MD", "WA"} {
		hasRow(t, tab, KindWindow, s, "all", "08:00", "20:00")
	}
	if r := hasRow(t, tab, KindWindow, "TX", "mon-sat", "09:00", "21:00"); r != nil && r.Effective != "2025-09-01" {
		t.Errorf("TX window effective %q", r.Effective)
	}
	hasRow(t, tab, KindWindow, "TX", "sun", "12:00", "21:00")
	for _, s := range []string{"AL", "LA", "MS"} {
		hasRow(t, tab, KindWindow, s, "mon-sat", "08:00", "20:00")
		hasRow(t, tab, KindBan, s, "sun", "", "")
	}
	if r := hasRow(t, tab, KindWindow, "CT", "all", "09:00", "20:00"); r != nil && !strings.Contains(r.Note, "strictest") {
		t.Errorf("the Connecticut row does not say the strictest reading was taken: %q", r.Note)
	}
}

// TestShippedOtherRules: presumptions, caps, both years' holidays, sources.
func TestShippedOtherRules(t *testing.T) {
	tab := shipped(t)
	for _, s := range []string{"FL", "OK", "CT"} {
		if len(tab.Of(KindPresumption, s)) == 0 {
			t.Errorf("no area-code presumption for %s", s)
		}
	}
	for _, s := range []string{"FL", "OK", "MD"} {
		if caps := tab.Of(KindCap, s); len(caps) != 1 || caps[0].Value != "3" {
			t.Errorf("%s cap rows %v", s, caps)
		}
	}
	for _, s := range []string{"AL", "LA", "MS", "RI", "UT"} {
		for _, date := range []string{"2026-12-25", "2027-11-25"} {
			if !banned(tab, s, date) {
				t.Errorf("%s has no ban on %s", s, date)
			}
		}
	}
	for _, r := range tab.Rules {
		if r.Source == "" {
			t.Errorf("line %d has no source", r.Line)
		}
	}
}

func banned(tab *Table, state, date string) bool {
	for _, r := range tab.Of(KindBan, state) {
		for _, d := range r.Days.Dates() {
			if d == date {
				return true
			}
		}
	}
	return false
}

func TestParseTableErrors(t *testing.T) {
	head := "# version: test\n" + ruleFields + "\nwindow,US,all,08:00,21:00,,,,47 CFR,\n"
	cases := []struct{ row, want string }{
		{"window,FL,all,08:00,25:00,,,,src,", `line 4 field "until": "25:00" is not a time of day`},
		{"window,FL,all,20:00,08:00,,,,src,", `field "until": 08:00 is not after 20:00`},
		{"window,ZZ,all,08:00,20:00,,,,src,", `field "state": "ZZ"`},
		{"curfew,FL,all,08:00,20:00,,,,src,", `field "kind": "curfew" is not a kind of rule`},
		{"window,FL,all,08:00,20:00,,,,,", `field "source": every rule cites its source`},
		{"ban,FL,someday,,,,,,src,", `field "days": "someday"`},
		{"ban,FL,2026-02-30,,,,,,src,", `field "days": "2026-02-30"`},
		{"cap,FL,,,,,three,,src,", `field "value": a cap needs a number`},
		{"optout,VA,,,,,ten years,,src,", `field "value"`},
		{"window,FL,all,08:00,20:00,CST,,,src,", `field "clock": "CST"`},
		{"window,FL,all,08:00,20:00", "5 fields, want 10"},
	}
	for _, c := range cases {
		_, err := ParseTable([]byte(head+c.row+"\n"), "mine.csv")
		var de *DataError
		if !errors.As(err, &de) || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "mine.csv") {
			t.Errorf("%s: error %v, want one naming mine.csv and %q", c.row, err, c.want)
		}
	}
	if _, err := ParseTable([]byte(ruleFields+"\n"), "x.csv"); err == nil || !strings.Contains(err.Error(), "version") {
		t.Errorf("a table without a version: %v", err)
	}
	if _, err := ParseTable([]byte("# version: 1\n"+ruleFields+"\nwindow,FL,all,08:00,20:00,,,,src,\n"), "x.csv"); err == nil || !strings.Contains(err.Error(), "federal") {
		t.Errorf("a table without a federal window: %v", err)
	}
}

func TestKeep(t *testing.T) {
	for _, c := range []struct {
		value    string
		years    int
		textOnly bool
	}{{"10y text", 10, true}, {"1y", 1, false}, {"5y", 5, false}, {"honour 10 business days", 0, false}} {
		r := &Rule{Kind: KindOptOut, Value: c.value}
		y, text, err := r.Keep()
		if err != nil || y != c.years || text != c.textOnly {
			t.Errorf("%q: %d %v %v", c.value, y, text, err)
		}
	}
	if n := (&Rule{Value: "honour 10 business days"}).HonourDays(); n != 10 {
		t.Errorf("HonourDays = %d", n)
	}
}

func TestDataTablesLoad(t *testing.T) {
	p, err := loadPlaces()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.dataInfo, "nyaruka/phonenumbers v") {
		t.Errorf("the numbering data does not name its origin: %q", p.dataInfo)
	}
	for _, s := range []string{"FL", "TX", "AK", "AZ", "PR", "GU", "DC"} {
		if len(p.stateZones[s]) == 0 {
			t.Errorf("no zones for %s", s)
		}
	}
	if p.zipStates[733] != "TX" || p.zipStates[730] != "OK" {
		t.Errorf("733 is %s, 730 is %s", p.zipStates[733], p.zipStates[730])
	}
}

// TestBusinessDays: the honour-by date counts 10 business days after the
// opt-out, weekends and federal holidays skipped (worked by hand on the
// 2026 calendar).
func TestBusinessDays(t *testing.T) {
	day := func(s string) time.Time {
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	cases := []struct{ made, want string }{
		{"2026-11-23", "2026-12-08"}, // Thanksgiving 11-26 skipped
		{"2026-12-18", "2027-01-05"}, // Christmas 12-25 and New Year's Day 2027-01-01 skipped
		{"2026-06-12", "2026-06-29"}, // Juneteenth (Friday 06-19) skipped
		{"2026-07-01", "2026-07-16"}, // Independence Day on a Saturday, observed Friday 07-03
		{"2026-11-21", "2026-12-07"}, // made on a Saturday
	}
	for _, c := range cases {
		if got := BusinessDaysAfter(day(c.made), 10).Format(time.DateOnly); got != c.want {
			t.Errorf("10 business days after %s = %s, want %s", c.made, got, c.want)
		}
	}
	if BusinessDay(day("2027-12-31")) { // New Year's Day 2028 is a Saturday, observed Friday 2027-12-31
		t.Error("2027-12-31 is a business day")
	}
}

// TestOptOutTerms: the federal 10 business days and 5 years; Virginia's
// texts 10 years; Washington a year (inside the federal 5).
func TestOptOutTerms(t *testing.T) {
	e := engine(t)
	made := time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)
	cases := []struct {
		phone     string
		text      bool
		notBefore string
		source    string
	}{
		{"804-555-0100", true, "2036-11-23", "59.1-514"},
		{"804-555-0100", false, "2031-11-23", "64.1200(d)(6)"},
		{"206-555-0100", true, "2031-11-23", "64.1200(d)(6)"},
		{"800-555-0100", true, "2036-11-23", "59.1-514"}, // not placed: every state's rows
	}
	for _, c := range cases {
		tm := e.OptOutTerms(e.Locate(c.phone, nil), c.text, made)
		if tm.HonourBy.Format(time.DateOnly) != "2026-12-08" || tm.Honour == nil {
			t.Errorf("%s: honour by %s", c.phone, tm.HonourBy.Format(time.DateOnly))
		}
		if tm.NotBefore.Format(time.DateOnly) != c.notBefore || !strings.Contains(tm.Keep.Source, c.source) {
			t.Errorf("%s text=%v: kept until %s by %s, want %s by %s", c.phone, c.text, tm.NotBefore.Format(time.DateOnly), tm.Keep.Source, c.notBefore, c.source)
		}
	}
}

// TestCapped: three calls in 24 hours reach the cap in FL, OK and MD only.
func TestCapped(t *testing.T) {
	e := engine(t)
	for phone, want := range map[string]bool{"305-555-0100": true, "405-555-0100": true, "410-555-0100": true, "212-555-0100": false} {
		pl := e.Locate(phone, nil)
		if got := e.Capped(pl, 3) != nil; got != want {
			t.Errorf("%s after 3 calls: capped %v", phone, got)
		}
		if e.Capped(pl, 2) != nil {
			t.Errorf("%s capped after 2 calls", phone)
		}
	}
	if e.Capped(e.Locate("212-555-0100", georgia), 3) != nil {
		t.Error("NY and GA are capped")
	}
	if e.Capped(e.Locate("212-555-0100", []Address{{State: "FL"}}), 3) == nil {
		t.Error("a Florida owner's phone is not capped")
	}
}
