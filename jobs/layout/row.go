package layout

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Row is one row of a result read through its layout.
type Row struct {
	People   []Name
	Emails   []string
	Property Address
	Mailing  Address
	Match    Match
	Entity   Flag // Flagged: the owner is a company; Unknown when not said
	Phones   []Phone
	// Date is when the row's answers were scrubbed, by the file's scrub
	// date columns (zero when they say nothing readable) or, when it has
	// none, the file's own date (SetDates).
	Date  time.Time
	dated bool      // the file has scrub date columns: Date is the row's own
	may   time.Time // the oldest date that may be the scrub's ("DNC Date")
}

// Name is a person's names as the row gives them.
type Name struct {
	Group string
	First string
	Last  string
	Full  string
}

// String is the full name, or first and last joined.
func (n Name) String() string {
	if n.Full != "" {
		return n.Full
	}
	return strings.TrimSpace(n.First + " " + n.Last)
}

// Address is an address as the row gives it.
type Address struct {
	Street, Street2, City, State, Zip, Full string
}

// String is the address on one line.
func (a Address) String() string {
	if a.Street == "" && a.City == "" && a.Full != "" {
		return a.Full
	}
	var parts []string
	street := strings.TrimSpace(a.Street + " " + a.Street2)
	for _, p := range []string{street, a.City, strings.TrimSpace(a.State + " " + a.Zip)} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ", ")
}

// Phone is one phone of a row.
type Phone struct {
	Slot  int    // index in Layout.Slots
	Raw   string // the number as the file writes it
	Key   uint64 // the 10 digits as an integer (phone.Key); 0 when not a valid number
	Type  PhoneType
	Flags Flags
	Block Block // why it may not be called; 0 when it may
	// Scrubbed is when the DNC scrub that answered for the number was
	// made (the oldest of the answers the decision rests on); zero when no
	// scrub answered or its date is not known (see FlagIndex.SetDates).
	Scrubbed time.Time
	// Source is the DNC result of FlagIndex.Sources that Scrubbed is the
	// date of; -1 the file's own answers, -2 none.
	Source int
	// Became are the lists the number is on by its newest scrub and was
	// not by the scrub before, made at Since (FlagIndex.Change).
	Became Block
	Since  time.Time
	// Vendor is what a DNC vendor said of its calling time (the joined DNC
	// result's, else the file's own; nil nothing): it narrows its calling
	// window.
	Vendor *VendorTime
	// own is the date of the file's own answers for this phone, set where
	// it has scrub date columns of its own (Slot.Dates; ownSet).
	own    time.Time
	ownSet bool
	// guessed are the lists its answers of columns read by a guess are
	// about: in a DNC result joined to another file, they clear nothing.
	guessed Kinds
	// stated: its row says something of it beyond its number's answers
	// (a note in its cell, its twin column holding another number).
	stated bool
}

// RowStated reports whether the phone's row says something of it beyond
// its number's answers (a note in its cell, "5125550101 (DNC)"; its twin
// column holding another number): then the same number may read otherwise
// in another row even where the layout's answers are all the number's
// (NumberDecides).
func (p *Phone) RowStated() bool { return p.stated }

// Answers are the phone's flags as another file may take them (a DNC
// result joined to a trace, the library's index of scrub answers): its
// answers from columns read by a guess flag, but are otherwise unknown.
func (p *Phone) Answers() Flags { return p.Flags.unsureOn(p.guessed) }

// Valid reports a valid 10-digit number.
func (p Phone) Valid() bool { return p.Key != 0 }

// Callable reports whether the phone may be called: valid, and clean on
// every list the call depends on (see Callability).
func (p Phone) Callable() bool { return p.Block == 0 }

// Digits are the 10 digits of a valid number, "" otherwise.
func (p Phone) Digits() string {
	if p.Key == 0 {
		return ""
	}
	return phone.KeyDigits(p.Key)
}

// Display is the number as shown: "(512) 555-0162", or the raw text when it
// is not a valid number.
func (p Phone) Display() string {
	if p.Key == 0 {
		return strings.TrimSpace(p.Raw)
	}
	return phone.FormatKey(p.Key)
}

