package layout

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// FileKind is what a file is: the result of a kind of job, or a list.
type FileKind string

const (
	KindTrace            = FileKind(jobs.KindTrace) // a skip-trace result: people and their phones
	KindDNC              = FileKind(jobs.KindDNC)   // a DNC scrub result: one number a row and its flags
	KindInput   FileKind = "input"                  // a list of owners, before tracing
	KindUnknown FileKind = ""
)

// Role is what a column holds.
type Role string

const (
	RoleOther       Role = "other"
	RolePhone       Role = "phone"        // a phone number (a slot's number, or its raw twin)
	RolePhoneType   Role = "phone_type"   // a phone's kind
	RolePhoneDetail Role = "phone_detail" // more about one phone (carrier, score, last seen)
	RoleFlag        Role = "flag"         // a DNC, litigator or combined flag, or the number's status
	RoleMatch       Role = "match_status"
	RoleFirstName   Role = "first_name"
	RoleLastName    Role = "last_name"
	RoleFullName    Role = "full_name"
	RoleEmail       Role = "email"
	RoleEntity      Role = "entity" // the owner is a company
	RoleStreet      Role = "street"
	RoleStreet2     Role = "street2"
	RoleCity        Role = "city"
	RoleState       Role = "state"
	RoleZip         Role = "zip"
	RoleAddress     Role = "address" // a whole address on one line
	// RoleScope says whether a row (or one phone) was scrubbed at all
	// ("Scrubbed Y/N", "DNC check status: timeout"): where it says not,
	// the file's answers for it are unknown.
	RoleScope Role = "scope"
	// RoleScrubDate is when a row's answers were scrubbed ("Date
	// Scrubbed", a merged result's source_date).
	RoleScrubDate Role = "scrub_date"
	// A DNC vendor's calling time for the row's phones (see VendorTime):
	// its calling window, the called person's UTC offset, "do not call
	// today".
	RoleCallWindow  Role = "call_window"
	RoleUTCOffset   Role = "utc_offset"
	RoleNoCallToday Role = "no_call_today"
)

// Column is one column of a result and what the layout makes of it.
type Column struct {
	Index  int    `json:"index"`
	Header string `json:"header"`
	Role   Role   `json:"role"`
	// Group is whose column it is: "" for the row's main person (the
	// first owner), "owner 2", "contact 1"...
	Group string `json:"group,omitempty"`
	// Qualifier and SlotIndex place a phone, phone type, flag or detail
	// column in a slot: "Mobile 2" has qualifier "mobile" and slot index 2.
	// For type and flag columns, an empty qualifier and an index of -1 mean
	// "any".
	Qualifier string `json:"qualifier,omitempty"`
	SlotIndex int    `json:"slot_index"` // -1 none
	// Kind, Convention and Inverted describe a flag column: which list,
	// how the values are written, and whether "yes" means clean (a
	// "Callable" column).
	Kind       FlagKind   `json:"-"`
	Convention Convention `json:"convention,omitempty"`
	Inverted   bool       `json:"inverted,omitempty"`
	// Implied is the phone kind a phone column's name gives ("Mobile 1"),
	// or that a yes/no type column says yes to ("Wireless": 1/0).
	Implied PhoneType `json:"implied_type,omitempty"`
	// DateOrder is how a scrub date column writes numeric dates.
	DateOrder DateOrder `json:"date_order,omitempty"`
	// Verdict marks a column that gives the service's verdict over the
	// lists it checked (a result code, "Callable", a status in words): a
	// clean verdict is clean on the state lists too, and any other leaves
	// them unknown.
	Verdict bool `json:"verdict,omitempty"`
	// MayDate marks a date column that may be when the row was scrubbed
	// ("DNC Date"): it dates the row only where it is older than the
	// row's scrub date.
	MayDate bool `json:"may_date,omitempty"`
	// Normalized marks a phone column holding the number as the service
	// normalised it (phone_normalized).
	Normalized bool `json:"normalized,omitempty"`
	// Parts marks a phone column whose cells hold several numbers
	// ("Other Phones": "5125550101; 5125550102"): the most a cell holds
	// (at most maxParts), one slot each.
	Parts int `json:"parts,omitempty"`
	// Place is "property" or "mailing" for address columns.
	Place string `json:"place,omitempty"`
	// Input marks the person's own data echoed in the result.
	Input bool `json:"input,omitempty"`
	// Corrected marks a column whose role the person set.
	Corrected bool `json:"corrected,omitempty"`
}

