package resultgen

import (
	"fmt"
	"slices"
	"strings"
)

// Shrinking a failing case to the smallest files that still fail.

// Shrink returns the smallest case it finds that still shows a failure:
// still reports whether a case does (it runs the export again). It drops
// the DNC results that are not needed, then the rows that do not hold
// number (the leaked one), then rows in halves down to one at a time, then
// columns one at a time, then the company list's other numbers. At most
// budget calls of still are made.
func Shrink(c *Case, number string, budget int, still func(*Case) bool) *Case {
	s := &shrinker{still: still, budget: budget}
	best := c.clone()
	for i := len(best.Files) - 1; i >= 1; i-- {
		try := best.clone()
		try.Files = slices.Delete(try.Files, i, i+1)
		best = s.keep(best, try)
	}
	for fi := range best.Files {
		try := best.clone()
		try.Files[fi].keepRows(func(row []Cell) bool { return holds(row, number) })
		best = s.keep(best, try)
	}
	for fi := range best.Files {
		best = s.rows(best, fi)
	}
	for fi := range best.Files {
		best = s.columns(best, fi)
	}
	if try := best.clone(); slices.Contains(try.Company, number) {
		try.Company = []string{number}
		best = s.keep(best, try)
	} else {
		try.Company = nil
		best = s.keep(best, try)
	}
	for i := len(best.Company) - 1; i >= 0; i-- {
		if best.Company[i] != number {
			try := best.clone()
			try.Company = slices.Delete(try.Company, i, i+1)
			best = s.keep(best, try)
		}
	}
	return best
}

type shrinker struct {
	still  func(*Case) bool
	budget int
}

// keep is try when it still fails (and the budget allows asking), else
// best.
func (s *shrinker) keep(best, try *Case) *Case {
	if s.budget <= 0 {
		return best
	}
	s.budget--
	if s.still(try) {
		return try
	}
	return best
}

// rows removes rows of file fi in chunks, halving the chunk each round.
func (s *shrinker) rows(best *Case, fi int) *Case {
	for chunk := len(best.Files[fi].Rows) / 2; chunk >= 1; chunk /= 2 {
		for start := 0; start < len(best.Files[fi].Rows) && s.budget > 0; {
			try := best.clone()
			end := min(start+chunk, len(try.Files[fi].Rows))
			try.Files[fi].Rows = slices.Delete(try.Files[fi].Rows, start, end)
			if next := s.keep(best, try); next != best {
				best = next
				continue
			}
			start += chunk
		}
	}
	return best
}

// columns removes columns of file fi one at a time, last first.
func (s *shrinker) columns(best *Case, fi int) *Case {
	for j := len(best.Files[fi].Cols) - 1; j >= 0 && s.budget > 0; j-- {
		if j >= len(best.Files[fi].Cols) {
			continue
		}
		try := best.clone()
		try.Files[fi].dropColumn(j)
		best = s.keep(best, try)
	}
	return best
}

// holds reports whether a row has number in a phone cell.
func holds(row []Cell, number string) bool {
	return slices.ContainsFunc(row, func(c Cell) bool { return c.M != nil && slices.Contains(c.M.numbers(), number) })
}

func (f *File) keepRows(keep func([]Cell) bool) {
	f.Rows = slices.DeleteFunc(f.Rows, func(r []Cell) bool { return !keep(r) })
}

func (f *File) dropColumn(j int) {
	f.Cols = slices.Delete(f.Cols, j, j+1)
	for i := range f.Rows {
		f.Rows[i] = slices.Delete(f.Rows[i], j, j+1)
	}
}

// clone copies the case deeply enough to shrink it: files, columns, rows.
func (c *Case) clone() *Case {
	out := *c
	out.Company = slices.Clone(c.Company)
	out.Dims = slices.Clone(c.Dims)
	out.Files = make([]*File, len(c.Files))
	for i, f := range c.Files {
		g := *f
		g.Cols = slices.Clone(f.Cols)
		g.Rows = make([][]Cell, len(f.Rows))
		for k, r := range f.Rows {
			g.Rows[k] = slices.Clone(r)
		}
		out.Files[i] = &g
	}
	return &out
}

// Report is a case as a failure prints it: its description, then each
// file as CSV text (what its cells say, whatever its format).
func (c *Case) Report() string {
	var b strings.Builder
	b.WriteString(c.Describe())
	for _, f := range c.Files {
		fmt.Fprintf(&b, "--- %s (%s) ---\n%s", f.Name, f.Format, f.CSV())
	}
	return b.String()
}
