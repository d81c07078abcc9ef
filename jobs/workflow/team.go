package workflow

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// A team on one database: with "Share with my team" on (or
// $SKIPDESK_DATABASE_URL set), the ledger — the jobs, the submissions and
// their duplicate guard, the spend, the presets, the layout corrections,
// the internal do-not-call list — is the team's, in PostgreSQL, and every
// computer's SkipDesk reads and writes the same one. The connection string
// lives in the keyring only. The API key's per-minute limits are kept by
// the whole team together through a budget in the database, and each job
// in flight is followed by one computer at a time (a lease the tracker
// renews). A computer's results stay in its own library; the library's
// index is the team's, so a search finds the rows of every computer's
// results and the reuse of earlier rows sees what teammates traced (their
// results are downloaded here before their rows are reused).

// TeamLimits are the API key's per-minute limits the team's budget keeps.
type TeamLimits = ledger.Limits

// ErrTeamUnreachable is matched (errors.Is) by the errors of what needs the
// team's database while it cannot be reached: nothing is submitted then
// (what cannot be recorded is not sent), and what the window shows is
// read-only.
var ErrTeamUnreachable = sqldb.ErrUnreachable

// teamURL is the team database's connection string: the configuration's,
// or the keyring's while sharing is on; "" on a computer's own ledger.
func (s *core) teamURL(ctx context.Context) (string, error) {
	if s.cfg.DatabaseURL != "" {
		return s.cfg.DatabaseURL, nil
	}
	if !s.sessions().Settings().Team {
		return "", nil
	}
	url, err := s.cfg.Secrets.Get(ctx, secrets.DatabaseURL)
	if err != nil || url == "" {
		return "", fmt.Errorf("sharing with the team is on but its database's connection string is not in the keyring (%v): enter it again in Settings", err)
	}
	return url, nil
}

// Sharing reports whether this computer works on a team's database (the
// configuration's, or the keyring's with sharing on in the settings).
func (s *TeamService) Sharing() bool { return s.cfg.DatabaseURL != "" || s.sessions().Settings().Team }

// Computer is this computer's name as the team sees it.
func (s *TeamService) Computer() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.computerLocked()
}

// computerLocked is Computer with s.mu held.
func (s *core) computerLocked() string {
	if s.cfg.Computer != "" {
		return s.cfg.Computer
	}
	if n := strings.TrimSpace(s.settings.ComputerName); n != "" {
		return n
	}
	return computer()
}

// books is an open ledger and what closes it (with its database).
type books struct {
	led *ledger.Ledger
	// team is the team's database the ledger is in (nil for a computer's
	// own ledger): the library index is kept there too.
	team  *sqldb.DB
	close func() error
}

