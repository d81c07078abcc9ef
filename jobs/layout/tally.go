package layout

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Tally counts, over a whole file, how each value of the layout's flag,
// match status and phone type columns was read. Any row reader can feed it
// (Add), one row at a time; it keeps at most maxDistinct values a column.
type Tally struct {
	l      *Layout
	cols   []int
	counts []valueCache[int]
	over   []int // rows whose value was beyond maxDistinct
	quiet  []int // rows of a text column whose value states no restriction
	rows   int
	phones PhoneCounts
}

// PhoneCounts count the phones of a file.
type PhoneCounts struct {
	Valid   int `json:"valid"`
	Invalid int `json:"invalid"`
}

const maxDistinct = 64

// NewTally returns an empty tally of the layout's columns.
func (l *Layout) NewTally() *Tally {
	t := &Tally{l: l}
	seen := map[int]bool{}
	add := func(i int) {
		if i >= 0 && !seen[i] {
			seen[i] = true
			t.cols = append(t.cols, i)
		}
	}
	for _, s := range l.Slots {
		for _, f := range s.Flags {
			if f != s.Number { // a listed column's values are its numbers
				add(f)
			}
		}
		for _, f := range s.Scope {
			add(f)
		}
		add(s.Type)
	}
	for _, d := range l.Dates {
		add(d)
	}
	for _, s := range l.Slots {
		for _, d := range s.Dates {
			add(d)
		}
	}
	add(l.Match)
	slices.Sort(t.cols)
	t.counts = make([]valueCache[int], len(t.cols))
	t.over = make([]int, len(t.cols))
	t.quiet = make([]int, len(t.cols))
	return t
}

// Add counts one row.
func (t *Tally) Add(rec []string) {
	t.rows++
	for k, c := range t.cols {
		v, quiet := t.valueOf(c, cell(rec, c))
		if quiet {
			t.quiet[k]++
			continue
		}
		c := &t.counts[k]
		switch i := c.find(v); {
		case i >= 0:
			c.vals[i]++
		case len(c.keys) < maxDistinct:
			c.add(v, 1)
		default:
			t.over[k]++
		}
	}
	for i := range t.l.Slots {
		key, _, ok := slotNumber(rec, &t.l.Slots[i])
		if !ok {
			continue
		}
		if key != 0 {
			t.phones.Valid++
		} else {
			t.phones.Invalid++
		}
	}
}

// valueOf is cell v of column c as the tally counts it: trimmed, a cell of
// phone numbers of a column of numbers (ConvNumbers) as NumbersValue;
// quiet for a text column's value that states no restriction.
func (t *Tally) valueOf(c int, v string) (_ string, quiet bool) {
	if blank(v) {
		v = ""
	} else if v[0] == ' ' || v[len(v)-1] == ' ' {
		v = strings.TrimSpace(v)
	}
	col := &t.l.Columns[c]
	switch {
	case col.Convention == ConvNumbers:
		if _, ok := phone.KeysIn(v); ok {
			v = NumbersValue // one line for all, not one a number
		}
	case col.Convention == ConvText && col.Role == RoleFlag:
		if x := t.l.readValue(c, v); x.known && x.flag == Clean {
			return v, true
		}
	}
	return v, false
}

// Rows is the number of rows counted.
func (t *Tally) Rows() int { return t.rows }

// Phones counts the valid and invalid phones seen.
func (t *Tally) Phones() PhoneCounts { return t.phones }

// Reading is how one column's values were read, with counts.
type Reading struct {
	Column     string     `json:"column"`
	Role       Role       `json:"role"`
	Kind       string     `json:"kind,omitempty"` // flag columns: the list
	List       string     `json:"list,omitempty"` // flag columns: the list in words
	Convention Convention `json:"convention,omitempty"`
	// For names the phones the column answers for: "every phone of the
	// row", or the slots' labels.
	For    string       `json:"for,omitempty"`
	Values []ValueCount `json:"values"`
	// OtherCount counts the rows whose value was not among the first
	// distinct values listed (a column of free text).
	OtherCount int `json:"other_count,omitempty"`
}

// ValueCount is one value of a column, how it reads, and how many rows hold
// it.
type ValueCount struct {
	Value   string `json:"value"`
	Reads   string `json:"reads"` // flags: flagged, clean, invalid, unknown; match: matched, not matched, unknown; types: the type or unknown
	Meaning string `json:"meaning,omitempty"`
	Count   int    `json:"count"`
}

var readsOrder = map[string]int{"flagged": 0, "matched": 0, "invalid": 1, "clean": 2, "not matched": 2,
	"scrubbed": 2, "not scrubbed": 3, "unknown": 9}

// NumbersValue stands in a Tally for every cell of phone numbers of a
// column of numbers on a list (ConvNumbers).
const NumbersValue = "(phone numbers)"

