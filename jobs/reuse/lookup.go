package reuse

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/entity"
	"github.com/skipdesk/skipdesk/jobs/index"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// DNCWindow is how long a scrub's answer may be reused: a number
// scrubbed longer ago than this is scrubbed again (the registry's 31 days).
const DNCWindow = 31 * 24 * time.Hour

// Hit is one row of the upload found in the library.
type Hit struct {
	Date     int64 // the newest earlier result's (Unix s)
	Enhanced int64 // a trace: the newest earlier enhanced trace's; 0 none
	Entity   bool
}

// ownerCols are the columns of an upload that make a row's owner key.
type ownerCols struct {
	first, last, street, city, state, zip int
	names                                 []int // the name columns (company rows)
}

func ownerColumns(header []string, m mapping.Mapping) ownerCols {
	at := func(k string) int {
		if h, ok := m[k]; ok && h != "" {
			return slices.Index(header, h)
		}
		return -1
	}
	c := ownerCols{first: at(mapping.FirstName), last: at(mapping.LastName), street: at(mapping.PropertyStreet),
		city: at(mapping.PropertyCity), state: at(mapping.PropertyState), zip: at(mapping.PropertyZip)}
	for _, h := range m.NameColumns() {
		if i := slices.Index(header, h); i >= 0 {
			c.names = append(c.names, i)
		}
	}
	return c
}

func at(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return rec[i]
}

// key is the owner key of an upload row.
func (c *ownerCols) key(k *index.Keyer, rec []string) string {
	if c.street < 0 {
		return ""
	}
	return k.Key(at(rec, c.first), at(rec, c.last), "", index.Address{Street: at(rec, c.street), City: at(rec, c.city),
		State: at(rec, c.state), Zip: at(rec, c.zip)})
}

// isEntity: the row's mapped names are a company's (as the provider
// decides it). The names are joined in buf, returned for the next row.
func (c *ownerCols) isEntity(rec []string, buf []byte) ([]byte, bool) {
	buf = buf[:0]
	for j, i := range c.names {
		if j > 0 {
			buf = append(buf, ' ')
		}
		buf = append(buf, at(rec, i)...)
	}
	return buf, len(c.names) > 0 && entity.IsEntityBytes(buf)
}

// Row is a row of a plan's upload as reuse reads it.
type Row struct {
	Key    string // owner key (a trace), "" none
	Phone  uint64 // phone.Key (a scrub), 0 none
	Entity bool
}

// Keys reads the owner keys of an upload's rows (a trace's).
type Keys struct {
	cols ownerCols
	k    index.Keyer
	buf  []byte
}

// NewKeys reads the rows under header, whose columns mapping m names.
func NewKeys(header []string, m mapping.Mapping) *Keys {
	return &Keys{cols: ownerColumns(header, m)}
}

// Row is a trace row's owner key and whether its owner is a company.
func (k *Keys) Row(rec []string) Row {
	r := Row{Key: k.cols.key(&k.k, rec)}
	k.buf, r.Entity = k.cols.isEntity(rec, k.buf)
	return r
}

// PhoneRow is a scrub row: the phone in column col. A number outside the
// US (phone.Abroad) is none: a US scrub's answer about it means nothing,
// and is never reused.
func PhoneRow(rec []string, col int) Row {
	k := phone.Key(at(rec, col))
	if phone.Abroad(k) != "" {
		k = 0
	}
	return Row{Phone: k}
}

// Earlier are the earlier rows the library holds for a list's rows.
type Earlier struct {
	traced   map[string][]index.Earlier
	scrubbed map[uint64]index.Scrub
}

// Elsewhere are the jobs whose results, in teammates' folders, hold a
// row's newest earlier answer (newer than any this computer has).
func (e Earlier) Elsewhere() []string {
	seen := map[string]bool{}
	var out []string
	add := func(x index.Earlier) {
		if x.Path == "" && x.JobID != "" && !seen[x.JobID] {
			seen[x.JobID] = true
			out = append(out, x.JobID)
		}
	}
	for _, es := range e.traced {
		for _, x := range es { // newest first
			if x.Path != "" {
				break
			}
			add(x)
		}
	}
	for _, sc := range e.scrubbed {
		add(sc.Earlier)
	}
	slices.Sort(out)
	return out
}

