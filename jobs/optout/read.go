package optout

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/calltime"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// The layouts an export is read as.
const (
	Replies      = "SMS replies"         // a number, the person's reply, its date
	Dispositions = "dialer dispositions" // a number, the call's disposition, its date
	Flags        = "opt-out marks"       // a contacts export: a number, a column marking it (DNC: Yes)
)

// Options tune reading an export.
type Options struct {
	// Location is the zone of dates written without one (the tool's
	// account zone); nil reads them as UTC.
	Location *time.Location
	// Now is when the import runs: an opt-out whose date cannot be read is
	// taken as made now (the longest keeping, the nearest deadline).
	Now time.Time
	// Guessed: Location is this computer's zone, not one the person said
	// the export is written in (CallLog.Recent counts a call log's times
	// without a zone in any zone they may be in).
	Guessed bool
}

// Entry is one opt-out (or possible one) found in an export.
type Entry struct {
	Line     int
	Sheet    string // the sheet of a workbook read on several ("" otherwise)
	Number   string // the 10 digits
	Said     string // the reply or disposition as written
	Class    Class  // Stop or Maybe
	Match    string // the words that decided
	Text     bool   // made by text (a reply); false for a call's disposition
	Flag     bool   // marked in a column of the export (DNC: Yes), made by text or call
	Made     time.Time
	DateNote string // why Made is the import's time: the date could not be read
	Terms    calltime.Terms
}

// Import is what an export held.
type Import struct {
	File    string
	Layout  string            // Replies, Dispositions or Flags
	Columns map[string]string // role (number, said, date, direction) → header
	Entries []Entry           // Stop and Maybe, in the file's order
	// Problems name the lines passed over ("line 12: number ... is not a
	// valid US number").
	Problems []string
	// Notes name the lines read with a doubt, on the safe side.
	Notes     []string
	Rows      int // data rows read
	Outbound  int // messages the tool sent (not replies)
	NotOptOut int // replies or dispositions that are not opt-outs
	// Unrecognised counts the dispositions SkipDesk cannot read either way:
	// shown to the person, never taken as "callable".
	Unrecognised map[string]int
	notes        []int // the note columns (noteHeaders) read beside the reply or disposition
	flags        []int // the opt-out columns (flagHeaders) read beside them
	dates        []int // the date columns (dateHeaders), the first of them cols' "date"
	headers      []string
}

// Role header names, in order of preference (normalised: lower case, words).
var (
	numberHeaders = []string{"phone number", "phone", "contact phone", "mobile", "mobile phone", "cell", "cell phone",
		"number", "lead phone", "customer phone", "contact number", "from", "from number", "sender", "to", "to number",
		"recipient", "dialed number", "phone 1"}
	replyHeaders = []string{"message", "body", "reply", "text", "message body", "message text", "content", "sms",
		"response", "inbound message", "last reply"}
	dispositionHeaders = []string{"disposition", "call disposition", "disposition name", "call result", "result",
		"outcome", "call outcome", "status", "call status", "wrap up", "wrapup"}
	dateHeaders = []string{"date", "date time", "datetime", "timestamp", "created", "created at", "received",
		"received at", "sent", "sent at", "call date", "call time", "call start", "start time", "time", "date created",
		"sent date", "date sent", "received date", "date received", "message date", "reply date", "last reply date",
		"created date", "created on", "sent on", "received on", "call date time", "call start time", "start date",
		"disposition date", "dispositioned at", "last call date", "last called"}
	// markDateHeaders date an opt-out mark; a row's other dates (the
	// contact's creation, its last call) do not.
	markDateHeaders = []string{"opt out date", "opted out at", "opted out date", "date opted out", "opted out on",
		"unsubscribed at", "unsubscribe date", "unsubscribed date", "dnc date", "date added to dnc", "dnc added",
		"opt out at", "opt out time", "stopped at"}
	directionHeaders = []string{"direction", "message direction", "message type", "call direction", "call type", "type"}
	// fromHeaders and toHeaders are a message's or a call's two ends: the
	// person is who wrote or called (an inbound row's From) or who was
	// written to or called (an outbound row's To).
	fromHeaders = []string{"from", "from number", "sender", "caller", "caller id", "ani"}
	toHeaders   = []string{"to", "to number", "recipient", "dialed number", "called number", "dnis"}
	// noteHeaders are the columns where an agent writes what was said:
	// a request not to be called written there is one all the same.
	noteHeaders = []string{"notes", "note", "call notes", "agent notes", "comments", "comment", "memo", "remarks",
		"disposition notes", "call note", "tags", "tag", "summary", "call summary"}
	// flagHeaders are the columns where a CRM or an SMS tool marks a
	// contact who opted out (Salesforce's DoNotCall, "SMS Opt Out": TRUE).
	flagHeaders = []string{"dnc", "do not call", "opted out", "opt out", "optout", "opted out of sms", "unsubscribed",
		"sms opt out", "text opt out", "call opt out", "phone opt out", "do not text", "do not contact", "dnd",
		"do not disturb", "is opted out", "has opted out", "internal dnc", "dnc flag", "blocked", "is dnc", "on dnc",
		"no call", "no text", "stop", "stopped"}
)

