package layout

import (
	"time"
)

// Source is a DNC result whose flags a FlagIndex holds.
type Source struct {
	Name string `json:"name"` // the file or job, as shown to the person
	// Date is when its scrub was made, for the rows that do not say so
	// themselves (its job's completion, or the date the person gave when
	// importing it); zero when not known: such answers date nothing.
	Date time.Time `json:"date"`
}

// FlagIndex maps numbers (phone.Key) to their flags from one or more DNC
// results in any layout, to apply them to a trace result's phones
// (scrub-from-trace). Every answer keeps its own date: the row's (a scrub
// date column, a merged result's source_date) or its source's. When several
// results have a number, the newest answer wins whole; an answer whose date
// is not known cannot be ordered, so the answers are then merged (flagged
// beats unknown beats clean) and the number is undated. Within one result,
// rows of the same number are merged the same way, with the older date.
//
// The index also carries what applies to every phone read with it: the
// company's own do-not-call list (SetInternal), the date of the file's own
// answers and the time calls are judged at (SetDates). An index with no DNC
// result does only that.
type FlagIndex struct {
	// ids gives each number the place of its entry: a small table of
	// numbers to look up on every phone read, the entries apart.
	ids     numberIDs
	entries []joinEntry
	sources []Source
	reports Kinds
	// vendors are the DNC vendors' calling-time values met, each once
	// (joinEntry.vendor is its place + 1).
	vendors   []VendorTime
	vendorIDs map[VendorTime]int32

	earlier    map[uint64]earlierAnswer // answers before the file's own (SetEarlier)
	internal   NumberSet
	internalOn bool
	own        time.Time // when the file's own flags were scrubbed (rows with no date of their own)
	now        time.Time // when calls are judged; zero: the time of reading
}

type joinEntry struct {
	flags Flags
	date  time.Time
	src   int32
	// prev is the answer of the newest older source that has the number
	// (prevSrc -1: none): what changed since the scrub before.
	prev     Flags
	prevDate time.Time
	prevSrc  int32
	// vendor is the place + 1 of its vendor's calling-time values in
	// FlagIndex.vendors; 0 none.
	vendor int32
}

// NewFlagIndex returns an empty index.
func NewFlagIndex() *FlagIndex { return &FlagIndex{} }

// find is the entry of a number, nil when no result holds it.
func (x *FlagIndex) find(key uint64) *joinEntry {
	if i, ok := x.ids.get(key); ok {
		return &x.entries[i]
	}
	return nil
}

// AddSource registers a DNC result read with layout l and returns its id
// for AddRow.
func (x *FlagIndex) AddSource(s Source, l *Layout) int {
	x.sources = append(x.sources, s)
	x.reports |= l.Reports
	return len(x.sources) - 1
}

// AddRow adds the valid phones of a row of source src (read without a
// join), dated by the row's own date, else the source's.
func (x *FlagIndex) AddRow(src int, row *Row) {
	date := row.Date
	if !row.dated {
		date = x.sources[src].Date
	}
	date = capDate(date, row.may)
	for i := range row.Phones {
		p := &row.Phones[i]
		if p.Key == 0 {
			continue
		}
		d := date
		if p.ownSet {
			d = p.own // dated by its own columns
		}
		x.add(src, p.Key, p.Answers(), d)
		if p.Vendor != nil {
			x.addVendor(p.Key, *p.Vendor, d)
		}
	}
}

// addVendor keeps a number's vendor calling-time values (dated date when
// they are not): those of its newest answer that has some (of equal
// dates, the last read); older values stand when a newer answer has none
// (values only narrow a window).
func (x *FlagIndex) addVendor(key uint64, v VendorTime, date time.Time) {
	if v.Day == "" && !date.IsZero() {
		v.Day = date.UTC().Format(time.DateOnly)
	}
	e := x.find(key)
	if e == nil || e.vendor != 0 && e.date.After(date) {
		return
	}
	id, ok := x.vendorIDs[v]
	if !ok {
		if x.vendorIDs == nil {
			x.vendorIDs = map[VendorTime]int32{}
		}
		id = int32(len(x.vendors))
		x.vendors = append(x.vendors, v)
		x.vendorIDs[v] = id
	}
	if e.vendor == 0 || !e.date.After(date) {
		e.vendor = id + 1
	}
}

// vendorOf is the vendor calling-time values of a number's entry (nil:
// none); shared, not to be changed.
func (x *FlagIndex) vendorOf(e *joinEntry) *VendorTime {
	if e == nil || e.vendor == 0 {
		return nil
	}
	return &x.vendors[e.vendor-1]
}