// MarshalJSON adds the flag kind for flag columns.
func (c Column) MarshalJSON() ([]byte, error) {
	type plain Column
	out := struct {
		plain
		Kind string `json:"kind,omitempty"`
	}{plain: plain(c)}
	if c.Role == RoleFlag || c.Convention == ConvListed {
		out.Kind = c.Kind.String()
	}
	return json.Marshal(out)
}

// Slot is one phone of a row: the column of its number and the columns that
// describe it.
type Slot struct {
	Key       string    `json:"key"`   // "1", "mobile 2", "contact 1 2", "primary"
	Label     string    `json:"label"` // "Phone 1", "Mobile 2", "Contact 1 phone 2"
	Group     string    `json:"group,omitempty"`
	Qualifier string    `json:"qualifier,omitempty"`
	Index     int       `json:"index"`
	Number    int       `json:"number"`       // column of the number
	Raw       int       `json:"raw"`          // column of the number as first written; -1 none
	Type      int       `json:"type"`         // column of its kind; -1 none
	Implied   PhoneType `json:"implied_type"` // its kind from the column name ("Mobile 1"), or ""
	Flags     []int     `json:"flags"`        // flag columns that apply to it, row-level ones included
	Scope     []int     `json:"scope"`        // scope columns that apply to it, row-level ones included
	// Columns are every column that belongs to this phone alone: number,
	// raw twin, type, its own flags and details. A phone left out of an
	// export is blanked in all of them.
	Columns []int `json:"columns"`
	// Part is, in a column of several numbers a cell (Column.Parts), which
	// of them the slot is (1 the first); 0 the cell's one number.
	Part int `json:"part,omitempty"`
	// Dates are the scrub date columns named for this phone ("Phone 2
	// Scrub Date"): they date its answers alone, beside the row's.
	Dates []int `json:"scrub_dates,omitempty"`
}

// Person is where a person's names are: -1 for a name not in the file.
type Person struct {
	Group string `json:"group,omitempty"`
	First int    `json:"first"`
	Last  int    `json:"last"`
	Full  int    `json:"full"`
	// ListFirst, ListLast and ListFull are the group's other name columns
	// (-1: none) — a result echoes the list's own beside the names it
	// found: a row the service found no one for leaves its names blank,
	// and the person is named as the list names them.
	ListFirst int `json:"list_first"`
	ListLast  int `json:"list_last"`
	ListFull  int `json:"list_full"`
}

// AddressColumns are where an address's parts are: -1 for a part not in the
// file.
type AddressColumns struct {
	Street  int `json:"street"`
	Street2 int `json:"street2"`
	City    int `json:"city"`
	State   int `json:"state"`
	Zip     int `json:"zip"`
	Full    int `json:"full"`
}

func (a AddressColumns) empty() bool {
	return a.Street < 0 && a.Street2 < 0 && a.City < 0 && a.State < 0 && a.Zip < 0 && a.Full < 0
}

// Question is something the layout is not sure of, for the person to answer
// with a Correction.
type Question struct {
	Topic   string   `json:"topic"` // "phone", "match_status", "flag", "marks", "callable", "attach", "date", "words"
	Columns []string `json:"columns,omitempty"`
	Message string   `json:"message"`
	// Blocks says the question bears on whether phones may be called: a
	// callable export refuses while it is open (or, by the person's
	// choice, leaves out the phones it touches).
	Blocks bool `json:"blocks,omitempty"`
	// Guess says the layout read the columns by a guess the person has not
	// confirmed: every phone whose answer rests on them is unsure
	// (BlockUnsure) until they answer.
	Guess bool `json:"guess,omitempty"`
}

