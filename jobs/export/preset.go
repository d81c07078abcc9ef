package export

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/dialer"
	"github.com/skipdesk/skipdesk/jobs/layout"
)

// presetSource yields the merged rows shaped by a dialer preset: each row's
// kept phones with their flags, scrub dates and windows, as the preset's
// columns.
type presetSource struct {
	m       *mergeSource
	p       *dialer.Preset
	pending [][]string
	rows    int // rows yielded
}

func (s *presetSource) Headers() []string  { return s.p.Header() }
func (s *presetSource) Total() int         { return -1 }
func (s *presetSource) Close() error       { return s.m.Close() }
func (s *presetSource) Warnings() []string { return s.m.Warnings() }

func (s *presetSource) Next() ([]string, int, error) {
	for len(s.pending) == 0 {
		_, n, err := s.m.Next()
		if err != nil {
			return nil, 0, err
		}
		if s.pending, err = s.p.Shape(s.m.owner()); err != nil {
			return nil, 0, fmt.Errorf("export: %s row %d: %w", s.p.Name, n, err)
		}
		if len(s.pending) > 0 {
			rec := s.pending[0]
			s.pending = s.pending[1:]
			s.rows++
			return rec, n, nil
		}
	}
	rec := s.pending[0]
	s.pending = s.pending[1:]
	s.rows++
	return rec, 0, nil
}

// owner is the row just merged as a preset takes it: its first person,
// addresses and kept phones in slot order.
func (m *mergeSource) owner() dialer.Owner {
	r := &m.row
	var o dialer.Owner
	if len(r.People) > 0 {
		n := r.People[0]
		o.FirstName, o.LastName, o.FullName = n.First, n.Last, n.String()
	}
	o.Emails = r.Emails
	o.Property = dialerAddress(r.Property)
	o.Mailing = dialerAddress(r.Mailing)
	var oldest time.Time
	for k, i := range m.bySlot {
		if i < 0 || !m.keep[k] || r.Phones[i].Key == 0 {
			continue
		}
		p := &r.Phones[i]
		w := m.win[k]
		o.Phones = append(o.Phones, dialer.Phone{Number: p.Digits(), Type: string(p.Type), Flags: presetFlags(p),
			TimeZone: w.zone, CallFrom: w.from, CallUntil: w.until})
		if !p.Scrubbed.IsZero() && (oldest.IsZero() || p.Scrubbed.Before(oldest)) {
			oldest = p.Scrubbed
		}
	}
	if !oldest.IsZero() {
		o.ScrubDate = oldest.UTC().Format(time.DateOnly)
		o.ValidUntil = oldest.Add(layout.MaxScrubAge).UTC().Format(time.DateOnly)
	}
	return o
}

func dialerAddress(a layout.Address) dialer.Address {
	street := a.Street
	if a.Street2 != "" {
		street += " " + a.Street2
	}
	if street == "" && a.City == "" {
		street = a.Full
	}
	return dialer.Address{Street: street, City: a.City, State: a.State, ZIP: a.Zip}
}

// presetFlags are the reasons a kept phone carries (those the person chose
// to keep: litigators, unknown answers); none for a clean phone.
func presetFlags(p *layout.Phone) []string {
	if p.Block == 0 {
		return nil
	}
	return strings.Split(p.Block.String(), ", ")
}

// partName is the name of part i (1-based) of n of an export written to
// dst: dst itself when there is one part, else "<name> (part i of n).ext".
func partName(dst string, i, n int) string {
	if n == 1 {
		return dst
	}
	ext := filepath.Ext(dst)
	return fmt.Sprintf("%s (part %d of %d)%s", strings.TrimSuffix(dst, ext), i, n, ext)
}

// writeParts writes the rows of a merged CSV at tmp (header and rows
// rows) to dst, in as many parts as the preset's limit asks, each a whole
// file with the header. It returns the report of every part, the first
// first.
func writeParts(ctx context.Context, tmp, dst string, rows int, p *dialer.Preset, opts Options) ([]*Report, error) {
	n := p.Parts(rows)
	size := rows
	if p.MaxRows > 0 {
		size = p.MaxRows
	}
	var reps []*Report
	for i := 1; i <= n; i++ {
		part := opts
		part.Rows = make([]int, 0, min(i*size, rows)-(i-1)*size)
		for r := (i - 1) * size; r < min(i*size, rows); r++ {
			part.Rows = append(part.Rows, r)
		}
		rep, err := Export(ctx, tmp, partName(dst, i, n), part)
		if err != nil {
			for _, done := range reps {
				os.Remove(done.Path)
			}
			return nil, err
		}
		reps = append(reps, rep)
	}
	return reps, nil
}
