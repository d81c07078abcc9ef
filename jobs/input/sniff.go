package input

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
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
// columns on a tie. A file with none of them is a one-column list: ','.
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
		if mode == 0 {
			continue
		}
		if freq > bestFreq || freq == bestFreq && mode > bestMode {
			best, bestFreq, bestMode = d, freq, mode
		}
	}
	return best
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
// back to the first record of the dominant width, then to the first
// non-blank record, and returns -1 when every record is blank.
func pickHeader(recs []record) int {
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
	first, firstDominant := -1, -1
	for i, r := range recs {
		if isBlank(r.fields) {
			continue
		}
		if first < 0 {
			first = i
		}
		if len(r.fields) == dominant && firstDominant < 0 {
			firstDominant = i
		}
		if !looksLikeHeader(r.fields) {
			continue
		}
		if len(r.fields) == dominant || nonEmpty(r.fields) >= max(2, (dominant+1)/2) {
			return i
		}
	}
	if firstDominant >= 0 {
		return firstDominant
	}
	return first
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
	nonEmpty := 0
	seen := map[string]bool{}
	for _, f := range fields {
		f = strings.ToLower(strings.TrimSpace(f))
		if f == "" {
			continue
		}
		nonEmpty++
		if seen[f] || isNumberLike(f) {
			return false
		}
		seen[f] = true
	}
	return nonEmpty*2 >= len(fields) && nonEmpty > 0
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
