package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// OwnerRuns are the owner runs of the index's dated trace results, read
// on a goroutine of their own (ReadOwners) while a list is being read,
// and merged with the list's owner hashes once they are known (Newest):
// what Traced finds for a long list, without a key or an Earlier made per
// row. Each run's hashes are read as owner_hashes keeps them, side by
// side (a computer's index: a team's is looked up by key). The runs are
// read ahead at most readAhead; the merge takes them as they come.
type OwnerRuns struct {
	chunks chan runChunk
	files  map[int64]dated // set before the first run is sent
	err    error           // the reading's, set before chunks is closed
	stop   context.CancelFunc
	once   sync.Once
}

// runChunk is a dated trace result's owner run: its hashes (sorted) and
// the day of each entry (nil when every day is 0: the result's date).
type runChunk struct {
	file   int64
	hashes []int64
	days   []uint64
}

// readAhead bounds the runs read ahead of the merge: ownerRun entries
// each, 512 KB of hashes (and as much again of days, when kept), 8M
// entries in all, as many as the chunks read ahead held before.
const readAhead = 1 << 7

// ReadOwners starts reading the index's owner runs; Newest merges them
// with a list's hashes, and Close stops the reading when they are not
// needed (call it in any case: it waits for the goroutine).
func (x *Index) ReadOwners(ctx context.Context) *OwnerRuns {
	ctx, stop := context.WithCancel(ctx)
	r := &OwnerRuns{chunks: make(chan runChunk, readAhead), stop: stop}
	go func() {
		defer close(r.chunks)
		r.err = r.read(ctx, x)
	}()
	return r
}

func (r *OwnerRuns) read(ctx context.Context, x *Index) (err error) {
	if x.Shared() {
		return errors.New("index: a team's index is looked up by key")
	}
	db, done, err := x.reading(ctx)
	if err != nil {
		return err
	}
	defer done(&err)
	if r.files, err = datedFiles(ctx, db, string(jobs.KindTrace), 0); err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, "SELECT file, run, hashes, days FROM owner_hashes")
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	var hashes, days sql.RawBytes
	for rows.Next() {
		var c runChunk
		var run int
		if err := rows.Scan(&c.file, &run, &hashes, &days); err != nil {
			return fail(err)
		}
		if _, ok := r.files[c.file]; !ok {
			continue // not a dated trace result
		}
		if err := c.decode(hashes, days); err != nil {
			return fmt.Errorf("%w: file %d: owner run %d: %v", ErrDamaged, c.file, run, err)
		}
		if len(c.hashes) == 0 {
			continue
		}
		select {
		case r.chunks <- c:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if err := rows.Err(); err != nil {
		return fail(err)
	}
	return ctx.Err() // a reading cut short by it may end without an error
}

// Close stops the reading and waits for its end.
func (r *OwnerRuns) Close() {
	r.once.Do(func() {
		r.stop()
		for range r.chunks {
		}
	})
}

// Newest is what the library holds of an owner hash: the date of its
// newest traced row and of its newest row traced in enhanced mode (Unix
// seconds, as Traced's Earlier.Date gives them).
type Newest struct {
	Found          bool
	Date, Enhanced int64
}

// decode reads a run as owner_hashes keeps it (runHashes' form): the
// hashes ascending, days for each of them or none.
func (c *runChunk) decode(hashes, days []byte) error {
	n := len(hashes) / 8
	if len(hashes)%8 != 0 {
		return fmt.Errorf("%d bytes of hashes", len(hashes))
	}
	if days != nil && len(days) != 4*n {
		return fmt.Errorf("%d bytes of days for %d hashes", len(days), n)
	}
	c.hashes = make([]int64, n)
	for i := range c.hashes {
		c.hashes[i] = int64(binary.LittleEndian.Uint64(hashes[8*i:]))
		if i > 0 && c.hashes[i] < c.hashes[i-1] {
			return errors.New("hashes out of order")
		}
	}
	if days != nil {
		c.days = make([]uint64, n)
		for i := range c.days {
			c.days[i] = uint64(binary.LittleEndian.Uint32(days[4*i:]))
		}
	}
	return nil
}

// Newest merges the runs with hashes (sorted, distinct): for each hash,
// what the library holds of it. Matches are by hash, as Traced's. The
// runs are read once: Newest is called once. A long list is merged in
// parts on every core, each part its own range of hashes (and of out).
func (r *OwnerRuns) Newest(hashes []int64) ([]Newest, error) {
	out := make([]Newest, len(hashes))
	at := newPlaces(hashes)
	parts := 1
	if len(hashes) >= 1<<16 {
		parts = min(runtime.GOMAXPROCS(0), 4)
	}
	work := make([]chan runChunk, parts)
	var wg sync.WaitGroup
	for p := range work {
		lo, hi := p*len(hashes)/parts, (p+1)*len(hashes)/parts
		work[p] = make(chan runChunk, 16)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work[p] {
				r.merge(c, hashes, lo, hi, at, out)
			}
		}()
	}
	for c := range r.chunks {
		for _, w := range work {
			w <- c
		}
	}
	for _, w := range work {
		close(w)
	}
	wg.Wait()
	r.once.Do(r.stop)
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}