// openTeam opens the team's ledger at url.
func (s *core) openTeam(ctx context.Context, url string) (books, error) {
	who, err := s.who()
	if err != nil {
		return books{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	db, err := sqldb.OpenPostgres(ctx, url, sqldb.PostgresOptions{AppName: "SkipDesk " + who.Computer, MaxConns: 8})
	if err != nil {
		return books{}, err
	}
	led, err := ledger.OpenShared(ctx, db, who)
	if err != nil {
		db.Close()
		return books{}, err
	}
	s.adoptCopied(ctx, led)
	return books{led: led, team: db, close: func() error {
		err := led.Close()
		db.Close()
		return err
	}}, nil
}

// openBooks opens the ledger of the data folder dir: the team's when
// sharing is on (not for the sandbox's), else dir's own, read-only when
// asked (nil ledger when it does not exist yet).
func (s *core) openBooks(ctx context.Context, dir string, sandbox, readOnly bool) (books, error) {
	if !sandbox {
		url, err := s.teamURL(ctx)
		if err != nil {
			return books{}, err
		}
		if url != "" {
			return s.openTeam(ctx, url)
		}
	}
	var led *ledger.Ledger
	var err error
	if readOnly {
		led, err = ledger.OpenReadOnly(dir)
	} else {
		led, err = ledger.Open(dir)
	}
	if err != nil {
		return books{}, err
	}
	return books{led: led, close: led.Close}, nil
}

// TeamStatus is what Settings shows of the team.
type TeamStatus struct {
	On       bool   // this computer shares a team's database
	FromEnv  bool   // the database is the configuration's ($SKIPDESK_DATABASE_URL)
	Database string // the server and database (never the password)
	Computer string // this computer's name
	// Computers are the SkipDesks connected now, by computer name.
	Computers []string
	// Err says why the database cannot be reached (nil when it answers).
	Err error
}

// Team says whether this computer shares a team's database, which, and
// whether it answers.
func (s *TeamService) Status(ctx context.Context) TeamStatus {
	st := TeamStatus{On: s.team().Sharing(), FromEnv: s.cfg.DatabaseURL != "", Computer: s.team().Computer()}
	if !st.On {
		return st
	}
	led, done, err := s.internalLedger(false)
	if err != nil {
		st.Err = err
		return st
	}
	defer done()
	st.Database = led.String()
	if err := led.Team().Ping(ctx); err != nil {
		st.Err = err
		return st
	}
	sessions, err := led.Team().Sessions(ctx)
	if err != nil {
		st.Err = err
		return st
	}
	seen := map[string]bool{}
	for _, x := range sessions {
		if !seen[x.Computer] {
			seen[x.Computer] = true
			st.Computers = append(st.Computers, x.Computer)
		}
	}
	return st
}

// ShareProgress is how far a move into the team's database is.
type ShareProgress = ledger.MoveProgress

// ShareReport says what the move copied.
type ShareReport struct {
	Copied map[string]int // rows by part: "submissions", "jobs", …, "layouts"
}

// ShareWithTeam connects this computer to the team's database at url,
// moves into it what this computer kept on its own (the jobs and their
// submissions, the spend, the presets, the layout corrections, the internal
// do-not-call list) — once, resumable: run again after an interruption it
// copies what is left, never twice — keeps url in the keyring and from then
// on works on the team's. name, when given, is this computer's name in the
// team.
func (s *TeamService) ShareWithTeam(ctx context.Context, url, name string, progress func(ShareProgress)) (ShareReport, error) {
	rep := ShareReport{Copied: map[string]int{}}
	url = strings.TrimSpace(url)
	if err := secrets.CheckLength(secrets.DatabaseURL, url); err != nil {
		return rep, err
	}
	if name = strings.TrimSpace(name); name != "" && name != s.sessions().Settings().ComputerName {
		set := s.sessions().Settings()
		set.ComputerName = name
		if err := s.sessions().SaveSettings(ctx, set); err != nil {
			return rep, err
		}
	}
	team, err := s.openTeam(ctx, url)
	if err != nil {
		return rep, err
	}
	defer team.close()

	// This computer's own ledger: the session's when it has it open.
	sess, _ := s.current()
	if sess != nil {
		s.closeBooks(sess)
	}
	own, err := ledger.Open(s.cfg.Home)
	if err != nil {
		return rep, err
	}
	mrep, err := team.led.MoveFrom(ctx, own, progress)
	own.Close()
	for k, v := range mrep.Copied {
		rep.Copied[k] = v
	}
	if err != nil {
		return rep, err
	}
	n, err := s.moveLayouts(ctx, team.led)
	rep.Copied["layouts"] = n
	if err != nil {
		return rep, err
	}
	if s.cfg.DatabaseURL == "" {
		if err := s.cfg.Secrets.Set(ctx, secrets.DatabaseURL, url); err != nil {
			if errors.Is(err, secrets.ErrUnavailable) {
				return rep, fmt.Errorf("the team's data is in its database but its connection string could not be kept: %w", ErrKeyringUnavailable)
			}
			return rep, err
		}
	}
	set := s.sessions().Settings()
	set.Team = true
	if err := s.sessions().SaveSettings(ctx, set); err != nil {
		return rep, err
	}
	if sess != nil {
		if err := s.reopenBooks(ctx, sess); err != nil {
			return rep, err
		}
		// The library's index is the team's from now on: this computer's
		// results are indexed into it (in the background; a search reads
		// the files until then).
		if sess.libErr == nil && !sess.info.Sandbox {
			s.indexInBackground(sess.lib.Dir())
		}
	}
	return rep, nil
}

// KeptRecords is what stopping sharing keeps on this computer (copied
// back from the team's database).
type KeptRecords = ledger.Kept

// StopRefusedError: sharing could not stop, because what this computer
// needs on its own could not be copied back from the team's database;
// nothing changed and sharing stays on.
type StopRefusedError struct{ Err error }

func (e *StopRefusedError) Error() string {
	return "sharing stays on: what this computer needs on its own (the company's do-not-call list, its jobs, the duplicate guard's records) " +
		"could not be copied back from the team's database, and nothing changed: " + e.Err.Error()
}

func (e *StopRefusedError) Unwrap() error { return e.Err }

// ErrDatabaseBusy is matched (errors.Is) by the error of a change the
// database refused each time it was tried, because of others made at the
// same moment: nothing of it was recorded.
var ErrDatabaseBusy = sqldb.ErrBusy

// ErrSharingFromEnv: sharing is set by $SKIPDESK_DATABASE_URL and stops
// only when it is unset.
var ErrSharingFromEnv = errors.New("this computer works on the team's database set by the SKIPDESK_DATABASE_URL environment variable: unset it to stop sharing")

// StopSharingPreview says what stopping sharing would copy back to this
// computer. It needs the team's database to answer.
func (s *TeamService) StopSharingPreview(ctx context.Context) (KeptRecords, error) {
	team, done, err := s.stopLedger(ctx)
	if err != nil {
		return KeptRecords{}, err
	}
	defer done()
	return team.ToKeep(ctx)
}

// StopSharing goes back to this computer's own ledger, first copying into
// it, in one step, what it needs to go on safely alone: the company's
// do-not-call list as the team has it, with its history; this computer's
// jobs (those in flight are followed from here) and the duplicate guard's
// records of its submissions. When that cannot be done (the team's
// database does not answer) nothing changes and sharing stays on. Then the
// connection string leaves the keyring. What the team did stays in its
// database.
func (s *TeamService) StopSharing(ctx context.Context, progress func(ShareProgress)) (KeptRecords, error) {
	if s.cfg.DatabaseURL != "" {
		return KeptRecords{}, ErrSharingFromEnv
	}
	if !s.sessions().Settings().Team {
		return KeptRecords{}, nil
	}
	// The session's tracker writes nothing while the records are copied.
	sess, _ := s.current()
	if sess != nil {
		s.closeBooks(sess)
	}
	kept, err := s.copyBack(ctx, progress)
	if err == nil {
		err = s.leaveTeam(ctx)
	}
	if sess != nil {
		if rerr := s.reopenBooks(ctx, sess); err == nil {
			err = rerr
		}
	}
	return kept, err
}

// copyBack copies what this computer keeps from the team's ledger into
// its own.
func (s *core) copyBack(ctx context.Context, progress func(ShareProgress)) (KeptRecords, error) {
	team, done, err := s.stopLedger(ctx)
	if err != nil {
		return KeptRecords{}, err
	}
	defer done()
	own, err := ledger.Open(s.cfg.Home)
	if err != nil {
		return KeptRecords{}, &StopRefusedError{Err: err}
	}
	defer own.Close()
	kept, err := own.CopyBack(ctx, team, progress)
	if err != nil {
		return KeptRecords{}, &StopRefusedError{Err: err}
	}
	return kept, nil
}

// leaveTeam turns sharing off and takes the connection string out of the
// keyring.
func (s *core) leaveTeam(ctx context.Context) error {
	set := s.sessions().Settings()
	set.Team = false
	if err := s.sessions().SaveSettings(ctx, set); err != nil {
		return err
	}
	if err := s.cfg.Secrets.Delete(ctx, secrets.DatabaseURL); err != nil && !errors.Is(err, secrets.ErrUnavailable) {
		return err
	}
	return nil
}

// stopLedger is the team's ledger to copy back from: the session's when
// it has it open, else opened here. Without it sharing cannot stop.
func (s *core) stopLedger(ctx context.Context) (*ledger.Ledger, func(), error) {
	if s.cfg.DatabaseURL != "" {
		return nil, nil, ErrSharingFromEnv
	}
	if sess, err := s.current(); err == nil && !sess.info.Sandbox {
		sess.mu.Lock()
		led := sess.led
		sess.mu.Unlock()
		if led != nil && led.Shared() {
			return led, func() {}, nil
		}
	}
	url, err := s.teamURL(ctx)
	if err == nil && url == "" {
		err = errors.New("this computer does not share a team's database")
	}
	if err != nil {
		return nil, nil, err
	}
	b, err := s.openTeam(ctx, url)
	if err != nil {
		return nil, nil, &StopRefusedError{Err: err}
	}
	return b.led, func() { b.close() }, nil
}

// DescribeKept says in words what stopping sharing keeps (or kept) on this
// computer.
func DescribeKept(k KeptRecords) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the company's do-not-call list (%s, with %s of its history)",
		jobs.Plural(int64(k.Numbers), "number", "numbers"), jobs.Plural(int64(k.History), "entry", "entries"))
	if k.Removed > 0 {
		fmt.Fprintf(&b, ", less %s the team took off", jobs.Plural(int64(k.Removed), "number", "numbers"))
	}
	fmt.Fprintf(&b, "; this computer's %s (%s); the duplicate guard's %s of files sent in the last day",
		jobs.Plural(int64(k.Jobs), "job", "jobs"), jobs.Plural(int64(k.InFlight), "in flight", "in flight"),
		jobs.Plural(int64(k.Claims), "record", "records"))
	return b.String()
}

