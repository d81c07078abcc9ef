package layout

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestFlagSpellings(t *testing.T) {
	tests := []struct {
		conv     Convention
		kind     FlagKind
		inverted bool
		values   []string
		want     Flag
		invalid  bool
	}{
		{ConvFlag, Federal, false, []string{"true", "TRUE", "yes", "Yes", "Y", "y", "1", "t", "T", " yes "}, Flagged, false},
		{ConvFlag, Federal, false, []string{"false", "False", "no", "NO", "N", "n", "0", "f", "F"}, Clean, false},
		{ConvFlag, Litigator, false, []string{"", " ", "?", "unknown", "N/A", "null", "-", "error", "pending", "maybe", "2", "Z",
			"timeout", "not covered"}, Unknown, false},
		// A listing in any convention is flagged (no less safe than unknown).
		{ConvFlag, Federal, false, []string{"DNC", "Do Not Call", "on list", "Listed", "Federal DNC", "blocked", "x"}, Flagged, false},
		// Clean words are clean in a column of words, and unknown in a
		// yes/no column: its convention does not cover them ("OK" may be
		// Oklahoma).
		{ConvWords, Combined, false, []string{"Clean", "OK", "safe", "Not Listed", "no match"}, Clean, false},
		{ConvFlag, Combined, false, []string{"Clean", "OK", "safe", "Not Listed", "no match"}, Unknown, false},
		{ConvWords, Federal, false, []string{"no", "0", "false"}, Unknown, false},
		{ConvFlag, Litigator, false, []string{"litigator", "TCPA", "Known Litigator"}, Flagged, false},
		{ConvFlag, Federal, false, []string{"invalid", "Disconnected"}, Flagged, true},
		// "Callable: Yes" means clean.
		{ConvFlag, Combined, true, []string{"Yes", "true", "1"}, Clean, false},
		{ConvFlag, Combined, true, []string{"No", "false", "0", "DNC"}, Flagged, false},
		{ConvFlag, Combined, true, []string{"", "?"}, Unknown, false},
		// Marks: X is flagged, and a blank stays unknown.
		{ConvMarks, Litigator, false, []string{"X", "x", "✓", "*"}, Flagged, false},
		{ConvMarks, Litigator, false, []string{"", " "}, Unknown, false},
		// DNC.com result codes.
		{ConvCodes, Combined, false, []string{"C", "c", "W", "Y", "E", "G", "R"}, Clean, false},
		{ConvCodes, Combined, false, []string{"D", "P", "B", "L", "F", "X", "O", "H", "V"}, Flagged, false},
		{ConvCodes, Combined, false, []string{"I", "M", "S"}, Flagged, true},
		{ConvCodes, Combined, false, []string{"T", "Q", "", "?"}, Unknown, false},
		// In a yes/no column the letters are booleans, not codes: Y is
		// flagged (a code Y would be a clean VoIP number).
		{ConvFlag, Federal, false, []string{"Y"}, Flagged, false},
		// State lists: a state code is flagged, Oklahoma included.
		{ConvStates, State, false, []string{"TX", "tx", "TX;FL", "OK", "IN", "or", "ME", "Y"}, Flagged, false},
		// A state code in a state column is never clean, whatever the
		// convention the column's other values are written in.
		{ConvFlag, State, false, []string{"OK", "IN"}, Flagged, false},
		{ConvWords, State, false, []string{"OK", "ok"}, Flagged, false},
		{ConvStates, State, false, []string{"no", "N", "0"}, Clean, false},
		{ConvStates, State, false, []string{"", "?", "XX"}, Unknown, false},
		// Number status.
		{ConvFlag, Number, false, []string{"ok", "valid", "active"}, Clean, false},
		{ConvFlag, Number, false, []string{"invalid", "malformed", "disconnected"}, Flagged, true},
		{ConvFlag, Number, true, []string{"Y", "yes"}, Clean, false},
	}
	for _, tt := range tests {
		for _, v := range tt.values {
			r := readFlagValue(tt.conv, tt.kind, tt.inverted, v)
			if r.flag != tt.want || r.invalid != tt.invalid {
				t.Errorf("%s %s inverted=%v %q: %s invalid=%v, want %s invalid=%v", tt.conv, tt.kind, tt.inverted, v,
					r.flag, r.invalid, tt.want, tt.invalid)
			}
		}
	}
}

