package mapping

import (
	"regexp"
	"strings"

	"github.com/skipdesk/skipdesk/jobs/entity"
)

// SplitKind is what a split column holds.
type SplitKind string

const (
	// SplitName: a full owner name ("John A Smith", "SMITH JOHN", "Smith, John").
	SplitName SplitKind = "name"
	// SplitAddress: a one-line address ("123 Main St, Springfield, IL 62704").
	SplitAddress SplitKind = "address"
)

// NameOrder is how a full-name column writes its names.
type NameOrder string

const (
	FirstLast      NameOrder = "first last"  // John A Smith
	LastFirst      NameOrder = "last first"  // SMITH JOHN A (county records)
	LastCommaFirst NameOrder = "last, first" // Smith, John A
)

// Split is a suggestion to derive several fields from one column. The upload
// then carries the derived columns (jobs/prepare writes them).
type Split struct {
	Kind       SplitKind `json:"kind"`
	Column     string    `json:"column"` // the header of the source column
	Group      string    `json:"group"`  // the group the derived keys belong to
	Keys       []string  `json:"keys"`   // derived keys, in the order Apply returns values
	Order      NameOrder `json:"order,omitempty"`
	Confidence float64   `json:"confidence"`
	// Example shows the first sample value and what it becomes, for display.
	Example     string   `json:"example,omitempty"`
	ExampleInto []string `json:"example_into,omitempty"`
}

// Columns are the headers of the derived columns: the keys themselves
// ("first_name"), made distinct from the file's own headers with a numeric
// suffix when the file already has such a header.
func (s Split) Columns(headers []string) []string {
	taken := make(map[string]bool, len(headers))
	for _, h := range headers {
		taken[h] = true
	}
	out := make([]string, len(s.Keys))
	for i, k := range s.Keys {
		name := k
		for n := 2; taken[name]; n++ {
			name = k + "_" + itoa(n)
		}
		taken[name] = true
		out[i] = name
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}

// Apply derives the values of s.Keys from one value of the source column.
// ok is false when the value could not be split (an address that does not
// parse): the values are then the whole value as street (or first name) and
// blanks, so nothing is lost.
func (s Split) Apply(v string) (vals []string, ok bool) {
	v = strings.TrimSpace(v)
	switch s.Kind {
	case SplitAddress:
		a, ok := parseAddress(v)
		if !ok {
			return []string{v, "", "", ""}, v == ""
		}
		return []string{a.street, a.city, a.state, a.zip}, true
	default:
		f, l := SplitFullName(v, s.Order)
		return []string{f, l}, true
	}
}

var (
	honorifics = map[string]bool{"MR": true, "MRS": true, "MS": true, "MISS": true, "DR": true, "PROF": true}
	suffixes   = map[string]bool{"JR": true, "SR": true, "II": true, "III": true, "IV": true, "V": true, "ESQ": true, "MD": true, "PHD": true, "ETAL": true, "ET": true, "AL": true}
)

// SplitFullName splits a full name into first and last name. A company name
// (CONTRACT §2) stays whole in first_name with last_name blank, as the
// provider expects for companies. With two owners ("John & Mary Smith") the
// first owner is kept. Middle names, initials, titles and suffixes are dropped.
func SplitFullName(full string, order NameOrder) (first, last string) {
	full = strings.Join(strings.Fields(full), " ")
	if full == "" {
		return "", ""
	}
	if entity.IsEntity(full) {
		return full, ""
	}
	if order == LastCommaFirst || (order == "" && strings.Contains(full, ",")) {
		if i := strings.IndexByte(full, ','); i >= 0 {
			l := strings.TrimSpace(full[:i])
			fs := nameWords(cutOwner(full[i+1:]))
			if len(fs) == 0 {
				return "", l
			}
			return fs[0], l
		}
		order = FirstLast
	}
	ws := nameWords(full)
	switch len(ws) {
	case 0:
		return "", ""
	case 1:
		return "", ws[0]
	}
	if order == LastFirst {
		// SMITH JOHN & MARY → SMITH, JOHN
		rest := nameWords(cutOwner(strings.Join(ws[1:], " ")))
		if len(rest) == 0 {
			return "", ws[0]
		}
		return rest[0], ws[0]
	}
	// First Last: John & Mary Smith → John … Smith
	firstOwner := nameWords(cutOwner(full))
	f := ws[0]
	if len(firstOwner) > 0 {
		f = firstOwner[0]
	}
	return f, ws[len(ws)-1]
}

// cutOwner keeps the part of a name before a second owner ("&", "and", "/").
func cutOwner(s string) string {
	for _, sep := range []string{"&", "/", " and ", " AND ", " And "} {
		if i := strings.Index(s, sep); i >= 0 {
			s = s[:i]
		}
	}
	return s
}

// nameWords are a name's words without titles, suffixes, initials and
// connecting words.
func nameWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '&' || r == '/' }) {
		u := strings.ToUpper(strings.Trim(w, "."))
		if u == "" || honorifics[u] || suffixes[u] || u == "AND" || (len(u) == 1 && len(out) > 0) {
			continue
		}
		out = append(out, strings.Trim(w, ","))
	}
	return out
}

