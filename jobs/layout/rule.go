package layout

import (
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Block is why a phone may not be called; zero means it may. Several reasons
// can hold at once.
type Block uint32

const (
	BlockInvalid            Block = 1 << iota // the number is not a valid US number, or the service says so
	BlockFederal                              // on the national DNC registry
	BlockState                                // on a state DNC list
	BlockLitigator                            // on the litigator list
	BlockInternal                             // on the file's own internal list
	BlockCombined                             // on a DNC or the litigator list (a combined verdict)
	BlockUnknownDNC                           // whether it is on a DNC registry is not known
	BlockUnknownLitigator                     // whether it is on the litigator list is not known
	BlockUnknownState                         // a state list was checked, its answer is not known
	BlockUnknownInternal                      // the file's internal list was checked, its answer is not known
	BlockStale                                // the scrub that answered is older than the registry data may be used (31 days)
	BlockDNC                                  // on the file's DNC list (a column that names no list)
	BlockIndustry                             // on a DMA or other industry list
	BlockUnknownIndustry                      // an industry list was checked, its answer is not known
	BlockRestriction                          // the file says not to call it (a status, tag or note)
	BlockUnknownRestriction                   // the file says something of it that may be a restriction
	BlockCompany                              // on the company's own do-not-call list
	BlockUndated                              // when the answering scrub was made is not known (or is in the future)
	BlockUnsure                               // an open question about a column its answer depends on
	BlockUnknownNumber                        // the file says something of the number's status it cannot read
	BlockAbroad                               // outside the US (Canada, the Caribbean): its own country's lists are not checked
)

var blockWords = []struct {
	b Block
	w string
}{
	{BlockInvalid, "invalid number"},
	{BlockCompany, "company do-not-call list"},
	{BlockAbroad, "outside the US: its country's do-not-call list not checked"},
	{BlockFederal, "federal DNC"},
	{BlockDNC, "DNC"},
	{BlockState, "state DNC"},
	{BlockLitigator, "litigator"},
	{BlockInternal, "internal DNC (the file's)"},
	{BlockIndustry, "industry list"},
	{BlockRestriction, "the file says do not call"},
	{BlockCombined, "DNC or litigator"},
	{BlockUnsure, "open question about a column"},
	{BlockUnknownDNC, "DNC unknown"},
	{BlockUnknownLitigator, "litigator unknown"},
	{BlockUnknownState, "state DNC unknown"},
	{BlockUnknownInternal, "internal DNC (the file's) unknown"},
	{BlockUnknownIndustry, "industry list unknown"},
	{BlockUnknownRestriction, "the file's notes unclear"},
	{BlockUnknownNumber, "number status unknown"},
	{BlockStale, "scrub over 31 days old"},
	{BlockUndated, "scrub date not known"},
}

// String gives the reasons in words ("federal DNC, litigator"); "callable"
// for none.
func (b Block) String() string {
	if b == 0 {
		return "callable"
	}
	var parts []string
	for _, x := range blockWords {
		if b&x.b != 0 {
			parts = append(parts, x.w)
		}
	}
	return strings.Join(parts, ", ")
}

// Primary is the first reason, in words, in the order String lists them
// ("invalid number" before "federal DNC"…): one reason a phone is counted
// under. "callable" for none.
func (b Block) Primary() string {
	for _, x := range blockWords {
		if b&x.b != 0 {
			return x.w
		}
	}
	return "callable"
}

// UnknownBlocks are the reasons that say a list's answer is not known.
const UnknownBlocks = BlockUnknownDNC | BlockUnknownLitigator | BlockUnknownState | BlockUnknownInternal |
	BlockUnknownIndustry | BlockUnknownRestriction | BlockUnknownNumber

// DateBlocks are the reasons that say the answer's date does not allow the
// call.
const DateBlocks = BlockStale | BlockUndated

// ListedBlocks are the reasons no newer scrub lifts: a list the number is
// on (a flagged answer stays flagged, whatever answers after it), a
// restriction the file states, the company's own list.
const ListedBlocks = BlockFederal | BlockState | BlockLitigator | BlockInternal | BlockCombined | BlockDNC |
	BlockIndustry | BlockRestriction | BlockCompany

// Unknown reports whether some list the call depends on is not known.
func (b Block) Unknown() bool { return b&UnknownBlocks != 0 }

// MarshalText writes the reasons in words.
func (b Block) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// listRule is how one list's answer blocks a call.
type listRule struct {
	kind             FlagKind
	flagged, unknown Block
}

var listRules = []listRule{
	{Federal, BlockFederal, BlockUnknownDNC},
	{DNC, BlockDNC, BlockUnknownDNC},
	{State, BlockState, BlockUnknownState},
	{StateNamed, BlockState, BlockUnknownState},
	{Litigator, BlockLitigator, BlockUnknownLitigator},
	{Internal, BlockInternal, BlockUnknownInternal},
	{Combined, BlockCombined, BlockUnknownDNC | BlockUnknownLitigator},
	{Industry, BlockIndustry, BlockUnknownIndustry},
	{Restriction, BlockRestriction, BlockUnknownRestriction},
	{Company, BlockCompany, BlockCompany},
}

// Callability is the lists part of the rule (see Judge): the number must be
// valid (and not reported invalid); the DNC registry must be answered (by a
// federal column, the file's DNC column or a combined verdict) and the
// litigator list too (a litigator column or a combined verdict); and every
// list reported — those, each state list, the file's internal and industry
// lists, every restriction the file states, the company's list — must be
// clean. Anything unknown blocks the call.
func Callability(valid bool, f Flags) Block {
	var b Block
	if !valid {
		b |= BlockInvalid
	}
	for _, r := range listRules {
		if !f.Has.Has(r.kind) {
			continue
		}
		switch f.of[r.kind] {
		case Flagged:
			b |= r.flagged
		case Unknown:
			b |= r.unknown
		}
	}
	if f.Has.Has(Number) {
		switch f.of[Number] {
		case Flagged:
			b |= BlockInvalid
		case Unknown:
			b |= BlockUnknownNumber
		}
	}
	if f.Has&registry == 0 {
		b |= BlockUnknownDNC
	}
	if f.Has&litigator == 0 {
		b |= BlockUnknownLitigator
	}
	if b&BlockInvalid != 0 {
		// An invalid number is not callable whatever the lists say;
		// that nobody checked them is no further reason.
		b &^= UnknownBlocks
	}
	return b
}

// MaxScrubAge is how old a registry answer may be when a call is made from
// it: 31 days (16 CFR 310.4(b)(3)(iv)).
const MaxScrubAge = 31 * 24 * time.Hour

// clockSkew is how far in the future a scrub date may lie before it is
// refused (clocks and time zones differ a little).
const clockSkew = 24 * time.Hour

// Judge is the one rule that decides whether a phone may be called at now:
// the lists (Callability), then the date of the scrub that answered for it
// (scrubbed, the oldest date among the answers the decision rests on): it
// must be known, not in the future, and at most MaxScrubAge before now. A
// number that is not valid needs no date. A number outside the United
// States (phone.Abroad: Canada, the Caribbean) is never callable: its own
// country's lists are not checked. Every feature that decides callability
// reads the Block a Reader gives each phone (key its number, 0 when not
// valid), which comes from here.
func Judge(key uint64, f Flags, scrubbed, now time.Time) Block {
	b := Callability(key != 0, f)
	if phone.Abroad(key) != "" {
		// A US scrub says nothing of a Canadian or Caribbean number's
		// own country's lists.
		b |= BlockAbroad
	}
	if b&^UnknownBlocks != 0 {
		return b // flagged or invalid: the date changes nothing
	}
	if now.IsZero() {
		now = time.Now()
	}
	switch {
	case !f.cleanDated():
		// No clean answer rests on a date: the unknown lists say why.
	case scrubbed.IsZero() || scrubbed.After(now.Add(clockSkew)):
		b |= BlockUndated
	case now.Sub(scrubbed) > MaxScrubAge:
		b |= BlockStale
	}
	return b
}
