package resultgen

import (
	"fmt"
	"hash/fnv"
	"slices"
	"time"
)

// gen builds one case.
type gen struct {
	r    rng
	nums *numbers
	c    *Case
	// facts are the case's phones by number.
	facts map[string]*phoneFact
	// rates are how often a phone is on each list in this case.
	rates struct{ federal, state, litigator, company float64 }
	// complete: the case's files answer the registry and the litigator
	// list and are dated, so that more of their phones are callable and
	// the reader's mistakes show; the others may lack any of it.
	complete bool
	// lateFrom, when not 0, is the row from which values outside a
	// column's convention may appear, and before which no phone's state
	// code is an English word.
	lateFrom int
}

// person is an owner or a contact and their phones.
type person struct {
	first, last, email string
	phones             []*phoneFact
}

// property is a row of a trace: a property and its owners.
type property struct {
	owners                   []*person
	street, city, state, zip string
}

// Generate builds the case of seed, judged at the current time.
func Generate(seed int64) *Case { return GenerateAt(seed, time.Now()) }

// GenerateAt builds the case of seed, judged at now: the same seed and now
// give the same case.
func GenerateAt(seed int64, now time.Time) *Case {
	g := &gen{r: newRNG(seed)}
	g.nums = &numbers{r: g.r, used: map[string]bool{}}
	g.facts = map[string]*phoneFact{}
	g.c = &Case{Seed: seed, Now: now}
	scale := 0.3 + 1.2*g.r.Float64()
	g.rates.federal, g.rates.state, g.rates.litigator, g.rates.company = 0.25*scale, 0.08*scale, 0.04*scale, 0.04*scale
	n := g.size()
	g.complete = g.r.chance(0.6)
	if g.complete {
		g.c.describe("files that answer every list and are dated")
	}
	if n >= 350 && g.r.chance(0.7) {
		g.lateFrom = g.r.between(300, n-20)
		g.c.describe("values outside their columns' conventions from row %d", g.lateFrom+1)
	}
	switch x := g.r.Float64(); {
	case x < 0.42:
		g.traceCase(n, 0)
	case x < 0.8:
		g.traceCase(n, 1+boolInt(g.r.chance(0.15)))
	default:
		g.dncCase(n)
	}
	g.finish()
	return g.c
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// size draws how many rows the exported file has: mostly small, some of a
// few hundred, a few over a thousand (conventions broken late).
func (g *gen) size() int {
	switch x := g.r.Float64(); {
	case x < 0.65:
		return g.r.between(1, 40)
	case x < 0.93:
		return g.r.between(41, 200)
	case x < 0.98:
		return g.r.between(201, 420)
	}
	return g.r.between(1001, 1300)
}

// traceCase: a trace result (its own flags or none), with dnc DNC results
// of its phones.
func (g *gen) traceCase(rows, dnc int) {
	fam := g.traceFamily(dnc > 0)
	f := g.traceFile(fam, "trace", rows, dnc > 0)
	g.c.Files = append(g.c.Files, f)
	g.c.describe("%s, %d DNC result(s) of its phones", fam.name, dnc)
	var all []*phoneFact
	for _, row := range f.Rows {
		for _, cell := range row {
			if cell.M != nil {
				for _, n := range cell.M.numbers() {
					all = append(all, g.facts[n])
				}
			}
		}
	}
	for i := range dnc {
		g.c.Files = append(g.c.Files, g.dncFile(g.dncFamily(), g.cover(all), fmt.Sprintf("scrub%d", i+1)))
	}
}

// dncCase: a DNC result exported alone.
func (g *gen) dncCase(rows int) {
	fam := g.dncFamily()
	var phones []*phoneFact
	for i := range rows {
		phones = append(phones, g.newPhone(g.wordState(i)))
	}
	g.c.describe("%s exported alone", fam.name)
	g.c.Files = append(g.c.Files, g.dncFile(fam, phones, "dnc"))
}

// wordState says whether the phone of row i may be in a state whose code is
// an English word: from lateFrom on when the case breaks conventions late,
// else anywhere now and then.
func (g *gen) wordState(i int) bool {
	if g.lateFrom > 0 {
		return i >= g.lateFrom && g.r.chance(0.35)
	}
	return g.r.chance(0.12)
}

// traceFamily picks a trace family; a CRM or dialer export comes mostly
// with a DNC result of its phones.
func (g *gen) traceFamily(withDNC bool) *family {
	for {
		f := &families[g.r.IntN(len(families))]
		if f.kind != TraceResult || (f.crm && !withDNC && g.r.chance(0.7)) {
			continue
		}
		return f
	}
}

func (g *gen) dncFamily() *family {
	for {
		if f := &families[g.r.IntN(len(families))]; f.kind == DNCResult {
			return f
		}
	}
}

// cover is the part of a trace's phones a DNC result answers for: most,
// sometimes all, in another order.
func (g *gen) cover(all []*phoneFact) []*phoneFact {
	p := 1.0
	if g.r.chance(0.6) {
		p = 0.6 + 0.4*g.r.Float64()
	}
	var out []*phoneFact
	seen := map[string]bool{}
	for _, ph := range all {
		if !seen[ph.digits] && g.r.chance(p) {
			seen[ph.digits] = true
			out = append(out, ph)
		}
	}
	g.r.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// finish decides the company's list, and how each file is written and
// reaches SkipDesk.
func (g *gen) finish() {
	seen := map[string]bool{}
	for _, f := range g.c.Files {
		for _, row := range f.Rows {
			for _, cell := range row {
				if cell.M == nil {
					continue
				}
				for _, n := range cell.M.numbers() {
					if g.facts[n] != nil && g.facts[n].company && !seen[n] {
						seen[n] = true
						g.c.Company = append(g.c.Company, n)
					}
				}
			}
		}
	}
	for _, f := range g.c.Files {
		g.packaging(f)
	}
}

// hasDates reports a file with a scrub date column.
func hasDates(f *File) bool {
	return slices.ContainsFunc(f.Cols, func(c Column) bool { return c.Role == RoleDate })
}

// recordAge is when a job of ours that produced f completed: at or after
// the scrub dates its rows carry (an answer reused from an earlier scrub
// is older than the job, never newer); nil when a row is dated in the
// future, which no job of ours writes.
func (g *gen) recordAge(f *File) *int {
	newest := -1
	for _, row := range f.Rows {
		for _, c := range row {
			if c.M == nil || c.M.Date == nil || !c.M.Date.Known {
				continue
			}
			if c.M.Date.Age < 0 {
				return nil
			}
			if newest < 0 || c.M.Date.Age < newest {
				newest = c.M.Date.Age
			}
		}
	}
	age := g.age()
	if newest >= 0 {
		age = g.r.between(0, newest)
	}
	if age < 0 {
		return nil
	}
	return &age
}

// packaging picks a file's format, encoding, line ends, whether it is
// imported, and whether a job record of ours sits beside it.
func (g *gen) packaging(f *File) {
	switch x := g.r.Float64(); {
	case x < 0.64:
		f.Format = CSVComma
	case x < 0.74:
		f.Format = CSVSemicolon
	case x < 0.86:
		f.Format = TSV
	default:
		f.Format = XLSX
	}
	f.Name += f.Format.Ext()
	f.NumericPhones = f.Format == XLSX && g.r.chance(0.4)
	f.NativeDates = f.NativeDates && f.Format == XLSX
	f.CRLF = g.r.chance(0.5)
	if f.Format != XLSX {
		switch x := g.r.Float64(); {
		case x < 0.1:
			f.Encoding = "bom"
		case x < 0.18:
			f.Encoding = "cp1252"
		}
	}
	switch f.Format {
	case CSVComma:
		f.Import = g.r.chance(0.12)
	case CSVSemicolon:
		f.Import = g.r.chance(0.5)
	default:
		f.Import = true
	}
	g.workbook(f)
	dated := g.complete && !hasDates(f)
	if f.Format == CSVComma && !f.Import && (dated || g.r.chance(0.45)) {
		f.Record = g.recordAge(f)
	}
	if f.Import && (dated || g.r.chance(0.5)) {
		age := g.age()
		f.Stated = &age
	}
	g.preamble(f)
}

// titleLines are the lines reports exported from portals start with.
var titleLines = []string{"Skip Trace Results", "DNC Scrub Report", "Export", "Results for list: Absentee Owners TX",
	"Prepared by Vendor Portal", "Confidential - for internal use only", "Page 1"}

// groupNames name a phone's own column under its name, in a header of two
// rows.
var groupNames = []string{"Number", "Phone", "Phone Number", "#"}

// preamble decides whether a vendor's file (not one of ours: those come
// from the provider) starts with title lines, and whether its header is of
// two rows, the phones' names over their columns (a file of several
// phones a row).
func (g *gen) preamble(f *File) {
	if f.Record != nil {
		return
	}
	if g.r.chance(0.06) {
		for range g.r.between(1, 3) {
			f.Title = append(f.Title, pick(g.r, titleLines))
		}
		if g.r.chance(0.3) {
			f.Title = append(f.Title, "Exported "+dateText(g.c.Now, g.r.between(0, 3), pick(g.r, dateFormats)))
		}
		if g.r.chance(0.5) {
			f.Title = append(f.Title, "")
		}
		g.c.describe("%s: %d title lines above its header", f.Name, len(f.Title))
	}
	if g.r.chance(0.03) {
		// A header cell left blank by a hand that tidied the file: its
		// column still holds a list's answers.
		var lists []int
		for i, c := range f.Cols {
			if c.Role == RoleList {
				lists = append(lists, i)
			}
		}
		if len(lists) > 0 {
			i := pick(g.r, lists)
			g.c.describe("%s: the header of %q left blank", f.Name, f.Cols[i].Header)
			f.Cols[i].Header = ""
		}
	}
	phones := map[string]bool{}
	for _, c := range f.Cols {
		if c.Role == RolePhone && c.Slot != "" {
			phones[c.Slot] = true
		}
	}
	if len(phones) >= 2 && g.r.chance(0.1) {
		f.Group, f.Fill = pick(g.r, groupNames), g.r.chance(0.3)
		g.c.describe("%s: a header of two rows, the phones' names over their columns", f.Name)
	}
}

// workbook chooses how an .xlsx shows its numeric phones and over how
// many sheets it splits its rows: drawn from the file's name and the
// case's seed, not the case's draws, so that the cases' files stay as they
// were otherwise.
func (g *gen) workbook(f *File) {
	if f.Format != XLSX {
		return
	}
	side := newRNG(int64(nameHash(f.Name)) ^ g.c.Seed*0x9e3779b9)
	if f.NumericPhones {
		f.PhoneNumFmt = pick(side, []int{0, 0, 2, 4, 11})
	}
	if f.Import && side.chance(0.25) {
		f.Sheets = side.between(2, 3)
	}
}

// nameHash is a file name's FNV-1a hash.
func nameHash(name string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(name))
	return h.Sum64()
}
