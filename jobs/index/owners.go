package index

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// OwnerRuns are the owner runs of the index's dated trace results, read
// on a goroutine of their own (ReadOwners) while a list is being read, and
// merged with the list's owner hashes once they are known (Newest): what
// Traced finds for a long list, without a key or an Earlier made per row.
// The runs are read ahead at most readAhead chunks; the merge takes them
// as they come.
type OwnerRuns struct {
	x      *Index
	chunks chan runChunk
	files  map[int64]dated // set before the first chunk is sent
	err    error           // the reading's, set before chunks is closed
	stop   context.CancelFunc
	once   sync.Once
}

// runChunk is a chunk of a dated trace result's owner run.
type runChunk struct {
	file int64
	data []byte
}

// readAhead bounds the chunks read ahead of the merge (about 3 KB each:
// 256 entries).
const readAhead = 1 << 15

// ReadOwners starts reading the index's owner runs; Newest merges them
// with a list's hashes, and Close stops the reading when they are not
// needed (call it in any case: it waits for the goroutine).
func (x *Index) ReadOwners(ctx context.Context) *OwnerRuns {
	ctx, stop := context.WithCancel(ctx)
	r := &OwnerRuns{x: x, chunks: make(chan runChunk, readAhead), stop: stop}
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
	for rows.Next() {
		var c runChunk
		if err := rows.Scan(&c.file, &c.data); err != nil {
			return fail(err)
		}
		if _, ok := r.files[c.file]; !ok || len(c.data) < 8 {
			continue // not a dated trace result
		}
		select {
		case r.chunks <- c:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return fail(rows.Err())
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

// Newest merges the runs with hashes (sorted, distinct): for each hash,
// what the library holds of it. Matches are by hash, as Traced's. The
// runs are read once: Newest is called once.
func (r *OwnerRuns) Newest(hashes []int64) ([]Newest, error) {
	out := make([]Newest, len(hashes))
	var bad error
	for c := range r.chunks {
		if bad != nil {
			continue // drained, so that the reading ends
		}
		f := r.files[c.file]
		// The chunk is sorted: the merge starts at its first hash.
		j, _ := slices.BinarySearch(hashes, int64(binary.BigEndian.Uint64(c.data)))
		want := out[j:]
		err := decodeOwners(c.data, hashes[j:], func(i int, _ int32, day uint64) { want[i].add(f, day) })
		if err != nil {
			bad = fmt.Errorf("%w: file %d: owner chunk: %v", ErrDamaged, c.file, err)
			r.x.noteDamage(bad)
		}
	}
	r.once.Do(r.stop)
	if r.err != nil {
		return nil, r.err
	}
	return out, bad
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
