package library

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The viewer's filter and its text sort compare values folded: lower case,
// accents taken off (José → jose), punctuation left out (O'Neil → oneil,
// j.smith@example.com → jsmithexamplecom) and every run of white space one
// space, none at either end. A person typing "oneil" or "jose" finds the
// row however the file spells it.

// cellEnd ends every folded cell in the column store: no folded text holds
// it, so a word never matches across two cells.
const cellEnd = 0

// foldASCII maps each ASCII byte to its folded byte: the byte itself for a
// digit or a lower-case letter, the lower case of a capital, ' ' for white
// space, 0 for anything left out.
var foldASCII = func() (t [utf8.RuneSelf]byte) {
	for c := byte('0'); c <= '9'; c++ {
		t[c] = c
	}
	for c := byte('a'); c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = c, c
	}
	for _, c := range []byte(" \t\r\n\v\f") {
		t[c] = ' '
	}
	return t
}()

// foldSpecial are letters with no decomposition into a base letter and an
// accent that a person types as plain letters.
var foldSpecial = map[rune]string{
	'ø': "o", 'Ø': "o", 'ł': "l", 'Ł': "l", 'đ': "d", 'Đ': "d", 'ð': "d", 'Ð': "d",
	'æ': "ae", 'Æ': "ae", 'œ': "oe", 'Œ': "oe", 'ß': "ss", 'ẞ': "ss", 'þ': "th", 'Þ': "th", 'ı': "i",
}

// appendFold appends s folded to dst.
func appendFold(dst []byte, s string) []byte {
	start := len(dst)
	// ASCII, the common case: never longer than s, written in place.
	dst = slices.Grow(dst, len(s))
	out := dst[:start+len(s)]
	w, space := start, false // space: a space is owed before the next letter or digit
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return appendFoldRest(out[:w], s[i:], start, space)
		}
		switch f := foldASCII[c]; f {
		case 0:
		case ' ':
			space = w > start
		default:
			if space {
				out[w] = ' '
				w++
				space = false
			}
			out[w] = f
			w++
		}
	}
	return out[:w]
}

// appendFoldRest folds s, which holds non-ASCII text, onto dst, whose
// folded cell began at start; space says a space is owed.
func appendFoldRest(dst []byte, s string, start int, space bool) []byte {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r < utf8.RuneSelf {
			r, n = rune(s[i]), 1
		}
		if unicode.IsSpace(r) {
			space = len(dst) > start
			i += n
			continue
		}
		before := len(dst)
		if space {
			dst = append(dst, ' ')
		}
		mark := len(dst)
		dst = appendFoldRune(dst, r, s[i:i+n])
		if len(dst) > mark {
			space = false
		} else {
			dst = dst[:before] // nothing kept: the space stays owed
		}
		i += n
	}
	return dst
}

// appendFoldRune appends the folded form of the non-ASCII rune r (whose
// bytes are b): its letters and digits in lower case without their marks.
func appendFoldRune(dst []byte, r rune, b string) []byte {
	if r < utf8.RuneSelf {
		return appendFoldLetter(dst, r)
	}
	if s, ok := foldSpecial[r]; ok {
		return append(dst, s...)
	}
	d := norm.NFD.PropertiesString(b).Decomposition()
	if d == nil {
		return appendFoldLetter(dst, r)
	}
	for len(d) > 0 {
		r, n := utf8.DecodeRune(d)
		d = d[n:]
		dst = appendFoldLetter(dst, r)
	}
	return dst
}

// appendFoldLetter appends r in lower case when it is a letter or a digit.
func appendFoldLetter(dst []byte, r rune) []byte {
	if r < utf8.RuneSelf {
		if f := foldASCII[r]; f != 0 && f != ' ' {
			dst = append(dst, f)
		}
		return dst
	}
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return dst // accents and other marks, punctuation, symbols
	}
	return utf8.AppendRune(dst, unicode.ToLower(r))
}

// fold is s folded.
func fold(s string) string { return string(appendFold(nil, s)) }

// foldWords are the words of a query, folded, each at most once and the
// longest first (the longest is the rarest: it is looked for first).
func foldWords(text string) []string {
	var out []string
	for _, w := range strings.Fields(fold(text)) {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}
