package ledger

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// What several computers sharing one ledger need: who did what (sessions,
// each with its computer's name), one submission of the same file at a time
// (claims), one follower per job (leases), and one budget of requests for
// the API key they share. Every rule is a constraint or a conditional write,
// so that it holds whichever computer writes first; the times compared
// across computers are the database's (sqldb.DB.Now).

// Who is the computer, and the SkipDesk running on it, that writes.
type Who struct {
	// ComputerID is the computer's stable identity in a team (kept in its
	// data folder's settings); "" in a computer's own ledger.
	ComputerID string
	// Computer is its name, shown beside what it did.
	Computer string
	// Session is this SkipDesk's, new at each open.
	Session string
}

// localWho is the writer of a computer's own ledger.
func localWho() Who {
	h, _ := os.Hostname()
	return Who{Computer: h, Session: newID()}
}

func newID() string {
	b := make([]byte, 8)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Me is who writes through this ledger.
func (l *Team) Me() Who { return l.me }

// SetComputer names the computer in what it records from now on (the name
// set in the settings).
func (l *Team) SetComputer(name string) {
	if name = strings.TrimSpace(name); name != "" {
		l.me.Computer = name
	}
}

// Timing of sessions: a session refreshes seen_at every SessionBeat; one
// not seen for SessionLive is gone (its computer crashed, slept, or lost
// the network), and what it held is free.
var (
	SessionBeat = 10 * time.Second
	SessionLive = 45 * time.Second
)

// OpenShared opens the ledger in a team's database, bringing its schema up
// to date, and records this SkipDesk's session there. db stays the
// caller's to close after the ledger.
func OpenShared(ctx context.Context, db *sqldb.DB, who Who) (*Ledger, error) {
	if who.ComputerID == "" || who.Computer == "" {
		return nil, errors.New("ledger: a team's ledger needs the computer's id and name")
	}
	if err := migrate(ctx, db); err != nil {
		return nil, fmt.Errorf("ledger: %s: %w", db, err)
	}
	who.Session = newID()
	l := &Ledger{&book{db: db, me: who, now: time.Now}}
	now := db.Now().UnixMilli()
	if _, err := db.ExecContext(ctx, "INSERT INTO sessions (id, computer_id, computer, started_at, seen_at) VALUES (?, ?, ?, ?, ?)",
		who.Session, who.ComputerID, who.Computer, now, now); err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	// Sessions of SkipDesks that ended without a word, long ago.
	db.ExecContext(ctx, "DELETE FROM sessions WHERE seen_at < ?", now-(24*time.Hour).Milliseconds())
	l.startBeat()
	return l, nil
}

// startBeat refreshes the session until Close, and ends it then: its
// leases are let go at once rather than when they expire.
func (l *book) startBeat() {
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(SessionBeat)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				l.beat(ctx)
			}
		}
	})
	l.stopBeat = func() {
		stop()
		wg.Wait()
		end, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		l.db.ExecContext(end, "UPDATE jobs SET lease_holder = '', lease_until = NULL WHERE lease_holder = ?", l.me.Session)
		l.db.ExecContext(end, "DELETE FROM sessions WHERE id = ?", l.me.Session)
	}
}

// beat records that the session is alive (and is the ledger's probe of
// the database: Reachable). A session row gone (the database was restored
// from a backup) is written again.
func (l *book) beat(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, SessionBeat)
	defer cancel()
	now := l.db.Now().UnixMilli()
	_, err := l.db.ExecContext(ctx, `INSERT INTO sessions (id, computer_id, computer, started_at, seen_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at, computer = excluded.computer`,
		l.me.Session, l.me.ComputerID, l.me.Computer, now, now)
	if err == nil {
		l.db.SyncClock(ctx)
	}
}

// Ping checks that the ledger's database answers.
func (l *Team) Ping(ctx context.Context) error { return l.db.Ping(ctx) }

// Beat refreshes the session now (after the database came back).
func (l *Team) Beat(ctx context.Context) {
	if l.shared() {
		l.beat(ctx)
	}
}

// Session is a SkipDesk with the ledger open.
type Session struct {
	ID, ComputerID, Computer string
	StartedAt, SeenAt        time.Time
}

