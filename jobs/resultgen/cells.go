package resultgen

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
)

// Cells: each column's choices (convention, spelling, how much of it was
// checked, whether it breaks its convention late) and how it writes a
// phone's answer, with what the vendor meant.

// listCol is a column answering one list.
type listCol struct {
	list     string
	conv     convention
	spell    int
	coverage float64
	// late is the share of rows from the case's lateFrom on that hold a
	// value outside the convention.
	late float64
	fact func(p *phoneFact) bool
	// since, when set, is the header of a column of the dates numbers were
	// put on the list ("DNC Registered Date"): a date where the number is
	// on it, a blank where it is not.
	since string
}

// sinceHeaders name a column of the dates numbers were put on a list, as
// data vendors' appends and scrub portals' reports write them.
var sinceHeaders = map[string][]string{
	"federal":   {"DNC Registered Date", "Date Added to DNC", "National DNC Registration Date", "DNC Since", "Registered on DNC"},
	"litigator": {"Litigator Since", "Date Added to Litigator List", "Litigator Registered Date"},
}

// listCol configures the column of a list field.
func (b *builder) listCol(f field) *listCol {
	switch f {
	case fLitigator:
		return b.listColFor("litigator", f)
	case fDMA:
		return b.listColFor("dma", f)
	case fInternal:
		return b.listColFor("internal:"+b.f.Name, f)
	}
	return b.listColFor("federal", f)
}

// listColFor configures a column answering list.
func (b *builder) listColFor(list string, f field) *listCol {
	r := b.g.r
	lc := &listCol{list: list, conv: pick(r, listConventions), coverage: 1}
	switch x := r.Float64(); {
	case b.fam.spanish && x < 0.45:
		lc.conv = spanishYesNo
	case b.fam.spanish && x < 0.6:
		lc.conv = spanishExcel
	case x < 0.2 || f == fUnnamed && x < 0.35:
		lc.conv = xBlank
	}
	lc.spell = r.IntN(len(lc.conv.flagged))
	lc.coverage, lc.late = b.checking(0.4, 0.5)
	lc.fact = b.factOf(list)
	if hs := sinceHeaders[list]; len(hs) > 0 && !b.fam.spanish && f != fUnnamed && r.chance(0.04) {
		lc.since = pick(r, hs)
		b.g.c.describe("%s: %q, the dates numbers were put on the list", b.f.Name, lc.since)
	}
	return lc
}

// factOf is whether a phone is really on list.
func (b *builder) factOf(list string) func(p *phoneFact) bool {
	switch {
	case list == "litigator":
		return func(p *phoneFact) bool { return p.litigator }
	case list == "dma":
		return func(p *phoneFact) bool { return p.dma }
	case strings.HasPrefix(list, "internal:"):
		return b.onInternal
	case list == "state:*":
		return func(p *phoneFact) bool { return p.onState }
	case strings.HasPrefix(list, "state:"):
		st := strings.TrimPrefix(list, "state:")
		return func(p *phoneFact) bool { return p.onState && p.state == st }
	}
	return func(p *phoneFact) bool { return p.federal }
}

// checking draws how much of a column was checked: with probability
// partly, only a share from least to all of its phones (the others written
// as not checked); and, in a case that breaks conventions late, the share
// of late rows holding a value outside its convention.
func (b *builder) checking(partly, least float64) (coverage, late float64) {
	r := b.g.r
	coverage = 1
	if r.chance(partly) {
		coverage = least + (1-least)*r.Float64()
	}
	if b.g.lateFrom > 0 && r.chance(0.5) {
		late = 0.05 + 0.2*r.Float64()
	}
	return coverage, late
}

// onInternal reports whether the vendor's own list holds p (drawn once a
// number).
func (b *builder) onInternal(p *phoneFact) bool {
	v, ok := b.internal[p.digits]
	if !ok {
		v = b.g.r.chance(0.05)
		b.internal[p.digits] = v
	}
	return v
}

// lateValue writes a value outside the convention, when the row is late
// enough and the column breaks its convention: a word meaning "listed"
// for a listed phone, an error or pending mark otherwise.
func (b *builder) lateValue(rc *rowCtx, share float64, listed bool) (string, Value, bool) {
	if share == 0 || b.g.lateFrom == 0 || rc.i < b.g.lateFrom || !b.g.r.chance(share) {
		return "", Unknown, false
	}
	if listed {
		return pick(b.g.r, lateFlagged), Flagged, true
	}
	return pick(b.g.r, lateUnknown), Unknown, true
}

