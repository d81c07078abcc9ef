package resultgen

import (
	"fmt"
	"slices"
	"strings"
)

// Layouts: a file's columns (wide, a row holding several owners with
// numbered phones each; or long, one phone a row) and its rows, rendered
// from the case's phones.

// builder writes one file.
type builder struct {
	g   *gen
	fam *family
	f   *File
	// long: one phone a row.
	long  bool
	style caseStyle
	sep   string
	// owner is the owner prefix template ("Owner %d "; "" none) and
	// bareFirst says the first owner's columns have none.
	owner     string
	bareFirst bool
	// slots are a wide row's phone slots for each owner: "" any phone,
	// "m" a mobile, "l" a landline, with its name template.
	slots []slot
	// plainOwners: owners after the first have phones and types only, no
	// list columns (a vendor that scrubs the first owner's phones).
	plainOwners bool
	phoneFmt    phoneFormat
	notes       float64 // how often a phone's cell holds a note beside its number
	damage      float64
	// internal is the vendor's own do-not-call list, by number.
	internal map[string]bool
	specs    []colSpec
	headers  map[string]bool
	// scope and date are the row columns others depend on (nil: none).
	scope *scopeCol
	date  *dateCol
	// phoneDate, when set, dates each phone in a column of its own
	// ("Phone 1 Scrub Date"); the last phone has none when lastUndated.
	phoneDate   *dateCol
	lastUndated bool
	// code is the file's result code column (nil: none).
	code *codeCol
	// memo holds the file's choices for each field (see once).
	memo map[memoKey]any
	// sorted are the lists whose numbers the vendor writes in columns of
	// their own ("DNC Mobile 1" beside "Mobile 1"): a phone on one of them
	// is in the first such column, not in its slot's.
	sorted []sortedList
}

// sortedList is a list a vendor sorts a row's phones by, and the header
// template of its columns ("DNC %s" with a slot's name).
type sortedList struct {
	list   string // "federal", "litigator"
	header string
}

// sortedHeaders are how vendors name the columns of numbers found on a list.
var sortedHeaders = map[string][]string{
	"federal":   {"DNC %s", "Do Not Call %s", "%s (DNC)", "DNC Listed %s", "Federal DNC %s"},
	"litigator": {"Litigator %s", "TCPA %s", "%s (Litigator)", "Litigator Listed %s"},
}

type slot struct {
	kind string // "", "m", "l"
	name string // "Phone %d"
	k    int    // 1-based index among the slots of its kind
}

// colSpec is a column and how each row's cell is written.
type colSpec struct {
	col  Column
	cell func(rc *rowCtx) Cell
}

// rowCtx is the row being written.
type rowCtx struct {
	i     int
	prop  *property
	owner *person    // long layouts: the row's person
	phone *phoneFact // long layouts: the row's phone
	// notChecked: the row's scope column says it was not checked.
	notChecked bool
	age        int
}

// newBuilder makes the layout choices of a file of fam.
func (g *gen) newBuilder(fam *family, name string, kind Kind) *builder {
	r := g.r
	b := &builder{g: g, fam: fam, f: &File{Name: name, Kind: kind, Family: fam.name}, headers: map[string]bool{},
		internal: map[string]bool{}, memo: map[memoKey]any{}}
	b.long = len(fam.phones) == 0 && len(fam.mobiles) == 0 || r.chance(fam.long)
	if len(fam.longPhone) == 0 {
		b.long = false
	}
	if r.chance(0.35) {
		b.style = caseStyle(r.IntN(5))
	}
	if len(fam.seps) > 0 {
		b.sep = pick(r, fam.seps)
	}
	if len(fam.owners) > 0 && !b.long {
		b.owner = pick(r, fam.owners)
		b.bareFirst = r.chance(fam.bareFirst)
		b.plainOwners = r.chance(0.25)
	}
	b.phoneFmt = pick(r, phoneFormats)
	if r.chance(0.25) {
		b.damage = 0.02 + 0.05*r.Float64()
	}
	if r.chance(0.06) {
		b.notes = 0.1 + 0.3*r.Float64()
		g.c.describe("%s: notes in phones' cells (\"5125550101 (DNC)\")", name)
	}
	if !b.long {
		b.slots = g.slotsOf(fam)
		if !fam.crm && !fam.spanish && r.chance(0.12) {
			b.sorted = append(b.sorted, sortedList{"federal", pick(r, sortedHeaders["federal"])})
			if r.chance(0.5) {
				b.sorted = append(b.sorted, sortedList{"litigator", pick(r, sortedHeaders["litigator"])})
			}
			g.c.describe("numbers on %d list(s) in columns of their own (%q)", len(b.sorted), b.sorted[0].header)
		}
	}
	return b
}