// Reason says why a number is not valid ("too short"), "" for a valid one.
func (p Phone) Reason() string {
	if p.Key != 0 {
		return ""
	}
	if n := phone.Normalize(p.Raw); !n.Valid {
		return n.Reason
	}
	return "the service reports it invalid"
}

// Reader reads rows through a layout. It keeps caches of the values it has
// read: use one per goroutine.
type Reader struct {
	l     *Layout
	join  *FlagIndex
	now   time.Time
	flags []valueCache[valueReading] // by column
	types []valueCache[PhoneType]
	dates []valueCache[scrubbedOn] // by column: a column's dates repeat, and a date's reading is dear
	match valueCache[Match]
	// sole is the one column every phone of the layout is read from (a
	// column of cells of several numbers), -1 when there are others.
	sole int
	// nums is the last cell of numbers read (ConvNumbers): a row's cell is
	// split once, whatever the phones it is about.
	nums struct {
		cell string
		keys []uint64
		ok   bool
		set  bool
	}
}

// NewReader returns a reader of rows in this layout. With join, the DNC
// results' flags of each phone's number override the file's own (a phone
// the file flags stays flagged); a number no DNC result holds is unknown
// on the registries and the litigator list (never callable). Without
// (nil), the file's own answers are read with no date but their rows' own
// (a scrub date column), the time of reading for now and no company list.
func (l *Layout) NewReader(join *FlagIndex) *Reader {
	if join == nil {
		join = NewFlagIndex()
	}
	return &Reader{l: l, join: join, flags: make([]valueCache[valueReading], len(l.Columns)),
		types: make([]valueCache[PhoneType], len(l.Columns)), dates: make([]valueCache[scrubbedOn], len(l.Columns)), now: join.Now(),
		sole: l.soleColumn()}
}

// soleColumn is the one column every phone slot is read from, when there
// is one (-1 otherwise, or with no slot).
func (l *Layout) soleColumn() int {
	if len(l.Slots) == 0 {
		return -1
	}
	c := l.Slots[0].Number
	for _, s := range l.Slots {
		if s.Number != c || s.Raw >= 0 && s.Raw != c {
			return -1
		}
	}
	return c
}

// scrubbedOn is a scrub date cell read (scrubDate).
type scrubbedOn struct {
	t       time.Time
	problem dateProblem
}

// scrubDate reads date column c's cell v as of the reader's now.
func (r *Reader) scrubDate(c int, v string) (time.Time, dateProblem) {
	d := r.dates[c].get(v, func(v string) scrubbedOn {
		t, p := scrubDate(v, r.l.Columns[c].DateOrder, r.now)
		return scrubbedOn{t, p}
	})
	return d.t, d.problem
}

// Layout is the reader's layout.
func (r *Reader) Layout() *Layout { return r.l }

func cell(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return rec[i]
}

func blank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\r', '\n':
		default:
			return false
		}
	}
	return true
}

// flagValue reads a value of flag column i (cached).
func (r *Reader) flagValue(i int, v string) valueReading {
	return r.flags[i].get(v, func(v string) valueReading { return r.l.readValue(i, v) })
}

// readValue reads a value of flag column i, with the person's corrections.
func (l *Layout) readValue(i int, v string) valueReading {
	c := &l.Columns[i]
	if fix, ok := l.values[i]; ok {
		if f, ok := fix[fold(v)]; ok {
			return valueReading{flag: f, known: true, meaning: "as corrected"}
		}
	}
	return readFlagValue(c.Convention, c.Kind, c.Inverted, v)
}

func (r *Reader) typeValue(i int, v string) PhoneType {
	return r.types[i].get(v, func(v string) PhoneType { return r.l.readTypeValue(i, v) })
}

