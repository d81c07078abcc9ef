package library

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// A column sorts by number when every value that is not blank is a number
// (thousands separators allowed: 1,250,000), by date when every such value
// is a date in one of dateLayouts, and as folded text otherwise. Typed
// sort keys are uint64s that order as the values do; 0 is a blank cell,
// which no value encodes to.

// numberKey is the sort key of a number cell, false when v is not a number.
func numberKey(v string) (uint64, bool) {
	if strings.IndexByte(v, ',') >= 0 {
		v = strings.ReplaceAll(v, ",", "")
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) {
		return 0, false
	}
	if f == 0 {
		f = 0 // -0 and 0 are one value
	}
	b := math.Float64bits(f)
	if b>>63 != 0 {
		return ^b, true
	}
	return b | 1<<63, true
}

// dateLayouts are the ways of writing a date a column may use (US order
// for slashes: month first).
var dateLayouts = []string{
	"2006-01-02", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05",
	"1/2/2006", "1/2/2006 15:04", "1/2/2006 15:04:05", "1/2/2006 3:04 PM", "1/2/2006 3:04:05 PM",
	"Jan 2, 2006", "January 2, 2006", "2 Jan 2006",
}

// dateKey is the sort key of a date cell, false when v is not a date.
func dateKey(v string) (uint64, bool) {
	if len(v) < 6 {
		return 0, false
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, v); err == nil {
			return uint64(t.Unix()) ^ 1<<63, true
		}
	}
	return 0, false
}

// typeHints say which columns have already shown a value that is not a
// number (bad[2c]) or not a date (bad[2c+1]): the build's workers stop
// trying them. Shared by the workers of one build.
type typeHints struct{ bad []atomic.Bool }

func newTypeHints(columns int) *typeHints { return &typeHints{bad: make([]atomic.Bool, 2*columns)} }

// plainNumber reports a value written as a plain whole number (digits,
// thousands commas, a leading plus; at most 15 digits, which a float64
// holds exactly): its folded text is its digits, so its key need not be
// stored (see plainKey).
func plainNumber(v string) bool {
	v = strings.TrimPrefix(v, "+")
	digits := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c != ',':
			return false
		}
	}
	return digits > 0 && digits <= 15
}

// plainKey is the sort key of a plain whole number from its folded digits
// (the key numberKey gives the value).
func plainKey(digits []byte) uint64 {
	var v uint64
	for _, c := range digits {
		v = v*10 + uint64(c-'0')
	}
	if v == 0 {
		return 1 << 63 // 0.0
	}
	return math.Float64bits(float64(v)) | 1<<63
}

// chunkTyped is one column's typed keys over a chunk of rows: num holds
// the numbers that are not plain (nil until one is met), date the dates;
// bad once a value is not of the kind.
type chunkTyped struct {
	num, date       []uint64
	sawNum          bool
	numBad, dateBad bool
}

// cell types the value of row i (of n in the chunk) of column col.
func (t *chunkTyped) cell(h *typeHints, col, i, n int, v string) {
	v = strings.TrimSpace(v)
	if v == "" {
		return
	}
	if !t.numBad && !h.bad[2*col].Load() {
		ok := plainNumber(v)
		if !ok {
			var k uint64
			if k, ok = numberKey(v); ok {
				t.num = setKey(t.num, i, n, k)
			}
		}
		if ok {
			t.sawNum = true
			t.dateBad = true // a number is not a date
			h.bad[2*col+1].Store(true)
			return
		}
		t.numBad, t.num = true, nil
		h.bad[2*col].Store(true)
	}
	if !t.dateBad && !h.bad[2*col+1].Load() {
		if k, ok := dateKey(v); ok {
			t.date = setKey(t.date, i, n, k)
			return
		}
		t.dateBad, t.date = true, nil
		h.bad[2*col+1].Store(true)
	}
}

func setKey(keys []uint64, i, n int, k uint64) []uint64 {
	if keys == nil {
		keys = make([]uint64, n)
	}
	keys[i] = k
	return keys
}

// typedColumn gathers a column's typed keys over the whole file.
type typedColumn struct {
	num, date       []uint64
	sawNum          bool
	numBad, dateBad bool
}

// add appends the chunk of n rows starting at row first.
func (c *typedColumn) add(first, n int, t *chunkTyped) {
	c.sawNum = c.sawNum || t.sawNum
	c.num, c.numBad = addKeys(c.num, c.numBad || t.numBad, first, n, t.num)
	c.date, c.dateBad = addKeys(c.date, c.dateBad || t.dateBad, first, n, t.date)
}

func addKeys(all []uint64, bad bool, first, n int, chunk []uint64) ([]uint64, bool) {
	switch {
	case bad:
		return nil, true
	case chunk != nil && all == nil:
		all = make([]uint64, first, first+n)
		return append(all, chunk...), false
	case chunk != nil:
		return append(all, chunk...), false
	case all != nil:
		all = slices.Grow(all, n)[:len(all)+n]
		clear(all[len(all)-n:]) // no key stored in this chunk
		return all, false
	}
	return nil, false
}

// finish says how column col of s sorts, with the keys to keep.
func (c *typedColumn) finish(s *store, col int) (keyKind, []uint64) {
	switch {
	case !c.numBad && c.sawNum && c.num == nil:
		return keyPlain, nil
	case !c.numBad && c.sawNum:
		// Some numbers are not plain: every key is stored, the plain
		// ones read from their digits.
		for r, k := range c.num {
			if k == 0 {
				if ref, n := s.cellSpan(r, col); n > 0 {
					c.num[r] = plainKey(s.bytes(ref, n))
				}
			}
		}
		return keyStored, slices.Clip(c.num)
	case !c.dateBad && c.date != nil:
		return keyStored, slices.Clip(c.date)
	}
	return keyText, nil
}
