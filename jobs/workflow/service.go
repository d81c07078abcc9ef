// Package workflow is SkipDesk's application layer: every workflow the
// window and the command line offer is written here once, with typed
// requests — open and inspect a list, map and validate it, price it, submit
// it (trace, DNC scrub, single lookup) through the ledger, reconcile, track
// and download, open, filter and export results, search the library, keep
// presets, and put each error in the words a person reads.
//
// Open builds the Service, the composition root; its capabilities are
// small services hanging off it, one concern each (services.go):
// Sessions, Quotes, Presets, Submissions, Jobs, API, Results, Library,
// Compliance and Team. The window (ui/...) and the command line
// (cmd/skipdesk-cli) are thin callers of them: they build screens or parse
// flags and print, and never reach the lower packages (submit, prepare,
// ledger, tracker, estimate) themselves. Configuration is read once by the
// program's main (ConfigFromEnv) and passed to Open. Nothing here imports
// Fyne; every method may block and honours its context.
package workflow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs/fanout"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
	"github.com/skipdesk/skipdesk/jobs/tracker"
)

// Errors callers act on.
var (
	// ErrNotConnected: a call that needs the API before a session is open.
	ErrNotConnected = errors.New("not connected: enter an API key or start the sandbox")
	// ErrNoKey: no API key is configured or stored; the window shows the
	// first-run screen, the command line says where a key comes from.
	ErrNoKey = errors.New("no API key is stored")
	// ErrNoBaseURL: a key but no API address to use it with.
	ErrNoBaseURL = errors.New("no API address")
	// ErrKeyringUnavailable: the key was checked but the OS keyring could
	// not store it. The window offers to use it for this session only.
	ErrKeyringUnavailable = errors.New("the system keyring is not available")
)

// Session is the connection the service works with.
type Session struct {
	BaseURL     string
	Sandbox     bool // the embedded sandbox on loopback
	SessionOnly bool // the key is held in memory only (no keyring)
	FromEnv     bool // the key came from the configuration ($SKIPDESK_API_KEY): nothing stored
}

// core is the state every service of the layer shares: the configuration,
// the session, the subscribers and the library indexes. The services are
// views of it; none keeps state of its own.
type core struct {
	cfg Config
	// now is the clock of the layer's own waits (how long a team database
	// found away is left alone); tests advance it.
	now func() time.Time

	mu       sync.Mutex
	settings settings.Settings
	sess     *session
	sandbox  *sandbox.Server
	subs     fanout.List[Event]
	// teamCopySum is the hash of the team's jobs last kept in
	// teamCopyFile (Jobs).
	teamCopySum [32]byte
	// submitting holds the file hashes of submissions under way here, so
	// that the jobs list does not call them "unknown".
	submitting map[string]bool
	// layoutMu serialises writes of the layout corrections.
	layoutMu sync.Mutex
	// indexes are the library indexes opened, by library folder.
	indexes map[string]*libIndex
	// background counts the index rounds run in the background: Close
	// stops them and waits for them, so that nothing writes in the data
	// folder once it returns.
	background sync.WaitGroup
	closed     bool // Close has begun: no more background work
}

// session is one open connection: the client, the library and — opened on
// first need, so that reading commands never lock it — the ledger and the
// tracker.
type session struct {
	info   Session
	api    *client.Client
	lib    *library.Library
	libErr error // the library folder could not be opened: results cannot be kept
	ledDir string
	tmpDir string // sandbox sessions: the ledger folder, removed at close
	email  string // the account's, once read (under mu)

	// budget is the team's budget of requests the client takes from (set
	// while the ledger is a team's).
	budget *ledger.Budget

	mu       sync.Mutex
	led      *ledger.Ledger
	ledClose func() error // closes led (and a team's database)
	// team is the team's database while led is a team's ledger: the
	// library index of the session's library folder is kept there.
	team *sqldb.DB
	// away is why the team's database could not be opened, at awayAt.
	away    error
	awayAt  time.Time
	trk     *tracker.Tracker
	cancelS func()
	recv    *tracker.Receiver
	stop    context.CancelFunc // the tracker's loop, when running
	done    chan struct{}

	// bg is the session's own background work (the merges of reused
	// rows), cancelled by bgCtx's end when the session closes and waited
	// for: cut short, a merge is finished the next time (finishMerges).
	bg     sync.WaitGroup
	bgCtx  context.Context
	bgStop context.CancelFunc
}

