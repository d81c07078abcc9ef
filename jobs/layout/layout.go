package layout

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/skipdesk/skipdesk/jobs"
)

// FileKind is what a file is: the result of a kind of job, or a list.
type FileKind string

const (
	KindTrace            = FileKind(jobs.KindTrace) // a skip-trace result: people and their phones
	KindDNC              = FileKind(jobs.KindDNC)   // a DNC scrub result: one number a row and its flags
	KindInput   FileKind = "input"                  // a list of owners, before tracing
	KindUnknown FileKind = ""
)

// Role is what a column holds.
type Role string

const (
	RoleOther       Role = "other"
	RolePhone       Role = "phone"        // a phone number (a slot's number, or its raw twin)
	RolePhoneType   Role = "phone_type"   // a phone's kind
	RolePhoneDetail Role = "phone_detail" // more about one phone (carrier, score, last seen)
	RoleFlag        Role = "flag"         // a DNC, litigator or combined flag, or the number's status
	RoleMatch       Role = "match_status"
	RoleFirstName   Role = "first_name"
	RoleLastName    Role = "last_name"
	RoleFullName    Role = "full_name"
	RoleEmail       Role = "email"
	RoleEntity      Role = "entity" // the owner is a company
	RoleStreet      Role = "street"
	RoleStreet2     Role = "street2"
	RoleCity        Role = "city"
	RoleState       Role = "state"
	RoleZip         Role = "zip"
	RoleAddress     Role = "address" // a whole address on one line
)

// Column is one column of a result and what the layout makes of it.
type Column struct {
	Index  int    `json:"index"`
	Header string `json:"header"`
	Role   Role   `json:"role"`
	// Group is whose column it is: "" for the row's main person (the
	// first owner), "owner 2", "contact 1"...
	Group string `json:"group,omitempty"`
	// Qualifier and SlotIndex place a phone, phone type, flag or detail
	// column in a slot: "Mobile 2" has qualifier "mobile" and slot index 2.
	// For type and flag columns, an empty qualifier and an index of -1 mean
	// "any".
	Qualifier string `json:"qualifier,omitempty"`
	SlotIndex int    `json:"slot_index"` // -1 none
	// Kind, Convention and Inverted describe a flag column: which list,
	// how the values are written, and whether "yes" means clean (a
	// "Callable" column).
	Kind       FlagKind   `json:"-"`
	Convention Convention `json:"convention,omitempty"`
	Inverted   bool       `json:"inverted,omitempty"`
	// Implied is the phone kind a phone column's name gives ("Mobile 1").
	Implied PhoneType `json:"implied_type,omitempty"`
	// Normalized marks a phone column holding the number as the service
	// normalised it (phone_normalized).
	Normalized bool `json:"normalized,omitempty"`
	// Place is "property" or "mailing" for address columns.
	Place string `json:"place,omitempty"`
	// Input marks the person's own data echoed in the result.
	Input bool `json:"input,omitempty"`
	// Corrected marks a column whose role the person set.
	Corrected bool `json:"corrected,omitempty"`
}

// MarshalJSON adds the flag kind for flag columns.
func (c Column) MarshalJSON() ([]byte, error) {
	type plain Column
	out := struct {
		plain
		Kind string `json:"kind,omitempty"`
	}{plain: plain(c)}
	if c.Role == RoleFlag {
		out.Kind = c.Kind.String()
	}
	return json.Marshal(out)
}

// Slot is one phone of a row: the column of its number and the columns that
// describe it.
type Slot struct {
	Key       string    `json:"key"`   // "1", "mobile 2", "contact 1 2", "primary"
	Label     string    `json:"label"` // "Phone 1", "Mobile 2", "Contact 1 phone 2"
	Group     string    `json:"group,omitempty"`
	Qualifier string    `json:"qualifier,omitempty"`
	Index     int       `json:"index"`
	Number    int       `json:"number"`       // column of the number
	Raw       int       `json:"raw"`          // column of the number as first written; -1 none
	Type      int       `json:"type"`         // column of its kind; -1 none
	Implied   PhoneType `json:"implied_type"` // its kind from the column name ("Mobile 1"), or ""
	Flags     []int     `json:"flags"`        // flag columns that apply to it, row-level ones included
	// Columns are every column that belongs to this phone alone: number,
	// raw twin, type, its own flags and details. A phone left out of an
	// export is blanked in all of them.
	Columns []int `json:"columns"`
}

