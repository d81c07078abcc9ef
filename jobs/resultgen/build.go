package resultgen

import (
	"fmt"
	"strings"
)

// Building files: a trace's rows from its properties, a DNC result's from
// the phones it answers for; the row columns the others depend on (scope,
// date); the columns with nothing about calling.

// traceFile writes a trace result of fam (a CRM or dialer export too).
func (g *gen) traceFile(fam *family, name string, rows int, withDNC bool) *File {
	b := g.newBuilder(fam, name, TraceResult)
	props := g.properties(b, rows)
	fields := b.pickFields(withDNC)
	if b.long {
		b.longColumns(fields)
		return b.build(longRows(props))
	}
	owners := 0
	for _, p := range props {
		owners = max(owners, len(p.owners))
	}
	b.wideColumns(owners, fields)
	return b.build(wideRows(props))
}

// dncFile writes a DNC result of fam answering for phones.
func (g *gen) dncFile(fam *family, phones []*phoneFact, name string) *File {
	b := g.newBuilder(fam, name, DNCResult)
	if b.long {
		b.longColumns(nil)
		var rows []rowCtx
		for _, p := range phones {
			rows = append(rows, rowCtx{phone: p, prop: &property{state: p.state}})
		}
		return b.build(rows)
	}
	// An owner list with flags appended: the phones grouped into people.
	var props []*property
	for i := 0; i < len(phones); {
		n := min(len(phones)-i, g.r.between(1, len(b.slots)))
		o := &person{first: pick(g.r, firstNames), last: pick(g.r, lastNames), phones: phones[i : i+n]}
		props = append(props, &property{owners: []*person{o}, state: phones[i].state})
		i += n
	}
	b.wideColumns(1, b.pickFields(false))
	return b.build(wideRows(props))
}

func wideRows(props []*property) []rowCtx {
	rows := make([]rowCtx, len(props))
	for i, p := range props {
		rows[i] = rowCtx{prop: p}
	}
	return rows
}

// longRows are one row a phone: each owner's phones in turn, an owner with
// none on a row of its own with the phone blank.
func longRows(props []*property) []rowCtx {
	var rows []rowCtx
	for _, p := range props {
		for _, o := range p.owners {
			if len(o.phones) == 0 {
				rows = append(rows, rowCtx{prop: p, owner: o})
			}
			for _, ph := range o.phones {
				rows = append(rows, rowCtx{prop: p, owner: o, phone: ph})
			}
		}
	}
	return rows
}

// build renders the rows: each row's scope and date first, then its cells
// in column order.
func (b *builder) build(rows []rowCtx) *File {
	f := b.f
	f.Headers = b.style.String()
	for _, s := range b.specs {
		f.Cols = append(f.Cols, s.col)
	}
	if b.date != nil && b.date.native && b.g.r.chance(0.5) {
		f.NativeDates = true
	}
	for i := range rows {
		rc := &rows[i]
		rc.i = i
		if b.scope != nil {
			rc.notChecked = b.g.r.chance(b.scope.rate)
		}
		if b.date != nil {
			rc.age = b.date.rowAge(b.g)
		}
		cells := make([]Cell, len(b.specs))
		for j, s := range b.specs {
			cells[j] = s.cell(rc)
		}
		f.Rows = append(f.Rows, cells)
	}
	return f
}

// scopeCol is a column saying whether each row was checked.
type scopeCol struct {
	header       string
	checked, not []string
	rate         float64 // share of rows not checked
}

func (b *builder) scopeCol() *scopeCol {
	s := pick(b.g.r, scopes)
	if b.fam.spanish {
		s = spanishScope
	}
	return &scopeCol{header: pick(b.g.r, s.headers), checked: s.checked, not: s.not, rate: 0.03 + 0.15*b.g.r.Float64()}
}

func (s *scopeCol) cell(rc *rowCtx) Cell {
	if rc.notChecked {
		// The row's answers are void; the words are the vendor's.
		return Cell{Text: s.not[rc.i%len(s.not)], M: &Meaning{NotChecked: true}}
	}
	return Cell{Text: s.checked[rc.i%len(s.checked)]}
}

// dateCol is a row's scrub date: most rows share the file's date, some
// carry an older answer reused from an earlier scrub, a few are blank.
type dateCol struct {
	header string
	format string
	base   int
	// lowDays: every date of the column falls on a day of the month up to
	// 12 (a date that reads as day/month or month/day alike), else after
	// the 12th; the seed decides, not the day the case is generated on.
	lowDays bool
	// native: in an .xlsx the dates may be Excel dates.
	native bool
	g      *gen
}

