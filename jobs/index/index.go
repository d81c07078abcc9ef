// Package index keeps an index of every result in the library, in SQLite:
// the words of names, addresses and e-mails and the phones of every row
// (search), the owner key of every traced row (whether a list's rows were
// traced before), and the flags of every scrubbed phone with its scrub date
// (whether a phone was scrubbed within the registry's 31 days). Each entry
// names the result file and the row it came from; the rows themselves stay
// in the files, and a hit is read back from its file.
//
// The index is a cache of the library folder: Sync compares the folder with
// what the index holds (by name, size and modification time of each result
// and of its job record) and indexes what is new or changed and forgets
// what was removed. Each result is indexed in one transaction, streaming its
// rows, so memory stays flat whatever its size, and a search never sees half
// a file. A damaged index (not a database, a damaged page, another schema
// version, a table missing) is deleted and rebuilt from the files, never
// trusted.
//
// Why not FTS5: on a 400,000-row result FTS5 (contentless, detail=none)
// took 7.5 s of CPU to index and its queries go through SQLite's
// interpreter; the postings below are built in Go, written as a few
// thousand sorted blobs per file, and decoded in Go at search time (see
// BenchmarkIndex400k and BenchmarkSearch8M).
package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"strings"
	"sync"

	"modernc.org/sqlite"

	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// schemaVersion is PRAGMA user_version of an index this code writes. An
// index of any other version is rebuilt (version 7 reads each file with the
// person's layout answers and keeps every list apart; 8 keeps each owner
// run's hashes side by side for the quote's merge).
const schemaVersion = 8

// The schema's migrations, one folder per engine (schema/sqlite,
// schema/postgres), applied by jobs/sqldb. A SQLite index starts at
// version 5, as it was before its schema was a migration.
//
//go:embed schema
var schemaFS embed.FS

var (
	sqliteSchema   = sqldb.Schema(schemaFS, "schema/sqlite")
	postgresSchema = sqldb.Schema(schemaFS, "schema/postgres")
)

// versionTable is goose's record of the index's schema in a team's
// PostgreSQL database.
const versionTable = "skipdesk_index_version"

// tables are the tables a sound index has (a computer's: a team's keeps
// no owner_hashes).
var tables = []string{"files", "terms", "owners", "owner_chunks", "owner_hashes", "phones", "meta"}

// Index is an open index of one library folder. Its methods are safe for
// concurrent use; Sync runs one at a time.
//
// The index is kept in a SQLite file of this computer (Open), or in a
// team's PostgreSQL database (OpenShared), where the results of every
// computer's library folder are indexed together: each computer's Sync
// keeps the entries of its own folder (its place), and searches and the
// look-ups of earlier traces and scrubs see every place's. A hit in a file
// of another computer names its job and row but has no path and no fields:
// the file is on that computer.
type Index struct {
	// corrections gives the person's layout answers by header signature
	// (SetCorrections); a file is indexed again when its answers change.
	corrections Corrections
	dir         string // the library folder
	path        string // the database file ("" for a team's database)
	place       string // the folder's place among a team's ("" in a SQLite file)

	mu      sync.RWMutex // guards db against a rebuild
	db      *sqldb.DB
	shared  bool       // a team's database, which the caller closes
	syncMu  sync.Mutex // one Sync at a time
	rebuilt string     // why the index was rebuilt when opened ("" when sound)

	// damage is why a read found the index damaged ("" when none did):
	// the next Sync rebuilds it first. Guarded by cacheMu.
	damage string

	cacheMu sync.Mutex
	cache   map[int64]*fileCache // per file: marks and layout, for reading hits
	// hitCache is what a team's search names of each file it finds
	// (hitFiles).
	hitCache map[int64]hitFile
}

// ErrDamaged is matched (errors.Is) by errors of an index found damaged
// while in use: the next Sync rebuilds it.
var ErrDamaged = errors.New("index: the library index is damaged")

// Open opens the index of the library folder dir kept in the database
// file path, creating it when missing. A damaged index is deleted and made
// anew (Rebuilt says why); its entries come back with the next Sync.
func Open(path, dir string) (*Index, error) {
	x := &Index{dir: dir, path: path, cache: map[int64]*fileCache{}, hitCache: map[int64]hitFile{}}
	db, why, err := openSound(path)
	if err != nil {
		return nil, err
	}
	if why != "" {
		x.rebuilt = why
		if db, err = create(path); err != nil {
			return nil, err
		}
	}
	x.db = db
	return x, nil
}

// OpenShared opens the index kept in a team's PostgreSQL database db,
// bringing its schema up to date, for the library folder dir of this
// computer, which place names among the team's folders (the computer's id
// and the folder, say). Close leaves db open.
func OpenShared(ctx context.Context, db *sqldb.DB, place, dir string) (*Index, error) {
	if db.Engine() != sqldb.Postgres {
		return nil, errors.New("index: a shared index is kept in PostgreSQL")
	}
	if place == "" {
		return nil, errors.New("index: a shared index needs the folder's place")
	}
	if err := sqldb.Migrate(ctx, db, postgresSchema, versionTable); err != nil {
		return nil, fmt.Errorf("index: %s: %w", db, err)
	}
	return &Index{dir: dir, place: place, db: db, shared: true, cache: map[int64]*fileCache{}, hitCache: map[int64]hitFile{}}, nil
}

