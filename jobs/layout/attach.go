package layout

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// attach gives each slot its type, flag, scope and detail columns, and
// gathers the scrub date columns. A column that names no phone and no owner
// applies to every phone of the row; one that names an owner applies to that
// owner's phones; one that names a phone to that phone alone. Where the
// header leaves it open which phone it means — an index that slots of
// several kinds share ("DNC 1" beside "Mobile 1" and "Landline 1") — the
// column is attached to each and the layout asks: their answers are unsure
// until the person says.
func (l *Layout) attach(qs *[]Question) {
	keys := make([]slotKey, len(l.Slots))
	for j, s := range l.Slots {
		keys[j] = slotKey{group: s.Group, qual: s.Qualifier, idx: s.Index, listed: l.Columns[s.Number].Convention == ConvListed}
	}
	for i := range l.Columns {
		c := &l.Columns[i]
		if c.Input && c.Role != RolePhone && !(c.Role == RoleFlag && c.Kind == Restriction) {
			continue // the person's own flags say nothing of the result's phones
		}
		switch c.Role {
		case RolePhoneType:
			l.attachType(i, keys)
		case RoleFlag, RoleScope:
			l.attachAnswer(i, keys, qs)
		case RolePhoneDetail:
			l.attachDetail(i, keys)
		case RoleScrubDate:
			l.attachDate(i, keys, qs)
		case RoleCallWindow, RoleUTCOffset, RoleNoCallToday:
			l.VendorTime = append(l.VendorTime, i)
		}
	}
	for j := range l.Slots {
		l.settleListed(j)
		l.finishSlot(j)
	}
}

// settleListed: the file reports a listed column's list. Where another
// column answers for the same phone on that list ("DNC Phone" beside "DNC
// Status"), the column may only name the number that list was checked
// for: its numbers are still read as on the list (a header is not
// overruled by a guess), and a note says how to read them otherwise.
func (l *Layout) settleListed(j int) {
	s := &l.Slots[j]
	c := &l.Columns[s.Number]
	if c.Convention != ConvListed {
		return
	}
	l.Reports = l.Reports.with(c.Kind)
	for _, fc := range s.Flags {
		if o := &l.Columns[fc]; fc != s.Number && (sameList(o.Kind, c.Kind) || o.Verdict) {
			l.Notes = append(l.Notes, fmt.Sprintf("%q holds phone numbers and is named for the %s list: every number in it is read as on that list, "+
				"though %q answers for them too; if it only holds the numbers that were checked, say it holds a phone number in Check the columns", c.Header, c.Kind.Words(), o.Header))
			return
		}
	}
}

// sameList reports whether an answer on list a also answers list b: the
// same list, the registry named either way, or a verdict over them all.
func sameList(a, b FlagKind) bool {
	registry := func(k FlagKind) bool { return k == DNC || k == Federal }
	return a == b || registry(a) && registry(b) || a == Combined && (registry(b) || b == Litigator)
}

// attachDetail gives a column of more about one phone (carrier, score,
// last seen) to the slots it names.
func (l *Layout) attachDetail(i int, keys []slotKey) {
	k := colKey(&l.Columns[i])
	for j := range l.Slots {
		if !k.rowLevel() && k.matches(keys[j]) {
			l.Slots[j].Columns = append(l.Slots[j].Columns, i)
		}
	}
}

// attachDate gives a scrub date column to the phone it names ("Phone 2
// Scrub Date"): it dates that phone's answers alone, and a phone with
// none of its own is not dated by another's. A column that names no phone
// (or none the file holds) dates every phone of the row, but for one that
// stands among the phones' columns, after one phone's number and before
// another's ("Phone, DNC, Checked On, Phone, DNC": a header of two rows
// whose second phone has no date, read as one): it may be that phone's
// alone, and read as the row's it would date the others with another
// phone's scrub; read as that phone's, the row's older date would not
// date the others. It dates the phone before it, and makes the others'
// dates no later (Layout.Caps), until the person says whose it is (an
// unsure reading, asked).
func (l *Layout) attachDate(i int, keys []slotKey, qs *[]Question) {
	k := colKey(&l.Columns[i])
	hit := false
	for j := range l.Slots {
		if !k.rowLevel() && k.matches(keys[j]) {
			l.Slots[j].Dates = append(l.Slots[j].Dates, i)
			l.Slots[j].Columns = append(l.Slots[j].Columns, i)
			hit = true
		}
	}
	switch j := l.amid(i); {
	case hit:
	case k.rowLevel() && j >= 0 && !l.Columns[i].Corrected:
		l.Slots[j].Dates = append(l.Slots[j].Dates, i)
		l.Slots[j].Columns = append(l.Slots[j].Columns, i)
		l.Caps = append(l.Caps, i)
		*qs = append(*qs, Question{Topic: "attach", Columns: []string{l.Columns[i].Header}, Guess: true,
			Message: fmt.Sprintf("%q names no phone but stands between the phones' columns: is it the date of %s alone, or of every phone of the row? Until you say, it dates %s, and no other phone is taken to be scrubbed later",
				l.Columns[i].Header, l.Slots[j].Label, l.Slots[j].Label)})
	default:
		l.Dates = append(l.Dates, i)
	}
}

