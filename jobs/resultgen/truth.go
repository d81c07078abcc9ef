package resultgen

import (
	"fmt"
	"slices"
	"strings"
)

// The truth of every number of a case, computed from what its cells say
// (so that it stays right when a file is shrunk): the rule of the package
// documentation, in one place.

// Truth is what a number is.
type Truth struct {
	Number   string
	Callable bool
	// Reasons say why it may not be called, most telling first.
	Reasons []Reason
	// Type is its line type as the files state it.
	Type LineType
	// Exported: the number is a phone of the exported file (Files[0]).
	Exported bool
}

// NotMobile reports a line the files say is not a mobile (a landline, or
// VoIP).
func (t *Truth) NotMobile() bool { return t.Type == TypeLandline || t.Type == TypeVoIP }

// Reason is one reason a number may not be called.
type Reason struct {
	Kind Kind2
	List string // the list, for list reasons
	// Where the reason was read: file, 1-based data row, column, text.
	File, Column, Text string
	Row                int
	How                string
}

// Kind2 is a kind of reason.
type Kind2 int

// Kinds of reason, in the order a failure names them.
const (
	OnCompanyList Kind2 = iota
	Restricted
	Invalid
	FlaggedOn
	RowNotChecked
	UnknownOn
	FutureDate
	Stale
	NoDate
	OnlyInText
	Abroad
)

var kindNames = [...]string{"on the company's list", "a restriction stated in the file", "invalid number",
	"flagged", "row not checked (scope column)", "answer unknown", "scrub date in the future", "stale scrub (over 31 days)",
	"scrub date unknown", "number only in free text", "outside the US (its country's lists not checked)"}

func (k Kind2) String() string { return kindNames[k] }

// Class names the reason's class for statistics: its kind, its list, and
// the mechanism when it is one worth telling apart.
func (r Reason) Class() string {
	s := r.Kind.String()
	if r.List != "" {
		s += " / " + listName(r.List)
	}
	if r.How != "" {
		s += " / " + generalHow(r.How)
	}
	return s
}

func (r Reason) String() string {
	s := r.Class()
	if r.File != "" {
		s += fmt.Sprintf(" (%s row %d, column %q = %q)", r.File, r.Row, r.Column, r.Text)
	}
	return s
}

// listName is a list key in words.
func listName(list string) string {
	switch {
	case list == "federal":
		return "DNC registry"
	case list == "state:*":
		return "state lists"
	case strings.HasPrefix(list, "state:"):
		return "state list"
	case strings.HasPrefix(list, "internal:"):
		return "vendor's internal list"
	}
	return list
}

// generalHow drops the particulars (row numbers) from a mechanism.
func generalHow(how string) string {
	if i := strings.Index(how, " from row "); i >= 0 {
		return how[:i] + " late in the file"
	}
	if strings.HasPrefix(how, "not checked, written ") {
		return "not checked (blank or a mark)"
	}
	return how
}

// obs is what one row of one file says about one number.
type obs struct {
	file     *File
	number   string
	row      int
	answers  []sourced
	reasons  []Reason // restrictions, invalid
	typ      LineType
	notCheck bool
	dated    bool
	age      int
}

type sourced struct {
	Answer
	col  string
	text string
	how  string
}

// Truth is the truth of every number in the case's files, by number.
func (c *Case) Truth() map[string]*Truth {
	byNumber := map[string][]*obs{}
	mentions := map[string]Reason{}
	reports := map[*File][]string{}
	for _, f := range c.Files {
		for _, col := range f.Cols {
			reports[f] = append(reports[f], col.Reports...)
		}
		for ri := range f.Rows {
			for _, o := range f.rowObs(ri) {
				byNumber[o.number] = append(byNumber[o.number], o.obs)
			}
			for _, m := range f.mentions(ri) {
				mentions[m.Text] = m
			}
		}
	}
	company := map[string]bool{}
	for _, n := range c.Company {
		company[n] = true
	}
	out := map[string]*Truth{}
	for n, list := range byNumber {
		t := judge(n, list, required(list, reports), company[n])
		t.Exported = slices.ContainsFunc(list, func(o *obs) bool { return o.file == c.Files[0] })
		out[n] = t
	}
	for n, r := range mentions {
		if out[n] == nil {
			r.Text = n
			out[n] = &Truth{Number: n, Reasons: []Reason{r}}
		}
	}
	return out
}

// required are the lists a number's answers must clear: the registry and
// the litigator list always, and every list a file that holds the number
// reports (a state list, DMA, the vendor's own list...).
func required(list []*obs, reports map[*File][]string) map[string]bool {
	req := map[string]bool{"federal": true, "litigator": true}
	for _, o := range list {
		for _, l := range reports[o.file] {
			req[l] = true
		}
	}
	return req
}

// numberObs is an observation of a number.
type numberObs struct {
	number string
	obs    *obs
}

// rowObs are the phones of row ri with what the row says of each.
func (f *File) rowObs(ri int) []numberObs {
	row := f.Rows[ri]
	var out []numberObs
	for j, col := range f.Cols {
		if col.Role != RolePhone || row[j].M == nil {
			continue
		}
		for _, n := range row[j].M.numbers() {
			o := &obs{file: f, number: n, row: ri, typ: row[j].M.Type}
			for k, c := range f.Cols {
				// Its own columns (its slot's; in a long layout, the
				// row's), and the row's.
				if c.Slot == col.Slot || c.Slot == "" {
					o.read(f, ri, c, row[k])
				}
			}
			o.dateFromFile(f)
			out = append(out, numberObs{n, o})
		}
	}
	return out
}