// Every documented code is read as documented.
func TestCodesTable(t *testing.T) {
	for _, c := range Codes {
		r := readFlagValue(ConvCodes, Combined, false, c.Code)
		got := r.flag.String()
		if r.invalid {
			got = "invalid"
		}
		if got != c.Reads || r.meaning != c.Meaning {
			t.Errorf("code %s: %s (%q), want %s", c.Code, got, r.meaning, c.Reads)
		}
	}
}

func flagsOf(pairs ...any) Flags {
	var f Flags
	for i := 0; i < len(pairs); i += 2 {
		f.Set(pairs[i].(FlagKind), pairs[i+1].(Flag))
	}
	return f
}

func TestCallability(t *testing.T) {
	tests := []struct {
		name  string
		valid bool
		flags Flags
		want  Block
	}{
		{"clean federal and litigator", true, flagsOf(Federal, Clean, Litigator, Clean), 0},
		{"clean on every list", true, flagsOf(Federal, Clean, State, Clean, Litigator, Clean, Internal, Clean), 0},
		{"combined verdict clean", true, flagsOf(Combined, Clean), 0},
		{"invalid", false, flagsOf(Federal, Clean, Litigator, Clean), BlockInvalid},
		{"service says invalid", true, flagsOf(Federal, Clean, Litigator, Clean, Number, Flagged), BlockInvalid},
		{"federal", true, flagsOf(Federal, Flagged, Litigator, Clean), BlockFederal},
		{"state", true, flagsOf(Federal, Clean, State, Flagged, Litigator, Clean), BlockState},
		{"litigator", true, flagsOf(Federal, Clean, Litigator, Flagged), BlockLitigator},
		{"internal", true, flagsOf(Federal, Clean, Litigator, Clean, Internal, Flagged), BlockInternal},
		{"combined", true, flagsOf(Combined, Flagged), BlockCombined},
		{"federal unknown", true, flagsOf(Federal, Unknown, Litigator, Clean), BlockUnknownDNC},
		{"state unknown", true, flagsOf(Federal, Clean, State, Unknown, Litigator, Clean), BlockUnknownState},
		{"no litigator flag", true, flagsOf(Federal, Clean), BlockUnknownLitigator},
		{"no DNC flag", true, flagsOf(Litigator, Clean), BlockUnknownDNC},
		{"no flags", true, Flags{}, BlockUnknownDNC | BlockUnknownLitigator},
		{"combined unknown", true, flagsOf(Combined, Unknown), BlockUnknownDNC | BlockUnknownLitigator},
		{"combined clean, federal unknown", true, flagsOf(Combined, Clean, Federal, Unknown), BlockUnknownDNC},
		{"the file's DNC column answers the registry", true, flagsOf(DNC, Clean, Litigator, Clean), 0},
		{"federal clean, the file's DNC column unknown", true, flagsOf(Federal, Clean, DNC, Unknown, Litigator, Clean), BlockUnknownDNC},
		{"federal clean, the file's DNC column flagged", true, flagsOf(Federal, Clean, DNC, Flagged, Litigator, Clean), BlockDNC},
		{"industry list", true, flagsOf(Federal, Clean, Litigator, Clean, Industry, Flagged), BlockIndustry},
		{"industry list unknown", true, flagsOf(Federal, Clean, Litigator, Clean, Industry, Unknown), BlockUnknownIndustry},
		{"a restriction in the file", true, flagsOf(Federal, Clean, Litigator, Clean, Restriction, Flagged), BlockRestriction},
		{"the company's list", true, flagsOf(Federal, Clean, Litigator, Clean, Company, Flagged), BlockCompany},
		{"the vendor's internal list unknown, the company's clean", true,
			flagsOf(Federal, Clean, Litigator, Clean, Internal, Unknown, Company, Clean), BlockUnknownInternal},
		{"invalid and not checked", false, Flags{}, BlockInvalid},
		{"several", false, flagsOf(Federal, Flagged, Litigator, Flagged), BlockInvalid | BlockFederal | BlockLitigator},
	}
	for _, tt := range tests {
		if got := Callability(tt.valid, tt.flags); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
	if s := (BlockFederal | BlockUnknownLitigator).String(); s != "federal DNC, litigator unknown" {
		t.Errorf("block words %q", s)
	}
}

// Every combination of readings of every list: a phone is callable only
// when it is valid and every list the call depends on answered clean.
func TestCallableNeverUnknownOrFlagged(t *testing.T) {
	t.Parallel()
	vals := []Flag{Unknown, Clean, Flagged}
	n := 0
	for mask := Kinds(0); mask < 1<<numKinds; mask++ {
		var combos func(k FlagKind, f Flags)
		combos = func(k FlagKind, f Flags) {
			if k == numKinds {
				for _, valid := range []bool{false, true} {
					n++
					b := Callability(valid, f)
					clean := valid
					for kk := FlagKind(0); kk < numKinds; kk++ {
						if f.Has.Has(kk) && f.Of(kk) != Clean {
							clean = false
						}
					}
					dnc := f.Has.Has(Federal) || f.Has.Has(DNC) || f.Has.Has(Combined)
					lit := f.Has.Has(Litigator) || f.Has.Has(Combined)
					if (b == 0) != (clean && dnc && lit) {
						t.Fatalf("valid=%v flags %s: %s", valid, mustJSON(f), b)
					}
				}
				return
			}
			if !mask.Has(k) {
				combos(k+1, f)
				return
			}
			for _, v := range vals {
				g := f
				g.Set(k, v)
				combos(k+1, g)
			}
		}
		combos(0, Flags{})
	}
	if n < 1000 {
		t.Fatalf("only %d combinations", n)
	}
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func TestMergeFlags(t *testing.T) {
	for _, tt := range []struct{ a, b, want Flag }{
		// Within one list flagged beats unknown beats clean: a known "no"
		// never covers a "not checked".
		{Unknown, Clean, Unknown}, {Clean, Unknown, Unknown}, {Clean, Flagged, Flagged}, {Flagged, Clean, Flagged},
		{Unknown, Unknown, Unknown}, {Unknown, Flagged, Flagged}, {Clean, Clean, Clean},
	} {
		if got := flagsOf(Federal, tt.a).Merge(flagsOf(Federal, tt.b)).Of(Federal); got != tt.want {
			t.Errorf("merge(%s, %s) = %s, want %s", tt.a, tt.b, got, tt.want)
		}
	}
	if f := flagsOf(Federal, Clean).Merge(flagsOf(Litigator, Flagged)); f.Of(Federal) != Clean || f.Of(Litigator) != Flagged || f.Has.Has(State) {
		t.Errorf("merged %s", mustJSON(f))
	}
	// A joined DNC result overrides, except that flagged stays flagged.
	for _, tt := range []struct{ own, joined, want Flag }{
		{Clean, Unknown, Unknown}, {Clean, Flagged, Flagged}, {Flagged, Clean, Flagged}, {Unknown, Clean, Clean},
	} {
		if got := flagsOf(Federal, tt.own).Override(flagsOf(Federal, tt.joined)).Of(Federal); got != tt.want {
			t.Errorf("override(%s, %s) = %s, want %s", tt.own, tt.joined, got, tt.want)
		}
	}
	if f := flagsOf(Federal, Clean, Litigator, Clean).Override(flagsOf(Federal, Clean)); f.Of(Litigator) != Clean {
		t.Errorf("a list the join does not report was lost: %s", mustJSON(f))
	}
	// A newer registry answer supersedes the older registry answers that
	// are not flagged, whatever list they name; a flagged one stays.
	if f := flagsOf(DNC, Clean, Litigator, Clean).Override(flagsOf(Federal, Clean)); f.Has.Has(DNC) || f.Of(Litigator) != Clean {
		t.Errorf("an older DNC answer beside a newer federal one: %s", mustJSON(f))
	}
	if f := flagsOf(DNC, Flagged).Override(flagsOf(Federal, Clean, Litigator, Clean)); f.Of(DNC) != Flagged {
		t.Errorf("an older flag was dropped: %s", mustJSON(f))
	}
	if got := mustJSON(flagsOf(Federal, Clean, Litigator, Flagged)); got != `{"federal":"clean","litigator":"flagged"}` {
		t.Errorf("JSON %s", got)
	}
}

// The fast look at a value never misses what the careful reading finds.
func TestMayMentionNeverMisses(t *testing.T) {
	for _, v := range []string{"DNC", "do not call", "Wrong # - not the owner", "state_dnc", "Litigator!!", "opted-out",
		"número equivocado", "Said STOP calling", "x", "", "12345", "2026-10-01", "John Smith", "Asked to be removed"} {
		_, terms := textWords(nil, v)
		if terms && !mayMention(v) {
			t.Errorf("%q: the fast look misses a restriction", v)
		}
	}
	if mayMention("John Smith 12 Oak Ave") || mayMention("2026-10-01") {
		t.Error("the fast look finds a restriction in plain text")
	}
}

// A Spanish vendor's national registry column ("Registro Nacional": Sí /
// No) answers the registry in its own words; "Desconocido" is unknown.
func TestSpanishRegistry(t *testing.T) {
	h := []string{"Teléfono", "Registro Nacional", "Litigante", "Fecha"}
	var rows [][]string
	for i, registry := range []string{"SI", "No", "Desconocido", "sí"} {
		rows = append(rows, []string{fmt.Sprintf("51255501%02d", i+1), registry, "No", "2025-05-01"})
	}
	l := Detect(h, rows, Options{})
	wantSlots(t, l, "Phone=Teléfono||Registro Nacional:federal,Litigante:litigator")
	got := readAll(t, l, rows, nil)
	want := []string{"(512) 555-0101 ? federal DNC", "(512) 555-0102 ? callable", "(512) 555-0103 ? DNC unknown",
		"(512) 555-0104 ? federal DNC"}
	for i := range want {
		if !slices.Equal(got[i], want[i:i+1]) {
			t.Errorf("row %d: %q, want %q", i+1, got[i], want[i])
		}
	}
}

// "Yes" in a column read for restrictions (its other values state some)
// says one holds without naming it: never clean. "No" states none.
func TestYesInAColumnOfRestrictions(t *testing.T) {
	h := []string{"Phone", "DNC", "Litigator", "Scrub Date", "Status"}
	var rows [][]string
	for i, status := range []string{"Yes", "No", "DNC", "", "Y", "X"} {
		rows = append(rows, []string{fmt.Sprintf("51255501%02d", i+1), "No", "No", "2025-05-01", status})
	}
	l := Detect(h, rows, Options{})
	got := readAll(t, l, rows, nil)
	const unclear = " ? the file's notes unclear"
	want := []string{"(512) 555-0101" + unclear, "(512) 555-0102 ? callable", "(512) 555-0103 ? the file says do not call",
		"(512) 555-0104 ? callable", "(512) 555-0105" + unclear, "(512) 555-0106" + unclear}
	for i := range want {
		if !slices.Equal(got[i], want[i:i+1]) {
			t.Errorf("row %d (Status %q): %q, want %q", i+1, rows[i][4], got[i], want[i])
		}
	}
}

// A column with no name whose values are yes or no is a flag whose header
// was lost: asked about, its rows' phones not callable until answered; a
// column with no name holding anything else is not.
func TestUnnamedYesNoColumn(t *testing.T) {
	for _, blank := range []string{"", "Column 4"} {
		h := []string{"Phone", "DNC", "Litigator", blank, "Scrub Date"}
		rows := [][]string{{"5125550101", "No", "No", "Yes", "2025-05-01"}, {"5125550102", "No", "No", "No", "2025-05-01"}}
		l := Detect(h, rows, Options{})
		if len(l.Questions) != 1 || !l.Questions[0].Guess || !strings.Contains(l.Questions[0].Message, "has no name and says yes or no") {
			t.Fatalf("header %q: questions %+v", blank, l.Questions)
		}
		for i, got := range readAll(t, l, rows, nil) {
			if len(got) != 1 || strings.Contains(got[0], "callable") {
				t.Errorf("header %q row %d: %q, want not callable", blank, i+1, got)
			}
		}
		// Marks; the vendor's own "not checked"; a "?" among noes (before,
		// a column with no yes was passed over, and the "?" row's phone
		// was callable).
		for _, vs := range [][2]string{{"x", ""}, {"Y", "U"}, {"?", "N"}, {"N", "unknown"}} {
			rows[0][3], rows[1][3] = vs[0], vs[1]
			// A guess, and for the "U", the value question a flag column asks.
			if l := Detect(h, rows, Options{}); len(l.Questions) == 0 || !l.Questions[0].Guess {
				t.Errorf("header %q over %q: questions %+v", blank, vs, l.Questions)
			}
		}
		for _, vs := range [][2]string{{"spoke to owner", ""}, {"N", "No"}} { // notes; noes alone say nothing
			rows[0][3], rows[1][3] = vs[0], vs[1]
			if l := Detect(h, rows, Options{}); len(l.Questions) != 0 {
				t.Errorf("header %q over %q: questions %+v", blank, vs, l.Questions)
			}
		}
	}
}

// Answers about a phone the file does not hold ("Phone 2 DNC" with no
// "Phone 2") apply to every phone of the row until the person says which
// phone they are about: a flag flags them, a clean answer (perhaps about
// another phone) makes none callable.
func TestAnswerAboutAPhoneNotInTheFile(t *testing.T) {
	h := []string{"phone 2 dnc", "phone 2 tcpa litigator", "owner 2 phone 1", "scrubbed_at"}
	rows := [][]string{{"FALSE", "0", "(213) 263-8316", "10/31/2025"}, {"TRUE", "0", "(213) 263-8317", "10/31/2025"}}
	l := Detect(h, rows, Options{Now: time.Date(2025, 11, 5, 0, 0, 0, 0, time.UTC)})
	if len(l.Questions) == 0 || !l.Questions[0].Guess {
		t.Fatalf("questions %+v, want a guess", l.Questions)
	}
	got := readAll(t, l, rows, nil)
	if len(got[0]) != 1 || strings.Contains(got[0][0], "callable") || !strings.Contains(got[1][0], "DNC") {
		t.Errorf("read %q: want the first phone not callable, the second on the DNC list", got)
	}
}

// A column of the dates numbers were put on a list flags the dated ones;
// a "DNC Date" that may be that or the scrub date is asked about where
// nothing else in the file answers the registry.
func TestRegistrationDates(t *testing.T) {
	rows := func(dnc string) [][]string {
		return [][]string{{"5125550101", "2015-04-03", "No", "2025-05-01", dnc}, {"5125550102", "", "No", "2025-05-01", dnc}}
	}
	for _, tc := range []struct {
		header, dnc string // the date column's header; the value of a "DNC" column ("" none)
		want        []string
		question    bool
	}{
		{"DNC Registered Date", "", []string{"DNC", "DNC unknown"}, false},
		{"Date Added to DNC", "No", []string{"DNC", "callable"}, false},
		{"Litigator Since", "No", []string{"litigator", "callable"}, false},
		{"DNC Date", "", []string{"DNC, open question", "open question about a column, DNC unknown"}, true},
		// Another column answering, the rows' scrub date: of the two, the
		// older dates the answers.
		{"DNC Date", "No", []string{"scrub over 31 days old", "callable"}, false},
	} {
		h := []string{"Phone", tc.header, "Litigator", "Scrub Date"}
		rs := rows(tc.dnc)
		if tc.dnc != "" {
			h = append(h, "DNC")
		} else {
			for i := range rs {
				rs[i] = rs[i][:4]
			}
		}
		l := Detect(h, rs, Options{})
		if got := len(l.Questions) > 0 && l.Questions[0].Guess; got != tc.question {
			t.Errorf("%q (DNC %q): questions %+v", tc.header, tc.dnc, l.Questions)
		}
		for i, got := range readAll(t, l, rs, nil) {
			if len(got) != 1 || !strings.Contains(got[0], "? "+tc.want[i]) {
				t.Errorf("%q (DNC %q) row %d: %q, want %q", tc.header, tc.dnc, i+1, got, tc.want[i])
			}
		}
	}
}

// A "not checked" mark beside the dates is no reason to read the column
// as anything else: an "OK to call" verdict beside it clears no number
// the dates put on the litigator list, nor one it did not check.
func TestRegistrationDatesNotChecked(t *testing.T) {
	h := []string{"Telephone", "Can Call", "Litigator Since"}
	rows := [][]string{{"9738043978", "OK", "2/1/2012 4:11 PM"}, {"2015974526", "OK", "?"}, {"4049610568", "OK", ""}}
	l := Detect(h, rows, Options{})
	got := readAll(t, l, rows, nil)
	for i, want := range []string{"litigator", "litigator unknown", "litigator unknown"} {
		if len(got[i]) != 1 || !strings.Contains(got[i][0], want) {
			t.Errorf("row %d: %q, want %q", i+1, got[i], want)
		}
	}
	// Asked whether a blank is clean, as of a column of marks; once the
	// person says so, the verdict's clean answer stands for a blank.
	if len(l.Questions) != 1 || l.Questions[0].Topic != "marks" {
		t.Fatalf("questions %+v", l.Questions)
	}
	fixed := Detect(h, rows, Options{Correction: &Correction{Signature: l.Signature,
		Values: map[string]map[string]Flag{"Litigator Since": {"": Clean}}}})
	if got := readAll(t, fixed, rows, nil); len(fixed.Questions) != 0 || !strings.Contains(got[2][0], "callable") ||
		!strings.Contains(got[0][0], "litigator") {
		t.Errorf("answered: %q, questions %+v", got, fixed.Questions)
	}
}

// A flag that names no phone but stands between two phones' columns may be
// the row's or the phone's before it: it is asked about, flags every phone
// of its row meanwhile and makes none clean; the person's answer reads it
// as they say. Notes between the phones are the row's without asking.
func TestFlagBetweenPhones(t *testing.T) {
	h := []string{"Tel 1 Phone", "No Llamar", "Litigante", "Notas", "Propietario 2 Tel 1 Phone", "Date Scrubbed"}
	rows := [][]string{
		{"5125550101", "No", "No", "", "5125550102", "2025-05-01"},
		{"5125550103", "Sí", "No", "", "5125550104", "2025-05-01"},
		{"5125550105", "No", "No", "no llamar", "5125550106", "2025-05-01"},
	}
	now := Options{Now: time.Date(2025, 5, 10, 0, 0, 0, 0, time.UTC)}
	l := Detect(h, rows, now)
	var asked []string
	for _, q := range l.Questions {
		if q.Guess {
			asked = append(asked, q.Columns...)
		}
	}
	if !slices.Equal(asked, []string{"No Llamar", "Litigante"}) {
		t.Fatalf("guesses asked about %q (questions %+v), want the two flags between the phones", asked, l.Questions)
	}
	got := readAll(t, l, rows, nil)
	for i, row := range got {
		for _, p := range row {
			if strings.Contains(p, "callable") {
				t.Errorf("row %d: %q is callable on an answer that may be another phone's", i+1, p)
			}
		}
	}
	for _, p := range append(got[1], got[2]...) {
		if !strings.Contains(p, "DNC") && !strings.Contains(p, "the file says do not call") {
			t.Errorf("%q: want it flagged by its row's restriction", p)
		}
	}

	slot := 1 // the person: they are the first phone's ("Tel 1 Phone", slot 1 of the first owner)
	first := now
	first.Correction = &Correction{Signature: l.Signature, Columns: map[string]ColumnFix{
		"No Llamar": {Role: RoleFlag, SlotIndex: &slot}, "Litigante": {Role: RoleFlag, SlotIndex: &slot}}}
	l = Detect(h, rows, first)
	got = readAll(t, l, rows, nil)
	if !strings.HasSuffix(got[0][0], "callable") || strings.HasSuffix(got[0][1], "callable") {
		t.Errorf("said to be the first phone's: read %q, want the first callable and the second not", got[0])
	}
	row := now // the person: they are the row's
	row.Correction = &Correction{Signature: l.Signature, Columns: map[string]ColumnFix{
		"No Llamar": {Role: RoleFlag}, "Litigante": {Role: RoleFlag}}}
	l = Detect(h, rows, row)
	got = readAll(t, l, rows, nil)
	if !strings.HasSuffix(got[0][0], "callable") || !strings.HasSuffix(got[0][1], "callable") {
		t.Errorf("said to be the row's: read %q, want both callable", got[0])
	}
}

// A list's column whose header says its "yes" means passing ("DNC Clear",
// "Passed DNC") reads yes as clean and no as on the list; a negation
// turns it back ("DNC Not Clear"). A word SkipDesk does not know in such a
// header ("DNC Waived") may turn it too: it is asked about, and none of
// its phones is callable until the person says what its values mean.
// Words of passing make no column a list's ("Free And Clear": a paid-off
// property).
func TestListWordsThatTurnIt(t *testing.T) {
	rows := [][]string{{"5125550101", "Y", "N", "2025-05-01"}, {"5125550102", "N", "N", "2025-05-01"}}
	now := Options{Now: time.Date(2025, 5, 10, 0, 0, 0, 0, time.UTC)}
	for _, tc := range []struct {
		header string
		want   []string // each row's phone as read
		asked  bool
	}{
		{"DNC Clear", []string{"callable", "DNC"}, false},
		{"Passed DNC", []string{"callable", "DNC"}, false},
		{"DNC Safe", []string{"callable", "DNC"}, false},
		{"DNC Exempt", []string{"callable", "DNC"}, false},
		{"DNC Not Clear", []string{"DNC", "callable"}, false},
		{"DNC", []string{"DNC", "callable"}, false},
		{"DNC Waived", []string{"DNC, open question about a column", "open question about a column"}, true},
		// Words of how sure or how often turn nothing.
		{"Possible DNC", []string{"DNC", "callable"}, false},
		{"Any DNC", []string{"DNC", "callable"}, false},
		{"DNC Valid", []string{"DNC, open question about a column", "open question about a column"}, true},
		{"Free And Clear", []string{"DNC unknown", "DNC unknown"}, false},
		// A phone's yes or no of passing, with no list named: which
		// list is not known (unknownPhoneFlags asks).
		{"Phone Clean", []string{"industry list, open question about a column, DNC unknown", "open question about a column, DNC unknown"}, false},
	} {
		h := []string{"Phone", tc.header, "Litigator", "Date Scrubbed"}
		l := Detect(h, rows, now)
		got := readAll(t, l, rows, nil)
		for i, want := range tc.want {
			if p := got[i][0]; p != "(512) 555-010"+strconv.Itoa(i+1)+" ? "+want {
				t.Errorf("%q: row %d read %q, want %q", tc.header, i+1, p, want)
			}
		}
		if asked := slices.ContainsFunc(l.Questions, func(q Question) bool { return q.Topic == "words" && q.Guess }); asked != tc.asked {
			t.Errorf("%q: asked %v (questions %+v), want %v", tc.header, asked, l.Questions, tc.asked)
		}
		if !tc.asked {
			continue
		}
		// The person says what its values mean: yes is clean, no is on it.
		c := &Correction{Signature: l.Signature, Values: map[string]map[string]Flag{tc.header: {"Y": Clean, "N": Flagged}}}
		opts := now
		opts.Correction = c
		l = Detect(h, rows, opts)
		if got := readAll(t, l, rows, nil); len(l.Questions) != 0 || !strings.HasSuffix(got[0][0], "callable") || !strings.HasSuffix(got[1][0], "DNC") {
			t.Errorf("%q answered: read %q, questions %+v", tc.header, got, l.Questions)
		}
	}
}
