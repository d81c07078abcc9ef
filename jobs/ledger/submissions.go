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

// State is where a submission stands.
type State string

const (
	// StateIntent: recorded before anything was sent. A crash here means
	// nothing reached the server.
	StateIntent State = "intent"
	// StateSent: the job-creating POST is about to start or under way; its
	// bytes may have reached the server.
	StateSent State = "sent"
	// StateCreated: the server created the job; JobID is known.
	StateCreated State = "created"
	// StateUnknown: the POST may or may not have created a job (and charged
	// for it). Reconciliation decides.
	StateUnknown State = "unknown"
	// StateNotCreated: established that no job exists for the submission.
	StateNotCreated State = "not_created"
	// StateFailed: the server refused the submission (a 4xx answer): no job,
	// no charge.
	StateFailed State = "failed"
)

// Pending reports whether the outcome of a submission in this state is not
// yet known: it may have created (and charged for) a job.
func (s State) Pending() bool { return s == StateIntent || s == StateSent || s == StateUnknown }

// Submission is one attempt to create a job.
type Submission struct {
	ID        int64
	CreatedAt time.Time
	Kind      jobs.Kind
	State     State

	FilePath string // the uploaded file (the prepared copy)
	FileName string // the name sent with the upload: the job's name
	FileHash string // sha256 hex of the uploaded bytes
	FileSize int64
	Rows     int // data rows in the upload
	// Tag is the short mark in FileName that makes the submission's job
	// recognisable in the server's lists ("" for a single trace, and for
	// submissions recorded before tags).
	Tag string
	// SourceHash is the sha256 hex of the file the person picked, before
	// preparation ("" when not known).
	SourceHash string

	Mapping     map[string]string
	Mode        jobs.Mode
	IncludeLLCs bool
	Options     json.RawMessage // other preparation options, a JSON object
	Estimate    json.RawMessage // the cost estimate shown before submitting

	SentAt       time.Time
	JobID        string
	Response     json.RawMessage // the create response
	Error        string
	ReconciledAt time.Time
	UpdatedAt    time.Time

	// Session is the SkipDesk that recorded it, Computer that computer's
	// name ("submitted by") and ComputerID its identity in a team ("" in a
	// computer's own ledger).
	Session    string
	Computer   string
	ComputerID string

	// Again makes RecordIntent take over the duplicate keys a live
	// submission holds: the person said to submit the same again. Not
	// stored.
	Again bool
}

func jsonOr(b json.RawMessage, def string) string {
	if len(b) == 0 {
		return def
	}
	return string(b)
}

// MappingJSON is the canonical form of a mapping (keys sorted) used to
// compare submissions.
func MappingJSON(m map[string]string) string {
	if len(m) == 0 {
		return "{}"
	}
	b, _ := json.Marshal(m) // maps marshal with sorted keys
	return string(b)
}