// harmless are the dispositions that are plainly not opt-outs.
var harmless = []string{"no answer", "busy", "voicemail", "voice mail", "left message", "left voicemail", "callback",
	"call back", "appointment", "appointment set", "interested", "answering machine", "not available", "hung up",
	"follow up", "lead", "hot lead", "warm lead", "sold", "contacted", "completed", "answered", "dropped", "failed",
	"no contact", "machine", "fax"}

// Read reads an SMS tool's replies export or a dialer's dispositions export
// (CSV in any encoding, or .xlsx): the number, the reply or disposition, the
// date. Outbound messages are passed over; every reply or disposition that
// is or may be an opt-out becomes an Entry with its deadlines.
func Read(ctx context.Context, path string, e *calltime.Engine, opt Options) (*Import, error) {
	var imp *Import
	problems, err := everySheet(ctx, func(sheet string) ([]string, error) {
		o, others, err := readSheet(ctx, path, sheet, e, opt)
		switch {
		case err != nil:
		case imp == nil:
			imp = o
		default:
			imp.merge(o)
		}
		return others, err
	})
	if err != nil {
		return nil, err
	}
	imp.Problems = append(imp.Problems, problems...)
	return imp, nil
}

// everySheet reads a file with read: its first sheet holding rows (or the
// file: sheet ""), whose failure is the file's, then each other sheet of
// a workbook holding rows that read returned, by its own columns; a sheet
// read cannot read is named in the problems returned, never left out
// without a word (an opt-out, a call counted against a cap).
func everySheet(ctx context.Context, read func(sheet string) (others []string, err error)) ([]string, error) {
	others, err := read("")
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, sheet := range others {
		if _, err := read(sheet); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			problems = append(problems, fmt.Sprintf("sheet %q is not read: %v", sheet, err))
		}
	}
	return problems, nil
}

// openSheet opens sheet of the file at path ("": the first holding rows,
// or the file). name is the sheet's name where the workbook holds rows on
// several ("" otherwise); others are its other sheets holding rows, when
// sheet is "".
func openSheet(path, sheet string) (r *input.Reader, name string, others []string, err error) {
	if r, err = input.Open(path, input.Options{Sheet: sheet}); err != nil {
		return nil, "", nil, err
	}
	if others = r.OtherSheets(); len(others) > 0 {
		sheet = r.Sheet()
	}
	return r, sheet, others, nil
}

