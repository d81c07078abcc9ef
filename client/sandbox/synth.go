package sandbox

import (
	"bytes"
	"hash/fnv"
	"regexp"
	"strings"
)

// entityTokens decide company/LLC rows (docs/sandbox.md, "Company rows").
var entityTokens = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`LLC INC INCORPORATED CORP CORPORATION CO COMPANY TRUST TR LP LLP LTD
		LIMITED PLLC PC HOLDINGS PARTNERS PARTNERSHIP ASSOCIATES ENTERPRISES PROPERTIES INVESTMENTS
		GROUP FOUNDATION BANK`) {
		entityTokens[t] = true
	}
}

// isEntityName reports whether the name parts, joined with a space, contain
// an entity token: uppercase, '.' deleted, split on anything not A-Z or 0-9.
// It does not allocate.
func isEntityName(parts ...[]byte) bool {
	var tok [32]byte
	n := 0
	long := false
	check := func() bool {
		hit := n > 0 && !long && entityTokens[string(tok[:n])]
		n, long = 0, false
		return hit
	}
	for _, p := range parts {
		for _, c := range p {
			switch {
			case c == '.':
				continue
			case c >= 'a' && c <= 'z':
				c -= 'a' - 'A'
			case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			default:
				if check() {
					return true
				}
				continue
			}
			if n < len(tok) {
				tok[n] = c
				n++
			} else {
				long = true
			}
		}
		if check() { // the joining space ends a token
			return true
		}
	}
	return false
}

// rowHash is fnv32a of the fields joined with "\x1f".
func rowHash(fields [][]byte) uint32 {
	h := fnv.New32a()
	for i, f := range fields {
		if i > 0 {
			h.Write([]byte{0x1f})
		}
		h.Write(f)
	}
	return h.Sum32()
}

// outcome of one billable row.
const (
	outMatched = iota
	outNoMatch
	outError
)

func rowOutcome(fields [][]byte, matchRate float64) int {
	for _, f := range fields {
		if bytes.Contains(f, []byte("NOMATCH")) {
			return outNoMatch
		}
	}
	for _, f := range fields {
		if bytes.Contains(f, []byte("UPSTREAMERR")) {
			return outError
		}
	}
	if float64(rowHash(fields))/4294967296.0 < matchRate {
		return outMatched
	}
	return outNoMatch
}

// normalizePhone applies the shared normalisation rule: digits only, an
// extension after "x", "ext", "ext." or "#" dropped, a leading 1 of 11
// digits dropped; valid when 10 digits remain with area code and exchange
// starting 2-9.
func normalizePhone(s string) (string, bool) {
	if excelSci.MatchString(strings.TrimSpace(s)) {
		// Excel's scientific form (2.12555014E+9): the real digits are lost,
		// even when what is left happens to count ten.
		return "", false
	}
	low := strings.ToLower(s)
	if i := strings.IndexAny(low, "x#"); i >= 0 {
		low = low[:i] // "ext" contains the x: cut at its "e"
		low = strings.TrimSuffix(low, "e")
	}
	var d [16]byte
	n := 0
	for i := 0; i < len(low); i++ {
		c := low[i]
		if c >= '0' && c <= '9' {
			if n == len(d) {
				return "", false
			}
			d[n] = c
			n++
		}
	}
	digits := d[:n]
	if n == 11 && digits[0] == '1' {
		digits = digits[1:]
	}
	if len(digits) != 10 || digits[0] < '2' || digits[3] < '2' {
		return "", false
	}
	return string(digits), true
}

var excelSci = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?[eE][+-]?[0-9]+$`)

var (
	areaCodes  = []string{"212", "305", "312", "404", "512", "602", "615", "702", "713", "813", "919", "972"}
	phoneTypes = []string{"mobile", "landline", "voip"}
	firstNames = []string{"JAMES", "MARY", "ROBERT", "PATRICIA", "JOHN", "JENNIFER", "MICHAEL", "LINDA", "DAVID", "ELIZABETH"}
	lastNames  = []string{"SMITH", "JOHNSON", "WILLIAMS", "BROWN", "JONES", "GARCIA", "MILLER", "DAVIS", "RODRIGUEZ", "MARTINEZ"}
)

// contact is the synthetic result of a matched record.
type contact struct {
	first, last string
	phones      [][2]string // number, type
	emails      []string
}

// synthContact builds a deterministic fictional contact from the row hash:
// 1 to 3 phones of the form AAA55501XX, 0 to 2 e-mails at example.com.
func synthContact(h uint32, first, last string, entity bool) contact {
	first, last = strings.TrimSpace(first), strings.TrimSpace(last)
	if first == "" && last == "" {
		first, last = firstNames[h%10], lastNames[(h/10)%10]
	}
	c := contact{first: first, last: last}
	nPhones := 1 + int(h>>8)%3
	for i := 0; i < nPhones; i++ {
		x := h>>(4*uint(i)) + uint32(i)*7
		num := areaCodes[x%uint32(len(areaCodes))] + "55501" + string(rune('0'+(x/12)%10)) + string(rune('0'+(x/120)%10))
		typ := phoneTypes[(x/7)%3]
		if entity && i == 0 {
			typ = "landline"
		}
		c.phones = append(c.phones, [2]string{num, typ})
	}
	local := emailLocal(first, last)
	nEmails := int(h>>16) % 3
	for i := 0; i < nEmails; i++ {
		e := local + "@example.com"
		if i > 0 {
			e = local + "." + string(rune('0'+i)) + "@example.com"
		}
		c.emails = append(c.emails, e)
	}
	return c
}

func emailLocal(first, last string) string {
	var b strings.Builder
	for _, part := range []string{first, last} {
		dot := b.Len() > 0
		for _, r := range strings.ToLower(part) {
			if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
				if dot {
					b.WriteByte('.')
					dot = false
				}
				b.WriteRune(r)
			}
		}
	}
	if b.Len() == 0 {
		return "owner"
	}
	return b.String()
}

// dncFlags decides the registry result of a valid number from its hash:
// 20% on the DNC registry, 4% on the litigator list.
func dncFlags(number string) (dnc, litigator bool, lineType string) {
	h := fnv.New32a()
	h.Write([]byte(number))
	x := h.Sum32()
	return x%5 == 0, (x/5)%25 == 0, phoneTypes[(x/125)%3]
}
