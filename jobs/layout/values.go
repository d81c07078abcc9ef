package layout

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Convention is how a flag column writes its values, established over the
// whole file. A value reads clean only in the column's own convention: a
// "yes/no" column reads "no" as clean, never "OK" or "clean"; a value the
// convention does not cover is unknown (flagged when it states a listing in
// any convention, which is no less safe).
type Convention string

const (
	// ConvFlag: yes/no, true/false, y/n, t/f, 1/0, on/off. A blank is
	// unknown.
	ConvFlag Convention = "yes/no"
	// ConvWords: words: "Clean", "Not listed" / "DNC", "Listed",
	// "Litigator".
	ConvWords Convention = "words"
	// ConvCodes: the one-letter result codes of a DNC scrub service (C, D,
	// W, ...; see Codes).
	ConvCodes Convention = "codes"
	// ConvSince: the date the number was put on the list ("DNC Registered
	// Date"): a date is flagged, no/false clean, a blank says nothing
	// (the phone's answer on the list is another column's, or unknown).
	ConvSince Convention = "since"
	// ConvMarks: a mark (X) for flagged numbers and nothing for the
	// others. A blank is still read as unknown until the person confirms
	// that it means clean (Correction.Values).
	ConvMarks Convention = "marks"
	// ConvStates: a state DNC column that names the states whose list has
	// the number ("TX", "TX;FL"); no/false/0 is clean. A state code never
	// reads clean, though it is also a word ("OK", "IN", "OR", "ME").
	ConvStates Convention = "states"
	// ConvText: free text that is not a list's answer (a status, a tag,
	// notes): a value that mentions a restriction is flagged (unknown with
	// a negation), any other states no restriction.
	ConvText Convention = "text"
	// ConvRisk: a list's risk column ("TCPA Risk": High, Low; 2), of the
	// kind Restriction: a risk above low, or a level above 0, is a reason
	// not to call (what level is too high the file does not say); low,
	// none or 0 states none. It never makes a phone clean on the list: the
	// list's own column answers for that.
	ConvRisk Convention = "risk"
	// ConvReason: a column of reasons ("Reason": "State (HI)", "National
	// (USA)"): any reason stated in words is a reason not to call; a blank
	// or a bare code letter states none.
	ConvReason Convention = "reasons"
	// ConvListed: a column of phone numbers named for a list ("DNC Mobile
	// 1", "Litigator Phones"): a vendor that sorts a row's phones by what
	// it found puts the numbers on that list there. The column is the
	// number of a phone slot of its own and that phone's flag: a number
	// in it is on the list.
	ConvListed Convention = "listed"
	// ConvNumbers: a column of the row's numbers on the list it names, one
	// or several a cell ("DNC Numbers": "5125550102; 5125550103"): a phone
	// of the row whose number is in it is on the list; the others are not
	// answered by it (unknown). A cell in other words that reads as a
	// listing ("Yes") puts every phone of the row on it; any other is
	// asked about.
	ConvNumbers Convention = "numbers"
)

// family is the convention a value's reading belongs to.
type family uint8

const (
	famNone family = iota
	famBool
	famWords
	famCodes
	famMarks
	famStates
	famNumber // valid/invalid words of a number status
)

// cleanIn reports whether a clean reading of family f is allowed in a
// column of convention c.
func (c Convention) cleanIn(f family) bool {
	switch c {
	case ConvFlag:
		return f == famBool
	case ConvWords:
		return f == famWords || f == famNumber
	case ConvCodes:
		return f == famCodes
	case ConvStates:
		return f == famBool || f == famWords
	}
	return false
}

// Code is one result code of a DNC scrub service and how SkipDesk reads it.
type Code struct {
	Code    string `json:"code"`
	Reads   string `json:"reads"` // "clean", "flagged", "invalid" or "unknown"
	Meaning string `json:"meaning"`
	// List is the list a flagged code speaks of, when it is not the
	// column's verdict over the registry: a state's law on wireless
	// numbers (a restriction the file states, which no newer scrub lifts),
	// the project's own list.
	List *FlagKind `json:"list,omitempty"`
}

func kindPtr(k FlagKind) *FlagKind { return &k }

