package settings

import (
	"os"
	"strings"
	"testing"
)

func TestLoadMissingGivesDefaults(t *testing.T) {
	s, err := Load(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if s != Default() {
		t.Fatalf("got %+v, want defaults %+v", s, Default())
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	want := Settings{BaseURL: "https://api.example.com/v1", WebhookEnabled: true, WebhookAddr: "127.0.0.1:9000",
		OutputDir: dir, Theme: ThemeDark, Notifications: false}
	if err := Save(dir, want); err != nil {
		t.Fatal(err)
	}
	got, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Fatalf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestLoadDamagedFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(Path(dir), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), Path(dir)) {
		t.Fatalf("error %v should name the file", err)
	}
	if s != Default() {
		t.Fatalf("damaged file should give defaults, got %+v", s)
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name string
		mod  func(*Settings)
		want string // substring of the error; "" for none
	}{
		{"defaults", func(*Settings) {}, ""},
		{"bad theme", func(s *Settings) { s.Theme = "pink" }, "theme"},
		{"address without port", func(s *Settings) { s.WebhookEnabled = true; s.WebhookAddr = "localhost" }, "host:port"},
		{"port out of range", func(s *Settings) { s.WebhookEnabled = true; s.WebhookAddr = "127.0.0.1:70000" }, "port"},
		{"all interfaces", func(s *Settings) { s.WebhookEnabled = true; s.WebhookAddr = ":8790" }, ""},
		{"relative output folder", func(s *Settings) { s.OutputDir = "exports" }, "full path"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Default()
			c.mod(&s)
			err := s.Validate()
			if c.want == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one mentioning %q", err, c.want)
			}
			if Save(t.TempDir(), s) == nil {
				t.Fatal("Save accepted invalid settings")
			}
		})
	}
}
