package entity

import (
	"strings"
	"testing"
)

func TestIsEntityEveryToken(t *testing.T) {
	for _, tok := range Tokens() {
		for _, name := range []string{
			"ACME " + tok,
			strings.ToLower(tok) + " acme",
			"Acme, " + tok,
			"Acme " + tok + ".",
			"Smith Family (" + tok + ")",
		} {
			if !IsEntity(name) {
				t.Errorf("IsEntity(%q) = false, want true", name)
			}
		}
	}
}

func TestIsEntity(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"JOHN SMITH", false},
		{"", false},
		{" ", false},
		{"Smith L.L.C.", true},
		{"SMITH L.L.C", true},
		{"Oak Holdings, Inc.", true},
		{"Jane Doe Revocable Trust", true},
		{"DOE JANE TR", true},
		{"Cobb", false},         // contains CO only inside a word
		{"Coe Trustee", false},  // TRUSTEE is not a token
		{"Incoming", false},     // INC only as a prefix
		{"Bankston", false},     // BANK only as a prefix
		{"Smith & Co", true},    // CO alone
		{"Smith&Co", true},      // '&' separates
		{"Smith-Co", true},      // '-' separates
		{"SMITH_LLC", true},     // '_' separates (not A-Z0-9)
		{"José LLC", true},      // non-ASCII letters separate, LLC still a token
		{"LLCs Are Fun", false}, // LLCS is not LLC
		{"P.C.", true},          // dots deleted → PC
		{"L P", false},          // L and P are separate tokens
		{"l.p.", true},          // LP
		{"Maria Lp", true},      // case-insensitive
		{"Partnerships", false}, // plural not in list
		{"123 Main LLC", true},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZ LLC", true}, // a long word before the token
		{"INCORPORATEDX", false},
		{"Trust", true},
	}
	for _, tt := range tests {
		if got := IsEntity(tt.name); got != tt.want {
			t.Errorf("IsEntity(%q) = %v, want %v", tt.name, got, tt.want)
		}
		if got := IsEntityBytes([]byte(tt.name)); got != tt.want {
			t.Errorf("IsEntityBytes(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestIsEntityBytesDoesNotAllocate(t *testing.T) {
	b := []byte("Jane Doe Revocable Living Trust")
	if n := testing.AllocsPerRun(100, func() { IsEntityBytes(b) }); n != 0 {
		t.Errorf("IsEntityBytes allocates %v times per call", n)
	}
}

func BenchmarkIsEntity(b *testing.B) {
	name := []byte("MARIA GONZALEZ")
	for b.Loop() {
		IsEntityBytes(name)
	}
}