// merge adds a run's entries whose hash is among hashes[lo:hi] to out.
func (r *OwnerRuns) merge(c runChunk, hashes []int64, lo, hi int, at places, out []Newest) {
	if lo == hi {
		return
	}
	f := r.files[c.file]
	// The run's entries from the part's first hash to its last.
	i0, _ := slices.BinarySearch(c.hashes, hashes[lo])
	i1, _ := slices.BinarySearch(c.hashes, hashes[hi-1]+1)
	if hashes[hi-1] == math.MaxInt64 {
		i1 = len(c.hashes)
	}
	for i := i0; i < i1; i++ {
		h := c.hashes[i]
		// The first place in hashes not below h: from its top bits'
		// first place on. hashes[lo] <= h <= hashes[hi-1] keeps it in
		// the part.
		j := at.from(h)
		for hashes[j] < h {
			j++
		}
		if hashes[j] == h {
			out[j].add(f, c.day(i))
		}
	}
}

// places finds where a hash stands among sorted hashes by its top bits:
// first[b] is the first place whose hash's top bits are b or more, with
// about one hash a bucket.
type places struct {
	shift uint
	first []int32
}

func newPlaces(hashes []int64) places {
	n := min(max(bits.Len(uint(len(hashes))), 1), 24)
	p := places{shift: uint(64 - n), first: make([]int32, 1<<n+1)}
	j := 0
	for b := range p.first {
		for j < len(hashes) && p.bucket(hashes[j]) < uint64(b) {
			j++
		}
		p.first[b] = int32(j)
	}
	return p
}

// bucket is h's top bits, in the order of the hashes (the sign bit
// flipped).
func (p places) bucket(h int64) uint64 { return (uint64(h) ^ 1<<63) >> p.shift }

func (p places) from(h int64) int { return int(p.first[p.bucket(h)]) }

func (c *runChunk) day(i int) uint64 {
	if c.days == nil {
		return 0
	}
	return c.days[i]
}

// add counts a row of f (traced on day, 0 the result's date) in.
func (n *Newest) add(f dated, day uint64) {
	d := f.date
	if day > 0 {
		d = int64(day-1) * 86400
	}
	d = unixOf(d)
	if !n.Found || d > n.Date {
		n.Date = d
	}
	if f.mode == jobs.ModeEnhanced && (n.Enhanced == 0 || d > n.Enhanced) { // 0: none yet
		n.Enhanced = d
	}
	n.Found = true
}

// unixOf is dateOf(s).Unix(): 0 is the zero time's.
func unixOf(s int64) int64 {
	if s == 0 {
		return time.Time{}.Unix()
	}
	return s
}