// sortedInto is the place in b.sorted of the first list p is on, -1 none.
func (b *builder) sortedInto(p *phoneFact) int {
	for i, sl := range b.sorted {
		if sl.list == "federal" && p.federal || sl.list == "litigator" && p.litigator {
			return i
		}
	}
	return -1
}

// slotsOf are a wide row's phone slots for each owner.
func (g *gen) slotsOf(fam *family) []slot {
	var out []slot
	if len(fam.mobiles) > 0 {
		m, l := pick(g.r, fam.mobiles), pick(g.r, fam.lands)
		for k := range g.r.between(1, 3) {
			out = append(out, slot{"m", m, k + 1})
		}
		for k := range g.r.between(1, 3) {
			out = append(out, slot{"l", l, k + 1})
		}
		return out
	}
	name := pick(g.r, fam.phones)
	for k := range g.r.between(1, 5) {
		out = append(out, slot{"", name, k + 1})
	}
	return out
}

// maxOwners is how many owners a row of the file may have.
func (b *builder) maxOwners() int {
	if b.long || b.owner == "" {
		if b.long && len(b.fam.owners) > 0 {
			return 2
		}
		return 1
	}
	return b.g.r.between(1, 3)
}

// add appends a column unless its header is already taken.
func (b *builder) add(c Column, cell func(rc *rowCtx) Cell) {
	c.Header = restyle(c.Header, b.style)
	if b.headers[strings.ToLower(c.Header)] {
		return
	}
	b.headers[strings.ToLower(c.Header)] = true
	b.specs = append(b.specs, colSpec{c, cell})
}

// attr is one spelling of a field's header word in this family.
func (b *builder) attr(f field) string {
	if ws := b.fam.attrs[f]; len(ws) > 0 {
		return pick(b.g.r, ws)
	}
	return ""
}

// ownerPrefix is owner o's (0-based) prefix.
func (b *builder) ownerPrefix(o int) string {
	if b.owner == "" || (o == 0 && b.bareFirst) {
		return ""
	}
	return fmt.Sprintf(b.owner, o+1)
}

// slotPhone finds the phone of owner o in slot s of a row.
func slotPhone(rc *rowCtx, o int, s slot) *phoneFact {
	if rc.prop == nil || o >= len(rc.prop.owners) {
		return nil
	}
	k := 0
	for _, p := range rc.prop.owners[o].phones {
		switch {
		case s.kind == "m" && p.typ != TypeMobile, s.kind == "l" && p.typ != TypeLandline:
			continue
		}
		if k++; k == s.k {
			return p
		}
	}
	return nil
}

