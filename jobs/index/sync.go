package index

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// Progress is how far a Sync is.
type Progress struct {
	Files, FilesDone int   // results to index, and indexed so far
	Bytes, BytesDone int64 // their sizes
	Current          string
}

// Report says what a Sync changed.
type Report struct {
	Indexed    int      // results indexed: new, changed, or all after a rebuild
	Removed    int      // results gone from the folder, forgotten
	Unreadable []string // files that are not results (no header row)
	// Rebuilt says why the index was found damaged and made anew.
	Rebuilt string
}

// Changed reports whether the Sync changed the index.
func (r Report) Changed() bool { return r.Indexed > 0 || r.Removed > 0 }

// Sync brings the index up to date with the library folder: results new
// or changed since the last Sync (by the size and modification time of the
// file and of its job record) are indexed, removed ones forgotten. A
// damaged index is rebuilt from the files. progress, when set, is called
// as files are read. ctx stops it between rows; what was indexed stays.
func (x *Index) Sync(ctx context.Context, progress func(Progress)) (Report, error) {
	x.syncMu.Lock()
	defer x.syncMu.Unlock()
	var rep Report
	var err error
	if why := x.takeDamage(); why != "" {
		// A read found the index damaged: rebuilt before anything else.
		err = fmt.Errorf("%w: %s", ErrDamaged, why)
	} else {
		rep, err = x.sync(ctx, progress)
	}
	if errors.Is(err, ErrDamaged) {
		why := strings.TrimPrefix(err.Error(), ErrDamaged.Error()+": ")
		if rerr := x.rebuild(why); rerr != nil {
			return rep, rerr
		}
		rep, err = x.sync(ctx, progress)
		rep.Rebuilt = why
	}
	if rep.Rebuilt == "" && x.rebuilt != "" {
		rep.Rebuilt, x.rebuilt = x.rebuilt, ""
	}
	return rep, err
}

// Current reports whether the index holds the library folder as it is
// now, the files read with the answers corrections gives (as
// SetCorrections would set them), without bringing it up to date: false
// when Sync would read or forget a file (or rebuild a damaged index). It
// takes no lock a Sync holds, so it answers at once while one runs
// (false, while that one has files left to read).
func (x *Index) Current(ctx context.Context, corrections Corrections) (bool, error) {
	x.cacheMu.Lock()
	damaged := x.damage != ""
	x.cacheMu.Unlock()
	if damaged {
		return false, nil
	}
	db, done, err := x.handle()
	if err != nil {
		return false, err
	}
	defer done()
	w, err := x.pending(ctx, db, corrections)
	return err == nil && w.none(), err
}

// indexed is what the index holds of a file.
type indexed struct {
	id                  int64
	size, mtime, rs, rm int64
	skipped, mergedFrom string
	layout              string // how its layout was read (layoutPrint)
	stillThere          bool
}

func (x *Index) sync(ctx context.Context, progress func(Progress)) (Report, error) {
	var rep Report
	db, done, err := x.handle()
	if err != nil {
		return rep, err
	}
	defer done()
	w, err := x.pending(ctx, db, x.corrections)
	if err != nil || w.none() {
		return rep, err
	}
	if err := setClean(ctx, db, false); err != nil {
		return rep, fail(err)
	}
	for _, id := range w.gone {
		if err := removeFile(ctx, db, id); err != nil {
			return rep, fail(err)
		}
		rep.Removed++
	}
	err = x.indexAll(ctx, db, w, &rep, progress)
	x.dropCache()
	if err != nil {
		return rep, err
	}
	if err := setClean(ctx, db, true); err != nil {
		return rep, fail(err)
	}
	return rep, nil
}

// work is what a Sync has to do.
type work struct {
	todo       []*fileMeta     // files to (re)index
	gone       []int64         // files to forget
	superseded map[string]bool // raw results a merged result holds (not indexed: their rows are in it)
}

// none reports whether there is nothing to do.
func (w work) none() bool { return len(w.todo) == 0 && len(w.gone) == 0 }

// pending is what a Sync has to do now: the folder's files against what
// db holds of them, read with the answers corrections gives.
func (x *Index) pending(ctx context.Context, db *sqldb.DB, corrections Corrections) (work, error) {
	files, err := x.scan()
	if err != nil {
		return work{}, err
	}
	have, err := loadFiles(ctx, db, x.place)
	if err != nil {
		return work{}, fail(err)
	}
	return x.plan(files, have, corrections), nil
}