// Person is where a person's names are: -1 for a name not in the file.
type Person struct {
	Group string `json:"group,omitempty"`
	First int    `json:"first"`
	Last  int    `json:"last"`
	Full  int    `json:"full"`
}

// AddressColumns are where an address's parts are: -1 for a part not in the
// file.
type AddressColumns struct {
	Street  int `json:"street"`
	Street2 int `json:"street2"`
	City    int `json:"city"`
	State   int `json:"state"`
	Zip     int `json:"zip"`
	Full    int `json:"full"`
}

func (a AddressColumns) empty() bool {
	return a.Street < 0 && a.Street2 < 0 && a.City < 0 && a.State < 0 && a.Zip < 0 && a.Full < 0
}

// Question is something the layout is not sure of, for the person to answer
// with a Correction.
type Question struct {
	Topic   string   `json:"topic"` // "phone", "match_status", "flag", "marks", "callable"
	Columns []string `json:"columns,omitempty"`
	Message string   `json:"message"`
}

// Layout is how a result file is read: which column holds what.
type Layout struct {
	Kind      FileKind `json:"kind"`
	Signature string   `json:"signature"`
	Headers   []string `json:"headers"`
	Columns   []Column `json:"columns"`
	Slots     []Slot   `json:"slots"`
	// RowFlags are flag columns that name no phone: they apply to every
	// phone of the row (PropStream's "Litigator", a DNC result's "dnc").
	RowFlags  []int          `json:"row_flags"`
	Match     int            `json:"match"`  // match status column; -1 none
	Entity    int            `json:"entity"` // company-owner column; -1 none
	People    []Person       `json:"people"`
	Emails    []int          `json:"emails"`
	Property  AddressColumns `json:"property"`
	Mailing   AddressColumns `json:"mailing"`
	Reports   Kinds          `json:"reports"` // the lists its flags answer
	Questions []Question     `json:"questions"`
	Notes     []string       `json:"notes"`
	Corrected bool           `json:"corrected"` // a Correction was applied
	values    map[int]map[string]Flag
}

// Sure reports whether the layout has no open question.
func (l *Layout) Sure() bool { return len(l.Questions) == 0 }

// Options tune Detect.
type Options struct {
	// InputHeaders are the header of the file that was uploaded, when
	// known: the result's first columns of these names are the person's
	// own data echoed, never phones of the result.
	InputHeaders []string
	// Correction, when set, is applied over what detection finds.
	Correction *Correction
}