// Open prepares a Service on cfg's data folder. It reads the settings: a
// damaged file gives the defaults and an error that says so, with a usable
// Service, so the caller can tell the person and go on.
func Open(cfg Config) (*Service, error) {
	if cfg.Home == "" {
		return nil, errNoHome
	}
	if err := os.MkdirAll(cfg.Home, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create the SkipDesk folder %s: %w", cfg.Home, err)
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	s := &Service{&core{cfg: cfg, now: now, submitting: map[string]bool{}}}
	set, err := settings.Load(cfg.Home)
	s.settings = set
	if err != nil {
		err = &SettingsError{Path: settings.Path(cfg.Home), Err: err}
	}
	return s, err
}

// SettingsError: the settings file could not be read; the defaults are in
// use.
type SettingsError struct {
	Path string
	Err  error
}

func (e *SettingsError) Error() string {
	return fmt.Sprintf("the settings in %s could not be read, so the defaults are in use: %v", e.Path, e.Err)
}

func (e *SettingsError) Unwrap() error { return e.Err }

// Home is the data folder.
func (s *SessionService) Home() string { return s.cfg.Home }

// Close ends the session and stops the sandbox.
func (s *Service) Close() error {
	s.mu.Lock()
	sess, sb := s.sess, s.sandbox
	s.sess, s.sandbox = nil, nil
	s.mu.Unlock()
	// Everything in the background is told to stop first, so that the
	// pieces end together rather than one after the other.
	s.stopIndexes()
	var err error
	if sess != nil {
		err = sess.close()
	}
	if sb != nil {
		sb.Close()
	}
	s.closeIndexes()
	return err
}

// Settings are the current settings.
func (s *SessionService) Settings() settings.Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings
}

// SaveSettings validates and stores set. A change to the webhook receiver
// takes effect at once (the receiver stops, or starts on the new address).
func (s *SessionService) SaveSettings(ctx context.Context, set settings.Settings) error {
	if err := settings.Save(s.cfg.Home, set); err != nil {
		return err
	}
	s.mu.Lock()
	old := s.settings
	s.settings = set
	sess := s.sess
	s.mu.Unlock()
	if sess != nil && sess.running() && (old.WebhookEnabled != set.WebhookEnabled || old.WebhookAddr != set.WebhookAddr) {
		return s.restartReceiver(ctx, sess)
	}
	return nil
}

// restartReceiver stops the session's webhook receiver and starts it again
// as the settings say (not in the sandbox, and only with a secret).
func (s *core) restartReceiver(ctx context.Context, sess *session) error {
	sess.mu.Lock()
	recv := sess.recv
	sess.recv = nil
	trk := sess.trk
	sess.mu.Unlock()
	if recv != nil {
		recv.Close()
	}
	set := s.sessions().Settings()
	if !set.WebhookEnabled || sess.info.Sandbox || trk == nil {
		return nil
	}
	secret, err := s.cfg.Secrets.Get(ctx, secrets.WebhookSecret)
	if err != nil || secret == "" {
		return &WebhookError{NoSecret: true, Err: err}
	}
	r, err := trk.StartWebhookReceiver(set.WebhookAddr, secret)
	if err != nil {
		return &WebhookError{Addr: set.WebhookAddr, Err: err}
	}
	sess.mu.Lock()
	sess.recv = r
	sess.mu.Unlock()
	return nil
}

