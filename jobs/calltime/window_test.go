package calltime

import (
	"strings"
	"testing"
	"time"
)

func engine(t testing.TB) *Engine {
	t.Helper()
	e, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func instant(t testing.TB, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

var (
	georgia   = []Address{{Kind: "mailing", State: "GA", ZIP: "30301"}}
	louisiana = []Address{{Kind: "property", State: "Louisiana", ZIP: "70112"}}
	pensacola = []Address{{Kind: "property", State: "FL", ZIP: "32501"}}
	tennessee = []Address{{Kind: "mailing", State: "TN"}}
)

// TestWindowWeek holds the rule to a table written by hand from
// data/rules.csv: phones across the states with their own rules, instants
// across the week of 2026-11-22 (a Sunday; Thanksgiving on Thursday the
// 26th), evenings in each zone, and a few summer days. In November the
// offsets are ET -5, CT -6, MT and Arizona -7, PT -8, AT -4, HT -10; in July
// ET -4, CT -5, MT -6, Arizona -7. want is the day's window in the called
// person's time (the zone of the first location: the area code's).
func TestWindowWeek(t *testing.T) {
	e := engine(t)
	cases := []struct {
		name     string
		phone    string
		addrs    []Address
		at       string
		callable bool
		window   string
		reason   string // a word the first reason holds, when not callable
	}{
		{"FL last minute before 8 p.m.", "305-555-0100", nil, "2026-11-23T19:59:00-05:00", true, "08:00–20:00 ET", ""},
		{"FL at 8 p.m.", "305-555-0100", nil, "2026-11-23T20:00:00-05:00", false, "08:00–20:00 ET", "Fla. Stat. § 501.616(6)(a)"},
		{"FL before 8 a.m.", "(305) 555-0100", nil, "2026-11-23T07:59:00-05:00", false, "08:00–20:00 ET", "outside 08:00–20:00"},
		{"FL panhandle exchange on Central time", "850-432-5555", nil, "2026-11-23T19:30:00-06:00", true, "08:00–20:00 CT", ""},
		{"FL panhandle exchange not listed: both zones", "850-555-0100", nil, "2026-11-23T19:30:00-06:00", false, "08:00–19:00 CT", "ET"},
		{"FL panhandle exchange not listed, earlier", "850-555-0100", nil, "2026-11-23T18:59:00-06:00", true, "08:00–19:00 CT", ""},
		{"TX Sunday before noon", "214-555-0100", nil, "2026-11-22T11:30:00-06:00", false, "12:00–21:00 CT", "12:00–21:00"},
		{"TX Sunday at noon", "214-555-0100", nil, "2026-11-22T12:00:00-06:00", true, "12:00–21:00 CT", ""},
		{"TX Saturday 8:30 a.m.", "214-555-0100", nil, "2026-11-28T08:30:00-06:00", false, "09:00–21:00 CT", "09:00–21:00"},
		{"TX Saturday evening", "214-555-0100", nil, "2026-11-28T20:30:00-06:00", true, "09:00–21:00 CT", ""},
		{"TX Sunday before the rule was in force", "214-555-0100", nil, "2025-08-31T11:00:00-05:00", true, "08:00–21:00 CT", ""},
		{"LA Sunday", "504-555-0100", nil, "2026-11-22T14:00:00-06:00", false, "", "Sunday"},
		{"LA Thanksgiving", "504-555-0100", nil, "2026-11-26T14:00:00-06:00", false, "", "Thanksgiving"},
		{"LA the day after Thanksgiving", "504-555-0100", nil, "2026-11-27T14:00:00-06:00", false, "", "day after"},
		{"LA Tuesday before 8 p.m.", "504-555-0100", nil, "2026-11-24T19:59:00-06:00", true, "08:00–20:00 CT", ""},
		{"LA Tuesday at 8 p.m.", "504-555-0100", nil, "2026-11-24T20:00:00-06:00", false, "08:00–20:00 CT", "LA"},
		{"LA phone, Georgia owner, evening", "504-555-0100", georgia, "2026-11-24T19:30:00-06:00", true, "08:00–20:00 CT", ""},
		{"LA phone, Georgia owner, 7:30 a.m. CT", "504-555-0100", georgia, "2026-11-24T07:30:00-06:00", false, "08:00–20:00 CT", "LA"},
		{"GA phone, Louisiana owner, 8:30 p.m. ET", "404-555-0100", louisiana, "2026-11-24T20:30:00-05:00", true, "09:00–21:00 ET", ""},
		{"GA phone, Louisiana owner, 8:30 a.m. ET", "404-555-0100", louisiana, "2026-11-24T08:30:00-05:00", false, "09:00–21:00 ET", "7:30 a.m. CT in LA"},
		{"GA phone, Louisiana owner, Sunday", "404-555-0100", louisiana, "2026-11-22T15:00:00-05:00", false, "", "Sunday"},
		{"MD evening", "410-555-0100", nil, "2026-11-25T20:15:00-05:00", false, "08:00–20:00 ET", "14-4503"},
		{"WA before 8 p.m. PT", "206-555-0100", nil, "2026-11-25T19:59:00-08:00", true, "08:00–20:00 PT", ""},
		{"WA at 8 p.m. PT", "206-555-0100", nil, "2026-11-25T20:00:00-08:00", false, "08:00–20:00 PT", "RCW"},
		{"OK at 8 a.m.", "405-555-0100", nil, "2026-11-25T08:00:00-06:00", true, "08:00–20:00 CT", ""},
		{"OK before 8 a.m.", "405-555-0100", nil, "2026-11-25T07:59:00-06:00", false, "08:00–20:00 CT", "775C.4"},
		{"AL Sunday", "205-555-0100", nil, "2026-11-22T10:00:00-06:00", false, "", "Sunday"},
		{"AL Thanksgiving", "205-555-0100", nil, "2026-11-26T10:00:00-06:00", false, "", "Thanksgiving"},
		{"AL Monday evening", "205-555-0100", nil, "2026-11-23T19:59:00-06:00", true, "08:00–20:00 CT", ""},
		{"MS November evening", "601-555-0100", nil, "2026-11-24T19:30:00-06:00", true, "08:00–20:00 CT", ""},
		{"MS summer 8:30 a.m. CDT is 7:30 CST", "601-555-0100", nil, "2026-07-14T08:30:00-05:00", false, "09:00–20:00 CT", "UTC-06:00"},
		{"MS summer 9 a.m. CDT", "601-555-0100", nil, "2026-07-14T09:00:00-05:00", true, "09:00–20:00 CT", ""},
		{"RI Saturday before 10", "401-555-0100", nil, "2026-11-28T09:30:00-05:00", false, "10:00–17:00 ET", "10:00–17:00"},
		{"RI Saturday before 5", "401-555-0100", nil, "2026-11-28T16:59:00-05:00", true, "10:00–17:00 ET", ""},
		{"RI Monday at 6 p.m.", "401-555-0100", nil, "2026-11-23T18:00:00-05:00", false, "09:00–18:00 ET", "09:00–18:00"},
		{"CT before 9", "203-555-0100", nil, "2026-11-23T08:30:00-05:00", false, "09:00–20:00 ET", "42-288a"},
		{"CT evening", "203-555-0100", nil, "2026-11-23T19:59:00-05:00", true, "09:00–20:00 ET", ""},
		{"KY before 10", "502-555-0100", nil, "2026-11-23T09:30:00-05:00", false, "10:00–21:00 ET", "367.46955"},
		{"AZ late evening, November", "602-555-0100", nil, "2026-11-23T20:59:00-07:00", true, "08:00–21:00 MST (Arizona)", ""},
		{"AZ summer: no daylight saving", "602-555-0100", nil, "2026-07-14T20:30:00-07:00", true, "08:00–21:00 MST (Arizona)", ""},
		{"UT Pioneer Day", "801-555-0100", nil, "2026-07-24T12:00:00-06:00", false, "", "Pioneer"},
		{"UT the day before", "801-555-0100", nil, "2026-07-23T12:00:00-06:00", true, "08:00–21:00 MT", ""},
		{"HI evening", "808-555-0100", nil, "2026-11-23T20:30:00-10:00", true, "08:00–21:00 HT", ""},
		{"NY at 9 p.m.", "212-555-0100", nil, "2026-11-23T21:00:00-05:00", false, "08:00–21:00 ET", "64.1200"},
		{"FL phone, Pensacola property, 7:30 a.m. CT", "305-555-0100", pensacola, "2026-11-23T08:30:00-05:00", false, "09:00–20:00 ET", "7:30 a.m. CT"},
		{"FL phone, Tennessee owner, no ZIP: both TN zones", "305-555-0100", tennessee, "2026-11-23T08:30:00-05:00", false, "09:00–20:00 ET", "TN"},
		{"unknown place: a weekday afternoon", "800-555-0100", nil, "2026-11-24T15:00:00-05:00", true, "16:00–18:00 AT", ""},
		{"unknown place: too early in Hawaii", "800-555-0100", nil, "2026-11-24T14:00:00-05:00", false, "16:00–18:00 AT", "unknown place"},
		{"unknown place: Thanksgiving", "800-555-0100", nil, "2026-11-26T15:00:00-05:00", false, "", "Thanksgiving"},
		{"toll-free number with a Texas owner", "888-555-0100", []Address{{State: "TX", ZIP: "75201"}}, "2026-11-22T12:30:00-06:00", true, "12:00–21:00 CT", ""},
		{"Canadian area code", "416-555-0100", nil, "2026-11-23T12:00:00-05:00", false, "", "outside the United States"},
		{"not a number", "555-0100", nil, "2026-11-23T12:00:00-05:00", false, "", "not a valid US number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := e.Window(c.phone, c.addrs, instant(t, c.at))
			if d.Callable != c.callable {
				t.Fatalf("callable = %v, want %v; reasons %v", d.Callable, c.callable, texts(d.Reasons))
			}
			if got := windowText(d.Window); got != c.window {
				t.Errorf("window = %q, want %q", got, c.window)
			}
			if c.callable != (len(d.Reasons) == 0) {
				t.Errorf("reasons %v for callable = %v", texts(d.Reasons), c.callable)
			}
			if !c.callable && !strings.Contains(strings.Join(texts(d.Reasons), " | "), c.reason) {
				t.Errorf("reasons %v do not say %q", texts(d.Reasons), c.reason)
			}
		})
	}
}

func windowText(w DayWindow) string {
	if !w.Open() {
		return ""
	}
	return w.String()
}

func texts(rs []Reason) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Text)
	}
	return out
}

