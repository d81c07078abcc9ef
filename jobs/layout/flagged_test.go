package layout

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

// A file that states no answer of its own leaves every answer to the
// number; one with a flag or scope column does not.
func TestNumberDecides(t *testing.T) {
	for _, c := range []struct {
		headers []string
		row     []string
		want    bool
	}{
		{[]string{"owner", "phone_1", "phone_1_type", "phone_2"}, []string{"A", "2125550101", "mobile", "2125550102"}, true},
		{[]string{"owner", "phone_1", "phone_1_dnc"}, []string{"A", "2125550101", "N"}, false},
		{[]string{"owner", "phone", "litigator"}, []string{"A", "2125550101", "false"}, false},
		{[]string{"owner", "phone", "scrubbed"}, []string{"A", "2125550101", "Y"}, false},
	} {
		l := Detect(c.headers, [][]string{c.row}, Options{})
		if got := l.NumberDecides(); got != c.want {
			t.Errorf("%v: NumberDecides %v, want %v", c.headers, got, c.want)
		}
	}
}

// A number noted failing a flag filter fails it wherever it is read; other
// filters and other numbers are untouched.
func TestFlaggedNumbers(t *testing.T) {
	s := NewFlaggedNumbers()
	flagged := Phone{Key: 2125550101, Block: BlockFederal}
	clean := Phone{Key: 2125550102}
	for _, p := range []*Phone{&flagged, &clean, {Key: 0, Block: BlockInvalid}} {
		s.Note(p, jobs.QuickFilters, Passes)
	}
	if !s.Fails(flagged.Key, jobs.QuickCallable) || !s.Fails(flagged.Key, jobs.QuickNotDNC) || s.Fails(flagged.Key, jobs.QuickNotLitigator) {
		t.Errorf("a number on the federal list: callable %v, not-dnc %v, not-litigator %v", s.Fails(flagged.Key, jobs.QuickCallable),
			s.Fails(flagged.Key, jobs.QuickNotDNC), s.Fails(flagged.Key, jobs.QuickNotLitigator))
	}
	if s.Fails(clean.Key, jobs.QuickCallable) || s.Len() != 1 {
		t.Errorf("a clean number fails: %v; %d numbers noted, want 1", s.Fails(clean.Key, jobs.QuickCallable), s.Len())
	}
	row := Row{Phones: []Phone{{Key: flagged.Key}, clean}}
	if !s.Keep(&row, []jobs.QuickFilter{jobs.QuickCallable}) || len(row.Phones) != 1 || row.Phones[0].Key != clean.Key {
		t.Errorf("Keep left %v, want the clean number alone", row.Phones)
	}
	row = Row{Phones: []Phone{{Key: flagged.Key}}}
	if s.Keep(&row, []jobs.QuickFilter{jobs.QuickNotDNC}) {
		t.Errorf("a row whose one number is flagged elsewhere is kept")
	}
}

// A column of the scrub's coverage in words it does not list ("Outside
// Coverage") is still a scope column: a row outside the coverage, or in
// words SkipDesk cannot read, was not checked and is never callable.
func TestCoverageInWords(t *testing.T) {
	h := []string{"Phone1", "Phone1 DNC", "Phone1 TCPA", "DNC Coverage"}
	rows := [][]string{
		{"(773) 750-9519", "0", "0", "Outside Coverage"},
		{"(773) 750-9520", "0", "0", "Inside Coverage"},
		{"(773) 750-9521", "0", "0", "Partial Coverage"},
		{"(773) 750-9522", "0", "0", "Covered"},
	}
	l := Detect(h, rows, Options{})
	if c := l.Columns[3]; c.Role != RoleScope {
		t.Fatalf("DNC Coverage read as %v", c.Role)
	}
	rd := l.NewReader(fresh())
	for i, want := range []bool{false, true, false, true} {
		var row Row
		rd.Read(rows[i], &row)
		if p := row.Phones[0]; p.Callable() != want {
			t.Errorf("%s: callable %v (%s), want %v", rows[i][3], p.Callable(), p.Block, want)
		}
	}
}

