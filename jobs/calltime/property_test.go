package calltime

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Properties of the rule over random phones, addresses and instants of
// 2026 (its clock changes, holidays and Sundays among them), held against
// facts apart from the rules table: a phone is never callable at an
// instant outside 8 a.m. to 9 p.m. in any zone it may be in (the federal
// window, 47 CFR § 64.1200(c)(1)); an address only adds places the person
// may be, so a phone callable with an owner's addresses is callable
// without them (where its area code places it); and a phone nothing
// places is callable only where one the area codes place is.

// areaCodes are the shipped area codes of the states and territories.
func areaCodes(t *testing.T) []string {
	f, err := os.Open(filepath.Join("data", "areacodes.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ",")
		if len(fields) >= 3 && len(fields[0]) == 3 && fields[1] == "US" && fields[2] != "" {
			out = append(out, fields[0])
		}
	}
	if len(out) < 300 {
		t.Fatalf("%d area codes read", len(out))
	}
	return out
}

var someStates = []string{"FL", "TX", "CA", "NY", "IN", "KY", "TN", "ID", "OR", "ND", "SD", "NE", "KS", "AZ", "HI", "AK",
	"LA", "OK", "MD", "WA", "GA", "MI", "PR", "VI", "GU", "Florida", "texas", "XX", ""}

func TestCallableOnlyWithinEveryZonesHours(t *testing.T) {
	t.Parallel()
	e := engine(t)
	codes := areaCodes(t)
	r := rand.New(rand.NewPCG(7, 11))
	n := 10000
	if testing.Short() {
		n = 2000
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	callable := 0
	for i := range n {
		number := fmt.Sprintf("%s%03d%04d", codes[r.IntN(len(codes))], 200+r.IntN(800), r.IntN(10000))
		var addrs []Address
		for range r.IntN(3) {
			zip := ""
			if r.IntN(3) > 0 {
				zip = fmt.Sprintf("%05d", r.IntN(100000))
			}
			addrs = append(addrs, Address{Kind: "mailing", State: someStates[r.IntN(len(someStates))], ZIP: zip})
		}
		at := start.Add(time.Duration(r.Int64N(int64(365 * 24 * time.Hour))))
		if i%5 == 0 { // an hour either side of a clock change, at a minute's edge
			at = time.Date(2026, 3, 8+7*r.IntN(2), 5+r.IntN(6), 0, 0, 0, time.UTC).Add(time.Duration(r.IntN(3)-1) * time.Minute)
		}
		d := e.Window(number, addrs, at)
		if !d.Callable {
			continue
		}
		callable++
		for _, l := range d.Placement.Locations {
			local := at.In(l.tz)
			if h := local.Hour(); h < 8 || h >= 21 {
				t.Fatalf("%s %v callable at %s: %s in %s (%s)", number, addrs, at.Format(time.RFC3339), local.Format("Mon 15:04"), l.Zone, l.Source)
			}
		}
		if len(addrs) > 0 && !e.Window(number, nil, at).Callable && !d.Placement.Unknown {
			t.Fatalf("%s callable at %s with the addresses %v, not without them", number, at.Format(time.RFC3339), addrs)
		}
	}
	if callable < n/10 {
		t.Fatalf("only %d of %d phones callable: the property says little", callable, n)
	}
	t.Logf("%d of %d phones callable at their instants; every one within 8 a.m.-9 p.m. in every zone it may be in", callable, n)
}

// A phone nothing places (a toll-free code, no address) is held to every
// zone: callable only at instants within every state's window.
func TestUnplacedPhoneIsTheNarrowest(t *testing.T) {
	t.Parallel()
	e := engine(t)
	codes := areaCodes(t)
	r := rand.New(rand.NewPCG(3, 5))
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	open := 0
	for range 1000 {
		at := start.Add(time.Duration(r.Int64N(int64(365 * 24 * time.Hour))))
		if !e.Window("8005550100", nil, at).Callable {
			continue
		}
		open++
		number := fmt.Sprintf("%s5550100", codes[r.IntN(len(codes))])
		if d := e.Window(number, nil, at); !d.Callable {
			t.Errorf("toll-free callable at %s, %s not: %v", at.Format(time.RFC3339), number, d.Reasons)
		}
	}
	if open < 50 {
		t.Fatalf("the unplaced phone callable at %d of 1,000 instants: the property says little", open)
	}
	t.Logf("the unplaced phone callable at %d of 1,000 instants; a placed one at each of them", open)
}