// readSheet reads one sheet of the file at path ("": the first holding
// rows, or the file), by its own columns; it returns the workbook's other
// sheets holding rows when it read the first.
func readSheet(ctx context.Context, path, sheet string, e *calltime.Engine, opt Options) (*Import, []string, error) {
	r, sheet, others, err := openSheet(path, sheet)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	cols, layout, err := findColumns(path, r.Headers())
	if err != nil {
		return nil, nil, err
	}
	imp := &Import{File: path, Layout: layout, Columns: map[string]string{}, Unrecognised: map[string]int{}}
	for role, i := range cols {
		imp.Columns[role] = r.Headers()[i]
	}
	imp.headers = r.Headers()
	if i, ok := cols["date"]; ok {
		// The date column, then the row's other dates (latest).
		imp.dates = append([]int{i}, columnsOf(r.Headers(), cols, dateHeaders)...)
	}
	imp.notes, imp.flags = columnsOf(r.Headers(), cols, noteHeaders), columnsOf(r.Headers(), cols, flagHeaders)
	if len(imp.notes) > 0 {
		imp.Columns["notes"] = strings.Join(pick(r.Headers(), imp.notes), ", ")
	}
	if len(imp.flags) > 0 {
		imp.Columns["marks"] = strings.Join(pick(r.Headers(), imp.flags), ", ")
	}
	err = sheetRows(ctx, r, sheet, func(rec []string, line int, sheet string) {
		imp.Rows++
		imp.read(e, opt, cols, rec, line, sheet)
	})
	if err != nil {
		return nil, nil, err
	}
	return imp, others, nil
}

// ColumnsRead names the columns read, by role ("number = Phone, said =
// Message, date = Date").
func (imp *Import) ColumnsRead() string {
	var parts []string
	for _, role := range []string{"number", "from", "to", "said", "notes", "marks", "date", "marked", "direction"} {
		if h, ok := imp.Columns[role]; ok {
			parts = append(parts, role+" = "+h)
		}
	}
	return strings.Join(parts, ", ")
}

// merge adds what another sheet of the file held.
func (imp *Import) merge(o *Import) {
	imp.Entries = append(imp.Entries, o.Entries...)
	imp.Problems = append(imp.Problems, o.Problems...)
	imp.Notes = append(imp.Notes, o.Notes...)
	imp.Rows += o.Rows
	imp.Outbound += o.Outbound
	imp.NotOptOut += o.NotOptOut
	for said, n := range o.Unrecognised {
		imp.Unrecognised[said] += n
	}
}

// sheetRows calls do with every data row r reads.
func sheetRows(ctx context.Context, r *input.Reader, sheet string, do func(rec []string, line int, sheet string)) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		do(rec, r.Line(), sheet)
	}
}

// At names a line of a file: "line 12", or `sheet "2025", line 12`.
func At(sheet string, line int) string {
	if sheet == "" {
		return fmt.Sprintf("line %d", line)
	}
	return fmt.Sprintf("sheet %q, line %d", sheet, line)
}