// RecordIntent stores a new submission in state intent and returns its id.
// Nothing may be sent before this returns. A bulk trace or DNC scrub with a
// file hash also claims its duplicate keys (claimKeys) in the same
// transaction: when a live submission, any computer's, holds one, nothing
// is recorded and the error is a *ClaimedError naming it (errors.Is
// ErrClaimed), unless s.Again.
func (l *Submissions) RecordIntent(ctx context.Context, s *Submission) (int64, error) {
	if s.Kind == "" || s.FileName == "" {
		return 0, errors.New("ledger: a submission needs a kind and a file name")
	}
	now := l.now()
	if s.CreatedAt.IsZero() {
		s.CreatedAt = now
	}
	if s.Computer == "" {
		s.Computer = l.me.Computer
	}
	s.Session, s.ComputerID = l.me.Session, l.me.ComputerID
	var id int64
	err := l.tx(ctx, func(tx *sqldb.Tx) error {
		err := tx.QueryRowContext(ctx, `INSERT INTO submissions
			(created_at, kind, state, file_path, file_name, file_hash, file_size, rows,
			 mapping, mode, include_llcs, options, estimate, updated_at, tag, source_hash, session, computer, computer_id)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			s.CreatedAt.UnixMilli(), s.Kind, StateIntent, s.FilePath, s.FileName, s.FileHash, s.FileSize, s.Rows,
			MappingJSON(s.Mapping), s.Mode, s.IncludeLLCs, jsonOr(s.Options, "{}"), jsonOr(s.Estimate, "null"), now.UnixMilli(),
			s.Tag, s.SourceHash, s.Session, s.Computer, s.ComputerID).Scan(&id)
		if err != nil {
			return fmt.Errorf("ledger: record intent: %w", err)
		}
		if s.Kind != jobs.KindSingle && s.FileHash != "" {
			return l.claim(ctx, tx, id, s, now)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	s.ID, s.State, s.UpdatedAt = id, StateIntent, now
	return id, nil
}

// setState moves submission id from one of the states in from to state to.
func (l *book) setState(ctx context.Context, tx *sqldb.Tx, id int64, to State, from []State, set string, args ...any) error {
	q := "UPDATE submissions SET state = ?, updated_at = ?"
	a := []any{to, l.now().UnixMilli()}
	if set != "" {
		q += ", " + set
		a = append(a, args...)
	}
	q += " WHERE id = ?"
	a = append(a, id)
	if len(from) > 0 {
		q += " AND state IN (" + strings.TrimSuffix(strings.Repeat("?,", len(from)), ",") + ")"
		for _, f := range from {
			a = append(a, f)
		}
	}
	r, err := tx.ExecContext(ctx, q, a...)
	if err != nil {
		return fmt.Errorf("ledger: submission %d -> %s: %w", id, to, err)
	}
	if n, _ := r.RowsAffected(); n == 0 {
		var cur string
		err := tx.QueryRowContext(ctx, "SELECT state FROM submissions WHERE id = ?", id).Scan(&cur)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("ledger: submission %d: %w", id, ErrNotFound)
		}
		return &SettledError{ID: id, State: State(cur), To: to}
	}
	if to == StateNotCreated || to == StateFailed {
		// Nothing was charged: the same file may be sent again.
		return releaseClaims(ctx, tx, id)
	}
	return nil
}

// ErrSettled is matched (errors.Is) by the error of a transition the
// submission cannot make because it was settled meanwhile, perhaps by
// another computer: nothing was changed.
var ErrSettled = errors.New("ledger: the submission was settled already")

// SettledError says where a submission already stands.
type SettledError struct {
	ID    int64
	State State
	To    State
}

func (e *SettledError) Error() string {
	return fmt.Sprintf("ledger: submission %d is %s, cannot become %s", e.ID, e.State, e.To)
}

// Is makes errors.Is(err, ErrSettled) true.
func (e *SettledError) Is(target error) bool { return target == ErrSettled }

func (l *book) transition(ctx context.Context, id int64, to State, from []State, set string, args ...any) error {
	return l.tx(ctx, func(tx *sqldb.Tx) error { return l.setState(ctx, tx, id, to, from, set, args...) })
}

// MarkSent records that the POST is about to be sent: from here on the
// submission may have created a job.
func (l *Submissions) MarkSent(ctx context.Context, id int64) error {
	return l.transition(ctx, id, StateSent, []State{StateIntent}, "sent_at = ?", l.now().UnixMilli())
}

// MarkUnknown records that the POST's outcome is not known.
func (l *Submissions) MarkUnknown(ctx context.Context, id int64, why string) error {
	return l.transition(ctx, id, StateUnknown, []State{StateIntent, StateSent, StateUnknown}, "error = ?", why)
}

// MarkFailed records that the server refused the submission: no job exists.
func (l *Submissions) MarkFailed(ctx context.Context, id int64, why string) error {
	return l.transition(ctx, id, StateFailed, []State{StateIntent, StateSent}, "error = ?", why)
}

// MarkNotCreated records that reconciliation established no job exists.
func (l *Submissions) MarkNotCreated(ctx context.Context, id int64, why string) error {
	now := l.now().UnixMilli()
	return l.transition(ctx, id, StateNotCreated, []State{StateIntent, StateSent, StateUnknown}, "error = ?, reconciled_at = ?", why, now)
}

// TouchReconciled records that reconciliation looked at a submission and
// left it as it was.
func (l *Submissions) TouchReconciled(ctx context.Context, id int64) error {
	return l.tx(ctx, func(tx *sqldb.Tx) error {
		_, err := tx.ExecContext(ctx, "UPDATE submissions SET reconciled_at = ? WHERE id = ?", l.now().UnixMilli(), id)
		return err
	})
}

// Created is what MarkCreated records, in one transaction: the submission's
// job id and response, the job, and the credits charged.
type Created struct {
	JobID    string
	Response json.RawMessage
	Job      Job
	Charged  int64
	Refunded int64 // known at once only for a job that is already final
	// Adopted: the job was found by reconciliation rather than returned by
	// the POST.
	Adopted bool
}

// MarkCreated records the job a submission created. A job id already
// recorded for another submission is refused, so that a job is never
// adopted twice.
func (l *Submissions) MarkCreated(ctx context.Context, id int64, c Created) error {
	if c.JobID == "" {
		return errors.New("ledger: MarkCreated without a job id")
	}
	err := l.tx(ctx, func(tx *sqldb.Tx) error {
		var other int64
		err := tx.QueryRowContext(ctx, "SELECT id FROM submissions WHERE job_id = ? AND id <> ?", c.JobID, id).Scan(&other)
		if err == nil {
			return &AdoptedError{JobID: c.JobID, Submission: other}
		} else if !errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("ledger: %w", err)
		}
		set := "job_id = ?, response = ?, error = ''"
		args := []any{c.JobID, jsonOr(c.Response, "null")}
		if c.Adopted {
			set += ", reconciled_at = ?"
			args = append(args, l.now().UnixMilli())
		}
		if err := l.setState(ctx, tx, id, StateCreated, []State{StateIntent, StateSent, StateUnknown}, set, args...); err != nil {
			return err
		}
		j := c.Job
		j.ID = c.JobID
		if j.Kind == "" {
			if err := tx.QueryRowContext(ctx, "SELECT kind FROM submissions WHERE id = ?", id).Scan(&j.Kind); err != nil {
				return fmt.Errorf("ledger: submission %d: %w", id, err)
			}
		}
		if err := l.upsertJob(ctx, tx, j); err != nil {
			return err
		}
		if err := l.holdNew(ctx, tx, c.JobID); err != nil {
			return err
		}
		if err := l.setSpend(ctx, tx, c.JobID, c.Charged, c.Refunded); err != nil {
			return err
		}
		return releaseRefunded(ctx, tx, c.JobID)
	})
	if sqldb.IsConflict(err) {
		// Another computer adopted the job in the same instant: the
		// unique index on job_id refused this one.
		return &AdoptedError{JobID: c.JobID}
	}
	return err
}

// ErrAdopted is matched (errors.Is) by MarkCreated's error when the job
// belongs to another submission already: a job is never adopted twice.
var ErrAdopted = errors.New("ledger: the job belongs to another submission")

// AdoptedError names the job and, when known, its submission.
type AdoptedError struct {
	JobID      string
	Submission int64
}

func (e *AdoptedError) Error() string {
	if e.Submission != 0 {
		return fmt.Sprintf("ledger: job %s already belongs to submission %d", e.JobID, e.Submission)
	}
	return fmt.Sprintf("ledger: job %s already belongs to another submission", e.JobID)
}

// Is makes errors.Is(err, ErrAdopted) true.
func (e *AdoptedError) Is(target error) bool { return target == ErrAdopted }

const submissionCols = `id, created_at, kind, state, file_path, file_name, file_hash, file_size, rows,
	mapping, mode, include_llcs, options, estimate, sent_at, job_id, response, error, reconciled_at, updated_at,
	tag, source_hash, session, computer, computer_id`

func scanSubmission(r scanner) (*Submission, error) {
	var (
		s                                 Submission
		created, updated                  int64
		sent, reconciled                  sql.NullInt64
		mapping, options, estimate, state string
		jobID, response                   sql.NullString
	)
	if err := r.Scan(&s.ID, &created, &s.Kind, &state, &s.FilePath, &s.FileName, &s.FileHash, &s.FileSize, &s.Rows,
		&mapping, &s.Mode, &s.IncludeLLCs, &options, &estimate, &sent, &jobID, &response, &s.Error, &reconciled, &updated,
		&s.Tag, &s.SourceHash, &s.Session, &s.Computer, &s.ComputerID); err != nil {
		return nil, err
	}
	s.CreatedAt = time.UnixMilli(created).UTC()
	s.UpdatedAt = time.UnixMilli(updated).UTC()
	s.State = State(state)
	s.SentAt, s.ReconciledAt = fromMS(sent), fromMS(reconciled)
	s.JobID = jobID.String
	if response.Valid {
		s.Response = json.RawMessage(response.String)
	}
	s.Options, s.Estimate = json.RawMessage(options), json.RawMessage(estimate)
	if err := json.Unmarshal([]byte(mapping), &s.Mapping); err != nil {
		return nil, fmt.Errorf("ledger: submission %d: mapping: %w", s.ID, err)
	}
	return &s, nil
}

// Submission returns one submission.
func (l *Submissions) Submission(ctx context.Context, id int64) (*Submission, error) {
	s, err := scanSubmission(l.db.QueryRowContext(ctx, "SELECT "+submissionCols+" FROM submissions WHERE id = ?", id))
	if err != nil {
		return nil, rowErr(err, "submission %d", id)
	}
	return s, nil
}

// SubmissionForJob returns the submission that created jobID.
func (l *Submissions) SubmissionForJob(ctx context.Context, jobID string) (*Submission, error) {
	s, err := scanSubmission(l.db.QueryRowContext(ctx, "SELECT "+submissionCols+" FROM submissions WHERE job_id = ?", jobID))
	if err != nil {
		return nil, rowErr(err, "submission of job %s", jobID)
	}
	return s, nil
}

// Submissions returns the submissions in the given states (all when none),
// oldest first.
func (l *Submissions) List(ctx context.Context, states ...State) ([]*Submission, error) {
	q := "SELECT " + submissionCols + " FROM submissions"
	var args []any
	if len(states) > 0 {
		q += " WHERE state IN (" + strings.TrimSuffix(strings.Repeat("?,", len(states)), ",") + ")"
		for _, s := range states {
			args = append(args, s)
		}
	}
	q += " ORDER BY created_at, id"
	return l.querySubmissions(ctx, q, args...)
}

func (l *book) querySubmissions(ctx context.Context, q string, args ...any) ([]*Submission, error) {
	return listAll(ctx, l.db, "submissions", scanSubmission, q, args...)
}

// DuplicateKey is what makes two submissions the same: the same content
// (the prepared upload's bytes, or the bytes of the file the person picked)
// sent the same way.
type DuplicateKey struct {
	Kind        jobs.Kind
	FileHash    string // the prepared upload's sha256
	SourceHash  string // the picked file's sha256; "" when not known
	Mapping     map[string]string
	Mode        jobs.Mode
	IncludeLLCs bool
	Options     json.RawMessage
}

// FindDuplicate returns the newest submission made since since with the
// same key that created a job or may have (states intent, sent, created,
// unknown: a live claim of the key), or nil. A submission whose job failed
// and was refused in full (refunded at least what it was charged) is not a
// duplicate: it cost nothing. RecordIntent makes the same test as a
// constraint, in the transaction that records the intent.
func (l *Submissions) FindDuplicate(ctx context.Context, k DuplicateKey, since time.Time) (*Submission, error) {
	keys := claimKeys(&Submission{Kind: k.Kind, FileHash: k.FileHash, SourceHash: k.SourceHash, Mapping: k.Mapping,
		Mode: k.Mode, IncludeLLCs: k.IncludeLLCs, Options: k.Options})
	args := []any{since.UnixMilli()}
	for _, key := range keys {
		args = append(args, key)
	}
	var id int64
	err := l.db.QueryRowContext(ctx, `SELECT submission_id FROM submission_claims WHERE released = 0 AND claimed_at >= ?
		AND key IN (`+strings.TrimSuffix(strings.Repeat("?,", len(keys)), ",")+`) ORDER BY claimed_at DESC, submission_id DESC LIMIT 1`,
		args...).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	return l.submissions().Submission(ctx, id)
}

// canonicalJSON re-encodes a JSON value with object keys sorted; empty means {}.
func canonicalJSON(b json.RawMessage) (string, error) {
	if len(b) == 0 {
		return "{}", nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return "", err
	}
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		return "{}", nil
	}
	out, err := json.Marshal(v)
	return string(out), err
}

// JobAdopted reports whether some submission already holds jobID.
func (l *Submissions) JobAdopted(ctx context.Context, jobID string) (bool, error) {
	var n int
	err := l.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM submissions WHERE job_id = ?", jobID).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("ledger: %w", err)
	}
	return n > 0, nil
}
