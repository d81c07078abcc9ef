package layout

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

type slotKey struct {
	group, qual string
	idx         int
	// listed: a slot of a listed column (ConvListed), which only the
	// columns naming its qualifier, and the row's, are about.
	listed bool
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
		s += shoutListWords(k.qual)
	default:
		s += "phone"
	}
	if k.idx >= 0 {
		s += " " + strconv.Itoa(k.idx)
	}
	return upperFirst(s)
}

// matches reports whether a type, flag, scope or detail column with key c
// applies to slot k. Owners match exactly: a column of the main person
// (group "") never answers for another owner's or contact's phone, nor one
// of theirs for the main person's. A qualifier or an index the column names
// must agree; one it does not name matches any (attach asks where that
// leaves the phone open).
func (c slotKey) matches(k slotKey) bool {
	if c.rowLevel() {
		return true
	}
	if k.listed && c.qual != k.qual {
		return false // "Phone 1 Type" is about "Phone 1", not "DNC Phone 1"
	}
	return c.group == k.group && (c.qual == "" || c.qual == k.qual) && (c.idx < 0 || c.idx == k.idx)
}

func (c slotKey) rowLevel() bool { return c.group == "" && c.qual == "" && c.idx < 0 }

func colKey(c *Column) slotKey { return slotKey{group: c.Group, qual: c.Qualifier, idx: c.SlotIndex} }

