package layout

import (
	"errors"
	"fmt"
	"slices"

	"github.com/skipdesk/skipdesk/jobs"
)

// The quick filters are the domain's words (jobs.QuickFilter); here are
// their rules.
//
// "matched" is a row filter: it keeps the rows whose match status says the
// person was found (an unknown status is not kept). The others are phone
// filters: in each row they keep only the phones that pass, and drop the
// row when no phone is left (a row with no phone at all is dropped too):
//
//   - "mobile": the phone is a mobile (by its type column, or its column's
//     name such as "Mobile 2");
//   - "not-dnc": every do-not-call answer reported for the phone (federal,
//     the file's DNC, state, industry, internal, combined, the company's
//     list, a restriction the file states) is clean, and the registry is
//     answered: unknown is not clean, and neither is an answer from a scrub
//     older than 31 days or of no known date;
//   - "not-litigator": its litigator flag (or a combined verdict) is clean;
//   - "callable": the phone may be called (Callability): a valid number,
//     clean on every list the call depends on;
//   - "callable-now": callable, and every calling window of the places its
//     person may be is open at the view's instant (jobs/calltime: Passes
//     says the first part, the reader who knows the instant the second).
//
// Row-level flags (a "Litigator" column that names no phone) are flags of
// every phone of the row, so phone filters read them phone by phone.

// PhoneLevel reports whether the filter keeps phones (rather than rows).
func PhoneLevel(f jobs.QuickFilter) bool { return f != jobs.QuickMatched }

// CannotFilterError says why a filter cannot apply to a layout.
type CannotFilterError struct {
	Filter jobs.QuickFilter
	Why    string
}

func (e *CannotFilterError) Error() string {
	return fmt.Sprintf("the %q filter cannot apply: %s", e.Filter, e.Why)
}

// Check tells whether the filters can apply to rows of this layout read with
// join (nil: the file's own flags only). A filter that cannot apply is an
// error saying why (every such filter, joined), never a silently empty view.
func (l *Layout) Check(join *FlagIndex, fs ...jobs.QuickFilter) error {
	reports := l.Reports
	if join != nil {
		reports |= join.Reports()
	}
	typed := slices.ContainsFunc(l.Slots, func(s Slot) bool { return s.Type >= 0 || s.Implied != "" })
	var errs []error
	for _, f := range fs {
		if why := l.cannotFilter(f, reports, typed); why != "" {
			errs = append(errs, &CannotFilterError{Filter: f, Why: why})
		}
	}
	return errors.Join(errs...)
}

// cannotFilter is why filter f cannot apply to rows of this layout whose
// lists answered are reports and whose phones' types are known (typed);
// "" when it can.
func (l *Layout) cannotFilter(f jobs.QuickFilter, reports Kinds, typed bool) string {
	switch {
	case !slices.Contains(jobs.QuickFilters, f):
		return "no such filter"
	case f == jobs.QuickMatched && l.Match < 0:
		return "the result has no match status column"
	case PhoneLevel(f) && len(l.Slots) == 0:
		return "the result has no phone column"
	case f == jobs.QuickMobile && !typed:
		return "the result says nothing of phone types (no type column, no column named mobile, cell...)"
	case (f == jobs.QuickNotDNC || f.Callable()) && reports&registry == 0:
		return "the result has no DNC flags: scrub its phones first"
	case (f == jobs.QuickNotLitigator || f.Callable()) && reports&litigator == 0:
		return "the result has no litigator flag: scrub its phones first"
	}
	return ""
}

const (
	dncBlocks = BlockFederal | BlockDNC | BlockState | BlockInternal | BlockIndustry | BlockCombined | BlockCompany |
		BlockRestriction | BlockUnknownDNC | BlockUnknownState | BlockUnknownInternal | BlockUnknownIndustry |
		BlockUnknownRestriction | BlockStale | BlockUndated | BlockUnsure | BlockAbroad
	litigatorBlocks = BlockLitigator | BlockCombined | BlockUnknownLitigator | BlockUnsure
)

// Passes reports whether a phone passes a phone filter.
func Passes(f jobs.QuickFilter, p *Phone) bool {
	switch f {
	case jobs.QuickMobile:
		return p.Type == Mobile
	case jobs.QuickNotDNC:
		return p.Block&dncBlocks == 0
	case jobs.QuickNotLitigator:
		return p.Block&litigatorBlocks == 0
	case jobs.QuickCallable, jobs.QuickCallableNow:
		// "callable-now" also needs the phone's calling windows open at
		// the view's instant: the reader of the rows, which knows the
		// instant, asks calltime.Places for that part.
		return p.Block == 0
	}
	return true
}

// Keep applies the filters to a row: the row filter decides on the row,
// the phone filters drop the phones that fail them from row.Phones. It
// reports whether the row is kept (a row left with no phone is not, when a
// phone filter is given).
func Keep(row *Row, fs []jobs.QuickFilter) bool {
	phones := false
	for _, f := range fs {
		if f == jobs.QuickMatched {
			if row.Match != Matched {
				return false
			}
			continue
		}
		phones = true
	}
	if !phones {
		return true
	}
	kept := row.Phones[:0]
	for i := range row.Phones {
		ok := true
		for _, f := range fs {
			if PhoneLevel(f) && !Passes(f, &row.Phones[i]) {
				ok = false
				break
			}
		}
		if ok {
			kept = append(kept, row.Phones[i])
		}
	}
	row.Phones = kept
	return len(kept) > 0
}