// howLate names the mechanism of a late value.
func (b *builder) howLate() string {
	return fmt.Sprintf("a value outside the column's convention from row %d", b.g.lateFrom+1)
}

// render writes p's answer.
func (lc *listCol) render(b *builder, rc *rowCtx, p *phoneFact) Cell {
	if p == nil {
		return Cell{}
	}
	listed := lc.fact(p)
	if text, v, ok := b.lateValue(rc, lc.late, listed); ok {
		return Cell{Text: text, M: &Meaning{Answers: []Answer{{lc.list, v}}, How: b.howLate()}}
	}
	if lc.since != "" {
		return lc.sinceCell(b, rc, listed)
	}
	return lc.conv.write(b.g.r, lc.list, lc.spell, listed, rc.notChecked, lc.coverage)
}

// sinceCell writes an answer in a column of the dates numbers were put on
// the list: the date, years back, where listed; a blank where not (the
// vendor means not listed); "?" where not checked.
func (lc *listCol) sinceCell(b *builder, rc *rowCtx, listed bool) Cell {
	r := b.g.r
	switch {
	case rc.notChecked:
		return Cell{M: &Meaning{Answers: []Answer{{lc.list, Clean}}}}
	case !r.chance(lc.coverage):
		return Cell{Text: "?", M: &Meaning{Answers: []Answer{{lc.list, Unknown}}, How: "not checked, written \"?\""}}
	case listed:
		text := dateText(b.g.c.Now, r.between(400, 8000), pick(r, dateFormats))
		return Cell{Text: text, M: &Meaning{Answers: []Answer{{lc.list, Flagged}}, How: "the date the number was put on the list"}}
	}
	return Cell{M: &Meaning{Answers: []Answer{{lc.list, Clean}}}}
}

// write writes an answer on list in convention c: listed or not, in a row
// not checked at all, or left unchecked (1-coverage of the time).
func (c convention) write(r rng, list string, spell int, listed, notChecked bool, coverage float64) Cell {
	switch {
	case notChecked:
		// A row not checked reads as clean or blank: the scope column
		// alone says it was not checked.
		text := c.clean[spell]
		if r.chance(0.3) {
			text = ""
		}
		return Cell{Text: text, M: &Meaning{Answers: []Answer{{list, c.valueOf(text, spell)}}}}
	case !r.chance(coverage):
		text := pick(r, c.unknown)
		how := "not checked, written " + quoteBlank(text)
		return Cell{Text: text, M: &Meaning{Answers: []Answer{{list, Unknown}}, How: how}}
	case listed:
		return Cell{Text: c.flagged[spell], M: &Meaning{Answers: []Answer{{list, Flagged}}}}
	}
	return Cell{Text: c.clean[spell], M: &Meaning{Answers: []Answer{{list, Clean}}}}
}

// valueOf is what text means in the convention.
func (c convention) valueOf(text string, spell int) Value {
	switch text {
	case c.clean[spell]:
		return Clean
	case c.flagged[spell]:
		return Flagged
	}
	return Unknown
}

func quoteBlank(s string) string {
	if s == "" {
		return "blank"
	}
	return fmt.Sprintf("%q", s)
}

// verdictCol is a combined verdict: a DNC status over the registry and
// the state lists, or an "OK to call" column (yes: clean).
type verdictCol struct {
	conv     convention
	spell    int
	coverage float64
	late     float64
}

func (b *builder) verdictCol(f field) *verdictCol {
	r := b.g.r
	vc := &verdictCol{conv: verdicts, coverage: 1}
	if f == fCallable {
		vc.conv = callables
	}
	vc.spell = r.IntN(len(vc.conv.flagged))
	vc.coverage, vc.late = b.checking(0.3, 0.6)
	return vc
}

func (vc *verdictCol) render(b *builder, rc *rowCtx, p *phoneFact) Cell {
	if p == nil {
		return Cell{}
	}
	listed := p.federal || p.onState
	if text, v, ok := b.lateValue(rc, vc.late, listed); ok {
		return Cell{Text: text, M: &Meaning{Answers: []Answer{{"federal", v}}, How: b.howLate()}}
	}
	c := vc.conv.write(b.g.r, "federal", vc.spell, listed, rc.notChecked, vc.coverage)
	if c.M.Answers[0].Value == Clean {
		// A clean verdict clears the state lists too.
		c.M.Answers = append(c.M.Answers, Answer{"state:*", Clean})
	}
	return c
}

// statesCol is a column of the state lists a phone is on, as codes.
type statesCol struct {
	conv     string
	clean    string
	unknown  []string
	coverage float64
}

