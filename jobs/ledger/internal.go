package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/phone"
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
	// KeepUntil is the first day the entry may be removed (an opt-out the
	// law keeps for years); zero: it may be removed at any time, with a
	// reason.
	KeepUntil time.Time `json:",omitzero"`
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

// internalRows is how many numbers one INSERT writes on SQLite: six
// values each, far under its 32,766 parameters. PostgreSQL takes each
// column as one array parameter, so a statement there writes a whole batch.
const internalRows = 1000

// AddInternal puts numbers on the internal list, in one transaction; a
// number already on it keeps its first date and reason. It returns how
// many were new. The numbers are written in ascending order, many to a
// statement: two computers adding overlapping numbers at once take their
// locks in the same order, so neither waits on the other in a cycle (and
// a deadlock that happens all the same is retried by tx). A caller adding
// a great many numbers gives them in batches, each its own transaction.
func (l *CompanyList) AddInternal(ctx context.Context, entries []InternalEntry) (int, error) {
	for _, e := range entries {
		if !validNumber(e.Number) {
			return 0, fmt.Errorf("ledger: internal list: %q is not a 10-digit number", e.Number)
		}
	}
	sorted := sortedEntries(entries)
	add, per := addInternalRows, internalRows
	if l.shared() {
		add, per = addInternalArrays, len(sorted)
	}
	added := 0
	err := l.tx(ctx, func(tx *sqldb.Tx) error {
		added = 0
		now := l.now()
		st := tx.Stmts()
		defer st.Close()
		for start := 0; start < len(sorted); start += per {
			n, err := add(ctx, st, sorted[start:min(len(sorted), start+per)], now)
			if err != nil {
				return fmt.Errorf("ledger: internal list: %w", err)
			}
			added += n
		}
		return nil
	})
	return added, err
}

// sortedEntries is a copy of entries in ascending order of number, each
// number once (its first entry).
func sortedEntries(entries []InternalEntry) []InternalEntry {
	out := slices.Clone(entries)
	slices.SortStableFunc(out, func(a, b InternalEntry) int { return strings.Compare(a.Number, b.Number) })
	return slices.CompactFunc(out, func(a, b InternalEntry) bool { return a.Number == b.Number })
}

