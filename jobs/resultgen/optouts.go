package resultgen

import (
	"strconv"
	"strings"
	"time"
)

// OptOutCase is an export of the opt-outs people made where SkipDesk does
// not see them, as SMS tools (a contact's number or a From and a To, the
// message, its date, its direction or none) and dialers (a number or an
// ANI and a DNIS, the disposition, the agent's notes, the call's
// direction or none) write them, with its truth: which rows are a person
// asking not to be contacted, and whose number that is. The promise it
// tests: every such person's number goes on the company's list, or its row
// is named as not read; a row known not to be one (a message the tool
// sent, a reply or disposition that says nothing of the kind, the row's
// direction said) puts nothing on it.
type OptOutCase struct {
	*ListCase               // the file: its sheets, CSV or workbook
	Rows      [][]OptOutRow // by sheet, by row
}

// OptOutRow is the truth of a row.
type OptOutRow struct {
	Stop bool // the person asked not to be contacted (or may have: a person must read it)
	// Person are the numbers of the person the row is about; Ours is the
	// tool's own number (a From or a To), 0 where the file has none.
	Person []uint64
	Ours   uint64
	Bad    bool // the person's number cannot be read
	// Known: the row says who wrote or was called (a direction, or a file
	// of one number column): nothing but the person's number may be added,
	// and nothing at all for a row that is not an opt-out.
	Known bool
	// When is the day the person asked (zero where the file does not say
	// it readably): an entry is never dated before it, which would let it
	// be taken off the list before its time.
	When time.Time
}

// Vocabularies of what people reply and what agents record.
var (
	optOutStops = []string{"STOP", "Stop", "stop.", "STOP!!", "Unsubscribe", "remove me", "Please remove me from your list",
		"take me off your list", "Stop texting me", "QUIT", "End", "cancel", "opt out", "Don't text me again",
		"No more texts please", "do not contact me", "STOP ALL", "🛑", "Remove", "BAJA", "No me escriba más",
		"Not interested", "wrong number", "Who is this? Wrong number", "Stop. Not selling", "stp"}
	optOutOther = []string{"yes", "How much?", "Call me tomorrow", "Who is this?", "maybe", "What's your offer",
		"ok", "👍", "Sure, send it", "Is this about the house on Main?", "I might sell next year", "Call after 5"}
	optOutSent = []string{"Hi {name}, are you the owner of {n} Main St? Reply STOP to opt out",
		"Would you consider a cash offer for {n} Oak Ave? Text STOP to unsubscribe",
		"You have been unsubscribed and will receive no more messages.", "Thanks {name}! When is a good time to talk?"}
	dispoStops = []string{"DNC", "Do Not Call", "DNC Request", "Internal DNC", "Opted Out", "Remove", "Litigator",
		"Asked not to be called", "Not Interested", "Wrong Number", "Hostile", "Opt-Out"}
	dispoOther = []string{"No Answer", "Voicemail", "Left Message", "Busy", "Callback", "Appointment Set",
		"Answering Machine", "Contacted"}
	noteStops = []string{"asked not to be called again", "said remove her number", "do not call this number",
		"customer said never call again"}
	noteOther = []string{"", "left vm", "call back after 5", "spoke to owner, thinking about it", "no answer"}
)

// optOutDirections are how exports write a row's way, inbound then
// outbound.
var optOutDirections = [][2]string{{"inbound", "outbound"}, {"Inbound", "Outbound"}, {"Incoming", "Outgoing"},
	{"Received", "Sent"}, {"inbound", "outbound-api"}, {"IN", "OUT"}}

// optOutShape is the columns of a sheet.
type optOutShape struct {
	texts     bool // an SMS tool's (else a dialer's or a CRM's)
	crm       bool // a CRM's contacts, opt-outs marked in columns of their own
	marks     []string
	marked    string    // the marks' date column, or ""
	yesNo     [2]string // how the marks write yes and no
	created   string    // the contact's creation date beside the row's own, or ""
	clock     string    // a time of day column beside the date, or ""
	number    string    // the number column's header; "" where there is a From and a To
	from, to  string
	said      string // the message or disposition column
	date      string
	direction string // "" where there is none
	notes     string // a dialer's notes column, or ""
	dir       [2]string
	others    []string // columns besides (agent, name, duration…)
}

