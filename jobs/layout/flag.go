package layout

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Flag is what a result says about a phone and one list: flagged (on the
// list), clean (not on it) or unknown. The zero value is Unknown, so that
// a flag nobody set is never read as clean.
type Flag uint8

const (
	Unknown Flag = iota
	Clean
	Flagged
)

func (f Flag) String() string {
	switch f {
	case Clean:
		return "clean"
	case Flagged:
		return "flagged"
	}
	return "unknown"
}

// MarshalText writes "clean", "flagged" or "unknown".
func (f Flag) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (f *Flag) UnmarshalText(b []byte) error {
	switch string(b) {
	case "clean":
		*f = Clean
	case "flagged":
		*f = Flagged
	case "unknown":
		*f = Unknown
	default:
		return fmt.Errorf("layout: flag %q: want clean, flagged or unknown", b)
	}
	return nil
}

// merge combines two readings of the same flag: a known value wins over
// unknown, and when they disagree the phone is flagged.
func merge(a, b Flag) Flag {
	switch {
	case a == Flagged || b == Flagged:
		return Flagged
	case a == Clean || b == Clean:
		return Clean
	}
	return Unknown
}

// FlagKind is the list a flag is about.
type FlagKind uint8

const (
	// Federal is the national Do-Not-Call registry. A column that says
	// "DNC" without naming the list is read as this one.
	Federal FlagKind = iota
	// State is a state's do-not-call list (or a state rule that forbids the
	// call, such as solicitation of wireless numbers in some states).
	State
	// Litigator is the TCPA litigator list.
	Litigator
	// Internal is the caller's own do-not-call list (project, company).
	Internal
	// Combined is a verdict over several lists at once: a "DNC/Litigator"
	// column, a scrub service's result code, a "Callable" column. Clean
	// means clean on the DNC registries and the litigator list.
	Combined
	// Number is the number's own status as the service saw it: flagged
	// means invalid, malformed or disconnected.
	Number
	numKinds
)

var kindNames = [numKinds]string{"federal", "state", "litigator", "internal", "combined", "number"}

var kindWords = [numKinds]string{"federal DNC", "state DNC", "litigator", "internal DNC", "DNC/litigator", "number status"}

func (k FlagKind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind%d", uint8(k))
}

// Words names the list for a person: "federal DNC", "litigator".
func (k FlagKind) Words() string {
	if k < numKinds {
		return kindWords[k]
	}
	return k.String()
}

// MarshalText writes the kind's name ("federal", "state", ...).
func (k FlagKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (k *FlagKind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n == string(b) {
			*k = FlagKind(i)
			return nil
		}
	}
	return fmt.Errorf("layout: flag kind %q: want one of %s", b, strings.Join(kindNames[:], ", "))
}

// Kinds is a set of flag kinds.
type Kinds uint8

// Has reports whether k is in the set.
func (s Kinds) Has(k FlagKind) bool { return s&(1<<k) != 0 }

func (s Kinds) with(k FlagKind) Kinds { return s | 1<<k }

// List names the kinds in the set, in order.
func (s Kinds) List() []FlagKind {
	var out []FlagKind
	for k := FlagKind(0); k < numKinds; k++ {
		if s.Has(k) {
			out = append(out, k)
		}
	}
	return out
}

// MarshalJSON writes the set as a list of names.
func (s Kinds) MarshalJSON() ([]byte, error) {
	l := s.List()
	if l == nil {
		l = []FlagKind{}
	}
	return json.Marshal(l)
}

// Flags are a phone's flags. Has says which lists were reported for it:
// a flag outside Has is not known at all (not even as unknown).
type Flags struct {
	Has Kinds
	of  [numKinds]Flag
}

// Of is the phone's flag for a list (Unknown when not reported).
func (f Flags) Of(k FlagKind) Flag {
	if k >= numKinds {
		return Unknown
	}
	return f.of[k]
}

// Set records a reading of a list's flag, merged with what is known.
func (f *Flags) Set(k FlagKind, v Flag) {
	if f.Has.Has(k) {
		f.of[k] = merge(f.of[k], v)
	} else {
		f.of[k] = v
		f.Has = f.Has.with(k)
	}
}

// Merge combines two sets of readings of the same phone (its own result's
// and a DNC result's): every list reported by either, each merged.
func (f Flags) Merge(o Flags) Flags {
	for k := FlagKind(0); k < numKinds; k++ {
		if o.Has.Has(k) {
			f.Set(k, o.of[k])
		}
	}
	return f
}

// Override applies newer readings (a DNC result joined to a trace's
// phones) over these: every list o reports takes o's answer, except that a
// phone flagged here stays flagged. An unknown in o is unknown, whatever
// was known here: the newer scrub is the answer asked for.
func (f Flags) Override(o Flags) Flags {
	for k := FlagKind(0); k < numKinds; k++ {
		if !o.Has.Has(k) {
			continue
		}
		if f.Has.Has(k) && f.of[k] == Flagged {
			continue
		}
		f.of[k] = o.of[k]
		f.Has = f.Has.with(k)
	}
	return f
}

// MarshalJSON writes {"federal": "clean", "litigator": "flagged"}: the lists
// reported.
func (f Flags) MarshalJSON() ([]byte, error) {
	m := map[string]Flag{}
	for _, k := range f.Has.List() {
		m[k.String()] = f.of[k]
	}
	return json.Marshal(m)
}

// Block is why a phone may not be called; zero means it may. Several reasons
// can hold at once.
type Block uint16

const (
	BlockInvalid          Block = 1 << iota // the number is not a valid US number, or the service says so
	BlockFederal                            // on the national DNC registry
	BlockState                              // on a state DNC list
	BlockLitigator                          // on the litigator list
	BlockInternal                           // on the caller's own list
	BlockCombined                           // on a DNC or the litigator list (a combined verdict)
	BlockUnknownDNC                         // whether it is on a DNC registry is not known
	BlockUnknownLitigator                   // whether it is on the litigator list is not known
	BlockUnknownState                       // a state list was checked, its answer is not known
	BlockUnknownInternal                    // the caller's list was checked, its answer is not known
	BlockStale                              // the scrub that answered is older than the registry data may be used (31 days)
)

var blockWords = []struct {
	b Block
	w string
}{
	{BlockInvalid, "invalid number"},
	{BlockFederal, "federal DNC"},
	{BlockState, "state DNC"},
	{BlockLitigator, "litigator"},
	{BlockInternal, "internal DNC"},
	{BlockCombined, "DNC or litigator"},
	{BlockStale, "scrub over 31 days old"},
	{BlockUnknownDNC, "DNC unknown"},
	{BlockUnknownLitigator, "litigator unknown"},
	{BlockUnknownState, "state DNC unknown"},
	{BlockUnknownInternal, "internal DNC unknown"},
}

// String gives the reasons in words ("federal DNC, litigator"); "callable"
// for none.
func (b Block) String() string {
	if b == 0 {
		return "callable"
	}
	var parts []string
	for _, x := range blockWords {
		if b&x.b != 0 {
			parts = append(parts, x.w)
		}
	}
	return strings.Join(parts, ", ")
}

// Primary is the first reason, in words, in the order String lists them
// ("invalid number" before "federal DNC"…): one reason a phone is counted
// under. "callable" for none.
func (b Block) Primary() string {
	for _, x := range blockWords {
		if b&x.b != 0 {
			return x.w
		}
	}
	return "callable"
}

// Unknown reports whether some flag the call depends on is not known.
func (b Block) Unknown() bool {
	return b&(BlockUnknownDNC|BlockUnknownLitigator|BlockUnknownState|BlockUnknownInternal) != 0
}

// MarshalText writes the reasons in words.
func (b Block) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// Callability decides whether a phone may be called. The rule:
//
//   - the number must be valid (and not reported invalid by the service);
//   - the DNC registries must be answered clean: by a federal (or unnamed)
//     DNC flag or a combined verdict; every such flag reported must be
//     clean;
//   - the litigator list must be answered clean: by a litigator flag or a
//     combined verdict;
//   - a state or internal list is checked when the result reports it (every
//     such flag must then be clean). A result with no state column says
//     nothing about state lists: the call is decided on the federal and
//     litigator lists, and the layout says that state lists were not
//     checked.
//
// Anything unknown blocks the call: a phone is callable only when every
// required answer is known and clean.
func Callability(valid bool, f Flags) Block {
	var b Block
	if !valid {
		b |= BlockInvalid
	}
	check := func(k FlagKind, flagged, unknown Block) {
		if !f.Has.Has(k) {
			return
		}
		switch f.of[k] {
		case Flagged:
			b |= flagged
		case Unknown:
			b |= unknown
		}
	}
	check(Federal, BlockFederal, BlockUnknownDNC)
	check(State, BlockState, BlockUnknownState)
	check(Litigator, BlockLitigator, BlockUnknownLitigator)
	check(Internal, BlockInternal, BlockUnknownInternal)
	check(Combined, BlockCombined, BlockUnknownDNC|BlockUnknownLitigator)
	if f.Has.Has(Number) && f.of[Number] == Flagged {
		b |= BlockInvalid
	}
	if !f.Has.Has(Federal) && !f.Has.Has(Combined) {
		b |= BlockUnknownDNC
	}
	if !f.Has.Has(Litigator) && !f.Has.Has(Combined) {
		b |= BlockUnknownLitigator
	}
	if b&BlockInvalid != 0 {
		// An invalid number is not callable whatever the lists say;
		// that nobody checked them is no further reason.
		b &^= BlockUnknownDNC | BlockUnknownLitigator | BlockUnknownState | BlockUnknownInternal
	}
	return b
}
