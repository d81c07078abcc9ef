// Package settings keeps the app's non-secret settings as one JSON file in the
// SkipDesk home folder. Secrets (the API key, the webhook secret) never come
// here: they live in the OS keyring (package secrets).
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// FileName is the settings file inside the home folder.
const FileName = "settings.json"

// Themes.
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// DefaultWebhookAddr is where the webhook receiver listens unless told otherwise.
const DefaultWebhookAddr = "127.0.0.1:8790"

// Settings are the user's choices. The zero value is not meant to be used:
// start from Default or Load.
type Settings struct {
	// BaseURL is the API address last connected to (not a secret).
	BaseURL string `json:"base_url,omitempty"`
	// Sandbox: the last session was the embedded sandbox.
	Sandbox bool `json:"sandbox,omitempty"`

	WebhookEnabled bool   `json:"webhook_enabled"`
	WebhookAddr    string `json:"webhook_addr"`

	// OutputDir is where exports go by default; empty means the user's
	// Documents folder (or home).
	OutputDir     string `json:"output_dir,omitempty"`
	Theme         string `json:"theme"`
	Notifications bool   `json:"notifications"`

	// Team: this computer shares a team's database (its connection string
	// is in the keyring, never here).
	Team bool `json:"team,omitempty"`
	// ComputerID is this computer's stable identity in a team, made once.
	ComputerID string `json:"computer_id,omitempty"`
	// ComputerBinding ties ComputerID to the installation that made it (a
	// digest of the id, the machine and the data folder's identity on
	// disk): a copied data folder finds it does not match and takes an id
	// of its own.
	ComputerBinding string `json:"computer_binding,omitempty"`
	// CopiedFrom is the id a copied data folder came with, until what that
	// id recorded of this folder (its downloads) is taken up under the new
	// one.
	CopiedFrom string `json:"computer_copied_from,omitempty"`
	// ComputerName is shown beside what this computer did ("" is its host
	// name).
	ComputerName string `json:"computer_name,omitempty"`
}

// Default is the settings of a new user.
func Default() Settings {
	return Settings{
		WebhookAddr:   DefaultWebhookAddr,
		Theme:         ThemeSystem,
		Notifications: true,
	}
}

// Validate reports the first setting that cannot be used, naming it.
func (s Settings) Validate() error {
	switch s.Theme {
	case ThemeSystem, ThemeLight, ThemeDark:
	default:
		return fmt.Errorf("theme %q: choose light, dark or system", s.Theme)
	}
	if s.WebhookEnabled || s.WebhookAddr != "" {
		host, port, err := net.SplitHostPort(strings.TrimSpace(s.WebhookAddr))
		if err != nil {
			return fmt.Errorf("webhook address %q: write it as host:port, for example %s", s.WebhookAddr, DefaultWebhookAddr)
		}
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("webhook address %q: the port must be a number from 1 to 65535", s.WebhookAddr)
		}
		_ = host // empty host means every interface: allowed
	}
	if s.OutputDir != "" && !filepath.IsAbs(s.OutputDir) {
		return fmt.Errorf("export folder %q: give a full path, or choose the folder", s.OutputDir)
	}
	return nil
}

// Path is the settings file in dir.
func Path(dir string) string { return filepath.Join(dir, FileName) }

// Load reads the settings from dir. A missing file gives Default with no
// error; a damaged one gives Default and an error naming the file, so the
// app still starts.
func Load(dir string) (Settings, error) {
	s := Default()
	data, err := os.ReadFile(Path(dir))
	if errors.Is(err, os.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, fmt.Errorf("settings: read %s: %w", Path(dir), err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return Default(), fmt.Errorf("settings: %s is damaged (%v); using the defaults", Path(dir), err)
	}
	if s.Theme == "" {
		s.Theme = ThemeSystem
	}
	if s.WebhookAddr == "" {
		s.WebhookAddr = DefaultWebhookAddr
	}
	return s, nil
}

// Save writes the settings to dir atomically (temporary file, fsync, rename):
// a crash leaves either the old file or the new one.
func Save(dir string, s Settings) error {
	if err := s.Validate(); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("settings: create %s: %w", dir, err)
	}
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	f, err := os.CreateTemp(dir, ".settings.*.tmp")
	if err != nil {
		return fmt.Errorf("settings: write %s: %w", Path(dir), err)
	}
	tmp := f.Name()
	_, err = f.Write(append(data, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, Path(dir))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("settings: write %s: %w", Path(dir), err)
	}
	return nil
}