// OptOuts generates the case of seed.
func OptOuts(seed int64) *OptOutCase {
	r := newRNG(seed)
	nums := &numbers{r: r, used: map[string]bool{}}
	c := &OptOutCase{ListCase: &ListCase{Seed: seed, XLSX: r.chance(0.35), Delim: pick(r, []byte{',', ',', ',', ';', '\t'})}}
	if !c.XLSX {
		c.BOM = r.chance(0.2)
	}
	sheets := 1
	if c.XLSX && r.chance(0.3) {
		sheets = 2
	}
	for i := range sheets {
		sh := optOutShapeOf(r)
		name := pick(r, []string{"Replies ", "Messages ", "Calls ", "Sheet"}) + strconv.Itoa(i+1)
		s, rows := c.optOutSheet(r, nums, sh, name)
		c.Sheets = append(c.Sheets, s)
		c.Rows = append(c.Rows, rows)
	}
	return c
}

// optOutShapeOf draws a sheet's columns.
func optOutShapeOf(r rng) optOutShape {
	if r.chance(0.25) {
		return crmShape(r)
	}
	sh := optOutShape{texts: r.chance(0.5), dir: pick(r, optOutDirections)}
	if r.chance(0.3) {
		sh.created = pick(r, []string{"Created", "Date Created", "Created On"})
	}
	pair := r.chance(0.4)
	if sh.texts {
		sh.said = pick(r, []string{"Message", "Body", "Reply", "Message Body", "Text", "Last Reply"})
		sh.date = pick(r, []string{"Date", "Created At", "Received At", "Timestamp", "SentDate", "Date Sent"})
		if pair {
			p := pick(r, [][2]string{{"From", "To"}, {"Sender", "Recipient"}, {"From Number", "To Number"}})
			sh.from, sh.to = p[0], p[1]
		} else {
			sh.number = pick(r, []string{"Contact Phone", "Phone", "Phone Number", "Mobile", "Cell Phone"})
		}
		sh.others = pickSome(r, []string{"First Name", "Campaign", "Status"}, r.between(0, 2))
	} else {
		sh.said = pick(r, []string{"Disposition", "Call Result", "Call Disposition", "Outcome", "Result"})
		sh.date = pick(r, []string{"Call Date", "Date", "Timestamp", "Call Start", "Start Time"})
		if sh.date == "Date" || sh.date == "Call Date" {
			sh.clock = pick(r, []string{"", "Time", "Call Time"})
		}
		if pair {
			p := pick(r, [][2]string{{"ANI", "DNIS"}, {"From", "To"}, {"Caller ID", "Called Number"}})
			sh.from, sh.to = p[0], p[1]
		} else {
			sh.number = pick(r, []string{"Phone", "Phone Number", "Lead Phone", "Number", "Dialed Number"})
		}
		if r.chance(0.5) {
			sh.notes = pick(r, []string{"Notes", "Call Notes", "Comments", "Agent Notes"})
		}
		sh.others = pickSome(r, []string{"Agent", "Duration", "Campaign"}, r.between(0, 2))
	}
	// Most exports of both ends say which way a row went; an SMS tool's
	// log of every message as well.
	if r.chance(0.6) || pair && r.chance(0.6) {
		sh.direction = pick(r, []string{"Direction", "Type", "Message Direction", "Call Direction", "Call Type"})
	}
	return sh
}

// crmShape is a CRM's or an SMS tool's contacts: a number, one or two
// columns marking an opt-out (Salesforce's DoNotCall), a status, the
// contact's creation date, now and then the opt-out's own date.
func crmShape(r rng) optOutShape {
	sh := optOutShape{crm: true, number: pick(r, []string{"Phone", "Mobile Phone", "Phone Number", "Cell"}),
		marks:   pickSome(r, []string{"DNC", "DoNotCall", "Do Not Call", "Opted Out", "SMS Opt Out", "Unsubscribed", "Is DNC"}, r.between(1, 2)),
		yesNo:   pick(r, [][2]string{{"Yes", "No"}, {"TRUE", "FALSE"}, {"true", "false"}, {"1", "0"}, {"X", ""}, {"Y", "N"}}),
		created: pick(r, []string{"Created", "Date Created", "Created On"})}
	if r.chance(0.4) {
		sh.marked = pick(r, []string{"Opt Out Date", "DNC Date", "Opted Out At", "Unsubscribed At"})
	}
	sh.others = pickSome(r, []string{"First Name", "Email", "Status", "Owner"}, r.between(0, 3))
	return sh
}

