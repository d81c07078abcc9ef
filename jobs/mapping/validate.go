package mapping

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs"
)

// Severity tells a problem the provider rejects from advice it does not give.
type Severity int

const (
	// Error: the provider answers 400 with this problem.
	Error Severity = iota
	// Warning: the provider accepts the mapping but the result will suffer.
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText makes a Severity print as a word in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads the word back.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	default:
		return fmt.Errorf("mapping: unknown severity %q", b)
	}
	return nil
}

// Problem codes. The first six are the cases of the spec's mapping-validation
// table (plus an invalid mode); the rest are warnings.
const (
	CodeInvalidMode     = "invalid_mode"
	CodeMissingNames    = "missing_names"
	CodeNoAddressGroup  = "no_address_group"
	CodeUnknownKey      = "unknown_key"
	CodeIncompleteGroup = "incomplete_group"
	CodeColumnAbsent    = "column_absent"
	CodeMissingPhone    = "missing_phone"
	// CodeBlankColumn: a mapped column blank on every row (the provider
	// accepts it, but the field it fills is empty: not a complete mapping).
	CodeBlankColumn = "blank_column"

	CodeMostlyBlank     = "mostly_blank"
	CodeNamesIgnored    = "names_ignored"
	CodeDuplicateColumn = "duplicate_column"
)

// Problem is one thing wrong with a mapping, tagged with the keys and group it
// concerns so that a window can show it next to its field.
type Problem struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Keys     []string `json:"keys,omitempty"`   // the service keys concerned
	Group    string   `json:"group,omitempty"`  // the group concerned, when one is
	Column   string   `json:"column,omitempty"` // the CSV header concerned, when one is
	// Suggestion is the did-you-mean of an unknown key (a valid key) or of an
	// absent column (a header of the file that differs only in case/spacing).
	Suggestion string `json:"suggestion,omitempty"`
	Message    string `json:"message"`
}

func (p Problem) String() string { return p.Message }

// Result is every problem of a mapping at once, errors first in the spec's
// order, then warnings.
type Result struct {
	Problems []Problem `json:"problems"`
}

// OK reports whether the provider would accept the mapping (warnings allowed).
func (r Result) OK() bool {
	for _, p := range r.Problems {
		if p.Severity == Error {
			return false
		}
	}
	return true
}

// Errors returns the problems the provider rejects.
func (r Result) Errors() []Problem { return r.filter(Error) }

// Warnings returns the advice the provider does not give.
func (r Result) Warnings() []Problem { return r.filter(Warning) }

func (r Result) filter(s Severity) []Problem {
	var out []Problem
	for _, p := range r.Problems {
		if p.Severity == s {
			out = append(out, p)
		}
	}
	return out
}

