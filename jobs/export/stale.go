package export

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// StaleError says that a callable export would keep phones only a scrub
// older than the registry data may be used (31 days) clears. Nothing is
// written; the person scrubs those numbers again or leaves them out.
type StaleError struct {
	// Scrubs are the stale scrubs, oldest first.
	Scrubs []StaleScrub
	// Numbers are the stale phones' numbers (10 digits, each once, sorted):
	// the list to scrub again.
	Numbers []string
}

// StaleScrub is one scrub whose answers are too old.
type StaleScrub struct {
	Name   string    // the DNC result's file name, or the result's own
	Date   time.Time // when it was scrubbed
	Phones int       // the phones that would be called on it
}

func (e *StaleError) Error() string {
	s := e.Scrubs[0]
	var msg string
	if s.Date.IsZero() {
		msg = fmt.Sprintf("the DNC answers of %s have no scrub date SkipDesk can trust (no job record, no scrub date column, a date it cannot read, or one in the future): %s would be called on them",
			s.Name, jobs.Plural(int64(len(e.Numbers)), "phone", "phones"))
	} else {
		msg = fmt.Sprintf("the DNC scrub %s of %s is more than 31 days old (usable until %s): %s would be called on it",
			s.Name, s.Date.Local().Format("Jan 2, 2006"), s.Date.Add(layout.MaxScrubAge).Local().Format("Jan 2, 2006"),
			jobs.Plural(int64(len(e.Numbers)), "phone", "phones"))
	}
	if n := len(e.Scrubs) - 1; n > 0 {
		msg += fmt.Sprintf(" (with %s)", jobs.Plural(int64(n), "more stale scrub", "more stale scrubs"))
	}
	return msg + "; nothing was written. Scrub those numbers again, or leave them out of the list"
}

// staleSet gathers the phones only a stale scrub clears: each number with
// the scrub its answer rests on (a key of scrubs).
type staleSet struct {
	numbers map[uint64]string
	scrubs  map[string]*StaleScrub
}

func newStaleSet() *staleSet {
	return &staleSet{numbers: map[uint64]string{}, scrubs: map[string]*StaleScrub{}}
}

func (s *staleSet) len() int { return len(s.numbers) }

func (s *staleSet) add(p *layout.Phone, join *layout.FlagIndex) {
	if _, seen := s.numbers[p.Key]; seen {
		return
	}
	name := "this result's own flags"
	if join != nil && p.Source >= 0 {
		name = filepath.Base(join.Sources()[p.Source].Name)
	}
	s.put(p.Key, StaleScrub{Name: name, Date: p.Scrubbed})
}

// put adds number key, whose answer rests on scrub sc (its Phones not
// read), counting it once.
func (s *staleSet) put(key uint64, sc StaleScrub) {
	k := sc.Name + "\x00" + sc.Date.String()
	s.numbers[key] = k
	have := s.scrubs[k]
	if have == nil {
		have = &StaleScrub{Name: sc.Name, Date: sc.Date}
		s.scrubs[k] = have
	}
	have.Phones++
}

// merge adds the phones of o that s does not hold.
func (s *staleSet) merge(o *staleSet) {
	for key, k := range o.numbers {
		if _, seen := s.numbers[key]; !seen {
			s.put(key, *o.scrubs[k])
		}
	}
}

func (s *staleSet) err() *StaleError {
	e := &StaleError{}
	for _, sc := range s.scrubs {
		e.Scrubs = append(e.Scrubs, *sc)
	}
	slices.SortFunc(e.Scrubs, func(a, b StaleScrub) int {
		if c := a.Date.Compare(b.Date); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	for k := range s.numbers {
		e.Numbers = append(e.Numbers, phone.KeyDigits(k))
	}
	slices.Sort(e.Numbers)
	return e
}
