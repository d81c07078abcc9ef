package assets

import (
	"os"
	"regexp"
	"testing"
)

// FyneApp.toml is where the version is set; the constant follows it.
func TestVersionMatchesFyneAppToml(t *testing.T) {
	data, err := os.ReadFile("../FyneApp.toml")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*Version\s*=\s*"([^"]+)"`).FindSubmatch(data)
	if m == nil {
		t.Fatal("FyneApp.toml has no Version")
	}
	if got := string(m[1]); got != Version {
		t.Fatalf("FyneApp.toml says Version %q, assets.Version is %q: change both", got, Version)
	}
}

func TestVersionString(t *testing.T) {
	b, c := Build, Commit
	defer func() { Build, Commit = b, c }()
	Build, Commit = "dev", ""
	if got, want := VersionString(), Version+" (build dev)"; got != want {
		t.Fatalf("VersionString() = %q, want %q", got, want)
	}
	Build, Commit = "42", "abc1234"
	if got, want := VersionString(), Version+" (build 42, abc1234)"; got != want {
		t.Fatalf("VersionString() = %q, want %q", got, want)
	}
}
