package ledger

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/sqldb"

	"github.com/skipdesk/skipdesk/jobs"
)

// Job is the last known state of one job.
type Job struct {
	ID           string
	Kind         jobs.Kind
	Name         string
	Status       jobs.Status // any status other than completed or failed (one the spec does not list too) is in flight
	TotalRows    int
	CreatedAt    time.Time // the server's
	CompletedAt  time.Time
	Last         json.RawMessage // the last API object seen (trace or DNC job)
	UpdatedAt    time.Time
	NextPollAt   time.Time
	ErrorMessage string
}

// UpsertJob records the state of a job. A job recorded as completed or
// failed never goes back to an earlier status (a stale read cannot undo a
// completion); zero fields of j do not erase what is known.
func (l *Jobs) UpsertJob(ctx context.Context, j Job) error {
	return l.tx(ctx, func(tx *sqldb.Tx) error { return l.upsertJob(ctx, tx, j) })
}

func (l *book) upsertJob(ctx context.Context, tx *sqldb.Tx, j Job) error {
	if j.ID == "" || j.Kind == "" {
		return errors.New("ledger: a job needs an id and a kind")
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO jobs
		(job_id, kind, name, status, total_rows, created_at, completed_at, last, updated_at, next_poll_at, error_message)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(job_id) DO UPDATE SET
			kind = excluded.kind,
			name = CASE WHEN excluded.name <> '' THEN excluded.name ELSE jobs.name END,
			status = CASE WHEN jobs.status IN ('completed', 'failed') AND excluded.status NOT IN ('completed', 'failed')
				THEN jobs.status WHEN excluded.status <> '' THEN excluded.status ELSE jobs.status END,
			last = CASE WHEN jobs.status IN ('completed', 'failed') AND excluded.status NOT IN ('completed', 'failed')
				THEN jobs.last WHEN excluded.last <> 'null' THEN excluded.last ELSE jobs.last END,
			total_rows = CASE WHEN excluded.total_rows > 0 THEN excluded.total_rows ELSE jobs.total_rows END,
			created_at = COALESCE(excluded.created_at, jobs.created_at),
			completed_at = COALESCE(excluded.completed_at, jobs.completed_at),
			updated_at = excluded.updated_at,
			next_poll_at = COALESCE(excluded.next_poll_at, jobs.next_poll_at),
			error_message = CASE WHEN excluded.error_message <> '' THEN excluded.error_message ELSE jobs.error_message END`,
		j.ID, j.Kind, j.Name, j.Status, j.TotalRows, ms(j.CreatedAt), ms(j.CompletedAt), jsonOr(j.Last, "null"),
		l.now().UnixMilli(), ms(j.NextPollAt), j.ErrorMessage)
	if err != nil {
		return fmt.Errorf("ledger: record job %s: %w", j.ID, err)
	}
	return nil
}

// SetNextPoll records when the tracker means to look at a job next.
func (l *Jobs) SetNextPoll(ctx context.Context, jobID string, at time.Time) error {
	return l.tx(ctx, func(tx *sqldb.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE jobs SET next_poll_at = ? WHERE job_id = ?", ms(at), jobID)
		return err
	})
}

const jobCols = "job_id, kind, name, status, total_rows, created_at, completed_at, last, updated_at, next_poll_at, error_message"

func scanJob(r scanner) (*Job, error) {
	var (
		j                        Job
		created, completed, next sql.NullInt64
		updated                  int64
		last                     string
	)
	if err := r.Scan(&j.ID, &j.Kind, &j.Name, &j.Status, &j.TotalRows, &created, &completed, &last, &updated, &next, &j.ErrorMessage); err != nil {
		return nil, err
	}
	j.CreatedAt, j.CompletedAt, j.NextPollAt = fromMS(created), fromMS(completed), fromMS(next)
	j.UpdatedAt = time.UnixMilli(updated).UTC()
	j.Last = json.RawMessage(last)
	return &j, nil
}

// Job returns one job.
func (l *Jobs) Job(ctx context.Context, id string) (*Job, error) {
	j, err := scanJob(l.db.QueryRowContext(ctx, "SELECT "+jobCols+" FROM jobs WHERE job_id = ?", id))
	if err != nil {
		return nil, rowErr(err, "job %s", id)
	}
	return j, nil
}

func (l *book) queryJobs(ctx context.Context, where string, args ...any) ([]*Job, error) {
	return listAll(ctx, l.db, "jobs", scanJob, "SELECT "+jobCols+" FROM jobs "+where, args...)
}

// InFlight returns the trace and DNC jobs not yet completed or failed,
// oldest first.
func (l *Jobs) InFlight(ctx context.Context) ([]*Job, error) {
	return l.queryJobs(ctx, "WHERE kind IN ('trace', 'dnc') AND status NOT IN ('completed', 'failed') ORDER BY created_at, job_id")
}

// NotDownloaded returns the completed trace and DNC jobs with no recorded
// download, oldest first.
func (l *Jobs) NotDownloaded(ctx context.Context) ([]*Job, error) {
	return l.queryJobs(ctx, `WHERE kind IN ('trace', 'dnc') AND status = 'completed'
		AND job_id NOT IN (SELECT job_id FROM downloads WHERE computer_id = ?) ORDER BY created_at, job_id`, l.me.ComputerID)
}

// NotDownloadedHere returns the completed trace and DNC jobs submitted
// from this computer whose result it does not have, oldest first: what its
// tracker downloads by itself. (A teammate's result is downloaded when it
// is opened here.)
func (l *Jobs) NotDownloadedHere(ctx context.Context) ([]*Job, error) {
	if !l.shared() {
		return l.jobs().NotDownloaded(ctx)
	}
	return l.queryJobs(ctx, `WHERE kind IN ('trace', 'dnc') AND status = 'completed'
		AND job_id IN (SELECT job_id FROM submissions WHERE computer_id = ? AND job_id IS NOT NULL)
		AND job_id NOT IN (SELECT job_id FROM downloads WHERE computer_id = ?) ORDER BY created_at, job_id`, l.me.ComputerID, l.me.ComputerID)
}

// Spend is the credits of one job.
type Spend struct {
	Charged, Refunded int64
}

// Net is what the job cost in the end.
func (s Spend) Net() int64 { return s.Charged - s.Refunded }

// MaxPlausible is the largest credit or row figure taken as real: more than
// a thousand million credits, or rows, in one job is a server's mistake (a
// 50 MB list holds about half a million rows).
const MaxPlausible = 1_000_000_000

// Problem says what is implausible about the figures the API reported for
// a job ("" when nothing): a negative charge or refund, a refund above the
// charge, or a figure above MaxPlausible. Such a spend is kept as reported
// but left out of TotalSpend, and shown with the job as a warning.
func (s Spend) Problem() string {
	return Implausible(0, s)
}

// Implausible says what is wrong with a job's row count and spend as the
// API reported them ("" when nothing).
func Implausible(totalRows int, s Spend) string {
	var p []string
	switch {
	case s.Charged < 0:
		p = append(p, fmt.Sprintf("a negative charge (%d credits)", s.Charged))
	case s.Charged > MaxPlausible:
		p = append(p, fmt.Sprintf("an absurd charge (%d credits)", s.Charged))
	}
	switch {
	case s.Refunded < 0:
		p = append(p, fmt.Sprintf("a negative refund (%d credits)", s.Refunded))
	case s.Refunded > MaxPlausible:
		p = append(p, fmt.Sprintf("an absurd refund (%d credits)", s.Refunded))
	case s.Charged >= 0 && s.Refunded > s.Charged:
		p = append(p, fmt.Sprintf("a refund (%d credits) above the charge (%d)", s.Refunded, s.Charged))
	}
	switch {
	case totalRows < 0:
		p = append(p, fmt.Sprintf("a negative row count (%d)", totalRows))
	case totalRows > MaxPlausible:
		p = append(p, fmt.Sprintf("an absurd row count (%d)", totalRows))
	}
	return strings.Join(p, ", ")
}

// plausibleSpend is Problem's test in SQL, over the spend table.
const plausibleSpend = "charged >= 0 AND refunded >= 0 AND refunded <= charged AND charged <= 1000000000"

// SetSpend records the credits charged and refunded for a job, as the API
// last reported them.
func (l *Jobs) SetSpend(ctx context.Context, jobID string, s Spend) error {
	return l.tx(ctx, func(tx *sqldb.Tx) error { return l.setSpend(ctx, tx, jobID, s.Charged, s.Refunded) })
}

// setSpend writes charged and refunded as the API reported them, however
// implausible (Spend.Problem flags them; TotalSpend leaves them out).
func (l *book) setSpend(ctx context.Context, tx *sqldb.Tx, jobID string, charged, refunded int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO spend (job_id, charged, refunded, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT(job_id) DO UPDATE SET charged = excluded.charged, refunded = excluded.refunded, updated_at = excluded.updated_at`,
		jobID, charged, refunded, l.now().UnixMilli())
	if err != nil {
		return fmt.Errorf("ledger: spend of %s: %w", jobID, err)
	}
	return nil
}

