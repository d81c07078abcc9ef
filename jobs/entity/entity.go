// Package entity decides whether an owner name is a company (LLC, trust,
// corporation…) rather than a person, with the rule the provider applies to
// single traces and the sandbox applies to bulk jobs.
//
// Rule: uppercase the name, delete '.' characters, split on every character
// that is not A-Z or 0-9; the name is a company when one of the tokens is in
// the entity list. "Smith L.L.C." → "SMITH LLC" → company; "Cobb" does not
// contain the token CO, so it is a person.
package entity

// tokens is the entity token list shared with the provider.
var tokens = map[string]struct{}{}

// Tokens returns the entity tokens, in the order the rule lists them.
func Tokens() []string { return append([]string(nil), tokenList...) }

var tokenList = []string{
	"LLC", "INC", "INCORPORATED", "CORP", "CORPORATION", "CO", "COMPANY", "TRUST", "TR",
	"LP", "LLP", "LTD", "LIMITED", "PLLC", "PC", "HOLDINGS", "PARTNERS", "PARTNERSHIP",
	"ASSOCIATES", "ENTERPRISES", "PROPERTIES", "INVESTMENTS", "GROUP", "FOUNDATION", "BANK",
}

// longest is the length of the longest token: longer words cannot match.
var longest int

func init() {
	for _, t := range tokenList {
		tokens[t] = struct{}{}
		longest = max(longest, len(t))
	}
}

// IsEntity reports whether name (typically first and last name joined with a
// space) contains an entity token.
func IsEntity(name string) bool {
	return isEntity([]byte(name)) // no copy for short names: the conversion does not escape
}

// IsEntityBytes is IsEntity for a byte slice; it does not allocate.
func IsEntityBytes(name []byte) bool {
	return isEntity(name)
}

func isEntity(name []byte) bool {
	var tok [16]byte
	n := 0
	for _, b := range name {
		switch c := class[b]; c {
		case dot:
			// "L.L.C." → "LLC"
		case sep:
			if n > 0 && n <= longest && maybeToken(tok[0], tok[n-1], n) {
				if _, ok := tokens[string(tok[:n])]; ok { // no allocation for a map key
					return true
				}
			}
			n = 0
		default:
			tok[n&15] = c
			n++
		}
	}
	if n > 0 && n <= longest && maybeToken(tok[0], tok[n-1], n) {
		_, ok := tokens[string(tok[:n])]
		return ok
	}
	return false
}

// class maps each byte for tokenising: A-Z and 0-9 as themselves (a-z
// uppercased), '.' to dot (deleted), everything else to sep (space, comma,
// '&', bytes of non-ASCII letters).
var class [256]byte

const (
	sep = 0
	dot = 1
)

func init() {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z':
			class[c] = byte(c) - 'a' + 'A'
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			class[c] = byte(c)
		case c == '.':
			class[c] = dot
		}
	}
}

// quick rejects most words before the map lookup: it holds, per token
// length, the first and last letters of the tokens of that length.
var quick [16][2]uint64 // bit (c-'0') of [n][0]: first byte c; [n][1]: last byte

func init() {
	for _, t := range tokenList {
		quick[len(t)][0] |= 1 << (t[0] - '0')
		quick[len(t)][1] |= 1 << (t[len(t)-1] - '0')
	}
}

func maybeToken(first, last byte, n int) bool {
	return quick[n][0]&(1<<(first-'0')) != 0 && quick[n][1]&(1<<(last-'0')) != 0
}
