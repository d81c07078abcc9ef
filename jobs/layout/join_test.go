package layout

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

func indexOf(t *testing.T, files ...string) *FlagIndex {
	t.Helper()
	x := NewFlagIndex()
	x.SetDates(time.Time{}, testDay.AddDate(0, 0, 1))
	day := testDay
	for i, f := range files {
		l, rows, _ := detectFixture(t, f, Options{})
		src := x.AddSource(Source{Name: f, Date: day.AddDate(0, 0, i)}, l)
		rd := l.NewReader(nil)
		var row Row
		for _, rec := range rows {
			rd.Read(rec, &row)
			x.AddRow(src, &row)
		}
	}
	return x
}

// A trace without flags takes them from DNC results in any layout; a phone
// no result holds is unknown, never callable.
func TestJoinTraceWithDNCResults(t *testing.T) {
	tr, rows, _ := detectFixture(t, "tracerfy.csv", Options{})
	for _, dnc := range []string{"skipdesk_dnc.csv", "dnc_vendor_yn.csv", "dnc_vendor_codes.csv", "invented_scrub.csv"} {
		x := indexOf(t, dnc)
		if err := tr.Check(x, jobs.QuickCallable, jobs.QuickNotDNC, jobs.QuickNotLitigator); err != nil {
			t.Errorf("%s: %v", dnc, err)
		}
		rd := tr.NewReader(x)
		var row Row
		for _, rec := range rows {
			rd.Read(rec, &row)
			for _, p := range row.Phones {
				f, _, found := x.Lookup(p.Key)
				switch {
				case !found && p.Callable():
					t.Errorf("%s: %s is in no DNC result but callable", dnc, p.Display())
				case !found && p.Block&(BlockUnknownDNC|BlockUnknownLitigator) != BlockUnknownDNC|BlockUnknownLitigator:
					t.Errorf("%s: %s not found: %s", dnc, p.Display(), p.Block)
				case found && p.Callable() != (Callability(true, f) == 0):
					t.Errorf("%s: %s joined %s, own reading %s", dnc, p.Display(), p.Block, Callability(true, f))
				}
			}
		}
	}
	x := indexOf(t, "dnc_vendor_yn.csv")
	rd := tr.NewReader(x)
	var row Row
	rd.Read(rows[0], &row)
	var got []string
	for _, p := range row.Phones {
		got = append(got, p.Digits()[6:]+" "+p.Block.String())
	}
	want := []string{"0101 callable", "0101 callable", "0113 DNC unknown, litigator unknown", "0102 federal DNC"}
	if !slices.Equal(got, want) {
		t.Errorf("row 1 joined: %q, want %q", got, want)
	}
}

// The newest DNC result wins, whole; within one result, flagged wins.
func TestJoinNewestWins(t *testing.T) {
	x := NewFlagIndex()
	l := Detect([]string{"Phone", "DNC", "Litigator"}, nil, Options{})
	old := x.AddSource(Source{Name: "old", Date: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}, l)
	newer := x.AddSource(Source{Name: "new", Date: time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)}, l)
	older := x.AddSource(Source{Name: "older", Date: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}, l)
	k := phone.Key("5125550101")
	x.add(old, k, flagsOf(Federal, Flagged, Litigator, Clean), x.sources[old].Date)
	x.add(newer, k, flagsOf(Federal, Clean, Litigator, Clean), x.sources[newer].Date)
	x.add(older, k, flagsOf(Federal, Flagged, Litigator, Flagged), x.sources[older].Date)
	f, src, ok := x.Lookup(k)
	if !ok || src.Name != "new" || Callability(true, f) != 0 {
		t.Errorf("lookup: %s from %q", mustJSON(f), src.Name)
	}
	x.add(newer, k, flagsOf(Litigator, Flagged), x.sources[newer].Date)
	if f, _, _ := x.Lookup(k); f.Of(Litigator) != Flagged || f.Of(Federal) != Clean {
		t.Errorf("same source merged: %s", mustJSON(f))
	}
	if _, _, ok := x.Lookup(phone.Key("5125550199")); ok || x.Len() != 1 {
		t.Error("a number never added was found")
	}
}

