package layout

import (
	"slices"

	"github.com/skipdesk/skipdesk/jobs"
)

// FlagFilter reports a filter that leaves a phone out for its flags
// ("not-dnc", "not-litigator", "callable", "callable-now"): its answer on
// the flags is the number's, whichever row the number is read in (see
// FlaggedNumbers; the calling time of "callable-now" is the row's).
func FlagFilter(f jobs.QuickFilter) bool {
	switch f {
	case jobs.QuickNotDNC, jobs.QuickNotLitigator, jobs.QuickCallable, jobs.QuickCallableNow:
		return true
	}
	return false
}

// FlaggedNumbers holds, for each flag filter, the numbers it leaves out in some
// row. The rule: a number a flag filter leaves out in one row is left out
// of every row, so that the same number read clean on one owner's row and
// flagged on another's (two scrubs, a note on one row) is never handed
// over. The viewer's quick filters and every export apply it through
// FlaggedNumbers, so that a filtered export writes exactly the rows the viewer
// shows. The zero value is not usable: NewFlaggedNumbers.
type FlaggedNumbers struct {
	fails map[uint64]uint8 // by number: bit i for jobs.QuickFilters[i]
}

// NewFlaggedNumbers returns an empty set.
func NewFlaggedNumbers() *FlaggedNumbers { return &FlaggedNumbers{fails: map[uint64]uint8{}} }

// filterBit is f's bit (its place in jobs.QuickFilters); 0 for a filter
// that is not a flag filter.
func filterBit(f jobs.QuickFilter) uint8 {
	if !FlagFilter(f) {
		return 0
	}
	return 1 << slices.Index(jobs.QuickFilters, f)
}

// Note records the flag filters of fs that phone p fails, as pass decides
// (Passes, or an export's rule with the person's choices). A phone whose
// number is not valid is nobody else's: it is not recorded.
func (s *FlaggedNumbers) Note(p *Phone, fs []jobs.QuickFilter, pass func(jobs.QuickFilter, *Phone) bool) {
	if p.Key == 0 {
		return
	}
	for _, f := range fs {
		if FlagFilter(f) && !pass(f, p) {
			s.Fail(p.Key, f)
		}
	}
}

// Fail records that flag filter f left number key out of a row.
func (s *FlaggedNumbers) Fail(key uint64, f jobs.QuickFilter) {
	if b := filterBit(f); b != 0 && key != 0 {
		s.fails[key] |= b
	}
}

// Merge adds the numbers of o.
func (s *FlaggedNumbers) Merge(o *FlaggedNumbers) {
	for k, m := range o.fails {
		s.fails[k] |= m
	}
}

// Fails reports whether flag filter f left number key out in a row noted.
func (s *FlaggedNumbers) Fails(key uint64, f jobs.QuickFilter) bool {
	b := filterBit(f)
	return b != 0 && key != 0 && s.fails[key]&b != 0
}

// FailsAny reports whether any flag filter of fs left number key out in a
// row noted.
func (s *FlaggedNumbers) FailsAny(key uint64, fs []jobs.QuickFilter) bool {
	m := s.fails[key]
	if m == 0 || key == 0 {
		return false
	}
	for _, f := range fs {
		if m&filterBit(f) != 0 {
			return true
		}
	}
	return false
}

// Keep is the package's Keep under the rule: a phone whose number a flag
// filter of fs left out in any row noted is left out of this row too.
func (s *FlaggedNumbers) Keep(row *Row, fs []jobs.QuickFilter) bool {
	kept := row.Phones[:0]
	for _, p := range row.Phones {
		if !s.FailsAny(p.Key, fs) {
			kept = append(kept, p)
		}
	}
	row.Phones = kept
	return Keep(row, fs)
}

// Len is the number of numbers left out somewhere.
func (s *FlaggedNumbers) Len() int { return len(s.fails) }

// NumberDecides reports whether every phone's flags and Block depend on its
// number alone: the file states no answer of its own for any phone (no
// flag, verdict, restriction or scope column; every answer comes from the
// join and the company's list). Then a number fails a flag filter in every
// row or in none, and FlaggedNumbers learns nothing a row does not say itself: a
// reader of the rows may apply the rule row by row, without reading the
// file first.
func (l *Layout) NumberDecides() bool {
	if l.Reports&fileWide != 0 {
		return false
	}
	for _, s := range l.Slots {
		if len(s.Flags) > 0 || len(s.Scope) > 0 {
			return false
		}
	}
	return true
}
