package client

import (
	"encoding/base64"
	"encoding/hex"
	"sort"
	"strings"
)

// redactor removes the API key from text that came from the server or the
// transport, in the forms a server may echo it: as sent, in another case,
// split by spaces, dashes or other separators, percent-encoded,
// JSON-escaped (\u0041), as HTML character references, in hexadecimal, in
// base64 (standard or URL alphabet, at any alignment, wrapped on lines),
// and any run of minFragment or more of its bytes. What is found becomes
// "[redacted]".
type redactor struct {
	key  string
	skel string   // the key's letters and digits, lower-cased
	hex  string   // hexadecimal of the key
	b64  []string // the key's base64 forms that do not depend on the bytes around it

	// For the quick test of mayHold: the bytes of the key and of its
	// skeleton, and the shortest base64 form.
	inKey, inSkel [256]bool
	minB64        int
}

func newRedactor(key string) *redactor {
	r := &redactor{key: key}
	if key == "" {
		return r
	}
	var sk strings.Builder
	for i := 0; i < len(key); i++ {
		if c := lowerASCII(key[i]); isAlnum(c) {
			sk.WriteByte(c)
		}
	}
	r.skel = sk.String()
	r.hex = hex.EncodeToString([]byte(key))
	for i := 0; i < len(key); i++ {
		r.inKey[key[i]] = true
	}
	for i := 0; i < len(r.skel); i++ {
		r.inSkel[r.skel[i]] = true
	}
	seen := map[string]bool{}
	for _, v := range []string{key, strings.ToLower(key), strings.ToUpper(key)} {
		for align := range 3 {
			// The key after align bytes of something else: the first
			// characters mix those bytes in, the last incomplete group
			// mixes in whatever follows; the rest is the key's alone.
			buf := append(make([]byte, align), v...)
			enc := base64.StdEncoding.EncodeToString(buf)
			start := []int{0, 2, 3}[align]
			end := 4 * (len(buf) / 3)
			if end-start < 8 {
				continue
			}
			for _, p := range []string{enc[start:end], strings.NewReplacer("+", "-", "/", "_").Replace(enc[start:end])} {
				if !seen[p] {
					seen[p] = true
					r.b64 = append(r.b64, p)
					if r.minB64 == 0 || len(p) < r.minB64 {
						r.minB64 = len(p)
					}
				}
			}
		}
	}
	return r
}

// redact returns s with every form of the key replaced.
func (r *redactor) redact(s string) string {
	if r == nil || r.key == "" || len(s) < min(minFragment, len(r.key)) {
		return s // too short to hold the key or any part masked
	}
	if strings.Contains(s, r.key) {
		s = strings.ReplaceAll(s, r.key, "[redacted]")
	}
	if !r.mayHold(s) {
		return s
	}
	units := decodeUnits(s)
	var spans [][2]int
	// Letters and digits only, lower-cased: the key in any case, split
	// by any separators, or escaped.
	sk, skIdx := view(units, func(c byte) (byte, bool) { c = lowerASCII(c); return c, isAlnum(c) })
	if len(r.skel) >= minFragment {
		spans = appendFragments(spans, sk, skIdx, units, r.skel)
	} else if len(r.skel) >= 4 {
		spans = appendFound(spans, sk, skIdx, units, r.skel)
	}
	spans = appendFound(spans, sk, skIdx, units, r.hex)
	// Base64 is case-sensitive; line breaks may wrap it.
	if len(r.b64) > 0 {
		bv, bIdx := view(units, func(c byte) (byte, bool) { return c, c != ' ' && c != '\n' && c != '\r' && c != '\t' })
		for _, p := range r.b64 {
			spans = appendFound(spans, bv, bIdx, units, p)
		}
	}
	if len(spans) > 0 {
		s = replaceSpans(s, spans)
	}
	return maskKeyFragments(s, r.key)
}

// mayHold is a quick test, in one pass without allocating, that rules out
// most text: without escapes, the key (or a part masked) can be in s only
// if s has a run of minFragment bytes of the key, or of the key's letters
// and digits (separators between them aside), or a run of hex or base64
// characters as long as the key's forms.
func (r *redactor) mayHold(s string) bool {
	var raw, skel, hexRun, b64 int
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' || c == '\\' || c == '&' {
			return true
		}
		raw = countIf(r.inKey[c], raw)
		if lc := lowerASCII(c); isAlnum(lc) {
			skel = countIf(r.inSkel[lc], skel)
			hexRun = countIf(isHex(lc), hexRun)
		}
		b64 = base64Run(c, b64)
		if r.enough(raw, skel, hexRun, b64) {
			return true
		}
	}
	return len(r.skel) < minFragment && len(r.skel) >= 4 && skel >= len(r.skel)
}

// base64Run is the length of the run of base64 characters after c, run
// before it; white space neither adds to it nor ends it.
func base64Run(c byte, run int) int {
	switch {
	case isAlnum(c) || c == '+' || c == '/' || c == '-' || c == '_' || c == '=':
		return run + 1
	case c != ' ' && c != '\n' && c != '\r' && c != '\t':
		return 0
	}
	return run
}

