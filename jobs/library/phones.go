package library

import (
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/calltime"
	"github.com/skipdesk/skipdesk/jobs/layout"
)

// phoneIndex is what the result's layout reads of every row, kept so that
// a filter never reads the file again: each row's phones (their digits, for
// a phone search; which phone filters each passes) and which row filters
// the row passes. A combination of quick filters is then a bitset made in
// one pass over these arrays (and kept). It belongs to one layout and one
// join: Result.SetLayout drops it.
type phoneIndex struct {
	at      []uint32 // row r's phones are nums[at[r]:at[r+1]]
	nums    []uint64 // each phone's digits (see phoneDigits)
	pass    []uint8  // per phone: bit i set when it passes jobs.QuickFilters[i]
	rowPass []uint8  // per row: bit i set when it passes jobs.QuickFilters[i]

	// flagged are the numbers a flag filter leaves out in some row
	// (layout.FlaggedNumbers), applied to every row by done.
	flagged *layout.FlaggedNumbers
	// addr is each row's addresses' id in places (nil without the calling
	// rules): with a phone's number, where its person may be.
	addr   []int32
	places *calltime.Places
	// vend is each phone's id in places of what a DNC vendor said of its
	// calling time (nil: no phone has any).
	vend []int32

	mu   sync.Mutex
	sets map[uint8]bitset
	// nowSets are the sets with "callable-now", for the instant nowAt.
	nowSets map[uint8]bitset
	nowAt   time.Time
}

// quickBits is the mask of the quick filters that pass says yes to, each
// by its place in jobs.QuickFilters (which holds at most 8:
// TestQuickFiltersFitAByte). Inlined with its callers on the hot paths.
func quickBits(pass func(f jobs.QuickFilter) bool) uint8 {
	var m uint8
	for i, f := range jobs.QuickFilters {
		if pass(f) {
			m |= 1 << i
		}
	}
	return m
}

// filterBits are the bits of fs in the masks.
func filterBits(fs []jobs.QuickFilter) uint8 {
	return quickBits(func(f jobs.QuickFilter) bool { return slices.Contains(fs, f) })
}

// rowLevel are the bits of the row filters (the others keep phones).
var rowLevel = quickBits(func(f jobs.QuickFilter) bool { return !layout.PhoneLevel(f) })

// phoneDigits packs the digits of a phone for the phone search: the 10
// digits of a valid number (marked validKey), else the digits as written
// (up to 17), with their count in the top 5 bits; 0 for a phone with no
// digits to find.
func phoneDigits(p *layout.Phone) uint64 {
	if p.Key != 0 {
		return p.Key | 10<<59 | validKey
	}
	var v uint64
	n := 0
	for i := 0; i < len(p.Raw); i++ {
		if c := p.Raw[i]; c >= '0' && c <= '9' {
			if n == 17 {
				return 0
			}
			v, n = v*10+uint64(c-'0'), n+1
		}
	}
	return v | uint64(n)<<59
}

// Packed digits: the count in the top 5 bits, then the mark of a valid
// number, then the digits' value (up to 17 digits, below 2^57).
const (
	validKey   = 1 << 58
	digitsMask = validKey - 1
)

// phoneMask are the phone filters p passes.
func phoneMask(p *layout.Phone) uint8 {
	return quickBits(func(f jobs.QuickFilter) bool { return layout.PhoneLevel(f) && layout.Passes(f, p) })
}

// rowMask are the row filters row passes.
func rowMask(row *layout.Row) uint8 {
	return quickBits(func(f jobs.QuickFilter) bool { return !layout.PhoneLevel(f) && layout.Keep(row, []jobs.QuickFilter{f}) })
}

// phoneChunk is the phone index of a chunk of rows.
type phoneChunk struct {
	count   []uint8 // phones of each row (a row lists far fewer than 256)
	nums    []uint64
	pass    []uint8
	rowPass []uint8
	flagged *layout.FlaggedNumbers // numbers a flag filter leaves out; nil none yet
	addr    []int32                // each row's addresses' id (with the calling rules)
	vend    []int32                // each phone's vendor calling-time id; nil while all are 0
}