// readTypeValue reads a value of type column i: a kind in words, or for a
// yes/no column named for a kind ("Wireless": 1/0) that kind or, for a
// mobile column's "no", NotMobile.
func (l *Layout) readTypeValue(i int, v string) PhoneType {
	c := &l.Columns[i]
	if c.Convention != ConvFlag {
		t, _ := readType(v)
		return t
	}
	switch f := fold(v); {
	case truthy[f]:
		return c.Implied
	case falsy[f] && c.Implied == Mobile:
		return NotMobile
	}
	return ""
}

// readName reads a name from its columns (-1: none).
func readName(rec []string, group string, first, last, full int) Name {
	return Name{Group: group, First: strings.TrimSpace(cell(rec, first)), Last: strings.TrimSpace(cell(rec, last)),
		Full: strings.TrimSpace(cell(rec, full))}
}

func (n Name) empty() bool { return n.First == "" && n.Last == "" && n.Full == "" }

// Read reads rec into row, reusing row's slices.
func (r *Reader) Read(rec []string, row *Row) {
	row.People = row.People[:0]
	r.readPeople(rec, row)
	r.ReadPhones(rec, row)
}

// readPeople reads names, e-mails and addresses.
func (r *Reader) readPeople(rec []string, row *Row) {
	l := r.l
	for _, p := range l.People {
		n := readName(rec, p.Group, p.First, p.Last, p.Full)
		if n.empty() { // no one found: the person as the list names them
			n = readName(rec, p.Group, p.ListFirst, p.ListLast, p.ListFull)
		}
		if !n.empty() {
			row.People = append(row.People, n)
		}
	}
	row.Emails = row.Emails[:0]
	for _, c := range l.Emails {
		if v := strings.TrimSpace(cell(rec, c)); v != "" {
			row.Emails = append(row.Emails, v)
		}
	}
	row.Property = readAddress(rec, l.Property)
	row.Mailing = readAddress(rec, l.Mailing)
	row.Entity = Unknown
	if l.Entity >= 0 {
		switch f := fold(cell(rec, l.Entity)); {
		case truthy[f]:
			row.Entity = Flagged
		case falsy[f]:
			row.Entity = Clean
		}
	}
}

// ReadPlaces reads only the row's property and mailing addresses (where
// its person may be, for the calling rules).
func (r *Reader) ReadPlaces(rec []string, row *Row) {
	row.Property = readAddress(rec, r.l.Property)
	row.Mailing = readAddress(rec, r.l.Mailing)
}

// ReadPhones reads only what the filters need: the match status, the
// row's scrub date and the phones (row.People, Emails, the addresses and
// Entity are left as they are). Each phone's Block comes from Judge.
func (r *Reader) ReadPhones(rec []string, row *Row) {
	l := r.l
	row.Match = MatchUnknown
	if l.Match >= 0 {
		row.Match = r.match.get(cell(rec, l.Match), matchOf)
	}
	row.Date, row.dated, row.may = r.rowDate(rec)
	row.Phones = row.Phones[:0]
	own := capDate(row.Date, row.may)
	var vt *VendorTime
	if len(l.VendorTime) > 0 {
		vt = r.readVendor(rec, own)
	}
	for j := range l.Slots {
		date := own
		if len(l.Slots[j].Dates) > 0 {
			date = r.phoneDate(rec, &l.Slots[j], row)
		}
		if p, ok := r.readPhone(rec, j, date); ok {
			p.own, p.ownSet = date, len(l.Slots[j].Dates) > 0
			if p.Vendor == nil {
				p.Vendor = vt // the joined result's values come first
			}
			row.Phones = append(row.Phones, p)
		}
	}
}

// slotNumber is the number slot s holds in rec: its key (0 when it is
// not a valid number), the text shown for it (the number as written when
// the file has it), and false when the row has none. Where the number's
// column is blank or unreadable and the number as written is a phone, it
// is that phone: a phone a row speaks of is never lost to one column.
func slotNumber(rec []string, s *Slot) (key uint64, raw string, ok bool) {
	num := cell(rec, s.Number)
	if s.Part > 0 {
		return partNumber(num, s.Part)
	}
	if s.Raw >= 0 {
		raw = cell(rec, s.Raw)
	}
	if blank(num) && blank(raw) {
		return 0, "", false
	}
	key = phone.Key(num)
	if blank(raw) {
		return key, num, true
	}
	if key == 0 {
		key = phone.Key(raw)
	}
	return key, raw, true
}

