// Package desk is the facade the desktop window (and anything else with a
// screen) works through: sessions (an API key checked and kept in the
// keyring, or the embedded sandbox), the account, the merged jobs list, the
// tracker's events, submissions, results, the library and exports. It holds
// no Fyne import; every method may block and honours its context.
package desk

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/jobs/tracker"
)

// ErrNotConnected: a call that needs the API before a session is open.
var ErrNotConnected = errors.New("not connected: enter an API key or start the sandbox")

// Options tune Open.
type Options struct {
	// Home is the SkipDesk folder; "" is ledger.Home() ($SKIPDESK_HOME or
	// the user's config folder).
	Home string
	// SandboxConfig, when set, configures the embedded sandbox (tests use
	// short processing times); nil is sandbox.DefaultConfig, or the JSON
	// file named by $SKIPDESK_SANDBOX_CONFIG.
	SandboxConfig *sandbox.Config
	// Tracker tunes the tracker of each session.
	Tracker tracker.Options
}

// Desk is the facade. Its methods are safe for concurrent use.
type Desk struct {
	home string
	opts Options

	mu       sync.Mutex
	settings settings.Settings
	sess     *session
	sandbox  *sandbox.Server
	subs     map[int]func(Event)
	nextSub  int
	// phoneLists maps a phone list written by TracePhones to its trace.
	phoneLists map[string]string
	// submitting holds the file hashes of submissions under way here, so
	// that the jobs list does not call them "unknown".
	submitting map[string]bool
}

// session is one open connection: client, ledger, library, tracker.
type session struct {
	info    Session
	api     *client.Client
	led     *ledger.Ledger
	lib     *library.Library
	trk     *tracker.Tracker
	recv    *tracker.Receiver
	stop    context.CancelFunc
	done    chan struct{}
	tmpDir  string // sandbox sessions: the ledger folder, removed at close
	cancelS func()
}

// Open prepares a Desk on the SkipDesk folder. It reads the settings (a
// damaged file gives the defaults and an error that says so, with a usable
// Desk).
func Open(opts Options) (*Desk, error) {
	home := opts.Home
	if home == "" {
		h, err := ledger.Home()
		if err != nil {
			return nil, err
		}
		home = h
	}
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the SkipDesk folder %s: %w", home, err)
	}
	d := &Desk{home: home, opts: opts, subs: map[int]func(Event){}, phoneLists: map[string]string{}, submitting: map[string]bool{}}
	s, err := settings.Load(home)
	d.settings = s
	return d, err
}

// Home is the SkipDesk folder.
func (d *Desk) Home() string { return d.home }

// Close ends the session and stops the sandbox.
func (d *Desk) Close() error {
	d.mu.Lock()
	s, sb := d.sess, d.sandbox
	d.sess, d.sandbox = nil, nil
	d.mu.Unlock()
	if s != nil {
		s.close()
	}
	if sb != nil {
		sb.Close()
	}
	return nil
}

// Settings are the current settings.
func (d *Desk) Settings() settings.Settings {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.settings
}

// SaveSettings validates and stores s. A change to the webhook receiver
// takes effect at once (the receiver stops, or starts on the new address).
func (d *Desk) SaveSettings(ctx context.Context, s settings.Settings) error {
	if err := settings.Save(d.home, s); err != nil {
		return err
	}
	d.mu.Lock()
	old := d.settings
	d.settings = s
	sess := d.sess
	d.mu.Unlock()
	if sess != nil && (old.WebhookEnabled != s.WebhookEnabled || old.WebhookAddr != s.WebhookAddr) {
		return d.restartReceiver(ctx, sess)
	}
	return nil
}

// restartReceiver stops the session's webhook receiver and starts it again
// as the settings say (not in the sandbox, and only with a secret).
func (d *Desk) restartReceiver(ctx context.Context, s *session) error {
	d.mu.Lock()
	recv := s.recv
	s.recv = nil
	set := d.settings
	d.mu.Unlock()
	if recv != nil {
		recv.Close()
	}
	if !set.WebhookEnabled || s.info.Sandbox {
		return nil
	}
	secret, err := secrets.Get(ctx, secrets.WebhookSecret)
	if err != nil || secret == "" {
		return &WebhookError{NoSecret: true, Err: err}
	}
	r, err := s.trk.StartWebhookReceiver(set.WebhookAddr, secret)
	if err != nil {
		return &WebhookError{Addr: set.WebhookAddr, Err: err}
	}
	d.mu.Lock()
	s.recv = r
	d.mu.Unlock()
	return nil
}