// wideColumns lays out a wide file: the property's columns, then each
// owner's with their phones, then the row's.
func (b *builder) wideColumns(owners int, fields []field) {
	b.noiseColumns(false, 0)
	b.choosePhoneDates(owners)
	for o := range owners {
		b.noiseColumns(true, o)
		for _, s := range b.slots {
			name := b.ownerPrefix(o) + fmt.Sprintf(s.name, s.k)
			key := fmt.Sprintf("o%dp%d", o+1, len(b.specs))
			all := func(rc *rowCtx) *phoneFact { return slotPhone(rc, o, s) }
			get := all
			if len(b.sorted) > 0 {
				get = func(rc *rowCtx) *phoneFact {
					if p := all(rc); p != nil && b.sortedInto(p) < 0 {
						return p
					}
					return nil
				}
			}
			b.phoneColumn(name, key, s.kind, get)
			for _, f := range fields {
				if o > 0 && b.plainOwners && f != fType {
					continue
				}
				b.fieldColumn(f, name+b.sep, key, get)
			}
			b.phoneDateColumn(name, key, o == owners-1 && s == b.slots[len(b.slots)-1], get)
			for i, sl := range b.sorted {
				b.sortedColumn(fmt.Sprintf(sl.header, name), fmt.Sprintf("%sL%d", key, i), s.kind, sl.list,
					func(rc *rowCtx) *phoneFact {
						if p := all(rc); p != nil && b.sortedInto(p) == i {
							return p
						}
						return nil
					})
			}
		}
	}
	b.rowColumns()
}

// choosePhoneDates decides, for a wide file of several phones whose family
// dates its rows, whether each phone is dated in a column of its own
// (b.phoneDate) and whether the last is left without one.
func (b *builder) choosePhoneDates(owners int) {
	if !slices.Contains(b.fam.rows, fDate) || owners*len(b.slots) < 2 || !b.g.r.chance(0.12) {
		return
	}
	b.phoneDate, b.lastUndated = b.dateCol(), b.g.r.chance(0.5)
	last := ""
	if b.lastUndated {
		last = ", but the last"
	}
	b.g.c.describe("%s: each phone dated in a column of its own%s", b.f.Name, last)
}

// phoneDateColumn adds the scrub date column of the phone named name
// (key its slot; last: the file's last phone), when the file dates its
// phones so: each phone's own age.
func (b *builder) phoneDateColumn(name, key string, last bool, get func(*rowCtx) *phoneFact) {
	d := b.phoneDate
	if d == nil || last && b.lastUndated {
		return
	}
	b.add(Column{Header: name + b.sep + d.header, Role: RoleDate, Slot: key}, func(rc *rowCtx) Cell {
		if get(rc) == nil {
			return Cell{}
		}
		return d.cellAt(d.rowAge(b.g))
	})
}

// longColumns lays out a long file: the person's columns, the phone, its
// fields, the row's.
func (b *builder) longColumns(fields []field) {
	b.noiseColumns(false, 0)
	b.noiseColumns(true, -1)
	b.phoneColumn(pick(b.g.r, b.fam.longPhone), "", "", func(rc *rowCtx) *phoneFact { return rc.phone })
	for _, f := range fields {
		b.fieldColumn(f, "", "", func(rc *rowCtx) *phoneFact { return rc.phone })
	}
	b.rowColumns()
}

// phoneColumn is a phone number column. A typed slot's header states the
// line type of the phones in it.
func (b *builder) phoneColumn(header, key, kind string, get func(*rowCtx) *phoneFact) {
	b.add(Column{Header: header, Role: RolePhone, Slot: key}, func(rc *rowCtx) Cell { return b.phoneCell(kind, get(rc)) })
}

// sortedColumn is a column of the numbers on list, in a slot of its own:
// each number's cell is its answer there.
func (b *builder) sortedColumn(header, key, kind, list string, get func(*rowCtx) *phoneFact) {
	b.add(Column{Header: header, Role: RolePhone, Slot: key, Reports: []string{list}}, func(rc *rowCtx) Cell {
		c := b.phoneCell(kind, get(rc))
		if c.M != nil && c.M.Phone != "" {
			c.M.Answers = []Answer{{List: list, Value: Flagged}}
			c.M.How = "a number in a column of the numbers on the " + list + " list"
		}
		return c
	})
}