// Here keeps the earlier answers read from this computer's folder.
func (e Earlier) Here() Earlier {
	out := Earlier{traced: map[string][]index.Earlier{}, scrubbed: map[uint64]index.Scrub{}}
	for k, es := range e.traced {
		var keep []index.Earlier
		for _, x := range es {
			if x.Path != "" {
				keep = append(keep, x)
			}
		}
		if len(keep) > 0 {
			out.traced[k] = keep
		}
	}
	for k, sc := range e.scrubbed {
		if sc.Path != "" {
			out.scrubbed[k] = sc
		}
	}
	return out
}

// Lookup finds the rows' earlier results in the index.
func Lookup(ctx context.Context, x *index.Index, kind jobs.Kind, rows []Row, at time.Time) (Earlier, error) {
	var e Earlier
	var err error
	if kind == jobs.KindDNC {
		keys := make([]uint64, 0, len(rows))
		for _, r := range rows {
			if r.Phone != 0 {
				keys = append(keys, r.Phone)
			}
		}
		e.scrubbed, err = x.Scrubbed(ctx, keys, at.Add(-DNCWindow))
		return e, err
	}
	keys := make([]string, 0, len(rows))
	for _, r := range rows {
		if r.Key != "" {
			keys = append(keys, r.Key)
		}
	}
	e.traced, err = x.Traced(ctx, keys)
	return e, err
}

// hit is what the library holds for a row (ok false: nothing).
func (e Earlier) hit(r Row) (Hit, bool) {
	if r.Phone != 0 {
		s, ok := e.scrubbed[r.Phone]
		if !ok {
			return Hit{}, false
		}
		return Hit{Date: s.Date.Unix()}, true
	}
	es := e.traced[r.Key]
	if len(es) == 0 {
		return Hit{}, false
	}
	h := Hit{Date: es[0].Date.Unix(), Entity: r.Entity}
	for _, x := range es {
		if x.Mode == jobs.ModeEnhanced {
			h.Enhanced = x.Date.Unix()
			break
		}
	}
	return h, true
}

// Hits are the rows the library holds.
func (e Earlier) Hits(rows []Row) []Hit {
	var out []Hit
	for _, r := range rows {
		if h, ok := e.hit(r); ok {
			out = append(out, h)
		}
	}
	return out
}

// Gather gathers the rows of an upload for the look-up.
type Gather struct {
	All, NoDup []Row // with the rows repeating an earlier one; without
}

// Reader hands the rows of a trace's upload with mapping m
// (prepare.CountBoth's header, then each row) to l.
func (l *Gather) Reader(m mapping.Mapping) func(rec []string, header, dup bool) error {
	var keys *Keys
	return l.reader(func(header []string) { keys = NewKeys(header, m) }, func(rec []string) Row { return keys.Row(rec) })
}

// PhoneReader hands the rows of a scrub's upload, its phones in the column
// named column, to l.
func (l *Gather) PhoneReader(column string) func(rec []string, header, dup bool) error {
	col := -1
	return l.reader(func(header []string) { col = slices.Index(header, column) }, func(rec []string) Row { return PhoneRow(rec, col) })
}

func (l *Gather) reader(header func([]string), row func([]string) Row) func(rec []string, isHeader, dup bool) error {
	return func(rec []string, isHeader, dup bool) error {
		if isHeader {
			header(rec)
			return nil
		}
		r := row(rec)
		l.All = append(l.All, r)
		if !dup {
			l.NoDup = append(l.NoDup, r)
		}
		return nil
	}
}

// Root is where the submissions that reuse rows keep what their merge
// needs, beside the library folder.
func Root(lib *library.Library) string { return filepath.Join(filepath.Dir(lib.Dir()), "reuse") }

// sourceOf is where an earlier row's data first came from: the row's own
// source columns in a merged result, else its result's job.
func sourceOf(header, cells []string, e index.Earlier) (job string, date time.Time) {
	job, date = e.JobID, e.Date
	if j := slices.Index(header, library.SourceJobColumn); j >= 0 && j < len(cells) && strings.TrimSpace(cells[j]) != "" {
		job = strings.TrimSpace(cells[j])
	}
	if j := slices.Index(header, library.SourceDateColumn); j >= 0 && j < len(cells) {
		if t, err := time.Parse(time.DateOnly, strings.TrimSpace(cells[j])); err == nil {
			date = t
		}
	}
	return job, date
}