// WebhookAddr is the address the webhook receiver listens on ("" when off).
func (s *SessionService) WebhookAddr() string {
	sess, err := s.current()
	if err != nil {
		return ""
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.recv == nil {
		return ""
	}
	return sess.recv.Addr()
}

// SetWebhookSecret keeps the webhook secret in the keyring ("" deletes it).
func (s *SessionService) SetWebhookSecret(ctx context.Context, secret string) error {
	if secret == "" {
		return s.cfg.Secrets.Delete(ctx, secrets.WebhookSecret)
	}
	if err := s.cfg.Secrets.Set(ctx, secrets.WebhookSecret, secret); err != nil {
		if errors.Is(err, secrets.ErrUnavailable) {
			return &WebhookError{NotSaved: true, Err: fmt.Errorf("%w: %w", ErrKeyringUnavailable, err)}
		}
		return err
	}
	return nil
}

// Resume opens a session with the configured key (Config.APIKey, with
// Config.BaseURL or the saved base URL) or, without one, the key in the
// keyring. It does not call the API, so the library and the ledger work
// offline. ErrNoKey when there is no key, ErrNoBaseURL when there is no
// address for it.
func (s *SessionService) Resume(ctx context.Context) (Session, error) {
	base := s.sessions().Settings().BaseURL
	if s.cfg.BaseURL != "" {
		base = s.cfg.BaseURL
	}
	if s.cfg.APIKey != "" {
		if base == "" {
			return Session{}, ErrNoBaseURL
		}
		return s.open(ctx, base, s.cfg.APIKey, sessionFromEnv)
	}
	if s.cfg.BaseURL == "" && (base == "" || s.sessions().Settings().Sandbox) {
		return Session{}, ErrNoKey
	}
	key, err := s.cfg.Secrets.Get(ctx, secrets.APIKey)
	switch {
	case errors.Is(err, secrets.ErrNotFound), errors.Is(err, secrets.ErrUnavailable):
		// Without a keyring no key can have been stored.
		return Session{}, ErrNoKey
	case err != nil:
		return Session{}, err
	case key == "":
		return Session{}, ErrNoKey
	}
	return s.open(ctx, base, key, sessionStored)
}

// Connect checks key against baseURL (GET /account), stores it in the
// keyring (unless sessionOnly) and opens the session. When the keyring
// cannot store it, the error matches ErrKeyringUnavailable and no session
// is opened: the caller may ask to use it for this session only.
func (s *SessionService) Connect(ctx context.Context, baseURL, key string, sessionOnly bool) (Session, error) {
	baseURL, err := CompleteBaseURL(baseURL)
	if err != nil {
		return Session{}, err
	}
	api, err := s.newClient(baseURL, key, nil)
	if err != nil {
		return Session{}, err
	}
	if _, err := api.Account(ctx); err != nil {
		return Session{}, err
	}
	how := sessionStored
	if sessionOnly {
		how = sessionMemory
	} else if err := s.cfg.Secrets.Set(ctx, secrets.APIKey, key); err != nil {
		if errors.Is(err, secrets.ErrUnavailable) {
			return Session{}, fmt.Errorf("the key works but was not saved: %w", ErrKeyringUnavailable)
		}
		return Session{}, err
	}
	set := s.sessions().Settings()
	set.BaseURL, set.Sandbox = baseURL, false
	_ = s.sessions().SaveSettings(ctx, set) // the base URL is a convenience; the session works without it
	return s.open(ctx, baseURL, key, how)
}

// StartSandbox starts the embedded sandbox on loopback (once per process)
// and opens a session on its demo account.
func (s *SessionService) StartSandbox(ctx context.Context) (Session, error) {
	s.mu.Lock()
	srv := s.sandbox
	s.mu.Unlock()
	if srv == nil {
		cfg := sandbox.DefaultConfig()
		if s.cfg.Sandbox != nil {
			cfg = *s.cfg.Sandbox
		}
		started, err := sandbox.Start(cfg, "127.0.0.1:0")
		if err != nil {
			return Session{}, fmt.Errorf("starting the sandbox: %w", err)
		}
		s.mu.Lock()
		if s.sandbox == nil {
			s.sandbox = started
		} else {
			started.Close()
		}
		srv = s.sandbox
		s.mu.Unlock()
	}
	return s.open(ctx, srv.URL(), sandbox.DemoKey, sessionSandbox)
}

// SignOut removes the key from the keyring and closes the session.
func (s *SessionService) SignOut(ctx context.Context) error {
	s.mu.Lock()
	sess := s.sess
	s.sess = nil
	s.mu.Unlock()
	if sess != nil {
		sess.close()
	}
	if err := s.cfg.Secrets.Delete(ctx, secrets.APIKey); err != nil && !errors.Is(err, secrets.ErrUnavailable) {
		return fmt.Errorf("the key could not be removed from the keyring: %w", err)
	}
	return nil
}

// How a session's key was found.
type sessionHow int

const (
	sessionStored  sessionHow = iota // the keyring
	sessionMemory                    // typed in, kept for this session only
	sessionFromEnv                   // the configuration
	sessionSandbox                   // the embedded sandbox's demo key
)

func (s *core) newClient(baseURL, key string, budget *ledger.Budget) (*client.Client, error) {
	var opts []client.Option
	if s.cfg.UserAgent != "" {
		opts = append(opts, client.WithUserAgent(s.cfg.UserAgent))
	}
	if budget != nil {
		opts = append(opts, client.WithBudget(budget))
	}
	if s.cfg.Retry != (client.RetryPolicy{}) {
		opts = append(opts, client.WithRetryPolicy(s.cfg.Retry))
	}
	api, err := client.New(baseURL, key, opts...)
	if err != nil {
		return nil, &BaseURLError{URL: baseURL, Err: err}
	}
	return api, nil
}

// BaseURLError: an API address the client cannot use.
type BaseURLError struct {
	URL string
	Err error
}

func (e *BaseURLError) Error() string { return fmt.Sprintf("base URL %q: %v", e.URL, e.Err) }
func (e *BaseURLError) Unwrap() error { return e.Err }

// open replaces the session with one on baseURL.
func (s *core) open(ctx context.Context, baseURL, key string, how sessionHow) (Session, error) {
	budget := ledger.NewBudget(s.cfg.TeamLimits)
	api, err := s.newClient(baseURL, key, budget)
	if err != nil {
		return Session{}, err
	}
	// One ledger per process: close the old session first.
	s.mu.Lock()
	old := s.sess
	s.sess = nil
	s.mu.Unlock()
	if old != nil {
		old.close()
	}

	sess := &session{api: api, budget: budget, ledDir: s.cfg.Home, info: Session{BaseURL: baseURL,
		Sandbox: how == sessionSandbox, SessionOnly: how != sessionStored, FromEnv: how == sessionFromEnv}}
	sess.bgCtx, sess.bgStop = context.WithCancel(context.Background())
	libDir := s.cfg.ResultsDir()
	if how == sessionSandbox {
		// The sandbox forgets its jobs when the app quits: its ledger lives
		// for the session only. Its results stay, apart from real ones.
		if err := os.MkdirAll(filepath.Join(s.cfg.Home, "sandbox"), 0o700); err != nil {
			return Session{}, err
		}
		tmp, err := os.MkdirTemp(filepath.Join(s.cfg.Home, "sandbox"), "session-")
		if err != nil {
			return Session{}, fmt.Errorf("sandbox folder: %w", err)
		}
		sess.tmpDir, sess.ledDir, libDir = tmp, tmp, filepath.Join(s.cfg.Home, "sandbox", "results")
	}
	// Without a library the session still works (the API, the ledger);
	// whatever needs to keep a result says why it cannot.
	sess.lib, sess.libErr = library.Open(libDir)
	if s.cfg.Track && sess.libErr == nil {
		// Results copied into the folder while SkipDesk was closed.
		s.indexInBackground(libDir)
	}
	if s.cfg.Track {
		// The window follows jobs from the start: its ledger opens now,
		// so that a second copy of SkipDesk is told at once.
		switch _, err := s.openLedger(sess); {
		case errors.Is(err, ErrTeamUnreachable):
			// The team's database is away: the session opens, read-only,
			// and takes the ledger up when it answers (books).
			sess.away, sess.awayAt = err, s.now()
		case err != nil:
			sess.close()
			return Session{}, err
		default:
			s.startTracking(ctx, sess)
		}
	}
	s.mu.Lock()
	s.sess = sess
	s.mu.Unlock()
	return sess.info, nil
}

// openLedger opens the session's ledger (and its tracker) on first need.
func (s *core) openLedger(sess *session) (*ledger.Ledger, error) {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.led != nil {
		return sess.led, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b, err := s.openBooks(ctx, sess.ledDir, sess.info.Sandbox, false)
	if err != nil {
		return nil, err
	}
	led := b.led
	if !led.Shared() {
		led.Team().SetComputer(s.team().Computer())
	}
	sess.budget.Set(led)
	topts := s.cfg.Tracker
	topts.Library = sess.lib
	if s.cfg.OnStep != nil && topts.OnStep == nil {
		topts.OnStep = func(step, _ string) { s.cfg.OnStep(step) }
	}
	sess.led, sess.ledClose, sess.team = led, b.close, b.team
	sess.trk = tracker.New(sess.api, led, topts)
	sess.cancelS = sess.trk.Subscribe(s.onTrackerEvent(sess))
	return led, nil
}

// startTracking runs the session's tracker in the background until the
// session closes.
func (s *core) startTracking(ctx context.Context, sess *session) {
	sess.mu.Lock()
	if sess.stop != nil || sess.trk == nil {
		sess.mu.Unlock()
		return
	}
	runCtx, stop := context.WithCancel(context.Background())
	sess.stop, sess.done = stop, make(chan struct{})
	trk := sess.trk
	done := sess.done
	sess.mu.Unlock()
	// The tracker and the merges of reused rows cut short last time run
	// until the books close: closing them (stop, then done) waits for both,
	// so that neither reads the ledger the close puts away.
	var running sync.WaitGroup
	running.Go(func() { _ = trk.Run(runCtx) })
	running.Go(func() {
		if err := s.finishMerges(runCtx, sess); err != nil && runCtx.Err() == nil {
			s.emit(Event{Kind: EventWarning, Err: err})
		}
	})
	go func() {
		running.Wait()
		close(done)
	}()
	if s.sessions().Settings().WebhookEnabled && !sess.info.Sandbox {
		// Without the receiver the tracker still polls: not a reason to
		// refuse the session.
		_ = s.restartReceiver(ctx, sess)
	}
}

// running reports whether the session's tracker loop runs.
func (sess *session) running() bool {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.stop != nil
}

// close ends the session: its background work is cancelled and waited
// for first (each piece stops at its next step, its state on disk), then
// the tracker and the ledger close.
func (sess *session) close() error {
	if sess.bgStop != nil {
		sess.bgStop()
	}
	sess.stopTracking() // no merge starts after it
	sess.bg.Wait()
	sess.api.CloseIdleConnections()
	sess.mu.Lock()
	defer sess.mu.Unlock()
	err := sess.closeBooksLocked()
	if sess.tmpDir != "" {
		os.RemoveAll(sess.tmpDir)
	}
	return err
}

// stopTracking stops the tracker's loop, when it runs, and waits for it
// (its downloads end at once, leaving the job to download again).
func (sess *session) stopTracking() {
	sess.mu.Lock()
	stop, done := sess.stop, sess.done
	sess.stop = nil
	sess.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
}

// closeBooksLocked stops the tracker and closes the ledger (sess.mu held).
func (sess *session) closeBooksLocked() error {
	if sess.cancelS != nil {
		sess.cancelS()
		sess.cancelS = nil
	}
	if sess.recv != nil {
		sess.recv.Close()
		sess.recv = nil
	}
	if sess.stop != nil {
		sess.stop()
		<-sess.done
		sess.stop = nil
	}
	var err error
	if sess.led != nil {
		sess.budget.Set(nil)
		err = sess.ledClose()
		sess.led, sess.ledClose, sess.trk, sess.team = nil, nil, nil, nil
	}
	return err
}

// current is the open session, or ErrNotConnected.
func (s *core) current() (*session, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess == nil {
		return nil, ErrNotConnected
	}
	return s.sess, nil
}

// books is the open session with its ledger and tracker: what every
// charged or recorded step needs.
//
// A team's database that could not be reached is tried again at most
// every few seconds (in between its error comes back at once); once open,
// its jobs are followed.
func (s *core) books() (*session, error) {
	sess, err := s.current()
	if err != nil {
		return nil, err
	}
	sess.mu.Lock()
	open, away, awayAt := sess.led != nil, sess.away, sess.awayAt
	sess.mu.Unlock()
	if open {
		return sess, nil
	}
	if away != nil && s.now().Sub(awayAt) < retryAway {
		return nil, away
	}
	if _, err := s.openLedger(sess); err != nil {
		if errors.Is(err, ErrTeamUnreachable) {
			sess.mu.Lock()
			sess.away, sess.awayAt = err, s.now()
			sess.mu.Unlock()
		}
		return nil, err
	}
	sess.mu.Lock()
	sess.away = nil
	sess.mu.Unlock()
	if s.cfg.Track {
		s.startTracking(context.Background(), sess)
	}
	return sess, nil
}

// retryAway is how long a team database found away is not asked again.
var retryAway = 5 * time.Second

// Session is the open session's description (zero when none).
func (s *SessionService) Current() Session {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sess == nil {
		return Session{}
	}
	return s.sess.info
}

// Account is GET /account.
func (s *SessionService) Account(ctx context.Context) (*client.Account, error) {
	sess, err := s.current()
	if err != nil {
		return nil, err
	}
	a, err := sess.api.Account(ctx)
	if err == nil && a != nil {
		sess.mu.Lock()
		sess.email = a.Email
		sess.mu.Unlock()
	}
	return a, err
}

// Pricing is GET /pricing.
func (s *SessionService) Pricing(ctx context.Context) (*client.Pricing, error) {
	sess, err := s.current()
	if err != nil {
		return nil, err
	}
	return sess.api.Pricing(ctx)
}

// Refresh makes the tracker look at every job now.
func (s *JobService) Refresh(ctx context.Context) error {
	sess, err := s.current()
	if err != nil {
		return err
	}
	sess.mu.Lock()
	trk := sess.trk
	sess.mu.Unlock()
	if trk != nil {
		trk.Refresh()
	}
	return nil
}