// ComputerName is the name the computer with id last went by in the team:
// its newest session's, else its newest submission's ("" when unknown).
func (l *Team) ComputerName(ctx context.Context, id string) (string, error) {
	var name string
	err := l.db.QueryRowContext(ctx, `SELECT computer FROM (
			SELECT computer, seen_at AS at, 1 AS src FROM sessions WHERE computer_id = ?
			UNION ALL SELECT computer, created_at, 0 FROM submissions WHERE computer_id = ? AND computer <> '') n
		ORDER BY src DESC, at DESC LIMIT 1`, id, id).Scan(&name)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("ledger: computers: %w", err)
	}
	return name, nil
}

// Sessions are the SkipDesks seen within SessionLive, this one included.
func (l *Team) Sessions(ctx context.Context) ([]Session, error) {
	since := l.db.Now().Add(-SessionLive).UnixMilli()
	out, err := queryAll(ctx, l.db, scanSession,
		"SELECT id, computer_id, computer, started_at, seen_at FROM sessions WHERE seen_at >= ? ORDER BY computer, started_at", since)
	if err != nil {
		return nil, fmt.Errorf("ledger: sessions: %w", err)
	}
	return out, nil
}

func scanSession(r scanner) (Session, error) {
	var s Session
	var st, seen int64
	if err := r.Scan(&s.ID, &s.ComputerID, &s.Computer, &st, &seen); err != nil {
		return Session{}, err
	}
	s.StartedAt, s.SeenAt = time.UnixMilli(st).UTC(), time.UnixMilli(seen).UTC()
	return s, nil
}

// LiveSessions is the set of sessions seen within SessionLive.
func (l *Team) LiveSessions(ctx context.Context) (map[string]bool, error) {
	list, err := l.team().Sessions(ctx)
	if err != nil {
		return nil, err
	}
	live := map[string]bool{l.me.Session: true}
	for _, s := range list {
		live[s.ID] = true
	}
	return live, nil
}

// ---- the duplicate guard -------------------------------------------------

// ErrClaimed is matched (errors.Is) by RecordIntent's error when a live
// submission of the same content holds one of its keys.
var ErrClaimed = errors.New("ledger: the same submission was made recently")

// ClaimedError names the submission that holds the key.
type ClaimedError struct{ Holder int64 }

func (e *ClaimedError) Error() string {
	return fmt.Sprintf("ledger: submission %d of the same content holds its place", e.Holder)
}

// Is makes errors.Is(err, ErrClaimed) true.
func (e *ClaimedError) Is(target error) bool { return target == ErrClaimed }