// entry is the entry of a valid number the index's results hold, nil when
// none does.
func (x *FlagIndex) entry(key uint64) *joinEntry {
	if key == 0 || len(x.sources) == 0 {
		return nil
	}
	return x.find(key)
}

// older is the earlier of two dates; zero (not known) when either is.
func older(a, b time.Time) time.Time {
	switch {
	case a.IsZero() || b.IsZero():
		return time.Time{}
	case a.Before(b):
		return a
	}
	return b
}

func (x *FlagIndex) add(src int, key uint64, f Flags, date time.Time) {
	old := x.find(key)
	switch {
	case old == nil:
		x.ids.put(key, int32(len(x.entries)))
		x.entries = append(x.entries, joinEntry{flags: f, date: date, src: int32(src), prevSrc: -1})
	case int(old.src) == src || old.date.IsZero() || date.IsZero():
		// Rows of one result, or answers that cannot be ordered: every
		// reading counts.
		old.flags = old.flags.Merge(f)
		old.date = older(old.date, date)
	case x.newer(date, src, old.date, int(old.src)):
		// The winner so far becomes the answer before; the lists only it
		// reports keep its answers (and its date, when one is not flagged).
		e := joinEntry{flags: f, date: date, src: int32(src), prev: old.flags, prevDate: old.date, prevSrc: old.src}
		e.fill(old.flags, old.date, old.src)
		*old = e
	default:
		// An older answer: the answer before, when newer than the one
		// kept; and the lists the newer answers do not report.
		if old.prevSrc < 0 || x.newer(date, src, old.prevDate, int(old.prevSrc)) {
			old.prev, old.prevDate, old.prevSrc = f, date, int32(src)
		} else if int(old.prevSrc) == src {
			old.prev = old.prev.Merge(f)
		}
		old.fill(f, date, int32(src))
	}
}

// fill adds to an entry the lists an older answer f (dated date, of source
// src) reports and the entry does not, and each file's own lists (a
// vendor's in-house list) beside the entry's: lists are kept apart, so a
// newer scrub that does not check a list leaves the older answer about it
// standing. A clean or unknown answer so kept makes the entry as old as it:
// a vendor's own list checked five months ago is five months old, whatever
// another vendor's list says today.
func (e *joinEntry) fill(f Flags, date time.Time, src int32) {
	for _, k := range (f.Has & e.flags.Has & perFile).List() {
		e.flags.Set(k, f.of[k]) // each file's own list stands beside the other's
		e.keepDate(k, f.of[k], date, src)
	}
	for _, k := range (f.Has &^ e.flags.Has).List() {
		e.flags.of[k] = f.of[k]
		e.flags.Has = e.flags.Has.with(k)
		e.keepDate(k, f.of[k], date, src)
	}
}

// keepDate makes the entry as old as an answer of list k it keeps, unless
// the answer is flagged (it blocks whatever its age) or the list's answers
// are not dated (what a file states in words, the company's list).
func (e *joinEntry) keepDate(k FlagKind, v Flag, date time.Time, src int32) {
	if v != Flagged && !undatedKinds.Has(k) && date.Before(e.date) {
		e.date, e.src = date, src
	}
}

// changeBlocks are the answers a later scrub can turn: the lists.
const changeBlocks = BlockFederal | BlockDNC | BlockState | BlockLitigator | BlockCombined | BlockIndustry

type earlierAnswer struct {
	flags Flags
	date  time.Time
}

// SetEarlier gives a number's answer in the scrub made before the file's
// own answers (a phone list scrubbed again): the phone then says what
// changed since (Phone.Became).
func (x *FlagIndex) SetEarlier(key uint64, f Flags, date time.Time) {
	if x.earlier == nil {
		x.earlier = map[uint64]earlierAnswer{}
	}
	x.earlier[key] = earlierAnswer{f, date}
}

// changeOf is what changed for a phone whose flags are f: since the scrub
// before the join's newest answer, else since the earlier answer to the
// file's own.
func (x *FlagIndex) changeOf(e *joinEntry, key uint64, f Flags, own bool) (Block, time.Time) {
	if e != nil {
		return e.change()
	}
	if !own {
		return 0, time.Time{}
	}
	if a, ok := x.earlier[key]; ok {
		now, before := Callability(true, f)&changeBlocks, Callability(true, a.flags)&changeBlocks
		return now &^ before, a.date
	}
	return 0, time.Time{}
}

