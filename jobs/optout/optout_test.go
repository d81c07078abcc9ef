package optout

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/skipdesk/skipdesk/jobs/calltime"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

func engine(t *testing.T) *calltime.Engine {
	t.Helper()
	e, err := calltime.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var eastern = func() *time.Location {
	tz, err := time.LoadLocation("America/New_York")
	if err != nil {
		panic(err)
	}
	return tz
}()

var importDay = time.Date(2026, 11, 25, 10, 0, 0, 0, eastern)

func TestClassifyReply(t *testing.T) {
	cases := map[string]Class{
		"STOP": Stop, " stop!!! ": Stop, "Stop.": Stop, "quit": Stop, "END": Stop, "revoke": Stop, "OPT OUT": Stop,
		"Cancel": Stop, "UNSUBSCRIBE": Stop, "please remove me": Stop, "take me off your list": Stop,
		"Don’t call me again": Stop, "do not text this number": Stop, "leave me alone": Stop, "STOPALL": Stop,
		"stop texting me, I will never sell": Stop, "Alto": Stop, "no más": Stop, "🛑": Stop,
		"Stop by on Friday": Stop, "I can stop by on Friday to talk": Maybe, "not interested": Maybe, "Wrong number": Maybe,
		"I'll call my lawyer": Maybe, "yes": None, "How much?": None, "who is this": None, "": None,
		"The end of the month works": Maybe, "Tomorrow at 5 is fine": None,
		// Refusals in words of one's own.
		"please don't contact me again": Stop, "Never message this number": Stop, "no more emails": Stop,
		"Remove my number from your list": Stop, "delete this number": Stop, "get me off your list": Stop,
		"I asked you not to text": Stop, "do not ever reach out": Stop, "Please call me back": None,
		"Can you send the offer?": None, "I don't know": None,
		// Misspelt, spelt out, in Spanish; a threat or a complaint.
		"stp": Stop, "Rmv": Stop, "S T O P": Stop, "BAJA": Stop, "No me llames más": Stop, "no me escriba por favor": Stop,
		"Déjame en paz": Stop, "Wrong #": Maybe, "Reported you to the FTC": Maybe, "no solicitors": Maybe, "Not for sale": Maybe,
		"Stop spamming me": Stop, "spam": Maybe,
		// Losing, blocking, "no more", texting spelt short.
		"lose this number": Stop, "I'm blocking you": Stop, "NO MORE": Stop, "dont txt me": Stop, "D.N.C.": Stop,
		"No more. Thanks": Stop, "I want no more of this": Maybe,
		"Blocked": Stop, "STOP2": Stop, "no gracias": Maybe, "He passed away": Maybe, "Enough": Maybe, "Reported": Maybe,
		"Nope": None, "Sold already": None,
	}
	for in, want := range cases {
		if got, w := ClassifyReply(in); got != want {
			t.Errorf("ClassifyReply(%q) = %s (%q), want %s", in, got, w, want)
		}
	}
}

func TestClassifyDisposition(t *testing.T) {
	cases := map[string]Class{
		"DNC": Stop, "Do Not Call": Stop, "DNC Request": Stop, "Internal DNC": Stop, "Opted Out": Stop, "Litigator": Stop,
		"Not Interested": Maybe, "Wrong Number": Maybe, "Hostile": Maybe, "No Answer": None, "Voicemail": None,
		"Appointment Set": None, "Asked not to be called": Stop, "Customer said never call again": Stop,
		"Opt-Out": Stop, "Unsubscribed": Stop, "Cease and Desist": Stop, "Threatened to sue": Stop, "Litigious": Stop,
		"TCPA": Stop, "No Solicitation": Stop, "Blocked": Stop, "Requested No Contact": Stop, "No Contact": None, "Left Voicemail": None, "Callback": None,
		"D.N.C.": Stop, "DNCL": Stop, "NoCall": Stop, "Requested Removal": Stop, "No Contact Requested": Stop, "Do Not Dial": Stop,
		"Sue": Maybe, "Complaint": Maybe, "Not Home": None, "Sale": None,
	}
	for in, want := range cases {
		if got, _ := ClassifyDisposition(in); got != want {
			t.Errorf("ClassifyDisposition(%q) = %s, want %s", in, got, want)
		}
	}
}

func date(t time.Time) string { return t.Format(time.DateOnly) }

// TestReadSMSReplies: an SMS tool's replies export; outbound messages are
// passed over (their "Reply STOP" is not an opt-out); every stop and
// possible stop carries its honour-by date and its earliest removal,
// worked by hand: 10 business days after the reply (Thanksgiving 11-26
// skipped), 5 years federal, 10 years for a Virginia text.
func TestReadSMSReplies(t *testing.T) {
	imp, err := Read(context.Background(), filepath.Join("testdata", "sms-replies.csv"), engine(t), Options{Location: eastern, Now: importDay})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Layout != Replies || imp.Columns["number"] != "Contact Phone" || imp.Columns["said"] != "Message Body" || imp.Columns["direction"] != "Direction" {
		t.Fatalf("read as %s with %v", imp.Layout, imp.Columns)
	}
	want := []struct {
		number, class, made, honour, notBefore string
	}{
		{"3055550100", "opt-out", "2026-11-20", "2026-12-07", "2031-11-20"},
		{"8045550100", "opt-out", "2026-11-21", "2026-12-07", "2036-11-21"},
		{"2065550100", "may be an opt-out", "2026-11-22", "2026-12-07", "2031-11-22"},
		{"5125550100", "may be an opt-out", "2026-11-22", "2026-12-07", "2031-11-22"},
		{"3125550100", "opt-out", "2026-11-25", "2026-12-10", "2031-11-25"},
		{"7025550100", "opt-out", "2026-11-23", "2026-12-08", "2031-11-23"},
		{"9155550100", "opt-out", "2026-11-23", "2026-12-08", "2031-11-23"},
	}
	if len(imp.Entries) != len(want) {
		t.Fatalf("%d entries: %+v", len(imp.Entries), imp.Entries)
	}
	for i, w := range want {
		e := imp.Entries[i]
		got := []string{e.Number, e.Class.String(), date(e.Made), date(e.Terms.HonourBy), date(e.Terms.NotBefore)}
		if strings.Join(got, " ") != strings.Join([]string{w.number, w.class, w.made, w.honour, w.notBefore}, " ") {
			t.Errorf("entry %d = %v, want %v", i, got, w)
		}
		if !e.Text {
			t.Errorf("entry %d is not a text opt-out", i)
		}
	}
	if imp.Entries[4].DateNote == "" || !strings.Contains(imp.Entries[4].DateNote, "yesterday") {
		t.Errorf("the unreadable date is not said: %q", imp.Entries[4].DateNote)
	}
	if imp.Outbound != 1 || imp.NotOptOut != 1 || imp.Rows != 10 {
		t.Errorf("outbound %d, not opt-outs %d, rows %d", imp.Outbound, imp.NotOptOut, imp.Rows)
	}
	if len(imp.Problems) != 1 || !strings.Contains(imp.Problems[0], "line 9") || !strings.Contains(imp.Problems[0], "555-01") {
		t.Errorf("problems %q", imp.Problems)
	}
}

// TestReadEverySheet: an export split over a workbook's sheets is read on
// every sheet, each by its own columns (a dialer's dispositions beside the
// replies), each entry and problem naming its sheet (a number saved as a
// float read as its number, each of several numbers of a cell opted out);
// a sheet SkipDesk cannot read is named. (Before, the first sheet alone
// was read, and the opt-outs of the others were lost without a word.)
func TestReadEverySheet(t *testing.T) {
	path := testlists.WriteWorkbook(t, "replies.xlsx",
		testlists.Sheet{Name: "Sheet1", Rows: [][]any{{"Phone", "Message", "Date"}, {"3055550100", "STOP", "2026-11-20"}}},
		testlists.Sheet{Name: "Dec", Rows: [][]any{{"Phone", "Message", "Date"}, {"8045550100", "ok", "2026-12-01"},
			{"555-01", "stop", "2026-12-01"}, {"2065550100.0", "remove me", "2026-12-02"},
			{"312-555-0101 x2; 312-555-0102", "stop", "2026-12-03"}}},
		testlists.Sheet{Name: "Calls", Rows: [][]any{{"Phone Number", "Disposition", "Call Date"}, {"4045550101", "Do Not Call", "2026-12-04"},
			{"4045550102", "No Answer", "2026-12-04"}}},
		testlists.Sheet{Name: "Summary", Rows: [][]any{{"Month", "Replies"}, {"Nov", 1}}})
	imp, err := Read(context.Background(), path, engine(t), Options{Location: eastern, Now: importDay})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range imp.Entries {
		got = append(got, e.Number+" "+At(e.Sheet, e.Line))
	}
	want := []string{`3055550100 sheet "Sheet1", line 2`, `2065550100 sheet "Dec", line 4`,
		`3125550101 sheet "Dec", line 5`, `3125550102 sheet "Dec", line 5`, `4045550101 sheet "Calls", line 2`}
	if strings.Join(got, "; ") != strings.Join(want, "; ") || imp.Rows != 7 || imp.NotOptOut != 2 {
		t.Errorf("entries %q (rows %d, not opt-outs %d), want %q", got, imp.Rows, imp.NotOptOut, want)
	}
	if len(imp.Problems) != 2 || !strings.HasPrefix(imp.Problems[0], `sheet "Dec", line 3: "555-01"`) ||
		!strings.HasPrefix(imp.Problems[1], `sheet "Summary" is not read: `) {
		t.Errorf("problems %q", imp.Problems)
	}
}

// TestReadDialerDispositions: a dialer's dispositions export, as a
// workbook; the dispositions SkipDesk cannot read are counted for the
// person, never taken as callable.
func TestReadDialerDispositions(t *testing.T) {
	imp := readDispositions(t, [][]string{
		{"Lead Phone", "Agent", "Disposition", "Call Date"},
		{"404-555-0100", "Kim", "DNC Request", "2026-11-23"},
		{"212-555-0100", "Kim", "No Answer", "2026-11-23"},
		{"312-555-0100", "Lee", "Not Interested", "2026-11-24"},
		{"214-555-0100", "Lee", "Do Not Call", "11/24/2026 4:15 PM"},
		{"713-555-0100", "Lee", "Callback Scheduled", "2026-11-24"},
		{"512-555-0100", "Kim", "XFER-7", "2026-11-24"},
	}, func(e Entry) string {
		return e.Number + " " + e.Class.String() + " " + date(e.Terms.HonourBy) + " " + date(e.Terms.NotBefore)
	}, "4045550100 opt-out 2026-12-08 2031-11-23",
		"3125550100 may be an opt-out 2026-12-09 2031-11-24",
		"2145550100 opt-out 2026-12-09 2031-11-24")
	if imp.Columns["said"] != "Disposition" || imp.Columns["number"] != "Lead Phone" {
		t.Fatalf("read with %v", imp.Columns)
	}
	if !maps.Equal(imp.Unrecognised, map[string]int{"XFER-7": 1}) {
		t.Errorf("unrecognised %v", imp.Unrecognised)
	}
}

// A request written in the agent's notes is an opt-out whatever the
// disposition says; a note that says nothing of the kind changes nothing.
func TestReadNotesBesideDispositions(t *testing.T) {
	imp := readDispositions(t, [][]string{
		{"Phone", "Disposition", "Call Notes", "Date"},
		{"404-555-0100", "Callback", "asked not to be called again", "2026-11-23"},
		{"212-555-0100", "No Answer", "left vm, try after 5", "2026-11-23"},
		{"312-555-0100", "Contacted", "Complainer - threatened to report us to the FTC", "2026-11-24"},
		{"214-555-0100", "XFER-7", "wrong number", "2026-11-24"},
	}, func(e Entry) string { return e.Number + " " + e.Class.String() + " " + e.Said },
		"4045550100 opt-out asked not to be called again",
		"3125550100 opt-out Complainer - threatened to report us to the FTC",
		"2145550100 may be an opt-out wrong number")
	if imp.Columns["notes"] != "Call Notes" {
		t.Errorf("columns %v", imp.Columns)
	}
}

// readDispositions reads a dialer's export of rows (as a workbook) and
// holds its entries, each written by line, to want.
func readDispositions(t *testing.T, rows [][]string, line func(Entry) string, want ...string) *Import {
	t.Helper()
	path := filepath.Join(t.TempDir(), "calls.xlsx")
	writeXLSX(t, path, rows)
	imp, err := Read(context.Background(), path, engine(t), Options{Location: eastern, Now: importDay})
	if err != nil {
		t.Fatal(err)
	}
	if imp.Layout != Dispositions {
		t.Fatalf("read as %s", imp.Layout)
	}
	var got []string
	for _, e := range imp.Entries {
		got = append(got, line(e))
		if e.Text {
			t.Errorf("%s: a disposition read as a text opt-out", e.Number)
		}
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	return imp
}

func writeXLSX(t *testing.T, path string, rows [][]string) {
	t.Helper()
	f := excelize.NewFile()
	for i, row := range rows {
		for j, v := range row {
			cell, _ := excelize.CoordinatesToCellName(j+1, i+1)
			if err := f.SetCellStr("Sheet1", cell, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}

func TestReadRefusesAFileWithoutTheColumns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "owners.xlsx")
	writeXLSX(t, path, [][]string{{"Owner", "Address"}, {"Ada", "1 Main St"}})
	_, err := Read(context.Background(), path, engine(t), Options{})
	if err == nil || !strings.Contains(err.Error(), "owners.xlsx") || !strings.Contains(err.Error(), "no reply") {
		t.Errorf("error %v", err)
	}
}

// TestCallLogCap: calls in the 24 hours up to the instant are counted (a
// call whose time cannot be read counts); Florida and Oklahoma numbers at
// three are capped, New York's are not, a call after the instant is not
// counted.
func TestCallLogCap(t *testing.T) {
	log, err := ReadCallLog(context.Background(), filepath.Join("testdata", "call-log.csv"), Options{Location: eastern})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, eastern)
	counts := log.Recent(at)
	if !maps.Equal(counts, map[string]int{"3055550100": 3, "2125550100": 2, "4055550100": 3}) {
		t.Errorf("recent %v", counts)
	}
	if len(log.Problems) != 1 || !strings.Contains(log.Problems[0], "line 8") {
		t.Errorf("problems %q", log.Problems)
	}
	e := engine(t)
	for number, capped := range map[string]bool{"3055550100": true, "4055550100": true, "2125550100": false, "4105550100": false} {
		if got := e.Capped(e.Locate(number, nil), counts[number]) != nil; got != capped {
			t.Errorf("%s capped = %v", number, got)
		}
	}
}

// A call log split over a workbook's sheets under their own columns is
// counted whole: a call left out could let a number past its cap.
func TestCallLogEverySheet(t *testing.T) {
	path := testlists.WriteWorkbook(t, "calls.xlsx",
		testlists.Sheet{Name: "Outbound", Rows: [][]any{{"To", "Date", "Time"}, {"3055550100", "2026-11-25", "09:00"}}},
		testlists.Sheet{Name: "Callbacks", Rows: [][]any{{"Phone", "Timestamp"}, {"3055550100", "2026-11-25 11:00"}}},
		testlists.Sheet{Name: "Notes", Rows: [][]any{{"Agent", "Note"}, {"Ann", "busy day"}}})
	log, err := ReadCallLog(context.Background(), path, Options{Location: eastern})
	if err != nil {
		t.Fatal(err)
	}
	if n := log.Recent(time.Date(2026, 11, 25, 12, 0, 0, 0, eastern))["3055550100"]; n != 2 || len(log.Calls) != 2 {
		t.Errorf("%d calls of 3055550100 counted (%d in all), want 2", n, len(log.Calls))
	}
	if len(log.Problems) != 1 || !strings.HasPrefix(log.Problems[0], `sheet "Notes" is not read: `) {
		t.Errorf("problems %q", log.Problems)
	}
}

// A dialer's calls are made outbound: a "Do Not Call" disposition on an
// outbound call is an opt-out all the same. (Before, a dispositions
// export with a Direction column passed every outbound call over as a
// "message sent", and the number stayed callable.)
func TestReadDispositionsOfOutboundCalls(t *testing.T) {
	imp := readDispositions(t, [][]string{
		{"Phone", "Direction", "Disposition", "Call Date"},
		{"404-555-0100", "Outbound", "Do Not Call", "2026-11-23"},
		{"212-555-0100", "Outbound", "No Answer", "2026-11-23"},
		{"312-555-0100", "Inbound", "DNC", "2026-11-24"},
	}, func(e Entry) string { return e.Number + " " + e.Said }, "4045550100 Do Not Call", "3125550100 DNC")
	if imp.Outbound != 0 || imp.NotOptOut != 1 {
		t.Errorf("outbound %d, not opt-outs %d", imp.Outbound, imp.NotOptOut)
	}
}

// Where a file has a From and a To, the person is who wrote or called
// (an inbound row's From) or who was written to or called (an outbound
// row's To); a row that does not say which way it went puts both on the
// list, said in a note. (Before, the From was read on every row: a
// dialer's caller ID went on the list in place of the person called.)
func TestReadFromAndTo(t *testing.T) {
	imp := readDispositions(t, [][]string{
		{"ANI", "DNIS", "Call Type", "Disposition", "Timestamp"},
		{"5125550199", "4045550100", "Outbound", "DNC Request", "2026-11-23 10:00"},
		{"2125550100", "5125550199", "Inbound", "Opted Out", "2026-11-23 11:00"},
		{"5125550199", "3125550100", "Manual", "Do Not Call", "2026-11-24 09:30"},
		{"5125550199", "7135550100", "Outbound", "No Answer", "2026-11-24 09:31"},
	}, func(e Entry) string { return e.Number + " " + e.Said },
		"4045550100 DNC Request", "2125550100 Opted Out", "5125550199 Do Not Call", "3125550100 Do Not Call")
	if len(imp.Notes) != 1 || !strings.HasPrefix(imp.Notes[0], "line 4: the row does not say whether the call was made or taken: both ANI (5125550199) and DNIS (3125550100)") {
		t.Errorf("notes %q", imp.Notes)
	}
	if imp.Columns["from"] != "ANI" || imp.Columns["to"] != "DNIS" || imp.Columns["direction"] != "Call Type" || imp.Columns["number"] != "" {
		t.Errorf("columns %v", imp.Columns)
	}

	// An SMS tool's message log (Twilio's columns): our own messages are
	// passed over, a reply's person is its From.
	path := filepath.Join(t.TempDir(), "messages.csv")
	writeCSV(t, path, "From,To,Body,Status,SentDate,Direction\n"+
		"+15125550199,+14045550101,\"Hi Ann, about 1 Main St. Reply STOP to opt out\",delivered,2026-11-20 10:00:00,outbound-api\n"+
		"+14045550101,+15125550199,Stop,received,2026-11-20 10:05:00,inbound\n"+
		"+15125550199,+14045550101,You have been unsubscribed,delivered,2026-11-20 10:05:01,outbound-reply\n"+
		"+14045550102,+15125550199,who is this,received,2026-11-20 10:06:00,inbound\n")
	imp, err := Read(context.Background(), path, engine(t), Options{Location: eastern, Now: importDay})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Entries) != 1 || imp.Entries[0].Number != "4045550101" || date(imp.Entries[0].Made) != "2026-11-20" ||
		imp.Outbound != 2 || len(imp.Notes) != 0 || imp.Columns["date"] != "SentDate" {
		t.Errorf("entries %+v, outbound %d, notes %q, columns %v", imp.Entries, imp.Outbound, imp.Notes, imp.Columns)
	}
}

// A call log with a From and a To counts each call against the person
// called or calling, and a call whose way is not said against both.
func TestCallLogFromAndTo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.csv")
	writeCSV(t, path, "From,To,Direction,Start Time,Date\n"+
		"3055550199,4055550100,outbound,09:00,2026-11-25\n"+
		"4055550101,3055550199,inbound,09:30,2026-11-25\n"+
		"3055550199,4055550100,,10:00,2026-11-25\n")
	log, err := ReadCallLog(context.Background(), path, Options{Location: eastern})
	if err != nil {
		t.Fatal(err)
	}
	got := log.Recent(time.Date(2026, 11, 25, 12, 0, 0, 0, eastern))
	if !maps.Equal(got, map[string]int{"4055550100": 2, "4055550101": 1, "3055550199": 1}) {
		t.Errorf("recent %v", got)
	}
	if len(log.Notes) != 1 || !strings.HasPrefix(log.Notes[0], "line 4: the row does not say whether the call was made or taken") || len(log.Problems) != 0 {
		t.Errorf("notes %q, problems %q", log.Notes, log.Problems)
	}
}

