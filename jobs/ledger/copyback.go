package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// Stopping sharing. While a computer shares a team's database its own
// ledger is left as it was; what it needs to go on safely alone is copied
// back from the team's when it stops, in one transaction of its own
// ledger, so that it has all of it or nothing changed (and sharing stays
// on):
//   - the company's do-not-call list as the team has it, with its history.
//     A number this computer had that the team took off (the removal is in
//     the history) comes off here too; one the team has no record of
//     taking off stays: the list never loses a number by being copied.
//   - this computer's submissions, in every state (one whose outcome is not
//     known is reconciled from here), their jobs (those in flight are
//     followed and downloaded from here), spend and downloads;
//   - the duplicate guard's records (claims) of those submissions, so that
//     a file sent from here an hour ago is still asked about.
//
// The team's side is read in one snapshot (repeatable read), so that a
// teammate's change in the middle is either wholly in the copy or not.
// Copying back again writes nothing twice.

// Kept is what stopping sharing keeps on this computer.
type Kept struct {
	Numbers     int // numbers on the company's do-not-call list
	History     int // entries of the list's history (those here already included)
	Removed     int // numbers this computer had that the team took off
	Submissions int // this computer's submissions
	Jobs        int // their jobs
	InFlight    int // of the jobs and submissions, those not finished
	Claims      int // the duplicate guard's records of the submissions
}

// KeepParts are the parts of a copy back, in order (MoveProgress.Part).
var KeepParts = []string{"internal", "internal log", "submissions"}

