package input

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/skipdesk/skipdesk/jobs"
)

// delimiters are the candidates, in order of preference on a tie.
var delimiters = []byte{',', ';', '\t', '|'}

// sniffLineEnds reports whether text uses bare CR line ends (no LF at all
// but some CR).
func sniffLineEnds(text []byte) (crOnly bool) {
	return bytes.IndexByte(text, '\n') < 0 && bytes.IndexByte(text, '\r') >= 0
}

// sniffDelimiter picks the delimiter whose count per line (outside quotes)
// is the most consistent over the first lines of text, preferring more
// columns on a tie, among those on at least half the lines from the
// first holding one (holds). A file with
// none of them is a one-column list: ','. (A one-column list whose cells
// now and then hold "5125550101; 5125550102" is not split at ';': its
// second numbers would be cut as beyond the header.)
func sniffDelimiter(text []byte, complete bool) byte {
	const maxLines = 200
	var counts [4][]int
	var cur [4]int
	inQuotes := false
	lineHasText := false
	endLine := func() {
		if lineHasText {
			for k := range delimiters {
				counts[k] = append(counts[k], cur[k])
			}
		}
		cur = [4]int{}
		lineHasText = false
	}
	for i := 0; i < len(text) && len(counts[0]) < maxLines; i++ {
		c := text[i]
		switch {
		case c == '"':
			inQuotes = !inQuotes
		case inQuotes:
		case c == '\n' || c == '\r':
			endLine()
		default:
			for k, d := range delimiters {
				if c == d {
					cur[k]++
				}
			}
			if c != ' ' {
				lineHasText = true
			}
		}
	}
	if complete && !inQuotes {
		endLine() // the last line has no line end
	}
	best, bestFreq, bestMode := byte(','), 0, 0
	for k, d := range delimiters {
		mode, freq := modeOf(counts[k])
		if mode == 0 || !holds(counts[k]) {
			continue
		}
		if freq > bestFreq || freq == bestFreq && mode > bestMode {
			best, bestFreq, bestMode = d, freq, mode
		}
	}
	return best
}

// holds reports whether a delimiter whose counts per line are xs may be
// the file's: from the first line holding it (a title above the header
// holds none), it is on at least half the lines, and on two of them unless
// the file is of one line.
func holds(xs []int) bool {
	first := slices.IndexFunc(xs, func(x int) bool { return x > 0 })
	if first < 0 {
		return false
	}
	tail := xs[first:]
	n := present(tail)
	return 2*n >= len(tail) && (n >= 2 || len(xs) == 1)
}

// present counts the positive values of xs.
func present(xs []int) int {
	n := 0
	for _, x := range xs {
		if x > 0 {
			n++
		}
	}
	return n
}

// modeOf returns the most frequent positive value of xs (the larger on a
// tie) and its frequency.
func modeOf(xs []int) (mode, freq int) {
	seen := map[int]int{}
	for _, x := range xs {
		if x > 0 {
			seen[x]++
		}
	}
	for v, f := range seen {
		if f > freq || f == freq && v > mode {
			mode, freq = v, f
		}
	}
	return mode, freq
}

// record is a buffered record (before the header is known).
type record struct {
	line   int
	fields []string
}

