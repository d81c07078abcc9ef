package calltime

import (
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Places answers as the engine does, phone by phone: every 95 minutes of a
// week (every quarter of the clock comes round), for numbers that share an
// area code but not a zone, owners in other states, unplaced and foreign
// numbers.
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
	start := instant(t, "2026-11-21T00:00:00Z")
	for _, n := range numbers {
		for _, a := range addrs {
			pl := e.Locate(n, a[:])
			area, addr := p.AreaID(phone.Key(n)), p.AddressID(a)
			for at := start; at.Before(start.Add(8 * 24 * time.Hour)); at = at.Add(95 * time.Minute) {
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