func writeCSV(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A CRM's contacts export marks its opt-outs in columns of their own
// (Salesforce's DoNotCall, "SMS Opt Out": TRUE): a mark is an opt-out
// beside any status; a value that is neither yes nor no may be one; a
// mark is dated by its own column or, without one, by the import's day,
// never by the contact's creation. (Before, such a file was refused, and
// one with a Status column was read by the status alone: the marked
// numbers stayed callable.)
func TestReadOptOutMarks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "contacts.csv")
	writeCSV(t, path, "First Name,Phone,Status,DoNotCall,SMS Opt Out,Created,Opt Out Date\n"+
		"Ann,512-555-0101,Active,false,FALSE,2025-01-01,\n"+
		"Bob,512-555-0102,Lead,true,FALSE,2025-01-02,2026-11-20\n"+
		"Cy,512-555-0103,Lead,0,TRUE,2025-01-03,\n"+
		"Di,512-555-0104,Active,,Y - per owner,2025-01-04,\n")
	imp, err := Read(context.Background(), path, engine(t), Options{Location: eastern, Now: importDay})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range imp.Entries {
		got = append(got, strings.Join([]string{e.Number, e.Class.String(), e.Said, date(e.Made), date(e.Terms.NotBefore)}, " "))
		if !e.Flag || !e.Text {
			t.Errorf("%s: a mark not read as one (kept as a text's)", e.Number)
		}
	}
	want := []string{"5125550102 opt-out DoNotCall: true 2026-11-20 2031-11-20",
		"5125550103 opt-out SMS Opt Out: TRUE 2026-11-25 2031-11-25",
		"5125550104 may be an opt-out SMS Opt Out: Y - per owner 2026-11-25 2031-11-25"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || imp.Columns["marks"] != "DoNotCall, SMS Opt Out" {
		t.Errorf("entries\n%s\nwant\n%s\n(columns %v)", strings.Join(got, "\n"), strings.Join(want, "\n"), imp.Columns)
	}

	// Marks alone: read as a layout of their own.
	writeCSV(t, path, "Phone,DNC\n5125550101,Yes\n5125550102,No\n")
	if imp, err = Read(context.Background(), path, engine(t), Options{Location: eastern, Now: importDay}); err != nil {
		t.Fatal(err)
	}
	if imp.Layout != Flags || len(imp.Entries) != 1 || imp.Entries[0].Number != "5125550101" || imp.NotOptOut != 1 {
		t.Errorf("read as %s: entries %+v, not opt-outs %d", imp.Layout, imp.Entries, imp.NotOptOut)
	}
}

