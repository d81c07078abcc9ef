package calltime

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Places answers as the engine does, phone by phone: every 95 minutes of a
// week (every quarter of the clock comes round), for numbers that share an
// area code but not a zone, owners in other states, unplaced and foreign
// numbers. With -short it looks every 285 minutes (a third as often).
func TestPlacesAnswersAsTheEngine(t *testing.T) {
	e := engine(t)
	p := NewPlaces(e)
	numbers := []string{"3055550100", "8504325555", "8505550100", "5045550100", "6015550100", "4045550100", "8005550100",
		"4165550100", "2145550100"}
	addrs := [][2]Address{
		{},
		{{Kind: "property", State: "GA", ZIP: "30301"}, {}},
		{{Kind: "property", State: "FL", ZIP: "32501"}, {Kind: "mailing", State: "Louisiana", ZIP: "70112"}},
		{{}, {Kind: "mailing", State: "TN"}},
		{{Kind: "property", State: "?"}, {}},
	}
	start, step := instant(t, "2026-11-21T00:00:00Z"), 95*time.Minute
	if testing.Short() {
		step *= 3
	}
	for _, n := range numbers {
		for _, a := range addrs {
			pl := e.Locate(n, a[:])
			area, addr := p.AreaID(phone.Key(n)), p.AddressID(a)
			for at := start; at.Before(start.Add(8 * 24 * time.Hour)); at = at.Add(step) {
				got, want := p.Answer(area, addr, at, at), e.Decide(pl, at, nil)
				if got.Reason == "" != want.Callable {
					t.Fatalf("%s %v at %s: reason %q, engine callable %v", n, a, at, got.Reason, want.Callable)
				}
				if !want.Callable && got.Reason != want.Reasons[0].Summary() {
					t.Fatalf("%s %v at %s: reason %q, engine %q", n, a, at, got.Reason, want.Reasons[0].Summary())
				}
				if want.Placement.Invalid == "" && want.Placement.Foreign == "" && got.Window.String() != want.Window.String() {
					t.Fatalf("%s %v at %s: window %s, engine %s", n, a, at, got.Window, want.Window)
				}
			}
		}
	}
	if p.AreaID(phone.Key("8504325555")) == p.AreaID(phone.Key("8505550100")) {
		t.Errorf("two exchanges of 850 in different zones share an area id")
	}
}

// A row's one-line address gives its state and ZIP from its end; one that
// names neither is a place not known.
func TestRowAddresses(t *testing.T) {
	row := layout.Row{Property: layout.Address{Full: "12 Palm St, Pensacola, FL 32501"}, Mailing: layout.Address{Full: "somewhere"}}
	got := RowAddresses(&row)
	if got[0] != (Address{Kind: "property", State: "FL", ZIP: "32501"}) || got[1] != (Address{Kind: "mailing", State: "?"}) {
		t.Errorf("RowAddresses = %+v", got)
	}
}

// A phone's calling time in words, as the viewer shows it.
func TestAnswerWords(t *testing.T) {
	e := engine(t)
	p := NewPlaces(e)
	none := p.AddressID([2]Address{})
	for _, c := range []struct{ number, at, want string }{
		{"5045550100", "2026-11-24T19:42:00-06:00", "Callable 8 a.m.–8 p.m. CT · now 7:42 p.m."},
		{"3055550100", "2026-11-24T20:15:00-05:00", "Not now: callable 8 a.m.–8 p.m. ET · now 8:15 p.m. (calling hours FL 08:00–20:00)"},
		{"2055550100", "2026-11-22T10:00:00-06:00", "No calls today (no calls on Sunday in AL) · now 10 a.m. CT"},
		{"4165550100", "2026-11-24T12:00:00-05:00", "No calling window: area code 416 is outside the United States (CA): its rules are not in the table"},
	} {
		at := instant(t, c.at)
		a := p.Answer(p.AreaID(phone.Key(c.number)), none, at, at)
		if got := a.Words(at, true); got != c.want {
			t.Errorf("%s at %s: %q, want %q", c.number, c.at, got, c.want)
		}
		// A phone a list holds back has hours, never "callable".
		if got := a.Words(at, false); strings.Contains(strings.ToLower(got), "callable") {
			t.Errorf("%s at %s, on a list: %q", c.number, c.at, got)
		}
	}
}

// AddressID, which reads each distinct text of an address once, gives two
// rows the same id exactly when their addresses' keys (AddressKey, read
// afresh each time) are the same: every state as a code, in lower case, as
// a name and not one, every ZIP prefix, ZIPs short, long, signed or not
// ZIPs at all, paired with nothing and with another.
func TestAddressIDAsTheKeys(t *testing.T) {
	t.Parallel()
	e := engine(t)
	p := NewPlaces(e)
	var states []string
	for name, code := range stateNames {
		states = append(states, code, strings.ToLower(code), name, " "+code+" ")
	}
	states = append(states, "", "?", "XX", "Fla.", "N/A")
	zips := []string{"", " ", "32501", "0210", "2134-5678", "32501-1234", "+3250", "-3250", "abcde", "325", " 70112 "}
	var all []Address
	for _, s := range states {
		for _, z := range zips {
			all = append(all, Address{Kind: "property", State: s, ZIP: z})
		}
	}
	for n := 0; n < 1000; n++ {
		for _, s := range []string{"", "FL", "Texas", "?"} {
			all = append(all, Address{Kind: "mailing", State: s, ZIP: fmt.Sprintf("%03d%02d", n, n%100)})
		}
	}
	byKey := map[[2]AddressKey]int32{}
	byID := map[int32][2]AddressKey{}
	check := func(a [2]Address) {
		id := p.AddressID(a)
		want := [2]AddressKey{e.AddressKey(a[0]), e.AddressKey(a[1])}
		if prev, ok := byKey[want]; ok && prev != id {
			t.Fatalf("%v: id %d, and %d for the same keys", a, id, prev)
		}
		if k, ok := byID[id]; ok && k != want {
			t.Fatalf("%v: id %d is also that of other keys", a, id)
		}
		byKey[want], byID[id] = id, want
	}
	for i, a := range all {
		check([2]Address{a, {}})
		check([2]Address{{}, a})
		check([2]Address{a, all[(i*7919)%len(all)]})
		check([2]Address{all[(i*104729)%len(all)], a})
	}
	if len(byKey) < 100 {
		t.Fatalf("only %d distinct keys: the addresses do not vary", len(byKey))
	}
}

// The numbers a callable list never holds for being abroad
// (phone.Abroad) are the area codes this table places outside the United
// States and its territories, and no others: one table's knowledge in two
// packages, held alike.
func TestAbroadAsTheAreaCodes(t *testing.T) {
	e := engine(t)
	for npa := 200; npa <= 999; npa++ {
		key := uint64(npa)*10_000_000 + 5550100
		ac := e.places.codes[npa]
		want := ""
		if ac != nil && ac.State == "" && ac.Region != Federal {
			want = ac.Region
		}
		if got := phone.Abroad(key); got != want {
			t.Errorf("area code %d: phone.Abroad says %q, the area code table %q", npa, got, want)
		}
	}
}