func isBlank(fields []string) bool {
	for _, f := range fields {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
}

// pickHeader chooses the header among the first records: the first one
// that looks like a header (mostly non-empty, non-numeric, distinct cells)
// and is as wide as most records (or, when data rows carry extra trailing
// delimiters, at least has cells for half of them). Title lines ("Harris
// County export", "Owner list,,,,,") fail one test or the other. It falls
// back to the first record that would look like a header but for names
// repeating in it, then to the first record of the dominant width, then
// to the first non-blank record, and returns -1 when every record is
// blank.
//
// A header of two rows (groupHeader) is looked for first at each record:
// the names it makes are returned with the index of its second row; for a
// header of one row, names is nil.
func pickHeader(recs []record) (at int, names []string) {
	dominant := dominantWidth(recs)
	fb := fallbacks{-1, -1, -1}
	for i, r := range recs {
		if isBlank(r.fields) {
			continue
		}
		fb.see(i, r.fields, dominant)
		if at, names := groupHeader(recs, i); at >= 0 {
			return at, names
		}
		if !looksLikeHeader(r.fields) {
			continue
		}
		if len(r.fields) == dominant || nonEmpty(r.fields) >= max(2, (dominant+1)/2) {
			return i, nil
		}
	}
	return fb.best(), nil
}

// dominantWidth is the most frequent number of fields of the non-blank
// records (the widest of those as frequent).
func dominantWidth(recs []record) int {
	counts := map[int]int{}
	for _, r := range recs {
		if !isBlank(r.fields) {
			counts[len(r.fields)]++
		}
	}
	dominant, freq := 0, 0
	for n, f := range counts {
		if f > freq || f == freq && n > dominant {
			dominant, freq = n, f
		}
	}
	return dominant
}

// fallbacks are the records pickHeader falls back on when none looks like
// a header: the first that would but for names repeating in it ("Phone,
// Type, Phone, Type"), the first of the dominant width, the first (-1:
// none).
type fallbacks struct{ repeating, dominant, first int }

func (f *fallbacks) see(i int, fields []string, dominant int) {
	if f.first < 0 {
		f.first = i
	}
	if f.dominant < 0 && len(fields) == dominant {
		f.dominant = i
	}
	if f.repeating < 0 && repeatsNames(fields) {
		f.repeating = i
	}
}

func (f *fallbacks) best() int {
	switch {
	case f.repeating >= 0:
		return f.repeating
	case f.dominant >= 0:
		return f.dominant
	}
	return f.first
}

// groupHeader reads recs[i] and the next non-blank record as a header of
// two rows, as spreadsheets export one whose first row groups the columns
// of the second: a label over the first column of its group (a merged
// cell, written once, or in each of its columns), the names below
// repeating in every group:
//
//	,,Phone 1,,,Phone 2,,
//	Owner,Address,Number,Type,DNC,Number,Type,DNC
//
// Read as one row either way, the names would lose which phone each column
// is about (or the second row would be a row of data, its "DNC" a value).
// The names made join each label to the names of its group: "Phone 1
// Number", "Phone 1 DNC"; a name no label is over, and that does not
// repeat, stays as it is ("Owner"). It returns the index of the second
// row and the names, or -1 when the two rows are not such a header: the
// second must look like a header but for its names repeating, the first
// name fewer columns (or repeat its labels) and hold no number, two names
// or more must stand in several groups (or one, with numbers under it in
// the row below), and the names made must all differ.
func groupHeader(recs []record, i int) (int, []string) {
	j := i + 1
	for j < len(recs) && isBlank(recs[j].fields) {
		j++
	}
	if j >= len(recs) || !mayGroup(recs[i].fields, recs[j].fields) {
		return -1, nil
	}
	group, names := recs[i].fields, recs[j].fields
	g := grouping{count: map[string]int{}, inGroups: map[string]int{}}
	for _, n := range names {
		g.count[strings.ToLower(strings.TrimSpace(n))]++
	}
	out := make([]string, len(names))
	seen := map[string]bool{}
	for c, n := range names {
		over := ""
		if c < len(group) {
			over = strings.TrimSpace(group[c])
		}
		name, ok := g.name(over, strings.TrimSpace(n))
		k := strings.ToLower(name)
		if !ok || k != "" && seen[k] {
			return -1, nil
		}
		out[c], seen[k] = name, true
	}
	switch shared := g.sharedNames(); {
	case len(shared) >= 2:
	case len(shared) == 1 && numbersUnder(recs, j, names, shared[0]):
		// Groups of other shapes sharing one name ("Phone 1": Number,
		// DNC; "DNC Phone 1": Number) where the row below holds numbers
		// under it: the names' row is no row of data repeating a value.
	default:
		return -1, nil
	}
	return j, out
}

// numbersUnder reports whether the first non-blank record after recs[j]
// holds numbers (seven digits or more) under the columns of names named
// name (lower case): one at least, and nothing else but blanks.
func numbersUnder(recs []record, j int, names []string, name string) bool {
	k := j + 1
	for k < len(recs) && isBlank(recs[k].fields) {
		k++
	}
	if k >= len(recs) {
		return false
	}
	found := false
	for c, n := range names {
		if strings.ToLower(strings.TrimSpace(n)) != name || c >= len(recs[k].fields) {
			continue
		}
		switch v := recs[k].fields[c]; {
		case jobs.CountDigits(v) >= 7:
			found = true
		case strings.TrimSpace(v) != "":
			return false
		}
	}
	return found
}

// mayGroup: names looks like a header but for names repeating, group names
// fewer columns (or repeats its labels) and no column beyond names.
func mayGroup(group, names []string) bool {
	switch {
	case !repeatsNames(names) || nonEmpty(group) == 0:
		return false
	case nonEmpty(group) >= nonEmpty(names) && !repeatsNames(group):
		return false
	}
	return nonEmpty(group[min(len(group), len(names)):]) == 0
}

// grouping follows groupHeader's groups from left to right.
type grouping struct {
	count    map[string]int  // a name (lower case) → how often the names' row holds it
	label    string          // the current group's label
	members  map[string]bool // the current group's names
	inGroups map[string]int  // a name → how many groups hold it
}

// name is the column's name made of the cell over it and its own name;
// false when the cell over it is no label (a number).
func (g *grouping) name(over, n string) (string, bool) {
	if over != "" && over != g.label {
		if isNumberLike(strings.ToLower(over)) {
			return "", false
		}
		g.label, g.members = over, map[string]bool{}
	}
	k := strings.ToLower(n)
	if g.members != nil && k != "" && !g.members[k] {
		g.members[k] = true
		g.inGroups[k]++
	}
	switch {
	case n == "":
		return "", true
	case g.label != "" && (over != "" || g.count[k] > 1):
		return g.label + " " + n, true
	}
	return n, true
}

// sharedNames are the names that stand in several groups: two or more
// when the groups are alike (not a row of data that happens to repeat a
// value).
func (g *grouping) sharedNames() []string {
	var out []string
	for name, k := range g.inGroups {
		if k > 1 {
			out = append(out, name)
		}
	}
	return out
}

// repeatsNames: a record that looks like a header (looksLikeHeader) but
// for some of its names repeating.
func repeatsNames(fields []string) bool {
	n, repeated, number := headerCells(fields)
	return repeated && !number && n*2 >= len(fields)
}

// headerCells looks at a record's cells as a header's: how many are not
// blank, whether a name repeats (case and spaces aside), whether one is a
// number (or a date, or a phone).
func headerCells(fields []string) (n int, repeated, number bool) {
	seen := map[string]bool{}
	for _, f := range fields {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" {
			continue
		}
		n++
		number = number || isNumberLike(f)
		repeated = repeated || seen[f]
		seen[f] = true
	}
	return n, repeated, number
}

