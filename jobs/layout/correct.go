package layout

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Correction is what the person says about a layout, applied over what
// detection finds. It names columns by their header, so that it can be kept
// under the header's Signature and applied to every later file of that
// header (as mapping presets are).
type Correction struct {
	Signature string `json:"signature"`
	// Columns set the role of columns, by header name (compared as the
	// signature compares: case and spaces ignored).
	Columns map[string]ColumnFix `json:"columns,omitempty"`
	// Values say how a flag column's values read, by header then by value
	// (compared ignoring case and spaces): "blank" or "" names the blank.
	Values map[string]map[string]Flag `json:"values,omitempty"`
}

// ColumnFix sets a column's role. Fields left out keep what the header's
// words say (a phone column named "Cell 2" is slot "mobile 2" unless told
// otherwise).
type ColumnFix struct {
	Role       Role       `json:"role"`
	Group      *string    `json:"group,omitempty"`
	Qualifier  *string    `json:"qualifier,omitempty"`
	SlotIndex  *int       `json:"slot_index,omitempty"` // -1 for any
	Kind       *FlagKind  `json:"kind,omitempty"`
	Inverted   *bool      `json:"inverted,omitempty"`
	Convention Convention `json:"convention,omitempty"`
	Type       PhoneType  `json:"type,omitempty"`  // the kind a phone column's name implies
	Place      string     `json:"place,omitempty"` // address columns: "property" or "mailing"
	Input      *bool      `json:"input,omitempty"`
	Normalized *bool      `json:"normalized,omitempty"`
	DateOrder  DateOrder  `json:"date_order,omitempty"` // scrub date columns: how numeric dates are written
}

// ParseCorrection reads a correction from JSON, checking its roles and kinds.
func ParseCorrection(data []byte) (*Correction, error) {
	var c Correction
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("layout: correction: %w", err)
	}
	for h, f := range c.Columns {
		if !knownRole(f.Role) {
			return nil, fmt.Errorf("layout: correction: column %q: unknown role %q", h, f.Role)
		}
	}
	return &c, nil
}

var roles = []Role{RoleOther, RolePhone, RolePhoneType, RolePhoneDetail, RoleFlag, RoleMatch, RoleFirstName,
	RoleLastName, RoleFullName, RoleEmail, RoleEntity, RoleStreet, RoleStreet2, RoleCity, RoleState, RoleZip,
	RoleAddress, RoleScope, RoleScrubDate}

func knownRole(r Role) bool { return slices.Contains(roles, r) }

// Of the columns named h, the first.
func (l *Layout) column(h string) int {
	n := normHeader(h)
	for i, x := range l.Headers {
		if normHeader(x) == n {
			return i
		}
	}
	return -1
}

// apply sets the corrected columns' roles and the person's readings of
// values.
func (c *Correction) apply(l *Layout, hs []header, p *Profile, sample [][]string) {
	l.Corrected = true
	for name, f := range c.Columns {
		i := l.column(name)
		if i < 0 {
			continue
		}
		col := &l.Columns[i]
		h := &hs[i]
		*col = Column{Index: i, Header: col.Header, Role: f.Role, Group: h.group, Qualifier: h.qual, SlotIndex: h.idx,
			Input: col.Input, Corrected: true, Implied: h.implied, Kind: col.Kind, Convention: col.Convention,
			Inverted: col.Inverted, Normalized: h.is(cNormalized), Place: col.Place, DateOrder: col.DateOrder}
		f.place(col)
		settlePhone(col, h, func() []ValueN { return columnValues(p, sample, i) })
		if f.DateOrder != "" {
			col.DateOrder = f.DateOrder
		} else if f.Role == RoleScrubDate && col.DateOrder == "" {
			col.DateOrder = dateOrderOf(columnValues(p, sample, i))
		}
		if f.Role == RoleFlag {
			f.flag(col, func() []ValueN { return columnValues(p, sample, i) }, h.is(cCode))
		}
	}
	for name, vals := range c.Values {
		i := l.column(name)
		if i < 0 {
			continue
		}
		if l.values == nil {
			l.values = map[int]map[string]Flag{}
		}
		m := map[string]Flag{}
		for v, f := range vals {
			if strings.EqualFold(strings.TrimSpace(v), "blank") {
				v = ""
			}
			m[fold(v)] = f
		}
		l.values[i] = m
	}
}