func TestCorrection(t *testing.T) {
	h, rows := readFixture(t, "invented_scrub.csv")
	l := Detect(h, rows, Options{})
	if l.Sure() {
		t.Fatal("the marks column was not asked about")
	}
	js := `{"signature": "` + l.Signature + `", "values": {"known litigator": {"X": "flagged", "blank": "clean"}},
		"columns": {"Lead #": {"role": "other"}, "Carrier Type": {"role": "phone_type"}}}`
	c, err := ParseCorrection([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	l2 := Detect(h, rows, Options{Correction: c})
	if !l2.Sure() || !l2.Corrected {
		t.Errorf("questions after the correction: %+v", l2.Questions)
	}
	var got []string
	for _, ps := range readAll(t, l2, rows, nil) {
		got = append(got, strings.Join(ps, ";"))
	}
	want := []string{"(512) 555-0101 mobile callable", "(512) 555-0102 landline federal DNC", "(214) 555-0103 voip litigator",
		"(512) 555-0104 mobile state DNC", "(512) 555-0106 landline state DNC"}
	if !slices.Equal(got, want) {
		t.Errorf("read with the correction:\n %s\nwant\n %s", strings.Join(got, "\n "), strings.Join(want, "\n "))
	}
	// A correction survives JSON, and can move a column to another role.
	b, _ := json.Marshal(c)
	c2, err := ParseCorrection(b)
	if err != nil {
		t.Fatal(err)
	}
	if Detect(h, rows, Options{Correction: c2}).Signature != c2.Signature {
		t.Error("signature changed")
	}
	federal := Federal
	move := &Correction{Columns: map[string]ColumnFix{"State DNC List": {Role: RoleOther}, "Known Litigator": {Role: RoleFlag, Kind: &federal}}}
	l3 := Detect(h, rows, Options{Correction: move})
	if l3.Reports.Has(State) || l3.Reports.Has(Litigator) || !l3.Reports.Has(Federal) {
		t.Errorf("moved columns: reports %v", l3.Reports.List())
	}
	if _, err := ParseCorrection([]byte(`{"columns": {"A": {"role": "wizard"}}}`)); err == nil {
		t.Error("unknown role accepted")
	}
	if _, err := ParseCorrection([]byte(`{"colums": {}}`)); err == nil {
		t.Error("unknown field accepted")
	}
	// A phone column detection missed, named by the person.
	hl := []string{"Name", "Contact No"}
	rs := [][]string{{"A", "5125550101"}}
	if l := Detect(hl, rs, Options{}); len(l.Slots) != 0 {
		t.Fatalf("%d slots before the correction", len(l.Slots))
	}
	mobile := &Correction{Columns: map[string]ColumnFix{"contact no": {Role: RolePhone, Type: Mobile}}}
	lc := Detect(hl, rs, Options{Correction: mobile})
	if len(lc.Slots) != 1 || lc.Slots[0].Implied != Mobile || !lc.Columns[1].Corrected {
		t.Errorf("slots %+v", lc.Slots)
	}
	if start := l.CorrectionFor("State DNC List"); start.Columns["State DNC List"].Role != RoleFlag ||
		*start.Columns["State DNC List"].Kind != State {
		t.Errorf("CorrectionFor: %+v", start.Columns)
	}
}

func TestTallyAndSummary(t *testing.T) {
	_, _, s := detectFixture(t, "dnc_vendor_yn.csv", Options{})
	var lines []string
	for _, r := range s.Readings {
		lines = append(lines, r.String())
	}
	want := []string{
		"LINE_TYPE (phone type, for Phone): Wireless -> mobile 4, Landline -> landline 2, VoIP -> voip 1, Unknown -> unknown 1",
		"DNC_FEDERAL (federal DNC, for Phone): Y -> flagged 1, N -> clean 6, ? -> unknown 1",
		"DNC_STATE (state DNC, for Phone): Y -> flagged 1, N -> clean 6, (blank) -> unknown 1",
		"LITIGATOR (litigator, for Phone): Y -> flagged 1, N -> clean 6, ? -> unknown 1",
	}
	if !slices.Equal(lines, want) {
		t.Errorf("readings:\n %s\nwant\n %s", strings.Join(lines, "\n "), strings.Join(want, "\n "))
	}
	if s.Rows != 8 || s.Phones.Valid != 7 || s.Phones.Invalid != 1 {
		t.Errorf("rows %d, phones %+v", s.Rows, s.Phones)
	}
	text := s.Text()
	for _, w := range []string{"DNC scrub result, 8 rows", `Phone: "PHONE"; type "LINE_TYPE"; flags "DNC_FEDERAL" federal DNC`,
		"LITIGATOR (litigator, for Phone): Y -> flagged 1", "Scrub dates: none in the file"} {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Layout struct {
			Kind    string   `json:"kind"`
			Reports []string `json:"reports"`
			Columns []struct {
				Header string `json:"header"`
				Role   string `json:"role"`
				Kind   string `json:"kind"`
			} `json:"columns"`
		} `json:"layout"`
		Readings []Reading `json:"readings"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Layout.Kind != "dnc" || !slices.Equal(back.Layout.Reports, []string{"federal", "state", "litigator"}) ||
		back.Layout.Columns[4].Kind != "litigator" || back.Layout.Columns[0].Kind != "" || len(back.Readings) != 4 {
		t.Errorf("JSON: %s", b)
	}
	// The tally stays bounded on a column of free text.
	l := Detect([]string{"Phone", "DNC"}, nil, Options{})
	tl := l.NewTally()
	for i := range 1000 {
		tl.Add([]string{"5125550101", strings.Repeat("x", i%200+2)})
	}
	r := tl.Readings()[0]
	if len(r.Values) != maxDistinct || r.OtherCount != 1000-maxDistinct*5 {
		t.Errorf("%d values, %d other", len(r.Values), r.OtherCount)
	}
}

// A trace's own clean flags do not make a phone callable once a DNC result
// is joined that does not have the number, or does not know.
func TestJoinOverridesOwnFlags(t *testing.T) {
	l, rows, _ := detectFixture(t, "propstream.csv", Options{})
	x := NewFlagIndex()
	d := Detect([]string{"PHONE", "DNC", "LITIGATOR"}, nil, Options{})
	x.SetDates(testDay, testDay.AddDate(0, 0, 1))
	src := x.AddSource(Source{Name: "scrub", Date: testDay}, d)
	x.add(src, phone.Key("5125550104"), flagsOf(Federal, Unknown, Litigator, Clean), x.sources[src].Date)
	x.add(src, phone.Key("5125550105"), flagsOf(Federal, Clean, Litigator, Clean), x.sources[src].Date)
	x.add(src, phone.Key("5125550109"), flagsOf(Federal, Clean, Litigator, Clean), x.sources[src].Date)
	got := readAll(t, l, rows[2:3], x)[0]
	want := []string{
		"(512) 555-0104 mobile DNC unknown", "(512) 555-0105 mobile callable",
		"(512) 555-0106 landline DNC unknown, litigator unknown", // in no DNC result
		"(512) 555-0109 mobile DNC",                              // flagged by the trace stays flagged
		"(512) 555-0110 landline DNC unknown, litigator unknown",
	}
	if !slices.Equal(got, want) {
		t.Errorf("joined:\n %s\nwant\n %s", strings.Join(got, "\n "), strings.Join(want, "\n "))
	}
}

// The company's own list applies to every phone, with or without a DNC
// result: a number on it is never callable, never "not DNC". It is a list
// of its own: it never answers for the file's internal list.
func TestInternalList(t *testing.T) {
	l, rows, _ := detectFixture(t, "propstream.csv", Options{})
	x := fresh()
	x.SetInternal(phone.NewKeySet([]uint64{phone.Key("5125550101")}))
	if err := l.Check(x, jobs.QuickCallable, jobs.QuickNotDNC); err != nil {
		t.Fatal(err)
	}
	rd := l.NewReader(x)
	var row Row
	rd.Read(rows[0], &row)
	if p := row.Phones[0]; p.Callable() || p.Block != BlockCompany || Passes(jobs.QuickNotDNC, &p) || p.Flags.Of(Company) != Flagged ||
		p.Flags.Has.Has(Internal) {
		t.Errorf("a number on the internal list: %s", p.Block)
	}
	// The others keep the file's own answers, and are clean on the list.
	if p := row.Phones[1]; p.Block != BlockDNC || p.Flags.Of(Company) != Clean {
		t.Errorf("a number not on the list: %s", p.Block)
	}
	rd.Read(rows[2], &row)
	if p := row.Phones[0]; !p.Callable() {
		t.Errorf("a clean number not on the list: %s", p.Block)
	}

	// With DNC results joined as well.
	tr, trows, _ := detectFixture(t, "tracerfy.csv", Options{})
	j := indexOf(t, "dnc_vendor_yn.csv")
	j.SetInternal(phone.NewKeySet([]uint64{phone.Key("5125550101")}))
	tr.NewReader(j).Read(trows[0], &row)
	if p := row.Phones[0]; p.Callable() || p.Block&BlockCompany == 0 {
		t.Errorf("joined, on the internal list: %s", p.Block)
	}

	// A file's own internal DNC column left unanswered stays unknown beside
	// the company's list, which knows only its own numbers.
	vl := Detect([]string{"Phone", "Federal DNC", "Litigator", "Internal DNC"},
		[][]string{{"5125550101", "N", "N", ""}, {"5125550102", "N", "N", "N"}}, Options{})
	vx := fresh()
	vx.SetInternal(phone.NewKeySet(nil))
	got := readAll(t, vl, [][]string{{"5125550101", "N", "N", ""}, {"5125550102", "N", "N", "N"}}, vx)
	if got[0][0] != "(512) 555-0101 ? internal DNC (the file's) unknown" || got[1][0] != "(512) 555-0102 ? callable" {
		t.Errorf("the file's internal list beside an empty company list: %q", got)
	}
}

// A phone's answer carries the date of its scrub; one older than 31 days
// is stale, and stale is never callable nor "not DNC".
func TestScrubDates(t *testing.T) {
	tr, trows, _ := detectFixture(t, "tracerfy.csv", Options{})
	x := indexOf(t, "dnc_vendor_yn.csv") // scrubbed 2025-05-01
	scrubbed := time.Date(2025, 5, 1, 0, 0, 0, 0, time.UTC)
	var row Row
	for _, c := range []struct {
		now   time.Time
		stale bool
	}{
		{scrubbed.AddDate(0, 0, 31), false},
		{scrubbed.AddDate(0, 0, 31).Add(time.Minute), true},
	} {
		x.SetDates(time.Time{}, c.now)
		tr.NewReader(x).Read(trows[0], &row)
		p := row.Phones[0]
		if !p.Scrubbed.Equal(scrubbed) {
			t.Fatalf("scrubbed %v, want %v", p.Scrubbed, scrubbed)
		}
		if c.stale != (p.Block == BlockStale) || c.stale == p.Callable() || c.stale == Passes(jobs.QuickNotDNC, &p) {
			t.Errorf("at %v: %s", c.now, p.Block)
		}
		if c.stale && p.Block.String() != "scrub over 31 days old" {
			t.Errorf("words: %s", p.Block)
		}
	}
	// A phone the results never answered has no scrub date.
	if p := row.Phones[2]; !p.Scrubbed.IsZero() || p.Block&BlockStale != 0 {
		t.Errorf("a phone no scrub answered: %v %s", p.Scrubbed, p.Block)
	}
	// The file's own flags take the file's date.
	l, rows, _ := detectFixture(t, "propstream.csv", Options{})
	own := NewFlagIndex()
	own.SetDates(scrubbed, scrubbed.AddDate(0, 2, 0))
	l.NewReader(own).Read(rows[2], &row)
	if p := row.Phones[0]; !p.Scrubbed.Equal(scrubbed) || p.Block != BlockStale {
		t.Errorf("own flags: %v %s", p.Scrubbed, p.Block)
	}
}

// A number scrubbed again shows what the newest scrub found that the one
// before did not, whatever order the results are read in.
func TestChangeSinceTheScrubBefore(t *testing.T) {
	k := phone.Key("2125550101")
	other := phone.Key("2125550102")
	day := func(d int) time.Time { return time.Date(2026, 5, d, 0, 0, 0, 0, time.UTC) }
	answers := []struct {
		date  time.Time
		flags Flags
	}{
		{day(1), flagsOf(Federal, Clean, Litigator, Clean)},
		{day(10), flagsOf(Federal, Clean, Litigator, Clean)},
		{day(20), flagsOf(Federal, Flagged, Litigator, Clean)},
	}
	for _, order := range [][]int{{0, 1, 2}, {2, 1, 0}, {1, 2, 0}, {2, 0, 1}} {
		x := NewFlagIndex()
		l := &Layout{Reports: Kinds(0).with(Federal).with(Litigator)}
		for _, i := range order {
			src := x.AddSource(Source{Name: fmt.Sprint(i), Date: answers[i].date}, l)
			x.add(src, k, answers[i].flags, x.sources[src].Date)
			if i == 2 {
				x.add(src, other, flagsOf(Federal, Clean, Litigator, Clean), x.sources[src].Date)
			}
		}
		became, since := x.Change(k)
		if became != BlockFederal || !since.Equal(day(10)) {
			t.Errorf("order %v: became %s since %v, want federal DNC since May 10", order, became, since)
		}
		if b, s := x.Change(other); b != 0 || !s.IsZero() {
			t.Errorf("order %v: a number scrubbed once changed: %s %v", order, b, s)
		}
	}
	// Clean again: nothing became.
	x := NewFlagIndex()
	l := &Layout{Reports: Kinds(0).with(Federal).with(Litigator)}
	a := x.AddSource(Source{Date: day(1)}, l)
	b := x.AddSource(Source{Date: day(2)}, l)
	x.add(a, k, flagsOf(Federal, Flagged, Litigator, Clean), x.sources[a].Date)
	x.add(b, k, flagsOf(Federal, Clean, Litigator, Clean), x.sources[b].Date)
	if became, _ := x.Change(k); became != 0 {
		t.Errorf("off the registry: became %s", became)
	}
}

// A column naming one state answers that state's list only: a newer scrub
// of New Jersey's list never stands for an older file's answer about the
// list of every phone's own state, nor for another named state's.
func TestNamedStateListsStandApart(t *testing.T) {
	t.Parallel()
	named := Detect([]string{"phone", "dnc federal", "nj state dnc", "litigator"}, nil, Options{})
	if k := named.Columns[2].Kind; k != StateNamed {
		t.Fatalf(`"nj state dnc" read as %s, want %s`, k, StateNamed)
	}
	all := Detect([]string{"TELEPHONE", "DNC STATE", "LITIGATOR FLAG"}, nil, Options{})
	if k := all.Columns[1].Kind; k != State {
		t.Fatalf(`"DNC STATE" read as %s, want %s`, k, State)
	}
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	k := phone.Key("4153970631")
	for _, c := range []struct {
		name        string
		newer       Flags
		older       Flags
		wantBlock   Block
		wantOfState Flag
	}{
		{"an unknown state list beside a clean named one", flagsOf(Federal, Clean, StateNamed, Clean),
			flagsOf(Litigator, Clean, State, Unknown), BlockUnknownState, Unknown},
		{"an older named state flagged beside a newer named one", flagsOf(Federal, Clean, StateNamed, Clean, Litigator, Clean),
			flagsOf(StateNamed, Flagged), BlockState, Unknown},
		{"a newer answer over all states stands", flagsOf(Federal, Clean, State, Clean, Litigator, Clean),
			flagsOf(State, Unknown), 0, Clean},
	} {
		x := NewFlagIndex()
		x.SetDates(time.Time{}, day.AddDate(0, 0, 20))
		older := x.AddSource(Source{Name: "older", Date: day}, all)
		newer := x.AddSource(Source{Name: "newer", Date: day.AddDate(0, 0, 12)}, named)
		x.add(newer, k, c.newer, x.sources[newer].Date)
		x.add(older, k, c.older, x.sources[older].Date)
		f, _, _ := x.Lookup(k)
		if got := Callability(true, f); got != c.wantBlock {
			t.Errorf("%s: %s, want %s", c.name, got, c.wantBlock)
		}
		if f.Has.Has(State) && f.Of(State) != c.wantOfState {
			t.Errorf("%s: state list %s, want %s", c.name, f.Of(State), c.wantOfState)
		}
	}
}

// A flagged verdict ("Safe to Call": DNC) does not say on which list the
// phone was found: a newer scrub of the registry alone does not clear it,
// for the phone may be on its state's list, which that scrub never
// checked. A newer scrub that answers the state lists too does.
func TestFlaggedVerdictStandsBesideTheRegistryAlone(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	read := func(x *FlagIndex, name string, date time.Time, h []string, rec []string) {
		l := Detect(h, [][]string{rec}, Options{Now: now})
		src := x.AddSource(Source{Name: name, Date: date}, l)
		var row Row
		l.NewReader(nil).Read(rec, &row)
		x.AddRow(src, &row)
	}
	verdict := []string{"Phone", "Last DNC Check", "Safe to Call", "Litigator"}
	for _, c := range []struct {
		name     string
		h, rec   []string
		callable bool
	}{
		{"the registry alone", []string{"Owner 1 Phone 1", "Owner 1 Phone 1_DNC"}, []string{"404.891.1548", "0"}, false},
		{"the registry and the state lists", []string{"Phone", "DNC", "State DNC", "Litigator"},
			[]string{"4048911548", "N", "N", "N"}, true},
	} {
		x := NewFlagIndex()
		x.SetDates(time.Time{}, now)
		read(x, "older", now.AddDate(0, 0, -26), verdict, []string{"4048911548", "10/31/26", "DNC", "False"})
		read(x, "newer", now.AddDate(0, 0, -14), c.h, c.rec)
		f, _, ok := x.Lookup(phone.Key("4048911548"))
		if !ok {
			t.Fatalf("%s: the number is not in the index", c.name)
		}
		if got := Callability(true, f); (got == 0) != c.callable {
			t.Errorf("a flagged verdict, then a clean scrub of %s: %s, want callable %v", c.name, got, c.callable)
		}
	}
}

// A DNC result's column read by a guess (a yes/no column whose header was
// lost, read as an industry list and asked about) may flag a number in the
// file it is joined to, but clears nothing there: the trace's unknown DMA
// answer stays unknown (generated seed 1,744,898).
func TestJoinedGuessClearsNothing(t *testing.T) {
	scrubH := []string{"phone", "result_code", "reason", ""}
	scrub := [][]string{{"5086594626", "D", "Litigator", "y"}, {"5128055120", "C", "", "n"}, {"5128055121", "C", "", "y"}}
	sl := Detect(scrubH, scrub, Options{})
	if !slices.ContainsFunc(sl.Questions, func(q Question) bool { return q.Guess }) {
		t.Fatalf("the nameless column is not asked about: %+v", sl.Questions)
	}
	x := NewFlagIndex()
	x.SetDates(time.Time{}, testDay.AddDate(0, 0, 1))
	src := x.AddSource(Source{Name: "scrub.csv", Date: testDay}, sl)
	rd := sl.NewReader(nil)
	var row Row
	for _, rec := range scrub {
		rd.Read(rec, &row)
		x.AddRow(src, &row)
	}
	traceH := []string{"Phone 1", "Phone 1 DMAchoice", "Phone 2", "Phone 2 DMAchoice"}
	trace := [][]string{{"5128055120", "", "5128055121", ""}}
	got := readAll(t, Detect(traceH, trace, Options{}), trace, x)[0]
	if strings.HasSuffix(got[0], "callable") || !strings.Contains(got[0], "industry list unknown") {
		t.Errorf("the guessed column's clean answer cleared the trace's DMA: %q", got[0])
	}
	if !strings.Contains(got[1], "industry list") || strings.Contains(got[1], "industry list unknown") {
		t.Errorf("the guessed column's yes did not flag: %q", got[1])
	}
}