// Change says what a number's newest scrub found that the scrub before it
// did not: the lists it is on now and was not (became), and when that
// scrub before was made (since). Zero when no scrub before has it.
func (x *FlagIndex) Change(key uint64) (became Block, since time.Time) {
	if e := x.find(key); e != nil {
		return e.change()
	}
	return 0, time.Time{}
}

func (e *joinEntry) change() (became Block, since time.Time) {
	if e.prevSrc < 0 {
		return 0, time.Time{}
	}
	now, before := Callability(true, e.flags)&changeBlocks, Callability(true, e.prev)&changeBlocks
	return now &^ before, e.prevDate
}

// newer reports whether the answer dated da of source a wins over the one
// dated db of source b: the later date, then the source added last.
func (x *FlagIndex) newer(da time.Time, a int, db time.Time, b int) bool {
	if !da.Equal(db) {
		return da.After(db)
	}
	return a > b
}

// Lookup returns the flags of a number, the result they come from and
// when that answer was scrubbed (zero: not known).
func (x *FlagIndex) Lookup(key uint64) (Flags, Source, bool) {
	e := x.find(key)
	if e == nil {
		return Flags{}, Source{}, false
	}
	s := x.sources[e.src]
	s.Date = e.date
	return e.flags, s, true
}

// NumberSet is a set of numbers by phone.Key (phone.KeySet).
type NumberSet interface {
	Has(key uint64) bool
	Len() int
}

// notFound are the flags of a number no DNC result holds: unknown on the
// registries and the litigator list.
var notFound = Flags{Has: Kinds(0).with(Federal).with(Litigator)}

// SetInternal applies the company's own do-not-call list to every phone
// read with the index: flagged when the list has the number, clean when it
// does not (the list is the company's own: it is never unknown). It is a
// list of its own: it never answers for a list of the file's.
func (x *FlagIndex) SetInternal(keys NumberSet) {
	x.internal, x.internalOn = keys, true
	x.reports = x.reports.with(Company)
}

// SetDates says when the file's own flags were scrubbed, for its rows that
// do not say so themselves (own; zero when not known: such answers date
// nothing and make no phone callable), and when calls are judged (now;
// zero: the time of reading).
func (x *FlagIndex) SetDates(own, now time.Time) {
	x.own, x.now = own, now
}

// Now is the time calls are judged at.
func (x *FlagIndex) Now() time.Time {
	if x.now.IsZero() {
		return time.Now()
	}
	return x.now
}

// own kinds that a scrub's date does not bear on.
var undatedKinds = Kinds(0).with(Company).with(Restriction).with(Number)

// apply gives a phone's flags read with the index, when the answers they
// rest on were scrubbed (the oldest of them; zero: not known), and which
// source that is (-1 the file's own answers, -2 none). own says the file
// itself answers for the phone, at ownDate; e is the number's entry
// (entry), nil when no result holds it.
func (x *FlagIndex) apply(e *joinEntry, key uint64, f Flags, own bool, ownDate time.Time) (Flags, time.Time, int) {
	var date time.Time
	src := -2
	if own {
		date, src = ownDate, -1
	}
	if key == 0 {
		return f, date, src
	}
	if len(x.sources) > 0 {
		if e != nil {
			ownHas := f.Has
			f = f.Override(e.flags)
			// The file's own answers the join did not replace, and its own
			// lists the join's merely stand beside, rest on its date too.
			kept := (f.Has&^e.flags.Has | ownHas&perFile) &^ undatedKinds
			ownCounts := false
			for _, k := range kept.List() {
				ownCounts = ownCounts || f.of[k] != Flagged
			}
			switch {
			case !own || !ownCounts:
				date, src = e.date, int(e.src)
			case e.date.IsZero() || !ownDate.IsZero() && e.date.Before(ownDate):
				date, src = e.date, int(e.src)
			}
		} else {
			f = f.Override(notFound)
		}
	}
	if x.internalOn {
		if x.internal.Has(key) {
			f.Set(Company, Flagged)
		} else {
			f.Set(Company, Clean)
		}
	}
	return f, date, src
}

// Reports are the lists the index's results answer.
func (x *FlagIndex) Reports() Kinds { return x.reports }

// Len is the number of numbers held.
func (x *FlagIndex) Len() int { return len(x.entries) }

// Sources are the results added, in order.
func (x *FlagIndex) Sources() []Source { return x.sources }
