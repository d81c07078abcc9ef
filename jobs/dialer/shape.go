package dialer

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Owner is one owner as a callable list carries it: names, addresses, the
// phones to load, and the scrub's dates.
type Owner struct {
	FirstName, LastName, FullName string
	// Names are every person the row names, each once ("Ann Lee; Bo
	// Lee"), as the people view shows them.
	Names             string
	Emails            []string
	Property, Mailing Address
	// PropertyLine and MailingLine are the addresses on one line each, as
	// a person reads them.
	PropertyLine, MailingLine string
	Phones                    []Phone
	ScrubDate, ValidUntil     string // YYYY-MM-DD
}

// Address is a postal address.
type Address struct{ Street, City, State, ZIP string }

// Phone is one phone with what the list says of it.
type Phone struct {
	Number    string   // the 10 digits
	Type      string   // as the result names it: mobile, landline, voip…
	Flags     []string // the lists it is on or the notes it carries ("clean" when none)
	TimeZone  string   // the called person's zone ("CT")
	CallFrom  string   // HH:MM local
	CallUntil string   // HH:MM local
	// In words, as the people view shows them: the number ("(512)
	// 555-0162"), its type ("Mobile") and whether it may be called or why
	// not ("OK to call").
	Display, TypeWords, Status string
}

// The values a column can hold. Phone values take a slot (phone.2) in a
// one-row-per-owner preset; text:… is written as it is; blank is empty.
var ownerValues = map[string]func(o *Owner) string{
	"first_name":       func(o *Owner) string { return o.FirstName },
	"last_name":        func(o *Owner) string { return o.LastName },
	"full_name":        func(o *Owner) string { return fullName(o) },
	"email":            func(o *Owner) string { return nth(o.Emails, 0) },
	"email2":           func(o *Owner) string { return nth(o.Emails, 1) },
	"property_address": func(o *Owner) string { return o.Property.Street },
	"property_city":    func(o *Owner) string { return o.Property.City },
	"property_state":   func(o *Owner) string { return o.Property.State },
	"property_zip":     func(o *Owner) string { return o.Property.ZIP },
	"mailing_address":  func(o *Owner) string { return o.Mailing.Street },
	"mailing_city":     func(o *Owner) string { return o.Mailing.City },
	"mailing_state":    func(o *Owner) string { return o.Mailing.State },
	"mailing_zip":      func(o *Owner) string { return o.Mailing.ZIP },
	"owner":            func(o *Owner) string { return ownerNames(o) },
	"property":         func(o *Owner) string { return o.PropertyLine },
	"mailing":          func(o *Owner) string { return o.MailingLine },
	"emails":           func(o *Owner) string { return strings.Join(o.Emails, ", ") },
	"scrub_date":       func(o *Owner) string { return o.ScrubDate },
	"valid_until":      func(o *Owner) string { return o.ValidUntil },
	"blank":            func(*Owner) string { return "" },
}

var phoneValues = map[string]bool{
	"phone": true, "phone_type": true, "phone_flags": true, "time_zone": true, "call_from": true, "call_until": true,
	"phone_display": true, "phone_type_words": true, "phone_status": true,
}

// ownerNames are the row's people, else its first and last names.
func ownerNames(o *Owner) string {
	if o.Names != "" {
		return o.Names
	}
	return fullName(o)
}

func fullName(o *Owner) string {
	if o.FullName != "" {
		return o.FullName
	}
	return strings.TrimSpace(o.FirstName + " " + o.LastName)
}

func nth(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}

// valueSpec is a column's value read.
type valueSpec struct {
	field string // the value's name; "text" for a constant
	slot  int    // the phone slot (1-based) of a per-owner phone value; 0 for the row's
	phone bool
	text  string
}

func parseValue(s string) (valueSpec, error) {
	if t, ok := strings.CutPrefix(s, "text:"); ok {
		return valueSpec{field: "text", text: t}, nil
	}
	if s == "tags" || s == "notes" {
		return valueSpec{field: s}, nil
	}
	if _, ok := ownerValues[s]; ok {
		return valueSpec{field: s}, nil
	}
	name, n, hasSlot := strings.Cut(s, ".")
	if phoneValues[name] {
		v := valueSpec{field: name, phone: true}
		if hasSlot {
			slot, err := strconv.Atoi(n)
			if err != nil || slot < 1 {
				return v, fmt.Errorf("value %q: the phone slot must be a number from 1", s)
			}
			v.slot = slot
		}
		return v, nil
	}
	return valueSpec{}, fmt.Errorf("value %q is not one SkipDesk fills (owner fields, phone values, tags, notes, text:…, blank)", s)
}

var placeholderRE = regexp.MustCompile(`\{([a-z_]+)\}`)

// placeholders a template may hold; the phone ones only in one row per
// phone.
var (
	rowPlaceholders   = map[string]bool{"scrub_date": true, "valid_until": true, "windows": true, "flags": true}
	phonePlaceholders = map[string]bool{"time_zone": true, "call_from": true, "call_until": true, "phone_type": true}
)

func checkTemplate(t, rows string) error {
	for _, m := range placeholderRE.FindAllStringSubmatch(t, -1) {
		switch {
		case rowPlaceholders[m[1]]:
		case phonePlaceholders[m[1]] && rows == PerPhone:
		case phonePlaceholders[m[1]]:
			return fmt.Errorf("{%s} is a phone's: use it with one row per phone, or {windows}", m[1])
		default:
			return fmt.Errorf("{%s} is not a placeholder SkipDesk fills", m[1])
		}
	}
	return nil
}