// pickSome is n of list, in the list's order.
func pickSome(r rng, list []string, n int) []string {
	var out []string
	for _, i := range r.Perm(len(list))[:n] {
		out = append(out, list[i])
	}
	return out
}

// optOutSheet writes a sheet of shape sh: its header, rows and truth.
func (c *OptOutCase) optOutSheet(r rng, nums *numbers, sh optOutShape, name string) (ListSheet, []OptOutRow) {
	s := ListSheet{Name: name}
	var cols []string
	if sh.number != "" {
		cols = append(cols, sh.number)
	} else {
		cols = append(cols, sh.from, sh.to)
	}
	for _, h := range []string{sh.said, sh.date, sh.clock, sh.created, sh.marked} {
		if h != "" {
			cols = append(cols, h)
		}
	}
	cols = append(cols, sh.marks...)
	if sh.direction != "" {
		cols = append(cols, sh.direction)
	}
	if sh.notes != "" {
		cols = append(cols, sh.notes)
	}
	cols = append(cols, sh.others...)
	add := shuffled(r, &s, cols)
	ours := nums.next(pick(r, plainStates))
	var truth []OptOutRow
	for range r.between(1, 30) {
		values, t := c.optOutRow(r, nums, sh, ours)
		add(values)
		truth = append(truth, t)
	}
	return s, truth
}

// shuffled gives the sheet the columns in an order of their own, and
// returns what adds a row of cells by header in that order.
func shuffled(r rng, s *ListSheet, cols []string) func(cells map[string]ListCell) {
	order := r.Perm(len(cols))
	for _, i := range order {
		s.Header = append(s.Header, cols[i])
		s.Phone = append(s.Phone, false)
	}
	return func(cells map[string]ListCell) {
		row := make([]ListCell, len(cols))
		for j, i := range order {
			row[j] = cells[cols[i]]
		}
		s.Rows = append(s.Rows, row)
	}
}

// optOutRow is one row's cells by header, and its truth.
func (c *OptOutCase) optOutRow(r rng, nums *numbers, sh optOutShape, ours string) (map[string]ListCell, OptOutRow) {
	cells := map[string]ListCell{}
	var t OptOutRow
	if sh.created != "" {
		cells[sh.created] = ListCell{Text: writeDate(r, time.Date(2025, time.Month(r.between(1, 12)), r.between(1, 28), 0, 0, 0, 0, time.UTC))}
	}
	if sh.crm {
		return c.crmRow(r, nums, sh, cells)
	}
	out := direction(r, sh, cells, &t)
	said(r, sh, out, cells, &t)
	when := time.Date(2026, 10, r.between(1, 28), r.between(0, 23), r.between(0, 59), 0, 0, time.UTC)
	cells[sh.date] = ListCell{Text: writeDate(r, when)}
	if sh.clock != "" {
		cells[sh.date] = ListCell{Text: writeDate(r, time.Date(when.Year(), when.Month(), when.Day(), 0, 0, 0, 0, time.UTC))}
		cells[sh.clock] = ListCell{Text: pick(r, []string{when.Format("15:04"), when.Format("3:04 PM"), ""})}
	}
	if readableDate(cells[sh.date].Text) {
		t.When = when
	}
	person := c.personCell(r, nums, sh.number != "", &t)
	if sh.number != "" {
		cells[sh.number] = person
	} else {
		k, _ := strconv.ParseUint(ours, 10, 64)
		t.Ours = k
		mine := ListCell{Text: phoneFormats[r.IntN(len(phoneFormats))](r, ours)}
		cells[sh.from], cells[sh.to] = person, mine
		if out {
			cells[sh.from], cells[sh.to] = mine, person
		}
	}
	for _, o := range sh.others {
		cells[o] = ListCell{Text: pick(r, []string{"Kim", "Lee", "Spring push", "Active", "42", "Ann"})}
	}
	return cells, t
}

// personCell is the person's number as exports write it: any format, a
// workbook's number, now and then two in a cell (a dialer's lead) or
// digits lost.
func (c *OptOutCase) personCell(r rng, nums *numbers, one bool, t *OptOutRow) ListCell {
	d := nums.next(pick(r, plainStates))
	switch x := r.Float64(); {
	case x < 0.04:
		t.Bad = true
		return ListCell{Text: damaged(r, d), Bad: true}
	case x < 0.1 && one:
		cell := c.severalNumbers(r, nums)
		t.Person = cell.Numbers
		return cell
	}
	k, _ := strconv.ParseUint(d, 10, 64)
	t.Person = []uint64{k}
	if c.XLSX && r.chance(0.2) {
		return ListCell{Text: d, Numbers: t.Person, Number: true}
	}
	return ListCell{Text: c.format(r, d), Numbers: t.Person}
}