// TestDecisionAgreesWithWindow: a phone is callable at an instant exactly
// when the instant lies in its day's window, and a refused instant always
// has a reason — every quarter hour of a week (with -short every 45
// minutes), for phones of every kind.
func TestDecisionAgreesWithWindow(t *testing.T) {
	e := engine(t)
	phones := []struct {
		number string
		addrs  []Address
	}{
		{"305-555-0100", pensacola}, {"850-555-0100", nil}, {"214-555-0100", georgia}, {"504-555-0100", nil},
		{"601-555-0100", nil}, {"401-555-0100", louisiana}, {"800-555-0100", nil}, {"907-555-0100", nil},
	}
	start, step := instant(t, "2026-11-21T00:00:00Z"), 15*time.Minute
	if testing.Short() {
		step *= 3
	}
	for _, p := range phones {
		pl := e.Locate(p.number, p.addrs)
		for at := start; at.Before(start.Add(8 * 24 * time.Hour)); at = at.Add(step) {
			d := e.Decide(pl, at, nil)
			if d.Callable != d.Window.Contains(at) {
				t.Fatalf("%s at %s: callable %v but window %v", p.number, at, d.Callable, d.Window.Spans)
			}
			if !d.Callable && len(d.Reasons) == 0 {
				t.Fatalf("%s at %s: refused without a reason", p.number, at)
			}
		}
	}
}