// settlePhone keeps what a corrected column's role makes of its reading: a
// phone's cells of several numbers read as such; a listed column's list
// only while it stays a phone of its own slot (said to be a phone of
// another slot, or no phone, its numbers are not read as on the list).
func settlePhone(col *Column, h *header, vals func() []ValueN) {
	if col.Role == RolePhone {
		col.Parts = partsOf(vals())
	}
	if col.Convention == ConvListed && (col.Role != RolePhone || col.Qualifier != listedQualifier(h)) {
		col.Kind, col.Convention = 0, ""
	}
}

// place sets what the answer says of where the column sits: its group,
// qualifier and slot, its type, whether it is the person's own or
// normalised, its place (property when none is known).
func (f ColumnFix) place(col *Column) {
	setGiven(&col.Group, f.Group)
	setGiven(&col.Qualifier, f.Qualifier)
	setGiven(&col.SlotIndex, f.SlotIndex)
	if f.Type != "" {
		col.Implied = f.Type
	}
	setGiven(&col.Input, f.Input)
	setGiven(&col.Normalized, f.Normalized)
	if f.Place != "" {
		col.Place = f.Place
	} else if col.Place == "" {
		col.Place = "property"
	}
}

// flag sets what the answer says of a flag column: its kind, whether yes
// means clean, its convention (read from its values when not given).
func (f ColumnFix) flag(col *Column, values func() []ValueN, code bool) {
	setGiven(&col.Kind, f.Kind)
	setGiven(&col.Inverted, f.Inverted)
	col.Convention = f.Convention
	if col.Convention == "" {
		col.Convention = conventionOf(col.Kind, values(), code)
	}
}

// setGiven sets *dst to the answer's value where the answer gives one.
func setGiven[T any](dst *T, given *T) {
	if given != nil {
		*dst = *given
	}
}

// answered drops the questions about the columns the person set: the
// questions of values (not read, marks, dates) are asked after the
// correction and stand as they are.
func (c *Correction) answered(l *Layout, qs []Question) []Question {
	fixed, valued := map[string]bool{}, map[string]bool{}
	for name := range c.Columns {
		if i := l.column(name); i >= 0 {
			fixed[normHeader(l.Headers[i])] = true
		}
	}
	for name := range c.Values {
		if i := l.column(name); i >= 0 {
			valued[normHeader(l.Headers[i])] = true
		}
	}
	out := qs[:0]
	for _, q := range qs {
		answered := len(q.Columns) > 0
		switch {
		case q.Guess: // how to read the columns, which the person said
		case q.Topic == "phone", q.Topic == "match_status", q.Topic == "attach", q.Topic == "callable":
		default:
			answered = false
		}
		for _, h := range q.Columns {
			// Words of a header SkipDesk does not know: the person said
			// what the column is, or what its values mean.
			if !fixed[normHeader(h)] && !(q.Topic == "words" && valued[normHeader(h)]) {
				answered = false
			}
		}
		if !answered {
			out = append(out, q)
		}
	}
	return out
}

// CorrectionFor writes the layout's current reading of the named columns as
// a correction, a starting point for the person's changes.
func (l *Layout) CorrectionFor(headers ...string) *Correction {
	c := &Correction{Signature: l.Signature, Columns: map[string]ColumnFix{}}
	for _, h := range headers {
		i := l.column(h)
		if i < 0 {
			continue
		}
		col := l.Columns[i]
		g, q, n, in := col.Group, col.Qualifier, col.SlotIndex, col.Input
		f := ColumnFix{Role: col.Role, Group: &g, Qualifier: &q, SlotIndex: &n, Input: &in, Type: col.Implied, Place: col.Place}
		if col.Role == RoleFlag {
			k, inv := col.Kind, col.Inverted
			f.Kind, f.Inverted, f.Convention = &k, &inv, col.Convention
		}
		c.Columns[l.Headers[i]] = f
	}
	return c
}
