package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// Earlier is a row of an earlier result in the library: where it is and
// when its job completed.
type Earlier struct {
	Ref
	File    string // the result's file name in the library folder
	Path    string // "" when the result is in another computer's folder (Place)
	Place   string // the result's library folder among a team's ("" in a computer's own index)
	JobID   string
	JobName string
	Mode    jobs.Mode
	Date    time.Time // the row's date: its job's completion (a merged row: its own job's)
}

// Holds reports whether the library holds a result that Traced (kind
// trace) or Scrubbed since since (kind dnc) could find a row in: a result
// of the kind with a job record, completed at since or later (zero: any
// time). When it holds none, a list need not be read for its keys.
func (x *Index) Holds(ctx context.Context, kind jobs.Kind, since time.Time) (_ bool, err error) {
	db, done, err := x.reading(ctx)
	if err != nil {
		return false, err
	}
	defer done(&err)
	var from int64
	if !since.IsZero() {
		from = since.Unix()
	}
	var one int
	err = db.QueryRowContext(ctx, "SELECT 1 FROM files WHERE skipped = '' AND dated = 1 AND kind = ? AND date >= ? LIMIT 1",
		string(kind), from).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, fail(err)
}

// Traced finds the traced rows of the library whose owner key is one of
// keys (OwnerKey of the list's rows): for each key, the rows found, newest
// first. Only results with a job record count (their date and job are
// known), and only rows that found the owner. A match is by hash: confirm
// it with Rows before reusing the row. The list's keys, sorted by hash, are
// merged with the index's sorted owner runs: for a long list in one
// reading of every run, for a short one by the chunks that may hold it.
func (x *Index) Traced(ctx context.Context, keys []string) (_ map[string][]Earlier, err error) {
	want := newOwnerWant(keys)
	out := map[string][]Earlier{}
	if len(want.hashes) == 0 {
		return out, nil
	}
	db, done, err := x.reading(ctx)
	if err != nil {
		return nil, err
	}
	defer done(&err)
	files, err := datedFiles(ctx, db, string(jobs.KindTrace), 0)
	if err != nil {
		return nil, err
	}
	add := func(f dated, h int64, row int32, day uint64) {
		e := f.earlier(x, row, sql.NullInt64{})
		if day > 0 {
			e.Date = dateOf(int64(day-1) * 86400)
		}
		for _, k := range want.keysOf(h) {
			out[k] = append(out[k], e)
		}
	}
	if len(want.hashes) >= mergeAll {
		err = allOwners(ctx, db, files, want.hashes, add)
	} else {
		for _, f := range files {
			if err = ownersOf(ctx, db, f.id, want.hashes, func(h int64, row int32, day uint64) { add(f, h, row, day) }); err != nil {
				break
			}
		}
	}
	if err != nil {
		return nil, fail(err)
	}
	for k, es := range out {
		// Newest first; of the same day, this computer's copy first (a
		// teammate's result downloaded here is in both places).
		slices.SortStableFunc(es, func(a, b Earlier) int {
			if c := b.Date.Compare(a.Date); c != 0 {
				return c
			}
			return boolInt(a.Path == "") - boolInt(b.Path == "")
		})
		out[k] = es
	}
	return out, nil
}

// mergeAll is how many distinct hashes make Traced read every owner run
// at once rather than the chunks that may hold them.
const mergeAll = 2048

// ownerWant are the keys looked for, sorted by their hash.
type ownerWant struct {
	hashes []int64  // distinct, sorted
	at     []int32  // keys[at[i]:at[i+1]] hash to hashes[i]
	keys   []string // grouped by hash
}