// finishSlot adds a slot's type column to its columns, sorted once each,
// and makes its flags and scope empty rather than nil.
func (l *Layout) finishSlot(j int) {
	s := &l.Slots[j]
	if t := s.Type; t >= 0 && (!colKey(&l.Columns[t]).rowLevel() || len(l.Slots) == 1) {
		s.Columns = append(s.Columns, t)
	}
	slices.Sort(s.Columns)
	s.Columns = slices.Compact(s.Columns)
	if s.Flags == nil {
		s.Flags = []int{}
	}
	if s.Scope == nil {
		s.Scope = []int{}
	}
}

// attachType gives the slots a type column matches their type: the most
// specific column wins ("Phone 1 Type" over "Line Type"), and a column that
// names no kind of phone does not override the kind a slot's own name
// gives ("Mobile 1").
func (l *Layout) attachType(i int, keys []slotKey) {
	k := colKey(&l.Columns[i])
	for j := range l.Slots {
		if !k.matches(keys[j]) || k.qual == "" && l.Slots[j].Implied != "" || l.Slots[j].Part > 0 {
			continue // a type column says nothing of the other numbers of a cell
		}
		if cur := l.Slots[j].Type; cur < 0 || colKey(&l.Columns[cur]).rowLevel() || !k.rowLevel() {
			l.Slots[j].Type = i
		}
	}
}

// attachAnswer gives a flag or scope column to the slots it answers for.
func (l *Layout) attachAnswer(i int, keys []slotKey, qs *[]Question) {
	c := &l.Columns[i]
	k := colKey(c)
	add := func(j int, own bool) {
		s := &l.Slots[j]
		if c.Role == RoleScope {
			s.Scope = append(s.Scope, i)
			return
		}
		s.Flags = append(s.Flags, i)
		if own {
			s.Columns = append(s.Columns, i)
		}
	}
	if k.rowLevel() {
		if c.Role == RoleFlag {
			l.RowFlags = append(l.RowFlags, i)
			l.Reports = l.Reports.with(c.Kind)
		}
		l.askAmid(i, qs)
		for j := range l.Slots {
			add(j, len(l.Slots) == 1)
		}
		return
	}
	var hit []int
	for j := range l.Slots {
		if k.matches(keys[j]) {
			hit = append(hit, j)
		}
	}
	if len(hit) == 0 {
		if c.Role == RoleScope {
			return
		}
		// Whichever phone it means, its answer may be about one of the
		// row's: it applies to every phone of the row until the person
		// says which phone it is about, a flag flagging them all and a
		// clean answer (about another phone, maybe) making none clean (a
		// Guess: they are unsure).
		l.RowFlags = append(l.RowFlags, i)
		l.Reports = l.Reports.with(c.Kind)
		for j := range l.Slots {
			add(j, false)
		}
		*qs = append(*qs, Question{Topic: "attach", Columns: []string{c.Header}, Blocks: true, Guess: true,
			Message: fmt.Sprintf("%q is about a phone SkipDesk did not find in the file: until you say which phone it is about, it applies to every phone of its row and none of them is callable", c.Header)})
		return
	}
	for _, j := range hit {
		add(j, true)
	}
	if c.Role == RoleFlag {
		l.Reports = l.Reports.with(c.Kind)
	}
	if k.idx >= 0 && len(hit) > 1 {
		labels := make([]string, len(hit))
		for n, j := range hit {
			labels[n] = l.Slots[j].Label
		}
		*qs = append(*qs, Question{Topic: "attach", Columns: []string{c.Header}, Blocks: true, Guess: true,
			Message: fmt.Sprintf("%q could be about %s: which phone does it answer for? Until you say, none of them is callable",
				c.Header, strings.Join(labels, " or "))})
	}
}