// phoneCell writes phone p (nil: none) in the file's format, now and then
// in another, or damaged.
func (b *builder) phoneCell(kind string, p *phoneFact) Cell {
	stated := map[string]LineType{"m": TypeMobile, "l": TypeLandline}[kind]
	if p == nil {
		return Cell{}
	}
	if b.damage > 0 && b.g.r.chance(b.damage) {
		return Cell{Text: damaged(b.g.r, p.digits), M: &Meaning{Damaged: true}}
	}
	format := b.phoneFmt
	if b.g.r.chance(0.1) {
		format = pick(b.g.r, otherFormats)
	}
	c := Cell{Text: format(b.g.r, p.digits), M: &Meaning{Phone: p.digits, Type: stated}}
	if b.notes > 0 && b.g.r.chance(b.notes) {
		b.numberNote(&c)
	}
	return c
}

// Notes some vendors and CRMs write in a phone's cell beside the number:
// some say nothing of calling, the others state a restriction.
var (
	plainNotes    = []string{"Primary: %s", "%s (main)", "Tel: %s", "%s (alt)", "Phone: %s"}
	restrictNotes = []string{"%s (DNC)", "%s - Do Not Call", "DNC: %s", "%s [DNC]", "%s (Litigator)", "%s - wrong number",
		"%s *DNC*", "DO NOT CALL %s", "%s (opted out)", "%s - disconnected"}
)

// numberNote writes a note beside the number in cell c.
func (b *builder) numberNote(c *Cell) {
	r := b.g.r
	if r.chance(0.5) {
		c.Text = fmt.Sprintf(pick(r, plainNotes), c.Text)
		return
	}
	c.Text = fmt.Sprintf(pick(r, restrictNotes), c.Text)
	c.M.Restrict, c.M.How = "a note in the phone's cell", "a note beside the number in its cell"
}

// noiseColumns are the columns with nothing about calling: the row's
// (perOwner false) or owner o's (-1: the long row's person).
func (b *builder) noiseColumns(perOwner bool, o int) {
	for _, n := range b.fam.noise {
		if n.perOwner != perOwner {
			continue
		}
		header := n.header
		if perOwner && o >= 0 {
			header = b.ownerPrefix(o) + header
		}
		b.add(Column{Header: header}, func(rc *rowCtx) Cell { return Cell{Text: noiseText(b.g.r, n.kind, rc, o)} })
	}
}

// fieldColumn adds the column of field f for the phone get finds, its
// header prefix and slot key.
func (b *builder) fieldColumn(f field, prefix, key string, get func(*rowCtx) *phoneFact) {
	word := once(b, f, "word", func() string { return b.attr(f) })
	if word == "" && f != fPerState {
		return
	}
	c := Column{Header: prefix + word, Slot: key}
	switch f {
	case fFederal, fUnnamed, fLitigator, fDMA, fInternal:
		lc := once(b, f, "config", func() *listCol { return b.listCol(f) })
		c.Role, c.Reports, c.Conv = RoleList, []string{lc.list}, lc.conv.name
		if lc.since != "" {
			c.Header, c.Conv = prefix+lc.since, "registration date"
		}
		b.add(c, func(rc *rowCtx) Cell { return lc.render(b, rc, get(rc)) })
	case fPerState:
		b.perStateColumns(prefix, key, get)
	case fStates:
		sc := once(b, f, "config", b.statesCol)
		c.Role, c.Reports, c.Conv = RoleStates, []string{"state:*"}, sc.conv
		b.add(c, func(rc *rowCtx) Cell { return sc.render(b, rc, get(rc)) })
	case fVerdict, fCallable:
		vc := once(b, f, "config", func() *verdictCol { return b.verdictCol(f) })
		c.Role, c.Reports, c.Conv = RoleVerdict, []string{"federal"}, vc.conv.name
		b.add(c, func(rc *rowCtx) Cell { return vc.render(b, rc, get(rc)) })
	case fCode:
		cc := once(b, f, "config", b.codeCol)
		c.Role, c.Reports, c.Conv = RoleCode, cc.book.reports, cc.book.name
		b.add(c, func(rc *rowCtx) Cell { return cc.render(b, rc, get(rc)) })
	case fReason:
		b.add(c, func(rc *rowCtx) Cell { return b.reasonCell(rc, get(rc)) })
	default:
		b.otherField(f, c, get)
	}
}

