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
	return isEntity(name)
}

// IsEntityBytes is IsEntity for a byte slice; it does not allocate.
func IsEntityBytes(name []byte) bool {
	return isEntity(name)
}

func isEntity[S string | []byte](name S) bool {
	var tok [16]byte // longest token is 12 letters; a longer word cannot match
	n := 0
	over := false
	flush := func() bool {
		defer func() { n, over = 0, false }()
		if n == 0 || over {
			return false
		}
		_, ok := tokens[string(tok[:n])] // no allocation: the compiler optimises map lookups on string(bytes)
		return ok
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '.':
			continue // "L.L.C." → "LLC"
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		default:
			// Any other character (space, comma, '&', or a byte of a non-ASCII
			// letter) separates tokens.
			if flush() {
				return true
			}
			continue
		}
		if n < longest {
			tok[n] = c
			n++
		} else {
			over = true
		}
	}
	return flush()
}