// plan compares the folder's files with what the index holds.
func (x *Index) plan(files []*fileMeta, have map[string]*indexed, corrections Corrections) work {
	w := work{superseded: map[string]bool{}}
	queued := map[string]bool{}
	for _, f := range files {
		h, ok := have[f.name]
		if ok {
			h.stillThere = true
		}
		if ok && h.size == f.size && h.mtime == f.mtime && h.rs == f.recSize && h.rm == f.recTime &&
			(h.skipped != "" || readAsBefore(corrections, h.layout)) {
			if h.mergedFrom != "" {
				w.superseded[h.mergedFrom] = true
			}
			continue
		}
		x.readRecord(f)
		if f.meta.Merged != nil && f.meta.Merged.Raw != "" {
			w.superseded[f.meta.Merged.Raw] = true
		}
		w.todo = append(w.todo, f)
		queued[f.name] = true
	}
	// A raw result a merged result came to hold (or stopped holding).
	for _, f := range files {
		if h, ok := have[f.name]; ok && !queued[f.name] && (h.skipped == skipSuperseded) != w.superseded[f.name] {
			x.readRecord(f)
			w.todo = append(w.todo, f)
		}
	}
	for _, h := range have {
		if !h.stillThere {
			w.gone = append(w.gone, h.id)
		}
	}
	return w
}

// indexAll indexes the files of w, reporting progress.
func (x *Index) indexAll(ctx context.Context, db *sqldb.DB, w work, rep *Report, progress func(Progress)) error {
	p := Progress{Files: len(w.todo)}
	for _, f := range w.todo {
		p.Bytes += f.size
	}
	for _, f := range w.todo {
		p.Current = f.name
		base := p.BytesDone
		var onBytes func(int64)
		if progress != nil {
			progress(p)
			onBytes = func(n int64) {
				q := p
				q.BytesDone = base + n
				progress(q)
			}
		}
		err := x.indexOne(ctx, db, f, w.superseded[f.name], onBytes)
		switch {
		case errors.Is(err, errUnreadable):
			rep.Unreadable = append(rep.Unreadable, f.name)
		case errors.Is(err, os.ErrNotExist):
			// Removed while the Sync ran: the next one forgets it.
		case err != nil:
			return fail(fmt.Errorf("index: %s: %w", f.name, err))
		default:
			rep.Indexed++
		}
		p.FilesDone++
		p.BytesDone = base + f.size
	}
	if progress != nil {
		p.Current = ""
		progress(p)
	}
	return nil
}

// skipSuperseded is files.skipped of a raw result a merged one holds.
const skipSuperseded = "superseded"

// scan lists the results in the folder with the sizes and times of their
// files and job records.
func (x *Index) scan() ([]*fileMeta, error) {
	des, err := os.ReadDir(x.dir)
	if err != nil {
		return nil, fmt.Errorf("index: list %s: %w", x.dir, err)
	}
	var out []*fileMeta
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") || !strings.EqualFold(filepath.Ext(name), ".csv") || !input.Regular(x.dir, de) {
			continue // a folder, a named pipe, a device: never opened
		}
		info, err := de.Info()
		if err != nil {
			continue // removed meanwhile
		}
		f := &fileMeta{name: name, size: info.Size(), mtime: info.ModTime().UnixNano(), recSize: -1, recTime: -1}
		if ri, err := os.Stat(library.RecordPath(x.pathOf(name))); err == nil {
			f.recSize, f.recTime = ri.Size(), ri.ModTime().UnixNano()
		}
		out = append(out, f)
	}
	return out, nil
}

// readRecord reads a file's job record, when it has a sound one.
func (x *Index) readRecord(f *fileMeta) {
	if f.recSize < 0 {
		return
	}
	if m, err := library.ReadRecord(library.RecordPath(x.pathOf(f.name))); err == nil {
		f.meta, f.hasRecord = m, true
	}
}

func (x *Index) pathOf(name string) string { return filepath.Join(x.dir, name) }

// loadFiles is what the index holds of the files of a place.
func loadFiles(ctx context.Context, db *sqldb.DB, place string) (map[string]*indexed, error) {
	rows, err := db.QueryContext(ctx, "SELECT id, name, size, mtime, rec_size, rec_mtime, skipped, merged_from, layout FROM files WHERE place = ?", place)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	have := map[string]*indexed{}
	for rows.Next() {
		var h indexed
		var name string
		if err := rows.Scan(&h.id, &name, &h.size, &h.mtime, &h.rs, &h.rm, &h.skipped, &h.mergedFrom, &h.layout); err != nil {
			return nil, err
		}
		have[name] = &h
	}
	return have, rows.Err()
}

// removeFile forgets a file (its owner entries go with the next purge).
func removeFile(ctx context.Context, db *sqldb.DB, id int64) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := deleteRows(ctx, tx, id); err != nil {
		return err
	}
	return tx.Commit()
}

func deleteRows(ctx context.Context, tx *sqldb.Tx, id int64) error {
	if err := clearRows(ctx, tx, id); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "DELETE FROM files WHERE id = ?", id)
	return err
}

