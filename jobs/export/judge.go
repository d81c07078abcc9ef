package export

import (
	"slices"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// rowJudge judges the phones of a callable export's rows and builds each
// written row. It holds what one row needs and what the rows it judged
// add up to (the phones kept and left out, the scrubs they rest on, the
// reasons of the time rule): each goroutine judging rows has its own, and
// the export adds them up once every row is read (mergeSource.end). The
// export's settings (m) are only read while rows are judged.
type rowJudge struct {
	m    *mergeSource
	rd   *layout.Reader
	time *timeRule
	// notes: each number's answer is the same in every row
	// (layout.NumberDecides) and the numbers left out for their flags are
	// noted as the rows are judged, into flagged and stale; otherwise
	// those were read before the rows (readFlagged) and only consulted.
	notes   bool
	flagged *layout.FlaggedNumbers
	stale   *staleSet
	// stated: a row noted said more of a phone than its number's answers
	// (layout.Phone.RowStated): the export is made again (errRowStated).
	stated bool

	row    layout.Row
	rec    []string
	bySlot []int // the row's phone index of each slot, -1 none
	keep   []bool
	blank  []bool  // source columns blanked in this row
	kept   []bool  // source columns of kept phones
	erase  numbers // the numbers left out of this row
	keepK  numbers // the numbers kept in this row
	win    []phoneWindow
	words  flagWordsCache
	parts  []byte // keptParts's cell

	counts PhoneCounts
	dated  map[scrubDay]int
}

// newRowJudge is a judge of the export's rows with time rule t. The
// numbers it notes (NumberDecides) go into sets of its own, gathered with
// the others' at the end.
func (m *mergeSource) newRowJudge(t *timeRule) *rowJudge {
	ncols := len(m.src.Headers())
	j := &rowJudge{m: m, rd: m.l.NewReader(m.join), time: t,
		notes: m.flagged != nil && !m.staleRead, flagged: m.flagged, stale: m.stale,
		bySlot: make([]int, len(m.l.Slots)), keep: make([]bool, len(m.l.Slots)), win: make([]phoneWindow, len(m.l.Slots)),
		blank: make([]bool, ncols), kept: make([]bool, ncols),
		counts: PhoneCounts{Left: map[string]int{}}, dated: map[scrubDay]int{}}
	if j.notes {
		j.flagged, j.stale = layout.NewFlaggedNumbers(), newStaleSet()
	}
	return j
}

// note records a phone's number when a flag filter leaves it out, and the
// phone when only a stale scrub clears it.
func (j *rowJudge) note(p *layout.Phone) { j.m.note(p, j.flagged, j.stale) }

// merge builds the output row; false when the row is dropped.
func (j *rowJudge) merge(rec []string) ([]string, bool) {
	m := j.m
	j.read(rec)
	if j.notes {
		// Each number's answer is the same in every row (NumberDecides):
		// this row says it, unless it says more of a phone (stated).
		for i := range j.row.Phones {
			j.note(&j.row.Phones[i])
			j.stated = j.stated || j.row.Phones[i].RowStated()
		}
	}
	if slices.Contains(m.filters, jobs.QuickMatched) && j.row.Match != layout.Matched {
		return nil, false
	}
	clear(j.blank)
	clear(j.kept)
	j.erase, j.keepK = j.erase[:0], j.keepK[:0]
	for k := range j.bySlot {
		j.bySlot[k], j.keep[k] = -1, false
	}
	nkept := 0
	j.time.newRow()
	for i := range j.row.Phones {
		j.bySlot[j.row.Phones[i].Slot] = i
		if j.sortPhone(&j.row.Phones[i]) {
			nkept++
		}
	}
	if m.phoneF && nkept == 0 {
		return nil, false
	}
	if m.shape != nil {
		return nil, true
	}
	j.erase = slices.DeleteFunc(j.erase, j.keepK.has)
	return j.output(rec), true
}

// read reads what the export of a row needs: a preset's owner takes its
// people and e-mails; the result's own layout only its phones, with the
// addresses that place them.
func (j *rowJudge) read(rec []string) {
	if j.m.shape != nil {
		j.rd.Read(rec, &j.row)
		return
	}
	j.rd.ReadPhones(rec, &j.row)
	j.rd.ReadPlaces(rec, &j.row)
}

// judge says whether a phone of the row is kept, and why not: "" for a
// reason leftFor gives, else the time rule's.
func (j *rowJudge) judge(p *layout.Phone) (ok, isBad bool, timeReason string) {
	m := j.m
	if j.flagged != nil && j.flagged.FailsAny(p.Key, m.filters) {
		return false, true, ""
	}
	for _, f := range m.filters {
		if layout.PhoneLevel(f) && !m.passes(f, p) {
			return false, false, ""
		}
	}
	if !m.chosen(p) {
		return false, false, ""
	}
	if m.flags {
		j.win[p.Slot], timeReason = j.time.check(p, &j.row)
	}
	return timeReason == "", false, timeReason
}

// sortPhone keeps a phone of the row or leaves it out (its columns blanked,
// its number erased from the row), counting it; true when kept.
func (j *rowJudge) sortPhone(p *layout.Phone) bool {
	ok, isBad, timeReason := j.judge(p)
	cols := j.m.l.Slots[p.Slot].Columns
	if ok {
		j.counts.Kept++
		if j.m.flags && !p.Scrubbed.IsZero() {
			j.dated[scrubDay{p.Source, p.Scrubbed.UTC()}]++
		}
		j.keep[p.Slot] = true
		if p.Key != 0 {
			j.keepK = append(j.keepK, p.Key)
		}
		for _, c := range cols {
			j.kept[c] = true
		}
		return true
	}
	if timeReason != "" {
		j.counts.Left[timeReason]++
	} else {
		j.counts.Left[j.m.leftFor(p, isBad)]++
	}
	if j.m.l.Slots[p.Slot].Part == 0 {
		// A cell of several numbers is written again with the kept ones
		// (keptParts), not blanked for one left out.
		for _, c := range cols {
			j.blank[c] = true
		}
	}
	if p.Key != 0 {
		j.erase = append(j.erase, p.Key)
	}
	return false
}

// output builds the written row: the source's cells (those of phones left
// out, and any other writing a number that must not appear, blanked) and
// the kept phones' added columns.
func (j *rowJudge) output(rec []string) []string {
	j.rec = j.rec[:0]
	for _, o := range j.m.out {
		if o >= 0 {
			v := cell(rec, o)
			if o < len(j.m.l.Columns) && j.m.l.Columns[o].Parts > 0 {
				v = j.keptParts(o)
			}
			// Every cell is looked at, a kept phone's own columns too (its
			// raw twin may hold another number): a number is written only
			// where it was read as a phone and judged.
			if j.blank[o] || j.holdsLeftOut(v) {
				v = ""
			}
			j.rec = append(j.rec, v)
			continue
		}
		k, which := (-o-2)/slotCols, (-o-2)%slotCols
		i := j.bySlot[k]
		if i < 0 || !j.keep[k] {
			j.rec = append(j.rec, "")
			continue
		}
		j.rec = append(j.rec, j.added(&j.row.Phones[i], which))
	}
	return j.rec
}

// keptParts is a cell of several numbers (layout.Column.Parts) as
// written: its kept phones' numbers as the cell writes them, "; " between
// them; "" when none is kept. What else it held (a number left out, one
// not read) is not written.
func (j *rowJudge) keptParts(col int) string {
	j.parts = j.parts[:0]
	for k, s := range j.m.l.Slots {
		if s.Number != col || s.Part == 0 || !j.keep[k] || j.bySlot[k] < 0 {
			continue
		}
		if len(j.parts) > 0 {
			j.parts = append(j.parts, "; "...)
		}
		j.parts = append(j.parts, j.row.Phones[j.bySlot[k]].Raw...)
	}
	return string(j.parts)
}

// added is the value of a kept phone's added column.
func (j *rowJudge) added(p *layout.Phone, which int) string {
	w := j.win[p.Slot]
	switch which {
	case slotFlags:
		return j.words.of(p)
	case slotCallable:
		return verdict(p)
	case slotZone:
		return w.zone
	case slotFrom:
		return w.from
	}
	return w.until
}

// holdsLeftOut reports a value that writes a number that must not appear in
// this row: such a cell is blanked, wherever it is (an echo of the person's
// own phone column, notes, a list of all phones, a phone column the layout
// did not recognise). Under a flag filter (callable, not-dnc,
// not-litigator) that is any valid number but the row's kept phones: a
// number is only written when the layout read it as a phone and it passed;
// under the other filters, the numbers left out of the row. Numbers are
// looked for in each run of digits and phone punctuation, at every 10-digit
// window of its digits.
func (j *rowJudge) holdsLeftOut(v string) bool {
	if len(v) < 10 || !j.m.strict && len(j.erase) == 0 {
		return false
	}
	var d [64]byte
	n := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; runByte[c] {
		case runDigit:
			if n < len(d) {
				d[n] = c
				n++
			}
		case runOther:
			if n >= 10 && j.runLeftOut(d[:n]) {
				return true
			}
			n = 0
		}
	}
	return n >= 10 && j.runLeftOut(d[:n])
}