func nonEmpty(fields []string) int {
	n := 0
	for _, f := range fields {
		if strings.TrimSpace(f) != "" {
			n++
		}
	}
	return n
}

// looksLikeHeader: at least half the cells non-empty, none of them a number
// (or a date, or a phone), no duplicate non-empty cells.
func looksLikeHeader(fields []string) bool {
	n, repeated, number := headerCells(fields)
	return !repeated && !number && n*2 >= len(fields) && n > 0
}

// isNumberLike: only digits, spaces and number punctuation, with at least
// one digit ("12", "2.5", "(212) 555-0147", "1/2/2020", "1.23E+10").
func isNumberLike(s string) bool {
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return true
	}
	digits := 0
	for _, r := range s {
		switch {
		case unicode.IsDigit(r):
			digits++
		case strings.ContainsRune(" .,-+()/:$%#", r):
		default:
			return false
		}
	}
	return digits > 0
}

// distinctHeaders makes header names distinct and non-empty: cells are
// trimmed, a blank one becomes "Column N" (N its 1-based position), and a
// repeated name gets " (2)", " (3)"… in order of appearance.
func distinctHeaders(raw []string) []string {
	out := make([]string, len(raw))
	used := make(map[string]bool, len(raw))
	for i, h := range raw {
		h = strings.TrimSpace(h)
		if h == "" {
			h = fmt.Sprintf("Column %d", i+1)
		}
		out[i] = h
	}
	// Reserve every name first, so that a later literal "Phone (2)" is not
	// taken by the renaming of an earlier duplicate... keep the first
	// occurrence of each name as it is.
	for _, h := range out {
		used[strings.ToLower(h)] = false
	}
	taken := make(map[string]bool, len(raw))
	for i, h := range out {
		key := strings.ToLower(h)
		if !taken[key] {
			taken[key] = true
			continue
		}
		for n := 2; ; n++ {
			c := fmt.Sprintf("%s (%d)", h, n)
			ck := strings.ToLower(c)
			if _, exists := used[ck]; !exists && !taken[ck] {
				out[i] = c
				taken[ck] = true
				break
			}
		}
	}
	return out
}

// nonEmptyWidth is the field count without trailing blank fields.
func nonEmptyWidth(fields []string) int {
	n := len(fields)
	for n > 0 && strings.TrimSpace(fields[n-1]) == "" {
		n--
	}
	return n
}

// PickHeader is the rule Open reads a file's header by, for a reader of its
// own (the library's): among a file's first records (at most HeaderScan
// non-blank ones, blank ones left out or not), the index of the header's
// record (its second row for a header of two rows) and, for a header of
// two rows, the names it makes (nil for a header of one: its record's
// fields are its names); -1 when every record is blank.
func PickHeader(recs [][]string) (at int, names []string) {
	rs := make([]record, len(recs))
	for i, f := range recs {
		rs[i] = record{line: i + 1, fields: f}
	}
	return pickHeader(rs)
}

// HeaderScan is how many non-blank records the header is looked for in.
const HeaderScan = headerScan