// ForKey returns the problems that concern a key (for display next to it).
func (r Result) ForKey(key string) []Problem {
	var out []Problem
	for _, p := range r.Problems {
		for _, k := range p.Keys {
			if k == key {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// Stats are per-column blank counts of the file (from the inspection), used
// for the mostly-blank warning.
type Stats struct {
	Rows   int            // data rows
	Blanks map[string]int // header → rows where the column is blank
	// Companies are the rows whose mapped names are a company's; a list of
	// companies only may leave the last name blank everywhere.
	Companies int
}

// StatsFrom builds Stats from an inspection's headers, row count and
// per-column blank counts (input.Inspection.Headers, Rows, Blanks).
func StatsFrom(headers []string, rows int, blanks []int) Stats {
	s := Stats{Rows: rows, Blanks: make(map[string]int, len(headers))}
	for i, h := range headers {
		if i < len(blanks) {
			s.Blanks[h] = blanks[i]
		}
	}
	return s
}

// Option adjusts Validate.
type Option func(*options)

type options struct {
	stats          *Stats
	blankThreshold float64
	// the values' checks (WithValues)
	checkValues bool
	values      [][]string
	confirmed   []string
}

// WithStats gives Validate the blank counts of the file.
func WithStats(s Stats) Option { return func(o *options) { o.stats = &s } }

// WithBlankThreshold sets the share of blank rows (0..1, default 0.5) above
// which a mapped column is reported as mostly blank.
func WithBlankThreshold(f float64) Option { return func(o *options) { o.blankThreshold = f } }

// Validate checks a trace mapping against the file's headers with the
// provider's rules and reports every problem at once: the cases of the spec's
// table (missing names in normal mode, no full address group, unknown key
// with a did-you-mean, incomplete group, mapped column absent from the file)
// and warnings the provider does not give (a mapped column that is mostly
// blank, names mapped in enhanced mode, one header mapped to two keys).
//
// Keys mapped to "" count as not mapped (see Mapping.Clean). mode "" is the
// provider's default, normal. Headers are compared exactly, as the provider
// compares them.
func Validate(headers []string, m Mapping, mode jobs.Mode, opts ...Option) Result {
	o := options{blankThreshold: 0.5}
	for _, f := range opts {
		f(&o)
	}
	r := Result{Problems: []Problem{}}
	if mode == "" {
		mode = jobs.ModeNormal
	}
	if mode != jobs.ModeNormal && mode != jobs.ModeEnhanced {
		r.add(Problem{Code: CodeInvalidMode, Message: fmt.Sprintf("The mode must be %q or %q, not %q.", jobs.ModeNormal, jobs.ModeEnhanced, mode)})
		mode = jobs.ModeNormal
	}

	// 1. missing required names.
	if mode == jobs.ModeNormal {
		var missing []string
		for _, k := range nameKeys {
			if m[k] == "" {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			r.add(Problem{Code: CodeMissingNames, Keys: missing, Group: GroupName, Message: missingNames(missing)})
		}
	}

	// 2. no full address group.
	propMapped, propMissing := groupState(m, propertyKeys)
	mailMapped, mailMissing := groupState(m, mailingKeys)
	if len(propMissing) > 0 && len(mailMissing) > 0 {
		r.add(Problem{Code: CodeNoAddressGroup, Keys: append(append([]string(nil), propertyKeys...), mailingKeys...), Group: GroupAddress,
			Message: "Choose the columns of one whole address: the property's street address, city, state and ZIP code, " +
				"or the same four of the mailing address."})
	}

	// 3. unknown keys, in a stable order.
	for _, k := range m.SortedKeys() {
		if m[k] == "" || isTraceKey(k) {
			continue
		}
		s := closestKey(k, jobs.KindTrace)
		r.add(Problem{Code: CodeUnknownKey, Keys: []string{k}, Column: m[k], Suggestion: s, Message: unknownKey(k, s)})
	}

	// 4. incomplete groups.
	incomplete(&r, GroupProperty, propMapped, propMissing)
	incomplete(&r, GroupMailing, mailMapped, mailMissing)

	// 5. mapped columns absent from the file.
	absent(&r, headers, m, isTraceKey)
	// A column blank on every row fills nothing.
	blankColumns(&r, m, mode, o)
	// Values that do not fit their field.
	addValueProblems(&r, headers, m, o)

	// Warnings.
	if mode == jobs.ModeEnhanced {
		var named []string
		for _, k := range nameKeys {
			if m[k] != "" {
				named = append(named, k)
			}
		}
		if len(named) > 0 {
			r.add(Problem{Code: CodeNamesIgnored, Severity: Warning, Keys: named, Group: GroupName,
				Message: fmt.Sprintf("Enhanced mode searches by address only: the names in %s are not searched (they still tell which rows are companies).", labels(named))})
		}
	}
	warnCommon(&r, headers, m, o)
	return r
}

// ValidateDNC checks a jobs.KindDNC mapping: the key phone mapped to a column of the
// file, and no other key.
func ValidateDNC(headers []string, m Mapping, opts ...Option) Result {
	o := options{blankThreshold: 0.5}
	for _, f := range opts {
		f(&o)
	}
	r := Result{Problems: []Problem{}}
	if m[Phone] == "" {
		r.add(Problem{Code: CodeMissingPhone, Keys: []string{Phone}, Group: GroupPhone,
			Message: "Choose the column that holds the phone numbers."})
	}
	for _, k := range m.SortedKeys() {
		if m[k] == "" || k == Phone {
			continue
		}
		r.add(Problem{Code: CodeUnknownKey, Keys: []string{k}, Column: m[k], Suggestion: Phone, Message: unknownKey(k, Phone)})
	}
	absent(&r, headers, m, func(k string) bool { return k == Phone })
	blankColumns(&r, m, "", o)
	addValueProblems(&r, headers, m, o)
	warnCommon(&r, headers, m, o)
	return r
}

func (r *Result) add(p Problem) { r.Problems = append(r.Problems, p) }

// has reports a problem with code about column h.
func (r *Result) has(code, h string) bool {
	return slices.ContainsFunc(r.Problems, func(p Problem) bool { return p.Code == code && p.Column == h })
}

func isTraceKey(k string) bool {
	switch k {
	case FirstName, LastName, PropertyStreet, PropertyCity, PropertyState, PropertyZip,
		MailingStreet, MailingCity, MailingState, MailingZip:
		return true
	}
	return false
}

func groupState(m Mapping, keys []string) (mapped, missing []string) {
	for _, k := range keys {
		if m[k] != "" {
			mapped = append(mapped, k)
		} else {
			missing = append(missing, k)
		}
	}
	return mapped, missing
}

func incomplete(r *Result, group string, mapped, missing []string) {
	if len(mapped) == 0 || len(missing) == 0 {
		return
	}
	r.add(Problem{Code: CodeIncompleteGroup, Keys: append(append([]string(nil), mapped...), missing...), Group: group,
		Message: fmt.Sprintf("The %s needs all four parts or none: %s %s chosen, %s %s not. Choose the missing %s, or clear the others.",
			group, labels(mapped), isAre(len(mapped)), labels(missing), isAre(len(missing)), plural(len(missing), "column", "columns"))})
}

// absent reports each mapped column (of a valid key) that is not a header of
// the file, with the key and the available headers.
func absent(r *Result, headers []string, m Mapping, valid func(string) bool) {
	var set map[string]struct{}
	var avail string
	for _, k := range m.SortedKeys() {
		h := m[k]
		if h == "" || !valid(k) {
			continue
		}
		if set == nil {
			set = make(map[string]struct{}, len(headers))
			for _, x := range headers {
				set[x] = struct{}{}
			}
		}
		if _, ok := set[h]; ok {
			continue
		}
		if avail == "" {
			avail = quoteList(headers)
		}
		p := Problem{Code: CodeColumnAbsent, Keys: []string{k}, Column: h}
		hint := ""
		if s := looseHeader(h, headers); s != "" {
			p.Suggestion = s
			hint = fmt.Sprintf(" (did you mean %q?)", s)
		}
		p.Message = fmt.Sprintf("Column %q, chosen for %s, is not in this file%s. Its columns are %s.", h, Label(k), hint, avail)
		r.add(p)
	}
}

// maxListedHeaders is how many available headers a message lists (a file
// can have thousands of columns); the rest are counted.
const maxListedHeaders = 50

func quoteList(hs []string) string {
	if len(hs) == 0 {
		return "(none)"
	}
	var b strings.Builder
	for i, h := range hs[:min(len(hs), maxListedHeaders)] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('"')
		b.WriteString(h)
		b.WriteByte('"')
	}
	if len(hs) > maxListedHeaders {
		fmt.Fprintf(&b, ", … and %d more", len(hs)-maxListedHeaders)
	}
	return b.String()
}

// looseHeader finds a header equal to h once case, spaces and punctuation
// are ignored.
func looseHeader(h string, headers []string) string {
	want := compact(h)
	if want == "" {
		return ""
	}
	for _, x := range headers {
		if looseEqual(want, x) {
			return x
		}
	}
	return ""
}

// looseEqual reports whether compact(h) == c without allocating.
func looseEqual(c, h string) bool {
	i := 0
	for _, r := range h {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			continue
		}
		r = unicode.ToLower(r)
		if i >= len(c) {
			return false
		}
		cr, n := utf8.DecodeRuneInString(c[i:])
		if cr != r {
			return false
		}
		i += n
	}
	return i == len(c)
}

// byColumn groups the known keys of m by the header they are mapped to,
// headers in the catalogue's key order (an unknown key is reported as
// such, not here).
func byColumn(m Mapping) (byHeader map[string][]string, order []string) {
	byHeader = map[string][]string{}
	for _, k := range m.SortedKeys() {
		h := m[k]
		if h == "" || !(isTraceKey(k) || k == Phone) {
			continue
		}
		if _, ok := byHeader[h]; !ok {
			order = append(order, h)
		}
		byHeader[h] = append(byHeader[h], k)
	}
	return byHeader, order
}

func warnCommon(r *Result, headers []string, m Mapping, o options) {
	// One header mapped to several keys.
	byHeader, order := byColumn(m)
	for _, h := range order {
		if ks := byHeader[h]; len(ks) > 1 {
			r.add(Problem{Code: CodeDuplicateColumn, Severity: Warning, Keys: ks, Column: h,
				Message: fmt.Sprintf("Column %q is chosen for both %s.", h, labels(ks))})
		}
	}
	// Mostly blank columns.
	if o.stats == nil || o.stats.Rows <= 0 {
		return
	}
	for _, h := range order {
		blank, ok := o.stats.Blanks[h]
		if !ok || blank <= 0 {
			continue
		}
		share := float64(blank) / float64(o.stats.Rows)
		if share < o.blankThreshold {
			continue
		}
		ks := byHeader[h]
		if blank >= o.stats.Rows && r.has(CodeBlankColumn, h) {
			continue // an error (blankColumns)
		}
		msg := fmt.Sprintf("Column %q, chosen for %s, is blank on %s of %s rows (%.0f%%): those rows are unlikely to match.",
			h, labels(ks), jobs.Thousands(int64(blank)), jobs.Thousands(int64(o.stats.Rows)), 100*share)
		switch {
		case blank >= o.stats.Rows && companyLastNames(ks, *o.stats):
			msg = fmt.Sprintf("Column %q, chosen for %s, is blank on every row: every row is a company, which needs no last name.", h, labels(ks))
		case blank >= o.stats.Rows:
			msg = fmt.Sprintf("Column %q, chosen for %s, is blank on every row: it adds nothing to the search.", h, labels(ks))
		}
		r.add(Problem{Code: CodeMostlyBlank, Severity: Warning, Keys: ks, Column: h, Message: msg})
	}
}

// blankColumns reports each mapped column that is blank on every row: a
// field mapped to it is not filled, so it does not count towards a
// complete mapping. It is an error where the mapping then lacks what the
// mode needs (a name in normal mode, the only complete address, the
// phone); elsewhere (an optional second address) a warning. A last name
// blank on a list of companies only is fine (a company's name goes whole
// in the first name).
func blankColumns(r *Result, m Mapping, mode jobs.Mode, o options) {
	if o.stats == nil || o.stats.Rows <= 0 {
		return
	}
	blank := func(k string) bool {
		n, ok := o.stats.Blanks[m[k]]
		return m[k] != "" && ok && n >= o.stats.Rows
	}
	// The address groups that stay complete once blank columns count as
	// not mapped.
	whole := 0
	for _, keys := range [][]string{propertyKeys, mailingKeys} {
		if _, missing := groupState(m, keys); len(missing) == 0 && !slices.ContainsFunc(keys, blank) {
			whole++
		}
	}
	byHeader, order := byColumn(m)
	for _, h := range order {
		ks := byHeader[h]
		if !blank(ks[0]) || companyLastNames(ks, *o.stats) {
			continue
		}
		needed := false
		for _, k := range ks {
			_, address := keyPart[k]
			needed = needed || k == Phone || (address && whole == 0) ||
				(mode == jobs.ModeNormal && (k == FirstName || k == LastName))
		}
		if needed {
			r.add(Problem{Code: CodeBlankColumn, Keys: ks, Column: h,
				Message: fmt.Sprintf("Column %q, chosen for %s, is blank on every row: choose the column that holds %s.", h, labels(ks), what(ks))})
		}
	}
}

// companyLastNames: the keys are the last name alone, and every row is a
// company's (a company's name goes whole in the first name).
func companyLastNames(keys []string, st Stats) bool {
	return len(keys) == 1 && keys[0] == LastName && st.Companies >= st.Rows
}

// what names what the columns of keys hold, for "choose the column that
// holds …".
func what(keys []string) string {
	if len(keys) != 1 {
		return "them"
	}
	if w, ok := holds[keys[0]]; ok {
		return w
	}
	if kp, ok := keyPart[keys[0]]; ok {
		return "the " + strings.TrimSuffix(kp.group, " address") + " " + holds[kp.part]
	}
	return "them"
}

// holds are what the columns of the fields hold, in words.
var holds = map[string]string{
	FirstName: "the owners' first names", LastName: "the owners' last names", Phone: "the phone numbers",
	"street": "street addresses", "city": "cities", "state": "states", "zip": "ZIP codes",
}

// labels names keys as the window does: "Owner first name and Owner last
// name".
func labels(keys []string) string {
	ls := make([]string, len(keys))
	for i, k := range keys {
		ls[i] = Label(k)
	}
	return joinAnd(ls)
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// missingNames is the missing-names problem: what to choose, and the
// other way (enhanced mode, which needs no name).
func missingNames(missing []string) string {
	what := "the column of " + labels(missing)
	if len(missing) > 1 {
		what = "the columns of " + labels(missing)
	}
	return "Normal mode searches by the owner's name: choose " + what + ", or choose Enhanced mode, which searches by the address alone."
}

// unknownKey is the problem of a key the service does not have (a typing
// mistake on the command line, an old preset).
func unknownKey(k, suggestion string) string {
	return fmt.Sprintf("%q is not a field of the service; did you mean %s (%q)?", k, Label(suggestion), suggestion)
}

func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// closestKey names the valid key closest to an unknown one: first by the
// auto-mapper's reading of it as a header ("zipcode" → property_zip), then by
// edit distance, ties broken by the catalogue's order.
func closestKey(unknown string, kind jobs.Kind) string {
	keys := Keys(kind)
	if k, score := bestKeyForHeader(unknown, kind); score >= 0.6 {
		return k
	}
	u := strings.ToLower(unknown)
	best, bestD := keys[0], 1<<30
	for _, k := range keys {
		d := levenshtein(u, k)
		// A key whose distinctive word ("zip" of property_zip, "first" of
		// first_name) the unknown key resembles is closer than the raw
		// distance says.
		for _, part := range strings.Split(k, "_") {
			if part == "name" || part == "property" || part == "mailing" {
				continue
			}
			if d2 := levenshtein(u, part) + 1; d2 < d {
				d = d2
			}
		}
		if d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

func levenshtein(a, b string) int {
	if len(a) > 64 {
		a = a[:64]
	}
	var prevBuf, curBuf [65]int
	prev, cur := prevBuf[:len(b)+1], curBuf[:len(b)+1]
	if len(b) > 64 {
		prev, cur = make([]int, len(b)+1), make([]int, len(b)+1)
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			if v := prev[j] + 1; v < c {
				c = v
			}
			if v := cur[j-1] + 1; v < c {
				c = v
			}
			cur[j] = c
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
