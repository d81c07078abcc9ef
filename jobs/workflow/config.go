package workflow

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/tracker"
)

// Config is everything SkipDesk reads from its surroundings, read once at
// start by the program's main (ConfigFromEnv) and passed down: no package
// below reads the environment itself.
type Config struct {
	// Home is the data folder: the ledger, the settings, the results
	// (Home/results), the phone lists made from traces.
	Home string
	// BaseURL, when set, is the API address to use instead of the one
	// saved in the settings ($SKIPDESK_BASE_URL, or the CLI's --base-url).
	BaseURL string
	// APIKey, when set, is used instead of the keyring and never stored
	// ($SKIPDESK_API_KEY: automation and CI).
	APIKey string
	// Sandbox configures the embedded sandbox; nil is
	// sandbox.DefaultConfig ($SKIPDESK_SANDBOX_CONFIG names a file).
	Sandbox *sandbox.Config
	// Track follows the jobs in flight in the background as soon as a
	// session opens (the window). Without it, jobs are followed only while
	// Wait runs (the command line).
	Track bool
	// PresetsFile, when set, keeps mapping presets in this JSON file
	// instead of the ledger (the command line's --presets).
	PresetsFile string
	// UserAgent names the program in API requests.
	UserAgent string
	// OnStep, when set, is called at each step of a submission and of a
	// download ("intent", "sent", "posted", "created", "download", …).
	// The command line's kill tests stop the process there; the release
	// builds leave it nil.
	OnStep func(step string)
	// Tracker tunes the tracker (tests use short intervals).
	Tracker tracker.Options
	// Retry is the API client's retry policy; zero fields take the
	// client's defaults (a build for tests shortens the waits between
	// tries of a server that is away).
	Retry client.RetryPolicy
	// DatabaseURL, when set, is the team database to share instead of the
	// one whose connection string is in the keyring, and is never stored
	// ($SKIPDESK_DATABASE_URL).
	DatabaseURL string
	// Computer, when set, names this computer instead of the settings'
	// name or the host name ($SKIPDESK_COMPUTER).
	Computer string
	// TeamLimits are the API key's per-minute limits the team's budget
	// keeps to together (zero: the provider's, 1,200 reads and 120 writes).
	TeamLimits TeamLimits
	// Now is the clock of the layer's own waits (how long a team database
	// found away is left alone before it is asked again); nil: time.Now.
	// Tests give one they advance.
	Now func() time.Time
	// Secrets is where the API key, the webhook secret and the team
	// database's connection string are kept; nil: the OS keyring. Each
	// test gives its own (secrets.Memory).
	Secrets *secrets.Store
}

// Environment variables ConfigFromEnv reads.
const (
	EnvHome          = "SKIPDESK_HOME"
	EnvBaseURL       = "SKIPDESK_BASE_URL"
	EnvAPIKey        = "SKIPDESK_API_KEY"
	EnvSandboxConfig = "SKIPDESK_SANDBOX_CONFIG"
	EnvDatabaseURL   = "SKIPDESK_DATABASE_URL"
	EnvComputer      = "SKIPDESK_COMPUTER"
)

// ConfigFromEnv builds the configuration from the environment (getenv is
// os.Getenv in the mains; tests pass a map's lookup): $SKIPDESK_HOME or the
// user's configuration folder, $SKIPDESK_BASE_URL, $SKIPDESK_API_KEY,
// $SKIPDESK_SANDBOX_CONFIG, $SKIPDESK_DATABASE_URL and $SKIPDESK_COMPUTER.
func ConfigFromEnv(getenv func(string) string) (Config, error) {
	var c Config
	home, err := homeDir(getenv(EnvHome))
	if err != nil {
		return c, err
	}
	c.Home = home
	c.BaseURL = strings.TrimSpace(getenv(EnvBaseURL))
	c.APIKey = strings.TrimSpace(getenv(EnvAPIKey))
	c.DatabaseURL = strings.TrimSpace(getenv(EnvDatabaseURL))
	c.Computer = strings.TrimSpace(getenv(EnvComputer))
	if p := getenv(EnvSandboxConfig); p != "" {
		sc, err := sandbox.LoadConfig(p)
		if err != nil {
			return c, fmt.Errorf("%s: %w", EnvSandboxConfig, err)
		}
		c.Sandbox = &sc
	}
	return c, nil
}

// homeDir is the data folder: dir when given, else the user's
// configuration folder's SkipDesk (%AppData%\SkipDesk on Windows,
// ~/Library/Application Support/SkipDesk on macOS, ~/.config/SkipDesk on
// Linux).
func homeDir(dir string) (string, error) {
	if dir != "" {
		return filepath.Abs(dir)
	}
	cfg, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no folder for SkipDesk's data (set %s): %w", EnvHome, err)
	}
	return filepath.Join(cfg, "SkipDesk"), nil
}

// ResultsDir is the library's folder inside the data folder.
func (c Config) ResultsDir() string { return filepath.Join(c.Home, "results") }

// step calls OnStep when set.
func (c Config) step(name string) {
	if c.OnStep != nil {
		c.OnStep(name)
	}
}

// errNoHome: a Config without a data folder.
var errNoHome = errors.New("workflow: the configuration has no data folder")
