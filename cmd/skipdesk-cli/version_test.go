package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/assets"
)

func TestVersionFlag(t *testing.T) {
	code, out, errOut := runCLI(t, "--version")
	if code != exitOK || errOut != "" {
		t.Fatalf("--version: exit %d, stderr %q", code, errOut)
	}
	if want := "skipdesk-cli " + assets.VersionString() + "\n"; out != want {
		t.Fatalf("--version printed %q, want %q", out, want)
	}
}

func TestVersionCommandNamesTheDataFolder(t *testing.T) {
	home := t.TempDir()
	t.Setenv("SKIPDESK_HOME", home)
	code, out, errOut := runCLI(t, "version")
	if code != exitOK || errOut != "" {
		t.Fatalf("version: exit %d, stderr %q", code, errOut)
	}
	if !strings.HasPrefix(out, "skipdesk-cli "+assets.Version+" (build ") {
		t.Fatalf("version printed %q", out)
	}
	if !strings.Contains(out, "data folder: "+filepath.Clean(home)+"\n") {
		t.Fatalf("version does not name the data folder %s:\n%s", home, out)
	}

	code, out, _ = runCLI(t, "--json", "version")
	var v versionInfo
	decodeJSON(t, out, &v)
	if code != exitOK || v.Version != assets.Version || v.Build == "" || v.DataFolder != filepath.Clean(home) {
		t.Fatalf("version --json: exit %d, %+v", code, v)
	}
}