// addInternalRows writes one statement's numbers (sorted, distinct) and
// logs those that were new; it returns how many were.
func addInternalRows(ctx context.Context, tx *sqldb.Stmts, batch []InternalEntry, now time.Time) (int, error) {
	args := make([]any, 0, 6*len(batch))
	for _, e := range batch {
		at := now
		if !e.AddedAt.IsZero() {
			at = e.AddedAt
		}
		args = append(args, e.Number, at.UnixMilli(), e.Reason, e.Source, e.By, keepMillis(e.KeepUntil))
	}
	rows, err := tx.QueryContext(ctx, `INSERT INTO internal_dnc (number, added_at, reason, source, added_by, keep_until) VALUES `+
		sqldb.Placeholders(len(batch), 6)+` ON CONFLICT(number) DO NOTHING RETURNING number`, args...)
	if err != nil {
		return 0, err
	}
	var logArgs []any
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return 0, err
		}
		i, _ := slices.BinarySearchFunc(batch, n, func(e InternalEntry, n string) int { return strings.Compare(e.Number, n) })
		a := args[6*i : 6*i+5]
		logArgs = append(logArgs, a[0], "added", a[1], a[2], a[3], a[4])
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	added := len(logArgs) / 6
	if added == 0 {
		return 0, nil
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO internal_dnc_log (number, action, at, reason, source, "by") VALUES `+
		sqldb.Placeholders(added, 6), logArgs...)
	return added, err
}

// addInternalArrays is addInternalRows for PostgreSQL: the numbers as one
// array per column, and their log in the same statement.
func addInternalArrays(ctx context.Context, tx *sqldb.Stmts, batch []InternalEntry, now time.Time) (int, error) {
	numbers, reasons, sources, by := make([]string, len(batch)), make([]string, len(batch)), make([]string, len(batch)), make([]string, len(batch))
	at, keep := make([]int64, len(batch)), make([]int64, len(batch))
	for i, e := range batch {
		numbers[i], reasons[i], sources[i], by[i] = e.Number, e.Reason, e.Source, e.By
		keep[i] = keepMillis(e.KeepUntil)
		at[i] = now.UnixMilli()
		if !e.AddedAt.IsZero() {
			at[i] = e.AddedAt.UnixMilli()
		}
	}
	return affected(tx.ExecContext(ctx, `WITH added AS (
			INSERT INTO internal_dnc (number, added_at, reason, source, added_by, keep_until)
			SELECT * FROM unnest(CAST(? AS TEXT[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS BIGINT[]))
			ON CONFLICT (number) DO NOTHING RETURNING number, added_at, reason, source, added_by)
		INSERT INTO internal_dnc_log (number, action, at, reason, source, "by")
		SELECT number, 'added', added_at, reason, source, added_by FROM added`, numbers, at, reasons, sources, by, keep))
}

// ErrNotOnList is returned when removing a number that is not on the
// internal list.
var ErrNotOnList = errors.New("not on the internal do-not-call list")

// KeptError refuses a removal before the entry's keep-until date (an
// opt-out the law keeps for years).
type KeptError struct {
	Number string
	Until  time.Time
	Reason string // the entry's reason: what was said, and when
}

func (e *KeptError) Error() string {
	return fmt.Sprintf("%s may not come off the internal do-not-call list before %s: the law keeps it until then (%s)",
		e.Number, e.Until.UTC().Format(time.DateOnly), e.Reason)
}

// RemoveInternal takes a number off the internal list; the reason is kept
// in the list's log. An entry kept until a date later than today is not
// removed (a *KeptError).
func (l *CompanyList) RemoveInternal(ctx context.Context, number, reason, by string) error {
	if reason == "" {
		return errors.New("ledger: internal list: a removal needs a reason")
	}
	return l.tx(ctx, func(tx *sqldb.Tx) error {
		var keep int64
		var why string
		err := tx.QueryRowContext(ctx, "SELECT keep_until, reason FROM internal_dnc WHERE number = ?", number).Scan(&keep, &why)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("%s is %w", number, ErrNotOnList)
		case err != nil:
			return fmt.Errorf("ledger: internal list: remove %s: %w", number, err)
		case keep > 0 && l.now().UnixMilli() < keep:
			return &KeptError{Number: number, Until: time.UnixMilli(keep).UTC(), Reason: why}
		}
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
func (l *CompanyList) InternalList(ctx context.Context) ([]InternalEntry, error) {
	return l.internalEntries(ctx, "SELECT "+internalCols+" FROM internal_dnc ORDER BY added_at DESC, number")
}

// internalCols are the columns internalEntries reads.
const internalCols = "number, added_at, reason, source, added_by, keep_until"

// keepMillis is a keep-until date as the list stores it (0: none).
func keepMillis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// internalEntries reads the entries of query.
func (l *book) internalEntries(ctx context.Context, query string, args ...any) ([]InternalEntry, error) {
	out, err := queryAll(ctx, l.db, scanInternalEntry, query, args...)
	if err != nil {
		return nil, fmt.Errorf("ledger: internal list: %w", l.explainRead(err))
	}
	return out, nil
}

// scanInternalEntry reads a row of internalCols.
func scanInternalEntry(r scanner) (InternalEntry, error) {
	var e InternalEntry
	var at, keep int64
	if err := r.Scan(&e.Number, &at, &e.Reason, &e.Source, &e.By, &keep); err != nil {
		return InternalEntry{}, err
	}
	e.AddedAt = time.UnixMilli(at).UTC()
	if keep > 0 {
		e.KeepUntil = time.UnixMilli(keep).UTC()
	}
	return e, nil
}

// InternalFilter picks entries of the internal list: those whose number
// holds Digits, or whose reason or source holds Text (any case); all when
// both are empty. Limit bounds the entries returned (0: all).
type InternalFilter struct {
	Digits string
	Text   string
	Limit  int
}

// FindInternal returns the entries the filter picks, the most recently
// added first, and how many it picks in all: a window onto a list of a
// million numbers without reading them all.
func (l *CompanyList) FindInternal(ctx context.Context, f InternalFilter) ([]InternalEntry, int, error) {
	where, args := internalWhere(f)
	var n int
	if err := l.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM internal_dnc"+where, args...).Scan(&n); err != nil {
		return nil, 0, fmt.Errorf("ledger: internal list: %w", l.explainRead(err))
	}
	q := "SELECT " + internalCols + " FROM internal_dnc" + where + " ORDER BY added_at DESC, number"
	if f.Limit > 0 {
		q += " LIMIT ?"
		args = append(args, f.Limit)
	}
	list, err := l.internalEntries(ctx, q, args...)
	return list, n, err
}

// internalWhere is the WHERE clause of a filter, with its arguments.
func internalWhere(f InternalFilter) (string, []any) {
	var or []string
	var args []any
	if f.Digits != "" {
		or = append(or, `number LIKE ? ESCAPE '\'`)
		args = append(args, "%"+likeEscape(f.Digits)+"%")
	}
	if t := strings.ToLower(f.Text); t != "" {
		or = append(or, `LOWER(reason) LIKE ? ESCAPE '\'`, `LOWER(source) LIKE ? ESCAPE '\'`)
		args = append(args, "%"+likeEscape(t)+"%", "%"+likeEscape(t)+"%")
	}
	if len(or) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(or, " OR "), args
}