// twinsDiffer reports a slot whose raw twin holds a valid number other
// than key, its number ("Phone" beside another "Phone").
func twinsDiffer(rec []string, s *Slot, key uint64) bool {
	if s.Raw < 0 || s.Part > 0 || key == 0 {
		return false
	}
	k := phone.Key(cell(rec, s.Raw))
	return k != 0 && k != key
}

// partNumber is the part-th number (1 the first) of a cell of several:
// its key (0 when it is not a valid number), the number as written, and
// false when the cell holds fewer.
func partNumber(v string, part int) (key uint64, raw string, ok bool) {
	n := 0
	for _, f := range strings.FieldsFunc(v, phone.NumberSep) {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		if n++; n == part {
			return phone.Key(f), f, true
		}
	}
	return 0, "", false
}

// severalParts reports whether v holds two parts or more that are not
// blank, split as partNumber splits a cell of several numbers.
func severalParts(v string) bool {
	parts, inPart := 0, false
	for _, c := range v {
		switch {
		case phone.NumberSep(c):
			inPart = false
		case !inPart && !unicode.IsSpace(c):
			inPart = true
			if parts++; parts > 1 {
				return true
			}
		}
	}
	return false
}

// readPhone reads slot j of rec, whose own answers are dated date.
func (r *Reader) readPhone(rec []string, j int, date time.Time) (Phone, bool) {
	l := r.l
	s := &l.Slots[j]
	own := len(s.Flags) > 0 // the file answers for this phone itself
	key, raw, ok := slotNumber(rec, s)
	if !ok {
		return Phone{}, false
	}
	p := Phone{Slot: j, Raw: raw, Key: key}
	if s.Type >= 0 {
		p.Type = r.typeValue(s.Type, cell(rec, s.Type))
	}
	if p.Type == "" && (s.Type < 0 || l.Columns[s.Type].Convention != ConvFlag) {
		p.Type = s.Implied
	}
	unsure := r.applyFlags(&p, s, rec)
	if n := phoneNote(rec, s, raw); n != Clean {
		p.Flags.Set(Restriction, n) // "5125550101 (DNC)"
		p.stated = true
	}
	if twinsDiffer(rec, s, key) {
		// Columns read as one phone's, its number and its number as
		// written, hold two numbers: which one the row's answers are
		// about is not known.
		p.Flags.Set(Number, Unknown)
		p.stated = true
	}
	// A list the file reports for some of its phones is asked of all of
	// them: where the file says nothing, the answer is unknown.
	for _, k := range (l.Reports & fileWide &^ p.Flags.Has).List() {
		p.Flags.Set(k, Unknown)
	}
	if !r.scrubbed(rec, s.Scope) {
		p.Flags = p.Flags.unchecked()
	}
	e := r.join.entry(p.Key) // looked up once for the three
	p.Flags, p.Scrubbed, p.Source = r.join.apply(e, p.Key, p.Flags, own, date)
	p.Vendor = r.join.vendorOf(e)
	p.Became, p.Since = r.join.changeOf(e, p.Key, p.Flags, own)
	p.Block = Judge(p.Key, p.Flags, p.Scrubbed, r.now)
	if unsure {
		p.Block |= BlockUnsure
	}
	return p, true
}

// applyFlags sets what the flag columns of slot s say of phone p in rec;
// it reports whether one of them is read by a guess.
func (r *Reader) applyFlags(p *Phone, s *Slot, rec []string) (unsure bool) {
	// A number of a cell of several: the row's answers were asked of the
	// phone the row is about, not of each number listed. A cell holding
	// one number, where the layout has no phone but that column's, is the
	// row's phone.
	shared := s.Part > 0 && (r.sole != s.Number || severalParts(cell(rec, s.Number)))
	for _, fc := range s.Flags {
		if r.l.guess[fc] {
			unsure, p.guessed = true, p.guessed.with(r.l.Columns[fc].Kind)
		}
		if shared {
			r.applyFlagged(p, fc, cell(rec, fc))
			continue
		}
		r.applyFlag(p, fc, cell(rec, fc))
	}
	return unsure
}

