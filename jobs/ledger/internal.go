package ledger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// The company's own do-not-call list. A number on it is never in a
// callable list, whatever the registries say. Each number keeps when and
// why it was added and from where; a removal needs a reason too, and every
// addition and removal stays in the list's log.

// InternalEntry is a number on the internal do-not-call list.
type InternalEntry struct {
	Number  string // 10 digits
	AddedAt time.Time
	Reason  string
	Source  string // "by hand", "pasted", "file owners.csv", "result x.csv, row 12"
	By      string // the computer that added it
}

// InternalChange is one line of the list's log.
type InternalChange struct {
	Number string
	Action string // "added" or "removed"
	At     time.Time
	Reason string
	Source string
	By     string
}

// validNumber is a number as the list keeps it: 10 digits.
func validNumber(n string) bool {
	if len(n) != 10 {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// AddInternal puts numbers on the internal list; a number already on it
// keeps its first date and reason. It returns how many were new.
func (l *Ledger) AddInternal(ctx context.Context, entries []InternalEntry) (int, error) {
	for _, e := range entries {
		if !validNumber(e.Number) {
			return 0, fmt.Errorf("ledger: internal list: %q is not a 10-digit number", e.Number)
		}
	}
	added := 0
	err := l.tx(ctx, func(tx *sqldb.Tx) error {
		added = 0
		now := l.now().UnixMilli()
		for _, e := range entries {
			at := now
			if !e.AddedAt.IsZero() {
				at = e.AddedAt.UnixMilli()
			}
			res, err := tx.ExecContext(ctx, `INSERT INTO internal_dnc (number, added_at, reason, source, added_by) VALUES (?, ?, ?, ?, ?)
ON CONFLICT(number) DO NOTHING`, e.Number, at, e.Reason, e.Source, e.By)
			if err != nil {
				return fmt.Errorf("ledger: internal list: add %s: %w", e.Number, err)
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue
			}
			added++
			if _, err := tx.ExecContext(ctx, `INSERT INTO internal_dnc_log (number, action, at, reason, source, "by") VALUES (?, 'added', ?, ?, ?, ?)`,
				e.Number, at, e.Reason, e.Source, e.By); err != nil {
				return fmt.Errorf("ledger: internal list: add %s: %w", e.Number, err)
			}
		}
		return nil
	})
	return added, err
}

// ErrNotOnList is returned when removing a number that is not on the
// internal list.
var ErrNotOnList = errors.New("not on the internal do-not-call list")

// RemoveInternal takes a number off the internal list; the reason is kept
// in the list's log.
func (l *Ledger) RemoveInternal(ctx context.Context, number, reason, by string) error {
	if reason == "" {
		return errors.New("ledger: internal list: a removal needs a reason")
	}
	return l.tx(ctx, func(tx *sqldb.Tx) error {
		res, err := tx.ExecContext(ctx, "DELETE FROM internal_dnc WHERE number = ?", number)
		if err != nil {
			return fmt.Errorf("ledger: internal list: remove %s: %w", number, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("%s is %w", number, ErrNotOnList)
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO internal_dnc_log (number, action, at, reason, "by") VALUES (?, 'removed', ?, ?, ?)`,
			number, l.now().UnixMilli(), reason, by)
		if err != nil {
			return fmt.Errorf("ledger: internal list: remove %s: %w", number, err)
		}
		return nil
	})
}

// InternalList returns the numbers on the internal list, the most recently
// added first.
func (l *Ledger) InternalList(ctx context.Context) ([]InternalEntry, error) {
	rows, err := l.db.QueryContext(ctx, "SELECT number, added_at, reason, source, added_by FROM internal_dnc ORDER BY added_at DESC, number")
	if err != nil {
		return nil, fmt.Errorf("ledger: internal list: %w", err)
	}
	defer rows.Close()
	var out []InternalEntry
	for rows.Next() {
		var e InternalEntry
		var at int64
		if err := rows.Scan(&e.Number, &at, &e.Reason, &e.Source, &e.By); err != nil {
			return nil, fmt.Errorf("ledger: internal list: %w", err)
		}
		e.AddedAt = time.UnixMilli(at).UTC()
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ledger: internal list: %w", err)
	}
	return out, nil
}

// InternalLog returns the list's additions and removals, oldest first;
// with number, only that number's.
func (l *Ledger) InternalLog(ctx context.Context, number string) ([]InternalChange, error) {
	q := `SELECT number, action, at, reason, source, "by" FROM internal_dnc_log`
	var args []any
	if number != "" {
		q += " WHERE number = ?"
		args = append(args, number)
	}
	rows, err := l.db.QueryContext(ctx, q+" ORDER BY at, id", args...)
	if err != nil {
		return nil, fmt.Errorf("ledger: internal list log: %w", err)
	}
	defer rows.Close()
	var out []InternalChange
	for rows.Next() {
		var c InternalChange
		var at int64
		if err := rows.Scan(&c.Number, &c.Action, &at, &c.Reason, &c.Source, &c.By); err != nil {
			return nil, fmt.Errorf("ledger: internal list log: %w", err)
		}
		c.At = time.UnixMilli(at).UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}