// likeEscape makes s match itself in a LIKE pattern escaped by \.
func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(s)
}

// InternalKeys are the numbers on the internal list, and only them, read
// in order straight into a set tested in bulk: what every callable export
// and every view of a result checks (a million numbers are 8 MB).
func (l *CompanyList) InternalKeys(ctx context.Context) (phone.KeySet, error) {
	rows, err := l.db.QueryContext(ctx, "SELECT number FROM internal_dnc ORDER BY number")
	if err != nil {
		return phone.KeySet{}, fmt.Errorf("ledger: internal list: %w", l.explainRead(err))
	}
	defer rows.Close()
	keys := make([]uint64, 0, 1024)
	var b sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&b); err != nil {
			return phone.KeySet{}, fmt.Errorf("ledger: internal list: %w", l.explainRead(err))
		}
		k, ok := numberKey(b)
		if !ok {
			// Not a number the list could hold: the list cannot be
			// trusted to be read whole.
			return phone.KeySet{}, fmt.Errorf("ledger: internal list: %q is not a 10-digit number", b)
		}
		keys = append(keys, k)
	}
	if err := rows.Err(); err != nil {
		return phone.KeySet{}, fmt.Errorf("ledger: internal list: %w", l.explainRead(err))
	}
	return phone.NewKeySet(keys), nil
}

// numberKey is the phone key of 10 digits as the list keeps them.
func numberKey(b []byte) (uint64, bool) {
	if len(b) != 10 {
		return 0, false
	}
	var k uint64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		k = k*10 + uint64(c-'0')
	}
	return k, true
}

// InternalLog returns the list's additions and removals, oldest first;
// with number, only that number's.
func (l *CompanyList) InternalLog(ctx context.Context, number string) ([]InternalChange, error) {
	q := `SELECT number, action, at, reason, source, "by" FROM internal_dnc_log`
	var args []any
	if number != "" {
		q += " WHERE number = ?"
		args = append(args, number)
	}
	return listAll(ctx, l.db, "internal list log", scanInternalChange, q+" ORDER BY at, id", args...)
}

func scanInternalChange(r scanner) (InternalChange, error) {
	var c InternalChange
	var at int64
	if err := r.Scan(&c.Number, &c.Action, &at, &c.Reason, &c.Source, &c.By); err != nil {
		return InternalChange{}, err
	}
	c.At = time.UnixMilli(at).UTC()
	return c, nil
}