// askAmid adds to qs the question amidQuestion asks of column i, if any.
func (l *Layout) askAmid(i int, qs *[]Question) {
	if q := l.amidQuestion(i); q != nil {
		*qs = append(*qs, *q)
	}
}

// amidQuestion asks about flag column i, which names no phone but stands
// among the phones' columns: after one phone's number, before another's.
// It may be the row's or the phone's before it alone ("Phone, No Llamar,
// Litigante, Phone": a header of two rows whose second phone has fewer
// columns, read as one; a vendor's column of the row placed between its
// phones). Read as the row's, its clean answer about one phone would clear
// the others: until the person says, it is a Guess, flagging every phone
// of its row and making none clean. Words that state restrictions (notes,
// a status) only ever flag, and are read as the row's without asking.
func (l *Layout) amidQuestion(i int) *Question {
	c := &l.Columns[i]
	if c.Role != RoleFlag || c.Kind == Restriction || c.Corrected {
		return nil
	}
	before := l.amid(i)
	if before < 0 {
		return nil
	}
	return &Question{Topic: "attach", Columns: []string{c.Header}, Blocks: true, Guess: true,
		Message: fmt.Sprintf("%q names no phone but stands between the phones' columns: is it about %s alone, or every phone of the row? Until you say, it flags every phone of its row and none of them is callable on its answer",
			c.Header, l.Slots[before].Label)}
}

// amid is the slot of the phone whose number is the nearest before column
// i, when another phone's number stands after it (-1: i is not among the
// phones' columns). The numbers a listed column or a cell's other parts
// hold are left out: a row's clean answers are never theirs (doc.go).
func (l *Layout) amid(i int) int {
	before, after := -1, false
	for j, s := range l.Slots {
		if s.Part > 0 || l.Columns[s.Number].Convention == ConvListed {
			continue
		}
		if s.Number < i && (before < 0 || s.Number > l.Slots[before].Number) {
			before = j
		}
		after = after || s.Number > i
	}
	if !after {
		return -1
	}
	return before
}

// blankQuestion asks whether a blank is clean in column i, which marks
// the numbers on its list (X) or dates them (ConvSince) and leaves the
// others blank; nil once the person said, or while a guess about the
// column is asked.
func (l *Layout) blankQuestion(i int, qs []Question) *Question {
	c := &l.Columns[i]
	if l.corrected(i, "") || guessed(qs, c.Header) {
		return nil
	}
	msg := fmt.Sprintf("%q marks numbers and leaves the others blank: is a blank clean? Until you say, a blank is unknown", c.Header)
	if c.Convention == ConvSince {
		msg = fmt.Sprintf("%q dates the numbers on the list and leaves the others blank: is a blank not on the list? Until you say, a blank answers nothing", c.Header)
	}
	return &Question{Topic: "marks", Columns: []string{c.Header}, Blocks: true, Message: msg}
}

// guessed reports a column a guess is asked about already.
func guessed(qs []Question, header string) bool {
	return slices.ContainsFunc(qs, func(q Question) bool { return q.Guess && slices.Contains(q.Columns, header) })
}

// valueQuestions ask about the values of the flag and date columns that the
// layout cannot read with certainty, over the whole file: values outside a
// column's convention, marks whose blanks may or may not mean clean, a
// "callable" verdict, dates that are not dates or lie in the future.
func (l *Layout) valueQuestions(p *Profile, sample [][]string, qs *[]Question) {
	for i := range l.Columns {
		c := &l.Columns[i]
		switch {
		case c.Role == RoleFlag && c.Kind != Restriction && !l.inUse(i):
		case c.Role == RoleFlag && (c.Convention == ConvMarks || c.Convention == ConvSince):
			if q := l.blankQuestion(i, *qs); q != nil {
				*qs = append(*qs, *q)
			}
		case c.Role == RoleFlag:
			if q := l.unreadValues(i, columnValues(p, sample, i)); q != nil {
				*qs = append(*qs, *q)
			}

		case c.Role == RoleScrubDate && !c.MayDate && l.dated(i):
			if q := badDates(c, columnValues(p, sample, i), l.now); q != nil {
				*qs = append(*qs, *q)
			}
		}
	}
}

