package layout

import (
	"fmt"
	"strconv"
	"strings"
)

var kindText = map[FileKind]string{
	KindTrace: "skip-trace result", KindDNC: "DNC scrub result", KindInput: "list of owners (no results)",
	KindUnknown: "not recognised",
}

// Text renders the summary for a person, in the order they need it: what the
// file is, where its phones and their flags are, who and where, what the
// layout is unsure of, and how every flag value was read.
func (s Summary) Text() string {
	var b strings.Builder
	l := s.Layout
	fmt.Fprintf(&b, "File: %s, %d rows (header signature %s)\n", kindText[l.Kind], s.Rows, l.Signature)
	if l.Corrected {
		b.WriteString("Layout: as corrected\n")
	}
	q := strconv.Quote
	s.writePhones(&b)
	writePeople(&b, l)
	if len(l.Emails) > 0 {
		fmt.Fprintf(&b, "E-mails: %s\n", quoteJoin(l.headersOf(l.Emails)))
	}
	for _, a := range []struct {
		w string
		c AddressColumns
	}{{"Property address", l.Property}, {"Mailing address", l.Mailing}} {
		if cols := a.c.list(); len(cols) > 0 {
			fmt.Fprintf(&b, "%s: %s\n", a.w, quoteJoin(l.headersOf(cols)))
		}
	}
	if l.Match >= 0 {
		fmt.Fprintf(&b, "Match status: %s\n", q(l.Headers[l.Match]))
	}
	var input []int
	for i, c := range l.Columns {
		if c.Input {
			input = append(input, i)
		}
	}
	if len(input) > 0 {
		fmt.Fprintf(&b, "Your own columns (echoed): %s\n", quoteJoin(l.headersOf(input)))
	}
	writeDoubts(&b, l)
	if !l.HasDates() && l.Kind != KindInput {
		b.WriteString("Scrub dates: none in the file: its answers are dated by its job record, or the date given when it was imported\n")
	}
	if len(s.Readings) > 0 {
		b.WriteString("Columns that decide whether a phone may be called, and how each value reads:\n")
		for _, r := range s.Readings {
			fmt.Fprintf(&b, "  %s\n", r)
		}
	}
	return b.String()
}

// writePhones writes the phone slots: each number's column, as written,
// its type and its flags.
func (s Summary) writePhones(b *strings.Builder) {
	l, q := s.Layout, strconv.Quote
	if len(l.Slots) == 0 {
		b.WriteString("Phones: none found\n")
		return
	}
	fmt.Fprintf(b, "Phones: %d a row at most (%d valid, %d invalid in the file)\n", len(l.Slots), s.Phones.Valid, s.Phones.Invalid)
	for _, sl := range l.Slots {
		fmt.Fprintf(b, "  %s: %s", sl.Label, q(l.Headers[sl.Number]))
		if sl.Raw >= 0 {
			fmt.Fprintf(b, " (as written: %s)", q(l.Headers[sl.Raw]))
		}
		switch {
		case sl.Type >= 0:
			fmt.Fprintf(b, "; type %s", q(l.Headers[sl.Type]))
		case sl.Implied != "":
			fmt.Fprintf(b, "; type %s by its name", sl.Implied)
		}
		var fl []string
		for _, f := range sl.Flags {
			c := &l.Columns[f]
			w := q(c.Header) + " " + c.Kind.Words()
			switch {
			case f == sl.Number:
				w += " (the column lists numbers on that list: never callable)"
			case c.Convention == ConvNumbers:
				w += " (the numbers it lists are on that list)"
			case c.Inverted:
				w += " (yes = clean)"
			}
			fl = append(fl, w)
		}
		if len(fl) > 0 {
			fmt.Fprintf(b, "; flags %s", strings.Join(fl, ", "))
		}
		if len(sl.Dates) > 0 {
			fmt.Fprintf(b, "; scrubbed on %s", quoteJoin(l.headersOf(sl.Dates)))
		}
		b.WriteString("\n")
	}
}

// writePeople writes each person's name columns.
func writePeople(b *strings.Builder, l *Layout) {
	for _, p := range l.People {
		who := "Owner"
		if p.Group != "" {
			who = upperFirst(p.Group)
		}
		var parts []string
		for _, x := range []struct {
			c int
			w string
		}{{p.First, "first"}, {p.Last, "last"}, {p.Full, "full name"}} {
			if x.c >= 0 {
				parts = append(parts, x.w+" "+strconv.Quote(l.Headers[x.c]))
			}
		}
		fmt.Fprintf(b, "%s: %s\n", who, strings.Join(parts, ", "))
	}
}

// writeDoubts writes the layout's notes and its questions, those that
// hold the callable list back first said so.
func writeDoubts(b *strings.Builder, l *Layout) {
	for _, n := range l.Notes {
		fmt.Fprintf(b, "Note: %s\n", n)
	}
	for _, qu := range l.Questions {
		if qu.Blocks {
			fmt.Fprintf(b, "Open question (no callable list until it is answered): %s\n", qu.Message)
			continue
		}
		fmt.Fprintf(b, "Unsure: %s\n", qu.Message)
	}
}

func (a AddressColumns) list() []int {
	var out []int
	for _, c := range []int{a.Street, a.Street2, a.City, a.State, a.Zip, a.Full} {
		if c >= 0 {
			out = append(out, c)
		}
	}
	return out
}