// Codes are the result codes of DNC.com's scrub (Contact Center Compliance,
// the DNCScrub service): the ResultCode of its Scrub API and batch files,
// listed in its output guide (docs.dncscrub.com, "Output Guide") and in
// dialer integrations that consume it (Genesys PureConnect "Result Codes",
// ChaseData "DNC.com Scrub Dispositions"). The code is the service's verdict
// over every list it was asked to check, litigators included (its API
// returns D with the reason "Litigator"), so a code column is read as a
// combined DNC/litigator flag.
//
// The reading is for cold calls: a number the service reports on a DNC
// list stays flagged even when an exemption or an established business
// relationship overrides it for the service's customer (X, O, H, V), since
// SkipDesk cannot know that relationship; wireless numbers in states that
// forbid solicitation of wireless numbers (L, F) are flagged as the service
// advises; T (tier C phone company) has no stated call verdict and reads as
// unknown.
var Codes = []Code{
	{"C", "clean", "clean: on no DNC list", nil},
	{"W", "clean", "wireless number, on no DNC list", nil},
	{"Y", "clean", "VoIP number, on no DNC list", nil},
	{"E", "clean", "established business relationship, on no DNC list", nil},
	{"G", "clean", "established business relationship, wireless or VoIP, on no DNC list", nil},
	{"R", "clean", "expired business relationship, on no DNC list", nil},
	{"D", "flagged", "do not call: on a DNC list (or the litigator list)", nil},
	{"P", "flagged", "on the project's own do-not-call list", kindPtr(Internal)},
	{"B", "flagged", "blocked (area code not covered or not allowed)", kindPtr(Restriction)},
	{"L", "flagged", "wireless number in a state that forbids solicitation of wireless numbers", kindPtr(Restriction)},
	{"F", "flagged", "wireless number in a state that forbids solicitation of wireless numbers (business relationship)", kindPtr(Restriction)},
	{"X", "flagged", "on a DNC list; the service applied an industry exemption, not assumed here", nil},
	{"O", "flagged", "on a DNC list; the service applied a business-relationship override, not assumed here", nil},
	{"H", "flagged", "wireless or VoIP on a DNC list; business-relationship override not assumed here", nil},
	{"V", "flagged", "wireless on a DNC list in a restricting state; override not assumed here", kindPtr(Restriction)},
	{"I", "invalid", "invalid number (area code not in service, reserved pattern)", nil},
	{"M", "invalid", "malformed number (not 10 digits)", nil},
	{"S", "invalid", "disconnected number", nil},
	{"T", "unknown", "tier C phone company: no call verdict", nil},
}

var codeIndex = func() map[string]Code {
	m := map[string]Code{}
	for _, c := range Codes {
		m[strings.ToLower(c.Code)] = c
	}
	return m
}()

// A value's reading: the flag, whether it says the number itself is bad,
// and for codes what the code means.
type valueReading struct {
	flag    Flag
	invalid bool
	known   bool // the value was recognised (a blank or "?" is recognised as unknown)
	silent  bool // the value says nothing of the phone on the column's list (ConvSince's blank)
	meaning string
	// list, when set, is the list the value speaks of rather than the
	// column's (a scrub service's code for a state's wireless rule, or for
	// the project's own list).
	list *FlagKind
}