// inUse reports a flag column attached to a phone.
func (l *Layout) inUse(i int) bool {
	if slices.Contains(l.RowFlags, i) {
		return true
	}
	for _, s := range l.Slots {
		if slices.Contains(s.Flags, i) {
			return true
		}
	}
	return false
}

// corrected reports whether the person said how value v of column i reads.
func (l *Layout) corrected(i int, v string) bool {
	_, ok := l.values[i][fold(v)]
	return ok
}

// unreadValues asks about the values of flag column i that are not read with
// certainty: not recognised, or clean only in another convention.
func (l *Layout) unreadValues(i int, vals []ValueN) *Question {
	var bad []ValueN
	rows := 0
	for _, v := range vals {
		if !l.readValue(i, v.V).known {
			bad = append(bad, v)
			rows += v.N
		}
	}
	if len(bad) == 0 {
		return nil
	}
	c := &l.Columns[i]
	return &Question{Topic: "flag", Columns: []string{c.Header}, Blocks: true,
		Message: fmt.Sprintf("%q: %s with %s SkipDesk does not read as %s (%s): read as unknown until you say what they mean",
			c.Header, plural(rows, "row"), plural(len(bad), "value"), string(c.Convention), valueList(bad))}
}

// badDates asks about a scrub date column's values that are not dates, or
// dates in the future.
func badDates(c *Column, vals []ValueN, now time.Time) *Question {
	var notDates, future, maybe []ValueN
	for _, v := range vals {
		switch _, problem := scrubDate(v.V, c.DateOrder, now); problem {
		case dateNone:
			notDates = append(notDates, v)
		case dateFuture:
			future = append(future, v)
		case dateMaybeFuture:
			maybe = append(maybe, v)
		}
	}
	var parts []string
	if len(notDates) > 0 {
		parts = append(parts, "not dates: "+valueList(notDates))
	}
	if len(future) > 0 {
		parts = append(parts, "in the future: "+valueList(future))
	}
	if len(maybe) > 0 {
		parts = append(parts, maybeFutureWords+": "+valueList(maybe))
	}
	if len(parts) == 0 {
		return nil
	}
	return &Question{Topic: "date", Columns: []string{c.Header}, Blocks: true,
		Message: fmt.Sprintf("%q holds values that cannot date a scrub (%s): those rows have no scrub date, so no phone of theirs is callable",
			c.Header, strings.Join(parts, "; "))}
}

// valueList writes up to five values with their rows: `"OK" (3 rows), "?" (1 row)`.
func valueList(vals []ValueN) string {
	slices.SortStableFunc(vals, func(a, b ValueN) int { return b.N - a.N })
	var parts []string
	for n, v := range vals {
		if n == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(vals)-5))
			break
		}
		parts = append(parts, fmt.Sprintf("%q (%s)", v.V, plural(v.N, "row")))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// explain adds the notes every reader of the layout should see.
func (l *Layout) explain(qs *[]Question) {
	if len(l.Slots) == 0 && l.Kind != KindInput {
		*qs = append(*qs, Question{Topic: "phone", Message: "no phone column found"})
	}
	if l.Kind == KindInput {
		return
	}
	if len(l.Slots) > 0 {
		switch {
		case l.Reports&(registry|litigator) == 0:
			l.Notes = append(l.Notes, "no DNC or litigator flags: no phone is callable until its numbers are scrubbed")
		default:
			if l.Reports&registry == 0 {
				l.Notes = append(l.Notes, "no DNC registry flag: no phone is callable until its numbers are scrubbed")
			}
			if l.Reports&litigator == 0 {
				l.Notes = append(l.Notes, "no litigator flag: no phone is callable until its numbers are scrubbed against the litigator list")
			}
			if !l.Reports.AnswersState() && !l.Reports.Has(Combined) {
				l.Notes = append(l.Notes, "no state DNC column: state lists were not checked by this file; callable means clean on the DNC registry and the litigator list")
			}
		}
	}
	if len(l.RowFlags) > 0 && len(l.Slots) > 1 {
		l.Notes = append(l.Notes, fmt.Sprintf("%s name no phone: they apply to every phone of the row",
			quoteJoin(l.headersOf(l.RowFlags))))
	}
}