// claimKeys are what make two submissions the same: the kind, mode,
// company rows, mapping and options, with the prepared upload's bytes, or
// with the bytes of the file the person picked. Sorted, so that every
// computer takes them in the same order.
func claimKeys(s *Submission) []string {
	opts, err := canonicalJSON(s.Options)
	if err != nil {
		opts = string(s.Options)
	}
	base := strings.Join([]string{string(s.Kind), string(s.Mode), fmt.Sprint(s.IncludeLLCs), MappingJSON(s.Mapping), opts}, "\x1f")
	keys := []string{digest("file\x1f" + s.FileHash + "\x1f" + base)}
	if s.SourceHash != "" {
		keys = append(keys, digest("source\x1f"+s.SourceHash+"\x1f"+base))
	}
	sort.Strings(keys)
	return keys
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// claim takes submission id's keys, in the transaction that records it. A
// key is taken when nobody holds it, when its holder is older than the
// duplicate window, when its holder was released (created no job, or one
// refunded in full), or when the person said to submit again. The test is
// on the claim's own row, which PostgreSQL re-reads after waiting for
// another computer's claim of the same key to commit.
func (l *book) claim(ctx context.Context, tx *sqldb.Tx, id int64, s *Submission, now time.Time) error {
	cutoff := now.Add(-claimWindow).UnixMilli()
	for _, k := range claimKeys(s) {
		q := `INSERT INTO submission_claims (key, submission_id, claimed_at, released) VALUES (?, ?, ?, 0)
			ON CONFLICT (key) DO UPDATE SET submission_id = excluded.submission_id, claimed_at = excluded.claimed_at, released = 0`
		args := []any{k, id, s.CreatedAt.UnixMilli()}
		if !s.Again {
			q += ` WHERE submission_claims.released = 1 OR submission_claims.claimed_at < ?`
			args = append(args, cutoff)
		}
		r, err := tx.ExecContext(ctx, q, args...)
		if err != nil {
			return fmt.Errorf("ledger: record intent: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			var holder int64
			if err := tx.QueryRowContext(ctx, "SELECT submission_id FROM submission_claims WHERE key = ?", k).Scan(&holder); err != nil {
				return fmt.Errorf("ledger: record intent: %w", err)
			}
			return &ClaimedError{Holder: holder}
		}
	}
	return nil
}

// releaseClaims frees the keys of a submission that created no job.
func releaseClaims(ctx context.Context, tx *sqldb.Tx, id int64) error {
	_, err := tx.ExecContext(ctx, "UPDATE submission_claims SET released = 1 WHERE submission_id = ?", id)
	return err
}

// releaseRefunded frees the keys of the submission of jobID when the job
// failed and was refunded in full: it cost nothing.
func releaseRefunded(ctx context.Context, tx *sqldb.Tx, jobID string) error {
	_, err := tx.ExecContext(ctx, `UPDATE submission_claims SET released = 1 WHERE released = 0 AND submission_id IN (
		SELECT s.id FROM submissions s JOIN jobs j ON j.job_id = s.job_id JOIN spend p ON p.job_id = s.job_id
		WHERE s.job_id = ? AND j.status = ? AND p.refunded >= p.charged)`, jobID, jobs.StatusFailed)
	return err
}

// ---- leases on jobs ------------------------------------------------------

// DefaultLeaseTTL is how long a lease on a job lasts unless renewed: the
// tracker renews its leases every few seconds, so a computer that
// disappears hands its jobs over within this.
const DefaultLeaseTTL = 30 * time.Second

// TakeLeases makes this SkipDesk the follower of the jobs among ids that
// nobody follows, whose follower's lease ran out, or that it follows
// already (renewed until ttl from now). It returns the ids it holds.
func (l *Team) TakeLeases(ctx context.Context, ids []string, ttl time.Duration) (map[string]bool, error) {
	held := map[string]bool{}
	now := l.db.Now()
	for len(ids) > 0 {
		chunk := ids[:min(len(ids), 400)]
		ids = ids[len(chunk):]
		in := "(" + strings.TrimSuffix(strings.Repeat("?,", len(chunk)), ",") + ")"
		args := []any{l.me.Session, now.Add(ttl).UnixMilli()}
		for _, id := range chunk {
			args = append(args, id)
		}
		args = append(args, l.me.Session, now.UnixMilli())
		if _, err := l.db.ExecContext(ctx, `UPDATE jobs SET lease_holder = ?, lease_until = ? WHERE job_id IN `+in+`
			AND (lease_holder = '' OR lease_holder = ? OR lease_until IS NULL OR lease_until < ?)`, args...); err != nil {
			return nil, fmt.Errorf("ledger: leases: %w", err)
		}
		args = append([]any{l.me.Session}, args[2:2+len(chunk)]...)
		rows, err := l.db.QueryContext(ctx, "SELECT job_id FROM jobs WHERE lease_holder = ? AND job_id IN "+in, args...)
		if err != nil {
			return nil, fmt.Errorf("ledger: leases: %w", err)
		}
		for rows.Next() {
			var id string
			if rows.Scan(&id) == nil {
				held[id] = true
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("ledger: leases: %w", err)
		}
	}
	return held, nil
}

// SetLeaseTTL sets how long the lease on a job this SkipDesk records at
// submission lasts before its tracker renews it (DefaultLeaseTTL unless
// set): the tracker's own lease time.
func (l *Team) SetLeaseTTL(ttl time.Duration) { l.leaseTTL.Store(int64(ttl)) }

// holdNew gives this SkipDesk the lease on a job it has just recorded: the
// computer that submitted a job follows it, and no teammate's tracker takes
// it up in the moment before this one's next look.
func (l *book) holdNew(ctx context.Context, tx *sqldb.Tx, jobID string) error {
	if !l.shared() {
		return nil
	}
	ttl := time.Duration(l.leaseTTL.Load())
	if ttl <= 0 {
		ttl = DefaultLeaseTTL
	}
	now := l.db.Now()
	_, err := tx.ExecContext(ctx, `UPDATE jobs SET lease_holder = ?, lease_until = ? WHERE job_id = ?
		AND (lease_holder = '' OR lease_holder = ? OR lease_until IS NULL OR lease_until < ?)`,
		l.me.Session, now.Add(ttl).UnixMilli(), jobID, l.me.Session, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("ledger: lease on %s: %w", jobID, err)
	}
	return nil
}

// ReleaseLeases lets go of every job this SkipDesk follows.
func (l *Team) ReleaseLeases(ctx context.Context) error {
	_, err := l.db.ExecContext(ctx, "UPDATE jobs SET lease_holder = '', lease_until = NULL WHERE lease_holder = ?", l.me.Session)
	return err
}

// Followers names, by job id, the computer following each job in flight
// under a lease that holds.
func (l *Team) Followers(ctx context.Context) (map[string]string, error) {
	rows, err := l.db.QueryContext(ctx, `SELECT j.job_id, COALESCE(s.computer, '') FROM jobs j LEFT JOIN sessions s ON s.id = j.lease_holder
		WHERE j.lease_holder <> '' AND j.lease_until >= ?`, l.db.Now().UnixMilli())
	if err != nil {
		return nil, fmt.Errorf("ledger: leases: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, who string
		if err := rows.Scan(&id, &who); err != nil {
			return nil, err
		}
		out[id] = who
	}
	return out, rows.Err()
}

// ---- the team's request budget ---------------------------------------------

// TakeBudget takes one request of bucket from the budget every SkipDesk on
// this ledger shares: a token bucket refilled at rate requests a second up
// to burst, kept in the database. It returns 0 when the request may go,
// else how long until one is free (nothing was taken).
func (l *Team) TakeBudget(ctx context.Context, bucket string, rate, burst float64) (time.Duration, error) {
	now := l.db.Now().UnixMilli()
	perMS := rate / 1000
	least, greatest := l.db.Least(), l.db.Greatest()
	if _, err := l.db.ExecContext(ctx, "INSERT INTO budget (bucket, tokens, updated_at) VALUES (?, ?, ?) ON CONFLICT (bucket) DO NOTHING",
		bucket, burst, now); err != nil {
		return 0, fmt.Errorf("ledger: budget: %w", err)
	}
	// The parameters' types are given: PostgreSQL would take the rate for
	// an integer beside an integer column.
	avail := least + "(CAST(? AS DOUBLE PRECISION), tokens + " + greatest + "(0, CAST(? AS BIGINT) - updated_at) * CAST(? AS DOUBLE PRECISION))"
	r, err := l.db.ExecContext(ctx, "UPDATE budget SET tokens = "+avail+" - 1, updated_at = "+greatest+"(updated_at, CAST(? AS BIGINT)) WHERE bucket = ? AND "+avail+" >= 1",
		burst, now, perMS, now, bucket, burst, now, perMS)
	if err != nil {
		return 0, fmt.Errorf("ledger: budget: %w", err)
	}
	if n, _ := r.RowsAffected(); n == 1 {
		return 0, nil
	}
	var tokens float64
	var at int64
	if err := l.db.QueryRowContext(ctx, "SELECT tokens, updated_at FROM budget WHERE bucket = ?", bucket).Scan(&tokens, &at); err != nil {
		return 0, fmt.Errorf("ledger: budget: %w", err)
	}
	have := min(burst, tokens+float64(max(0, now-at))*perMS)
	wait := time.Duration((1 - have) / rate * float64(time.Second))
	return max(wait, time.Millisecond), nil
}

// ---- layout corrections ---------------------------------------------------

// RawLayout is a remembered layout correction: its header signature and its
// JSON document (the layout package's Correction, encoded by the caller).
type RawLayout struct {
	Signature string
	Data      json.RawMessage
	UpdatedAt time.Time
	UpdatedBy string
}

// SaveLayout stores the correction of a header signature (replacing it).
func (l *Saved) SaveLayout(ctx context.Context, sig string, data json.RawMessage) error {
	if sig == "" || !json.Valid(data) {
		return errors.New("ledger: a layout correction needs a signature and a JSON document")
	}
	return l.tx(ctx, func(tx *sqldb.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO layouts (signature, data, updated_at, updated_by) VALUES (?, ?, ?, ?)
			ON CONFLICT (signature) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
			sig, string(data), l.now().UnixMilli(), l.me.Computer)
		if err != nil {
			return fmt.Errorf("ledger: layout %s: %w", sig, err)
		}
		return nil
	})
}

// Layouts are the remembered corrections.
func (l *Saved) Layouts(ctx context.Context) ([]RawLayout, error) {
	return listAll(ctx, l.db, "layouts", scanRawLayout, "SELECT signature, data, updated_at, updated_by FROM layouts ORDER BY signature")
}

func scanRawLayout(r scanner) (RawLayout, error) {
	var x RawLayout
	var data string
	var at int64
	if err := r.Scan(&x.Signature, &data, &at, &x.UpdatedBy); err != nil {
		return RawLayout{}, err
	}
	x.Data, x.UpdatedAt = json.RawMessage(data), time.UnixMilli(at).UTC()
	return x, nil
}