// numbers are the phones a phone cell holds: its one, or its several.
func (m *Meaning) numbers() []string {
	if m.Phone != "" {
		return []string{m.Phone}
	}
	return m.Phones
}

// read takes in what cell says.
func (o *obs) read(f *File, ri int, c Column, cell Cell) {
	m := cell.M
	if m == nil {
		return
	}
	where := Reason{File: f.Name, Row: ri + 1, Column: c.Header, Text: cell.Text, How: m.How}
	for _, a := range m.Answers {
		if m.For != nil && !slices.Contains(m.For, o.number) {
			break // about other numbers of the row
		}
		o.answers = append(o.answers, sourced{a, c.Header, cell.Text, m.How})
	}
	if m.Restrict != "" {
		r := where
		r.Kind, r.How = Restricted, "in a "+roleWord(c.Role)+" column"
		o.reasons = append(o.reasons, r)
	}
	if m.Invalid {
		r := where
		r.Kind = Invalid
		o.reasons = append(o.reasons, r)
	}
	if m.Type != TypeUnknown && (o.typ == TypeUnknown || m.Type == TypeMobile) {
		o.typ = m.Type
	}
	if m.NotChecked {
		o.notCheck = true
	}
	if m.Date != nil && m.Date.Known && (!o.dated || m.Date.Age > o.age) {
		o.dated, o.age = true, m.Date.Age // the row's and the phone's own: the older
	}
}

// dateFromFile dates the row by its file: a job record of ours dates every
// row (a row's own older date counting: an answer reused); the date the
// person gave at import dates the rows without one of their own.
func (o *obs) dateFromFile(f *File) {
	switch {
	case f.Record != nil && (!o.dated || *f.Record > o.age):
		o.dated, o.age = true, *f.Record
	case f.Stated != nil && !o.dated:
		o.dated, o.age = true, *f.Stated
	}
}

func roleWord(r Role) string {
	switch r {
	case RoleNotes:
		return "notes"
	case RoleCode:
		return "result code"
	case RoleValidity:
		return "validity"
	}
	return "status, tag or disposition"
}

// mentions are the numbers written in the free text of row ri.
func (f *File) mentions(ri int) []Reason {
	var out []Reason
	for j, c := range f.Cols {
		if m := f.Rows[ri][j].M; m != nil {
			for _, n := range m.Mentions {
				out = append(out, Reason{Kind: OnlyInText, File: f.Name, Row: ri + 1, Column: c.Header, Text: n})
			}
		}
	}
	return out
}

// judge applies the rule to everything the files say of number n.
func judge(n string, list []*obs, required map[string]bool, onCompany bool) *Truth {
	t := &Truth{Number: n}
	if onCompany {
		t.Reasons = append(t.Reasons, Reason{Kind: OnCompanyList})
	}
	if abroadCodes[n[:min(3, len(n))]] {
		// A US scrub answers for US numbers only: Canada's and the
		// Caribbean's own lists are checked by nothing here.
		t.Reasons = append(t.Reasons, Reason{Kind: Abroad})
	}
	for _, o := range list {
		t.Reasons = append(t.Reasons, o.reasons...)
		// A line any file calls mobile is a mobile.
		if o.typ == TypeMobile || t.Type == TypeUnknown {
			t.Type = o.typ
		}
	}
	lists := make([]string, 0, len(required))
	for l := range required {
		lists = append(lists, l)
	}
	slices.Sort(lists)
	for _, o := range list {
		for _, a := range o.answers {
			if a.Value == Flagged {
				t.Reasons = append(t.Reasons, Reason{Kind: FlaggedOn, List: a.List, File: o.file.Name, Row: o.row + 1,
					Column: a.col, Text: a.text, How: a.how})
			}
		}
	}
	for _, l := range lists {
		if r, ok := answered(l, list); !ok {
			t.Reasons = append(t.Reasons, r)
		}
	}
	slices.SortStableFunc(t.Reasons, func(a, b Reason) int { return int(a.Kind) - int(b.Kind) })
	t.Callable = len(t.Reasons) == 0
	return t
}

// answered reports whether list has a fresh clean answer for the number;
// when not (and nothing flags it), the reason says what is missing.
func answered(list string, obs []*obs) (Reason, bool) {
	best := Reason{Kind: UnknownOn, List: list, How: "no column answers it"}
	for _, o := range obs {
		for _, a := range o.answers {
			if !covers(a.List, list) {
				continue
			}
			r := Reason{List: list, File: o.file.Name, Row: o.row + 1, Column: a.col, Text: a.text, How: a.how}
			switch {
			case a.Value == Flagged:
				return r, true // told by the flagged reason
			case a.Value == Unknown:
				r.Kind = UnknownOn
			case o.notCheck:
				r.Kind = RowNotChecked
			case !o.dated:
				r.Kind, r.How = NoDate, ""
			case o.age < 0:
				r.Kind, r.How = FutureDate, ""
			case o.age > maxAge:
				r.Kind, r.How = Stale, ""
			default:
				return r, true
			}
			if best.File == "" || r.Kind < best.Kind {
				best = r
			}
		}
	}
	return best, false
}

// maxAge is the oldest scrub, in days, that still answers.
const maxAge = 31

// covers reports whether an answer on list a answers list want: a state's
// list is answered by its own column or by one over all states.
func covers(a, want string) bool {
	return a == want || a == "state:*" && strings.HasPrefix(want, "state:")
}