// WebhookAddr is the address the webhook receiver listens on ("" when off).
func (d *Desk) WebhookAddr() string {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sess == nil || d.sess.recv == nil {
		return ""
	}
	return d.sess.recv.Addr()
}

// SetWebhookSecret keeps the webhook secret in the keyring ("" deletes it).
func (d *Desk) SetWebhookSecret(ctx context.Context, secret string) error {
	if secret == "" {
		return secrets.Delete(ctx, secrets.WebhookSecret)
	}
	if err := secrets.Set(ctx, secrets.WebhookSecret, secret); err != nil {
		if errors.Is(err, secrets.ErrUnavailable) {
			return &WebhookError{NotSaved: true, Err: fmt.Errorf("%w: %w", ErrKeyringUnavailable, err)}
		}
		return err
	}
	return nil
}

// Resume opens a session with the stored key: $SKIPDESK_API_KEY (with
// $SKIPDESK_BASE_URL or the saved base URL) first, then the keyring. It does
// not call the API, so the library and the ledger work offline. ErrNoKey
// when there is no key.
func (d *Desk) Resume(ctx context.Context) (Session, error) {
	base := d.Settings().BaseURL
	if env := os.Getenv("SKIPDESK_BASE_URL"); env != "" {
		base = env
	}
	if key := os.Getenv("SKIPDESK_API_KEY"); key != "" && base != "" {
		info, err := d.open(ctx, base, key, false, true)
		if err != nil {
			return info, err
		}
		d.mu.Lock()
		if d.sess != nil {
			d.sess.info.FromEnv = true
		}
		d.mu.Unlock()
		info.FromEnv = true
		return info, nil
	}
	if base == "" || d.Settings().Sandbox {
		return Session{}, ErrNoKey
	}
	key, err := secrets.Get(ctx, secrets.APIKey)
	switch {
	case errors.Is(err, secrets.ErrNotFound):
		return Session{}, ErrNoKey
	case errors.Is(err, secrets.ErrUnavailable):
		// Without a keyring no key can have been stored.
		return Session{}, ErrNoKey
	case err != nil:
		return Session{}, err
	}
	return d.open(ctx, base, key, false, false)
}

// Connect checks key against baseURL (GET /account), stores it in the
// keyring (unless sessionOnly) and opens the session. When the keyring
// cannot store it, the error matches ErrKeyringUnavailable and no session
// is opened: the caller may ask to use it for this session only.
func (d *Desk) Connect(ctx context.Context, baseURL, key string, sessionOnly bool) (Session, error) {
	api, err := client.New(baseURL, key)
	if err != nil {
		return Session{}, fmt.Errorf("base URL %q: %w", baseURL, err)
	}
	if _, err := api.Account(ctx); err != nil {
		return Session{}, err
	}
	if !sessionOnly {
		if err := secrets.Set(ctx, secrets.APIKey, key); err != nil {
			if errors.Is(err, secrets.ErrUnavailable) {
				return Session{}, fmt.Errorf("the key works but was not saved: %w", ErrKeyringUnavailable)
			}
			return Session{}, err
		}
	}
	s := d.Settings()
	s.BaseURL, s.Sandbox = baseURL, false
	_ = d.SaveSettings(ctx, s) // the base URL is a convenience; the session works without it
	return d.open(ctx, baseURL, key, false, sessionOnly)
}

// StartSandbox starts the embedded sandbox on loopback (once per process)
// and opens a session on its demo account.
func (d *Desk) StartSandbox(ctx context.Context) (Session, error) {
	d.mu.Lock()
	srv := d.sandbox
	d.mu.Unlock()
	if srv == nil {
		cfg := sandbox.DefaultConfig()
		if d.opts.SandboxConfig != nil {
			cfg = *d.opts.SandboxConfig
		} else if p := os.Getenv("SKIPDESK_SANDBOX_CONFIG"); p != "" {
			c, err := sandbox.LoadConfig(p)
			if err != nil {
				return Session{}, err
			}
			cfg = c
		}
		s, err := sandbox.Start(cfg, "127.0.0.1:0")
		if err != nil {
			return Session{}, fmt.Errorf("starting the sandbox: %w", err)
		}
		d.mu.Lock()
		if d.sandbox == nil {
			d.sandbox = s
		} else {
			s.Close()
		}
		srv = d.sandbox
		d.mu.Unlock()
	}
	return d.open(ctx, srv.URL(), sandbox.DemoKey, true, true)
}