var (
	// A flag written as a number of a column with blanks, as pandas
	// writes one (1.0, 0.0, nan), reads as its whole number; Excel's TRUE
	// and FALSE as a Spanish, Portuguese, French or German Excel writes
	// them read as theirs.
	truthy  = set("true", "t", "yes", "y", "1", "1.0", "on", "si", "sí", "verdadero", "verdadeiro", "vrai", "wahr")
	falsy   = set("false", "f", "no", "n", "0", "0.0", "off", "falso", "faux", "falsch")
	unknown = set("", "?", "??", "unknown", "unk", "n/a", "na", "nan", "null", "none", "-", "--", "error", "err", "desconocido", "pendiente",
		"pending", "not checked", "not scrubbed", "unscrubbed", "tbd", "#n/a", "timeout", "timed out", "time out",
		"not covered", "no coverage", "skipped", "no data", "not available", "unavailable", "not processed",
		"failed", "fail", "retry", "queued", "in progress", "processing", "undetermined", "inconclusive")
	flaggedWords = set("dnc", "do not call", "donotcall", "on list", "listed", "registered", "on dnc",
		"flagged", "blocked", "block", "litigator", "tcpa", "known litigator", "blacklisted", "blacklist",
		"match", "matched", "hit", "found", "federal", "national", "federal dnc", "national dnc", "state dnc",
		"internal dnc", "project dnc", "dnc listed", "do not contact", "dnc/litigator", "restricted", "not callable",
		"non callable", "non-callable", "uncallable", "not dialable", "undialable", "do not dial", "not ok to call")
	cleanWords = set("clean", "ok", "okay", "safe", "callable", "not listed", "not on list", "not registered",
		"not found", "no match", "clear", "pass", "passed", "allowed", "not dnc", "non-dnc", "non dnc",
		"no hit", "not a litigator", "safe to call", "ok to call", "dialable")
	invalidWords = set("invalid", "malformed", "bad", "bad number", "disconnected", "inactive", "not valid",
		"not in service", "wrong number", "dead", "not working", "nonworking", "non-working", "no longer in service",
		"out of service", "disconnect", "unreachable", "wrong", "wrong #")
	validWords = set("valid", "active", "connected", "in service", "ok", "good")
	// Check marks as files write them (read, never shown: written as code
	// points so that no text of the program holds a glyph the window's font
	// lacks).
	marks    = set("x", string(rune(0x2713)), string(rune(0x2714)), "*", string(rune(0x2022)), string(rune(0x221a)))
	usStates = set("al", "ak", "az", "ar", "ca", "co", "ct", "de", "dc", "fl", "ga", "hi", "id", "il", "in",
		"ia", "ks", "ky", "la", "me", "md", "ma", "mi", "mn", "ms", "mo", "mt", "ne", "nv", "nh", "nj", "nm", "ny",
		"nc", "nd", "oh", "ok", "or", "pa", "ri", "sc", "sd", "tn", "tx", "ut", "vt", "va", "wa", "wv", "wi", "wy",
		"pr", "gu", "vi", "as", "mp")
)

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// fold lower-cases v, trims it and collapses its inner spaces and
// underscores, for looking values up.
func fold(v string) string {
	v = strings.TrimSpace(v)
	simple := true
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c >= 'A' && c <= 'Z' || c == '_' || c >= utf8.RuneSelf || c == ' ' && i > 0 && v[i-1] == ' ' {
			simple = false
			break
		}
	}
	if simple {
		return v
	}
	v = strings.ReplaceAll(strings.ToLower(v), "_", " ")
	return strings.Join(strings.Fields(v), " ")
}

// readFlagValue reads one value of a flag column in its convention. known
// is false for a value that is not recognised or that reads clean only in
// another convention than the column's: it is unknown.
func readFlagValue(conv Convention, kind FlagKind, inverted bool, v string) valueReading {
	if r, ok := readOwnConvention(conv, v); ok {
		return r
	}
	f := fold(v)
	if unknown[f] {
		return valueReading{known: true}
	}
	r, fam := readAnyValue(conv, kind, inverted, f)
	if fam == famNone {
		if t := readText(f); t.flag == Flagged {
			// A value of no convention that states a restriction
			// ("DNC_COMPLAINER", "Wrong number - do not call"): a
			// restriction of the file's, which no newer scrub lifts; the
			// column's own list is not known for it.
			restriction := Restriction
			t.list = &restriction
			return t
		}
	}
	if r.flag == Clean && !conv.cleanIn(fam) && !(kind == Number && fam == famNumber) {
		return valueReading{meaning: "not this column's convention (" + string(conv) + ")"}
	}
	return r
}

// readAnyValue reads a folded value by every convention, the column's own
// first, and says which convention the reading comes from.
func readAnyValue(conv Convention, kind FlagKind, inverted bool, f string) (valueReading, family) {
	if c, ok := codeIndex[f]; ok && conv == ConvCodes {
		return codeReading(c), famCodes
	}
	switch {
	case marks[f]:
		return valueReading{flag: Flagged, known: true}, famMarks
	case (conv == ConvStates || kind.IsState()) && !truthy[f] && !falsy[f] && stateList(f):
		return valueReading{flag: Flagged, known: true, meaning: "on the state's list"}, famStates
	case truthy[f]:
		if inverted {
			return valueReading{flag: Clean, known: true}, famBool
		}
		return valueReading{flag: Flagged, known: true}, famBool
	case falsy[f]:
		if inverted {
			return valueReading{flag: Flagged, known: true}, famBool
		}
		return valueReading{flag: Clean, known: true}, famBool
	}
	if kind == Number && (validWords[f] || invalidWords[f]) {
		invalid := !validWords[f] // a valid word first
		return valueReading{flag: flagIf(invalid), invalid: invalid, known: true}, famNumber
	}
	switch {
	case invalidWords[f]:
		return valueReading{flag: Flagged, invalid: true, known: true, meaning: "invalid number"}, famWords
	case cleanWords[f]:
		return valueReading{flag: Clean, known: true}, famWords
	case flaggedWords[f]:
		return valueReading{flag: Flagged, known: true}, famWords
	}
	return valueReading{}, famNone
}