// direction draws the row's way (a reply, or a message the tool sent; a
// call made or taken; where the file does not say, a reply or a call
// made), and writes it where the file has a column for it: whether the
// row went out.
func direction(r rng, sh optOutShape, cells map[string]ListCell, t *OptOutRow) bool {
	out := sh.texts && sh.direction != "" && r.chance(0.3) || !sh.texts && r.chance(0.8)
	if sh.direction != "" {
		v := sh.dir[0]
		if out {
			v = sh.dir[1]
		}
		if r.chance(0.05) {
			v = "" // left blank now and then
		}
		cells[sh.direction] = ListCell{Text: v}
		t.Known = v != ""
	} else if sh.number != "" {
		t.Known = true // a file of one number column and no direction
	}
	return out
}

// said writes what the row says: a message the tool sent, a reply, or a
// disposition and its notes, an opt-out or not.
func said(r rng, sh optOutShape, out bool, cells map[string]ListCell, t *OptOutRow) {
	switch {
	case sh.texts && out:
		cells[sh.said] = ListCell{Text: strings.NewReplacer("{name}", pick(r, []string{"Ann", "Bob", "José"}),
			"{n}", strconv.Itoa(r.between(1, 9999))).Replace(pick(r, optOutSent))}
	case sh.texts:
		t.Stop = r.chance(0.45)
		cells[sh.said] = ListCell{Text: pick(r, optOutOther)}
		if t.Stop {
			cells[sh.said] = ListCell{Text: pick(r, optOutStops)}
		}
	default:
		t.Stop = r.chance(0.4)
		said, note := pick(r, dispoOther), pick(r, noteOther)
		if t.Stop && (sh.notes == "" || r.chance(0.7)) {
			said = pick(r, dispoStops)
		} else if t.Stop {
			note = pick(r, noteStops)
		}
		cells[sh.said] = ListCell{Text: said}
		if sh.notes != "" {
			cells[sh.notes] = ListCell{Text: note}
		}
	}
}

// crmRow is a contact of a CRM's export: marked as opted out (now and
// then dated) or not.
func (c *OptOutCase) crmRow(r rng, nums *numbers, sh optOutShape, cells map[string]ListCell) (map[string]ListCell, OptOutRow) {
	t := OptOutRow{Known: true, Stop: r.chance(0.35)}
	for _, m := range sh.marks {
		cells[m] = ListCell{Text: sh.yesNo[1]}
	}
	if t.Stop {
		cells[pick(r, sh.marks)] = ListCell{Text: sh.yesNo[0]}
	}
	if sh.marked != "" && t.Stop && r.chance(0.7) {
		when := time.Date(2026, 10, r.between(1, 28), r.between(0, 23), r.between(0, 59), 0, 0, time.UTC)
		cells[sh.marked] = ListCell{Text: writeDate(r, when)}
		if readableDate(cells[sh.marked].Text) {
			t.When = when
		}
	}
	cells[sh.number] = c.personCell(r, nums, true, &t)
	for _, o := range sh.others {
		cells[o] = ListCell{Text: pick(r, []string{"Kim", "Active", "Lead", "Customer", "ann@example.com", ""})}
	}
	return cells, t
}

// writeDate writes when as exports do; now and then a date that cannot be
// read.
func writeDate(r rng, when time.Time) string {
	switch r.IntN(7) {
	case 0:
		return when.Format("2006-01-02 15:04:05")
	case 1:
		return when.Format("1/2/2006 3:04 PM")
	case 2:
		return when.Format(time.RFC3339)
	case 3:
		return when.Format("1/2/06")
	case 4:
		return when.Format("Jan 2, 2006")
	case 5:
		return pick(r, []string{"", "yesterday", "n/a"})
	}
	return when.Format(time.DateOnly)
}

// readableDate reports whether writeDate wrote a date (not one of its
// unreadable values).
func readableDate(s string) bool { return s != "" && s != "yesterday" && s != "n/a" }