// applyFlag sets what value v of flag column fc says of phone p.
func (r *Reader) applyFlag(p *Phone, fc int, v string) {
	col := &r.l.Columns[fc]
	kind := col.Kind
	if col.Convention == ConvNumbers {
		p.Flags.Set(kind, r.listsNumber(fc, v, p.Key))
		return
	}
	x := r.flagValue(fc, v)
	switch {
	case x.silent:
	case x.invalid:
		// The service did not check the lists of a number it calls
		// invalid ("I", "malformed").
		p.Flags.Set(Number, Flagged)
		p.Flags.Set(kind, Unknown)
	case x.list != nil:
		// A code that speaks of another list: flagged there, and the
		// column's own verdict is not clean for it either.
		p.Flags.Set(*x.list, x.flag)
		p.Flags.Set(kind, Unknown)
	default:
		p.Flags.Set(kind, x.flag)
		if col.Verdict {
			// The verdict speaks of the state lists too: clean on them
			// when it is clean, not known when it is not known. Flagged,
			// it does not say on which list: the state lists are not
			// known clean, so that a later scrub of the registry alone
			// never clears a phone the verdict may have found on a
			// state's list.
			state := x.flag
			if state == Flagged {
				state = Unknown
			}
			p.Flags.Set(State, state)
		}
	}
}

// applyFlagged is applyFlag for one of the several numbers of a cell
// (Slot.Part): a row's answer, or one column's over all of them, was
// asked of the phone the row is about, not of every number a cell lists:
// only what flags is taken, and a clean answer on a list is unknown for it
// (a restriction the row states, or its stating none, stands).
func (r *Reader) applyFlagged(p *Phone, fc int, v string) {
	q := Phone{Key: p.Key}
	r.applyFlag(&q, fc, v)
	for k := FlagKind(0); k < numKinds; k++ {
		if !q.Flags.Has.Has(k) {
			continue
		}
		switch f := q.Flags.Of(k); {
		case f == Flagged, k == Restriction:
			// A restriction stated, or none: the row's words are about
			// every number it holds.
			p.Flags.Set(k, f)
		default:
			p.Flags.Set(k, Unknown)
		}
	}
}

// listsNumber is what a cell of column i (ConvNumbers) says of the number
// key: flagged when it lists it, or says in other words that the row has
// numbers on the list ("Yes"); unknown otherwise (its silence is no clean
// answer); or as the person read the cell's value.
func (r *Reader) listsNumber(i int, v string, key uint64) Flag {
	if fix, ok := r.l.values[i]; ok {
		if f, ok := fix[fold(v)]; ok {
			return f
		}
	}
	if n := &r.nums; !n.set || n.cell != v {
		n.keys, n.ok = phone.KeysIn(v)
		n.cell, n.set = v, true
	}
	keys, ok := r.nums.keys, r.nums.ok
	switch {
	case ok && key != 0 && slices.Contains(keys, key):
		return Flagged
	case !ok && strings.TrimSpace(v) != "" && readFlagValue(ConvFlag, r.l.Columns[i].Kind, false, v).flag == Flagged:
		return Flagged // "Yes": the row has numbers on the list, which is not said
	}
	return Unknown
}

// scrubbed reports whether the scope columns say the row (or the phone) was
// scrubbed: every one must say so.
func (r *Reader) scrubbed(rec []string, scope []int) bool {
	for _, c := range scope {
		if !readScope(r.l.Columns[c].Inverted, cell(rec, c)) {
			return false
		}
	}
	return true
}