// Layout is how a result file is read: which column holds what.
type Layout struct {
	Kind      FileKind `json:"kind"`
	Signature string   `json:"signature"`
	Headers   []string `json:"headers"`
	Columns   []Column `json:"columns"`
	Slots     []Slot   `json:"slots"`
	// RowFlags are flag columns that name no phone: they apply to every
	// phone of the row (PropStream's "Litigator", a DNC result's "dnc").
	RowFlags []int `json:"row_flags"`
	// Dates are the columns saying when a row was scrubbed (the oldest
	// wins); none: the file's own date (its job record) dates every row
	// (but a phone's own, Slot.Dates).
	Dates []int `json:"scrub_dates"`
	// Caps are date columns that may be the row's or one phone's (a date
	// among the phones' columns naming none, dating the phone before it):
	// they make every phone's date no later, and date none.
	Caps []int `json:"scrub_caps,omitempty"`
	// VendorTime are a DNC vendor's calling-time columns (RoleCallWindow,
	// RoleUTCOffset, RoleNoCallToday): they apply to every phone of the row.
	VendorTime []int          `json:"vendor_time,omitempty"`
	Match      int            `json:"match"`  // match status column; -1 none
	Entity     int            `json:"entity"` // company-owner column; -1 none
	People     []Person       `json:"people"`
	Emails     []int          `json:"emails"`
	Property   AddressColumns `json:"property"`
	Mailing    AddressColumns `json:"mailing"`
	Reports    Kinds          `json:"reports"` // the lists its flags answer
	Questions  []Question     `json:"questions"`
	Notes      []string       `json:"notes"`
	Corrected  bool           `json:"corrected"` // a Correction was applied
	// Profiled says the values were read over the whole file (Options.Profile).
	Profiled bool `json:"profiled"`
	values   map[int]map[string]Flag
	guess    map[int]bool // columns read by a guess (Question.Guess)
	now      time.Time
}

// Sure reports whether the layout has no open question.
func (l *Layout) Sure() bool { return len(l.Questions) == 0 }

// Blocking are the open questions that bear on whether phones may be
// called.
func (l *Layout) Blocking() []Question {
	var out []Question
	for _, q := range l.Questions {
		if q.Blocks {
			out = append(out, q)
		}
	}
	return out
}

// FileQuestions are the questions open about one file's layout.
type FileQuestions struct {
	File      string     `json:"file"`
	Questions []Question `json:"questions"`
}

// QuestionError: a callable list would rest on files whose layouts have
// open questions that bear on callability. Nothing was written; the person
// answers them ("Check the columns…") or chooses to leave out the phones
// they touch.
type QuestionError struct {
	Files []FileQuestions
}

func (e *QuestionError) Error() string {
	var b strings.Builder
	b.WriteString("SkipDesk is not sure how to read ")
	for i, f := range e.Files {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(filepath.Base(f.File))
		b.WriteString(": ")
		for j, q := range f.Questions {
			if j > 0 {
				b.WriteString("; ")
			}
			b.WriteString(q.Message)
		}
	}
	b.WriteString(". Nothing was written: answer in Check the columns (or leave out the phones these columns decide)")
	return b.String()
}

// Options tune Detect.
type Options struct {
	// InputHeaders are the header of the file that was uploaded, when
	// known: the result's first columns of these names are the person's
	// own data echoed, never phones of the result.
	InputHeaders []string
	// Correction, when set, is applied over what detection finds.
	Correction *Correction
	// Corrections, when Correction is nil, gives the correction the
	// person made for a header signature (nil: none). Every reader of
	// results passes the same one, so that an answer given once applies
	// wherever the file is read.
	Corrections func(signature string) *Correction
	// Profile holds every column's values over the whole file; nil: the
	// sample stands for the file.
	Profile *Profile
	// Now is the time the layout judges dates by (a scrub date in the
	// future); zero: the time of the call.
	Now time.Time
}

