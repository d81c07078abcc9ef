package input

import (
	"bytes"
	"testing"
	"unicode"
	"unicode/utf8"
)

// normalizeDef is the definition normalize implements.
func normalizeDef(f []byte) []byte {
	var out []byte
	for _, r := range string(f) {
		switch {
		case r >= 'a' && r <= 'z':
			out = append(out, byte(r-32))
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			out = append(out, byte(r))
		case r >= 0xC0 && r <= 0xFF:
			out = append(out, latinFold[r-0xC0]...)
		case r >= 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			out = utf8.AppendRune(out, unicode.ToUpper(r))
		}
	}
	return out
}

func TestNormalizeFoldsAccents(t *testing.T) {
	var a, b [keyBufSize]byte
	for _, pair := range [][2]string{{"José Peña", "JOSE PENA"}, {"Müller", "mueller"[:1] + "uller"}, {"Ærø", "AERO"}, {"Straße", "STRASSE"}, {"Ωmega", "ωMEGA"}} {
		ka := normalize(&a, 0, []byte(pair[0]), &normTab)
		kb := normalize(&b, 0, []byte(pair[1]), &normTab)
		if !bytes.Equal(a[:ka], b[:kb]) {
			t.Errorf("%q → %q, %q → %q: want equal", pair[0], a[:ka], pair[1], b[:kb])
		}
	}
}

func TestNormalizeMatchesDefinition(t *testing.T) {
	inputs := []string{"", "a", "Smith, John.", "  Smith,  John. ", "abcdefgh", "ABCDEFGHijklmnop123",
		"8208 Park Ave", "james881@example.com", "Zoë Müller-Peña", "日本語 ×÷ ẞ \xff\xfe bad utf8 \xc3", "`{@[/:", "azAZ09azAZ09az`{@[/:azAZ",
		"\x7f\x00\x01abcdefgh\xffabcdefghij"}
	for c := 0; c < 256; c++ { // every byte inside an 8-byte block
		inputs = append(inputs, "abc"+string([]byte{byte(c)})+"defghij")
	}
	for _, in := range inputs {
		var b [keyBufSize]byte
		k := normalize(&b, 3, []byte(in), &normTab)
		if got, want := b[3:k], normalizeDef([]byte(in)); !bytes.Equal(got, want) {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
