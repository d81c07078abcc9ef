package calltime

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Kind is what a row of the rules table says.
type Kind string

// The kinds of rules (see the header of data/rules.csv).
const (
	KindWindow      Kind = "window"      // calls only from–until on its days
	KindBan         Kind = "ban"         // no calls on its days
	KindPresumption Kind = "presumption" // the state's area codes count as its residents
	KindCap         Kind = "cap"         // calls per number per 24 hours (Value)
	KindAutodial    Kind = "autodial"    // autodialed calls need written consent (Value: wireless, any)
	KindOptOut      Kind = "optout"      // how opt-outs are honoured and kept
	KindRecords     Kind = "records"     // how long records are kept
	KindNotice      Kind = "notice"      // shown, never applied by itself
)

var kinds = []Kind{KindWindow, KindBan, KindPresumption, KindCap, KindAutodial, KindOptOut, KindRecords, KindNotice}

// Federal is the State of the rows that apply everywhere.
const Federal = "US"

// Clock is a time of day in minutes after midnight; 24:00 is 1440.
type Clock int

func (c Clock) String() string { return fmt.Sprintf("%02d:%02d", int(c)/60, int(c)%60) }

// Rule is one row of the rules table.
type Rule struct {
	Line        int // its line in the file
	Kind        Kind
	State       string // postal code, or Federal
	Days        Days
	From, Until Clock
	Clock       *time.Location // nil: the called person's local time
	ClockName   string         // as written ("UTC-06:00"); "" for local time
	Value       string
	Effective   string // YYYY-MM-DD; "" when in force and the date is not recorded
	Source      string
	Note        string
}

// InForce says whether the rule applies on a civil date (YYYY-MM-DD).
func (r *Rule) InForce(date string) bool { return r.Effective == "" || date >= r.Effective }

// Days are the days a rule covers: weekdays, or dates.
type Days struct {
	Text     string // as written
	weekdays uint8  // bit per time.Weekday
	dates    []string
}

// Has says whether the civil date d (YYYY-MM-DD) on weekday wd is covered.
func (d Days) Has(date string, wd time.Weekday) bool {
	if d.weekdays&(1<<wd) != 0 {
		return true
	}
	_, found := slices.BinarySearch(d.dates, date)
	return found
}

// Dates are the dates listed (none for a weekday rule).
func (d Days) Dates() []string { return d.dates }

var weekdaySets = map[string]uint8{
	"all": 0x7f, "mon-sat": 0x7e, "mon-fri": 0x3e, "sat": 1 << time.Saturday, "sun": 1 << time.Sunday,
}

func parseDays(s string) (Days, error) {
	d := Days{Text: s}
	if s == "" {
		return d, nil
	}
	if w, ok := weekdaySets[s]; ok {
		d.weekdays = w
		return d, nil
	}
	for _, f := range strings.Fields(s) {
		if _, err := time.Parse(time.DateOnly, f); err != nil {
			return d, fieldErr("days", "%q is neither all, mon-sat, mon-fri, sat, sun nor dates (YYYY-MM-DD)", f)
		}
		d.dates = append(d.dates, f)
	}
	slices.Sort(d.dates)
	return d, nil
}

// Table is the rules table: dated rows, with the version of the file.
type Table struct {
	Version string
	Rules   []*Rule
	byState map[string][]*Rule
}

// State returns the rows of one state (Federal for the federal ones).
func (t *Table) State(code string) []*Rule { return t.byState[code] }