// codeReading is how a provider's status code reads.
func codeReading(c Code) valueReading {
	r := valueReading{known: true, meaning: c.Meaning, list: c.List}
	switch c.Reads {
	case "clean":
		r.flag = Clean
	case "flagged":
		r.flag = Flagged
	case "invalid":
		r.flag, r.invalid = Flagged, true
	}
	return r
}

// flagIf is Flagged when flagged, else Clean.
func flagIf(flagged bool) Flag {
	if flagged {
		return Flagged
	}
	return Clean
}

// familyOf is the convention a folded value is written in, famNone for a
// blank, an unknown marker or a value no convention reads.
func familyOf(kind FlagKind, f string) family {
	if unknown[f] {
		return famNone
	}
	switch {
	case marks[f]:
		return famMarks
	case kind.IsState() && !truthy[f] && !falsy[f] && stateList(f):
		return famStates
	case truthy[f] || falsy[f]:
		return famBool
	case kind == Number && (validWords[f] || invalidWords[f]):
		return famNumber
	case invalidWords[f] || cleanWords[f] || flaggedWords[f]:
		return famWords
	}
	return famNone
}

// stateList reports a value made of US state codes ("TX", "TX;FL"): the
// states whose DNC list has the number.
func stateList(f string) bool {
	n := 0
	for _, p := range strings.FieldsFunc(f, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '/' || r == '|' }) {
		if !usStates[p] {
			return false
		}
		n++
	}
	return n > 0
}

// PhoneType is a phone's kind, in words.
type PhoneType string

const (
	Mobile   PhoneType = "mobile"
	Landline PhoneType = "landline"
	VoIP     PhoneType = "voip"
	Work     PhoneType = "work"
	Other    PhoneType = "other"
	// Home is a phone listed as a home phone: a category, not a line
	// type (it may be a mobile).
	Home PhoneType = "home"
	// NotMobile: a yes/no column says the number is not wireless.
	NotMobile PhoneType = "not mobile"
)

// Wireless reports whether a phone of this kind may be a wireless number,
// as far as the autodialer rules go: a mobile, and any kind that is not
// known to be a landline or VoIP.
func (t PhoneType) Wireless() bool {
	switch t {
	case Landline, VoIP, NotMobile:
		return false
	}
	return true
}

// typeWords are the words of line types and phone categories as carriers,
// trace vendors and DNC services write them ("Wireless", "PCS", "Cellular",
// "Land Line", "Fixed VoIP", "AllOther").
var typeWords = map[string]PhoneType{
	"mobile": Mobile, "cell": Mobile, "cellular": Mobile, "wireless": Mobile, "cellphone": Mobile, "mob": Mobile,
	"mobil": Mobile, "pcs": Mobile, "movil": Mobile, "móvil": Mobile, "celular": Mobile, "smartphone": Mobile,
	"landline": Landline, "land": Landline, "residential": Landline, "fixed": Landline, "wireline": Landline,
	"pots": Landline, "fijo": Landline,
	"voip": VoIP, "nonfixedvoip": VoIP, "fixedvoip": VoIP, "internet": VoIP,
	"home": Home, "house": Home,
	"work": Work, "business": Work, "office": Work,
	"other": Other, "allother": Other, "tollfree": Other, "pager": Other, "special": Other, "premium": Other,
}

// readType reads a phone type value; "" when it says nothing certain (no
// kind word, or words of two kinds: "cell/landline"). A VoIP word wins over
// "fixed" ("Fixed VoIP"); a phone word adds nothing ("Cell Phone").
func readType(v string) (PhoneType, bool) {
	f := fold(v)
	if unknown[f] {
		return "", true
	}
	ws, _ := textWords(nil, f)
	var kinds []PhoneType
	for i := 0; i < len(ws); i++ {
		w := ws[i]
		if i+1 < len(ws) && (w == "toll" && ws[i+1] == "free" || w == "land" && ws[i+1] == "line" ||
			w == "all" && ws[i+1] == "other") {
			w += ws[i+1]
			i++
		}
		if w == "voice" && i+2 < len(ws) && ws[i+1] == "over" && ws[i+2] == "ip" {
			w, i = "voip", i+2
		}
		if t, ok := typeWords[w]; ok && !slices.Contains(kinds, t) {
			kinds = append(kinds, t)
		}
	}
	if slices.Contains(kinds, VoIP) {
		kinds = slices.DeleteFunc(kinds, func(t PhoneType) bool { return t == Landline })
	}
	if len(kinds) != 1 {
		return "", false
	}
	return kinds[0], true
}

