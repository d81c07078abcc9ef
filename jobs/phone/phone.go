// Package phone normalises US phone numbers the way the provider does before
// a DNC scrub (CONTRACT §5) and scans a phone column to show, before paying,
// how many numbers are valid, invalid or repeated.
package phone

import (
	"strings"
)

// Number is a normalised phone number.
type Number struct {
	Digits string `json:"digits"`           // 10 digits when Valid; the digits found otherwise
	Ext    string `json:"ext,omitempty"`    // the extension's digits, if any
	Valid  bool   `json:"valid"`            // a 10-digit NANP number
	Reason string `json:"reason,omitempty"` // why not valid, in words
}

// Punct is the punctuation a number is written with, between its digits:
// "(512) 555-0101", "512.555.0101", "+1 512/555 0101". The readers that
// look at a cell byte by byte for a number (the library's search, the
// callable export's left-out numbers, a phone cell's notes) share it.
const Punct = " ()-.+/"

// Reasons a number is invalid.
const (
	ReasonBlank     = "blank"
	ReasonSci       = "in Excel's scientific notation (like 1.23E+10): the digits are lost"
	ReasonTooShort  = "too short"
	ReasonTooLong   = "too long"
	ReasonAreaCode  = "the area code cannot start with 0 or 1"
	ReasonExchange  = "the exchange (digits 4-6) cannot start with 0 or 1"
	ReasonNoNumber  = "no digits"
	ReasonNotNANP11 = "11 digits not starting with 1 (not a US/Canada number)"
	ReasonSeveral   = "several numbers in one cell: each needs a row of its own"
)

// Normalize applies the provider's rule (CONTRACT §5): keep the digits; an
// extension introduced by "x", "ext", "ext." or "#" (any case) is split off at
// its first occurrence; a leading "1" is dropped from 11 digits; the number
// is valid when 10 digits remain with the area code and the exchange each
// starting with 2-9. Excel's scientific form ("1.23E+10") is invalid whatever
// digits it shows.
func Normalize(s string) Number {
	s = strings.TrimSpace(s)
	if s == "" {
		return Number{Reason: ReasonBlank}
	}
	if isSci(s) {
		return Number{Digits: digits(s), Reason: ReasonSci}
	}
	main, ext := s, ""
	if i := extIndex(s); i >= 0 {
		main = s[:i]
		ext = digits(s[i:])
	}
	d := digits(main)
	n := Number{Digits: d, Ext: ext}
	switch {
	case len(d) == 0:
		n.Reason = ReasonNoNumber
	case len(d) == 11 && d[0] == '1':
		d = d[1:]
		n.Digits = d
	case len(d) == 11:
		n.Reason = ReasonNotNANP11
	case len(d) < 10:
		n.Reason = ReasonTooShort
	case len(d) > 11:
		n.Reason = ReasonTooLong
		if keys, ok := KeysIn(s); ok && len(keys) > 1 {
			n.Reason = ReasonSeveral
		}
	}
	if n.Reason != "" {
		return n
	}
	switch {
	case d[0] < '2':
		n.Reason = ReasonAreaCode
	case d[3] < '2':
		n.Reason = ReasonExchange
	default:
		n.Valid = true
	}
	return n
}

// extIndex finds where an extension starts: the first "x" or "#" (the markers
// "ext" and "ext." start with "e", then "x": "ext" is found at its "e").
func extIndex(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '#', 'x', 'X':
			if i >= 1 && (s[i-1] == 'e' || s[i-1] == 'E') && i+1 < len(s) && (s[i+1] == 't' || s[i+1] == 'T') {
				return i - 1 // "ext"
			}
			return i
		}
	}
	return -1
}

func digits(s string) string {
	var buf [32]byte
	b := buf[:0] // on the stack unless the value holds more than 32 digits
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b = append(b, s[i])
		}
	}
	if len(b) == 0 {
		return ""
	}
	return string(b)
}

// isSci recognises Excel's scientific notation: 1.23E+10, 2.01555E+09, 1E+10.
func isSci(s string) bool {
	i := digitsFrom(s, 0)
	if i == 0 || i == len(s) {
		return false
	}
	if s[i] == '.' {
		j := digitsFrom(s, i+1)
		if j == i+1 || j == len(s) {
			return false
		}
		i = j
	}
	if s[i] != 'E' && s[i] != 'e' {
		return false
	}
	i++
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	return i < len(s) && digitsFrom(s, i) == len(s)
}

