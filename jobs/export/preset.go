package export

import (
	"fmt"
	"io"
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
	m *mergeSource // shaping each row (mergeSource.shape)
	p *dialer.Preset
}

func (s *presetSource) Headers() []string  { return s.p.Header() }
func (s *presetSource) Total() int         { return -1 }
func (s *presetSource) Close() error       { return s.m.Close() }
func (s *presetSource) Warnings() []string { return s.m.Warnings() }

// Next is the next row the preset writes, and its row in the source (0
// for a source row's second row and after).
func (s *presetSource) Next() ([]string, int, error) { return s.m.Next() }

// owner is the row just judged as a preset takes it: its first person,
// addresses and kept phones in slot order.
func (j *rowJudge) owner() dialer.Owner {
	r := &j.row
	var o dialer.Owner
	if len(r.People) > 0 {
		n := r.People[0]
		o.FirstName, o.LastName, o.FullName = n.First, n.Last, n.String()
	}
	o.Names = layout.Names(r)
	o.Emails = r.Emails
	o.Property = dialerAddress(r.Property)
	o.Mailing = dialerAddress(r.Mailing)
	o.PropertyLine, o.MailingLine = r.Property.String(), r.Mailing.String()
	var oldest time.Time
	for k, i := range j.bySlot {
		if i < 0 || !j.keep[k] || r.Phones[i].Key == 0 {
			continue
		}
		p := &r.Phones[i]
		w := j.win[k]
		status, _ := p.StateWords()
		o.Phones = append(o.Phones, dialer.Phone{Number: p.Digits(), Type: string(p.Type), Flags: presetFlags(p),
			TimeZone: w.zone, CallFrom: w.from, CallUntil: w.until, Display: p.Display(), TypeWords: layout.TypeWords(p.Type), Status: status})
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
// dst: dst itself when there is one part, else "<name> (part i of n).ext";
// n = 0 names a part while the count is not known yet.
func partName(dst string, i, n int) string {
	ext := filepath.Ext(dst)
	switch n {
	case 1:
		return dst
	case 0:
		return fmt.Sprintf("%s (part %d)%s", strings.TrimSuffix(dst, ext), i, ext)
	}
	return fmt.Sprintf("%s (part %d of %d)%s", strings.TrimSuffix(dst, ext), i, n, ext)
}

// limitSource yields at most max rows of a source (0: all), then io.EOF
// without reading further: the next part starts where it stopped.
type limitSource struct {
	source
	max, n int
}

func (l *limitSource) Next() ([]string, int, error) {
	if l.max > 0 && l.n >= l.max {
		return nil, 0, io.EOF
	}
	rec, n, err := l.source.Next()
	if err == nil {
		l.n++
	}
	return rec, n, err
}

// writePresetParts writes a preset's rows from s in files of at most its
// limit of rows: each part is written whole by write, then the parts are named "(part i of
// n)", or dst itself when there is one. The report is the first part's,
// naming every part and counting every row.
func writePresetParts(dst string, s source, p *dialer.Preset, write func(part string, ls *limitSource) (*Report, error)) (*Report, error) {
	var reps []*Report
	fail := func(err error) (*Report, error) {
		for _, r := range reps {
			os.Remove(r.Path)
		}
		return nil, err
	}
	for i := 1; ; i++ {
		ls := &limitSource{source: s, max: p.MaxRows}
		rep, err := write(partName(dst, i, 0), ls)
		if err != nil {
			return fail(err)
		}
		if rep.Rows == 0 && i > 1 {
			os.Remove(rep.Path)
			break
		}
		reps = append(reps, rep)
		if p.MaxRows == 0 || ls.n < p.MaxRows {
			break
		}
	}
	first := *reps[0]
	first.Rows, first.Warnings = 0, nil
	for i, r := range reps {
		name := partName(dst, i+1, len(reps))
		if err := os.Rename(r.Path, name); err != nil {
			return fail(writeError(name, err))
		}
		r.Path = name
		first.Rows += r.Rows
		first.Warnings = append(first.Warnings, r.Warnings...)
		if len(reps) > 1 {
			first.Parts = append(first.Parts, name)
			first.partSums = append(first.partSums, r.sum)
		}
	}
	first.Path = reps[0].Path
	return &first, nil
}