// Match is a row's match status: whether the trace found the person.
type Match uint8

const (
	MatchUnknown Match = iota
	Matched
	NotMatched
)

func (m Match) String() string {
	switch m {
	case Matched:
		return "matched"
	case NotMatched:
		return "not matched"
	}
	return "unknown"
}

// MarshalText writes "matched", "not matched" or "unknown".
func (m Match) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

var (
	matchedWords    = set("matched", "match", "yes", "y", "true", "t", "1", "found", "hit", "success", "successful")
	notMatchedWords = set("no match", "no_match", "nomatch", "not matched", "unmatched", "no", "n", "false", "f",
		"0", "not found", "no hit", "miss", "none", "skipped", "skip", "error", "failed", "fail", "no result",
		"no results")
)

// readMatch reads a match status value.
func readMatch(v string) (Match, bool) {
	f := fold(v)
	switch {
	case matchedWords[f]:
		return Matched, true
	case notMatchedWords[f]:
		return NotMatched, true
	}
	return MatchUnknown, unknown[f]
}

// matchOf is the match status a value reads as (MatchUnknown when none).
func matchOf(v string) Match {
	m, _ := readMatch(v)
	return m
}

// phoneLike reports whether a value looks like a phone number: a valid one,
// or 7 to 15 digits among phone punctuation.
func phoneLike(v string) bool {
	digits, other := 0, 0
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == ' ' || c == '(' || c == ')' || c == '-' || c == '.' || c == '+' || c == '/':
		case c == 'x' || c == 'X' || c == '#' || c == 'e' || c == 't' || c == 'E' || c == 'T':
			other++
		default:
			return false
		}
	}
	return digits >= 7 && digits <= 15 && other <= 4
}

// readOwnConvention reads v by a convention of its own, not of yes/no,
// words and codes: ConvText, ConvReason, ConvSince, ConvListed and
// ConvNumbers; false for the others.
func readOwnConvention(conv Convention, v string) (valueReading, bool) {
	switch conv {
	case ConvText:
		return readText(v), true
	case ConvReason:
		return readReason(v), true
	case ConvRisk:
		return readRisk(v), true
	case ConvSince:
		return readSince(v), true
	case ConvListed:
		if strings.TrimSpace(v) == "" {
			return valueReading{known: true}, true
		}
		return valueReading{flag: Flagged, known: true, meaning: "a number the column lists"}, true
	case ConvNumbers:
		if strings.TrimSpace(v) == "" {
			return valueReading{known: true}, true
		}
		if _, ok := phone.KeysIn(v); ok {
			return valueReading{flag: Flagged, known: true, meaning: "numbers on the list"}, true
		}
		return valueReading{}, true
	}
	return valueReading{}, false
}

// riskLevels read a risk column's words: true a risk stated, false none.
var riskLevels = map[string]bool{
	"high": true, "very high": true, "elevated": true, "severe": true, "critical": true, "medium": true, "moderate": true,
	"med": true, "medium high": true, "h": true, "m": true,
	"low": false, "very low": false, "minimal": false, "no risk": false, "l": false,
}

// readRisk reads a value of a list's risk or score column (ConvRisk).
func readRisk(v string) valueReading {
	f := fold(v)
	none := valueReading{flag: Clean, known: true, meaning: "no risk stated"}
	if high, ok := riskLevels[f]; ok {
		if high {
			return valueReading{flag: Flagged, known: true, meaning: "a risk stated"}
		}
		return none
	}
	switch n, err := strconv.ParseFloat(f, 64); {
	case blank(v) || falsy[f] || f == "none" || cleanWords[f]:
		return none
	case err == nil && n > 0:
		return valueReading{flag: Flagged, known: true, meaning: "a risk score stated"}
	case err == nil:
		return none
	}
	return valueReading{} // a word of no known level: asked about
}

// readSince reads a value of a column of the dates numbers were put on a
// list (ConvSince): a date is flagged, no/false clean, a blank silent.
func readSince(v string) valueReading {
	f := fold(v)
	switch {
	case strings.TrimSpace(v) == "":
		return valueReading{silent: true, known: true, meaning: "no date: says nothing"}
	case falsy[f]:
		return valueReading{flag: Clean, known: true, meaning: "not on the list"}
	case unknown[f]:
		return valueReading{known: true}
	}
	if _, ok := parseDate(v, OrderEither); ok {
		return valueReading{flag: Flagged, known: true, meaning: "the date it was put on the list"}
	}
	return valueReading{}
}