type address struct{ street, city, state, zip string }

var (
	// 123 Main St, Springfield, IL 62704 / 123 Main St, Apt 4, Springfield IL 62704-1234
	addrComma = regexp.MustCompile(`^(.+?),\s*([^,]+?)\s*,?\s+([A-Za-z]{2})\.?\s*,?\s*(\d{5}(?:-?\d{4})?)?$`)
	// 123 Main St Springfield IL 62704 (city found after the street suffix)
	addrPlain = regexp.MustCompile(`^(.+?)\s+([A-Za-z]{2})\.?\s+(\d{5}(?:-?\d{4})?)$`)
)

var streetSuffixes = map[string]bool{}

func init() {
	for _, s := range strings.Fields("ST STREET AVE AVENUE AV RD ROAD DR DRIVE LN LANE BLVD BOULEVARD CT COURT WAY PL PLACE CIR CIRCLE TER TERRACE PKWY PARKWAY HWY HIGHWAY TRL TRAIL LOOP SQ PLZ PIKE RUN PATH ROW XING CV COVE PT POINT") {
		streetSuffixes[s] = true
	}
}

// parseAddress splits a one-line US address. It needs a house number (or PO
// Box) at the start and a state code, and either commas between street and
// city or a street suffix (St, Ave, …) before the city.
func parseAddress(v string) (address, bool) {
	v = strings.TrimSpace(v)
	if !startsWithHouseNumber(v) {
		return address{}, false
	}
	if m := addrComma.FindStringSubmatch(v); m != nil && isState(m[3]) {
		return address{strings.TrimSpace(m[1]), strings.TrimSpace(m[2]), strings.ToUpper(m[3]), m[4]}, true
	}
	if strings.Contains(v, ",") {
		return address{}, false
	}
	m := addrPlain.FindStringSubmatch(v)
	if m == nil || !isState(m[2]) {
		return address{}, false
	}
	ws := strings.Fields(m[1])
	cut := -1
	for i := len(ws) - 2; i >= 1; i-- {
		if streetSuffixes[strings.ToUpper(strings.Trim(ws[i], "."))] {
			cut = i
			break
		}
	}
	if cut < 0 {
		return address{}, false
	}
	return address{strings.Join(ws[:cut+1], " "), strings.Join(ws[cut+1:], " "), strings.ToUpper(m[2]), m[3]}, true
}

// fullNameHeaders are headers of full-name columns, in compact form.
var fullNameHeaders = map[string]bool{}

func init() {
	for _, h := range []string{"Owner Name", "Owner", "Full Name", "Owner 1 Full Name", "Owner Full Name", "Owner 1 Name",
		"Owner Name 1", "Owner1", "Name", "Primary Owner", "Primary Owner Name", "Owner Names", "Contact Name",
		"Contact", "Grantee", "Grantee Name", "Buyer Name", "Mail Name", "Mailing Name", "Taxpayer Name", "Taxpayer",
		"Owner 1", "Deed Owner", "Owner Of Record", "Name Full", "Seller Name", "Lead Name", "Owner 1 Full", "Full Owner Name"} {
		fullNameHeaders[compact(h)] = true
	}
}

func suggestSplits(headers []string, sample [][]string, profiles []profile, m Mapping, usedCol map[int]bool) []Split {
	var out []Split
	// Full names, when neither name key is mapped.
	if m[FirstName] == "" && m[LastName] == "" {
		if best, score := bestColumn(headers, usedCol, func(i int, h string) float64 { return fullNameScore(h, profiles[i]) }); best >= 0 {
			sp := Split{Kind: SplitName, Column: headers[best], Group: GroupName, Keys: []string{FirstName, LastName},
				Order: guessOrder(sample, best), Confidence: round2(score)}
			sp.setExample(sample, best)
			out = append(out, sp)
			usedCol[best] = true
		}
	}
	// One-line addresses, for each group not fully mapped.
	for _, g := range []struct {
		name string
		keys []string
	}{{GroupProperty, propertyKeys}, {GroupMailing, mailingKeys}} {
		if _, missing := groupState(m, g.keys); len(missing) == 0 {
			continue
		}
		best, score := bestColumn(headers, usedCol, func(i int, h string) float64 {
			if profiles[i].fullAddr < 0.6 {
				return 0
			}
			return addressScore(h, g.name)
		})
		if best >= 0 {
			sp := Split{Kind: SplitAddress, Column: headers[best], Group: g.name, Keys: g.keys, Confidence: round2(score)}
			sp.setExample(sample, best)
			out = append(out, sp)
			usedCol[best] = true
		}
	}
	return out
}

// bestColumn is the column not used yet that scores highest (the first of
// equals), and its score; -1 when none scores above 0.
func bestColumn(headers []string, usedCol map[int]bool, score func(i int, h string) float64) (int, float64) {
	best, bestS := -1, 0.0
	for i, h := range headers {
		if usedCol[i] {
			continue
		}
		if s := score(i, h); s > bestS {
			best, bestS = i, s
		}
	}
	return best, bestS
}

