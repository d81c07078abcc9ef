package library

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Field is one named value of a row.
type Field struct {
	Name, Value string
}

// Hit is a row that matched a search.
type Hit struct {
	Path    string // the result file
	JobID   string
	JobName string
	Row     int     // 1-based data row (the header is not counted; blank records are skipped)
	Line    int     // 1-based physical line where the record starts
	Column  string  // the first column that matched
	Fields  []Field // the row's key fields: names, address, phones, status
	// Merged: the result merges rows reused from earlier results with its
	// job's own (Row is the merged file's row, not the job's download's).
	Merged bool `json:",omitempty"`
	// Place names the library folder among a team's (its computer's id)
	// when the result is in another computer's folder: Path is "" then.
	Place string `json:",omitempty"`
}

// DefaultSearchLimit is the number of hits returned when limit ≤ 0.
const DefaultSearchLimit = 100

// Search looks for text in every result of the library, newest first, and
// returns up to limit hits. A query made of a phone number's characters with
// at least 7 digits is a phone search: digits are compared after
// normalising, so "(212) 555-0147" finds 2125550147 and 1-212-555-0147.
// Any other query is split into words, and a row matches when each word
// appears (ignoring case) in one of its fields: "john smith" finds a row with
// JOHN in first_name and SMITH in last_name. Reading streams; ctx cancels.
func (l *Library) Search(ctx context.Context, text string, limit int) ([]Hit, error) {
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	q := newQuery(text)
	if q == nil {
		return nil, errors.New("library: search: nothing to look for")
	}
	entries, err := l.List()
	if err != nil {
		return nil, err
	}
	var hits []Hit
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return hits, err
		}
		hits, err = searchFile(ctx, e, q, hits, limit)
		if errors.Is(err, ErrTooLong) || errors.Is(err, input.ErrNotRegular) {
			continue // not a result: the index notes it as unreadable
		}
		if err != nil {
			if ctx.Err() != nil {
				return hits, ctx.Err()
			}
			return hits, err
		}
		if len(hits) >= limit {
			break
		}
	}
	return hits, nil
}

type query struct {
	digits string   // phone search
	words  []string // lower-cased words
}

func newQuery(text string) *query {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil
	}
	phoneChars := true
	var d []byte
	for _, r := range text {
		switch {
		case r >= '0' && r <= '9':
			d = append(d, byte(r))
		case strings.ContainsRune(phone.Punct, r):
		default:
			phoneChars = false
		}
	}
	if phoneChars && len(d) >= 7 {
		if len(d) == 11 && d[0] == '1' {
			d = d[1:]
		}
		return &query{digits: string(d)}
	}
	// A word given twice finds nothing more.
	words := strings.Fields(strings.ToLower(text))
	slices.Sort(words)
	return &query{words: slices.Compact(words)}
}

// match returns the index of the first field that matched, or -1.
func (q *query) match(rec []string, scratch []byte) int {
	if q.digits != "" {
		for i, f := range rec {
			d := scratch[:0]
			for j := 0; j < len(f); j++ {
				if c := f[j]; c >= '0' && c <= '9' {
					d = append(d, c)
				}
			}
			if len(d) >= len(q.digits) && bytes.Contains(d, []byte(q.digits)) {
				return i
			}
		}
		return -1
	}
	first := -1
	for _, w := range q.words {
		found := -1
		for i, f := range rec {
			if containsFold(f, w) {
				found = i
				break
			}
		}
		if found < 0 {
			return -1
		}
		if first < 0 || found < first {
			first = found
		}
	}
	return first
}

// containsFold reports whether s contains the lower-case word w, ignoring
// case; ASCII without allocating.
func containsFold(s, w string) bool {
	if len(w) > len(s) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(s), w)
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(s), w)
		}
	}
	n := len(w)
outer:
	for i := 0; i+n <= len(s); i++ {
		for j := 0; j < n; j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != w[j] {
				continue outer
			}
		}
		return true
	}
	return false
}

// keyColumns picks the columns shown with a hit, through the result's
// layout: names, the property address, phones, match status and flags.
func keyColumns(l *layout.Layout) []int {
	seen := map[int]bool{}
	var idx []int
	add := func(cs ...int) {
		for _, c := range cs {
			if c >= 0 && !seen[c] && len(idx) < 16 {
				seen[c] = true
				idx = append(idx, c)
			}
		}
	}
	for _, p := range l.People {
		add(p.First, p.Last, p.Full)
	}
	a := l.Property
	add(a.Street, a.City, a.State, a.Zip, a.Full)
	for _, s := range l.Slots {
		add(s.Number)
	}
	add(l.Match)
	for _, s := range l.Slots {
		add(s.Flags...)
	}
	slices.Sort(idx)
	return idx
}

func searchFile(ctx context.Context, e Entry, q *query, hits []Hit, limit int) ([]Hit, error) {
	f, err := input.OpenRegular(e.Path)
	if err != nil {
		return hits, fmt.Errorf("library: search %s: %w", e.Path, err)
	}
	defer f.Close()
	rr, err := NewRowReader(f)
	if errors.Is(err, errNoHeader) {
		return hits, nil
	}
	if err != nil {
		return hits, fmt.Errorf("library: search %s: %w", e.Path, err)
	}
	headers := rr.Headers()
	keys := keyColumns(layout.Detect(headers, nil, layout.Options{}))
	scratch := make([]byte, 0, 64)
	for {
		if rr.Row()%4096 == 0 && ctx.Err() != nil {
			return hits, ctx.Err()
		}
		rec, err := rr.Next()
		if err == io.EOF {
			return hits, nil
		}
		if err != nil {
			return hits, fmt.Errorf("library: search %s: %w", e.Path, err)
		}
		col := q.match(rec, scratch)
		if col < 0 {
			continue
		}
		h := Hit{Path: e.Path, JobName: e.Meta.Name, Row: rr.Row(), Line: rr.Line()}
		if col < len(headers) {
			h.Column = headers[col]
		}
		for _, k := range keys {
			if k < len(rec) && rec[k] != "" {
				h.Fields = append(h.Fields, Field{Name: headers[k], Value: rec[k]})
			}
		}
		hits = append(hits, h)
		if len(hits) >= limit {
			return hits, nil
		}
	}
}

// sniffKind tells a DNC result from a trace result by its header, read
// through the layout rules; "" when it is neither.
func sniffKind(path string) jobs.Kind {
	f, err := input.OpenRegular(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	rr, err := NewRowReader(io.LimitReader(f, 256<<10))
	if err != nil {
		return ""
	}
	var sample [][]string
	for len(sample) < 20 {
		rec, err := rr.Next()
		if err != nil {
			break
		}
		sample = append(sample, slices.Clone(rec))
	}
	switch layout.Detect(rr.Headers(), sample, layout.Options{}).Kind {
	case layout.KindDNC:
		return jobs.KindDNC
	case layout.KindTrace:
		return jobs.KindTrace
	}
	return ""
}
