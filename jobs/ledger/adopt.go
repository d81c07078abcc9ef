package ledger

import (
	"context"
	"fmt"
	"strings"

	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// AdoptDownloads records as this computer's the downloads the computer id
// from recorded whose results this computer holds too: where says, for
// each, the result's path here (ok false when it is not here). A data
// folder copied from another computer, which took an id of its own, keeps
// its history so: its results are not downloaded again and its jobs list
// names them. A download this computer recorded already is kept. It
// returns how many were taken up.
func (l *Jobs) AdoptDownloads(ctx context.Context, from string, where func(Download) (string, bool)) (int, error) {
	if from == "" || from == l.me.ComputerID {
		return 0, nil
	}
	rows, err := l.db.QueryContext(ctx, "SELECT job_id, path, size, sha256, rows, downloaded_at FROM downloads WHERE computer_id = ?", from)
	if err != nil {
		return 0, fmt.Errorf("ledger: downloads of %s: %w", from, err)
	}
	var found []Download
	var at []int64
	for rows.Next() {
		var d Download
		var ms int64
		if err := rows.Scan(&d.JobID, &d.Path, &d.Size, &d.SHA256, &d.Rows, &ms); err != nil {
			rows.Close()
			return 0, fmt.Errorf("ledger: downloads of %s: %w", from, err)
		}
		if p, ok := where(d); ok {
			d.Path = p
			found, at = append(found, d), append(at, ms)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("ledger: downloads of %s: %w", from, err)
	}
	n := 0
	err = l.tx(ctx, func(tx *sqldb.Tx) error {
		for i, d := range found {
			res, err := tx.ExecContext(ctx, `INSERT INTO downloads (job_id, computer_id, path, size, sha256, rows, downloaded_at)
				VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(job_id, computer_id) DO NOTHING`,
				d.JobID, l.me.ComputerID, d.Path, d.Size, strings.ToLower(d.SHA256), d.Rows, at[i])
			if err != nil {
				return fmt.Errorf("ledger: adopt the download of %s: %w", d.JobID, err)
			}
			if k, _ := res.RowsAffected(); k > 0 {
				n++
			}
		}
		return nil
	})
	return n, err
}
