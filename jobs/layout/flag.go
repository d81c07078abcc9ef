package layout

import (
	"encoding/json"
	"fmt"
	"math/bits"
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

// merge combines two readings of the same list: flagged beats unknown, and
// unknown beats clean. A phone is clean on a list only when every reading
// of it says so: two columns of one list, two rows of one number, never a
// known "no" over a "not checked".
func merge(a, b Flag) Flag {
	switch {
	case a == Flagged || b == Flagged:
		return Flagged
	case a == Unknown || b == Unknown:
		return Unknown
	}
	return Clean
}

// FlagKind is the list a flag is about. Lists are kept apart: a column
// answers for the list it names and no other, and the lists SkipDesk keeps
// itself (the company's) never answer for a list of the file's.
type FlagKind uint8

const (
	// Federal is the national Do-Not-Call registry, named as such
	// ("federal", "national", "FTC").
	Federal FlagKind = iota
	// State is a state's do-not-call list (or a state rule that forbids the
	// call, such as solicitation of wireless numbers in some states).
	State
	// Litigator is the TCPA litigator list.
	Litigator
	// Internal is the file's own internal list: the vendor's or the
	// caller's project list as the file reports it ("internal DNC").
	Internal
	// Combined is a verdict over several lists at once: a "DNC/Litigator"
	// column, a scrub service's result code, a "Callable" column. Clean
	// means clean on the DNC registries and the litigator list.
	Combined
	// Number is the number's own status as the service saw it: flagged
	// means invalid, malformed or disconnected.
	Number
	// DNC is a do-not-call column that names no list ("DNC", "Do Not
	// Call"): the file's DNC answer, its own list. It answers for the
	// registry as a federal column does, and is required beside one.
	DNC
	// Industry is a named list that is not a registry: the DMA's, a
	// wireless suppression list, another industry list.
	Industry
	// Restriction is what the file says of a phone or its row in a column
	// that is not a list: a status, a tag, a disposition, notes ("DNC",
	// "wrong number", "opted out", "attorney").
	Restriction
	// Company is the company's own do-not-call list kept in SkipDesk.
	Company
	// StateNamed is one state's do-not-call list named by its column ("NJ
	// State DNC", "DNC_FL"): it answers that state's list and no other, so
	// that it never stands for the list of a phone's own state that a file
	// over all states ("State DNC") reports, nor for another named state's:
	// such answers of several files are merged, never one replacing another.
	StateNamed
	numKinds
)

var kindNames = [numKinds]string{"federal", "state", "litigator", "internal", "combined", "number", "dnc",
	"industry", "restriction", "company", "named-state"}

var kindWords = [numKinds]string{"federal DNC", "state DNC", "litigator", "internal DNC (the file's)", "DNC/litigator",
	"number status", "DNC", "industry list", "the file's notes or status", "company do-not-call list", "state DNC (one state's)"}

// WordsOrder is the order lists are named in for a person: the registry
// first, the company's list last.
var WordsOrder = []FlagKind{Federal, DNC, Combined, State, StateNamed, Litigator, Industry, Internal, Restriction, Company,
	Number}

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
type Kinds uint16

// Has reports whether k is in the set.
func (s Kinds) Has(k FlagKind) bool { return s&(1<<k) != 0 }

func (s Kinds) with(k FlagKind) Kinds { return s | 1<<k }

// AnswersRegistry reports whether the set holds an answer for the DNC
// registry (a federal column, the file's DNC column, a combined verdict).
func (s Kinds) AnswersRegistry() bool { return s&registry != 0 }

// AnswersLitigator reports whether the set holds an answer for the
// litigator list (a litigator column, a combined verdict).
func (s Kinds) AnswersLitigator() bool { return s&litigator != 0 }

// AnswersState reports whether the set holds an answer for a state's list
// (a state column over all states or one naming a state).
func (s Kinds) AnswersState() bool { return s&stateLists != 0 }

// IsState reports whether k is a state's list.
func (k FlagKind) IsState() bool { return stateLists.Has(k) }

// List names the kinds in the set, in order. Its room is an array of the
// caller's (List is inlined): reading a phone's flags allocates nothing.
func (s Kinds) List() []FlagKind {
	var out [numKinds]FlagKind
	n := 0
	for m := s & allKinds; m != 0; m &= m - 1 {
		out[n] = m.lowest()
		n++
	}
	return out[:n]
}

// allKinds is every kind.
const allKinds = Kinds(1<<numKinds - 1)

// lowest is the first kind in a set that is not empty.
func (s Kinds) lowest() FlagKind { return FlagKind(bits.TrailingZeros16(uint16(s))) }

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
// was known here: the newer scrub is the answer asked for. A newer answer
// for the registry (federal, the file's DNC, a combined verdict) or for
// the litigator list supersedes every older answer of that family that is
// not flagged.
func (f Flags) Override(o Flags) Flags {
	for _, fam := range families {
		if o.Has&fam == 0 {
			continue
		}
		for m := f.Has & fam; m != 0; m &= m - 1 {
			if k := m.lowest(); f.of[k] != Flagged {
				f.Has &^= 1 << k
				f.of[k] = Unknown
			}
		}
	}
	for m := o.Has & allKinds; m != 0; m &= m - 1 {
		k := m.lowest()
		if perFile.Has(k) {
			f.Set(k, o.of[k]) // another file's list: both stand
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

// fileWide are the lists a file answers for every phone it holds when it
// answers for one: a state's, the DMA's, the vendor's own.
var fileWide = Kinds(0).with(State).with(StateNamed).with(Industry).with(Internal)

// perFile are the lists each file keeps for itself — what it states in
// words, a vendor's own list — so that one file's answer never stands for
// another's: the answers of two files are merged, never replaced.
var perFile = Kinds(0).with(Restriction).with(Internal).with(StateNamed)

// Foreign is f as a DNC result from elsewhere than the provider's own
// jobs answers it: its DNC column that names no list ("DNC", "DNC
// Status"), flagged, does not say on which list it found the phone, which
// may be its state's; so where the row does not answer the state lists,
// they are not known clean, and a newer scrub that does not check them
// never clears the phone (the provider's own "dnc" is the registry's).
func (f Flags) Foreign() Flags {
	if f.Has.Has(DNC) && f.of[DNC] == Flagged && !f.Has.Has(State) {
		f.Set(State, Unknown)
	}
	return f
}

// Lists that answer the same question: the DNC registry, the litigator
// list.
var (
	registry  = Kinds(0).with(Federal).with(DNC).with(Combined)
	litigator = Kinds(0).with(Litigator).with(Combined)
	families  = [...]Kinds{registry, litigator}
	// stateLists answer for a state's list.
	stateLists = Kinds(0).with(State).with(StateNamed)
)

// cleanDated reports a clean answer of a list a scrub answers (not the
// company's list, a restriction in words or the number's status): an
// answer whose age matters.
func (f Flags) cleanDated() bool {
	for _, k := range (f.Has &^ undatedKinds).List() {
		if f.of[k] == Clean {
			return true
		}
	}
	return false
}

// unchecked is f for a phone the file says was not scrubbed: every list's
// answer that is not flagged is unknown (what the file states of it in
// words, and whether the number is valid, stand).
func (f Flags) unchecked() Flags {
	for k := FlagKind(0); k < numKinds; k++ {
		if f.Has.Has(k) && f.of[k] != Flagged && !undatedKinds.Has(k) {
			f.of[k] = Unknown
		}
	}
	return f
}

// unsureOn is f with its answers on the lists of ks that are not flagged
// made unknown: the answers of columns read by a guess (Question.Guess),
// which may flag but clear nothing.
func (f Flags) unsureOn(ks Kinds) Flags {
	for _, k := range ks.List() {
		if f.Has.Has(k) && f.of[k] != Flagged {
			f.of[k] = Unknown
		}
	}
	return f
}

// Without is f with the lists of ks taken out.
func (f Flags) Without(ks Kinds) Flags {
	for _, k := range ks.List() {
		f.Has &^= 1 << k
		f.of[k] = Unknown
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
