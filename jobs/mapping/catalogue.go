// Package mapping knows the service's fields and how a file's columns map onto
// them: the field catalogue, the automatic mapping from a file's headers (with
// a confidence per guess and suggestions to split full-name and single-line
// address columns), the validation of a mapping with the provider's rules (the
// five cases of the spec's mapping-validation table, plus warnings the
// provider does not give) and saved mapping presets.
//
// Nothing here reads files or talks to the network: callers pass the headers,
// a sample of rows and, for the blank-column warning, per-column blank counts.
package mapping

import (
	"sort"

	"github.com/skipdesk/skipdesk/jobs"
)

// Groups of the trace fields, as the spec names them.
const (
	GroupName     = "name"
	GroupProperty = "property address"
	GroupMailing  = "mailing address"
	GroupPhone    = "phone"
	// GroupAddress is not a spec group: it tags the problem "no full address
	// group", which concerns both address groups.
	GroupAddress = "address"
)

// Service field keys.
const (
	FirstName      = "first_name"
	LastName       = "last_name"
	PropertyStreet = "property_street"
	PropertyCity   = "property_city"
	PropertyState  = "property_state"
	PropertyZip    = "property_zip"
	MailingStreet  = "mailing_street"
	MailingCity    = "mailing_city"
	MailingState   = "mailing_state"
	MailingZip     = "mailing_zip"
	Phone          = "phone"
)

// Field is one service field a column can be mapped to.
type Field struct {
	Key   string // the key of column_mapping
	Label string // what the window shows
	Group string
}

var traceFields = []Field{
	{FirstName, "Owner first name", GroupName},
	{LastName, "Owner last name", GroupName},
	{PropertyStreet, "Property street address", GroupProperty},
	{PropertyCity, "Property city", GroupProperty},
	{PropertyState, "Property state", GroupProperty},
	{PropertyZip, "Property ZIP code", GroupProperty},
	{MailingStreet, "Mailing street address", GroupMailing},
	{MailingCity, "Mailing city", GroupMailing},
	{MailingState, "Mailing state", GroupMailing},
	{MailingZip, "Mailing ZIP code", GroupMailing},
}

var dncFields = []Field{
	{Phone, "Phone number", GroupPhone},
}

// Fields returns the fields of a kind of submission, in the spec's order.
func Fields(kind jobs.Kind) []Field {
	if kind == jobs.KindDNC {
		return append([]Field(nil), dncFields...)
	}
	return append([]Field(nil), traceFields...)
}

// Keys returns the field keys of a kind, in the spec's order.
func Keys(kind jobs.Kind) []string {
	fs := Fields(kind)
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Key
	}
	return out
}

// FieldByKey finds a field of either kind by its key.
func FieldByKey(key string) (Field, bool) {
	for _, f := range traceFields {
		if f.Key == key {
			return f, true
		}
	}
	for _, f := range dncFields {
		if f.Key == key {
			return f, true
		}
	}
	return Field{}, false
}

// Label is the human label of a key, or the key itself when unknown.
func Label(key string) string {
	if f, ok := FieldByKey(key); ok {
		return f.Label
	}
	return key
}

// GroupKeys returns the keys of a group, in the spec's order.
func GroupKeys(group string) []string {
	var out []string
	for _, f := range append(traceFields[:len(traceFields):len(traceFields)], dncFields...) {
		if f.Group == group {
			out = append(out, f.Key)
		}
	}
	return out
}

var (
	nameKeys     = []string{FirstName, LastName}
	propertyKeys = []string{PropertyStreet, PropertyCity, PropertyState, PropertyZip}
	mailingKeys  = []string{MailingStreet, MailingCity, MailingState, MailingZip}
)

// Mapping maps service field keys to CSV header names (column_mapping).
type Mapping map[string]string

// Clone returns a copy.
func (m Mapping) Clone() Mapping {
	out := make(Mapping, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Clean returns a copy without the keys mapped to an empty header: the window
// clears a field by setting it to "", and such a key must not be sent.
func (m Mapping) Clean() Mapping {
	out := make(Mapping, len(m))
	for k, v := range m {
		if v != "" {
			out[k] = v
		}
	}
	return out
}

// SortedKeys returns the mapped keys in the catalogue's order, unknown keys
// last in alphabetical order.
func (m Mapping) SortedKeys() []string {
	order := map[string]int{}
	for i, f := range append(traceFields[:len(traceFields):len(traceFields)], dncFields...) {
		order[f.Key] = i
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		oi, iok := order[keys[i]]
		oj, jok := order[keys[j]]
		switch {
		case iok && jok:
			return oi < oj
		case iok != jok:
			return iok
		}
		return keys[i] < keys[j]
	})
	return keys
}

// NameColumns returns the distinct headers mapped to first_name and
// last_name (in that order, blanks left out): the columns that decide which rows are company rows
// (CONTRACT §2). Nil when no name is mapped, in which case no row is a
// company row.
func (m Mapping) NameColumns() []string {
	var out []string
	for _, k := range nameKeys {
		if h := m[k]; h != "" && (len(out) == 0 || out[0] != h) {
			out = append(out, h)
		}
	}
	return out
}

// Columns returns the distinct mapped headers in the catalogue's key order.
func (m Mapping) Columns() []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range m.SortedKeys() {
		h := m[k]
		if h == "" || seen[h] {
			continue
		}
		seen[h] = true
		out = append(out, h)
	}
	return out
}
