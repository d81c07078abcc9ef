package workflow

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/secrets"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// The configuration is read from what the main hands over, once; nothing
// below reads the environment.
func TestConfigFromEnv(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	c, err := ConfigFromEnv(envOf(map[string]string{EnvHome: home, EnvBaseURL: " https://api.example.com/v1 ", EnvAPIKey: "sk_test_config"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Home != home || c.BaseURL != "https://api.example.com/v1" || c.APIKey != "sk_test_config" || c.ResultsDir() != filepath.Join(home, "results") {
		t.Fatalf("config %+v", c)
	}
	// Without SKIPDESK_HOME: the user's configuration folder.
	c, err = ConfigFromEnv(envOf(nil))
	if cfg, uerr := os.UserConfigDir(); uerr == nil {
		if err != nil || c.Home != filepath.Join(cfg, "SkipDesk") {
			t.Fatalf("default home %q, %v", c.Home, err)
		}
	}
	// A sandbox configuration that cannot be read names the variable.
	_, err = ConfigFromEnv(envOf(map[string]string{EnvHome: home, EnvSandboxConfig: filepath.Join(home, "none.json")}))
	if err == nil || !strings.Contains(err.Error(), EnvSandboxConfig) {
		t.Fatalf("missing sandbox config: %v", err)
	}
}

// A damaged settings file gives the defaults and an error that says so;
// the service still works.
func TestOpenWithDamagedSettings(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "settings.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(Config{Secrets: secrets.Memory(), Home: home})
	if s == nil {
		t.Fatalf("no service: %v", err)
	}
	defer s.Close()
	p, ok := ExplainKnown(err, "")
	if !ok || p.Title != "Settings reset" || !strings.Contains(p.What, "defaults") {
		t.Fatalf("%v worded as %+v", err, p)
	}
	if s.Sessions().Settings().Theme == "" {
		t.Fatal("the defaults are not in use")
	}
}