func (imp *Import) read(e *calltime.Engine, opt Options, cols map[string]int, rec []string, line int, sheet string) {
	get := func(role string) string {
		if i, ok := cols[role]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	dir := directionOf(get("direction"))
	// A message the tool sent is not the person's reply ("Reply STOP to
	// opt out"); a call's disposition is what was said on it whichever
	// way the call went.
	if imp.Layout == Replies && dir == outbound {
		imp.Outbound++
		return
	}
	class, match, said, flag := imp.classify(get("said"), rec)
	if class == None {
		imp.NotOptOut++
		if imp.Layout == Dispositions && said != "" && !known(said) {
			imp.Unrecognised[said]++
		}
		return
	}
	// A mark is dated by its own column alone (a contact's creation or
	// last call is not when it opted out; the import's day keeps it the
	// longest); it does not say how the person asked: kept as a text's
	// opt-out is, the longer.
	when := imp.latest(rec, opt.Location)
	if flag {
		when = get("marked")
	}
	for _, role := range imp.roles(cols, dir, get, At(sheet, line)) {
		// Every number of the cell opted out ("512-555-0101; 512-555-0102").
		keys := phone.ListKeys(get(role))
		if keys[0] == 0 {
			imp.Problems = append(imp.Problems, fmt.Sprintf("%s: %q (%s) is not a valid US number: %s; this opt-out is not imported",
				At(sheet, line), get(role), said, phone.Normalize(get(role)).Reason))
			continue
		}
		for _, k := range keys {
			imp.add(e, opt, Entry{Line: line, Sheet: sheet, Number: phone.KeyDigits(k), Said: said, Class: class, Match: match,
				Text: imp.Layout == Replies || flag, Flag: flag}, when)
		}
	}
}

// roles are the columns of the person's number of the row at where,
// going dir (person), a doubt noted.
func (imp *Import) roles(cols map[string]int, dir int, get func(string) string, where string) []string {
	what := "message was sent or received"
	if imp.Layout != Replies {
		what = "call was made or taken"
	}
	roles, doubt := person(cols, imp.Columns, dir, get, what)
	if doubt != "" {
		imp.Notes = append(imp.Notes, where+": "+doubt+" (both go on the list)")
	}
	return roles
}

// latest is the latest date of the row's date columns (a reply's own date
// beside the contact's creation: the later keeps the opt-out the longer),
// as written; where one of them is blank or cannot be read, that one's
// text: the row's own date may be the one not known (the import's day is
// taken, said so).
func (imp *Import) latest(rec []string, loc *time.Location) string {
	best, bestAt := "", time.Time{}
	for _, i := range imp.dates {
		v := ""
		if i < len(rec) {
			v = strings.TrimSpace(rec[i])
		}
		at := ParseWhen(v, loc)
		switch {
		case at.IsZero() && (isClock(v) || v == "" && oneOf(imp.headers[i], clockHeaders)):
			continue // a time of day beside the date column ("Time": "10:05", or none)
		case at.IsZero():
			return v
		}
		if at.After(bestAt) {
			best, bestAt = v, at
		}
	}
	return best
}

// clockHeaders are the date headers of a time of day.
var clockHeaders = []string{"time", "call time", "start time"}

// isClock reports whether v is a time of day alone ("10:05", "3:04 PM").
func isClock(v string) bool {
	for _, l := range clockLayouts {
		if _, err := time.Parse(l, strings.ToUpper(v)); err == nil {
			return true
		}
	}
	return false
}

// Directions of a row.
const (
	unknownDirection = iota
	inbound
	outbound
)

// directionOf reads a direction column's value ("outbound-api",
// "Incoming", "Sent"…); unknownDirection when it says neither.
func directionOf(v string) int {
	v = strings.ToLower(strings.TrimSpace(v))
	switch {
	case strings.HasPrefix(v, "out"), slices.Contains([]string{"sent", "send", "ob", "mt", "o"}, v):
		return outbound
	case v == "in", strings.HasPrefix(v, "inbound"), strings.HasPrefix(v, "incoming"),
		slices.Contains([]string{"received", "receive", "ib", "mo", "i", "reply", "response"}, v):
		return inbound
	}
	return unknownDirection
}

// person are the roles of the columns holding the number of the person
// of a row going dir: the number column; where the file has a From and a
// To, the inbound row's From or the outbound row's To, and both where the
// row does not say which way it went (the person's number is never left
// off for the want of it), said in the note returned.
func person(cols map[string]int, names map[string]string, dir int, get func(role string) string, what string) ([]string, string) {
	if _, ok := cols["to"]; !ok {
		return []string{"number"}, ""
	}
	switch dir {
	case inbound:
		return []string{"from"}, ""
	case outbound:
		return []string{"to"}, ""
	}
	return []string{"from", "to"}, fmt.Sprintf("the row does not say whether the %s: both %s (%s) and %s (%s) are taken as the person's",
		what, names["from"], get("from"), names["to"], get("to"))
}

// numberColumns finds the columns of the person's number among headers
// into cols: "number", or, where that is a From or a To and the other is
// there too, "from" and "to"; false when there are none.
func numberColumns(headers []string, cols map[string]int) bool {
	pair := func() bool {
		if from, to := headerIndex(headers, fromHeaders), headerIndex(headers, toHeaders); from >= 0 && to >= 0 {
			cols["from"], cols["to"] = from, to
			return true
		}
		return false
	}
	n := headerIndex(headers, numberHeaders)
	switch {
	case n < 0:
		return pair()
	case oneOf(headers[n], fromHeaders, toHeaders) && pair():
	default:
		cols["number"] = n
	}
	return true
}

// add dates an opt-out by when, as written (the import's day when it
// cannot be read), with its terms.
func (imp *Import) add(e *calltime.Engine, opt Options, ent Entry, when string) {
	if ent.Made = ParseWhen(when, opt.Location); ent.Made.IsZero() {
		ent.Made = opt.Now
		ent.DateNote = fmt.Sprintf("date %q could not be read: taken as made on the day of the import", when)
		if when == "" {
			ent.DateNote = "no date: taken as made on the day of the import"
		}
	}
	ent.Terms = e.OptOutTerms(e.Locate(ent.Number, nil), ent.Text, ent.Made)
	imp.Entries = append(imp.Entries, ent)
}

// classify reads the row's reply or disposition, said, its notes and its
// opt-out marks: the class, the words that decided, what was said (the
// note or the mark, where one decided) and whether a mark decided.
func (imp *Import) classify(said string, rec []string) (Class, string, string, bool) {
	class, match := ClassifyReply(said)
	if imp.Layout != Replies {
		class, match = ClassifyDisposition(said)
	}
	flag := false
	if class != Stop {
		if c, m, note := imp.noted(rec); c > class {
			class, match, said = c, m, note
		}
	}
	if class != Stop {
		if c, m, mark := imp.marked(rec); c > class {
			class, match, said, flag = c, m, mark, true
		}
	}
	return class, match, said, flag
}

// noted is what the row's notes say: the strongest class any of them
// reads as (a disposition's words, a restriction stated), its words and
// the note.
func (imp *Import) noted(rec []string) (Class, string, string) {
	return strongest(rec, imp.notes, ClassifyDisposition, func(_ int, v string) string { return v })
}

// marked is what the row's opt-out columns say: the strongest class any
// of them reads as, its words and the mark ("DNC: Yes").
func (imp *Import) marked(rec []string) (Class, string, string) {
	return strongest(rec, imp.flags, MarkClass, func(i int, v string) string { return imp.headers[i] + ": " + v })
}

// strongest is the strongest class read of the row's columns idx, its
// words and what said it.
func strongest(rec []string, idx []int, read func(string) (Class, string), said func(i int, v string) string) (Class, string, string) {
	best, match, what := None, "", ""
	for _, i := range idx {
		if i >= len(rec) {
			continue
		}
		v := strings.TrimSpace(rec[i])
		if c, m := read(v); c > best {
			best, match, what = c, m, said(i, v)
		}
	}
	return best, match, what
}

// MarkClass reads a value of a column marking opt-outs: yes, true, 1, x
// are one; no, false, 0, blank are not; words are read as a disposition's
// ("Opted Out"); anything else (a check mark among them) may be one, for a
// person to read (the column is there to say it).
func MarkClass(v string) (Class, string) {
	t := strings.ToLower(strings.TrimSpace(v))
	switch {
	case slices.Contains([]string{"yes", "y", "true", "t", "1", "x", "checked", "on"}, t):
		return Stop, t
	case slices.Contains([]string{"", "no", "n", "false", "f", "0", "off", "unchecked", "none", "n/a", "na", "null",
		"-", "--", "clean", "ok", "active", "callable", "valid", "not dnc", "subscribed", "opted in"}, t):
		return None, ""
	}
	if c, m := ClassifyDisposition(v); c != None || known(v) {
		return c, m
	}
	return Maybe, t
}

// columnsOf are the columns among headers of the names (notes, opt-out
// marks), other than those cols reads already.
func columnsOf(headers []string, cols map[string]int, names []string) []int {
	taken := slices.Collect(maps.Values(cols))
	var out []int
	for i, h := range headers {
		if !slices.Contains(taken, i) && oneOf(h, names) {
			out = append(out, i)
		}
	}
	return out
}

// pick are the headers at idx.
func pick(headers []string, idx []int) []string {
	out := make([]string, len(idx))
	for n, i := range idx {
		out[n] = headers[i]
	}
	return out
}

func known(disposition string) bool {
	_, ok := findPhrase(normalise(disposition), harmless)
	return ok
}

// Kind says how Read reads a file of these headers, where it can: its
// layout and the columns that decide ("Message", "DoNotCall"); "" where it
// cannot. A file kept for the company's list that reads so holds rows that
// are not opt-outs beside those that are.
func Kind(headers []string) (layout string, decide []string) {
	cols, layout, err := findColumns("", headers)
	if err != nil {
		return "", nil
	}
	if i, ok := cols["said"]; ok {
		decide = append(decide, headers[i])
	}
	return layout, append(decide, pick(headers, columnsOf(headers, cols, flagHeaders))...)
}

// findColumns picks the number, said (reply or disposition), date and
// direction columns by their headers. A file with a reply column is read as
// replies, else one with a disposition column as dispositions.
func findColumns(path string, headers []string) (map[string]int, string, error) {
	cols := map[string]int{}
	pick := func(role string, names []string) bool {
		if i := headerIndex(headers, names); i >= 0 {
			cols[role] = i
			return true
		}
		return false
	}
	layout := Replies
	if !pick("said", replyHeaders) {
		layout = Dispositions
		if !pick("said", dispositionHeaders) {
			if headerIndex(headers, flagHeaders) < 0 {
				return nil, "", fileErr(path, "no reply (message, body, reply…), disposition (disposition, call result, status…) or opt-out (DNC, opted out, unsubscribed…) column among %q", headers)
			}
			layout = Flags
		}
	}
	if !numberColumns(headers, cols) {
		return nil, "", fileErr(path, "no phone number column (phone, number, from and to…) among %q", headers)
	}
	pick("date", dateHeaders)
	pick("marked", markDateHeaders)
	pick("direction", directionHeaders)
	return cols, layout, nil
}

func fileErr(path, format string, args ...any) error {
	return &input.FileError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// headerIndex is the first header matching the names, in the names' order
// (a header read as its words: "SentDate", "sent_date" and "Sent Date"
// are "sent date").
func headerIndex(headers, names []string) int {
	for _, name := range names {
		for i, h := range headers {
			if strings.Join(jobs.HeaderWords(h), " ") == name {
				return i
			}
		}
	}
	return -1
}

// oneOf reports whether header is one of the names of any list.
func oneOf(header string, lists ...[]string) bool {
	for _, names := range lists {
		if headerIndex([]string{header}, names) == 0 {
			return true
		}
	}
	return false
}

// dateLayouts are the ways exports write a date and time.
var dateLayouts = []string{
	time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02",
	"1/2/2006 15:04:05", "1/2/2006 15:04", "1/2/2006 3:04:05 PM", "1/2/2006 3:04 PM", "1/2/2006 3:04PM", "1/2/2006",
	"1/2/06 15:04", "1/2/06 3:04 PM", "1/2/06", "Jan 2, 2006 3:04 PM", "Jan 2, 2006 15:04", "Jan 2, 2006",
	"January 2, 2006", "2 Jan 2006", "Mon Jan 2 15:04:05 2006", "2006/01/02 15:04:05", "2006/01/02",
}

// ParseWhen reads a date (and time) as exports write it; without a zone it
// is read in loc (nil: UTC). The zero time when it cannot be read.
func ParseWhen(s string, loc *time.Location) time.Time {
	t, _ := parseWhen(s, loc)
	return t
}

// parseWhen is ParseWhen, and whether s wrote its zone.
func parseWhen(s string, loc *time.Location) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if loc == nil {
		loc = time.UTC
	}
	for _, l := range dateLayouts {
		if t, err := time.ParseInLocation(l, s, loc); err == nil {
			return t, l == time.RFC3339
		}
	}
	return time.Time{}, false
}