// A row's dates beside its own (the contact's creation) never date an
// opt-out earlier than it was made: the latest of them is taken, which
// keeps it on the list the longest, and the import's day where one of
// them cannot be read (it may be the reply's own).
func TestReadDatesAnOptOutByItsLatest(t *testing.T) {
	path := filepath.Join(t.TempDir(), "replies.csv")
	writeCSV(t, path, "Phone,Last Reply,Created,Last Reply Date,Time\n"+
		"3055550100,STOP,2024-03-01,2026-11-20 14:03,2:03 PM\n"+
		"3055550101,remove me,2024-03-02,not sent,\n"+
		"3055550102,stop,2024-03-02,2026-11-21 09:00,\n")
	imp, err := Read(context.Background(), path, engine(t), Options{Location: eastern, Now: importDay})
	if err != nil {
		t.Fatal(err)
	}
	if len(imp.Entries) != 3 || date(imp.Entries[0].Made) != "2026-11-20" || date(imp.Entries[1].Made) != "2026-11-25" ||
		date(imp.Entries[2].Made) != "2026-11-21" ||
		!strings.Contains(imp.Entries[1].DateNote, `"not sent" could not be read`) {
		t.Errorf("entries %+v", imp.Entries)
	}
}

// A call log's times written without a zone, read in this computer's (a
// guess): a call counts when any zone from UTC to Hawaii's would put it in
// the 24 hours. Here the log is written in UTC and the computer is in New
// York: a call at 14:00 (09:00 in New York) read as 14:00 in New York
// seemed to come after the instant, and was not counted (a fourth call to
// a Florida number went into the callable list). A time written with its
// zone, or a log whose zone the person said, is read exactly.
func TestCallLogZoneNotWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "calls.csv")
	writeCSV(t, path, "Phone,Call Time\n"+
		"3055550100,2026-11-25 14:00:00\n"+ // in UTC 09:00 in New York; in New York after the instant
		"3055550101,2026-11-24 12:00:00\n"+ // in New York 22 hours before; in UTC 27 hours before
		"3055550102,2026-11-24 04:00:00\n"+ // 30 hours before in New York, 35 in UTC: in no zone
		"3055550103,2026-11-25T16:00:00Z\n") // 11:00 in New York: after the instant
	at := time.Date(2026, 11, 25, 10, 0, 0, 0, eastern)
	for _, c := range []struct {
		opt  Options
		want map[string]int
	}{
		{Options{Location: eastern, Guessed: true}, map[string]int{"3055550100": 1, "3055550101": 1}},
		{Options{Location: time.UTC}, map[string]int{"3055550100": 1}},
		{Options{Location: eastern}, map[string]int{"3055550101": 1}},
	} {
		log, err := ReadCallLog(context.Background(), path, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		if got := log.Recent(at); !maps.Equal(got, c.want) {
			t.Errorf("zone %s (guessed %v): recent %v, want %v", c.opt.Location, c.opt.Guessed, got, c.want)
		}
	}
	log, _ := ReadCallLog(context.Background(), path, Options{Location: eastern, Guessed: true})
	if before, after := log.Window(at); before != 29*time.Hour || after != 5*time.Hour {
		t.Errorf("window %v before, %v after", before, after)
	}
}

func TestMarkClass(t *testing.T) {
	for v, want := range map[string]Class{"Yes": Stop, "TRUE": Stop, "1": Stop, "X": Stop, "No": None, "false": None, "": None,
		"0": None, "Opted Out": Stop, "Not Interested": Maybe, "✓": Maybe, "Y - per owner": Maybe, "Active": None} {
		if got, _ := MarkClass(v); got != want {
			t.Errorf("MarkClass(%q) = %s, want %s", v, got, want)
		}
	}
}