// rowDate is when the row's answers were scrubbed: the oldest of its scrub
// date columns (zero when one is blank, not a date or in the future), or the
// file's own date when it has none; dated says the file has such columns.
// A column that only may date the row ("DNC Date") makes the date older
// where it is older, and is otherwise passed over.
func (r *Reader) rowDate(rec []string) (date time.Time, dated bool, may time.Time) {
	date, dated, may = r.datesOf(rec, r.l.Dates, r.join.own)
	for _, c := range r.l.Caps {
		v := cell(rec, c)
		switch t, problem := r.scrubDate(c, v); {
		case problem == dateNone && blankDate(v):
		case problem != dateKnown:
			return time.Time{}, true, time.Time{} // no phone's date is known
		case may.IsZero() || t.Before(may):
			may = t
		}
	}
	return date, dated, may
}

// phoneDate is when slot s's answers in rec were scrubbed: the oldest of
// its own date columns and the row's (zero when one is not known); where
// its own only may date it ("Phone 2 Date"), the row's made no later.
func (r *Reader) phoneDate(rec []string, s *Slot, row *Row) time.Time {
	date, dated, may := r.datesOf(rec, s.Dates, time.Time{})
	switch {
	case !dated:
		date = row.Date // its own columns may only make it older ("Phone 2 Date")
	case row.dated && (row.Date.IsZero() || row.Date.Before(date)):
		date = row.Date
	}
	if !row.may.IsZero() && (may.IsZero() || row.may.Before(may)) {
		may = row.may
	}
	return capDate(date, may)
}

// datesOf is the oldest date of the scrub date columns cols in rec, as
// rowDate reads them; date when there are none.
func (r *Reader) datesOf(rec []string, cols []int, date time.Time) (_ time.Time, dated bool, may time.Time) {
	for _, c := range cols {
		col := &r.l.Columns[c]
		t, problem := r.scrubDate(c, cell(rec, c))
		ok, future := problem != dateNone, problem.future()
		switch {
		case col.MayDate && (future || problem == dateNone && !blankDate(cell(rec, c))):
			// No date of a scrub lies in the future, nor is one that
			// cannot be read passed over: the row's date is not known.
			return time.Time{}, true, time.Time{}
		case col.MayDate:
			if ok && (may.IsZero() || t.Before(may)) {
				may = t
			}
			continue
		case !dated:
			date, dated = t, true
		case !date.IsZero() && t.Before(date):
			date = t
		}
		if !ok || future {
			date = time.Time{}
			may = time.Time{}
			break
		}
	}
	return date, dated, may
}

// blankDate is a date cell that holds no date: blank, or a word for none
// ("n/a", "pending").
func blankDate(v string) bool { return unknown[fold(v)] }

// capDate is date made no later than may (a date that may be the scrub's);
// a date not known stays unknown.
func capDate(date, may time.Time) time.Time {
	if !may.IsZero() && !date.IsZero() && may.Before(date) {
		return may
	}
	return date
}

func readAddress(rec []string, a AddressColumns) Address {
	return Address{
		Street: strings.TrimSpace(cell(rec, a.Street)), Street2: strings.TrimSpace(cell(rec, a.Street2)),
		City: strings.TrimSpace(cell(rec, a.City)), State: strings.TrimSpace(cell(rec, a.State)),
		Zip: strings.TrimSpace(cell(rec, a.Zip)), Full: strings.TrimSpace(cell(rec, a.Full)),
	}
}

// DistinctPhones are the row's phones with each number once, in the order
// the file first gives them: a number listed twice (a "Primary Phone" that
// is also "Mobile 1") keeps the type either column names, every flag either
// reading reports, and every reason either reading has not to call it.
// Numbers that are not valid are kept as written.
func (r *Row) DistinctPhones() []Phone {
	out := make([]Phone, 0, len(r.Phones))
next:
	for _, p := range r.Phones {
		if p.Key != 0 {
			for i := range out {
				if q := &out[i]; q.Key == p.Key {
					if q.Type == "" {
						q.Type = p.Type
					}
					for k := FlagKind(0); k < numKinds; k++ {
						if p.Flags.Has.Has(k) {
							q.Flags.Set(k, p.Flags.Of(k))
						}
					}
					q.Block |= p.Block
					continue next
				}
			}
		}
		out = append(out, p)
	}
	return out
}
