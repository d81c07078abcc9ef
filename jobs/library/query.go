package library

import (
	"bytes"
	"context"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// textQuery is a filter's text, ready to be looked for in the column store.
// A text made of a phone number's characters with at least 7 digits is a
// phone search (newQuery decides, as for the library's search): its digits
// are looked for in the digits of the phones the layout reads (or, in a
// result with no phone column, in the digits of every cell). Any other
// text is folded and split into words; a row matches when each word is in
// one of its cells, folded.
type textQuery struct {
	digits string     // a phone search
	pq     phoneQuery // digits as a number
	words  [][]byte   // folded, longest first
}

// newTextQuery is nil for a text with nothing to look for.
func newTextQuery(text string) *textQuery {
	q := newQuery(text)
	if q == nil {
		return nil
	}
	if q.digits != "" {
		return &textQuery{digits: q.digits, pq: newPhoneQuery(q.digits)}
	}
	ws := foldWords(text)
	if len(ws) == 0 {
		return nil // punctuation alone
	}
	t := &textQuery{}
	for _, w := range ws {
		t.words = append(t.words, []byte(w))
	}
	return t
}

// narrows reports whether every row q matches is a row old matches, so
// that q needs to look only at old's answer: a phone search whose digits
// hold old's, or words each holding one of old's.
func (q *textQuery) narrows(old *textQuery) bool {
	if (q.digits != "") != (old.digits != "") {
		return false
	}
	if q.digits != "" {
		return strings.Contains(q.digits, old.digits)
	}
	for _, o := range old.words {
		found := false
		for _, w := range q.words {
			if bytes.Contains(w, o) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func (q *textQuery) equal(o *textQuery) bool { return q.narrows(o) && o.narrows(q) }

// searcher looks for a query in a result's column store.
type searcher struct {
	s      *store
	phones *phoneIndex // for a phone search; nil: the result has no phone column
	q      *textQuery
}

// rowMatches reports whether row r matches.
func (x *searcher) rowMatches(r int, scratch []byte) bool {
	if x.q.digits != "" {
		if x.phones != nil {
			return x.phones.hasPhone(r, x.q.pq)
		}
		return cellDigitsHold(x.s.row(r), x.q.digits, scratch)
	}
	row := x.s.row(r)
	for _, w := range x.q.words {
		if !bytes.Contains(row, w) {
			return false
		}
	}
	return true
}

// cellDigitsHold reports whether the digits of a cell of row (folded
// cells) hold digits.
func cellDigitsHold(row []byte, digits string, scratch []byte) bool {
	d := scratch[:0]
	for _, c := range row {
		switch {
		case c >= '0' && c <= '9':
			d = append(d, c)
		case c == cellEnd:
			if len(d) >= len(digits) && strings.Contains(string(d), digits) {
				return true
			}
			d = d[:0]
		}
	}
	return false
}

// scanRange finds the matching rows among rows [lo, hi), in order.
func (x *searcher) scanRange(lo, hi int, out []int32) []int32 {
	if x.q.digits != "" {
		scratch := make([]byte, 0, 64)
		for r := lo; r < hi; r++ {
			if x.rowMatches(r, scratch) {
				out = append(out, int32(r))
			}
		}
		return out
	}
	return x.scanWords(lo, hi, out)
}

// scanWords looks for the query's first (longest) word through the text of
// rows [lo, hi) at once, segment by segment, by its rarest byte; a row
// where it is found is checked for the other words, and the scan goes on
// at the next row.
func (x *searcher) scanWords(lo, hi int, out []int32) []int32 {
	for lo < hi {
		seg := lo / chunkRows
		first := seg * chunkRows
		z := min(hi, first+chunkRows)
		out = x.scanSegment(&x.s.segs[seg], first, lo-first, z-first, out)
		lo = z
	}
	return out
}

// scanSegment is scanWords over rows [lo, hi) of segment g, whose first
// row is row first.
func (x *searcher) scanSegment(g *segment, first, lo, hi int, out []int32) []int32 {
	w := x.q.words[0]
	k := x.s.rarest(w)
	c := w[k]
	p, end := int(g.at[lo]), int(g.at[hi])
	row := lo
	for p+k < end {
		j := bytes.IndexByte(g.text[p+k:end], c)
		if j < 0 {
			break
		}
		m := p + j // where w would start
		if m+len(w) > end || !bytes.Equal(g.text[m:m+len(w)], w) {
			p = m + 1
			continue
		}
		row = g.rowAt(int32(m), row)
		if len(x.q.words) == 1 || x.rowMatches(first+row, nil) {
			out = append(out, int32(first+row))
		}
		row++
		p = int(g.at[row])
	}
	return out
}

// scanRows keeps the matching rows of rows (in order).
func (x *searcher) scanRows(rows []int32, out []int32) []int32 {
	scratch := make([]byte, 0, 64)
	for _, r := range rows {
		if x.rowMatches(int(r), scratch) {
			out = append(out, r)
		}
	}
	return out
}

// searchPart is how many rows a search takes at a time (a variable for
// the tests, which cut the rows in many parts).
var searchPart = 1 << 15

// parallelRows runs fn over [0, n) split in parts, on every core, and
// joins the parts' rows in order. ctx is looked at between parts.
func parallelRows(ctx context.Context, n int, fn func(lo, hi int, out []int32) []int32) ([]int32, error) {
	outs, err := inParts(ctx, n, func(lo, hi int) []int32 { return fn(lo, hi, nil) })
	if err != nil {
		return nil, err
	}
	return slices.Concat(outs...), nil
}

// inParts runs fn over [0, n) split in parts of searchPart, on every core,
// and returns each part's result, in order. ctx is looked at between
// parts.
func inParts[T any](ctx context.Context, n int, fn func(lo, hi int) T) ([]T, error) {
	part := searchPart
	parts := (n + part - 1) / part
	outs := make([]T, parts)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(parts, 1)) {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= parts {
					return
				}
				lo := i * part
				outs[i] = fn(lo, min(lo+part, n))
			}
		})
	}
	wg.Wait()
	return outs, ctx.Err()
}