// reads says how value v of column i reads, in a word, and what it means.
func (l *Layout) reads(i int, v string) (string, string) {
	col := &l.Columns[i]
	switch col.Role {
	case RoleFlag:
		return l.flagReads(i, v)
	case RoleMatch:
		return matchOf(v).String(), ""
	case RolePhoneType:
		if typ := l.readTypeValue(i, v); typ != "" {
			return string(typ), ""
		}
		return "unknown", ""
	case RoleScope:
		if readScope(col.Inverted, v) {
			return "scrubbed", ""
		}
		return "not scrubbed", "its answers are unknown"
	case RoleScrubDate:
		t, problem := scrubDate(v, col.DateOrder, l.now)
		switch problem {
		case dateNone:
			return "unknown", "not a date: no scrub date"
		case dateFuture:
			return "unknown", "in the future: no scrub date"
		case dateMaybeFuture:
			return "unknown", maybeFutureWords + ": no scrub date"
		}
		return t.Format(time.DateOnly), "scrub date"
	}
	return "", ""
}

// flagReads says how value v of flag column i reads, and what it means.
func (l *Layout) flagReads(i int, v string) (string, string) {
	if l.Columns[i].Convention == ConvNumbers && v == NumbersValue {
		return Flagged.String(), "each number in it is on the list; the row's other phones are not answered"
	}
	x := l.readValue(i, v)
	switch {
	case x.invalid:
		return "invalid", x.meaning
	case !x.known && x.meaning == "":
		return "unknown", "not understood"
	}
	return x.flag.String(), x.meaning
}

// answersFor names the phones column i answers for: "every phone of the
// row" or the slots' labels.
func (l *Layout) answersFor(i int) string {
	col := &l.Columns[i]
	if col.Role == RoleScrubDate && slices.Contains(l.Dates, i) {
		return "every phone of the row"
	}
	var labels []string
	for _, s := range l.Slots {
		if slices.Contains(s.Flags, i) || slices.Contains(s.Scope, i) || s.Type == i || slices.Contains(s.Dates, i) {
			labels = append(labels, s.Label)
		}
	}
	switch {
	case len(labels) == 0:
		return "no phone"
	case len(labels) == len(l.Slots) && len(labels) > 1 && colKey(col).rowLevel():
		return "every phone of the row"
	}
	return strings.Join(labels, ", ")
}

// Readings are the columns' readings, in file order.
func (t *Tally) Readings() []Reading {
	out := []Reading{}
	for k, c := range t.cols {
		col := &t.l.Columns[c]
		r := Reading{Column: col.Header, Role: col.Role, OtherCount: t.over[k], For: t.l.answersFor(c)}
		if col.Role == RoleFlag {
			r.Kind, r.List, r.Convention = col.Kind.String(), col.Kind.Words(), col.Convention
		}
		for i, v := range t.counts[k].keys {
			vc := ValueCount{Value: v, Count: t.counts[k].vals[i]}
			vc.Reads, vc.Meaning = t.l.reads(c, v)
			r.Values = append(r.Values, vc)
		}
		if t.quiet[k] > 0 {
			r.Values = append(r.Values, ValueCount{Value: "(any other text)", Reads: "clean", Meaning: "no restriction stated",
				Count: t.quiet[k]})
		}
		slices.SortFunc(r.Values, func(a, b ValueCount) int {
			oa, ob := order(a.Reads), order(b.Reads)
			switch {
			case oa != ob:
				return oa - ob
			case a.Count != b.Count:
				return b.Count - a.Count
			}
			return strings.Compare(a.Value, b.Value)
		})
		out = append(out, r)
	}
	return out
}

func order(reads string) int {
	if o, ok := readsOrder[reads]; ok {
		return o
	}
	return 5
}

// String is the reading on one line, with the list the column answers for
// and the phones it answers for: "LITIGATOR (litigator, for Phone): Y ->
// flagged 12, N -> clean 300, ? -> unknown 4".
func (r Reading) String() string {
	var b strings.Builder
	b.WriteString(r.Column)
	what := r.List
	switch r.Role {
	case RoleScope:
		what = "whether the row was scrubbed"
	case RoleScrubDate:
		what = "scrub date"
	case RoleMatch:
		what = "match status"
	case RolePhoneType:
		what = "phone type"
	}
	switch {
	case what != "" && r.For != "":
		fmt.Fprintf(&b, " (%s, for %s)", what, r.For)
	case what != "":
		fmt.Fprintf(&b, " (%s)", what)
	}
	b.WriteString(":")
	for i, v := range r.Values {
		if i > 0 {
			b.WriteString(",")
		}
		val := v.Value
		if val == "" {
			val = "(blank)"
		}
		fmt.Fprintf(&b, " %s -> %s %d", val, v.Reads, v.Count)
	}
	if r.OtherCount > 0 {
		fmt.Fprintf(&b, ", other values -> unknown %d", r.OtherCount)
	}
	if len(r.Values) == 0 && r.OtherCount == 0 {
		b.WriteString(" no rows")
	}
	return b.String()
}

// Summary is a layout with the readings of a whole file: what
// "skipdesk-cli results layout" prints.
type Summary struct {
	Layout   *Layout     `json:"layout"`
	Rows     int         `json:"rows"`
	Phones   PhoneCounts `json:"phones"`
	Readings []Reading   `json:"readings"`
}

// Summary is the layout with the tally's counts.
func (t *Tally) Summary() Summary {
	return Summary{Layout: t.l, Rows: t.rows, Phones: t.phones, Readings: t.Readings()}
}
