package input

import (
	"bytes"
	"testing"
)

// normalizeSlow is the definition normalize implements.
func normalizeSlow(f []byte) []byte {
	var out []byte
	for _, c := range f {
		switch {
		case c >= 'a' && c <= 'z':
			out = append(out, c-32)
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c >= 0x80:
			out = append(out, c)
		}
	}
	return out
}

func TestNormalizeMatchesDefinition(t *testing.T) {
	inputs := []string{"", "a", "Smith, John.", "  Smith,  John. ", "abcdefgh", "ABCDEFGHijklmnop123",
		"8208 Park Ave", "james881@example.com", "Zoë Müller-Peña", "`{@[/:", "azAZ09azAZ09az`{@[/:azAZ",
		"\x7f\x00\x01abcdefgh\xffabcdefghij"}
	for c := 0; c < 256; c++ { // every byte inside an 8-byte block
		inputs = append(inputs, "abc"+string([]byte{byte(c)})+"defghij")
	}
	for _, in := range inputs {
		var b [keyBufSize]byte
		k := normalize(&b, 3, []byte(in))
		if got, want := b[3:k], normalizeSlow([]byte(in)); !bytes.Equal(got, want) {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
