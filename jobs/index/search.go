package index

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// ErrNothingToFind: a search for blank text.
var ErrNothingToFind = errors.New("nothing to look for")

// word is one word of a query: the rows holding any of its terms, or a
// term starting with prefix.
type word struct {
	exact  []string
	prefix string
}

func (w word) matches(t string) bool {
	return slices.Contains(w.exact, t) || (w.prefix != "" && strings.HasPrefix(t, w.prefix))
}

// minPrefix is the length from which a query word also finds the words it
// starts ("smi" finds SMITH); shorter words ("tx", "j") and numbers are
// found whole.
const minPrefix = 3

// parseQuery reads a search: a phone number in any format (its 10 digits;
// 7 to 9 digits find the numbers starting with them), an e-mail address
// (whole), or words that must each be found in the row (a name, an
// address: "smith 123 main st").
func parseQuery(text string) ([]word, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, ErrNothingToFind
	}
	if d, ok := phoneDigits(text); ok {
		if len(d) == 10 {
			return []word{{exact: []string{d}}}, nil
		}
		return []word{{prefix: d}}, nil
	}
	var out []word
	for _, f := range strings.Fields(text) {
		if e := emailTerm(f); e != "" {
			out = append(out, word{exact: []string{e}})
			continue
		}
		for _, w := range Words(f) {
			if canon(w) == "#" {
				continue // a unit designator: the index keeps the unit's number
			}
			q := word{exact: []string{w}}
			if c := canon(w); c != w {
				q.exact = append(q.exact, c)
			}
			if len(w) >= minPrefix && !allDigits(w) {
				q.prefix = w // a number (a house, a zip) is found whole
			}
			out = append(out, q)
		}
	}
	if len(out) == 0 {
		return nil, ErrNothingToFind
	}
	return uniqueWords(out), nil
}

// uniqueWords keeps the first of the words that look for the same thing,
// in order: a word given twice finds nothing more (a repeated word pasted
// a thousand times was looked up a thousand times).
func uniqueWords(ws []word) []word {
	seen := make(map[string]bool, len(ws))
	out := ws[:0]
	for _, w := range ws {
		k := strings.Join(w.exact, "\x00") + "\x01" + w.prefix
		if !seen[k] {
			seen[k] = true
			out = append(out, w)
		}
	}
	return out
}

// phoneDigits reads text as a phone number: only a phone's characters and
// 7 to 11 digits (11 starting with 1). It returns the digits without the
// leading 1.
func phoneDigits(text string) (string, bool) {
	var d []byte
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c >= '0' && c <= '9':
			d = append(d, c)
		case strings.IndexByte(phone.Punct, c) >= 0:
		default:
			return "", false
		}
	}
	if len(d) == 11 && d[0] == '1' {
		d = d[1:]
	}
	if len(d) < 7 || len(d) > 10 {
		return "", false
	}
	return string(d), true
}

// Ref is a row of an indexed result.
type Ref struct {
	File int64
	Row  int32 // 0-based data row
}

// hitFile is a file a search looks in.
type hitFile struct {
	id                       int64
	place, name, job, jobNme string
	date                     int64 // read by a team's search only, which sorts the files
	merged                   bool  // a merged result (rows reused from earlier results and its job's own)
}

