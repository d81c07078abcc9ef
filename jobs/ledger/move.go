package ledger

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// Moving a computer's own ledger into a team's: once, resumable, losing
// nothing. Each part (submissions, jobs, spend, downloads, presets, webhook
// deliveries, the internal list and its log) is copied in batches, each
// batch one transaction that skips what is there already (rows carry their
// origin: the computer and their id in its ledger; an entry of the list's
// history is known by what it says), and the part is
// recorded as done in the moves table. An interrupted move, run again,
// picks up where it stopped; a finished one does nothing but move the
// company's list again (everyShare), so that what the computer added to it
// on its own since reaches the team.
//
// Where the team holds something already, the team's stays and this
// computer's joins it: a number on either internal list is on the team's;
// a preset of the same name and other content is kept under its name with
// the computer's added; a job the team knows keeps its furthest state.

// MoveProgress is how far a move is.
type MoveProgress struct {
	Part        string // "submissions", "jobs", …
	Done, Total int
}

// MoveReport says what a move copied, by part (what was there already is
// not counted).
type MoveReport struct {
	Copied  map[string]int
	Skipped []string // parts a earlier run had moved
}

// moveBatch is how many rows go in one transaction.
const moveBatch = 500

// MoveParts are the parts of a move, in order.
var MoveParts = []string{"submissions", "jobs", "spend", "downloads", "presets", "webhooks", "internal", "internal log"}