// Shape turns an owner into the preset's rows: one per phone, or one per
// owner with the phones in slots (an owner with more phones than slots
// continues on a further row, the owner's columns repeated: no phone is
// dropped). An owner without phones gives no row. Every phone must be a
// valid 10-digit number.
func (p *Preset) Shape(o Owner) ([][]string, error) {
	for _, ph := range o.Phones {
		if len(ph.Number) != 10 || phone.Key(ph.Number) == 0 {
			return nil, fmt.Errorf("phone %q is not 10 digits", ph.Number)
		}
	}
	var groups [][]Phone
	size := 1
	if p.Layout == PerOwner {
		size = p.Phones
	}
	for i := 0; i < len(o.Phones); i += size {
		groups = append(groups, o.Phones[i:min(i+size, len(o.Phones))])
	}
	out := make([][]string, 0, len(groups))
	for _, g := range groups {
		out = append(out, p.row(&o, g))
	}
	return out, nil
}

func (p *Preset) row(o *Owner, phones []Phone) []string {
	rec := make([]string, len(p.cells))
	for i, v := range p.cells {
		rec[i] = p.cell(o, phones, v)
	}
	return rec
}

// compile reads every column's value and the templates once (after check).
func (p *Preset) compile() {
	p.tags, p.notes = parseTemplate(p.Tags), parseTemplate(p.Notes)
	p.cells = p.cells[:0]
	for _, c := range p.Columns {
		for _, e := range p.expand(c) {
			v, _ := parseValue(e.Value) // checked
			p.cells = append(p.cells, v)
		}
	}
}

func (p *Preset) cell(o *Owner, phones []Phone, v valueSpec) string {
	switch {
	case v.field == "text":
		return v.text
	case v.field == "tags":
		return p.fill(p.tags, o, phones)
	case v.field == "notes":
		return p.fill(p.notes, o, phones)
	case v.phone:
		i := max(v.slot-1, 0)
		if i >= len(phones) {
			return ""
		}
		return p.phoneValue(&phones[i], v.field)
	}
	return ownerValues[v.field](o)
}

func (p *Preset) phoneValue(ph *Phone, field string) string {
	switch field {
	case "phone":
		if p.PhoneFormat == E164 {
			return "+1" + ph.Number
		}
		return ph.Number
	case "phone_type":
		return p.phoneType(ph.Type)
	case "phone_flags":
		return flagsText(ph.Flags)
	case "time_zone":
		return ph.TimeZone
	case "call_from":
		return ph.CallFrom
	case "phone_display":
		return ph.Display
	case "phone_type_words":
		return ph.TypeWords
	case "phone_status":
		return ph.Status
	}
	return ph.CallUntil
}

func (p *Preset) phoneType(t string) string {
	if p.PhoneTypes == nil {
		return t
	}
	if v, ok := p.PhoneTypes[strings.ToLower(t)]; ok {
		return v
	}
	if v, ok := p.PhoneTypes["*"]; ok {
		return v
	}
	return t
}

func flagsText(flags []string) string {
	if len(flags) == 0 {
		return "clean"
	}
	return strings.Join(flags, "; ")
}

// segment is a piece of a template: text, or a placeholder's name.
type segment struct {
	text, name string
}

// parseTemplate splits a template at its placeholders (once, when the
// preset is read: the rows only fill the pieces).
func parseTemplate(t string) []segment {
	var out []segment
	last := 0
	for _, m := range placeholderRE.FindAllStringSubmatchIndex(t, -1) {
		if m[0] > last {
			out = append(out, segment{text: t[last:m[0]]})
		}
		out = append(out, segment{name: t[m[2]:m[3]]})
		last = m[1]
	}
	if last < len(t) {
		out = append(out, segment{text: t[last:]})
	}
	return out
}

// fill writes a template's pieces for a row.
func (p *Preset) fill(t []segment, o *Owner, phones []Phone) string {
	var b strings.Builder
	for _, s := range t {
		switch s.name {
		case "":
			b.WriteString(s.text)
		case "scrub_date":
			b.WriteString(o.ScrubDate)
		case "valid_until":
			b.WriteString(o.ValidUntil)
		case "windows":
			b.WriteString(windowsText(p, phones))
		case "flags":
			b.WriteString(rowFlags(phones))
		default: // a phone's placeholder: one row per phone has one phone
			b.WriteString(p.phoneValue(&phones[0], s.name))
		}
	}
	return b.String()
}

func windowsText(p *Preset, phones []Phone) string {
	parts := make([]string, 0, len(phones))
	for i := range phones {
		ph := &phones[i]
		w := "no lawful hour"
		if ph.CallFrom != "" {
			w = ph.CallFrom + "–" + ph.CallUntil + " " + ph.TimeZone
		}
		parts = append(parts, p.phoneValue(ph, "phone")+" "+w)
	}
	return strings.Join(parts, "; ")
}

func rowFlags(phones []Phone) string {
	var all []string
	for _, ph := range phones {
		for _, f := range ph.Flags {
			if !containsFold(all, f) {
				all = append(all, f)
			}
		}
	}
	return flagsText(all)
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