// SetCorrections gives the person's layout answers by header signature:
// every file is read with the answers for its header, and indexed again
// when they change (call before Sync).
func (x *Index) SetCorrections(f Corrections) {
	x.syncMu.Lock()
	defer x.syncMu.Unlock()
	x.corrections = f
}

// layoutPrint is what files.layout keeps of how a file of header signature
// sig is read: the signature and a hash of the person's answers for it
// (corrections gives them).
func layoutPrint(corrections Corrections, sig string) string {
	if corrections == nil {
		return sig + ":"
	}
	c := corrections(sig)
	if c == nil {
		return sig + ":"
	}
	b, _ := json.Marshal(c)
	h := sha256.Sum256(b)
	return sig + ":" + hex.EncodeToString(h[:8])
}

// Corrections gives the person's layout answers by header signature
// (workflow's layout options; nil: none).
type Corrections = func(sig string) *layout.Correction

// readAsBefore reports whether a file indexed with layout print p would be
// read the same way now, with the answers corrections gives.
func readAsBefore(corrections Corrections, p string) bool {
	sig, _, ok := strings.Cut(p, ":")
	return ok && layoutPrint(corrections, sig) == p
}

// Rebuilt says why the index was found damaged and made anew when it was
// opened; "" when it was sound.
func (x *Index) Rebuilt() string { return x.rebuilt }

// Dir is the library folder.
func (x *Index) Dir() string { return x.dir }

// Shared reports whether the index is a team's (OpenShared): its look-ups
// return rows of other computers' results too, with no path.
func (x *Index) Shared() bool { return x.shared }

// Path is the database file ("" for a team's database).
func (x *Index) Path() string { return x.path }

// Close closes the database (a team's stays open: its opener closes it).
func (x *Index) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.db == nil {
		return nil
	}
	var err error
	if !x.shared {
		err = x.db.Close()
	}
	x.db = nil
	return err
}

func dsn(path string) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(20000)")
	q.Add("_pragma", "journal_mode(WAL)")
	// The index is rebuilt from the files when lost: a commit need not
	// wait for the disk (WAL keeps it consistent after a crash).
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_pragma", "cache_size(-16000)")
	q.Set("_txlock", "immediate")
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// openSound opens the index at path and checks it: a database, of this
// schema version, with every table. why says what is wrong with a damaged
// one (its file is then closed, and create replaces it).
func openSound(path string) (db *sqldb.DB, why string, err error) {
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		db, err := create(path)
		return db, "", err
	}
	raw, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, "", fmt.Errorf("index: open %s: %w", path, err)
	}
	why, err = check(raw)
	if why == "" && err == nil {
		db = sqldb.Wrap(raw, sqldb.SQLite, path)
		if merr := sqldb.Migrate(context.Background(), db, sqliteSchema, ""); merr != nil {
			why = "cannot bring it up to date: " + merr.Error()
		}
	}
	if why != "" || err != nil {
		raw.Close()
		return nil, why, err
	}
	return db, "", nil
}

// check says what is wrong with an opened index ("" when nothing is).
// Only trouble that rebuilding cannot help (the folder cannot be written)
// is an error.
func check(db *sql.DB) (string, error) {
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		if damaged(err) {
			return "the file is not a sound database: " + err.Error(), nil
		}
		return "", fmt.Errorf("index: %w", err)
	}
	if v != schemaVersion {
		return fmt.Sprintf("made by another version of SkipDesk: schema version %d, this one writes %d", v, schemaVersion), nil
	}
	have := map[string]bool{}
	rows, err := db.Query("SELECT name FROM sqlite_schema WHERE type = 'table'")
	if err != nil {
		return "the file is not a sound database: " + err.Error(), nil
	}
	for rows.Next() {
		var n string
		if rows.Scan(&n) == nil {
			have[n] = true
		}
	}
	rows.Close()
	for _, t := range tables {
		if !have[t] {
			return "the table " + t + " is missing", nil
		}
	}
	// A crash cannot damage a WAL database; anything else can (a disk, a
	// copy cut short). Look at the pages when the last Sync did not finish.
	var clean string
	_ = db.QueryRow("SELECT value FROM meta WHERE key = 'clean'").Scan(&clean)
	if clean != "1" {
		if res, err := quickCheck(db); err != nil || res != "ok" {
			if err != nil {
				res = err.Error()
			}
			return "damaged: " + res, nil
		}
	}
	return "", nil
}

// create makes a new, empty index at path, removing whatever was there.
func create(path string) (*sqldb.DB, error) {
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("index: cannot replace %s: %w", p, err)
		}
	}
	raw, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		return nil, fmt.Errorf("index: create %s: %w", path, err)
	}
	db := sqldb.Wrap(raw, sqldb.SQLite, path)
	if err := sqldb.Migrate(context.Background(), db, sqliteSchema, ""); err != nil {
		raw.Close()
		return nil, fmt.Errorf("index: create %s: %w", path, err)
	}
	return db, nil
}