func (b *builder) statesCol() *statesCol {
	sc := pick(b.g.r, stateConventions)
	out := &statesCol{conv: sc.name, clean: sc.clean, unknown: sc.unknown, coverage: 1}
	if b.g.r.chance(0.3) {
		out.coverage = 0.6 + 0.4*b.g.r.Float64()
	}
	return out
}

func (sc *statesCol) render(b *builder, rc *rowCtx, p *phoneFact) Cell {
	r := b.g.r
	switch {
	case p == nil:
		return Cell{}
	case rc.notChecked:
		return Cell{Text: sc.clean, M: &Meaning{Answers: []Answer{{"state:*", Clean}}}}
	case !r.chance(sc.coverage):
		text := pick(r, sc.unknown)
		return Cell{Text: text, M: &Meaning{Answers: []Answer{{"state:*", Unknown}}, How: "not checked, written " + quoteBlank(text)}}
	case p.onState:
		m := &Meaning{Answers: []Answer{{"state:" + p.state, Flagged}}}
		for _, w := range wordStates {
			if w == p.state {
				m.How = "a state code that is an English word"
			}
		}
		return Cell{Text: p.state, M: m}
	}
	return Cell{Text: sc.clean, M: &Meaning{Answers: []Answer{{"state:*", Clean}}}}
}

// codeCol is a result code column.
type codeCol struct {
	book  *codeBook
	lower bool
}

func (b *builder) codeCol() *codeCol {
	cc := &codeCol{book: &dncCom}
	if !b.fam.dncCom() {
		cc.book = &litigatorCodes
		cc.lower = b.g.r.chance(0.4)
	}
	b.code = cc
	return cc
}

func (cc *codeCol) render(b *builder, rc *rowCtx, p *phoneFact) Cell {
	if p == nil || rc.notChecked {
		return Cell{}
	}
	code := cc.codeFor(b, p)
	e := cc.book.codes[code]
	m := &Meaning{Answers: e.answers, Restrict: e.restrict, Invalid: e.invalid, Type: e.typ}
	if cc.book == &dncCom && b.scrubsLitigators() && len(e.answers) > 0 && e.answers[0].Value == Clean {
		// The project scrubs litigators: a clean code is clean on the
		// litigator list too (its Reason says "Litigator" for the others).
		m.Answers = append(slices.Clone(e.answers), Answer{"litigator", Clean})
	}
	if cc.lower {
		code = strings.ToLower(code)
	}
	return Cell{Text: code, M: m}
}

// codeFor is the code the vendor writes for p: its worst finding. The
// same phone always gets the same code in a file, so that the code and
// the Reason beside it agree.
func (cc *codeCol) codeFor(b *builder, p *phoneFact) string {
	if cc.book == &dncCom {
		return dncComCode(b, p)
	}
	switch {
	case p.dead:
		return "INVALID"
	case p.litigator:
		return []string{"TCPA_PLAINTIFF", "KNOWN_LITIGATOR"}[int(p.draw(b.f.Name)*2)]
	case p.federal:
		return "FEDERAL_DNC"
	case p.onState:
		return "STATE_DNC"
	case p.draw(b.f.Name+"complainer") < 0.02:
		return "DNC_COMPLAINER"
	}
	return "CLEAN"
}

// dncComCode is DNC.com's code for p.
func dncComCode(b *builder, p *phoneFact) string {
	x := p.draw(b.f.Name)
	switch {
	case p.dead:
		return []string{"I", "M"}[int(x*2)]
	case b.onInternal(p):
		return "P"
	case p.federal || p.onState || p.litigator && b.scrubsLitigators():
		return "D"
	case x < 0.01:
		return "B"
	case p.typ == TypeMobile && (p.state == "TX" || p.state == "AZ" || p.state == "NJ") && x < 0.2:
		return "L"
	case p.typ == TypeMobile:
		return "W"
	case p.typ == TypeVoIP:
		return "Y"
	case x < 0.25:
		return "E"
	}
	return "C"
}

// scrubsLitigators says whether the file's DNC.com project scrubs the
// litigator list too (a property of the whole file, as DNC.com's project
// setting is): its litigators then get D with the Reason "Litigator", and
// its clean codes are clean on the list; otherwise a litigator gets the code
// of its other findings and no code answers for the list.
func (b *builder) scrubsLitigators() bool {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d %s", b.g.c.Seed, b.f.Name)
	return h.Sum64()%10 < 7
}

// dncCom reports a family whose code column is DNC.com's.
func (f *family) dncCom() bool { return f.attrs[fReason] != nil }

