package ledger

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"modernc.org/sqlite"
)

// ErrDamaged is matched (errors.Is) by the error Open and OpenReadOnly
// return when the database file is not a sound SQLite database: garbage,
// a damaged page, a file cut short. The file is left exactly as it was.
var ErrDamaged = errors.New("ledger: the ledger file is damaged")

// DamagedError names the damaged ledger and what SQLite found.
type DamagedError struct {
	Path   string
	Detail string
}

func (e *DamagedError) Error() string {
	dir := filepath.Dir(e.Path)
	return fmt.Sprintf("the ledger %s is damaged (%s). SkipDesk left it as it is and will not write to it. "+
		"Keep a copy (it records what was submitted and charged), move %s and any %s-wal and %s-shm out of %s, and start again; "+
		"the results already downloaded in %s stay where they are",
		e.Path, e.Detail, FileName, FileName, FileName, dir, filepath.Join(dir, "results"))
}

// Is makes errors.Is(err, ErrDamaged) true.
func (e *DamagedError) Is(target error) bool { return target == ErrDamaged }

// SQLite's primary result codes the ledger tells apart.
const (
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteCorrupt  = 11
	sqliteFull     = 13
	sqliteCantOpen = 14
	sqliteNotADB   = 26
)

// sqliteCode is the primary result code of a SQLite error, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

// explainOpen turns an error met while opening the ledger at path into one
// that says what the user can do about it.
func explainOpen(path string, err error) error {
	switch sqliteCode(err) {
	case sqliteCorrupt, sqliteNotADB:
		return &DamagedError{Path: path, Detail: sqliteText(err)}
	case sqliteFull:
		return fmt.Errorf("ledger: cannot open %s: the disk is full; free some space and try again: %w", path, err)
	case sqliteIOErr, sqliteCantOpen, sqliteReadOnly:
		return fmt.Errorf("ledger: cannot open %s: the folder %s cannot be written (disk full, read-only or no permission?): %w",
			path, filepath.Dir(path), err)
	}
	return fmt.Errorf("ledger: open %s: %w", path, err)
}

// explainWrite adds what a failed write means to its error: the step was not
// recorded.
func explainWrite(err error) error {
	switch sqliteCode(err) {
	case sqliteFull:
		return fmt.Errorf("%w (the disk holding the ledger is full: nothing was recorded)", err)
	case sqliteCorrupt, sqliteNotADB:
		return fmt.Errorf("%w (the ledger file is damaged: nothing was recorded)", err)
	case sqliteReadOnly:
		return fmt.Errorf("%w (the ledger file or its folder cannot be written: nothing was recorded)", err)
	}
	return err
}

// sqliteText is SQLite's message without its numeric code.
func sqliteText(err error) string {
	var se *sqlite.Error
	if errors.As(err, &se) {
		msg := se.Error()
		if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
			msg = msg[:i]
		}
		return msg
	}
	return err.Error()
}

// listTables are the company list's tables: checked where they are read,
// not at open. A list of a million numbers is most of the file, and
// checking it first made every command that opens the ledger wait for it
// (half a second to two on a busy machine, before a callable export read
// the list at all). A damaged page of theirs is a DamagedError where the
// list is read — every view and callable export reads it — never a silent
// answer.
var listTables = map[string]bool{"internal_dnc": true, "internal_dnc_log": true}

// quickCheck runs SQLite's structural check of every page of every table
// but the list's (listTables), with their indexes (a few milliseconds for
// a ledger of thousands of jobs), so that a damaged file is refused at
// open rather than failing later in the middle of a submission.
func quickCheck(db *sql.DB, path string) error {
	tables, err := checkedTables(db)
	if err != nil {
		return explainOpen(path, err)
	}
	var problems []string
	for _, t := range tables {
		p, err := quickCheckTable(db, t)
		if err != nil {
			return explainOpen(path, err)
		}
		problems = append(problems, p...)
	}
	if len(problems) > 0 {
		return &DamagedError{Path: path, Detail: strings.Join(problems, "; ")}
	}
	return nil
}

// checkedTables are the tables quickCheck checks: the schema's own and
// every other but the list's.
func checkedTables(db *sql.DB) ([]string, error) {
	rows, err := db.Query("SELECT name FROM sqlite_schema WHERE type = 'table'")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	tables := []string{"sqlite_schema"}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		if !listTables[name] {
			tables = append(tables, name)
		}
	}
	return tables, rows.Err()
}

// quickCheckTable is what SQLite's quick check of one table and its
// indexes finds wrong (nothing when it is sound).
func quickCheckTable(db *sql.DB, table string) ([]string, error) {
	rows, err := db.Query(`PRAGMA quick_check("` + strings.ReplaceAll(table, `"`, `""`) + `")`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	return problems, rows.Err()
}

// explainRead turns a damaged page met while reading the ledger into a
// DamagedError that says what to do; other errors stay as they are.
func (l *book) explainRead(err error) error {
	switch sqliteCode(err) {
	case sqliteCorrupt, sqliteNotADB:
		return &DamagedError{Path: l.path, Detail: sqliteText(err)}
	}
	return err
}