// ToKeep is what copying back from this team's ledger would bring to the
// computer (by l.Me()'s computer id): what stopping sharing keeps.
func (l *Ledger) ToKeep(ctx context.Context) (Kept, error) {
	var k Kept
	if !l.Shared() {
		return k, errors.New("ledger: only a team's ledger is copied back")
	}
	me := l.me.ComputerID
	since := l.db.Now().Add(-claimWindow).UnixMilli()
	err := l.db.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM internal_dnc),
		(SELECT COUNT(*) FROM internal_dnc_log),
		(SELECT COUNT(*) FROM submissions WHERE computer_id = ?),
		(SELECT COUNT(*) FROM jobs WHERE job_id IN (SELECT job_id FROM submissions WHERE computer_id = ?)),
		(SELECT COUNT(*) FROM jobs WHERE status NOT IN ('completed', 'failed') AND job_id IN (SELECT job_id FROM submissions WHERE computer_id = ?))
			+ (SELECT COUNT(*) FROM submissions WHERE computer_id = ? AND job_id IS NULL AND state IN (?, ?, ?)),
		(SELECT COUNT(*) FROM submission_claims WHERE released = 0 AND claimed_at >= ?
			AND submission_id IN (SELECT id FROM submissions WHERE computer_id = ?))`,
		me, me, me, me, StateIntent, StateSent, StateUnknown, since, me).
		Scan(&k.Numbers, &k.History, &k.Submissions, &k.Jobs, &k.InFlight, &k.Claims)
	if err != nil {
		return k, fmt.Errorf("ledger: what this computer keeps: %w", err)
	}
	return k, nil
}

// CopyBack copies from team (a team's ledger, opened as this computer)
// into l (this computer's own) what the computer needs on its own, in one
// transaction of l. progress, when set, follows it.
func (l *Ledger) CopyBack(ctx context.Context, team *Ledger, progress func(MoveProgress)) (Kept, error) {
	if l.Shared() || l.readOnly || !team.Shared() || team.me.ComputerID == "" {
		return Kept{}, errors.New("ledger: a copy back goes from a team's ledger into a computer's own")
	}
	var kept Kept
	err := l.tx(ctx, func(tx *sqldb.Tx) error {
		snap, err := team.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
		if err != nil {
			return err
		}
		defer snap.Rollback()
		c := &copyBack{l: l, tx: tx, team: snap, me: team.me.ComputerID, progress: progress}
		kept, err = c.run(ctx)
		return err
	})
	if err != nil {
		return Kept{}, fmt.Errorf("ledger: copying back from %s: %w", team, err)
	}
	return kept, nil
}

// copyBack is one copy back: l's transaction tx, the team's snapshot.
type copyBack struct {
	l        *Ledger
	tx       *sqldb.Tx
	team     *sqldb.Tx
	me       string // this computer's id in the team
	progress func(MoveProgress)
	kept     Kept
}

func (c *copyBack) report(part string, done, total int) {
	if c.progress != nil {
		c.progress(MoveProgress{Part: part, Done: done, Total: total})
	}
}

func (c *copyBack) run(ctx context.Context) (Kept, error) {
	if err := c.list(ctx); err != nil {
		return Kept{}, fmt.Errorf("the do-not-call list: %w", err)
	}
	if err := c.history(ctx); err != nil {
		return Kept{}, fmt.Errorf("the do-not-call list's history: %w", err)
	}
	if err := c.removals(ctx); err != nil {
		return Kept{}, fmt.Errorf("the do-not-call list: %w", err)
	}
	if err := c.submissions(ctx); err != nil {
		return Kept{}, fmt.Errorf("this computer's jobs: %w", err)
	}
	return c.kept, nil
}

// count is the number of rows of query (one COUNT) in the team's snapshot.
func (c *copyBack) count(ctx context.Context, query string, args ...any) (int, error) {
	var n int
	err := c.team.QueryRowContext(ctx, query, args...).Scan(&n)
	return n, err
}

// stream reads the team's rows of query (cols columns), bulkBatch at a
// time, and hands each batch to write; it reports progress as part.
func (c *copyBack) stream(ctx context.Context, part, query string, cols int, write func([][]any) error) error {
	total, err := c.count(ctx, "SELECT COUNT(*) FROM ("+query+") q")
	if err != nil {
		return err
	}
	c.report(part, 0, total)
	rows, err := c.team.QueryContext(ctx, query)
	if err != nil {
		return err
	}
	defer rows.Close()
	batch := make([][]any, 0, bulkBatch)
	done := 0
	flush := func() error {
		if err := write(batch); err != nil {
			return err
		}
		done += len(batch)
		batch = batch[:0]
		c.report(part, done, total)
		return nil
	}
	for rows.Next() {
		v, err := scanValues(rows, cols)
		if err != nil {
			return err
		}
		if batch = append(batch, v); len(batch) == bulkBatch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	if len(batch) > 0 || total == 0 {
		return flush()
	}
	return nil
}

// list makes every number on the team's list this computer's, with the
// team's date, reason and source.
func (c *copyBack) list(ctx context.Context) error {
	return c.stream(ctx, "internal", "SELECT number, added_at, reason, source, added_by, keep_until FROM internal_dnc ORDER BY number", 6,
		func(batch [][]any) error {
			_, err := insertMany(ctx, c.tx, "INSERT INTO internal_dnc (number, added_at, reason, source, added_by, keep_until) VALUES ",
				` ON CONFLICT (number) DO UPDATE SET added_at = excluded.added_at, reason = excluded.reason,
					source = excluded.source, added_by = excluded.added_by, keep_until = excluded.keep_until`, batch)
			c.kept.Numbers += len(batch)
			return err
		})
}

// history copies the team's log of the list; an entry this computer has
// already (the same number, action, time, reason, source and computer:
// one it moved there itself, or copied back before) is not written again.
func (c *copyBack) history(ctx context.Context) error {
	return c.stream(ctx, "internal log", `SELECT number, action, at, reason, source, "by" FROM internal_dnc_log ORDER BY id`, 6,
		func(batch [][]any) error {
			_, err := insertMany(ctx, c.tx, `INSERT INTO internal_dnc_log (number, action, at, reason, source, "by")
				SELECT v.column1, v.column2, v.column3, v.column4, v.column5, v.column6 FROM (VALUES `,
				`) AS v WHERE NOT EXISTS (SELECT 1 FROM internal_dnc_log g WHERE g.number = v.column1 AND g.at = v.column3
					AND g.action = v.column2 AND g.reason = v.column4 AND g.source = v.column5 AND g."by" = v.column6)`, batch)
			c.kept.History += len(batch)
			return err
		})
}

// removals takes off this computer's list the numbers the team took off
// after this computer added them (the removal, with its reason, is in the
// history copied); a number the team has no removal of stays.
func (c *copyBack) removals(ctx context.Context) error {
	team, err := c.teamNumbers(ctx)
	if err != nil {
		return err
	}
	type local struct {
		number string
		added  int64
	}
	var only []local
	rows, err := c.tx.QueryContext(ctx, "SELECT number, added_at FROM internal_dnc")
	if err != nil {
		return err
	}
	for rows.Next() {
		var e local
		if err := rows.Scan(&e.number, &e.added); err != nil {
			rows.Close()
			return err
		}
		if k, ok := numberKey([]byte(e.number)); !ok || !team.Has(k) {
			only = append(only, e)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, e := range only {
		var removed sql.NullInt64
		if err := c.team.QueryRowContext(ctx, "SELECT MAX(at) FROM internal_dnc_log WHERE number = ? AND action = 'removed'", e.number).
			Scan(&removed); err != nil {
			return err
		}
		if !removed.Valid || removed.Int64 < e.added {
			continue
		}
		if _, err := c.tx.ExecContext(ctx, "DELETE FROM internal_dnc WHERE number = ?", e.number); err != nil {
			return err
		}
		c.kept.Removed++
	}
	return nil
}

// teamNumbers is the team's list as a set, in the snapshot.
func (c *copyBack) teamNumbers(ctx context.Context) (phone.KeySet, error) {
	rows, err := c.team.QueryContext(ctx, "SELECT number FROM internal_dnc ORDER BY number")
	if err != nil {
		return phone.KeySet{}, err
	}
	defer rows.Close()
	var keys []uint64
	var b sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&b); err != nil {
			return phone.KeySet{}, err
		}
		if k, ok := numberKey(b); ok {
			keys = append(keys, k)
		}
	}
	return phone.NewKeySet(keys), rows.Err()
}

// teamRecords are this computer's records in the team's ledger.
type teamRecords struct {
	subs      []*Submission
	claims    map[int64][]claimRow // by the team's submission id
	jobs      map[string]*Job
	spend     map[string][]any // job_id, charged, refunded, updated_at
	downloads map[string][]any // job_id, path, size, sha256, rows, downloaded_at
}

type claimRow struct {
	key      string
	at       int64
	released int
}

// submissions copies this computer's submissions with their claims, jobs,
// spend and downloads.
func (c *copyBack) submissions(ctx context.Context) error {
	r, err := c.readRecords(ctx)
	if err != nil {
		return err
	}
	c.report("submissions", 0, len(r.subs))
	for i, s := range r.subs {
		id, err := c.keepSubmission(ctx, s)
		if err != nil {
			return fmt.Errorf("submission of %s: %w", s.FileName, err)
		}
		if err := c.keepClaims(ctx, id, r.claims[s.ID]); err != nil {
			return err
		}
		if err := c.keepJob(ctx, s, r); err != nil {
			return err
		}
		c.report("submissions", i+1, len(r.subs))
	}
	return nil
}

// mine selects the job ids of this computer's submissions.
const mine = "SELECT job_id FROM submissions WHERE computer_id = ? AND job_id IS NOT NULL"

func (c *copyBack) readRecords(ctx context.Context) (*teamRecords, error) {
	r := &teamRecords{claims: map[int64][]claimRow{}, jobs: map[string]*Job{}, spend: map[string][]any{}, downloads: map[string][]any{}}
	subs, err := queryAll(ctx, c.team, scanSubmission, "SELECT "+submissionCols+" FROM submissions WHERE computer_id = ? ORDER BY created_at, id", c.me)
	if err != nil {
		return nil, err
	}
	r.subs = subs
	if err := c.each(ctx, `SELECT c.submission_id, c.key, c.claimed_at, c.released FROM submission_claims c
		JOIN submissions s ON s.id = c.submission_id WHERE s.computer_id = ?`, func(rows *sql.Rows) error {
		var id int64
		var cl claimRow
		err := rows.Scan(&id, &cl.key, &cl.at, &cl.released)
		r.claims[id] = append(r.claims[id], cl)
		return err
	}); err != nil {
		return nil, err
	}
	if err := c.each(ctx, "SELECT "+jobCols+" FROM jobs WHERE job_id IN ("+mine+")", func(rows *sql.Rows) error {
		j, err := scanJob(rows)
		if err == nil {
			r.jobs[j.ID] = j
		}
		return err
	}); err != nil {
		return nil, err
	}
	if err := c.each(ctx, "SELECT job_id, charged, refunded, updated_at FROM spend WHERE job_id IN ("+mine+")", func(rows *sql.Rows) error {
		v, err := scanValues(rows, 4)
		if err == nil {
			r.spend[v[0].(string)] = v
		}
		return err
	}); err != nil {
		return nil, err
	}
	err = c.each(ctx, "SELECT job_id, path, size, sha256, rows, downloaded_at FROM downloads WHERE computer_id = ?", func(rows *sql.Rows) error {
		v, err := scanValues(rows, 6)
		if err == nil {
			r.downloads[v[0].(string)] = v
		}
		return err
	})
	return r, err
}

// each runs a team query with this computer's id as its one argument and
// hands each row to read.
func (c *copyBack) each(ctx context.Context, query string, read func(*sql.Rows) error) error {
	rows, err := c.team.QueryContext(ctx, query, c.me)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := read(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// keepSubmission writes s into this computer's ledger: as a new row, or
// over the row it came from (moved into the team, or copied back before)
// when the team's is newer. It returns the row's id here.
func (c *copyBack) keepSubmission(ctx context.Context, s *Submission) (int64, error) {
	c.kept.Submissions++
	if s.JobID == "" && s.State.Pending() {
		c.kept.InFlight++
	}
	var jobID, response any
	if s.JobID != "" {
		jobID = s.JobID
	}
	if len(s.Response) > 0 {
		response = string(s.Response)
	}
	var id, updated int64
	err := c.tx.QueryRowContext(ctx, `SELECT id, updated_at FROM submissions WHERE (job_id IS NOT NULL AND job_id = ?)
		OR (created_at = ? AND file_name = ? AND file_hash = ? AND kind = ?) ORDER BY job_id IS NULL LIMIT 1`,
		s.JobID, s.CreatedAt.UnixMilli(), s.FileName, s.FileHash, s.Kind).Scan(&id, &updated)
	switch {
	case err == nil:
		if updated > s.UpdatedAt.UnixMilli() {
			return id, nil
		}
		_, err = c.tx.ExecContext(ctx, `UPDATE submissions SET state = ?, sent_at = ?, job_id = ?, response = ?, error = ?,
			reconciled_at = ?, updated_at = ? WHERE id = ?`,
			s.State, ms(s.SentAt), jobID, response, s.Error, ms(s.ReconciledAt), s.UpdatedAt.UnixMilli(), id)
		return id, err
	case !errors.Is(err, sql.ErrNoRows):
		return 0, err
	}
	err = c.tx.QueryRowContext(ctx, `INSERT INTO submissions
		(created_at, kind, state, file_path, file_name, file_hash, file_size, rows, mapping, mode, include_llcs, options, estimate,
		 sent_at, job_id, response, error, reconciled_at, updated_at, tag, source_hash, session, computer, computer_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '') RETURNING id`,
		s.CreatedAt.UnixMilli(), s.Kind, s.State, s.FilePath, s.FileName, s.FileHash, s.FileSize, s.Rows, MappingJSON(s.Mapping), s.Mode,
		s.IncludeLLCs, jsonOr(s.Options, "{}"), jsonOr(s.Estimate, "null"), ms(s.SentAt), jobID, response, s.Error, ms(s.ReconciledAt),
		s.UpdatedAt.UnixMilli(), s.Tag, s.SourceHash, s.Session, s.Computer).Scan(&id)
	return id, err
}

// keepClaims gives the submission id here the team's claims of its keys,
// over an older claim of the same key.
func (c *copyBack) keepClaims(ctx context.Context, id int64, claims []claimRow) error {
	for _, cl := range claims {
		if _, err := c.tx.ExecContext(ctx, `INSERT INTO submission_claims (key, submission_id, claimed_at, released) VALUES (?, ?, ?, ?)
			ON CONFLICT (key) DO UPDATE SET submission_id = excluded.submission_id, claimed_at = excluded.claimed_at, released = excluded.released
			WHERE excluded.claimed_at >= submission_claims.claimed_at`, cl.key, id, cl.at, cl.released); err != nil {
			return err
		}
		if cl.released == 0 && cl.at >= c.l.now().Add(-claimWindow).UnixMilli() {
			c.kept.Claims++
		}
	}
	return nil
}

// keepJob writes the job of s, its spend and its download here.
func (c *copyBack) keepJob(ctx context.Context, s *Submission, r *teamRecords) error {
	j := r.jobs[s.JobID]
	if j == nil {
		return nil
	}
	c.kept.Jobs++
	if j.Status != jobs.StatusCompleted && j.Status != jobs.StatusFailed {
		c.kept.InFlight++
	}
	j.NextPollAt = time.Time{}
	if err := c.l.upsertJob(ctx, c.tx, *j); err != nil {
		return err
	}
	if v := r.spend[j.ID]; v != nil {
		if _, err := c.tx.ExecContext(ctx, `INSERT INTO spend (job_id, charged, refunded, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (job_id) DO UPDATE SET charged = excluded.charged, refunded = excluded.refunded, updated_at = excluded.updated_at
			WHERE excluded.updated_at >= spend.updated_at`, v...); err != nil {
			return err
		}
	}
	if v := r.downloads[j.ID]; v != nil {
		if _, err := c.tx.ExecContext(ctx, `INSERT INTO downloads (job_id, computer_id, path, size, sha256, rows, downloaded_at)
			VALUES (?, '', ?, ?, ?, ?, ?)
			ON CONFLICT (job_id, computer_id) DO UPDATE SET path = excluded.path, size = excluded.size, sha256 = excluded.sha256,
				rows = excluded.rows, downloaded_at = excluded.downloaded_at WHERE excluded.downloaded_at >= downloads.downloaded_at`, v...); err != nil {
			return err
		}
	}
	return nil
}