// damaged reports whether err is SQLite saying the file is damaged or not a
// database.
func damaged(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case 11, 26: // SQLITE_CORRUPT, SQLITE_NOTADB
			return true
		}
	}
	return err != nil && (strings.Contains(err.Error(), "malformed") || strings.Contains(err.Error(), "no such table"))
}

// handle is the database for one operation; done releases it.
func (x *Index) handle() (*sqldb.DB, func(), error) {
	x.mu.RLock()
	if x.db == nil {
		x.mu.RUnlock()
		return nil, func() {}, errors.New("index: closed")
	}
	return x.db, x.mu.RUnlock, nil
}

// reading is the database for a read; done(&err) releases it, having
// looked at what made a read fail (readFailed).
func (x *Index) reading(ctx context.Context) (*sqldb.DB, func(*error), error) {
	db, release, err := x.handle()
	if err != nil {
		return nil, func(*error) {}, err
	}
	return db, func(errp *error) {
		*errp = x.readFailed(ctx, db, *errp)
		release()
	}, nil
}

// fail turns an error met while using the index into ErrDamaged when
// SQLite says the file is damaged.
func fail(err error) error {
	if err != nil && damaged(err) {
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	return err
}

// readFailed is what a read of the index returns for err. A read that
// failed on the database itself (not on a result file, nor because it was
// cancelled) has SQLite check the file's pages: a damaged index — found so,
// or said so by the error — is remembered for the next Sync to rebuild, and
// the error matches ErrDamaged. A damaged page the reads meet but a Sync
// with nothing to do never touches was otherwise never rebuilt.
func (x *Index) readFailed(ctx context.Context, db *sqldb.DB, err error) error {
	if err == nil || ctx.Err() != nil || errors.Is(err, ErrChanged) || errors.Is(err, ErrElsewhere) || fileError(err) {
		return err
	}
	if !errors.Is(err, ErrDamaged) {
		why := ""
		if damaged(err) {
			why = err.Error()
		} else if db.Engine() == sqldb.SQLite {
			why = pagesDamaged(db)
		}
		if why == "" {
			return err
		}
		err = fmt.Errorf("%w: %s", ErrDamaged, why)
	}
	x.noteDamage(err)
	return err
}

// noteDamage remembers a damaged index (err matches ErrDamaged) for the
// next Sync to rebuild.
func (x *Index) noteDamage(err error) {
	x.cacheMu.Lock()
	if x.damage == "" {
		x.damage = strings.TrimPrefix(err.Error(), ErrDamaged.Error()+": ")
	}
	x.cacheMu.Unlock()
}

// fileError: err is about a result file (gone, unreadable), not the index.
func fileError(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) || errors.Is(err, library.ErrTooLong) || errors.Is(err, input.ErrNotRegular)
}

// pagesDamaged is SQLite's integrity check of the index's pages: "" when
// they are sound.
func pagesDamaged(db *sqldb.DB) string {
	res, err := quickCheck(db.Raw())
	switch {
	case err != nil && damaged(err):
		return "damaged: " + err.Error()
	case err == nil && res != "ok":
		return "damaged: " + res
	}
	return ""
}

// quickCheck is SQLite's quick_check of the pages: "ok" when sound.
func quickCheck(db *sql.DB) (string, error) {
	var res string
	err := db.QueryRow("PRAGMA quick_check(1)").Scan(&res)
	return res, err
}

// takeDamage is the damage a read found, forgotten once taken.
func (x *Index) takeDamage() string {
	x.cacheMu.Lock()
	defer x.cacheMu.Unlock()
	why := x.damage
	x.damage = ""
	return why
}

// rebuild replaces the database with an empty one (the caller holds
// syncMu); the next steps of Sync index every file again. In a team's
// database only this folder's entries are forgotten.
func (x *Index) rebuild(why string) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.shared {
		if err := forgetPlace(context.Background(), x.db, x.place); err != nil {
			return err
		}
	} else {
		if x.db != nil {
			x.db.Close()
		}
		db, err := create(x.path)
		if err != nil {
			x.db = nil
			return err
		}
		x.db = db
	}
	x.rebuilt = why
	x.cacheMu.Lock()
	x.cache = map[int64]*fileCache{}
	x.cacheMu.Unlock()
	return nil
}

// forgetPlace removes the entries of a place's files.
func forgetPlace(ctx context.Context, db *sqldb.DB, place string) error {
	have, err := loadFiles(ctx, db, place)
	if err != nil {
		return err
	}
	for _, h := range have {
		if err := removeFile(ctx, db, h.id); err != nil {
			return err
		}
	}
	return nil
}

// setClean records whether the index was left closed cleanly (a SQLite
// file's check reads it; a team's database has no such check).
func setClean(ctx context.Context, db *sqldb.DB, clean bool) error {
	if db.Engine() != sqldb.SQLite {
		return nil
	}
	v := "0"
	if clean {
		v = "1"
	}
	_, err := db.ExecContext(ctx, "INSERT INTO meta(key, value) VALUES('clean', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", v)
	return err
}