func (b *builder) dateCol() *dateCol {
	r := b.g.r
	d := &dateCol{header: pick(r, dateHeaders), format: pick(r, dateFormats), native: true, g: b.g, lowDays: r.chance(0.5)}
	if b.fam.spanish {
		d.header = pick(r, spanishDateHeaders)
		if r.chance(0.7) {
			d.format = pick(r, dayFirstFormats)
		}
	}
	d.base = onDay(b.g.c.Now, b.g.age(), d.lowDays)
	return d
}

// rowAge is a row's scrub age: the file's, or an older reused answer's.
func (d *dateCol) rowAge(g *gen) int {
	if g.r.chance(0.15) {
		return onDay(g.c.Now, g.age(), d.lowDays)
	}
	return d.base
}

func (d *dateCol) cell(rc *rowCtx) Cell { return d.cellAt(rc.age) }

// cellAt is a date cell of a scrub age days old (now and then blank).
func (d *dateCol) cellAt(age int) Cell {
	if d.g.r.chance(0.04) {
		return Cell{M: &Meaning{Date: &DateFact{}}}
	}
	m := &Meaning{Date: &DateFact{Age: age, Known: true}}
	for _, f := range dayFirstFormats {
		if f == d.format {
			m.How = "a day-first date"
		}
	}
	return Cell{Text: dateText(d.g.c.Now, age, d.format), M: m}
}

// properties are the rows of a trace: each a property with its owners and
// their phones. Now and then an owner shares a number with another
// (spouses, a family line).
func (g *gen) properties(b *builder, n int) []*property {
	maxPhones := 1
	if !b.long {
		maxPhones = len(b.slots)
	}
	var shared []*phoneFact
	out := make([]*property, n)
	for i := range out {
		p := &property{street: street(g.r), state: pick(g.r, append(plainStates, wordStates...))}
		p.city, p.zip = pick(g.r, cities), fmt.Sprintf("%05d", g.r.between(1001, 99950))
		for range g.r.between(1, b.maxOwners()) {
			o := &person{first: pick(g.r, firstNames), last: pick(g.r, lastNames)}
			o.email = strings.ToLower(fmt.Sprintf("%s.%s%d@example.com", o.first, o.last, g.r.IntN(100)))
			for range g.r.between(0, maxPhones) {
				ph := g.newPhone(g.wordState(i))
				if len(shared) > 0 && g.r.chance(0.03) {
					ph = pick(g.r, shared)
				}
				o.phones = append(o.phones, ph)
				shared = append(shared, ph)
			}
			p.owners = append(p.owners, o)
		}
		out[i] = p
	}
	return out
}

// Names and places for the columns with nothing about calling.
var (
	firstNames = []string{"Ann", "Bob", "Carlos", "Dana", "Eve", "Frank", "Grace", "Hector", "Ivy", "José", "Kim", "Luis", "Mary", "Ned", "Olga", "Pat"}
	lastNames  = []string{"Lee", "Smith", "García", "Nguyen", "Johnson", "Brown", "Martínez", "O'Brien", "Davis", "Wilson", "López", "Clark"}
	cities     = []string{"Austin", "Tulsa", "Portland", "Miami", "Columbus", "Boston", "Honolulu", "Portland", "Mobile", "Indianapolis"}
	streets    = []string{"Oak Ave", "Main St", "Elm St", "Cedar Ln", "Pine Rd", "Maple Dr", "Lakeview Blvd", "Calle Real"}
)

func street(r rng) string { return fmt.Sprintf("%d %s", r.between(1, 9999), pick(r, streets)) }

// noiseText is a cell with nothing about calling: owner o's (-1 the long
// row's person) name or email, the property's address, an id.
func noiseText(r rng, k noiseKind, rc *rowCtx, o int) string {
	var p *person
	switch {
	case o < 0:
		p = rc.owner
	case rc.prop != nil && o < len(rc.prop.owners):
		p = rc.prop.owners[o]
	}
	switch k {
	case nFirst, nLast, nFull, nEmail:
		if p == nil {
			return ""
		}
		return map[noiseKind]string{nFirst: p.first, nLast: p.last, nFull: p.first + " " + p.last, nEmail: p.email}[k]
	case nStreet:
		return propOf(rc).street
	case nCity:
		return propOf(rc).city
	case nState:
		return propOf(rc).state
	case nZip:
		return propOf(rc).zip
	case nCalled:
		return fmt.Sprintf("%d/%d/2025", r.between(1, 12), r.between(1, 28))
	case nAge:
		return fmt.Sprint(r.between(0, 9))
	}
	return fmt.Sprintf("L-%06d", r.IntN(1000000))
}

func propOf(rc *rowCtx) *property {
	if rc.prop == nil {
		return &property{}
	}
	return rc.prop
}