// perStateColumns adds a column per state for the phone get finds: the
// same states, header and convention for every phone of the file.
func (b *builder) perStateColumns(prefix, key string, get func(*rowCtx) *phoneFact) {
	r := b.g.r
	states := once(b, fPerState, "states", func() []string {
		var out []string
		for _, i := range r.Perm(len(plainStates))[:r.between(2, 4)] {
			out = append(out, plainStates[i])
		}
		return out
	})
	header := once(b, fPerState, "header", func() string { return pick(r, []string{"%s DNC", "State DNC %s", "DNC_%s", "%s State DNC"}) })
	tmpl := once(b, fPerState, "config", func() *listCol { return b.listColFor("state:*", fPerState) })
	for _, st := range states {
		lc := *tmpl
		lc.list, lc.fact = "state:"+st, b.factOf("state:"+st)
		c := Column{Header: prefix + fmt.Sprintf(header, st), Slot: key, Role: RoleList, Reports: []string{lc.list}, Conv: lc.conv.name}
		b.add(c, func(rc *rowCtx) Cell { return lc.render(b, rc, get(rc)) })
	}
}

// otherField adds the columns about a phone that are not list answers:
// type, wireless flag, carrier, validity, status, tags.
func (b *builder) otherField(f field, c Column, get func(*rowCtx) *phoneFact) {
	r := b.g.r
	switch f {
	case fType:
		vocab := once(b, f, "config", func() [4][]string {
			if b.fam.spanish {
				return typeVocabs[len(typeVocabs)-1]
			}
			return pick(r, typeVocabs)
		})
		c.Role = RoleType
		b.add(c, func(rc *rowCtx) Cell { return typeCell(r, vocab, get(rc)) })
	case fWireless:
		pair := once(b, f, "config", func() [2]string { return pick(r, wirelessFlags) })
		c.Role = RoleType
		b.add(c, func(rc *rowCtx) Cell { return wirelessCell(pair, get(rc)) })
	case fCarrier:
		c.Role = RoleType
		b.add(c, func(rc *rowCtx) Cell { return carrierCell(r, get(rc)) })
	case fValidity:
		v := once(b, f, "config", func() validity { return pick(r, validities) })
		c.Role = RoleValidity
		b.add(c, func(rc *rowCtx) Cell { return validityCell(r, v.ok, v.bad, v.unknown, get(rc)) })
	case fStatus:
		c.Role = RoleStatus
		b.add(c, func(rc *rowCtx) Cell { return wordCell(r, phoneStatuses, 0.08, get(rc) != nil) })
	case fTags:
		sep := once(b, f, "config", func() string { return pick(r, tagSeparators) })
		c.Role = RoleStatus
		b.add(c, func(rc *rowCtx) Cell { return tagsCell(r, sep, get(rc) != nil) })
	}
}

// once is the file's choice of what for field f, made the first time it
// is asked for: a vendor writes every phone's column of a field with the
// same header word and the same convention.
func once[T any](b *builder, f field, what string, choose func() T) T {
	k := memoKey{f, what}
	if v, ok := b.memo[k]; ok {
		return v.(T)
	}
	v := choose()
	b.memo[k] = v
	return v
}

type memoKey struct {
	f    field
	what string
}

// rowLevel reports the fields that are about the whole row.
func rowLevel(f field) bool {
	switch f {
	case fNotes, fLeadStatus, fDisposition, fDND, fScope, fDate, fTags:
		return true
	}
	return false
}

