package indextest

import (
	"database/sql"
	"fmt"
	"os"

	_ "modernc.org/sqlite" // the index's SQLite file
)

// DamagePage writes garbage over the root page of table in the closed
// SQLite index at path, its WAL checkpointed first: a damaged page that
// the checks of Open pass over when the index was closed cleanly.
func DamagePage(path, table string) error {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	var root, size int64
	err = db.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = ?", table).Scan(&root)
	if err == nil {
		err = db.QueryRow("PRAGMA page_size").Scan(&size)
	}
	if err == nil {
		_, err = db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	}
	db.Close()
	if err != nil {
		return fmt.Errorf("damage %s of %s: %w", table, path, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	junk := make([]byte, size)
	for i := range junk {
		junk[i] = byte(i*7 + 3)
	}
	_, err = f.WriteAt(junk, (root-1)*size)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