// fullNameScore is how likely a column holds full names, by its header
// and its values (0: not).
func fullNameScore(h string, p profile) float64 {
	c := compact(h)
	s := 0.0
	switch {
	case fullNameHeaders[c]:
		s = 0.85
	case strings.Contains(c, "name") && !strings.Contains(c, "company") && !strings.Contains(c, "file") && !strings.Contains(c, "street"):
		s = 0.6
	}
	if s == 0 || p.n == 0 {
		return s
	}
	if p.multiWord < 0.5 || p.digits > 0.3 {
		return 0
	}
	return s + 0.05
}

// addressScore is how likely a column of one-line addresses is the
// group's, by its header (0: not).
func addressScore(h, group string) float64 {
	ws := words(h)
	mail, prop := has(ws, mailWords), has(ws, propWords)
	switch {
	case group == GroupMailing && mail, group == GroupProperty && prop:
		return 0.85
	case group == GroupProperty && !mail:
		return 0.7
	}
	return 0
}

func (s *Split) setExample(sample [][]string, col int) {
	for _, row := range sample {
		if col < len(row) && strings.TrimSpace(row[col]) != "" {
			s.Example = strings.TrimSpace(row[col])
			s.ExampleInto, _ = s.Apply(s.Example)
			return
		}
	}
}

// commonFirst are frequent US first names, to tell "John Smith" from
// "SMITH JOHN" in a full-name column.
var commonFirst = map[string]bool{}

func init() {
	for _, n := range strings.Fields(`JAMES JOHN ROBERT MICHAEL WILLIAM DAVID RICHARD JOSEPH THOMAS CHARLES CHRISTOPHER
DANIEL MATTHEW ANTHONY MARK DONALD STEVEN PAUL ANDREW JOSHUA KENNETH KEVIN BRIAN GEORGE TIMOTHY RONALD EDWARD JASON
JEFFREY RYAN JACOB GARY NICHOLAS ERIC JONATHAN STEPHEN LARRY JUSTIN SCOTT BRANDON BENJAMIN SAMUEL GREGORY ALEXANDER
FRANK PATRICK RAYMOND JACK DENNIS JERRY TYLER AARON JOSE ADAM NATHAN HENRY DOUGLAS ZACHARY PETER KYLE WALTER ETHAN
JEREMY HAROLD KEITH CHRISTIAN ROGER NOAH GERALD CARL TERRY SEAN AUSTIN ARTHUR LAWRENCE JESSE DYLAN BRYAN JOE JORDAN
BILLY BRUCE ALBERT WILLIE GABRIEL LOGAN ALAN JUAN WAYNE ROY RALPH RANDY EUGENE VINCENT RUSSELL ELIJAH LOUIS BOBBY
PHILIP JOHNNY MARY PATRICIA JENNIFER LINDA ELIZABETH BARBARA SUSAN JESSICA SARAH KAREN LISA NANCY BETTY MARGARET
SANDRA ASHLEY KIMBERLY EMILY DONNA MICHELLE CAROL AMANDA DOROTHY MELISSA DEBORAH STEPHANIE REBECCA SHARON LAURA
CYNTHIA KATHLEEN AMY ANGELA SHIRLEY ANNA BRENDA PAMELA EMMA NICOLE HELEN SAMANTHA KATHERINE CHRISTINE DEBRA RACHEL
CAROLYN JANET CATHERINE MARIA HEATHER DIANE RUTH JULIE OLIVIA JOYCE VIRGINIA VICTORIA KELLY LAUREN CHRISTINA JOAN
EVELYN JUDITH MEGAN ANDREA CHERYL HANNAH JACQUELINE MARTHA GLORIA TERESA ANN SARA MADISON FRANCES KATHRYN JANICE JEAN
ABIGAIL ALICE JULIA JUDY SOPHIA GRACE DENISE AMBER DORIS MARILYN DANIELLE BEVERLY ISABELLA THERESA DIANA NATALIE
BRITTANY CHARLOTTE MARIE KAYLA ALEXIS LORI JOSE CARLOS LUIS MIGUEL JORGE MARIO PEDRO ROSA CARMEN ANA`) {
		commonFirst[n] = true
	}
}

func guessOrder(sample [][]string, col int) NameOrder {
	comma, firstAtStart, firstAfter := 0, 0, 0
	for v := range columnValues(sample, col) {
		if entity.IsEntity(v) {
			continue
		}
		if strings.Contains(v, ",") {
			comma++
			continue
		}
		ws := nameWords(v)
		if len(ws) < 2 {
			continue
		}
		if commonFirst[strings.ToUpper(ws[0])] {
			firstAtStart++
		}
		if commonFirst[strings.ToUpper(ws[1])] {
			firstAfter++
		}
	}
	switch {
	case comma > 0 && comma >= firstAtStart+firstAfter:
		return LastCommaFirst
	case firstAfter > firstAtStart:
		return LastFirst
	}
	return FirstLast
}