// rowColumns are the columns of the whole row: notes, statuses, tags,
// dispositions, a CRM flag, a scope column, a scrub date; and in a long
// layout, the family's phone fields written on each row.
func (b *builder) rowColumns() {
	r := b.g.r
	for _, f := range b.fam.rows {
		if !rowLevel(f) || !r.chance(0.6) && !(f == fDate && b.g.complete && r.chance(0.7)) {
			continue
		}
		b.rowColumn(f)
	}
	b.extraColumns()
	if !b.long {
		return
	}
	var fields []field
	for _, f := range b.fam.rows {
		if !rowLevel(f) {
			fields = append(fields, f)
		}
	}
	for _, f := range b.choose(fields, 0.75) {
		b.fieldColumn(f, "", "", func(rc *rowCtx) *phoneFact { return rc.phone })
	}
}

// extraColumns are the row's columns any family may have now and then:
// more numbers of the row, a risk level, the numbers on a list.
func (b *builder) extraColumns() {
	r := b.g.r
	if r.chance(0.1) {
		b.otherPhonesColumn()
	}
	if r.chance(0.05) {
		b.riskColumn()
	}
	if !b.long && !b.fam.spanish && r.chance(0.08) {
		b.listedNumbersColumn()
	}
}

// riskColumn is a litigator service's risk level for the row ("TCPA
// Risk": High, Low): a risk above low is a reason not to call.
func (b *builder) riskColumn() {
	r := b.g.r
	b.add(Column{Header: pick(r, riskHeaders), Role: RoleStatus}, func(rc *rowCtx) Cell {
		if r.chance(0.08) {
			s := pick(r, []string{"High", "Medium", "Very High", "Elevated"})
			return Cell{Text: s, M: &Meaning{Restrict: "TCPA risk " + s}}
		}
		return Cell{Text: pick(r, []string{"Low", "Low", ""})}
	})
}

// riskHeaders name a litigator service's risk column.
var riskHeaders = []string{"TCPA Risk", "Litigation Risk", "TCPA Risk Level", "Litigator Risk"}

// otherPhonesColumn is a column of more numbers of the row, several to a
// cell ("Other Phones": "512-555-0101, 512-555-0102"), as CRMs and some
// skip exports write them: phones of the row, which the case's DNC results
// answer for like the others, or (one file in three) numbers no list
// answers for.
func (b *builder) otherPhonesColumn() {
	r := b.g.r
	sep := pick(r, []string{", ", "; ", " | ", " / ", "\n", ","})
	format := pick(r, phoneFormats)
	phones := r.chance(0.67)
	c := Column{Header: pick(r, otherPhonesWords), Role: RoleNotes}
	if phones {
		c.Role, c.Slot = RolePhone, "other"
	}
	b.add(c, func(rc *rowCtx) Cell {
		if !r.chance(0.5) {
			return Cell{}
		}
		var texts, nums []string
		for range r.between(1, 3) {
			d := b.g.nums.next(pick(r, plainStates))
			if phones {
				d = b.g.newPhone(false).digits
			}
			nums = append(nums, d)
			texts = append(texts, format(r, d))
		}
		if phones {
			return Cell{Text: strings.Join(texts, sep), M: &Meaning{Phones: nums, How: "a phone in a cell of several"}}
		}
		return Cell{Text: strings.Join(texts, sep), M: &Meaning{Mentions: nums, How: "several numbers in one cell"}}
	})
}

// listedNumbersColumn is a column of the row's numbers on a list, several
// to a cell ("DNC Numbers": "512-555-0102; 512-555-0103"): its answer is
// flagged for those numbers and says nothing of the row's others.
func (b *builder) listedNumbersColumn() {
	r := b.g.r
	list := pick(r, []string{"federal", "federal", "litigator"})
	header := pick(r, listedNumbersWords[list])
	sep := pick(r, []string{"; ", ", ", " | ", "\n", ","})
	format := pick(r, phoneFormats)
	b.add(Column{Header: header, Role: RoleList, Reports: []string{list}}, func(rc *rowCtx) Cell {
		var texts, nums []string
		if rc.prop != nil {
			for _, o := range rc.prop.owners {
				for _, p := range o.phones {
					if list == "federal" && p.federal || list == "litigator" && p.litigator {
						nums = append(nums, p.digits)
						texts = append(texts, format(r, p.digits))
					}
				}
			}
		}
		if len(nums) == 0 {
			return Cell{}
		}
		// The numbers are written here whether or not a phone column of
		// the row has them: mentions, never callable.
		return Cell{Text: strings.Join(texts, sep), M: &Meaning{Answers: []Answer{{List: list, Value: Flagged}}, For: nums,
			Mentions: nums, How: "a number in the row's column of numbers on the " + list + " list"}}
	})
}