// reasonCell is DNC.com's Reason: which list a D stands for.
func (b *builder) reasonCell(rc *rowCtx, p *phoneFact) Cell {
	switch {
	case p == nil || rc.notChecked || dncComCode(b, p) != "D":
		return Cell{}
	case p.federal:
		return Cell{Text: "National (USA) 2003-06-01;;;", M: &Meaning{Answers: []Answer{{"federal", Flagged}}}}
	case p.onState:
		return Cell{Text: "State (" + p.state + ")", M: &Meaning{Answers: []Answer{{"state:" + p.state, Flagged}}}}
	case p.litigator:
		return Cell{Text: "Litigator", M: &Meaning{Answers: []Answer{{"litigator", Flagged}}}}
	}
	return Cell{}
}

// typeCell writes p's line type in vocab; sometimes the vendor does not
// know it.
func typeCell(r rng, vocab [4][]string, p *phoneFact) Cell {
	if p == nil {
		return Cell{}
	}
	if r.chance(0.08) {
		return Cell{Text: pick(r, vocab[3]), M: &Meaning{}}
	}
	return Cell{Text: pick(r, vocab[p.typ-1]), M: &Meaning{Type: p.typ}}
}

// wirelessCell writes a wireless flag: set for a mobile, unset for a
// landline; a VoIP line is left blank.
func wirelessCell(pair [2]string, p *phoneFact) Cell {
	switch {
	case p == nil || p.typ == TypeVoIP:
		return Cell{}
	case p.typ == TypeMobile:
		return Cell{Text: pair[0], M: &Meaning{Type: TypeMobile}}
	}
	return Cell{Text: pair[1], M: &Meaning{Type: TypeLandline}}
}

// carrierCell names p's carrier; only a name that says wireless or mobile
// states the line type.
func carrierCell(r rng, p *phoneFact) Cell {
	if p == nil {
		return Cell{}
	}
	name := pick(r, carriers[p.typ])
	m := &Meaning{}
	for _, w := range []string{"Wireless", "Mobility", "Mobile"} {
		if strings.Contains(name, w) {
			m.Type = TypeMobile
		}
	}
	return Cell{Text: name, M: m}
}

// validityCell says whether p works.
func validityCell(r rng, ok, bad, unknown []string, p *phoneFact) Cell {
	switch {
	case p == nil:
		return Cell{}
	case p.dead:
		return Cell{Text: pick(r, bad), M: &Meaning{Invalid: true}}
	case r.chance(0.05):
		return Cell{Text: pick(r, unknown)}
	}
	return Cell{Text: pick(r, ok)}
}

// wordCell is a status: a restriction with probability p.
func wordCell(r rng, w wordList, p float64, present bool) Cell {
	if !present {
		return Cell{}
	}
	if r.chance(p) {
		s := pick(r, w.restrict)
		return Cell{Text: s, M: &Meaning{Restrict: s}}
	}
	return Cell{Text: pick(r, w.benign)}
}

// tagsCell is a cell of tags: a few benign ones and now and then a
// restriction among them.
func tagsCell(r rng, sep string, present bool) Cell {
	if !present {
		return Cell{}
	}
	var tags []string
	for range r.between(0, 3) {
		tags = append(tags, pick(r, tagWords.benign))
	}
	var m *Meaning
	if r.chance(0.07) {
		s := pick(r, tagWords.restrict)
		tags = append(tags, s)
		r.Shuffle(len(tags), func(i, j int) { tags[i], tags[j] = tags[j], tags[i] })
		m = &Meaning{Restrict: s}
	}
	return Cell{Text: strings.Join(tags, sep), M: m}
}

// dndCell is a CRM's opt-out flag.
func dndCell(r rng, set, unset string) Cell {
	if r.chance(0.06) {
		return Cell{Text: set, M: &Meaning{Restrict: "do not disturb"}}
	}
	return Cell{Text: unset}
}

// noteCell is a free-text note: mostly nothing or something harmless, now
// and then a restriction, or another number.
func (b *builder) noteCell() Cell {
	r := b.g.r
	switch x := r.Float64(); {
	case x < 0.08:
		s := pick(r, notes.restrict)
		return Cell{Text: s, M: &Meaning{Restrict: s}}
	case x < 0.12:
		d := b.g.nums.next(pick(r, plainStates))
		return Cell{Text: fmt.Sprintf(pick(r, mentionNotes), pick(r, phoneFormats[1:3])(r, d)), M: &Meaning{Mentions: []string{d}}}
	}
	return Cell{Text: pick(r, notes.benign)}
}