// digitsFrom is where the run of ASCII digits starting at s[i] ends.
func digitsFrom(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// Format writes a valid number as "(212) 555-0147", with " x123" for an
// extension. An invalid number is returned as its digits.
func (n Number) Format() string {
	if !n.Valid || len(n.Digits) != 10 {
		return n.Digits
	}
	s := "(" + n.Digits[:3] + ") " + n.Digits[3:6] + "-" + n.Digits[6:]
	if n.Ext != "" {
		s += " x" + n.Ext
	}
	return s
}

// String is Format for valid numbers and the reason for the others.
func (n Number) String() string {
	if n.Valid {
		return n.Format()
	}
	return "invalid: " + n.Reason
}

// Format normalises s and formats it ("" when s is not a valid number).
func Format(s string) string {
	n := Normalize(s)
	if !n.Valid {
		return ""
	}
	return n.Format()
}

// Key normalises s as Normalize does and returns the 10 digits of a valid
// number as an integer (the area code starts with 2-9, so the digits never
// lose a leading zero), or 0 when s is not a valid number. It does not
// allocate: readers of large results key and compare numbers with it.
func Key(s string) uint64 {
	// The common case in one pass: digits among spaces and punctuation.
	var k uint64
	n := 0
	fast := true
	for i := 0; i < len(s) && fast; i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			if n < 11 {
				k = k*10 + uint64(c-'0')
			}
			n++
		case c == ' ' || c == '(' || c == ')' || c == '-' || c == '.' || c == '+' || c == '/' || c == '\t':
		default:
			fast = false
		}
	}
	if fast {
		if n == 11 && k/1e10 == 1 {
			k -= 1e10
			n = 10
		}
		if n != 10 || k < 2e9 || digitAt(k, 3) < '2' {
			return 0
		}
		return k
	}
	return keySlow(s)
}

// keySlow is Key for values with letters, "#" or other characters:
// extensions, Excel's scientific notation.
func keySlow(s string) uint64 {
	s = strings.TrimSpace(s)
	if s == "" || isSci(s) {
		return 0
	}
	if k := extIndex(s); k >= 0 {
		s = s[:k]
	}
	var k uint64
	n := 0
	var first, fourth, second byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			continue
		}
		if n == 11 {
			return 0 // too long
		}
		switch n {
		case 0:
			first = c
		case 1:
			second = c
		case 3:
			fourth = c
		}
		k = k*10 + uint64(c-'0')
		n++
	}
	switch {
	case n == 11 && first == '1':
		k -= 1e10
		// the area code is now digits 2-4 of the 11: check them below
		first, fourth = second, digitAt(k, 3)
	case n != 10:
		return 0
	}
	if first < '2' || fourth < '2' {
		return 0
	}
	return k
}

// digitAt is the i-th (0-based) of the 10 digits of k, as a character.
func digitAt(k uint64, i int) byte {
	for range 9 - i {
		k /= 10
	}
	return byte('0' + k%10)
}

// KeyDigits writes a key from Key as its 10 digits.
func KeyDigits(k uint64) string {
	var b [10]byte
	for i := 9; i >= 0; i-- {
		b[i] = byte('0' + k%10)
		k /= 10
	}
	return string(b[:])
}

// FormatKey writes a key from Key as "(212) 555-0147".
func FormatKey(k uint64) string {
	d := KeyDigits(k)
	return "(" + d[:3] + ") " + d[3:6] + "-" + d[6:]
}

// KeysIn reads a cell of phone numbers, one or several ("5125550101",
// "512-555-0102; (512) 555-0103", "a | b", "a / b", one a line): their
// keys, and ok false when a part is not a valid number.
func KeysIn(v string) (keys []uint64, ok bool) {
	for _, part := range strings.FieldsFunc(v, NumberSep) {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		k := Key(part)
		if k == 0 {
			return nil, false
		}
		keys = append(keys, k)
	}
	return keys, len(keys) > 0
}

// NumberSep is what separates numbers written in one cell.
func NumberSep(r rune) bool { return r == ',' || r == ';' || r == '|' || r == '\n' || r == '/' }

// ForList is s as a number meant for a do-not-call list (or an opt-out, or
// a call counted against a cap), where reading a number is the safe side:
// a whole number a spreadsheet tool wrote as a float ("5125550101.0",
// "15125550101.00": a column with blanks read as decimals and saved again)
// loses its point and zeros; any other s is returned as it is, for
// Normalize or Key to read by the provider's rule (which reads the zeros
// as digits: 11 digits, not a number).
func ForList(s string) string {
	t := strings.TrimSpace(s)
	dot := strings.IndexByte(t, '.')
	if dot < 10 || dot > 11 || digitsFrom(t, 0) != dot || len(t) == dot+1 || strings.Trim(t[dot+1:], "0") != "" {
		return s
	}
	return t[:dot]
}

// ListKeys reads a cell of a list of numbers (see ForList): each of
// several numbers ("5125550101 / 5125550102", "512-555-0101 x12;
// 512-555-0102": read as one number, the first's extension would swallow
// the others), else its one number; [0] when it holds none.
func ListKeys(v string) []uint64 { return AppendListKeys(nil, v) }

// AppendListKeys appends ListKeys(v) to dst.
func AppendListKeys(dst []uint64, v string) []uint64 {
	if strings.ContainsFunc(v, NumberSep) {
		if several, ok := KeysIn(v); ok && len(several) > 1 {
			return append(dst, several...)
		}
	}
	return append(dst, Key(ForList(v)))
}
