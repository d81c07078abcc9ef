package workflow

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/export"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// The people view: a result's rows as a person reads them — the owner,
// the property, each phone with its type and whether it may be called (or
// why not), the e-mails, the mailing address, whether the service found
// the owner — in words, whatever service wrote the file. The window shows
// these columns; ExportPeople writes them, each phone as its number, its
// type, its state and the date of the scrub that answered, so that the file
// a person opens reads as the screen did.

// PeoplePreset is the dialer preset that writes a callable list in the
// people view's words (jobs/dialer's presets/people.toml).
const PeoplePreset = "people"

// PeopleKind is what a column of the people view shows.
type PeopleKind int

// The people view's kinds of column.
const (
	PeopleOwner PeopleKind = iota
	PeopleProperty
	PeoplePhone
	PeopleEmails
	PeopleMailing
	PeopleMatch
	// PeopleWindow: when the phone may be called, in its person's time, at
	// the view's instant (Result.CallingTime). A moment's reading: the
	// exports leave it out (a callable list carries each phone's zone and
	// hours).
	PeopleWindow
)

// PeopleColumn is one column of the people view.
type PeopleColumn struct {
	Title string
	Kind  PeopleKind
	// Phone is the row's phone a PeoplePhone column shows.
	Phone int
	// SortCol is the file's column the view sorts by (-1: not sortable).
	SortCol int
}

// PeopleColumns are the people view's columns for a layout; none when it
// finds neither people nor phones.
func PeopleColumns(l *layout.Layout) []PeopleColumn {
	var cols []PeopleColumn
	if len(l.People) > 0 {
		p := l.People[0]
		cols = append(cols, PeopleColumn{Title: "Owner", Kind: PeopleOwner, SortCol: firstOf(p.Last, p.Full, p.First)})
	}
	if hasAddress(l.Property) {
		cols = append(cols, PeopleColumn{Title: "Property address", Kind: PeopleProperty, SortCol: firstOf(l.Property.Street, l.Property.Full)})
	}
	for i := range l.Slots {
		title := "Phone"
		if len(l.Slots) > 1 {
			title = "Phone " + strconv.Itoa(i+1)
		}
		cols = append(cols, PeopleColumn{Title: title, Kind: PeoplePhone, Phone: i, SortCol: -1},
			PeopleColumn{Title: title + " calling time", Kind: PeopleWindow, Phone: i, SortCol: -1})
	}
	if len(cols) == 0 {
		return nil
	}
	if len(l.Emails) > 0 {
		cols = append(cols, PeopleColumn{Title: "E-mails", Kind: PeopleEmails, SortCol: l.Emails[0]})
	}
	if hasAddress(l.Mailing) {
		cols = append(cols, PeopleColumn{Title: "Mailing address", Kind: PeopleMailing, SortCol: firstOf(l.Mailing.Street, l.Mailing.Full)})
	}
	if l.Match >= 0 {
		cols = append(cols, PeopleColumn{Title: "Match", Kind: PeopleMatch, SortCol: l.Match})
	}
	return cols
}

func hasAddress(a layout.AddressColumns) bool {
	return a.Street >= 0 || a.City >= 0 || a.Zip >= 0 || a.Full >= 0
}

func firstOf(cols ...int) int {
	for _, c := range cols {
		if c >= 0 {
			return c
		}
	}
	return -1
}

// Text is a column's cell for row, in words (a phone column: its number).
func (c PeopleColumn) Text(row *layout.Row) string {
	switch c.Kind {
	case PeopleOwner:
		return layout.Names(row)
	case PeopleProperty:
		return row.Property.String()
	case PeopleMailing:
		return row.Mailing.String()
	case PeopleEmails:
		return strings.Join(row.Emails, ", ")
	case PeopleMatch:
		return layout.MatchWords(row.Match)
	case PeoplePhone:
		if c.Phone < len(row.Phones) {
			return row.Phones[c.Phone].Display()
		}
	}
	return ""
}

// exported are the columns an export writes: all but the calling times.
func exported(cols []PeopleColumn) []PeopleColumn {
	var out []PeopleColumn
	for _, c := range cols {
		if c.Kind != PeopleWindow {
			out = append(out, c)
		}
	}
	return out
}

// peopleHeader is the export's header: each column's title, a phone's as
// four ("Phone 1", "Phone 1 type", "Phone 1 status", "Phone 1 scrubbed").
func peopleHeader(cols []PeopleColumn) []string {
	var h []string
	for _, c := range cols {
		h = append(h, c.Title)
		if c.Kind == PeoplePhone {
			h = append(h, c.Title+" type", c.Title+" status", c.Title+" scrubbed")
		}
	}
	return h
}

// peopleRecord is row's cells under peopleHeader: yes and no in words,
// dates as dates.
func peopleRecord(cols []PeopleColumn, row *layout.Row, rec []string) []string {
	rec = rec[:0]
	for _, c := range cols {
		rec = append(rec, c.Text(row))
		if c.Kind != PeoplePhone {
			continue
		}
		if c.Phone >= len(row.Phones) {
			rec = append(rec, "", "", "")
			continue
		}
		p := &row.Phones[c.Phone]
		state, _ := p.StateWords()
		scrubbed := ""
		if !p.Scrubbed.IsZero() && p.Block&layout.BlockInvalid == 0 {
			scrubbed = p.Scrubbed.Local().Format(time.DateOnly)
		}
		rec = append(rec, layout.TypeWords(p.Type), state, scrubbed)
	}
	return rec
}

// ErrNoPeople: the result's layout finds neither people nor phones, so it
// has no people view to export (its own columns export as they are).
var ErrNoPeople = errors.New("this file has no people or phones SkipDesk can read: export its columns as they are")

// ExportPeople writes the rows of view v of result r (filtered and sorted
// as shown) as the people view shows them, in words, to dest (.xlsx or
// .csv): the phones the view shows — a phone filter's leave the others
// out, the callable filter those the callable rules leave out — and no
// other. A callable list with its choices and its proof is ExportView's,
// or ExportCallableView's in these words.
func (s *ResultService) ExportPeople(ctx context.Context, r Result, v View, dest string, progress func(done, total int64)) (*ExportReport, error) {
	if err := r.Index(ctx, nil); err != nil {
		return nil, err
	}
	cols := exported(PeopleColumns(r.Layout()))
	if len(cols) == 0 {
		return nil, ErrNoPeople
	}
	dir, err := os.MkdirTemp("", "skipdesk-people-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, filepath.Base(r.Path()))
	if err := writePeople(ctx, tmp, cols, v); err != nil {
		return nil, err
	}
	opts := export.Options{Progress: intProgress(progress)}
	if m, err := library.ReadRecord(library.RecordPath(r.Path())); err == nil {
		opts.Meta = &m
	}
	return export.Export(ctx, tmp, dest, opts)
}

// writePeople writes the view's rows in words as a CSV at path.
func writePeople(ctx context.Context, path string, cols []PeopleColumn, v View) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	werr := w.Write(peopleHeader(cols))
	var rec []string
	for i := 0; i < v.Len() && werr == nil; i++ {
		if i%4096 == 0 && ctx.Err() != nil {
			werr = ctx.Err()
			break
		}
		row := v.Person(i)
		row.Phones = row.DistinctPhones() // a number the file lists twice is shown once
		rec = peopleRecord(cols, &row, rec)
		werr = w.Write(rec)
	}
	w.Flush()
	if werr == nil {
		werr = w.Error()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("the people view of %s: %w", filepath.Base(path), werr)
	}
	return nil
}