func newOwnerWant(keys []string) *ownerWant {
	type hk struct {
		h int64
		k string
	}
	hks := make([]hk, 0, len(keys))
	for _, k := range keys {
		if k != "" {
			hks = append(hks, hk{OwnerHash(k), k})
		}
	}
	slices.SortFunc(hks, func(a, b hk) int {
		if a.h != b.h {
			return cmpInt64(a.h, b.h)
		}
		return strings.Compare(a.k, b.k)
	})
	w := &ownerWant{}
	for i, e := range hks {
		if i > 0 && e == hks[i-1] {
			continue // a key listed twice
		}
		if len(w.hashes) == 0 || w.hashes[len(w.hashes)-1] != e.h {
			w.hashes = append(w.hashes, e.h)
			w.at = append(w.at, int32(len(w.keys)))
		}
		w.keys = append(w.keys, e.k)
	}
	w.at = append(w.at, int32(len(w.keys)))
	return w
}

// keysOf are the keys whose hash is h.
func (w *ownerWant) keysOf(h int64) []string {
	i, ok := slices.BinarySearch(w.hashes, h)
	if !ok {
		return nil
	}
	return w.keys[w.at[i]:w.at[i+1]]
}

func cmpInt64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// allOwners reads every owner chunk of files in one statement, merging
// each with hashes (sorted).
func allOwners(ctx context.Context, db *sqldb.DB, files map[int64]dated, hashes []int64, fn func(f dated, h int64, row int32, day uint64)) error {
	rows, err := db.QueryContext(ctx, "SELECT o.file, c.data FROM owners o JOIN owner_chunks c ON c.id = o.chunk ORDER BY o.file, o.run, o.first")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var file int64
		var data []byte
		if err := rows.Scan(&file, &data); err != nil {
			return err
		}
		f, ok := files[file]
		if !ok || len(data) < 8 {
			continue // not a dated trace result
		}
		// The chunk is sorted: the merge starts at its first hash.
		j, _ := slices.BinarySearch(hashes, int64(binary.BigEndian.Uint64(data)))
		want := hashes[j:]
		err := decodeOwners(data, want, func(i int, row int32, day uint64) { fn(f, want[i], row, day) })
		if err != nil {
			return fmt.Errorf("%w: file %d: owner chunk: %v", ErrDamaged, file, err)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	return ctx.Err()
}

// chunkRef is a chunk of a file's owner run.
type chunkRef struct {
	run       int
	first, id int64
}

// ownersOf hands fn the owner entries of a file whose hash is in hashes
// (sorted), reading only the chunks whose hash range holds one of them.
func ownersOf(ctx context.Context, db *sqldb.DB, file int64, hashes []int64, fn func(h int64, row int32, day uint64)) error {
	rows, err := db.QueryContext(ctx, "SELECT run, first, chunk FROM owners WHERE file = ? ORDER BY run, first", file)
	if err != nil {
		return err
	}
	var chunks []chunkRef
	for rows.Next() {
		var c chunkRef
		if err := rows.Scan(&c.run, &c.first, &c.id); err != nil {
			rows.Close()
			return err
		}
		chunks = append(chunks, c)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	st, err := db.PrepareContext(ctx, "SELECT data FROM owner_chunks WHERE id = ?")
	if err != nil {
		return err
	}
	defer st.Close()
	for i, c := range chunks {
		// The chunk holds the hashes from its first to the next chunk's of
		// the same run (the last one: to the end).
		j, _ := slices.BinarySearch(hashes, c.first)
		if j == len(hashes) {
			continue
		}
		if i+1 < len(chunks) && chunks[i+1].run == c.run && hashes[j] >= chunks[i+1].first {
			continue
		}
		var data []byte
		if err := st.QueryRowContext(ctx, c.id).Scan(&data); err != nil {
			return err
		}
		want := hashes[j:]
		if err := decodeOwners(data, want, func(i int, row int32, day uint64) { fn(want[i], row, day) }); err != nil {
			return fmt.Errorf("%w: file %d: owner chunk: %v", ErrDamaged, file, err)
		}
	}
	return ctx.Err()
}

// decodeOwners reads a chunk (sorted by hash) and hands fn its entries
// whose hash is in hashes (sorted), walking both in step: the hash's
// place in hashes, the entry's row and day.
func decodeOwners(data []byte, hashes []int64, fn func(i int, row int32, day uint64)) error {
	it := ownerEntries{data: data}
	j := 0
	for j < len(hashes) && it.next() {
		for j < len(hashes) && hashes[j] < it.h {
			j++
		}
		if j < len(hashes) && hashes[j] == it.h {
			fn(j, int32(it.row), it.day)
		}
	}
	return it.err
}

// ownerEntries walks the entries of an owner chunk: each is its hash (8
// bytes, big-endian), its row and its day (varints).
type ownerEntries struct {
	data     []byte
	h        int64
	row, day uint64
	err      error // why the walk stopped early
}

// next reads the next entry; false at the end or on a damaged one.
func (it *ownerEntries) next() bool {
	if len(it.data) == 0 {
		return false
	}
	if len(it.data) < 8 {
		it.err = fmt.Errorf("cut short")
		return false
	}
	it.h = int64(binary.BigEndian.Uint64(it.data))
	row, n := binary.Uvarint(it.data[8:])
	if n <= 0 {
		it.err = fmt.Errorf("bad row")
		return false
	}
	day, m := binary.Uvarint(it.data[8+n:])
	if m <= 0 {
		it.err = fmt.Errorf("bad day")
		return false
	}
	it.row, it.day, it.data = row, day, it.data[8+n+m:]
	return true
}

// dated is an indexed result with a job record.
type dated struct {
	id    int64
	place string
	name  string
	job   string
	jname string
	mode  jobs.Mode
	date  int64
}

func (f dated) earlier(x *Index, row int32, own sql.NullInt64) Earlier {
	d := f.date
	if own.Valid {
		d = own.Int64
	}
	e := Earlier{Ref: Ref{File: f.id, Row: row}, File: f.name, Place: f.place, JobID: f.job, JobName: f.jname,
		Mode: f.mode, Date: dateOf(d)}
	if f.place == x.place {
		e.Path = x.pathOf(f.name)
	}
	return e
}

// datedFiles are the indexed results of a kind with a job record,
// completed at since or later (0: any time).
func datedFiles(ctx context.Context, db *sqldb.DB, kind string, since int64) (map[int64]dated, error) {
	rows, err := db.QueryContext(ctx, "SELECT id, place, name, job_id, job_name, mode, date FROM files WHERE skipped = '' AND dated = 1 AND kind = ? AND date >= ?",
		kind, since)
	if err != nil {
		return nil, fail(err)
	}
	defer rows.Close()
	out := map[int64]dated{}
	for rows.Next() {
		var f dated
		var mode string
		if err := rows.Scan(&f.id, &f.place, &f.name, &f.job, &f.jname, &mode, &f.date); err != nil {
			return nil, fail(err)
		}
		f.mode = jobs.Mode(mode)
		out[f.id] = f
	}
	return out, fail(rows.Err())
}

// Scrub is a phone's answer in an earlier DNC result.
type Scrub struct {
	Earlier
	Flags layout.Flags
}

// Scrubbed finds, for each phone (phone.Key), its newest answer in a DNC
// result of the library scrubbed at since or later whose flags are all
// known (a number with an unknown answer is scrubbed again). Only results
// with a job record count: their scrub date is known.
func (x *Index) Scrubbed(ctx context.Context, phones []uint64, since time.Time) (map[uint64]Scrub, error) {
	return x.scrubs(ctx, phones, since, time.Time{}, true)
}

// ScrubbedBefore finds, for each phone, its newest answer in a DNC result
// of the library scrubbed before before (a result scrubbed at before is
// not one of them): the scrub before a new one, to say what changed since.
func (x *Index) ScrubbedBefore(ctx context.Context, phones []uint64, before time.Time) (map[uint64]Scrub, error) {
	return x.scrubs(ctx, phones, time.Time{}, before, false)
}

// scrubs finds each phone's newest answer scrubbed at since or later and
// before before (zero: no bound); known keeps only answers whose flags are
// all known.
func (x *Index) scrubs(ctx context.Context, phones []uint64, since, before time.Time, known bool) (_ map[uint64]Scrub, err error) {
	want := make(map[int64]bool, len(phones))
	for _, p := range phones {
		if p != 0 {
			want[int64(p)] = true
		}
	}
	out := map[uint64]Scrub{}
	if len(want) == 0 {
		return out, nil
	}
	db, done, err := x.reading(ctx)
	if err != nil {
		return nil, err
	}
	defer done(&err)
	var from int64
	if !since.IsZero() {
		from = since.Unix()
	}
	files, err := datedFiles(ctx, db, string(jobs.KindDNC), from)
	if err != nil {
		return nil, err
	}
	ids := make([]int64, 0, len(files))
	for id := range files {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	st, err := db.PrepareContext(ctx, "SELECT key, row, flags, date FROM phones WHERE file = ?")
	if err != nil {
		return nil, fail(err)
	}
	defer st.Close()
	q := scrubQuery{want: want, since: since, before: before, known: known, out: out}
	for _, id := range ids {
		if err := x.scrubsOf(ctx, st, id, files[id], &q); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// scrubQuery is what scrubs asks of each DNC result, and its answers.
type scrubQuery struct {
	want          map[int64]bool
	since, before time.Time
	known         bool
	out           map[uint64]Scrub
}

// scrubsOf adds the answers of one DNC result for the phones wanted: of
// the dates asked, known when asked, the newest answer of each phone kept
// (this computer's copy before another's on the same day).
func (x *Index) scrubsOf(ctx context.Context, st *sql.Stmt, id int64, f dated, q *scrubQuery) error {
	rows, err := st.QueryContext(ctx, id)
	if err != nil {
		return fail(err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, flags int64
		var row int32
		var date sql.NullInt64
		if err := rows.Scan(&key, &row, &flags, &date); err != nil {
			return fail(err)
		}
		if !q.want[key] {
			continue
		}
		e := f.earlier(x, row, date)
		if e.Date.Before(q.since) || !q.before.IsZero() && !e.Date.Before(q.before) {
			continue // a merged row from an older scrub, or too new
		}
		fl := decodeFlags(flags)
		if q.known && layout.Callability(true, fl).Unknown() {
			continue
		}
		if old, ok := q.out[uint64(key)]; ok && (e.Date.Before(old.Date) || e.Date.Equal(old.Date) && (old.Path != "" || e.Path == "")) {
			continue // an older answer, or the same day's from another computer's copy
		}
		q.out[uint64(key)] = Scrub{Earlier: e, Flags: fl}
	}
	if err := rows.Close(); err != nil {
		return fail(err)
	}
	return nil
}

// Row is a row of an indexed result read back from its file.
type Row struct {
	Header []string
	Cells  []string
	// OwnerKey is the row's owner key as the index read it (trace results).
	OwnerKey string
}

// Rows reads rows of indexed results, in the order given, and hands each
// to fn. It fails with ErrChanged when a file is not what was indexed (Sync
// again).
func (x *Index) Rows(ctx context.Context, refs []Ref, fn func(i int, r Row) error) (err error) {
	db, done, err := x.reading(ctx)
	if err != nil {
		return err
	}
	defer done(&err)
	var sc scratch
	var key []byte
	return x.readRows(ctx, db, refs, func(i int, fc *fileCache, rec []string, _ int) error {
		r := Row{Header: fc.header, Cells: rec}
		if fc.kind == string(jobs.KindTrace) {
			key = fc.cols.appendOwnerKey(key[:0], &sc, rec)
			r.OwnerKey = string(key)
		}
		return fn(i, r)
	})
}

// describe names a ref for an error.
func (r Ref) String() string { return fmt.Sprintf("file %d row %d", r.File, r.Row+1) }
