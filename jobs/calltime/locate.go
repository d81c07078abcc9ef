package calltime

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Address is an owner's address as far as placing a phone goes.
type Address struct {
	Kind  string // "property" or "mailing": named in reasons
	State string // a postal code or a state's name
	ZIP   string
}

// AnyState is the State of a location nothing could place: every state's
// rules apply there.
const AnyState = "*"

// unknownZones are the zones a phone that cannot be placed is held to: the
// zones of the states, DC, Puerto Rico and the US Virgin Islands.
var unknownZones = []string{
	"America/Puerto_Rico", "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix",
	"America/Los_Angeles", "America/Anchorage", "America/Adak", "Pacific/Honolulu",
}

// Location is one place a called person may be.
type Location struct {
	State  string // postal code; AnyState when the phone could not be placed
	Zone   string // IANA zone, or a fixed offset a vendor gave ("UTC-05:00")
	Source string // what placed it: "area code 850, exchange 432", "mailing ZIP 32501"…
	tz     *time.Location
}

// Placement is where a phone's called person may be.
type Placement struct {
	Number    string // the 10 digits; "" when the number is not valid
	Invalid   string // why the number is not a valid US number
	Foreign   string // the region when the area code is outside the US and its territories ("CA", "JM")
	AreaCode  *AreaCode
	Unknown   bool // nothing placed it: every state's rules in every zone
	Locations []Location
	key       string // the set of locations, for caching windows
}

// Zones lists the distinct zones of the placement, in order.
func (p *Placement) Zones() []string {
	var out []string
	for _, l := range p.Locations {
		if !contains(out, l.Zone) {
			out = append(out, l.Zone)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Locate places a phone from its number and the owner's addresses.
func (e *Engine) Locate(number string, addrs []Address) Placement {
	var pl Placement
	n := phone.Normalize(number)
	if !n.Valid {
		pl.Invalid = n.Reason
		return pl
	}
	pl.Number = n.Digits
	e.placeAreaCode(&pl)
	for _, a := range addrs {
		e.placeAddress(&pl, a)
	}
	if len(pl.Locations) == 0 && pl.Foreign == "" {
		pl.Unknown = true
		e.addZones(&pl, AnyState, unknownZones, "location unknown")
	}
	var key strings.Builder
	for _, l := range pl.Locations {
		key.WriteString(l.State + "@" + l.Zone + ";")
	}
	pl.key = key.String()
	return pl
}

func (e *Engine) placeAreaCode(pl *Placement) {
	npa, _ := strconv.Atoi(pl.Number[:3])
	nxx, _ := strconv.Atoi(pl.Number[3:6])
	ac := e.places.codes[npa]
	if ac == nil {
		return // not an area code in use: the addresses (or nothing) place it
	}
	pl.AreaCode = ac
	if ac.State == "" {
		if ac.Region != Federal {
			pl.Foreign = ac.Region
		}
		return // non-geographic (toll-free, personal) or outside the US
	}
	zones, source := ac.Zones, fmt.Sprintf("area code %03d", npa)
	if len(zones) > 1 {
		if z, ok := e.places.exchanges[npa*1000+nxx]; ok {
			zones, source = z, fmt.Sprintf("area code %03d, exchange %03d", npa, nxx)
		}
	}
	e.addZones(pl, ac.State, zones, source)
}

// placeAddress adds an address's state in its ZIP's zone (every zone of the
// state when the ZIP does not say), and the ZIP's own state when it is
// another. An address that names no place it can read counts as a place
// unknown: it may be anywhere.
func (e *Engine) placeAddress(pl *Placement, a Address) {
	state, stateOK := StateCode(a.State)
	zip3, zipState := e.zipPrefix(a.ZIP)
	kind := a.Kind
	if kind == "" {
		kind = "owner"
	}
	switch {
	case !stateOK && zipState == "":
		if strings.TrimSpace(a.State) != "" || strings.TrimSpace(a.ZIP) != "" {
			e.addZones(pl, AnyState, unknownZones, kind+" address not placed")
		}
		return
	case !stateOK:
		state = zipState
	}
	if zipState == state {
		e.addZones(pl, state, e.stateZip(state, zip3), fmt.Sprintf("%s ZIP %s", kind, zip3+"xx"))
		return
	}
	e.addZones(pl, state, e.places.stateZones[state], fmt.Sprintf("%s state %s", kind, state))
	if zipState != "" {
		e.addZones(pl, zipState, e.stateZip(zipState, zip3), fmt.Sprintf("%s ZIP %s", kind, zip3+"xx"))
	}
}

// zipPrefix reads a ZIP (5 digits, ZIP+4, or one that lost its leading
// zero) and returns its first three digits and their state.
func (e *Engine) zipPrefix(zip string) (zip3, state string) {
	z := strings.TrimSpace(zip)
	if p, ok := input.PadZip(z); ok {
		z = p
	}
	if len(z) < 5 {
		return "", ""
	}
	n, err := strconv.Atoi(z[:5])
	if err != nil || n < 0 {
		return "", ""
	}
	return z[:3], e.places.zipStates[n/100]
}

// stateZip is the zones of a state's ZIP prefix: the prefix's own where the
// state is split, the state's otherwise.
func (e *Engine) stateZip(state, zip3 string) []string {
	if z, ok := e.places.zipZones[state+zip3]; ok {
		return z
	}
	return e.places.stateZones[state]
}

// addZones adds one location per zone, merging a location already there
// (same state and zone) by naming this source too.
func (e *Engine) addZones(pl *Placement, state string, zones []string, source string) {
	for _, z := range zones {
		merged := false
		for i := range pl.Locations {
			if l := &pl.Locations[i]; l.State == state && l.Zone == z {
				if !strings.Contains(l.Source, source) {
					l.Source += "; " + source
				}
				merged = true
			}
		}
		if !merged {
			pl.Locations = append(pl.Locations, Location{State: state, Zone: z, Source: source, tz: e.places.zones[z]})
		}
	}
}