// JobSpend returns the credits of one job (zero when none are recorded).
func (l *Jobs) JobSpend(ctx context.Context, jobID string) (Spend, error) {
	var s Spend
	err := l.db.QueryRowContext(ctx, "SELECT charged, refunded FROM spend WHERE job_id = ?", jobID).Scan(&s.Charged, &s.Refunded)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return s, fmt.Errorf("ledger: spend of %s: %w", jobID, err)
	}
	return s, nil
}

// TotalSpend sums the spend of every job whose figures are plausible
// (Spend.Problem); FlaggedSpend lists the others.
func (l *Jobs) TotalSpend(ctx context.Context) (Spend, error) {
	var s Spend
	err := l.db.QueryRowContext(ctx, "SELECT CAST(COALESCE(SUM(charged), 0) AS BIGINT), CAST(COALESCE(SUM(refunded), 0) AS BIGINT) FROM spend WHERE "+plausibleSpend).
		Scan(&s.Charged, &s.Refunded)
	if err != nil {
		return s, fmt.Errorf("ledger: spend: %w", err)
	}
	return s, nil
}

// FlaggedSpend returns, by job id, the spend TotalSpend leaves out because
// its figures are implausible.
func (l *Jobs) FlaggedSpend(ctx context.Context) (map[string]Spend, error) {
	rows, err := l.db.QueryContext(ctx, "SELECT job_id, charged, refunded FROM spend WHERE NOT ("+plausibleSpend+") ORDER BY job_id")
	if err != nil {
		return nil, fmt.Errorf("ledger: spend: %w", err)
	}
	defer rows.Close()
	out := map[string]Spend{}
	for rows.Next() {
		var id string
		var s Spend
		if err := rows.Scan(&id, &s.Charged, &s.Refunded); err != nil {
			return nil, fmt.Errorf("ledger: spend: %w", err)
		}
		out[id] = s
	}
	return out, rows.Err()
}