// SignOut removes the key from the keyring and closes the session.
func (d *Desk) SignOut(ctx context.Context) error {
	d.mu.Lock()
	s := d.sess
	d.sess = nil
	d.mu.Unlock()
	if s != nil {
		s.close()
	}
	if err := secrets.Delete(ctx, secrets.APIKey); err != nil && !errors.Is(err, secrets.ErrUnavailable) {
		return fmt.Errorf("the key could not be removed from the keyring: %w", err)
	}
	return nil
}

// open replaces the session with one on baseURL.
func (d *Desk) open(ctx context.Context, baseURL, key string, isSandbox, sessionOnly bool) (Session, error) {
	api, err := client.New(baseURL, key)
	if err != nil {
		return Session{}, fmt.Errorf("base URL %q: %w", baseURL, err)
	}
	// One ledger per process: close the old session first.
	d.mu.Lock()
	old := d.sess
	d.sess = nil
	d.mu.Unlock()
	if old != nil {
		old.close()
	}

	s := &session{info: Session{BaseURL: baseURL, Sandbox: isSandbox, SessionOnly: sessionOnly}, api: api}
	ledDir, libDir := d.home, filepath.Join(d.home, "results")
	if os.Getenv("SKIPDESK_HOME") == "" && d.opts.Home == "" {
		if dir, err := library.DefaultDir(); err == nil {
			libDir = dir
		}
	}
	if isSandbox {
		// The sandbox forgets its jobs when the app quits: its ledger lives
		// for the session only. Its results stay, apart from real ones.
		if err := os.MkdirAll(filepath.Join(d.home, "sandbox"), 0o755); err != nil {
			return Session{}, err
		}
		tmp, err := os.MkdirTemp(filepath.Join(d.home, "sandbox"), "session-")
		if err != nil {
			return Session{}, fmt.Errorf("sandbox folder: %w", err)
		}
		s.tmpDir, ledDir, libDir = tmp, tmp, filepath.Join(d.home, "sandbox", "results")
	}
	if s.led, err = ledger.Open(ledDir); err != nil {
		s.close()
		return Session{}, err
	}
	if s.lib, err = library.Open(libDir); err != nil {
		s.close()
		return Session{}, err
	}
	topts := d.opts.Tracker
	topts.Library = s.lib
	s.trk = tracker.New(api, s.led, topts)
	s.cancelS = s.trk.Subscribe(d.onTrackerEvent(s))
	runCtx, stop := context.WithCancel(context.Background())
	s.stop, s.done = stop, make(chan struct{})
	go func() {
		defer close(s.done)
		_ = s.trk.Run(runCtx)
	}()
	d.mu.Lock()
	d.sess = s
	d.mu.Unlock()
	if d.Settings().WebhookEnabled && !isSandbox {
		// Without the receiver the tracker still polls: not a reason to
		// refuse the session.
		_ = d.restartReceiver(ctx, s)
	}
	return s.info, nil
}

func (s *session) close() {
	if s.cancelS != nil {
		s.cancelS()
	}
	if s.recv != nil {
		s.recv.Close()
		s.recv = nil
	}
	if s.stop != nil {
		s.stop()
		<-s.done
	}
	if s.led != nil {
		s.led.Close()
	}
	if s.tmpDir != "" {
		os.RemoveAll(s.tmpDir)
	}
}

// current is the open session, or ErrNotConnected.
func (d *Desk) current() (*session, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sess == nil {
		return nil, ErrNotConnected
	}
	return d.sess, nil
}

// Session is the open session's description (zero when none).
func (d *Desk) Session() Session {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.sess == nil {
		return Session{}
	}
	return d.sess.info
}

// Account is GET /account.
func (d *Desk) Account(ctx context.Context) (*client.Account, error) {
	s, err := d.current()
	if err != nil {
		return nil, err
	}
	return s.api.Account(ctx)
}

// Pricing is GET /pricing.
func (d *Desk) Pricing(ctx context.Context) (*client.Pricing, error) {
	s, err := d.current()
	if err != nil {
		return nil, err
	}
	return s.api.Pricing(ctx)
}

// Refresh makes the tracker look at every job now.
func (d *Desk) Refresh(ctx context.Context) error {
	s, err := d.current()
	if err != nil {
		return err
	}
	s.trk.Refresh()
	return nil
}