// add reads a record's phones and row filters, and with places where its
// person may be.
func (c *phoneChunk) add(rd *layout.Reader, places *calltime.Places, rec []string, row *layout.Row) {
	rd.ReadPhones(rec, row)
	if places != nil {
		rd.ReadPlaces(rec, row)
		c.addr = append(c.addr, places.AddressID(calltime.RowAddresses(row)))
	}
	n := min(len(row.Phones), 255)
	for i := range n {
		p := &row.Phones[i]
		m := phoneMask(p)
		if places != nil && (c.vend != nil || p.Vendor != nil) {
			c.vend = append(padded(c.vend, len(c.nums)), places.VendorID(p.Vendor))
		}
		c.nums = append(c.nums, phoneDigits(p))
		c.pass = append(c.pass, m)
		if p.Key != 0 && m&flagLevel != flagLevel {
			if c.flagged == nil {
				c.flagged = layout.NewFlaggedNumbers()
			}
			c.flagged.Note(p, jobs.QuickFilters, layout.Passes)
		}
	}
	c.count = append(c.count, uint8(n))
	c.rowPass = append(c.rowPass, rowMask(row))
}

func newPhoneIndex(rows int) *phoneIndex {
	return &phoneIndex{at: make([]uint32, 1, rows+1), rowPass: make([]uint8, 0, rows), nums: make([]uint64, 0, rows*2),
		pass: make([]uint8, 0, rows*2), sets: map[uint8]bitset{}, flagged: layout.NewFlaggedNumbers()}
}

// add appends a chunk, in file order.
func (x *phoneIndex) add(c *phoneChunk) {
	for _, n := range c.count {
		x.at = append(x.at, x.at[len(x.at)-1]+uint32(n))
	}
	if c.vend != nil || x.vend != nil {
		x.vend = append(padded(x.vend, len(x.nums)), padded(c.vend, len(c.nums))...)
	}
	x.nums = append(x.nums, c.nums...)
	x.pass = append(x.pass, c.pass...)
	x.rowPass = append(x.rowPass, c.rowPass...)
	x.addr = append(x.addr, c.addr...)
	if c.flagged != nil {
		x.flagged.Merge(c.flagged)
	}
}

// padded is ids grown with zeros to n.
func padded(ids []int32, n int) []int32 {
	for len(ids) < n {
		ids = append(ids, 0)
	}
	return ids
}

// vendorOf is phone k's vendor calling-time id (0: none).
func (x *phoneIndex) vendorOf(k uint32) int32 {
	if int(k) < len(x.vend) {
		return x.vend[k]
	}
	return 0
}

// flagLevel are the bits of the flag filters (layout.FlagFilter).
var flagLevel = func() (m uint8) {
	for i, f := range jobs.QuickFilters {
		if layout.FlagFilter(f) {
			m |= 1 << i
		}
	}
	return m
}()

// done applies layout.FlaggedNumbers once every row is in: a number a flag filter
// leaves out in one row fails that filter in every row, as every export
// leaves it out.
func (x *phoneIndex) done(places *calltime.Places) {
	if places != nil && len(x.addr) == len(x.rowPass) {
		x.places = places
	}
	if x.flagged.Len() == 0 {
		return
	}
	for k, d := range x.nums {
		if d&validKey == 0 {
			continue
		}
		key := d & digitsMask
		for i, f := range jobs.QuickFilters {
			if x.pass[k]&(1<<i) != 0 && x.flagged.Fails(key, f) {
				x.pass[k] &^= 1 << i
			}
		}
	}
}