func TestLocate(t *testing.T) {
	e := engine(t)
	cases := []struct {
		phone string
		addrs []Address
		want  string // state@zone list
	}{
		{"3055550100", nil, "FL@America/New_York"},
		{"1-850-432-5555", nil, "FL@America/Chicago"},
		{"850-555-0100", nil, "FL@America/Chicago FL@America/New_York"},
		{"504-555-0100", georgia, "LA@America/Chicago GA@America/New_York"},
		{"305-555-0100", pensacola, "FL@America/New_York FL@America/Chicago"},
		{"305-555-0100", []Address{{State: "FL", ZIP: "60601"}}, "FL@America/New_York FL@America/Chicago IL@America/Chicago"},
		{"305-555-0100", []Address{{ZIP: "79901"}}, "FL@America/New_York TX@America/Denver"},
		{"305-555-0100", []Address{{State: "??", ZIP: "x"}}, "FL@America/New_York " + anyZones()},
		{"305-555-0100", []Address{{}}, "FL@America/New_York"},
		{"787-555-0100", nil, "PR@America/Puerto_Rico"},
		{"602-555-0100", []Address{{State: "AZ", ZIP: "86515"}}, "AZ@America/Phoenix AZ@America/Denver"},
		{"800-555-0100", nil, anyZones()},
	}
	for _, c := range cases {
		pl := e.Locate(c.phone, c.addrs)
		var got []string
		for _, l := range pl.Locations {
			got = append(got, l.State+"@"+l.Zone)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("Locate(%s, %v) = %v, want %s", c.phone, c.addrs, got, c.want)
		}
	}
}