var listedNumbersWords = map[string][]string{
	"federal":   {"DNC Numbers", "DNC Phones", "Do Not Call Numbers", "Numbers on DNC", "DNC Listed Phones"},
	"litigator": {"Litigator Numbers", "Litigator Phones", "TCPA Numbers"},
}

var otherPhonesWords = []string{"Other Phones", "Additional Phones", "All Phones", "Phone Numbers", "Alternate Phones"}

// rowColumn adds one column about the whole row.
func (b *builder) rowColumn(f field) {
	r := b.g.r
	switch f {
	case fNotes:
		words := notesWords
		if b.fam.spanish {
			words = []string{"Notas", "Comentarios"}
		}
		b.add(Column{Header: pick(r, words), Role: RoleNotes}, func(rc *rowCtx) Cell { return b.noteCell() })
	case fLeadStatus:
		b.add(Column{Header: pick(r, leadWords), Role: RoleStatus}, func(rc *rowCtx) Cell { return wordCell(r, leadStatuses, 0.08, true) })
	case fDisposition:
		b.add(Column{Header: pick(r, dispWords), Role: RoleStatus}, func(rc *rowCtx) Cell { return wordCell(r, dispositions, 0.1, true) })
	case fTags:
		sep := pick(r, tagSeparators)
		b.add(Column{Header: pick(r, rowTagWords), Role: RoleStatus}, func(rc *rowCtx) Cell { return tagsCell(r, sep, true) })
	case fDND:
		fl := pick(r, crmFlags)
		b.add(Column{Header: fl.header, Role: RoleStatus}, func(rc *rowCtx) Cell { return dndCell(r, fl.set, fl.unset) })
	case fScope:
		b.scope = b.scopeCol()
		b.add(Column{Header: b.scope.header, Role: RoleScope}, b.scope.cell)
	case fDate:
		b.date = b.dateCol()
		b.add(Column{Header: b.date.header, Role: RoleDate}, b.date.cell)
	}
}

// pickFields chooses the fields written for each phone of a wide file (or
// each row of a long one); a trace given with a DNC result may have none.
func (b *builder) pickFields(mayBeBare bool) []field {
	if mayBeBare && b.g.r.chance(0.35) {
		return keepOnly(b.fam.lists, fType, fStatus, fTags, fCarrier, fValidity)
	}
	return b.choose(b.fam.lists, 0.65)
}

// choose keeps each of fields with probability p; in a complete case, the
// fields that answer the registry (one of them at least) and the
// litigator list are always kept.
func (b *builder) choose(fields []field, p float64) []field {
	var out []field
	registry := false
	for _, f := range fields {
		essential := b.g.complete && (f == fLitigator || f == fCode || isRegistry(f) && !registry)
		if essential || b.g.r.chance(p) {
			out = append(out, f)
			registry = registry || isRegistry(f)
		}
	}
	return out
}

// isRegistry reports the fields that answer the DNC registry.
func isRegistry(f field) bool {
	switch f {
	case fFederal, fUnnamed, fVerdict, fCallable, fCode:
		return true
	}
	return false
}

func keepOnly(fields []field, keep ...field) []field {
	var out []field
	for _, f := range fields {
		for _, k := range keep {
			if f == k {
				out = append(out, f)
			}
		}
	}
	return out
}