// set is the bitset of the rows passing the filters with bits want: each
// row filter, and (with phone filters) at least one phone passing all of
// them, as layout.Keep keeps a row.
func (x *phoneIndex) set(want uint8) bitset {
	x.mu.Lock()
	defer x.mu.Unlock()
	if b, ok := x.sets[want]; ok {
		return b
	}
	rowReq, phoneReq := want&rowLevel, want&^rowLevel
	b := newBitset(len(x.rowPass))
	for r, m := range x.rowPass {
		if m&rowReq != rowReq {
			continue
		}
		if phoneReq != 0 && !x.anyPhone(r, phoneReq) {
			continue
		}
		b.set(int32(r))
	}
	x.sets[want] = b
	return b
}

// nowBit is the bit of "callable-now".
var nowBit = filterBits([]jobs.QuickFilter{jobs.QuickCallableNow})

// setAt is set for a view at instant at: with "callable-now", a phone is
// kept only when, besides every phone filter, its calling windows are
// open at that instant (calltime.Places); such sets are kept for one
// instant at a time.
func (x *phoneIndex) setAt(want uint8, at time.Time) (bitset, error) {
	if want&nowBit == 0 {
		return x.set(want), nil
	}
	if x.places == nil {
		return bitset{}, &layout.CannotFilterError{Filter: jobs.QuickCallableNow, Why: "the calling rules are not loaded"}
	}
	if at.IsZero() {
		at = time.Now().Truncate(time.Minute) // never a view with no instant: that would keep every hour
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.nowAt.Equal(at) {
		x.nowSets, x.nowAt = map[uint8]bitset{}, at
	}
	if b, ok := x.nowSets[want]; ok {
		return b, nil
	}
	rowReq, phoneReq := want&rowLevel, want&^rowLevel
	b := newBitset(len(x.rowPass))
	for r, m := range x.rowPass {
		if m&rowReq == rowReq && x.anyPhoneAt(r, phoneReq, at) {
			b.set(int32(r))
		}
	}
	x.nowSets[want] = b
	return b, nil
}

// anyPhoneAt reports whether a phone of row r passes the filters req and
// may be called at instant at.
func (x *phoneIndex) anyPhoneAt(r int, req uint8, at time.Time) bool {
	for k := x.at[r]; k < x.at[r+1]; k++ {
		d := x.nums[k]
		if x.pass[k]&req != req || d&validKey == 0 {
			continue
		}
		if x.places.AnswerVendor(x.places.AreaID(d&digitsMask), x.addr[r], x.vendorOf(k), at, at).Reason == "" {
			return true
		}
	}
	return false
}

func (x *phoneIndex) anyPhone(r int, req uint8) bool {
	for k := x.at[r]; k < x.at[r+1]; k++ {
		if x.pass[k]&req == req {
			return true
		}
	}
	return false
}

// phoneQuery is a phone search's digits as a number and their count.
type phoneQuery struct {
	value uint64
	n     int
}

func newPhoneQuery(digits string) phoneQuery {
	if len(digits) > 17 {
		return phoneQuery{n: 99} // finds nothing
	}
	v, _ := strconv.ParseUint(digits, 10, 64)
	return phoneQuery{value: v, n: len(digits)}
}

// pow10 are the powers of ten a phone number's digits need.
var pow10 = func() (p [18]uint64) {
	p[0] = 1
	for i := 1; i < len(p); i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// match reports whether the digits of a phone (see phoneDigits) hold q's.
func (q phoneQuery) match(d uint64) bool {
	n := int(d >> 59)
	v := d & digitsMask
	if n < q.n {
		return false
	}
	for k := 0; k+q.n <= n; k++ {
		if (v/pow10[k])%pow10[q.n] == q.value {
			return true
		}
	}
	return false
}

// hasPhone reports whether a phone of row r holds q's digits.
func (x *phoneIndex) hasPhone(r int, q phoneQuery) bool {
	for k := x.at[r]; k < x.at[r+1]; k++ {
		if q.match(x.nums[k]) {
			return true
		}
	}
	return false
}