// A status in words that states a restriction in words of no convention
// ("DNC_COMPLAINER") is a restriction of the file's: a newer scrub that
// finds the number clean on the registry does not lift it.
func TestStatusWordsStateARestriction(t *testing.T) {
	h := []string{"Phone", "Result"}
	rows := [][]string{{"813 202 6372", "DNC_COMPLAINER"}, {"314 504 1274", "CLEAN"}, {"201 837 3443", "CLEAN"},
		{"704 317 8554", "CLEAN"}, {"773 883 9675", "CLEAN"}}
	l := Detect(h, rows, Options{})
	rd := l.NewReader(fresh())
	var row Row
	rd.Read(rows[0], &row)
	p := row.Phones[0]
	if p.Callable() || p.Flags.Of(Restriction) != Flagged {
		t.Fatalf("DNC_COMPLAINER: %s, restriction %v", p.Block, p.Flags.Of(Restriction))
	}
	if qs := l.Questions; len(qs) != 0 {
		t.Errorf("a value that states a restriction asks nothing: %v", qs)
	}
}

// A litigator service's categories and a person who complained or went to
// the regulators are restrictions in a disposition or notes column; a
// benign disposition beside them is none.
func TestComplainersAndTrollsStateARestriction(t *testing.T) {
	h := []string{"Phone", "DNC", "Litigator", "Disposition"}
	vals := []string{"Complainer", "TCPA Troll", "complained about the calls", "said he'd report us to the FCC", "Litigant", "No Answer",
		// Written short, with dots or run together; a removal asked for.
		"D.N.C.", "DNCL", "NoCall", "Requested Removal", "No Contact Requested", "dont txt", "lose this number", "blocking",
		// Refusals in a CRM's or an agent's words.
		"Do Not Solicit", "Never Call", "Never contact again", "Don't contact", "Take off list", "No More Calls", "No Texts",
		"Unsub", "Leave me alone", "Take me off", "No further contact", "Not to be called", "Requested not to be contacted",
		"Represented by counsel", "Hostile", "Quit",
		// Marketing and consent withdrawn, suppression, spam reports, bans.
		"Do Not Market", "DNM", "Suppression", "Excluded", "Do not use", "No consent", "Withdrew consent",
		"Reported as spam", "Marked as spam", "Legal hold", "Scrubbed out", "Black list", "Blocklist", "Banned", "No callbacks",
		// Spanish, and a few words of other languages.
		"No contactar", "No molestar", "No me llame más", "Borrar número", "Quitar de la lista", "Lista negra",
		"No enviar mensajes", "no quiere llamadas", "pediu para não ligar", "Ne pas appeler", "Nicht anrufen"}
	var rows [][]string
	for i, v := range vals {
		rows = append(rows, []string{fmt.Sprintf("512 555 01%02d", i), "N", "N", v})
	}
	l := Detect(h, rows, Options{})
	rd := l.NewReader(fresh())
	for i, v := range vals {
		var row Row
		rd.Read(rows[i], &row)
		if p := row.Phones[0]; p.Callable() != (v == "No Answer") {
			t.Errorf("%q: callable %v (%s)", v, p.Callable(), p.Block)
		}
	}
}

// A list's risk column ("TCPA Risk") states a risk above low: the phone is
// not callable whatever the list's own column says; low states none, and a
// word of no known level is asked about.
func TestRiskColumns(t *testing.T) {
	h := []string{"Phone", "DNC", "Litigator", "TCPA Risk"}
	vals := []string{"High", "Medium", "Low", "", "Very High", "2", "0"}
	var rows [][]string
	for i, v := range vals {
		rows = append(rows, []string{fmt.Sprintf("512 555 01%02d", i), "N", "N", v})
	}
	l := Detect(h, rows, Options{})
	if c := l.Columns[3]; c.Role != RoleFlag || c.Kind != Restriction || c.Convention != ConvRisk || len(l.Questions) != 0 {
		t.Fatalf("%q read as %s %s %s; questions %v", c.Header, c.Role, c.Kind, c.Convention, l.Questions)
	}
	rd := l.NewReader(fresh())
	for i, v := range vals {
		var row Row
		rd.Read(rows[i], &row)
		want := v == "Low" || v == "" || v == "0"
		if p := row.Phones[0]; p.Callable() != want {
			t.Errorf("%q: callable %v (%s)", v, p.Callable(), p.Block)
		}
	}
	l = Detect(h, [][]string{{"5125550101", "N", "N", "Amber"}}, Options{})
	if len(l.Questions) == 0 {
		t.Error("a risk level of no known word is not asked about")
	}
}

