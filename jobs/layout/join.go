package layout

import (
	"time"
)

// Source is a DNC result whose flags a FlagIndex holds.
type Source struct {
	Name string    `json:"name"` // the file or job, as shown to the person
	Date time.Time `json:"date"` // when it was scrubbed: the newest source wins
}

// FlagIndex maps numbers (phone.Key) to their flags from one or more DNC
// results in any layout, to apply them to a trace result's phones
// (scrub-from-trace). When several results have a number, the newest
// (by Source.Date, then the one added last) wins whole; within one result,
// rows of the same number are merged (flagged wins).
//
// The index also carries what applies to every phone read with it: the
// company's own do-not-call list (SetInternal) and the dates of the scrubs
// (SetDates), which make an answer older than the registry data may be
// used stale. An index with no DNC result does only that.
type FlagIndex struct {
	m       map[uint64]joinEntry
	sources []Source
	reports Kinds

	earlier    map[uint64]earlierAnswer // answers before the file's own (SetEarlier)
	internal   NumberSet
	internalOn bool
	own        time.Time // when the file's own flags were scrubbed
	now        time.Time // zero: no scrub is judged stale
	maxAge     time.Duration
}

type joinEntry struct {
	flags Flags
	src   int32
	// prev is the answer of the newest older source that has the number
	// (prevSrc -1: none): what changed since the scrub before.
	prev    Flags
	prevSrc int32
}

// NewFlagIndex returns an empty index.
func NewFlagIndex() *FlagIndex { return &FlagIndex{m: map[uint64]joinEntry{}} }

// AddSource registers a DNC result read with layout l and returns its id
// for AddRow.
func (x *FlagIndex) AddSource(s Source, l *Layout) int {
	x.sources = append(x.sources, s)
	x.reports |= l.Reports
	return len(x.sources) - 1
}

// AddRow adds the valid phones of a row of source src (read without a
// join).
func (x *FlagIndex) AddRow(src int, row *Row) {
	for i := range row.Phones {
		p := &row.Phones[i]
		if p.Key == 0 {
			continue
		}
		x.add(src, p.Key, p.Flags)
	}
}

func (x *FlagIndex) add(src int, key uint64, f Flags) {
	old, ok := x.m[key]
	switch {
	case !ok:
		x.m[key] = joinEntry{flags: f, src: int32(src), prevSrc: -1}
	case int(old.src) == src:
		old.flags = old.flags.Merge(f)
		x.m[key] = old
	case x.newer(src, int(old.src)):
		// The winner so far becomes the answer before, unless an answer
		// older than it but newer than its own before is kept.
		x.m[key] = joinEntry{flags: f, src: int32(src), prev: old.flags, prevSrc: old.src}
	case old.prevSrc < 0 || x.newer(src, int(old.prevSrc)):
		old.prev, old.prevSrc = f, int32(src)
		x.m[key] = old
	case int(old.prevSrc) == src:
		old.prev = old.prev.Merge(f)
		x.m[key] = old
	}
}

// changeBlocks are the answers a later scrub can turn: the lists.
const changeBlocks = BlockFederal | BlockState | BlockLitigator | BlockCombined

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
func (x *FlagIndex) changeOf(key uint64, f Flags, own bool) (Block, time.Time) {
	if e, ok := x.m[key]; ok {
		if e.prevSrc < 0 {
			return 0, time.Time{}
		}
		return x.Change(key)
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
	e, ok := x.m[key]
	if !ok || e.prevSrc < 0 {
		return 0, time.Time{}
	}
	now, before := Callability(true, e.flags)&changeBlocks, Callability(true, e.prev)&changeBlocks
	return now &^ before, x.sources[e.prevSrc].Date
}

// newer reports whether source a wins over source b.
func (x *FlagIndex) newer(a, b int) bool {
	da, db := x.sources[a].Date, x.sources[b].Date
	if !da.Equal(db) {
		return da.After(db)
	}
	return a > b
}

// Lookup returns the flags of a number and the result they come from.
func (x *FlagIndex) Lookup(key uint64) (Flags, Source, bool) {
	e, ok := x.m[key]
	if !ok {
		return Flags{}, Source{}, false
	}
	return e.flags, x.sources[e.src], true
}

// notFound are the flags of a number no DNC result holds: unknown on the
// registries and the litigator list.
var notFound = Flags{Has: Kinds(0).with(Federal).with(Litigator)}

// NumberSet is a set of numbers by phone.Key (phone.KeySet).
type NumberSet interface {
	Has(key uint64) bool
	Len() int
}

// MaxScrubAge is how old a registry answer may be when a call is made from
// it: 31 days (16 CFR 310.4(b)(3)(iv)).
const MaxScrubAge = 31 * 24 * time.Hour

// SetInternal applies the company's own do-not-call list to every phone
// read with the index: flagged when the list has the number, clean when it
// does not (the list is the company's own: it is never unknown).
func (x *FlagIndex) SetInternal(keys NumberSet) {
	x.internal, x.internalOn = keys, true
	x.reports = x.reports.with(Internal)
}

// SetDates says when the file's own flags were scrubbed (own; zero when it
// has none) and judges answers older than maxAge at now stale: such a phone
// is not callable (BlockStale) until it is scrubbed again.
func (x *FlagIndex) SetDates(own, now time.Time, maxAge time.Duration) {
	x.own, x.now, x.maxAge = own, now, maxAge
}

// apply gives a phone's flags read with the index, and when the scrub that
// answered for it was made. own says the file itself answers for it.
func (x *FlagIndex) apply(key uint64, f Flags, own bool) (Flags, time.Time) {
	var date time.Time
	if own {
		date = x.own
	}
	if key == 0 {
		return f, date
	}
	if len(x.sources) > 0 {
		if e, ok := x.m[key]; ok {
			f, date = f.Override(e.flags), x.sources[e.src].Date
		} else {
			f = f.Override(notFound)
		}
	}
	if x.internalOn {
		if x.internal.Has(key) {
			f.Set(Internal, Flagged)
		} else {
			f.Set(Internal, Clean)
		}
	}
	return f, date
}

// stale reports whether an answer scrubbed at date is too old to call on.
func (x *FlagIndex) stale(date time.Time) bool {
	return !x.now.IsZero() && !date.IsZero() && x.now.Sub(date) > x.maxAge
}

// Reports are the lists the index's results answer.
func (x *FlagIndex) Reports() Kinds { return x.reports }

// Len is the number of numbers held.
func (x *FlagIndex) Len() int { return len(x.m) }

// Sources are the results added, in order.
func (x *FlagIndex) Sources() []Source { return x.sources }