// search finds the rows matching the query: among base (rows in file
// order, the answer of a query this one narrows) or, when base is nil or
// large, among every row.
func (x *searcher) search(ctx context.Context, base []int32) ([]int32, error) {
	n := x.s.rows()
	if base == nil || (len(base) > n/4 && x.q.digits == "") {
		// One scan of the whole text beats a look at most rows one by one.
		return parallelRows(ctx, n, x.scanRange)
	}
	return parallelRows(ctx, len(base), func(lo, hi int, out []int32) []int32 {
		return x.scanRows(base[lo:hi], out)
	})
}

// answer is the rows a query matched.
type answer struct {
	q    *textQuery
	gen  int // the layout's generation (a phone search reads its phones)
	rows []int32
}

// answers keeps the latest few answers, newest first: the next keystroke's
// query usually narrows one of them (typing on) or is one of them (erasing).
type answers struct {
	list []answer
}

// maxAnswers is how many answers are kept; their rows may add up to
// answerRows times the result's rows.
const (
	maxAnswers = 8
	answerRows = 2
)

// find is the answer to q itself, or the smallest answer q narrows; nil
// when none.
func (a *answers) find(q *textQuery, gen int) (rows []int32, exact bool) {
	for _, x := range a.list {
		if x.gen == gen && q.equal(x.q) {
			return x.rows, true
		}
	}
	var best []int32
	for _, x := range a.list {
		if x.gen == gen && q.narrows(x.q) && (best == nil || len(x.rows) < len(best)) {
			best = x.rows
		}
	}
	return best, false
}

// add keeps an answer (among rows rows in all).
func (a *answers) add(q *textQuery, gen int, got []int32, rows int) {
	a.list = append([]answer{{q: q, gen: gen, rows: got}}, a.list...)
	total := 0
	for i, x := range a.list {
		total += len(x.rows)
		if i >= maxAnswers || (i > 0 && total > answerRows*rows) {
			a.list = a.list[:i]
			break
		}
	}
}