// Signature is the hash under which corrections of this header are kept: the
// header names lower-cased with spaces trimmed and collapsed, in order.
func Signature(headers []string) string {
	h := sha256.New()
	for i, s := range headers {
		if i > 0 {
			h.Write([]byte{0x1f})
		}
		h.Write([]byte(normHeader(s)))
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// Detect reads a layout from a header, a sample of rows (the first hundred
// or so) and, in opts.Profile, every column's values over the whole file. It
// works from general rules on header words and values, not from a list of
// known files; see the package documentation.
func Detect(headers []string, sample [][]string, opts Options) *Layout {
	c := opts.Correction
	if c == nil && opts.Corrections != nil {
		c = opts.Corrections(Signature(headers))
	}
	prof := opts.Profile
	if prof == nil {
		prof = ProfileOf(len(headers), sample)
	}
	l := &Layout{
		Kind: KindUnknown, Signature: Signature(headers), Headers: slices.Clone(headers),
		Match: -1, Entity: -1, Profiled: opts.Profile != nil, now: opts.Now,
	}
	if l.now.IsZero() {
		l.now = time.Now()
	}
	hs := make([]header, len(headers))
	for i, h := range headers {
		hs[i] = readHeader(h)
	}
	inputs := inputColumns(headers, hs, opts.InputHeaders)
	var qs []Question
	for i := range headers {
		col, q := classify(i, &hs[i], columnValues(prof, sample, i))
		col.Input = inputs[i]
		l.Columns = append(l.Columns, col)
		if q != nil {
			qs = append(qs, *q)
		}
	}
	l.listedSiblings(hs, prof, sample)
	l.findRestrictions(hs, prof, sample)
	l.narrowVerdicts(hs, prof, sample)
	qs = append(qs, l.unknownPhoneFlags(hs, prof, sample)...)
	qs = append(qs, l.loneState(hs, prof, sample)...)
	qs = append(qs, l.unnamedFlags(hs, prof, sample)...)
	qs = append(qs, l.registryDates(hs, prof, sample)...)
	qs = slices.DeleteFunc(qs, func(q Question) bool {
		// A column named for a phone that holds statements is read as one.
		return q.Topic == "phone" && len(q.Columns) == 1 && l.Columns[l.column(q.Columns[0])].Role == RoleFlag
	})
	if c != nil {
		c.apply(l, hs, prof, sample)
	}
	l.assemble(prof, sample, &qs, c)
	return l
}

// columnValues are column i's values over the whole file (the profile), or
// the sample's when the profile skipped it.
func columnValues(p *Profile, sample [][]string, i int) []ValueN {
	if v := p.values(i); v != nil || p != nil && i < len(p.Cols) && !p.Cols[i].Skipped {
		return v
	}
	var out []ValueN
	for _, rec := range sample {
		if i < len(rec) {
			if v := strings.TrimSpace(rec[i]); v != "" {
				out = append(out, ValueN{V: v, N: 1})
			}
		}
	}
	return out
}

// ProfileColumns are the columns whose values Detect needs over the whole
// file: all but those it reads as phones, names, addresses and e-mails
// (whose first rows tell what they are). A caller profiles these, then
// detects again with the Profile.
func (l *Layout) ProfileColumns() []int {
	var out []int
	for i, c := range l.Columns {
		switch c.Role {
		case RolePhone, RoleFirstName, RoleLastName, RoleFullName, RoleEmail, RoleStreet, RoleStreet2,
			RoleCity, RoleZip, RoleAddress:
			continue
		}
		out = append(out, i)
	}
	return out
}

// inputColumns marks the person's own columns: those named as input ("Input
// Data: …"), every column before the last such one (the file echoes the
// upload first), the upload's headers when known, and a column whose name
// the result repeats with "result_" in front.
func inputColumns(headers []string, hs []header, upload []string) []bool {
	in := make([]bool, len(headers))
	lastPrefixed := -1
	for i := range hs {
		if hs[i].input {
			in[i] = true
			lastPrefixed = i
		}
	}
	for i := 0; i < lastPrefixed; i++ {
		in[i] = true
	}
	if len(upload) > 0 && len(upload) <= len(headers) {
		same := true
		for i, u := range upload {
			if strings.TrimSpace(u) != strings.TrimSpace(strings.TrimPrefix(headers[i], "\ufeff")) {
				same = false
				break
			}
		}
		if same {
			for i := range upload {
				in[i] = true
			}
		}
	}
	byName := map[string]int{}
	for i, h := range headers {
		byName[normHeader(h)] = i
	}
	for _, h := range headers {
		n := normHeader(h)
		if rest, ok := strings.CutPrefix(n, "result_"); ok {
			if j, ok := byName[rest]; ok {
				in[j] = true
			}
		}
	}
	return in
}

func quoteJoin(hs []string) string {
	q := make([]string, len(hs))
	for i, h := range hs {
		q[i] = strconv.Quote(h)
	}
	return strings.Join(q, ", ")
}

func (l *Layout) headersOf(cols []int) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = l.Headers[c]
	}
	return out
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

// dated reports whether column i is a scrub date column: the row's or a
// phone's.
func (l *Layout) dated(i int) bool {
	if slices.Contains(l.Dates, i) {
		return true
	}
	return slices.ContainsFunc(l.Slots, func(s Slot) bool { return slices.Contains(s.Dates, i) })
}

// HasDates reports a file whose rows (or phones) say when they were
// scrubbed.
func (l *Layout) HasDates() bool {
	return len(l.Dates) > 0 || slices.ContainsFunc(l.Slots, func(s Slot) bool { return len(s.Dates) > 0 })
}