// moveLayouts copies the layout corrections kept in the data folder into
// the team's ledger (one the team has for the same headers stays).
func (s *core) moveLayouts(ctx context.Context, led *ledger.Ledger) (int, error) {
	all, err := s.fileCorrections()
	if err != nil {
		return 0, err
	}
	have, err := led.Saved().Layouts(ctx)
	if err != nil {
		return 0, err
	}
	known := map[string]bool{}
	for _, l := range have {
		known[l.Signature] = true
	}
	n := 0
	for sig, c := range all {
		if known[sig] || c == nil {
			continue
		}
		b, err := json.Marshal(c)
		if err != nil {
			return n, err
		}
		if err := led.Saved().SaveLayout(ctx, sig, b); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// teamCorrections are the team's layout corrections (nil, false when the
// session's ledger is not a team's).
func (s *core) teamCorrections(ctx context.Context) (map[string]*layout.Correction, *ledger.Ledger, error) {
	sess, err := s.current()
	if err != nil || sess.info.Sandbox {
		return nil, nil, nil
	}
	sess.mu.Lock()
	led := sess.led
	sess.mu.Unlock()
	if led == nil || !led.Shared() {
		return nil, nil, nil
	}
	list, err := led.Saved().Layouts(ctx)
	if err != nil {
		return nil, led, err
	}
	all := map[string]*layout.Correction{}
	for _, l := range list {
		var c layout.Correction
		if json.Unmarshal(l.Data, &c) == nil {
			all[l.Signature] = &c
		}
	}
	return all, led, nil
}

// closeBooks stops the session's tracker and closes its ledger.
func (s *core) closeBooks(sess *session) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	sess.closeBooksLocked()
}

// reopenBooks opens the session's ledger again (the team's or its own, as
// the settings now say) and follows its jobs when the service tracks.
func (s *core) reopenBooks(ctx context.Context, sess *session) error {
	if _, err := s.openLedger(sess); err != nil {
		return err
	}
	if s.cfg.Track {
		s.startTracking(ctx, sess)
	}
	return nil
}