// A reason column's reason ("State (WA)") is a reason not to call though
// it names no restriction word; a scrub code for a blocked area code (B)
// is the service's restriction, which a newer clean answer does not lift.
func TestReasonsAndBlockedCodes(t *testing.T) {
	h := []string{"PHONE", "REASON", "KNOWN LITIGATOR"}
	rows := [][]string{{"206-484-1183", "State (WA)", "0"}, {"206-484-1184", "Clean", "0"}, {"206-484-1185", "", "0"}}
	l := Detect(h, rows, Options{})
	rd := l.NewReader(fresh())
	for i, want := range []Flag{Flagged, Clean, Clean} {
		var row Row
		rd.Read(rows[i], &row)
		if got := row.Phones[0].Flags.Of(Restriction); got != want {
			t.Errorf("%q: restriction %v, want %v", rows[i][1], got, want)
		}
	}
	h = []string{"Phone", "ResultCode"}
	rows = [][]string{{"3146855086", "B"}, {"3146855087", "C"}, {"3146855088", "W"}, {"3146855089", "D"}, {"3146855080", "C"}}
	l = Detect(h, rows, Options{})
	var row Row
	l.NewReader(fresh()).Read(rows[0], &row)
	if p := row.Phones[0]; p.Flags.Of(Restriction) != Flagged || p.Callable() {
		t.Errorf("code B: restriction %v, %s", p.Flags.Of(Restriction), p.Block)
	}
}

// A column of yes and no whose header names a restriction in words a
// list's header does not use ("Wrong Number", "Deceased", "Reassigned",
// "Complainer") flags its rows' phones where it says yes; a header of a
// measure ("Litigator Score") or a scrub's coverage is not one. (Before,
// such a column was read as nothing: its "Y" phones were callable.)
func TestYesNoColumnNamedForARestriction(t *testing.T) {
	for _, h := range []string{"Wrong Number", "Deceased", "Reassigned", "RND", "Complainer", "Troll", "Attorney", "Stop",
		"Blocked", "Dead", "Flagged", "Revoked", "Cease", "No Consent", "Honeypot", "Spam Trap", "Reassigned_Flag", "Phone 1_Complainer"} {
		hs := []string{"Phone", "DNC", "Litigator", h}
		if strings.HasPrefix(h, "Phone 1") {
			hs[0] = "Phone 1" // a header's words: "1_Complainer" is "1 complainer"
		}
		rows := [][]string{{"5125550101", "N", "N", "Y"}, {"5125550102", "N", "N", "N"}, {"5125550103", "N", "N", "?"}}
		if h == "Deceased" { // a list's words
			rows[0][3], rows[1][3], rows[2][3] = "Hit", "Clear", "Unknown"
		}
		l := Detect(hs, rows, Options{})
		rd := l.NewReader(fresh())
		for i, want := range []bool{false, true, false} {
			var row Row
			rd.Read(rows[i], &row)
			if got := row.Phones[0].Callable(); got != want {
				t.Errorf("%q = %q: callable %v (%s), want %v", h, rows[i][3], got, row.Phones[0].Block, want)
			}
		}
	}
	hs := []string{"Phone", "DNC", "Litigator", "Litigator Score"}
	rows := [][]string{{"5125550101", "N", "N", "1"}, {"5125550102", "N", "N", "0"}}
	if c := Detect(hs, rows, Options{}).Columns[3]; c.Role != RoleOther {
		t.Errorf("Litigator Score read as %s %s", c.Role, c.Kind)
	}
}
