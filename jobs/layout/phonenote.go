package layout

import (
	"unicode"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs/phone"
)

// What a phone's cell says besides its number. Vendors and CRMs annotate
// the numbers in their cells: "5125550101 (DNC)", "DNC: 512-555-0106",
// "(512) 555-0101 - Do Not Call", "5125550103*". The number is read as the
// provider reads it (its digits, an extension split off); the rest is read
// here, as the file's notes about that phone: a restriction stated flags
// it, and anything but the number's own punctuation, its extension and its
// line type ("Mobile:", "(cell)") makes the phone unknown there. Never
// callable on words SkipDesk cannot read.

// phoneByte are the bytes a number is written with: digits, spaces and its
// punctuation. A cell of these alone says nothing more (most cells: the
// fast path).
var phoneByte = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "\t" + phone.Punct {
		t[c] = true
	}
	return t
}()

// noteWords are the words a phone's cell may hold that say nothing of
// whether it may be called: its extension, its line type, what it is.
var noteWords = set("x", "ext", "extn", "extension", "mobile", "mob", "cell", "cellular", "wireless", "landline",
	"land", "line", "home", "work", "office", "voip", "main", "primary", "alt", "alternate", "other", "business",
	"personal", "residential", "res", "bus", "tel", "telephone", "phone", "ph", "no", "number", "num", "nr",
	"m", "h", "w", "c", "l", "o", "b", "p", "t", "v", "us", "usa", "móvil", "movil", "celular", "casa", "trabajo")

// notePunct is punctuation a phone's cell may hold around its words
// ("Mobile: …", "#12", "[cell]").
// An Excel text marker ('5125550101, ="5125550101") is no note either.
var notePunct = [256]bool{':': true, ',': true, '#': true, '[': true, ']': true, ';': true, '=': true, '\'': true,
	'"': true}

// cellNote reads what v, a phone's cell, says besides its number: Clean
// when nothing, Flagged when it states a restriction, Unknown when it
// says anything else (or a restriction with a negation).
func cellNote(v string) Flag {
	i := 0
	for i < len(v) && phoneByte[v[i]] {
		i++
	}
	if i == len(v) {
		return Clean
	}
	if r := readText(v); r.flag != Clean {
		return r.flag // a restriction stated (Flagged), or not clear (Unknown)
	}
	if hasMark(v) {
		return Unknown
	}
	ws, _ := textWords(nil, v)
	for _, w := range ws {
		if !noteWords[w] && !allDigits(w) && !extension(w) {
			return Unknown
		}
	}
	return Clean
}

// hasMark reports a character in v that is neither a letter, a digit, a
// space nor punctuation a number or a word of it is written with: "*",
// "!", "✓", a mark SkipDesk cannot read.
func hasMark(v string) bool {
	for _, c := range v {
		switch {
		case c < utf8.RuneSelf && (phoneByte[c] || notePunct[c]), unicode.IsLetter(c), unicode.IsDigit(c):
		case unicode.IsSpace(c) || unicode.Is(unicode.Cf, c): // no-break spaces, direction marks
		case unicode.In(c, unicode.Pd, unicode.Ps, unicode.Pe, unicode.Pi, unicode.Pf): // dashes, brackets, quotes
		default:
			return true
		}
	}
	return false
}

// extension: an extension written as one word ("x445", "ext12").
func extension(w string) bool {
	for _, p := range []string{"x", "ext"} {
		if len(w) > len(p) && w[:len(p)] == p && allDigits(w[len(p):]) {
			return true
		}
	}
	return false
}

// phoneNote is what the cells phone p of slot s was read from say besides
// its number (cellNote), raw being the text its number was read from.
func phoneNote(rec []string, s *Slot, raw string) Flag {
	n := cellNote(raw)
	if s.Raw >= 0 && s.Part == 0 {
		n = merge(n, cellNote(cell(rec, s.Number)))
	}
	return n
}

func allDigits(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w != ""
}