func anyZones() string {
	var out []string
	for _, z := range unknownZones {
		out = append(out, AnyState+"@"+z)
	}
	return strings.Join(out, " ")
}

// TestClosedDayHasNoMain: a day with no lawful minute gives no from/until.
func TestClosedDayHasNoMain(t *testing.T) {
	e := engine(t)
	w := e.DailyWindow(e.Locate("504-555-0100", nil), "2026-11-22", nil)
	if _, _, ok := w.Main(); ok || w.Open() {
		t.Fatalf("Louisiana's Sunday is open: %v", w.Spans)
	}
	w = e.DailyWindow(e.Locate("504-555-0100", nil), "2026-11-23", nil)
	from, until, ok := w.Main()
	if !ok || from != 8*60 || until != 20*60 || w.Label() != "CT" {
		t.Fatalf("Louisiana's Monday: %s–%s %s (%v)", from, until, w.Label(), ok)
	}
}

func TestReasonSummary(t *testing.T) {
	e := engine(t)
	cases := map[string]string{
		"212-555-0100|2026-11-23T21:30:00-05:00": "calling hours (federal) 08:00–21:00",
		"305-555-0100|2026-11-23T20:30:00-05:00": "calling hours FL 08:00–20:00",
		"205-555-0100|2026-11-22T12:00:00-06:00": "no calls on Sunday in AL",
		"504-555-0100|2026-11-26T12:00:00-06:00": "no calls on Thanksgiving Day and the day after in LA",
		"601-555-0100|2026-07-14T08:30:00-05:00": "calling hours MS 08:00–20:00 UTC-06:00",
	}
	for in, want := range cases {
		number, at, _ := strings.Cut(in, "|")
		d := e.Window(number, nil, instant(t, at))
		if d.Callable || d.Reasons[0].Summary() != want {
			t.Errorf("%s: %v %q, want %q", in, d.Callable, texts(d.Reasons), want)
		}
	}
}