// Signature is the hash under which corrections of this header are kept: the
// header names lower-cased with spaces trimmed and collapsed, in order.
func Signature(headers []string) string {
	h := sha256.New()
	for i, s := range headers {
		if i > 0 {
			h.Write([]byte{0x1f})
		}
		h.Write([]byte(normHeader(s)))
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// sampleValues are the non-blank values of a column in the sample.
func sampleValues(sample [][]string, col int) []string {
	var out []string
	for _, rec := range sample {
		if col < len(rec) {
			if v := strings.TrimSpace(rec[col]); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// Detect reads a layout from a header and a sample of rows (the first
// hundred or so). It works from general rules on header words and values,
// not from a list of known files; see the package documentation.
func Detect(headers []string, sample [][]string, opts Options) *Layout {
	l := &Layout{
		Kind: KindUnknown, Signature: Signature(headers), Headers: slices.Clone(headers),
		Match: -1, Entity: -1,
	}
	hs := make([]header, len(headers))
	for i, h := range headers {
		hs[i] = readHeader(h)
	}
	inputs := inputColumns(headers, hs, opts.InputHeaders)
	var qs []Question
	for i := range headers {
		c, q := classify(i, &hs[i], sampleValues(sample, i))
		c.Input = inputs[i]
		l.Columns = append(l.Columns, c)
		if q != nil {
			qs = append(qs, *q)
		}
	}
	if opts.Correction != nil {
		qs = opts.Correction.apply(l, hs, sample, qs)
	}
	l.assemble(sample, qs)
	return l
}

// inputColumns marks the person's own columns: those named as input ("Input
// Data: …"), every column before the last such one (the file echoes the
// upload first), the upload's headers when known, and a column whose name
// the result repeats with "result_" in front.
func inputColumns(headers []string, hs []header, upload []string) []bool {
	in := make([]bool, len(headers))
	lastPrefixed := -1
	for i := range hs {
		if hs[i].input {
			in[i] = true
			lastPrefixed = i
		}
	}
	for i := 0; i < lastPrefixed; i++ {
		in[i] = true
	}
	if len(upload) > 0 && len(upload) <= len(headers) {
		same := true
		for i, u := range upload {
			if strings.TrimSpace(u) != strings.TrimSpace(strings.TrimPrefix(headers[i], "\ufeff")) {
				same = false
				break
			}
		}
		if same {
			for i := range upload {
				in[i] = true
			}
		}
	}
	byName := map[string]int{}
	for i, h := range headers {
		byName[normHeader(h)] = i
	}
	for _, h := range headers {
		n := normHeader(h)
		if rest, ok := strings.CutPrefix(n, "result_"); ok {
			if j, ok := byName[rest]; ok {
				in[j] = true
			}
		}
	}
	return in
}

// classify decides a column's role from its header and sample values. The
// cases are tried in order (a flag word wins over a phone word, a name word
// over an address word); the longer ones are the helpers below.
func classify(i int, h *header, vals []string) (Column, *Question) {
	c := Column{Index: i, Header: h.raw, Role: RoleOther, Group: h.group, Qualifier: h.qual, SlotIndex: h.idx}
	nameish := h.any(cFirst, cLast, cName, cMiddle, cEmail, cStreet, cCity, cZip, cAddress, cFull)
	switch {
	case h.any(cDNC, cLitigator, cCallable) && !nameish && !h.is(cType):
		return listFlagColumn(c, h, vals)
	case h.any(cValid, cInvalid) && !nameish && !h.is(cNotFlag):
		return numberFlagColumn(c, h, vals)
	case h.is(cType) && !h.any(cEmail, cFirst, cLast, cName):
		if share(vals, func(v string) bool { _, ok := readType(v); return ok }) >= 0.5 {
			c.Role = RolePhoneType
			return c, nil
		}
		return detailOrOther(c, h), nil
	case h.is(cMatch) && !nameish:
		if share(vals, func(v string) bool { _, ok := readMatch(v); return ok }) >= 0.5 {
			c.Role = RoleMatch
			return c, nil
		}
	case h.is(cCode) && !nameish && !h.any(cPhone, cTypeWord, cNotFlag):
		return codeColumn(c, vals)
	case h.is(cEmail):
		return emailColumn(c, h, vals), nil
	case h.any(cPhone, cTypeWord) && !nameish:
		return phoneColumn(c, h, vals)
	case h.any(cFirst, cLast, cName) && !h.any(cMiddle, cStreet, cCity, cZip, cAddress) && h.unknowns == 0:
		c.Role = nameRole(h)
		return c, nil
	case h.any(cStreet, cAddress, cCity, cZip, cState) && h.unknowns == 0 && !h.is(cNotFlag):
		return addressColumn(c, h), nil
	case h.is(cEntity):
		if share(vals, func(v string) bool { f := fold(v); return truthy[f] || falsy[f] }) >= 0.8 {
			c.Role = RoleEntity
		}
		return c, nil
	}
	return detailOrOther(c, h), nil
}

// listFlagColumn is a column named for a list (DNC, state DNC, litigator,
// internal) or for the verdict over them ("Callable"): which list, whether
// "yes" means clean, and how its values are written. A column about the
// flag rather than the flag itself ("DNC date", "litigator score") is a
// phone's detail or nothing.
func listFlagColumn(c Column, h *header, vals []string) (Column, *Question) {
	if h.is(cNotFlag) {
		return detailOrOther(c, h), nil
	}
	c.Role = RoleFlag
	switch {
	case h.is(cCallable):
		c.Kind, c.Inverted = Combined, true
	case h.is(cDNC) && h.is(cLitigator):
		c.Kind = Combined
	case h.is(cLitigator):
		c.Kind = Litigator
	case h.is(cState):
		c.Kind = State
	case h.is(cInternal):
		c.Kind = Internal
	default:
		c.Kind = Federal
	}
	if h.is(cNot) {
		c.Inverted = !c.Inverted
	}
	c.Convention = convention(c.Kind, vals, h.is(cCode))
	if c.Convention == ConvCodes {
		c.Kind = Combined // a service's code is its verdict over every list it checked
	}
	return c, flagQuestion(&c, vals)
}

// numberFlagColumn is a column saying whether the number is valid (or
// invalid): a flag of the Number kind.
func numberFlagColumn(c Column, h *header, vals []string) (Column, *Question) {
	c.Role, c.Kind, c.Inverted = RoleFlag, Number, h.is(cValid)
	if h.is(cNot) {
		c.Inverted = !c.Inverted
	}
	c.Convention = ConvFlag
	return c, flagQuestion(&c, vals)
}

// emailColumn is an e-mail address column when its values hold an @, and
// not a column about the address (its type, whether it is valid).
func emailColumn(c Column, h *header, vals []string) Column {
	if !h.any(cType, cValid, cInvalid, cNotFlag) && share(vals, func(v string) bool { return strings.Contains(v, "@") }) >= 0.5 {
		c.Role = RoleEmail
	}
	return c
}

// nameRole is the role of a column named for a person's name.
func nameRole(h *header) Role {
	switch {
	case h.is(cFirst):
		return RoleFirstName
	case h.is(cLast):
		return RoleLastName
	}
	return RoleFullName
}

// codeColumn is a "status" or "result" column: the values tell what it is
// (a service's codes, match words, valid/invalid words), or else nothing.
func codeColumn(c Column, vals []string) (Column, *Question) {
	switch {
	case len(vals) > 0 && share(vals, func(v string) bool { _, ok := codeIndex[fold(v)]; return ok }) >= 0.8 &&
		!yesNoOnly(vals):
		c.Role, c.Kind, c.Convention = RoleFlag, Combined, ConvCodes
		return c, flagQuestion(&c, vals)
	case len(vals) > 0 && share(vals, func(v string) bool { _, ok := readMatch(v); return ok }) >= 0.8 &&
		someWord(vals, matchedWords, notMatchedWords):
		c.Role = RoleMatch
		return c, nil
	case len(vals) > 0 && share(vals, func(v string) bool { f := fold(v); return validWords[f] || invalidWords[f] }) >= 0.8:
		c.Role, c.Kind, c.Convention = RoleFlag, Number, ConvFlag
		return c, nil
	}
	return c, nil
}

// phoneColumn is a column named for a phone or a kind of phone: a number
// when its values look like phone numbers (or it has none and says it
// holds one), else a detail of a phone or nothing, with a question when a
// plain "phone" column holds something else.
func phoneColumn(c Column, h *header, vals []string) (Column, *Question) {
	if h.is(cNotFlag) {
		return detailOrOther(c, h), nil
	}
	explicit := h.is(cPhone) || h.idx >= 0
	if len(vals) == 0 && explicit || len(vals) > 0 && share(vals, phoneLike) >= 0.6 {
		c.Role, c.Implied, c.Normalized = RolePhone, h.implied, h.is(cNormalized)
		return c, nil
	}
	if h.is(cPhone) && h.unknowns == 0 && h.idx < 0 {
		return c, &Question{Topic: "phone", Columns: []string{h.raw},
			Message: fmt.Sprintf("%q is named like a phone column but its values do not look like phone numbers", h.raw)}
	}
	return detailOrOther(c, h), nil
}

// addressColumn is a part of an address: the property's, or the mailing
// address (named so, or an owner's), of the row as a whole.
func addressColumn(c Column, h *header) Column {
	c.Place = "property"
	if h.is(cMailing) || h.is(cGroup) && !h.is(cProperty) {
		c.Place = "mailing" // "owner_address_city": where the owner gets mail
	}
	c.Group = ""
	switch {
	case h.is(cCity):
		c.Role = RoleCity
	case h.is(cZip):
		if h.line == 4 {
			return c
		}
		c.Role = RoleZip
	case h.is(cState):
		c.Role = RoleState
	case h.is(cFull):
		c.Role = RoleAddress
	case h.line >= 2:
		c.Role = RoleStreet2
	default:
		c.Role = RoleStreet
	}
	return c
}

// detailOrOther is a column about one phone that is not its number, type or
// flag (carrier, score), or else a column the layout does not use.
func detailOrOther(c Column, h *header) Column {
	if h.idx >= 0 && h.any(cPhone, cTypeWord) || h.idx >= 0 && h.any(cDNC, cLitigator) {
		c.Role = RolePhoneDetail
		return c
	}
	c.Role = RoleOther
	return c
}

// share is the fraction of vals for which ok holds (1 when there are none).
func share(vals []string, ok func(string) bool) float64 {
	if len(vals) == 0 {
		return 1
	}
	n := 0
	for _, v := range vals {
		if ok(v) {
			n++
		}
	}
	return float64(n) / float64(len(vals))
}

func someWord(vals []string, sets ...map[string]bool) bool {
	for _, v := range vals {
		f := fold(v)
		for _, s := range sets {
			if s[f] && len(f) > 1 {
				return true
			}
		}
	}
	return false
}

// yesNoOnly reports values that are all Y/N or T/F (read as booleans, not as
// the codes those letters also are).
func yesNoOnly(vals []string) bool {
	for _, v := range vals {
		switch fold(v) {
		case "y", "n", "t", "f":
		default:
			return false
		}
	}
	return true
}

// convention decides how a flag column writes its values.
func convention(k FlagKind, vals []string, codeish bool) Convention {
	if codeish && len(vals) > 0 && share(vals, func(v string) bool { _, ok := codeIndex[fold(v)]; return ok }) >= 0.8 && !yesNoOnly(vals) &&
		!boolOnly(vals) {
		return ConvCodes
	}
	if len(vals) > 0 && share(vals, func(v string) bool { return marks[fold(v)] }) == 1 {
		return ConvMarks
	}
	if k == State {
		for _, v := range vals {
			f := fold(v)
			if !truthy[f] && !falsy[f] && stateList(f) {
				return ConvStates
			}
		}
	}
	return ConvFlag
}

func boolOnly(vals []string) bool {
	for _, v := range vals {
		f := fold(v)
		if !truthy[f] && !falsy[f] {
			return false
		}
	}
	return true
}

// flagQuestion asks about a flag column whose sample values are mostly not
// understood, or written as marks.
func flagQuestion(c *Column, vals []string) *Question {
	if c.Convention == ConvMarks {
		return &Question{Topic: "marks", Columns: []string{c.Header},
			Message: fmt.Sprintf("%q marks numbers with %q and leaves the others blank: is a blank clean? Until confirmed, a blank is read as unknown", c.Header, vals[0])}
	}
	bad := 0
	for _, v := range vals {
		if !readFlagValue(c.Convention, c.Kind, c.Inverted, v).known {
			bad++
		}
	}
	if bad > 0 && bad*10 >= len(vals) {
		return &Question{Topic: "flag", Columns: []string{c.Header},
			Message: fmt.Sprintf("%q: %d of %d sample values are not understood (read as unknown)", c.Header, bad, len(vals))}
	}
	if c.Kind == Combined && c.Inverted {
		return &Question{Topic: "callable", Columns: []string{c.Header},
			Message: fmt.Sprintf("%q is read as the service's verdict on the DNC and litigator lists (yes = clean)", c.Header)}
	}
	return nil
}

type slotKey struct {
	group, qual string
	idx         int
}

func (k slotKey) String() string {
	var parts []string
	if k.group != "" {
		parts = append(parts, k.group)
	}
	if k.qual != "" {
		parts = append(parts, k.qual)
	}
	if k.idx >= 0 {
		parts = append(parts, strconv.Itoa(k.idx))
	}
	if len(parts) == 0 {
		return "phone"
	}
	return strings.Join(parts, " ")
}

func (k slotKey) label() string {
	s := ""
	if k.group != "" {
		s = upperFirst(k.group) + " "
	}
	switch {
	case k.qual == "primary":
		s += "primary phone"
	case k.qual == string(VoIP):
		s += "VoIP"
	case k.qual != "":
		s += k.qual
	default:
		s += "phone"
	}
	if k.idx >= 0 {
		s += " " + strconv.Itoa(k.idx)
	}
	return upperFirst(s)
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// matches reports whether a type, flag or detail column with key c applies
// to slot k: every part c names must agree (an empty group or qualifier, or
// an index of -1, names nothing).
func (c slotKey) matches(k slotKey) bool {
	return (c.group == "" || c.group == k.group) && (c.qual == "" || c.qual == k.qual) && (c.idx < 0 || c.idx == k.idx)
}

func (c slotKey) rowLevel() bool { return c.group == "" && c.qual == "" && c.idx < 0 }

func colKey(c *Column) slotKey { return slotKey{group: c.Group, qual: c.Qualifier, idx: c.SlotIndex} }

// assemble builds slots, people, addresses and the file kind from the
// columns' roles.
func (l *Layout) assemble(sample [][]string, qs []Question) {
	l.buildSlots()
	l.attach(&qs)
	l.pickSingles(&qs)
	l.buildPeople()
	l.decideKind()
	l.explain(sample, &qs)
	l.Questions = qs
	if l.Slots == nil {
		l.Slots = []Slot{}
	}
	if l.RowFlags == nil {
		l.RowFlags = []int{}
	}
	if l.Emails == nil {
		l.Emails = []int{}
	}
	if l.People == nil {
		l.People = []Person{}
	}
	if l.Questions == nil {
		l.Questions = []Question{}
	}
	if l.Notes == nil {
		l.Notes = []string{}
	}
}

// buildSlots groups the phone columns by slot key. Within a slot the number
// is the normalised column of the result, else its last column; another
// column of the same key is the number's raw twin. The person's own phone
// columns make no slot of their own.
func (l *Layout) buildSlots() {
	type group struct {
		key  slotKey
		cols []int
	}
	var groups []*group
	byKey := map[slotKey]*group{}
	for i := range l.Columns {
		c := &l.Columns[i]
		if c.Role != RolePhone {
			continue
		}
		k := colKey(c)
		g := byKey[k]
		if g == nil {
			g = &group{key: k}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.cols = append(g.cols, i)
	}
	anyNormalized := false
	for _, g := range groups {
		for _, i := range g.cols {
			if l.Columns[i].Normalized && !l.Columns[i].Input {
				anyNormalized = true
			}
		}
	}
	for _, g := range groups {
		num, raw := -1, -1
		for _, i := range g.cols {
			c := &l.Columns[i]
			switch {
			case c.Input:
			case c.Normalized:
				num = i
			case num < 0 || !l.Columns[num].Normalized:
				num = i
			}
		}
		if num < 0 {
			continue // only the person's own phones
		}
		if anyNormalized && !l.Columns[num].Normalized {
			// A DNC result names the number it scrubbed in a normalised
			// column: other phone columns are the person's data.
			continue
		}
		for _, i := range g.cols {
			if i != num && (raw < 0 || l.Columns[i].Input) {
				raw = i
			}
		}
		s := Slot{Key: g.key.String(), Label: g.key.label(), Group: g.key.group, Qualifier: g.key.qual,
			Index: g.key.idx, Number: num, Raw: raw, Type: -1, Implied: l.Columns[num].Implied}
		s.Columns = append(s.Columns, num)
		if raw >= 0 {
			s.Columns = append(s.Columns, raw)
		}
		l.Slots = append(l.Slots, s)
	}
}

// attach gives each slot its type, flag and detail columns; flag columns
// that name no phone apply to every phone of the row.
func (l *Layout) attach(qs *[]Question) {
	keys := make([]slotKey, len(l.Slots))
	for j, s := range l.Slots {
		keys[j] = slotKey{group: s.Group, qual: s.Qualifier, idx: s.Index}
	}
	for i := range l.Columns {
		c := &l.Columns[i]
		if c.Input && c.Role != RolePhone {
			switch c.Role {
			case RolePhoneType, RoleFlag, RolePhoneDetail:
				continue // the person's own flags say nothing of the result's phones
			}
		}
		k := colKey(c)
		switch c.Role {
		case RolePhoneType:
			// The most specific type column wins: "Phone 1 Type" over
			// "Line Type".
			for j := range l.Slots {
				if !k.matches(keys[j]) {
					continue
				}
				if cur := l.Slots[j].Type; cur < 0 || colKey(&l.Columns[cur]).rowLevel() || !k.rowLevel() {
					l.Slots[j].Type = i
				}
			}
		case RoleFlag:
			if k.rowLevel() {
				l.RowFlags = append(l.RowFlags, i)
				for j := range l.Slots {
					l.Slots[j].Flags = append(l.Slots[j].Flags, i)
					if len(l.Slots) == 1 {
						l.Slots[j].Columns = append(l.Slots[j].Columns, i)
					}
				}
				l.Reports = l.Reports.with(c.Kind)
				continue
			}
			n := 0
			for j := range l.Slots {
				if k.matches(keys[j]) {
					l.Slots[j].Flags = append(l.Slots[j].Flags, i)
					l.Slots[j].Columns = append(l.Slots[j].Columns, i)
					n++
				}
			}
			if n == 0 {
				*qs = append(*qs, Question{Topic: "flag", Columns: []string{c.Header},
					Message: fmt.Sprintf("%q is a flag of a phone the file does not have: not used", c.Header)})
				continue
			}
			l.Reports = l.Reports.with(c.Kind)
		case RolePhoneDetail:
			for j := range l.Slots {
				if !k.rowLevel() && k.matches(keys[j]) {
					l.Slots[j].Columns = append(l.Slots[j].Columns, i)
				}
			}
		}
	}
	for j := range l.Slots {
		if t := l.Slots[j].Type; t >= 0 && (!colKey(&l.Columns[t]).rowLevel() || len(l.Slots) == 1) {
			l.Slots[j].Columns = append(l.Slots[j].Columns, t)
		}
		slices.Sort(l.Slots[j].Columns)
		l.Slots[j].Columns = slices.Compact(l.Slots[j].Columns)
		if l.Slots[j].Flags == nil {
			l.Slots[j].Flags = []int{}
		}
	}
}

// score ranks candidate columns for a role held once: the result's own
// columns over the person's echoed ones, an owner's over an unnamed one.
func (l *Layout) score(i int) int {
	c := &l.Columns[i]
	s := 0
	if c.Input {
		s -= 4
	}
	h := readHeader(c.Header)
	if h.is(cGroup) || h.result {
		s++
	}
	return s
}

// best picks the highest-scored of cands (the later on a tie) and says
// whether the tie was real.
func (l *Layout) best(cands []int) (int, bool) {
	b, tie := -1, false
	for _, i := range cands {
		switch {
		case b < 0 || l.score(i) > l.score(b):
			b, tie = i, false
		case l.score(i) == l.score(b):
			b, tie = i, true
		}
	}
	return b, tie
}

// pickSingles chooses the match status and entity columns.
func (l *Layout) pickSingles(qs *[]Question) {
	var match, entity []int
	for i := range l.Columns {
		switch l.Columns[i].Role {
		case RoleMatch:
			match = append(match, i)
		case RoleEntity:
			entity = append(entity, i)
		}
	}
	if m, tie := l.best(match); m >= 0 {
		l.Match = m
		if tie {
			*qs = append(*qs, Question{Topic: "match_status", Columns: l.headersOf(match),
				Message: fmt.Sprintf("%d columns could be the match status; %q is used", len(match), l.Headers[m])})
		}
	}
	l.Entity, _ = l.best(entity)
}

func (l *Layout) headersOf(cols []int) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = l.Headers[c]
	}
	return out
}

// buildPeople finds each person's names, the e-mails and the addresses.
func (l *Layout) buildPeople() {
	type cands struct{ first, last, full []int }
	byGroup := map[string]*cands{}
	var order []string
	prop := map[Role][]int{}
	mail := map[Role][]int{}
	for i := range l.Columns {
		c := &l.Columns[i]
		switch c.Role {
		case RoleFirstName, RoleLastName, RoleFullName:
			g := byGroup[c.Group]
			if g == nil {
				g = &cands{}
				byGroup[c.Group] = g
				order = append(order, c.Group)
			}
			switch c.Role {
			case RoleFirstName:
				g.first = append(g.first, i)
			case RoleLastName:
				g.last = append(g.last, i)
			default:
				g.full = append(g.full, i)
			}
		case RoleEmail:
			if !c.Input {
				l.Emails = append(l.Emails, i)
			}
		case RoleStreet, RoleStreet2, RoleCity, RoleState, RoleZip, RoleAddress:
			if c.Place == "mailing" {
				mail[c.Role] = append(mail[c.Role], i)
			} else {
				prop[c.Role] = append(prop[c.Role], i)
			}
		}
	}
	// The main person first, then the others in file order.
	slices.SortStableFunc(order, func(a, b string) int {
		switch {
		case a == b:
			return 0
		case a == "":
			return -1
		case b == "":
			return 1
		}
		return 0
	})
	for _, g := range order {
		c := byGroup[g]
		p := Person{Group: g}
		p.First, _ = l.best(c.first)
		p.Last, _ = l.best(c.last)
		p.Full, _ = l.best(c.full)
		l.People = append(l.People, p)
	}
	pick := func(m map[Role][]int) AddressColumns {
		a := AddressColumns{}
		a.Street, _ = l.best(m[RoleStreet])
		a.Street2, _ = l.best(m[RoleStreet2])
		a.City, _ = l.best(m[RoleCity])
		a.State, _ = l.best(m[RoleState])
		a.Zip, _ = l.best(m[RoleZip])
		a.Full, _ = l.best(m[RoleAddress])
		return a
	}
	l.Property, l.Mailing = pick(prop), pick(mail)
}

// decideKind tells a trace result, a DNC result and an input list apart.
func (l *Layout) decideKind() {
	hasNames := false // names of the result, not the person's own
	for _, p := range l.People {
		for _, c := range []int{p.First, p.Last, p.Full} {
			if c >= 0 && !l.Columns[c].Input {
				hasNames = true
			}
		}
	}
	typed := false
	for _, s := range l.Slots {
		if s.Type >= 0 || s.Implied != "" {
			typed = true
		}
	}
	flags := len(l.RowFlags) > 0 || l.Reports != 0
	switch {
	case len(l.Slots) == 1 && flags && l.Match < 0 && len(l.Emails) == 0:
		l.Kind = KindDNC
	case l.Match >= 0 || len(l.Slots) > 1 || len(l.Emails) > 0 || flags || len(l.Slots) == 1 && (typed || hasNames):
		l.Kind = KindTrace
	case len(l.People) > 0 || !l.Property.empty() || !l.Mailing.empty() || len(l.Slots) == 1:
		l.Kind = KindInput
	}
}

// explain adds the notes and questions every reader of the layout should
// see.
func (l *Layout) explain(sample [][]string, qs *[]Question) {
	if len(l.Slots) == 0 && l.Kind != KindInput {
		*qs = append(*qs, Question{Topic: "phone", Message: "no phone column found"})
	}
	if l.Kind == KindInput {
		return
	}
	if len(l.Slots) > 0 {
		switch {
		case l.Reports == 0:
			l.Notes = append(l.Notes, "no DNC or litigator flags: no phone is callable until its numbers are scrubbed")
		default:
			if !l.Reports.Has(Federal) && !l.Reports.Has(Combined) {
				l.Notes = append(l.Notes, "no federal DNC flag: no phone is callable until its numbers are scrubbed")
			}
			if !l.Reports.Has(Litigator) && !l.Reports.Has(Combined) {
				l.Notes = append(l.Notes, "no litigator flag: no phone is callable until its numbers are scrubbed against the litigator list")
			}
			if !l.Reports.Has(State) && !l.Reports.Has(Combined) {
				l.Notes = append(l.Notes, "no state DNC column: state lists were not checked by this file; callable means clean on the federal DNC registry and the litigator list")
			}
		}
	}
	if len(l.RowFlags) > 0 && len(l.Slots) > 1 {
		l.Notes = append(l.Notes, fmt.Sprintf("%s name no phone: they apply to every phone of the row",
			quoteJoin(l.headersOf(l.RowFlags))))
	}
}

func quoteJoin(hs []string) string {
	q := make([]string, len(hs))
	for i, h := range hs {
		q[i] = strconv.Quote(h)
	}
	return strings.Join(q, ", ")
}
