package index

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// OwnerRuns are the owner runs of the index's dated trace results, read
// and decoded on a goroutine of their own (ReadOwners) while a list is
// being read, and merged with the list's owner hashes once they are known
// (Newest): what Traced finds for a long list, without a key or an Earlier
// made per row. The runs are read ahead at most readAhead chunks; the
// merge takes them as they come.
type OwnerRuns struct {
	chunks chan runChunk
	files  map[int64]dated // set before the first chunk is sent
	err    error           // the reading's, set before chunks is closed
	stop   context.CancelFunc
	once   sync.Once
}

// runChunk is a chunk of a dated trace result's owner run, decoded: its
// hashes (sorted) and the day of each entry (nil when every day is 0: the
// result's date).
type runChunk struct {
	file   int64
	hashes []int64
	days   []uint64
}

// readAhead bounds the chunks read ahead of the merge (256 entries each,
// 2 KB decoded).
const readAhead = 1 << 15

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
	db, done, err := x.reading(ctx)
	if err != nil {
		return err
	}
	defer done(&err)
	if r.files, err = datedFiles(ctx, db, string(jobs.KindTrace), 0); err != nil {
		return err
	}
	rows, err := db.QueryContext(ctx, "SELECT o.file, c.data FROM owners o JOIN owner_chunks c ON c.id = o.chunk ORDER BY o.file, o.run, o.first")
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	var data sql.RawBytes
	for rows.Next() {
		var c runChunk
		if err := rows.Scan(&c.file, &data); err != nil {
			return fail(err)
		}
		if _, ok := r.files[c.file]; !ok {
			continue // not a dated trace result
		}
		if err := c.decode(data); err != nil {
			return fmt.Errorf("%w: file %d: owner chunk: %v", ErrDamaged, c.file, err)
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

// decode reads a chunk's entries (decodeOwners' form).
func (c *runChunk) decode(data []byte) error {
	c.hashes = make([]int64, 0, ownerChunk)
	var days []uint64
	it := ownerEntries{data: data}
	for it.next() {
		if it.day > 0 && days == nil {
			days = make([]uint64, len(c.hashes), cap(c.hashes))
		}
		c.hashes = append(c.hashes, it.h)
		if days != nil {
			days = append(days, it.day)
		}
	}
	c.days = days
	return it.err
}

// Newest merges the runs with hashes (sorted, distinct): for each hash,
// what the library holds of it. Matches are by hash, as Traced's. The
// runs are read once: Newest is called once.
func (r *OwnerRuns) Newest(hashes []int64) ([]Newest, error) {
	out := make([]Newest, len(hashes))
	for c := range r.chunks {
		f := r.files[c.file]
		// Both are sorted: the merge starts at the chunk's first hash.
		j, _ := slices.BinarySearch(hashes, c.hashes[0])
		for i, h := range c.hashes {
			for j < len(hashes) && hashes[j] < h {
				j++
			}
			if j == len(hashes) {
				break
			}
			if hashes[j] == h {
				out[j].add(f, c.day(i))
			}
		}
	}
	r.once.Do(r.stop)
	if r.err != nil {
		return nil, r.err
	}
	return out, nil
}

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
