package layout

import "strings"

// A Profile is what a whole file's columns hold: for each column its
// distinct values (trimmed) with how many rows hold each, up to a cap, and
// past the cap the values that mention a restriction. Detect decides how a
// column's values read from its profile, so that a convention is the whole
// file's and not its first rows' (a value met late that the convention does
// not cover is seen, counted and read as unknown).
type Profile struct {
	Rows int
	Cols []ColumnValues
}

// ColumnValues are a column's distinct values in a Profile.
type ColumnValues struct {
	Values []ValueN
	// Over counts the rows whose value was not kept (past the cap), and
	// Mentions the values among them that mention a restriction (up to the
	// cap).
	Over     int
	Mentions []ValueN
	// Skipped marks a column the profile did not read (its role needs no
	// whole-file values: names, addresses, e-mails, phones).
	Skipped bool
}

// ValueN is a value and how many rows hold it.
type ValueN struct {
	V string
	N int
}

// profileCap is how many distinct values a column's profile keeps. A flag,
// type or status column holds a handful; a column with more is free text.
const profileCap = 256

// Profiler builds a Profile one row at a time.
type Profiler struct {
	p     Profile
	cols  []valueCache[int] // index into p.Cols[i].Values
	ments []valueCache[int]
	read  []bool
	words []string
}

// NewProfiler profiles every column of a header of n columns, or only the
// columns given (the others are Skipped).
func NewProfiler(n int, only []int) *Profiler {
	pr := &Profiler{p: Profile{Cols: make([]ColumnValues, n)}, cols: make([]valueCache[int], n),
		ments: make([]valueCache[int], n), read: make([]bool, n)}
	for i := range pr.read {
		pr.read[i] = only == nil
	}
	for _, i := range only {
		if i >= 0 && i < n {
			pr.read[i] = true
		}
	}
	for i := range pr.p.Cols {
		pr.p.Cols[i].Skipped = !pr.read[i]
	}
	return pr
}

// Add counts one row.
func (pr *Profiler) Add(rec []string) {
	pr.p.Rows++
	for i, ok := range pr.read {
		if !ok {
			continue
		}
		v := cell(rec, i)
		if blank(v) {
			v = ""
		} else if v[0] == ' ' || v[len(v)-1] == ' ' || v[0] == '\t' {
			v = strings.TrimSpace(v)
		}
		c := &pr.p.Cols[i]
		cache := &pr.cols[i]
		if k := cache.find(v); k >= 0 {
			c.Values[cache.vals[k]].N++
			continue
		}
		if len(c.Values) < profileCap {
			cache.add(v, len(c.Values))
			c.Values = append(c.Values, ValueN{V: strings.Clone(v), N: 1})
			continue
		}
		c.Over++
		pr.mention(i, v)
	}
}

// mention keeps a value past the cap that mentions a restriction.
func (pr *Profiler) mention(i int, v string) {
	m := &pr.ments[i]
	c := &pr.p.Cols[i]
	if k := m.find(v); k >= 0 {
		c.Mentions[m.vals[k]].N++
		return
	}
	if len(c.Mentions) >= profileCap || !mayMention(v) {
		return
	}
	var terms bool
	pr.words, terms = textWords(pr.words[:0], v)
	if !terms {
		return
	}
	m.add(v, len(c.Mentions))
	c.Mentions = append(c.Mentions, ValueN{V: strings.Clone(v), N: 1})
}

// Profile is what was counted.
func (pr *Profiler) Profile() *Profile { return &pr.p }

// ProfileOf profiles rows (a sample standing for the whole file).
func ProfileOf(n int, rows [][]string) *Profile {
	pr := NewProfiler(n, nil)
	for _, r := range rows {
		pr.Add(r)
	}
	return pr.Profile()
}

// values are column i's values in the profile, weighted by their rows,
// blanks left out; nil when the profile skipped the column.
func (p *Profile) values(i int) []ValueN {
	if p == nil || i >= len(p.Cols) || p.Cols[i].Skipped {
		return nil
	}
	var out []ValueN
	for _, v := range p.Cols[i].Values {
		if v.V != "" {
			out = append(out, v)
		}
	}
	return append(out, p.Cols[i].Mentions...)
}