// clearRows forgets what the index holds of a file's rows, keeping the
// file's own entry.
func clearRows(ctx context.Context, tx *sqldb.Tx, id int64) error {
	for _, q := range []string{"DELETE FROM terms WHERE file = ?",
		"DELETE FROM owner_chunks WHERE id IN (SELECT chunk FROM owners WHERE file = ?)", "DELETE FROM owners WHERE file = ?",
		"DELETE FROM phones WHERE file = ?"} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return err
		}
	}
	if tx.Engine() == sqldb.SQLite {
		_, err := tx.ExecContext(ctx, "DELETE FROM owner_hashes WHERE file = ?", id)
		return err
	}
	return nil
}

// indexOne (re)indexes one file in one transaction. Another process may
// have indexed it meanwhile: it is looked at again inside the transaction.
func (x *Index) indexOne(ctx context.Context, db *sqldb.DB, f *fileMeta, superseded bool, progress func(int64)) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	same, err := x.indexedAsIs(ctx, tx, f, superseded)
	if err != nil {
		return err
	}
	if same {
		return tx.Commit()
	}
	id, err := x.insertFile(ctx, tx, f, superseded)
	if err != nil {
		return err
	}
	if superseded {
		return tx.Commit()
	}
	b, l, err := x.readFile(ctx, tx, id, f, progress)
	if errors.Is(err, errUnreadable) {
		return noteUnreadable(ctx, tx, id, err)
	}
	if err != nil {
		return err
	}
	header, _ := json.Marshal(l.Headers)
	cols, _ := json.Marshal(b.cols.saved(library.KeyColumns(l)))
	if _, err := tx.ExecContext(ctx, "UPDATE files SET layout = ? WHERE id = ?", layoutPrint(x.corrections, l.Signature), id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE files SET kind = ?, rows = ?, header = ?, cols = ?, marks = ? WHERE id = ?",
		kindName(b.kind), b.rows, string(header), string(cols), b.marks, id); err != nil {
		return err
	}
	return tx.Commit()
}

// indexedAsIs reports whether f is in the index as it is now (its size,
// times, record, whether superseded, and its rows read in the layout the
// corrections give); a file indexed otherwise has its rows taken out.
func (x *Index) indexedAsIs(ctx context.Context, tx *sqldb.Tx, f *fileMeta, superseded bool) (bool, error) {
	var h indexed
	err := tx.QueryRowContext(ctx, "SELECT id, size, mtime, rec_size, rec_mtime, skipped, layout FROM files WHERE place = ? AND name = ?", x.place, f.name).
		Scan(&h.id, &h.size, &h.mtime, &h.rs, &h.rm, &h.skipped, &h.layout)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return false, nil
	case err != nil:
		return false, err
	}
	if h.size == f.size && h.mtime == f.mtime && h.rs == f.recSize && h.rm == f.recTime && (h.skipped == skipSuperseded) == superseded &&
		(h.skipped != "" || readAsBefore(x.corrections, h.layout)) {
		return true, nil
	}
	return false, deleteRows(ctx, tx, h.id)
}

// insertFile records f (no rows yet; superseded: none to read) and gives
// its id.
func (x *Index) insertFile(ctx context.Context, tx *sqldb.Tx, f *fileMeta, superseded bool) (int64, error) {
	date, dated := f.date()
	mergedFrom := ""
	if f.meta.Merged != nil {
		mergedFrom = f.meta.Merged.Raw
	}
	skipped := ""
	if superseded {
		skipped = skipSuperseded
	}
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO files(place, name, size, mtime, rec_size, rec_mtime, kind, job_id, job_name, mode, date, dated,
		rows, header, cols, marks, skipped, merged_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, '[]', '{}', ?, ?, ?) RETURNING id`,
		x.place, f.name, f.size, f.mtime, f.recSize, f.recTime, string(f.meta.Kind), f.meta.JobID, f.meta.Name, string(f.meta.Mode),
		date, boolInt(dated), []byte{}, skipped, mergedFrom).Scan(&id)
	return id, err
}

// noteUnreadable records why the file id is not read (err, an
// errUnreadable) and commits, keeping none of the rows read before it; it
// returns err.
func noteUnreadable(ctx context.Context, tx *sqldb.Tx, id int64, err error) error {
	why := strings.TrimPrefix(err.Error(), errUnreadable.Error()+": ")
	if err := clearRows(ctx, tx, id); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE files SET skipped = ? WHERE id = ?", why, id); err != nil {
		return err
	}
	if cerr := tx.Commit(); cerr != nil {
		return cerr
	}
	return err
}

// boolInt is a flag as the index keeps it: 1 or 0.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