// What a byte is to a run of a number's digits: a digit, punctuation a
// number is written with (skipped), or anything else (the run ends).
const (
	runOther = iota
	runDigit
	runPunct
)

// runByte is each byte's class.
var runByte = func() (t [256]uint8) {
	for c := '0'; c <= '9'; c++ {
		t[c] = runDigit
	}
	for _, c := range phone.Punct {
		t[c] = runPunct
	}
	return t
}()

// runLeftOut reports whether a run of digits holds, at any offset, ten
// that are a number left out: one erased, or (strict) a valid number not
// kept.
func (j *rowJudge) runLeftOut(d []byte) bool {
	for i := 0; i+10 <= len(d); i++ {
		var k uint64
		for _, c := range d[i : i+10] {
			k = k*10 + uint64(c-'0')
		}
		if j.erase.has(k) {
			return true
		}
		if !j.m.strict || d[i] < '2' || d[i+3] < '2' {
			continue // not a valid number
		}
		if !j.keepK.has(k) {
			return true
		}
	}
	return false
}

// gather adds what judge o counted to the export's totals: the phones kept
// and left out, the scrubs they rest on, the time rule's reasons and, when
// o noted numbers of its own, the phones only a stale scrub clears.
func (m *mergeSource) gather(o *rowJudge) {
	m.counts.Kept += o.counts.Kept
	for r, n := range o.counts.Left {
		m.counts.Left[r] += n
	}
	for k, n := range o.dated {
		m.dated[k] += n
	}
	for r, n := range o.time.left {
		m.timeLeft[r] += n
	}
	if o.stale != nil && o.stale != m.stale {
		m.stale.merge(o.stale)
	}
}