// MoveFrom copies src (a computer's own ledger) into l (a team's), as
// l.Me()'s computer. progress, when set, follows it.
func (l *Ledger) MoveFrom(ctx context.Context, src *Ledger, progress func(MoveProgress)) (MoveReport, error) {
	rep := MoveReport{Copied: map[string]int{}}
	if !l.Shared() || l.me.ComputerID == "" {
		return rep, fmt.Errorf("ledger: a move goes into a team's ledger")
	}
	origin := l.me.ComputerID
	for _, part := range MoveParts {
		done, err := l.moveDone(ctx, origin, part)
		if err != nil {
			return rep, err
		}
		if done && !everyShare[part] {
			rep.Skipped = append(rep.Skipped, part)
			continue
		}
		n, err := l.movePart(ctx, src, part, progress)
		if err != nil {
			return rep, fmt.Errorf("ledger: moving the %s: %w", part, err)
		}
		rep.Copied[part] = n
		if err := l.MarkMoved(ctx, origin, part, n); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

func (l *book) moveDone(ctx context.Context, origin, part string) (bool, error) {
	var n int
	err := l.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM moves WHERE origin = ? AND part = ?", origin, part).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("ledger: %w", err)
	}
	return n > 0, nil
}

// MoveDone reports whether origin's part was moved.
func (l *Ledger) MoveDone(ctx context.Context, origin, part string) (bool, error) {
	return l.moveDone(ctx, origin, part)
}

// MarkMoved records that origin's part was moved (count rows copied).
func (l *Ledger) MarkMoved(ctx context.Context, origin, part string, count int) error {
	_, err := l.db.ExecContext(ctx, "INSERT INTO moves (origin, part, count, done_at) VALUES (?, ?, ?, ?) ON CONFLICT (origin, part) DO NOTHING",
		origin, part, count, l.now().UnixMilli())
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}

// moveBatch is how many rows a move copies in one transaction.
func (l *book) moveBatch() int {
	if l.batchRows > 0 {
		return l.batchRows
	}
	return moveBatch
}

// movePart copies one part: row by row through its copiers, or, for a
// part of plain rows, many rows to a statement (moveBulk).
func (l *book) movePart(ctx context.Context, src *Ledger, part string, progress func(MoveProgress)) (int, error) {
	if b, ok := l.bulkPart(part); ok {
		return l.moveBulk(ctx, src, part, b, progress)
	}
	rows, err := l.sourceRows(ctx, src, part)
	if err != nil {
		return 0, err
	}
	copied := 0
	report := func(done int) {
		if progress != nil {
			progress(MoveProgress{Part: part, Done: done, Total: len(rows)})
		}
	}
	report(0)
	size := l.moveBatch()
	for start := 0; start < len(rows); start += size {
		batch := rows[start:min(len(rows), start+size)]
		err := l.tx(ctx, func(tx *sqldb.Tx) error {
			copied0 := copied
			for _, r := range batch {
				n, err := r(ctx, tx)
				if err != nil {
					copied = copied0
					return err
				}
				copied += n
			}
			return nil
		})
		if err != nil {
			return copied, err
		}
		report(start + len(batch))
	}
	return copied, nil
}

// copier writes one source row into the team's ledger; it returns 1 when
// it wrote, 0 when the row was there already.
type copier func(ctx context.Context, tx *sqldb.Tx) (int, error)

func affected(r sql.Result, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	n, _ := r.RowsAffected()
	return int(n), nil
}

// sourceRows reads one part of src as copiers.
func (l *book) sourceRows(ctx context.Context, src *Ledger, part string) ([]copier, error) {
	switch part {
	case "submissions":
		return l.moveSubmissions(ctx, src)
	case "jobs":
		list, err := src.queryJobs(ctx, "ORDER BY created_at, job_id")
		if err != nil {
			return nil, err
		}
		out := make([]copier, len(list))
		for i, j := range list {
			out[i] = func(ctx context.Context, tx *sqldb.Tx) (int, error) {
				j.NextPollAt = time.Time{}
				return 1, l.upsertJob(ctx, tx, *j)
			}
		}
		return out, nil
	case "presets":
		return l.movePresets(ctx, src)
	}
	return nil, fmt.Errorf("unknown part %q", part)
}

// bulk is a part of plain rows: read from the source with query (cols
// columns read, in the order of the team's keys, so that two computers
// moving at once lock in the same order), each row's values changed by
// adjust when given, and written many to a statement by write (which
// skips what the team has already).
type bulk struct {
	query  string
	cols   int
	adjust func([]any) []any
	write  func(ctx context.Context, tx *sqldb.Tx, rows [][]any) (int, error)
}

// insertWith writes rows many to a statement: insert, the placeholders,
// then conflict.
func insertWith(insert, conflict string) func(ctx context.Context, tx *sqldb.Tx, rows [][]any) (int, error) {
	return func(ctx context.Context, tx *sqldb.Tx, rows [][]any) (int, error) {
		return insertMany(ctx, tx, insert, conflict, rows)
	}
}

// bulkPart is the bulk copy of part, when it is one.
func (l *book) bulkPart(part string) (bulk, bool) {
	switch part {
	case "spend":
		return bulk{query: "SELECT job_id, charged, refunded, updated_at FROM spend ORDER BY job_id", cols: 4,
			write: insertWith("INSERT INTO spend (job_id, charged, refunded, updated_at) VALUES ", " ON CONFLICT (job_id) DO NOTHING")}, true
	case "downloads":
		return bulk{query: "SELECT job_id, path, size, sha256, rows, downloaded_at FROM downloads WHERE computer_id = '' ORDER BY job_id", cols: 6,
			write: insertWith("INSERT INTO downloads (job_id, computer_id, path, size, sha256, rows, downloaded_at) VALUES ",
				" ON CONFLICT (job_id, computer_id) DO NOTHING"),
			adjust: func(v []any) []any { return append([]any{v[0], l.me.ComputerID}, v[1:]...) }}, true
	case "webhooks":
		return bulk{query: "SELECT delivery_id, job_id, event, status, seen_at FROM webhook_deliveries ORDER BY delivery_id", cols: 5,
			write: insertWith("INSERT INTO webhook_deliveries (delivery_id, job_id, event, status, seen_at) VALUES ",
				" ON CONFLICT (delivery_id) DO NOTHING")}, true
	case "internal":
		return bulk{query: "SELECT number, added_at, reason, source, added_by, keep_until FROM internal_dnc ORDER BY number", cols: 6,
			write: moveNumbers,
			adjust: func(v []any) []any {
				if s, _ := v[4].(string); s == "" {
					v[4] = l.me.Computer
				}
				return v
			}}, true
	case "internal log":
		return bulk{query: `SELECT number, action, at, reason, source, "by" FROM internal_dnc_log ORDER BY id`, cols: 6, write: moveLog}, true
	}
	return bulk{}, false
}

// everyShare are the parts moved again each time a computer shares: the
// company's list loses nothing a computer added while it kept its own
// records (after a stop, say). Moving them again writes nothing twice: a
// number the team has stays as the team has it, a number the team took
// off after this computer added it stays off, and an entry of the history
// the team has (the same number, action, time, reason, source and
// computer) is not written again.
var everyShare = map[string]bool{"internal": true, "internal log": true}

// moveNumbers writes numbers onto the team's list (number, added_at,
// reason, source, added_by, keep_until), one array a column.
func moveNumbers(ctx context.Context, tx *sqldb.Tx, rows [][]any) (int, error) {
	return affected(tx.ExecContext(ctx, `INSERT INTO internal_dnc (number, added_at, reason, source, added_by, keep_until)
		SELECT u.number, u.added_at, u.reason, u.source, u.added_by, u.keep_until
		FROM unnest(CAST(? AS TEXT[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS BIGINT[]))
			AS u(number, added_at, reason, source, added_by, keep_until)
		WHERE NOT EXISTS (SELECT 1 FROM internal_dnc_log g WHERE g.number = u.number AND g.action = 'removed' AND g.at >= u.added_at)
		ON CONFLICT (number) DO NOTHING`,
		textColumn(rows, 0), intColumn(rows, 1), textColumn(rows, 2), textColumn(rows, 3), textColumn(rows, 4), intColumn(rows, 5)))
}

// moveLog writes entries of the list's history into the team's (number,
// action, at, reason, source, by), one array a column. An entry is known
// by what it says: one the team has already is not written again (the
// content is the key, so that entries copied back and forth between a
// computer and its team stay one; checking an origin column too cost
// about half the time of the move).
func moveLog(ctx context.Context, tx *sqldb.Tx, rows [][]any) (int, error) {
	return affected(tx.ExecContext(ctx, `INSERT INTO internal_dnc_log (number, action, at, reason, source, "by")
		SELECT u.number, u.action, u.at, u.reason, u.source, u."by"
		FROM unnest(CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS BIGINT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]), CAST(? AS TEXT[]))
			AS u(number, action, at, reason, source, "by")
		WHERE NOT EXISTS (SELECT 1 FROM internal_dnc_log g WHERE g.number = u.number AND g.at = u.at AND g.action = u.action
			AND g.reason = u.reason AND g.source = u.source AND g."by" = u."by")`,
		textColumn(rows, 0), textColumn(rows, 1), intColumn(rows, 2), textColumn(rows, 3), textColumn(rows, 4), textColumn(rows, 5)))
}

// textColumn is column i of rows as text.
func textColumn(rows [][]any, i int) []string {
	out := make([]string, len(rows))
	for r, v := range rows {
		switch x := v[i].(type) {
		case string:
			out[r] = x
		case nil:
		default:
			out[r] = fmt.Sprint(x)
		}
	}
	return out
}

// intColumn is column i of rows as integers.
func intColumn(rows [][]any, i int) []int64 {
	out := make([]int64, len(rows))
	for r, v := range rows {
		out[r], _ = v[i].(int64)
	}
	return out
}

// bulkBatch is how many rows of a bulk part go in one transaction.
const bulkBatch = 10_000

// moveBulk copies a part of plain rows, bulkBatch rows a transaction,
// reading the source as it goes (a million numbers are never all in
// memory).
func (l *book) moveBulk(ctx context.Context, src *Ledger, part string, b bulk, progress func(MoveProgress)) (int, error) {
	var total int
	if err := src.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM ("+b.query+") q").Scan(&total); err != nil {
		return 0, err
	}
	report := func(done int) {
		if progress != nil {
			progress(MoveProgress{Part: part, Done: done, Total: total})
		}
	}
	report(0)
	rows, err := src.db.QueryContext(ctx, b.query)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	copied, done := 0, 0
	batch := make([][]any, 0, bulkBatch)
	flush := func() error {
		n, err := l.writeRows(ctx, b.write, batch)
		if err != nil {
			return err
		}
		copied += n
		done += len(batch)
		batch = batch[:0]
		report(done)
		return nil
	}
	for rows.Next() {
		v, err := scanValues(rows, b.cols)
		if err != nil {
			return copied, err
		}
		if b.adjust != nil {
			v = b.adjust(v)
		}
		if batch = append(batch, v); len(batch) == bulkBatch {
			if err := flush(); err != nil {
				return copied, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return copied, err
	}
	if len(batch) > 0 {
		return copied, flush()
	}
	return copied, nil
}

// scanValues reads a row of cols plain values (text as strings).
func scanValues(rows *sql.Rows, cols int) ([]any, error) {
	v := make([]any, cols)
	ptrs := make([]any, cols)
	for i := range v {
		ptrs[i] = &v[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, err
	}
	for i, x := range v {
		if b, ok := x.([]byte); ok {
			v[i] = string(b)
		}
	}
	return v, nil
}

// writeRows writes rows in one transaction; it returns how many were
// written (not skipped).
func (l *book) writeRows(ctx context.Context, write func(context.Context, *sqldb.Tx, [][]any) (int, error), rows [][]any) (int, error) {
	written := 0
	err := l.tx(ctx, func(tx *sqldb.Tx) error {
		var err error
		written, err = write(ctx, tx, rows)
		return err
	})
	return written, err
}

// insertMany writes rows (all as wide) in tx, as many to a statement as
// the engines' limits on parameters allow: insert, the placeholders, then
// conflict. It returns how many rows the statements wrote.
func insertMany(ctx context.Context, tx *sqldb.Tx, insert, conflict string, rows [][]any) (int, error) {
	if len(rows) == 0 {
		return 0, nil
	}
	cols := len(rows[0])
	per := max(1, min(1000, 30_000/cols))
	written := 0
	st := tx.Stmts()
	defer st.Close()
	for start := 0; start < len(rows); start += per {
		chunk := rows[start:min(len(rows), start+per)]
		args := make([]any, 0, cols*len(chunk))
		for _, r := range chunk {
			args = append(args, r...)
		}
		n, err := affected(st.ExecContext(ctx, insert+sqldb.Placeholders(len(chunk), cols)+conflict, args...))
		if err != nil {
			return written, err
		}
		written += n
	}
	return written, nil
}

// moveSubmissions copies every submission as this computer's, with its
// origin, and claims the duplicate keys of those still within the window
// (unless a teammate's submission holds them).
func (l *book) moveSubmissions(ctx context.Context, src *Ledger) ([]copier, error) {
	list, err := src.submissions().List(ctx)
	if err != nil {
		return nil, err
	}
	cutoff := l.now().Add(-claimWindow)
	out := make([]copier, len(list))
	for i, s := range list {
		out[i] = func(ctx context.Context, tx *sqldb.Tx) (int, error) {
			return l.moveSubmission(ctx, tx, s, cutoff)
		}
	}
	return out, nil
}

func (l *book) moveSubmission(ctx context.Context, tx *sqldb.Tx, s *Submission, cutoff time.Time) (int, error) {
	computer := s.Computer
	if computer == "" {
		computer = l.me.Computer
	}
	origin := fmt.Sprintf("%s/%d", l.me.ComputerID, s.ID)
	var jobID any
	if s.JobID != "" {
		jobID = s.JobID
	}
	var response any
	if len(s.Response) > 0 {
		response = string(s.Response)
	}
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO submissions
		(created_at, kind, state, file_path, file_name, file_hash, file_size, rows, mapping, mode, include_llcs, options, estimate,
		 sent_at, job_id, response, error, reconciled_at, updated_at, tag, source_hash, session, computer, computer_id, origin)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?)
		ON CONFLICT DO NOTHING RETURNING id`,
		s.CreatedAt.UnixMilli(), s.Kind, s.State, s.FilePath, s.FileName, s.FileHash, s.FileSize, s.Rows, MappingJSON(s.Mapping), s.Mode,
		s.IncludeLLCs, jsonOr(s.Options, "{}"), jsonOr(s.Estimate, "null"), ms(s.SentAt), jobID, response, s.Error, ms(s.ReconciledAt),
		s.UpdatedAt.UnixMilli(), s.Tag, s.SourceHash, computer, l.me.ComputerID, origin).Scan(&id)
	if err == sql.ErrNoRows {
		return 0, nil // moved before
	}
	if err != nil {
		return 0, err
	}
	live := s.State == StateSent || s.State == StateCreated || s.State == StateUnknown
	if live && s.Kind != jobs.KindSingle && s.FileHash != "" && !s.CreatedAt.Before(cutoff) {
		for _, k := range claimKeys(s) {
			if _, err := tx.ExecContext(ctx, `INSERT INTO submission_claims (key, submission_id, claimed_at) VALUES (?, ?, ?)
				ON CONFLICT (key) DO NOTHING`, k, id, s.CreatedAt.UnixMilli()); err != nil {
				return 0, err
			}
		}
	}
	return 1, nil
}

// movePresets copies the presets; one whose name the team uses for other
// content is kept as "name (computer)".
func (l *book) movePresets(ctx context.Context, src *Ledger) ([]copier, error) {
	list, err := src.saved().RawPresets(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]copier, len(list))
	for i, p := range list {
		out[i] = func(ctx context.Context, tx *sqldb.Tx) (int, error) {
			name := p.Name
			var have string
			err := tx.QueryRowContext(ctx, "SELECT data FROM presets WHERE name = ?", name).Scan(&have)
			switch {
			case err == sql.ErrNoRows:
			case err != nil:
				return 0, err
			case sameJSON(have, string(p.Data)):
				return 0, nil
			default:
				name = fmt.Sprintf("%s (%s)", p.Name, l.me.Computer)
			}
			return affected(tx.ExecContext(ctx, `INSERT INTO presets (name, data, updated_at, updated_by, saved)
				VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(saved), 0) + 1 FROM presets)) ON CONFLICT (name) DO NOTHING`,
				name, string(p.Data), p.UpdatedAt.UnixMilli(), l.me.Computer))
		}
	}
	return out, nil
}

func sameJSON(a, b string) bool {
	ca, err1 := canonicalJSON(json.RawMessage(a))
	cb, err2 := canonicalJSON(json.RawMessage(b))
	return err1 == nil && err2 == nil && ca == cb || strings.TrimSpace(a) == strings.TrimSpace(b)
}