// filesNewestFirst are the indexed results, newest first.
func filesNewestFirst(ctx context.Context, db *sqldb.DB) ([]hitFile, error) {
	rows, err := db.QueryContext(ctx, "SELECT id, place, name, job_id, job_name, merged_from <> '' FROM files WHERE skipped = '' ORDER BY date DESC, id DESC")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []hitFile
	for rows.Next() {
		var f hitFile
		if err := rows.Scan(&f.id, &f.place, &f.name, &f.job, &f.jobNme, &f.merged); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// Find returns the rows holding every word of text, newest result first,
// at most limit of them (all when limit ≤ 0), without reading the files.
func (x *Index) Find(ctx context.Context, text string, limit int) ([]Ref, error) {
	var out []Ref
	err := x.found(ctx, text, limit, func(_ *sqldb.DB, _ []word, _ []hitFile, refs []Ref) error {
		out = refs
		return nil
	})
	return out, err
}

// found hands then the rows holding every word of text (lookup: the
// indexed files, newest first, and at most limit rows found in them),
// within one reading of the index.
func (x *Index) found(ctx context.Context, text string, limit int, then func(db *sqldb.DB, ws []word, files []hitFile, refs []Ref) error) (err error) {
	ws, err := parseQuery(text)
	if err != nil {
		return err
	}
	db, done, err := x.reading(ctx)
	if err != nil {
		return err
	}
	defer done(&err)
	files, refs, err := x.lookup(ctx, db, ws, limit)
	if err != nil {
		return err
	}
	return then(db, ws, files, refs)
}

// lookup finds the rows holding every word: the indexed files, newest
// first, and the rows found in them, at most limit.
func (x *Index) lookup(ctx context.Context, db *sqldb.DB, ws []word, limit int) ([]hitFile, []Ref, error) {
	if db.Engine() == sqldb.Postgres {
		return x.findTeam(ctx, db, ws, limit)
	}
	files, err := filesNewestFirst(ctx, db)
	if err != nil {
		return nil, nil, fail(err)
	}
	refs, err := find(ctx, db, files, ws, limit)
	return files, refs, err
}

func find(ctx context.Context, db *sqldb.DB, files []hitFile, ws []word, limit int) ([]Ref, error) {
	exact, err := db.PrepareContext(ctx, "SELECT rows FROM terms WHERE file = ? AND term = ?")
	if err != nil {
		return nil, fail(err)
	}
	defer exact.Close()
	prefix, err := db.PrepareContext(ctx, "SELECT rows FROM terms WHERE file = ? AND term >= ? AND term < ?")
	if err != nil {
		return nil, fail(err)
	}
	defer prefix.Close()
	var out []Ref
	var lists [][]int32
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		var rows []int32
		for i, w := range ws {
			lists = lists[:0]
			for _, t := range w.exact {
				if w.prefix != "" && strings.HasPrefix(t, w.prefix) {
					continue // the prefix finds it
				}
				if lists, err = readPostings(ctx, exact, lists, f.id, t); err != nil {
					return out, fail(err)
				}
			}
			if w.prefix != "" {
				if lists, err = readPostings(ctx, prefix, lists, f.id, w.prefix, prefixEnd(w.prefix)); err != nil {
					return out, fail(err)
				}
			}
			got := union(lists)
			if i == 0 {
				rows = got
			} else {
				rows = intersect(rows, got)
			}
			if len(rows) == 0 {
				break
			}
		}
		for _, r := range rows {
			out = append(out, Ref{File: f.id, Row: r})
			if limit > 0 && len(out) >= limit {
				return out, nil
			}
		}
	}
	return out, nil
}

// findTeam is lookup in a team's database, where every statement is a
// round trip to the server: a word's postings are read for several files
// at once. A search for the first rows takes the files newest first in
// batches of 1, 2, 4… (it reads little); one for every row takes them all
// at once (one statement a word).
func (x *Index) findTeam(ctx context.Context, db *sqldb.DB, ws []word, limit int) ([]hitFile, []Ref, error) {
	// The first rows: every word in the newest file. Every row: the first
	// word in every file, the next words in the files holding it.
	n, words := 1, ws
	if limit <= 0 {
		n, words = math.MaxInt32, ws[:1]
	}
	files, got, err := x.filesWithFirst(ctx, db, words, n)
	if err != nil {
		return nil, nil, fail(err)
	}
	refs, err := findBatched(ctx, db, files, ws, limit, n, got)
	return files, refs, err
}

// findBatched finds the rows of files in batches of n, 2n…; got holds the
// postings of the first words in the first batch (by word, then file).
func findBatched(ctx context.Context, db *sqldb.DB, files []hitFile, ws []word, limit, n int, got []map[int64][][]int32) ([]Ref, error) {
	var out []Ref
	for start := 0; start < len(files); start, n = start+n, n*2 {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		batch := files[start:min(start+n, len(files))]
		ids := make([]int64, len(batch))
		for i, f := range batch {
			ids[i] = f.id
		}
		rows := map[int64][]int32{}
		for i, w := range ws {
			var lists map[int64][][]int32
			if start == 0 && i < len(got) {
				lists = got[i] // read with the files
			} else {
				var err error
				if lists, err = postingsOf(ctx, db, ids, w); err != nil {
					return out, fail(err)
				}
			}
			next := ids[:0]
			for _, id := range ids {
				r := union(lists[id])
				if i > 0 {
					r = intersect(rows[id], r)
				}
				rows[id] = r
				if len(r) > 0 {
					next = append(next, id)
				}
			}
			if ids = next; len(ids) == 0 {
				break
			}
		}
		for _, f := range batch {
			for _, r := range rows[f.id] {
				out = append(out, Ref{File: f.id, Row: r})
				if limit > 0 && len(out) >= limit {
					return out, nil
				}
			}
		}
	}
	return out, nil
}

// filesWithFirst is filesNewestFirst in a team's database, with the
// postings of the words ws in the n newest files (by word, then file): one
// statement. It is written so that the server plans it once: a prepared
// statement whose parameters are single values (not arrays) and without a
// window function gets PostgreSQL's generic plan after a few runs, where
// one with = ANY(array) is planned anew on every search (0.15 ms, more than
// its execution). It reads the files' ids and dates only: the rest of each
// file comes from hitFiles.
func (x *Index) filesWithFirst(ctx context.Context, db *sqldb.DB, ws []word, n int) ([]hitFile, []map[int64][][]int32, error) {
	q := `SELECT 1 AS k, id, date, NULL::integer AS w, NULL::bytea AS rows FROM files WHERE skipped = ''`
	var args []any
	// The newest file (files newest first when n > 1), taken again for each
	// look-up: cheaper than a CTE the server keeps.
	newest := "= (SELECT id FROM files WHERE skipped = '' ORDER BY date DESC, id DESC LIMIT 1)"
	if n > 1 {
		newest = "IN (SELECT id FROM files WHERE skipped = '' ORDER BY date DESC, id DESC LIMIT ?)"
	}
	for i, w := range ws {
		for _, c := range termConds(w) {
			q += fmt.Sprintf(`
		UNION ALL SELECT 0, file, 0, %d, rows FROM terms WHERE file %s AND %s`, i, newest, c.sql)
			if n > 1 {
				args = append(args, n)
			}
			args = append(args, c.args...)
		}
	}
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var files []hitFile
	got := make([]map[int64][][]int32, len(ws))
	for i := range got {
		got[i] = map[int64][][]int32{}
	}
	for rows.Next() {
		var k, id, date int64
		var w sql.NullInt64
		var blob []byte
		if err := rows.Scan(&k, &id, &date, &w, &blob); err != nil {
			return nil, nil, err
		}
		switch {
		case k == 1:
			files = append(files, hitFile{id: id, date: date})
		case w.Valid && blob != nil && int(w.Int64) < len(got):
			got[w.Int64][id] = append(got[w.Int64][id], decodePostings(blob))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	rows.Close()
	// Newest first, sorted here rather than by the server (a sort less in
	// the statement).
	slices.SortFunc(files, func(a, b hitFile) int {
		if c := cmp.Compare(b.date, a.date); c != 0 {
			return c
		}
		return cmp.Compare(b.id, a.id)
	})
	files, err = x.hitFiles(ctx, db, files)
	return files, got, err
}

// hitFiles fills in the files a team's search found by id: from what
// earlier searches read, else read in one statement. A file's entry is not
// changed once written (Sync writes it in the transaction that adds it; a
// changed result is a new entry, with a new id): what was read of an id
// stays true whoever writes the database. A file removed since the
// search's statement is left out.
func (x *Index) hitFiles(ctx context.Context, db *sqldb.DB, files []hitFile) ([]hitFile, error) {
	var missing []int64
	known := make([]bool, len(files))
	x.cacheMu.Lock()
	for i, f := range files {
		if c, ok := x.hitCache[f.id]; ok {
			files[i], known[i] = c, true
		} else {
			missing = append(missing, f.id)
		}
	}
	x.cacheMu.Unlock()
	if len(missing) == 0 {
		return files, nil
	}
	rows, err := db.QueryContext(ctx, "SELECT id, place, name, job_id, job_name, date, merged_from <> '' FROM files WHERE id = ANY(?)", missing)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	read := map[int64]hitFile{}
	for rows.Next() {
		var f hitFile
		if err := rows.Scan(&f.id, &f.place, &f.name, &f.job, &f.jobNme, &f.date, &f.merged); err != nil {
			return nil, err
		}
		read[f.id] = f
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	x.cacheMu.Lock()
	defer x.cacheMu.Unlock()
	out := files[:0]
	for i, f := range files {
		if !known[i] {
			c, ok := read[f.id]
			if !ok {
				continue // removed meanwhile
			}
			x.hitCache[f.id], f = c, c
		}
		out = append(out, f)
	}
	return out, nil
}

// termCond is a condition on terms.term with its arguments.
type termCond struct {
	sql  string
	args []any
}

// termConds are the conditions that find a word's terms in a team's
// database, one for each kind it has: its exact term (term = ?; = ANY(?)
// when it has several) that its prefix does not cover, and its prefix's
// range. A word of exact terms only (a phone, an e-mail) is one look-up in
// the primary key, with no range that holds nothing.
func termConds(w word) []termCond {
	var exact []string
	for _, t := range w.exact {
		if w.prefix == "" || !strings.HasPrefix(t, w.prefix) {
			exact = append(exact, t)
		}
	}
	var out []termCond
	switch len(exact) {
	case 0:
	case 1:
		out = append(out, termCond{"term = ?", []any{exact[0]}})
	default:
		out = append(out, termCond{"term = ANY(?)", []any{exact}})
	}
	if w.prefix != "" {
		out = append(out, termCond{"term >= ? AND term < ?", []any{w.prefix, prefixEndRune(w.prefix)}})
	}
	return out
}

// postingsOf reads the postings of a word's terms in the files ids, by
// file.
func postingsOf(ctx context.Context, db *sqldb.DB, ids []int64, w word) (map[int64][][]int32, error) {
	// A look-up in the primary key (file, term, seg) for each kind of term,
	// in one statement.
	var parts []string
	var args []any
	for _, c := range termConds(w) {
		parts = append(parts, "SELECT file, rows FROM terms WHERE file = ANY(?) AND "+c.sql)
		args = append(args, ids)
		args = append(args, c.args...)
	}
	out := map[int64][][]int32{}
	if len(parts) == 0 {
		return out, nil
	}
	rows, err := db.QueryContext(ctx, strings.Join(parts, " UNION ALL "), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var blob []byte
		if err := rows.Scan(&id, &blob); err != nil {
			return nil, err
		}
		out[id] = append(out[id], decodePostings(blob))
	}
	return out, rows.Err()
}

// prefixEnd is the first string after every string starting with p.
func prefixEnd(p string) string {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return "\xff\xff\xff\xff"
}

// prefixEndRune is the first string after every string starting with p,
// as valid UTF-8 (PostgreSQL takes nothing else): p with its last character the next one. Strings compare
// byte by byte (COLLATE "C"), which is in the order of their characters.
func prefixEndRune(p string) string {
	for p != "" {
		r, n := utf8.DecodeLastRuneInString(p)
		p = p[:len(p)-n]
		for r++; r <= utf8.MaxRune; r++ {
			if utf8.ValidRune(r) {
				return p + string(r)
			}
		}
	}
	return string(rune(utf8.MaxRune)) + string(rune(utf8.MaxRune))
}

// readPostings appends the rows of each segment of the term(s) the
// statement selects.
func readPostings(ctx context.Context, st *sql.Stmt, lists [][]int32, args ...any) ([][]int32, error) {
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return lists, err
	}
	defer rows.Close()
	for rows.Next() {
		var blob []byte
		if err := rows.Scan(&blob); err != nil {
			return lists, err
		}
		lists = append(lists, decodePostings(blob))
	}
	return lists, rows.Err()
}

func decodePostings(b []byte) []int32 {
	out := make([]int32, 0, len(b))
	var last int64 = -1
	for len(b) > 0 {
		d, n := binary.Uvarint(b)
		if n <= 0 {
			break
		}
		b = b[n:]
		last += int64(d)
		out = append(out, int32(last))
	}
	return out
}

// union merges sorted lists into one sorted list without repeats.
func union(lists [][]int32) []int32 {
	switch len(lists) {
	case 0:
		return nil
	case 1:
		return lists[0]
	}
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	out := make([]int32, 0, n)
	for _, l := range lists {
		out = append(out, l...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func intersect(a, b []int32) []int32 {
	out := a[:0]
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i++
			j++
		}
	}
	return out
}

// Search finds the rows holding text — a phone in any format, an e-mail,
// or words of a name or an address — newest result first, at most limit
// (library.DefaultSearchLimit when ≤ 0), each with the row's key fields
// read from its file and the first column that matched.
func (x *Index) Search(ctx context.Context, text string, limit int) ([]library.Hit, error) {
	if limit <= 0 {
		limit = library.DefaultSearchLimit
	}
	var hits []library.Hit
	err := x.found(ctx, text, limit, func(db *sqldb.DB, ws []word, files []hitFile, refs []Ref) (err error) {
		hits, err = x.hits(ctx, db, ws, files, refs)
		return err
	})
	return hits, err
}

// hits are the rows found, each with its file's job and, for a file on
// this computer, its place and the row's key fields read from it.
func (x *Index) hits(ctx context.Context, db *sqldb.DB, ws []word, files []hitFile, refs []Ref) ([]library.Hit, error) {
	byID := map[int64]hitFile{}
	for _, f := range files {
		byID[f.id] = f
	}
	// Rows of another computer's files are named, not read: the files are
	// there.
	hits := make([]library.Hit, len(refs))
	var here []Ref
	var at []int
	for i, r := range refs {
		f := byID[r.File]
		hits[i] = library.Hit{JobID: f.job, JobName: f.jobNme, Row: int(r.Row) + 1, Merged: f.merged}
		if f.place == x.place {
			here = append(here, r)
			at = append(at, i)
		} else {
			hits[i].Place = f.place
		}
	}
	err := x.readRows(ctx, db, here, func(j int, fc *fileCache, rec []string, line int) error {
		f := byID[here[j].File]
		h := &hits[at[j]]
		h.Path, h.Line = x.pathOf(f.name), line
		// What was found first, then the row's key fields.
		col := fc.matchedColumn(rec, ws)
		if col >= 0 {
			h.Column = fc.header[col]
			h.Fields = append(h.Fields, library.Field{Name: fc.header[col], Value: rec[col]})
		}
		for _, k := range fc.keys {
			if k != col && k < len(rec) && rec[k] != "" {
				h.Fields = append(h.Fields, library.Field{Name: fc.header[k], Value: rec[k]})
			}
		}
		return nil
	})
	return hits, err
}

// fileCache is what reading rows of an indexed file needs: where its rows
// start, its header and how its columns are read.
type fileCache struct {
	place   string
	name    string
	size    int64
	mtime   int64
	header  []string
	offsets []int64 // of rows 0, markEvery, 2×markEvery…
	lines   []int32
	cols    columns
	keys    []int // the columns shown with a hit
	kind    string
	jobID   string
	jobName string
	date    int64
	dated   bool
}

// matchedColumn is the first column holding a word of the query; -1
// none.
func (fc *fileCache) matchedColumn(rec []string, ws []word) int {
	for i, k := range fc.cols.kinds {
		if k == colNone || i >= len(rec) {
			continue
		}
		for _, t := range cellTerms(k, rec[i]) {
			for _, w := range ws {
				if w.matches(t) {
					return i
				}
			}
		}
	}
	return -1
}

func (x *Index) dropCache() {
	x.cacheMu.Lock()
	x.cache = map[int64]*fileCache{}
	x.hitCache = map[int64]hitFile{}
	x.cacheMu.Unlock()
}

// fileInfo loads (once) what reading rows of file id needs.
func (x *Index) fileInfo(ctx context.Context, db *sqldb.DB, id int64) (*fileCache, error) {
	x.cacheMu.Lock()
	fc := x.cache[id]
	x.cacheMu.Unlock()
	if fc != nil {
		return fc, nil
	}
	fc = &fileCache{}
	var header, cols string
	var marks []byte
	err := db.QueryRowContext(ctx, "SELECT place, name, size, mtime, header, cols, marks, kind, job_id, job_name, date, dated FROM files WHERE id = ?", id).
		Scan(&fc.place, &fc.name, &fc.size, &fc.mtime, &header, &cols, &marks, &fc.kind, &fc.jobID, &fc.jobName, &fc.date, &fc.dated)
	if err != nil {
		return nil, fail(err)
	}
	var sc savedColumns
	if err := json.Unmarshal([]byte(header), &fc.header); err != nil {
		return nil, fmt.Errorf("%w: file %d: header: %v", ErrDamaged, id, err)
	}
	if err := json.Unmarshal([]byte(cols), &sc); err != nil || len(sc.Kinds) != len(fc.header) {
		return nil, fmt.Errorf("%w: file %d: columns", ErrDamaged, id)
	}
	var off, line int64
	for len(marks) > 0 {
		d, n := binary.Uvarint(marks)
		if n <= 0 {
			return nil, fmt.Errorf("%w: file %d: row marks", ErrDamaged, id)
		}
		marks = marks[n:]
		dl, m := binary.Uvarint(marks)
		if m <= 0 {
			return nil, fmt.Errorf("%w: file %d: row marks", ErrDamaged, id)
		}
		marks = marks[m:]
		off += int64(d)
		line += int64(dl)
		fc.offsets = append(fc.offsets, off)
		fc.lines = append(fc.lines, int32(line))
	}
	fc.cols, fc.keys = sc.columns(), sc.Keys
	x.cacheMu.Lock()
	x.cache[id] = fc
	x.cacheMu.Unlock()
	return fc, nil
}

// ErrChanged: a result changed on disk since it was indexed (Sync again).
var ErrChanged = errors.New("the result changed since it was indexed")

// ErrElsewhere: a row of a team's index is in a result of another
// computer's library folder, which this computer cannot read.
var ErrElsewhere = errors.New("the result is in another computer's library folder")

// readRows reads the rows refs name from their files, in refs' order, and
// hands each to fn with its starting line. Rows of one file are read in
// row order through one open file.
func (x *Index) readRows(ctx context.Context, db *sqldb.DB, refs []Ref, fn func(i int, fc *fileCache, rec []string, line int) error) error {
	type got struct {
		fc   *fileCache
		rec  []string
		line int
	}
	results := make([]got, len(refs))
	var at rowCursor
	defer at.close()
	for _, i := range refOrder(refs) {
		ref := refs[i]
		if at.fc == nil || at.fc != x.cacheOf(ref.File) {
			if err := x.openAt(ctx, db, &at, ref.File); err != nil {
				return err
			}
		}
		rec, line, err := at.read(int(ref.Row))
		if err != nil {
			return err
		}
		results[i] = got{fc: at.fc, rec: rec, line: line}
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
	for i, g := range results {
		if err := fn(i, g.fc, g.rec, g.line); err != nil {
			return err
		}
	}
	return nil
}

// refOrder is the order to read refs in: by file, then by row.
func refOrder(refs []Ref) []int {
	order := make([]int, len(refs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ra, rb := refs[a], refs[b]
		if ra.File != rb.File {
			if ra.File < rb.File {
				return -1
			}
			return 1
		}
		return int(ra.Row - rb.Row)
	})
	return order
}

// rowCursor reads rows of one indexed file, on from the last one read
// where it can.
type rowCursor struct {
	fc *fileCache
	f  *os.File
	rr *library.RowReader
}

func (c *rowCursor) close() {
	if c.f != nil {
		c.f.Close()
		c.f = nil
	}
}

// openAt points the cursor at an indexed file: it must be on this
// computer and unchanged since it was indexed.
func (x *Index) openAt(ctx context.Context, db *sqldb.DB, c *rowCursor, file int64) error {
	c.close()
	c.rr = nil
	fc, err := x.fileInfo(ctx, db, file)
	if err != nil {
		return err
	}
	c.fc = fc
	if fc.place != x.place {
		return fmt.Errorf("%s: %w", fc.name, ErrElsewhere)
	}
	if c.f, err = input.OpenRegular(x.pathOf(fc.name)); err != nil {
		return err
	}
	if st, err := c.f.Stat(); err != nil || st.Size() != fc.size || st.ModTime().UnixNano() != fc.mtime {
		return fmt.Errorf("%s: %w", fc.name, ErrChanged)
	}
	return nil
}

// read reads data row row (0-based) of the file: its fields and its line.
func (c *rowCursor) read(row int) ([]string, int, error) {
	fc := c.fc
	m := row / markEvery
	if m >= len(fc.offsets) {
		return nil, 0, fmt.Errorf("%w: %s: row %d past its marks", ErrDamaged, fc.name, row+1)
	}
	// Read on from where the last row was when it is in the same
	// stretch; else start at the row's mark.
	if c.rr == nil || c.rr.Row() > row || c.rr.Row() < m*markEvery {
		c.rr = library.NewRowReaderAt(io.NewSectionReader(c.f, fc.offsets[m], fc.size-fc.offsets[m]), fc.offsets[m], m*markEvery, int(fc.lines[m]))
	}
	var out []string
	line := 0
	for c.rr.Row() <= row {
		rec, err := c.rr.Next()
		if err != nil {
			if err == io.EOF {
				return nil, 0, fmt.Errorf("%s: %w", fc.name, ErrChanged)
			}
			return nil, 0, err
		}
		if c.rr.Row() == row+1 {
			out, line = slices.Clone(rec), c.rr.Line()
		}
	}
	return out, line, nil
}

func (x *Index) cacheOf(id int64) *fileCache {
	x.cacheMu.Lock()
	defer x.cacheMu.Unlock()
	return x.cache[id]
}

// Stats are the index's figures.
type Stats struct {
	Files, Rows int64
	Bytes       int64 // the results' bytes indexed
	IndexBytes  int64 // the database's size on disk
}

// Stats counts the indexed results and measures the database.
func (x *Index) Stats(ctx context.Context) (_ Stats, err error) {
	db, done, err := x.reading(ctx)
	if err != nil {
		return Stats{}, err
	}
	defer done(&err)
	var s Stats
	if err := db.QueryRowContext(ctx, "SELECT count(*), coalesce(sum(rows), 0), coalesce(sum(size), 0) FROM files WHERE skipped = ''").
		Scan(&s.Files, &s.Rows, &s.Bytes); err != nil {
		return s, fail(err)
	}
	if db.Engine() == sqldb.Postgres {
		err := db.QueryRowContext(ctx, `SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c
			JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname IN
			('files', 'terms', 'owners', 'owner_chunks', 'phones', 'meta')`).Scan(&s.IndexBytes)
		return s, err
	}
	_, _ = db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
	for _, p := range []string{x.path, x.path + "-wal"} {
		if st, err := os.Stat(p); err == nil {
			s.IndexBytes += st.Size()
		}
	}
	return s, nil
}

// dateOf is a Unix time in seconds as a time (zero for 0).
func dateOf(s int64) time.Time {
	if s == 0 {
		return time.Time{}
	}
	return time.Unix(s, 0).UTC()
}

func allDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}