// enough reports whether the runs counted so far may be the key: a
// fragment of it, of its skeleton, of its hex form, or a base64 run long
// enough to encode it.
func (r *redactor) enough(raw, skel, hexRun, b64 int) bool {
	return raw >= minFragment || skel >= minFragment && len(r.skel) >= minFragment || hexRun >= len(r.hex) ||
		r.minB64 > 0 && b64 >= r.minB64
}

func countIf(ok bool, n int) int {
	if ok {
		return n + 1
	}
	return 0
}

// unit is one character of text as a server may have encoded it: the byte
// it stands for (0 for anything that is not ASCII) and where it is in the
// text.
type unit struct {
	c          byte
	start, end int
}

// decodeUnits reads s undoing percent-encoding (%41), JSON and C escapes
// (\u0041, \x41) and HTML character references (&#65; &#x41;).
func decodeUnits(s string) []unit {
	units := make([]unit, 0, len(s))
	for i := 0; i < len(s); {
		c, n := s[i], 1
		switch {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			c, n = byte(unhex(s[i+1:i+3])), 3
		case c == '\\' && i+5 < len(s) && s[i+1] == 'u' && allHex(s[i+2:i+6]):
			v := unhex(s[i+2 : i+6])
			c, n = asciiOrZero(v), 6
		case c == '\\' && i+3 < len(s) && s[i+1] == 'x' && allHex(s[i+2:i+4]):
			c, n = byte(unhex(s[i+2:i+4])), 4
		case c == '&' && i+3 < len(s) && s[i+1] == '#':
			if v, l, ok := charRef(s[i:]); ok {
				c, n = asciiOrZero(v), l
			}
		}
		units = append(units, unit{c: c, start: i, end: i + n})
		i += n
	}
	return units
}

// charRef reads an HTML numeric character reference at the start of s.
func charRef(s string) (v, n int, ok bool) {
	i, base := 2, 10
	if i < len(s) && (s[i] == 'x' || s[i] == 'X') {
		i, base = 3, 16
	}
	start := i
	for i < len(s) && i-start < 7 && (base == 16 && isHex(s[i]) || base == 10 && s[i] >= '0' && s[i] <= '9') {
		if base == 16 {
			v = v*16 + int(unhexDigit(s[i]))
		} else {
			v = v*10 + int(s[i]-'0')
		}
		i++
	}
	if i == start || i >= len(s) || s[i] != ';' {
		return 0, 0, false
	}
	return v, i + 1, true
}

func asciiOrZero(v int) byte {
	if v < 0x80 {
		return byte(v)
	}
	return 0
}

// view keeps the units keep accepts (as it maps them) and, for each byte
// of the result, the index of its unit.
func view(units []unit, keep func(byte) (byte, bool)) (string, []int) {
	var b strings.Builder
	idx := make([]int, 0, len(units))
	for i, u := range units {
		if c, ok := keep(u.c); ok {
			b.WriteByte(c)
			idx = append(idx, i)
		}
	}
	return b.String(), idx
}

// appendFound adds the span of text of every occurrence of pat in v.
func appendFound(spans [][2]int, v string, idx []int, units []unit, pat string) [][2]int {
	if pat == "" {
		return spans
	}
	for off := 0; ; {
		i := strings.Index(v[off:], pat)
		if i < 0 {
			return spans
		}
		i += off
		spans = append(spans, [2]int{units[idx[i]].start, units[idx[i+len(pat)-1]].end})
		off = i + len(pat)
	}
}

// appendFragments adds the span of every run of at least minFragment bytes
// of v that occurs in key.
func appendFragments(spans [][2]int, v string, idx []int, units []unit, key string) [][2]int {
	for i := 0; i+minFragment <= len(v); {
		l := 0
		for j := i + minFragment; j <= len(v) && strings.Contains(key, v[i:j]); j++ {
			l = j - i
		}
		if l == 0 {
			i++
			continue
		}
		spans = append(spans, [2]int{units[idx[i]].start, units[idx[i+l-1]].end})
		i += l
	}
	return spans
}

// replaceSpans replaces each span (overlapping ones merged) with
// "[redacted]".
func replaceSpans(s string, spans [][2]int) string {
	sort.Slice(spans, func(i, j int) bool { return spans[i][0] < spans[j][0] })
	var b strings.Builder
	pos := 0
	for k := 0; k < len(spans); {
		start, end := spans[k][0], spans[k][1]
		for k++; k < len(spans) && spans[k][0] < end; k++ {
			end = max(end, spans[k][1])
		}
		start = max(start, pos)
		b.WriteString(s[pos:start])
		b.WriteString("[redacted]")
		pos = end
	}
	b.WriteString(s[pos:])
	return strings.ToValidUTF8(b.String(), "")
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func allHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isHex(s[i]) {
			return false
		}
	}
	return true
}

func unhexDigit(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

func unhex(s string) int {
	v := 0
	for i := 0; i < len(s); i++ {
		v = v*16 + int(unhexDigit(s[i]))
	}
	return v
}
