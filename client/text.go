package client

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// CleanText makes text that came from the server safe to print in a
// terminal, show in a window or store: terminal escape sequences (ESC [ …,
// ESC ] … BEL, and their one-byte C1 forms) are removed whole, tabs, line
// breaks and carriage returns become spaces, every other control character
// (C0, DEL, C1) and every invisible format character (bidirectional
// overrides and isolates, zero-width spaces, the byte order mark, tag
// characters) is removed, and invalid UTF-8 becomes U+FFFD. Visible text,
// accents and emoji (with their zero-width joiners) are kept.
//
// The client applies it to every string it decodes from the server (job
// names, statuses, error messages, API errors) before handing it over;
// print sites may apply it again to be safe: it is idempotent.
func CleanText(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
		case r == 0x1b:
			size = escapeLen(s[i:])
		case r == 0x9b || r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f:
			// C1 CSI, OSC, DCS, SOS, PM, APC: their sequence goes too.
			size += sequenceBody(s[i+size:], r == 0x9b)
		case lineOrTab(r):
			b.WriteByte(' ')
		case hidden(r):
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// lineOrTab reports whether r breaks a line or is a tab: CleanText makes
// it a space.
func lineOrTab(r rune) bool {
	switch r {
	case '\t', '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// isClean reports whether CleanText would return s unchanged (the common
// case: plain printable ASCII or ordinary letters).
func isClean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		if c < 0x80 {
			return false
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || hidden(r) || r == 0x85 || r == 0x2028 || r == 0x2029 {
			return false
		}
		i += size
	}
	return true
}

// hidden reports the characters CleanText removes outright: control
// characters and invisible format characters, except the zero-width
// (non-)joiners that emoji and some scripts need.
func hidden(r rune) bool {
	if r < 0x20 || (r >= 0x7f && r <= 0x9f) {
		return true
	}
	if r == 0x200c || r == 0x200d {
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

// escapeLen is the length of the escape sequence at the start of s (which
// starts with ESC): CSI (ESC [ parameters final), OSC, DCS, SOS, PM and APC
// (ESC ] P X ^ _ … ended by BEL or ESC \), or ESC, intermediates and one
// final byte. An unfinished sequence runs to the end of s.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + sequenceBody(s[2:], true)
	case ']', 'P', 'X', '^', '_':
		return 2 + sequenceBody(s[2:], false)
	}
	n := 1
	for n < len(s) && s[n] >= 0x20 && s[n] <= 0x2f { // intermediates
		n++
	}
	if n < len(s) && s[n] >= 0x30 && s[n] <= 0x7e { // final
		n++
	}
	return n
}

// sequenceBody is the length of what follows a CSI (csi true: parameter
// and intermediate bytes, then a final byte) or a string introducer (up to
// and including BEL, ESC \ or the one-byte ST).
func sequenceBody(s string, csi bool) int {
	if csi {
		for i := 0; i < len(s); i++ {
			c := s[i]
			switch {
			case c >= 0x40 && c <= 0x7e: // final
				return i + 1
			case c < 0x20 || c > 0x7e:
				return i // not a CSI byte: the sequence ends here
			}
		}
		return len(s)
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		}
	}
	return len(s)
}
