package workflow

import (
	"strings"
	"unicode"
)

// Printable is text from a server or a file made safe to print or show:
// control characters (ESC, BEL, CR and the other C0 and C1 codes) and the
// bidirectional overrides that could rewrite a terminal or reorder what a
// person reads are replaced by a visible "?"; line breaks and tabs stay.
func Printable(s string) string {
	clean := true
	for _, r := range s {
		if unsafeRune(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unsafeRune(r) {
			return '?'
		}
		return r
	}, s)
}

func unsafeRune(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case unicode.IsControl(r):
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
		return true // bidirectional embeddings, overrides and isolates
	}
	return false
}