// States lists the states that have rows, Federal first.
func (t *Table) States() []string {
	var out []string
	for s := range t.byState {
		if s != Federal {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return append([]string{Federal}, out...)
}

// Of returns the rows of a kind for a state and the federal ones.
func (t *Table) Of(kind Kind, state string) []*Rule {
	states := []string{Federal}
	if state != Federal {
		states = append(states, state)
	}
	var out []*Rule
	for _, s := range states {
		for _, r := range t.byState[s] {
			if r.Kind == kind {
				out = append(out, r)
			}
		}
	}
	return out
}

// ParseTable reads a rules table (the format of data/rules.csv). name is
// the file's name for errors.
func ParseTable(raw []byte, name string) (*Table, error) {
	t := &Table{byState: map[string][]*Rule{}}
	for _, l := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "# version:"); ok {
			t.Version = strings.TrimSpace(v)
			break
		}
	}
	if t.Version == "" {
		return nil, &DataError{File: name, Msg: `no "# version:" line`}
	}
	err := eachRecord(raw, name, func(rec []string, line int) error {
		r, err := parseRule(rec)
		if err != nil {
			return err
		}
		r.Line = line
		t.Rules = append(t.Rules, r)
		t.byState[r.State] = append(t.byState[r.State], r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(t.Of(KindWindow, Federal)) == 0 {
		return nil, &DataError{File: name, Msg: "no federal calling window (kind window, state US)"}
	}
	return t, nil
}

const ruleFields = "kind,state,days,from,until,clock,value,effective,source,note"

func parseRule(rec []string) (*Rule, error) {
	if len(rec) != 10 {
		return nil, fieldErr("", "%d fields, want 10 (%s)", len(rec), ruleFields)
	}
	r := &Rule{Kind: Kind(rec[0]), State: rec[1], Value: rec[6], Effective: rec[7], Source: rec[8], Note: rec[9], ClockName: rec[5]}
	if !slices.Contains(kinds, r.Kind) {
		return nil, fieldErr("kind", "%q is not a kind of rule", rec[0])
	}
	if _, ok := StateCode(r.State); !ok && r.State != Federal {
		return nil, fieldErr("state", "%q is not a state's postal code or US", r.State)
	}
	if r.Source == "" {
		return nil, fieldErr("source", "every rule cites its source")
	}
	if r.Effective != "" {
		if _, err := time.Parse(time.DateOnly, r.Effective); err != nil {
			return nil, fieldErr("effective", "%q is not a date (YYYY-MM-DD)", r.Effective)
		}
	}
	var err error
	if r.Days, err = parseDays(rec[2]); err != nil {
		return nil, err
	}
	if err := r.parseTimes(rec[3], rec[4]); err != nil {
		return nil, err
	}
	return r, r.check()
}

func (r *Rule) parseTimes(from, until string) error {
	var err error
	if r.Kind != KindWindow {
		if from != "" || until != "" || r.ClockName != "" {
			return fieldErr("from", "only a window has from, until and clock")
		}
		return nil
	}
	if r.From, err = parseClock("from", from); err != nil {
		return err
	}
	if r.Until, err = parseClock("until", until); err != nil {
		return err
	}
	if r.From >= r.Until {
		return fieldErr("until", "%s is not after %s", r.Until, r.From)
	}
	if r.ClockName != "" {
		off, ok := parseOffset(r.ClockName)
		if !ok {
			return fieldErr("clock", "%q is not an offset like UTC-06:00", r.ClockName)
		}
		r.Clock = off
	}
	return nil
}

// check holds each kind to the fields it needs.
func (r *Rule) check() error {
	switch r.Kind {
	case KindWindow, KindBan:
		if r.Days.Text == "" {
			return fieldErr("days", "a %s needs its days", r.Kind)
		}
	case KindCap:
		if n, err := strconv.Atoi(r.Value); err != nil || n < 1 {
			return fieldErr("value", "a cap needs a number of calls, not %q", r.Value)
		}
	case KindAutodial:
		if r.Value != "wireless" && r.Value != "any" {
			return fieldErr("value", `an autodial rule is "wireless" or "any", not %q`, r.Value)
		}
	case KindOptOut, KindRecords:
		if _, _, err := r.Keep(); err != nil {
			return err
		}
	}
	return nil
}

// Keep reads the value of an optout or records row: how many years an entry
// is kept (0 for the "honour N business days" row) and whether it covers
// text opt-outs only.
func (r *Rule) Keep() (years int, textOnly bool, err error) {
	v := r.Value
	if _, ok := strings.CutPrefix(v, "honour "); ok {
		return 0, false, nil
	}
	v, textOnly = strings.CutSuffix(v, " text")
	n, ok := strings.CutSuffix(v, "y")
	years, convErr := strconv.Atoi(n)
	if !ok || convErr != nil || years < 1 {
		return 0, false, fieldErr("value", `%q is neither "honour N business days" nor a number of years like "5y"`, r.Value)
	}
	return years, textOnly, nil
}

// HonourDays reads "honour N business days" (0 when the row is not one).
func (r *Rule) HonourDays() int {
	var n int
	if _, err := fmt.Sscanf(r.Value, "honour %d business days", &n); err != nil {
		return 0
	}
	return n
}

func parseClock(field, s string) (Clock, error) {
	h, m, ok := strings.Cut(s, ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || err1 != nil || err2 != nil || len(m) != 2 || hh < 0 || mm < 0 || mm > 59 || hh*60+mm > 1440 {
		return 0, fieldErr(field, "%q is not a time of day (HH:MM)", s)
	}
	return Clock(hh*60 + mm), nil
}

// parseOffset reads "UTC-06:00" (also "GMT", and "-0600", "-6").
func parseOffset(s string) (*time.Location, bool) {
	t := strings.ToUpper(strings.TrimSpace(s))
	for _, p := range []string{"UTC", "GMT"} {
		t = strings.TrimPrefix(t, p)
	}
	t = strings.TrimSpace(t)
	if t == "" || t == "Z" {
		return time.UTC, true
	}
	sign := 1
	switch t[0] {
	case '-':
		sign = -1
	case '+':
	default:
		return nil, false
	}
	t = t[1:]
	h, m, colon := strings.Cut(t, ":")
	if !colon && len(t) == 4 {
		h, m = t[:2], t[2:]
	}
	hh, err := strconv.Atoi(h)
	mm := 0
	if m != "" {
		if mm, err = strconv.Atoi(m); err != nil || len(m) != 2 {
			return nil, false
		}
	}
	if err != nil || hh > 14 || mm > 59 {
		return nil, false
	}
	off := sign * (hh*3600 + mm*60)
	return time.FixedZone(fmt.Sprintf("UTC%+03d:%02d", sign*hh, mm), off), true
}

// rulesFile is the embedded table's name in errors.
const rulesFile = "rules.csv"

var loadTable = sync.OnceValues(func() (*Table, error) {
	raw, err := dataFS.ReadFile("data/" + rulesFile)
	if err != nil {
		return nil, err
	}
	return ParseTable(bytes.Clone(raw), rulesFile)
})

// Rules returns the table SkipDesk ships with, read once.
func Rules() (*Table, error) { return loadTable() }