// assemble builds slots, people, addresses and the file kind from the
// columns' roles, and gathers what the layout is unsure of.
func (l *Layout) assemble(p *Profile, sample [][]string, qs *[]Question, c *Correction) {
	l.buildSlots()
	l.attach(qs)
	l.pickSingles(qs)
	l.buildPeople()
	l.decideKind()
	l.valueQuestions(p, sample, qs)
	l.explain(qs)
	if c != nil {
		*qs = c.answered(l, *qs)
	}
	l.Questions = *qs
	l.guess = map[int]bool{}
	for _, q := range l.Questions {
		if q.Guess {
			for _, h := range q.Columns {
				if i := l.column(h); i >= 0 {
					l.guess[i] = true
				}
			}
		}
	}
	for _, s := range []*[]int{&l.RowFlags, &l.Emails, &l.Dates} {
		if *s == nil {
			*s = []int{}
		}
	}
	if l.Slots == nil {
		l.Slots = []Slot{}
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
	groups := l.phoneGroups()
	anyNormalized := false
	for _, g := range groups {
		for _, i := range g.cols {
			if l.Columns[i].Normalized && !l.Columns[i].Input {
				anyNormalized = true
			}
		}
	}
	for _, g := range groups {
		num, raw := l.slotColumns(g.cols)
		if num < 0 {
			continue // only the person's own phones
		}
		if anyNormalized && !l.Columns[num].Normalized {
			// A DNC result names the number it scrubbed in a normalised
			// column: other phone columns are the person's data.
			continue
		}
		s := Slot{Key: g.key.String(), Label: g.key.label(), Group: g.key.group, Qualifier: g.key.qual,
			Index: g.key.idx, Number: num, Raw: raw, Type: -1, Implied: l.Columns[num].Implied}
		s.Columns = append(s.Columns, num)
		if c := &l.Columns[num]; c.Convention == ConvListed {
			s.Flags = append(s.Flags, num) // its numbers are on the list it names
		}
		if raw >= 0 {
			s.Columns = append(s.Columns, raw)
		}
		if parts := l.Columns[num].Parts; parts > 0 {
			l.Slots = append(l.Slots, partSlots(s, l.Headers[num], parts)...)
			continue
		}
		l.Slots = append(l.Slots, s)
	}
}

// partSlots are the slots of a column of several numbers a cell, one a
// number, named by the column ("Other Phones 2"): a cell's own raw twin it
// has not.
func partSlots(s Slot, header string, parts int) []Slot {
	out := make([]Slot, parts)
	for k := range parts {
		p := s
		p.Part, p.Raw = k+1, -1
		p.Columns = []int{s.Number}
		p.Key = strings.ToLower(header) + " " + strconv.Itoa(k+1)
		p.Label = header + " " + strconv.Itoa(k+1)
		out[k] = p
	}
	return out
}

// phoneGroup is the phone columns of one slot key.
type phoneGroup struct {
	key  slotKey
	cols []int
}

// phoneGroups gathers the phone columns by their slot key, in the order
// the keys first come.
func (l *Layout) phoneGroups() []*phoneGroup {
	var groups []*phoneGroup
	byKey := map[slotKey]*phoneGroup{}
	for i := range l.Columns {
		c := &l.Columns[i]
		if c.Role != RolePhone {
			continue
		}
		k := colKey(c)
		if c.Parts > 0 {
			// "Phone Numbers" of several a cell is never the raw twin, nor
			// has one, of a "Phone" of one.
			k.qual = "several " + strings.ToLower(c.Header)
		}
		g := byKey[k]
		if g == nil {
			g = &phoneGroup{key: k}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.cols = append(g.cols, i)
	}
	return groups
}

// slotColumns picks a slot's number column among its phone columns (a
// normalised one first, never the person's own; -1: none) and the column
// of the number as written (the person's own first; -1: none).
func (l *Layout) slotColumns(cols []int) (num, raw int) {
	num, raw = -1, -1
	for _, i := range cols {
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
		return -1, -1
	}
	for _, i := range cols {
		if i != num && (raw < 0 || l.Columns[i].Input) {
			raw = i
		}
	}
	return num, raw
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

// listName is the best of cands after chosen (-1: none): a result that
// echoes the list's own name columns beside the names it found has two,
// and the list's are read where the result's are blank.
func (l *Layout) listName(cands []int, chosen int) int {
	var rest []int
	for _, i := range cands {
		if i != chosen {
			rest = append(rest, i)
		}
	}
	b, _ := l.best(rest)
	return b
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
		p.ListFirst, p.ListLast, p.ListFull = l.listName(c.first, p.First), l.listName(c.last, p.Last), l.listName(c.full, p.Full)
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
	hasNames, typed := l.resultNames(), l.typedSlot()
	// A list's answer; what the file states in words is no scrub.
	flags := l.Reports&^Kinds(0).with(Restriction) != 0
	slots := l.rowPhones()
	switch {
	case slots == 1 && flags && l.Match < 0 && len(l.Emails) == 0:
		l.Kind = KindDNC
	case l.Match >= 0 || slots > 1 || len(l.Emails) > 0 || flags || slots == 1 && (typed || hasNames):
		l.Kind = KindTrace
	case len(l.People) > 0 || !l.Property.empty() || !l.Mailing.empty() || slots == 1:
		l.Kind = KindInput
	}
}

// rowPhones counts the phones a row holds for deciding the file's kind:
// the numbers of a cell of several (Slot.Part) are more of the row's,
// beside the one a DNC result's row answers for, and count only in a file
// of no other phone, as one.
func (l *Layout) rowPhones() int {
	slots, cells := 0, 0
	for _, s := range l.Slots {
		switch s.Part {
		case 0:
			slots++
		case 1:
			cells++
		}
	}
	if slots == 0 {
		return cells
	}
	return slots
}

// resultNames reports whether the file names people in columns of its
// own (not the person's echoed ones).
func (l *Layout) resultNames() bool {
	for _, p := range l.People {
		for _, c := range []int{p.First, p.Last, p.Full} {
			if c >= 0 && !l.Columns[c].Input {
				return true
			}
		}
	}
	return false
}

// typedSlot reports whether a phone slot has a type, read or implied.
func (l *Layout) typedSlot() bool {
	for _, s := range l.Slots {
		if s.Type >= 0 || s.Implied != "" {
			return true
		}
	}
	return false
}

// shoutListWords writes the words of a qualifier that are initials in
// capitals: "dnc mobile" is "DNC mobile", "nj dnc phone" "NJ DNC phone".
func shoutListWords(q string) string {
	ws := strings.Fields(q)
	for i, w := range ws {
		if w == "dnc" || w == "tcpa" || w == "dma" || w == "idnc" || w == "dnd" || len(w) == 2 && usStates[w] {
			ws[i] = strings.ToUpper(w)
		}
	}
	return strings.Join(ws, " ")
}