// Download is a result file in the library.
type Download struct {
	JobID        string
	Path         string
	Size         int64
	SHA256       string // hex
	Rows         int    // data rows in the result
	DownloadedAt time.Time
}

// RecordDownload records a result downloaded on this computer (replacing
// an earlier record of the same job here).
func (l *Jobs) RecordDownload(ctx context.Context, d Download) error {
	if d.JobID == "" || d.Path == "" {
		return errors.New("ledger: a download needs a job id and a path")
	}
	if d.DownloadedAt.IsZero() {
		d.DownloadedAt = l.now()
	}
	return l.tx(ctx, func(tx *sqldb.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO downloads (job_id, computer_id, path, size, sha256, rows, downloaded_at)
			VALUES (?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT(job_id, computer_id) DO UPDATE SET path = excluded.path, size = excluded.size, sha256 = excluded.sha256,
				rows = excluded.rows, downloaded_at = excluded.downloaded_at`,
			d.JobID, l.me.ComputerID, d.Path, d.Size, strings.ToLower(d.SHA256), d.Rows, d.DownloadedAt.UnixMilli())
		if err != nil {
			return fmt.Errorf("ledger: record download of %s: %w", d.JobID, err)
		}
		return nil
	})
}

// JobDownload returns the recorded download of a job on this computer, or
// ErrNotFound.
func (l *Jobs) JobDownload(ctx context.Context, jobID string) (*Download, error) {
	var d Download
	var at int64
	err := l.db.QueryRowContext(ctx, "SELECT job_id, path, size, sha256, rows, downloaded_at FROM downloads WHERE job_id = ? AND computer_id = ?",
		jobID, l.me.ComputerID).
		Scan(&d.JobID, &d.Path, &d.Size, &d.SHA256, &d.Rows, &at)
	if err != nil {
		return nil, rowErr(err, "download of %s", jobID)
	}
	d.DownloadedAt = time.UnixMilli(at).UTC()
	return &d, nil
}

// Entry is one line of the ledger's overview: a job with its spend, its
// download on this computer, if any, and the computer that submitted it.
type Entry struct {
	Job
	Spend    Spend
	Download *Download
	// SubmittedBy names the computer whose submission created the job (""
	// for a job the ledger did not submit: seen in the API's lists, or
	// recorded before computers were named).
	SubmittedBy string
}

// Entries returns every job, newest first, with its spend and download.
func (l *Jobs) Entries(ctx context.Context) ([]Entry, error) {
	return listAll(ctx, l.db, "jobs", scanEntry, `SELECT j.job_id, j.kind, j.name, j.status, j.total_rows, j.created_at, j.completed_at,
			j.last, j.updated_at, j.next_poll_at, j.error_message,
			COALESCE(s.charged, 0), COALESCE(s.refunded, 0),
			d.path, d.size, d.sha256, d.rows, d.downloaded_at, COALESCE(b.computer, '')
		FROM jobs j LEFT JOIN spend s ON s.job_id = j.job_id LEFT JOIN downloads d ON d.job_id = j.job_id AND d.computer_id = ?
		LEFT JOIN submissions b ON b.job_id = j.job_id
		ORDER BY j.created_at DESC, j.job_id DESC`, l.me.ComputerID)
}

// scanEntry reads a row of Entries' query.
func scanEntry(r scanner) (Entry, error) {
	var (
		e                        Entry
		created, completed, next sql.NullInt64
		updated                  int64
		last                     string
		dPath, dSum              sql.NullString
		dSize, dRows, dAt        sql.NullInt64
	)
	if err := r.Scan(&e.ID, &e.Kind, &e.Name, &e.Status, &e.TotalRows, &created, &completed, &last, &updated, &next,
		&e.ErrorMessage, &e.Spend.Charged, &e.Spend.Refunded, &dPath, &dSize, &dSum, &dRows, &dAt, &e.SubmittedBy); err != nil {
		return Entry{}, err
	}
	e.CreatedAt, e.CompletedAt, e.NextPollAt = fromMS(created), fromMS(completed), fromMS(next)
	e.UpdatedAt = time.UnixMilli(updated).UTC()
	e.Last = json.RawMessage(last)
	if dPath.Valid {
		e.Download = &Download{JobID: e.ID, Path: dPath.String, Size: dSize.Int64, SHA256: dSum.String,
			Rows: int(dRows.Int64), DownloadedAt: fromMS(dAt)}
	}
	return e, nil
}

// RecordJobState records what the API said about a job and the spend it
// reported, in one transaction.
func (l *Jobs) RecordJobState(ctx context.Context, j Job, s Spend) error {
	return l.tx(ctx, func(tx *sqldb.Tx) error {
		if err := l.upsertJob(ctx, tx, j); err != nil {
			return err
		}
		if err := l.setSpend(ctx, tx, j.ID, s.Charged, s.Refunded); err != nil {
			return err
		}
		return releaseRefunded(ctx, tx, j.ID)
	})
}

// JobState is a job with the spend the API reported for it.
type JobState struct {
	Job   Job
	Spend Spend
}

// RecordJobStates records several jobs' states in one transaction (one
// fsync for a whole list page).
func (l *Jobs) RecordJobStates(ctx context.Context, states []JobState) error {
	if len(states) == 0 {
		return nil
	}
	return l.tx(ctx, func(tx *sqldb.Tx) error {
		for _, s := range states {
			if err := l.upsertJob(ctx, tx, s.Job); err != nil {
				return err
			}
			if err := l.setSpend(ctx, tx, s.Job.ID, s.Spend.Charged, s.Spend.Refunded); err != nil {
				return err
			}
			if s.Job.Status == jobs.StatusFailed {
				if err := releaseRefunded(ctx, tx, s.Job.ID); err != nil {
					return err
				}
			}
		}
		return nil
	})
}
