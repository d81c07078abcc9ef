package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/export"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// waitFor waits until the window is idle, then asserts cond; cond takes
// the UI thread itself (h.do) for what it reads of the widgets.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	h.settle()
	if !cond() {
		h.t.Fatalf("not so once the window was idle: %s", what)
	}
}

func (h *harness) textOf(l *widget.Label) string {
	var s string
	h.do(func() { s = l.Text })
	return s
}

// The "Do not call" tab: numbers pasted in any format go on the list (the
// invalid ones are named), are found in any format, and come off with a
// reason; an open result marks a number on the list wherever it shows.
func TestInternalListTab(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	v := openFixture(t, h, "propstream.csv") // also starts the real layer
	h.do(func() {})
	if got := v.shown(0, 2); !strings.HasPrefix(got, "(512) 555-0101 | Mobile | OK to call") {
		t.Fatalf("before: %q", got)
	}
	h.do(func() { h.app.tabs.SelectIndex(2) })
	h.wait("internal-list")
	in := h.app.internal
	if in.count.Text != "0 numbers" {
		t.Fatalf("an empty list says %q", in.count.Text)
	}

	h.tap(h.button("Add numbers…"))
	var entries []*widget.Entry
	h.do(func() {
		for _, e := range shown[*widget.Entry](h) {
			if e != in.search && e != v.filter {
				entries = append(entries, e)
			}
		}
	})
	if len(entries) != 2 {
		t.Fatalf("the add dialog has %d entries", len(entries))
	}
	h.do(func() {
		entries[0].SetText("(512) 555-0101\n512.555.0102\n555-01\n")
		entries[1].SetText("asked on a call")
	})
	h.tap(h.button("Add"))
	h.waitFor("the result of the addition", func() bool {
		return strings.Contains(h.dialogText(), "2 numbers added to your do-not-call list")
	})
	if txt := h.dialogText(); !strings.Contains(txt, "Not valid phone numbers, left out: 555-01") {
		t.Errorf("the invalid number is not named: %q", txt)
	}
	h.waitFor("the list shows both", func() bool { return h.textOf(in.count) == "2 numbers" })
	if got := in.cell(0, 2) + " / " + in.cell(0, 3); got != "asked on a call / pasted" {
		t.Errorf("reason / source: %q", got)
	}
	// Found in any format.
	h.do(func() { in.search.SetText("+1 512 555 0102") })
	h.waitFor("the search", func() bool { return h.textOf(in.count) == "1 of 2 numbers" })
	h.do(func() {
		if len(in.shown) != 1 || in.cell(0, 0) != "(512) 555-0102" {
			t.Errorf("search: %d shown, %q", len(in.shown), in.cell(0, 0))
		}
	})

	// The open result shows it at once.
	h.waitFor("the viewer rechecked", func() bool {
		var got string
		h.do(func() { got = v.shown(0, 2) })
		return strings.HasPrefix(got, "(512) 555-0101 | Mobile | on your do-not-call list")
	})

	// Off the list, with a reason.
	h.do(func() { in.table.Select(widget.TableCellID{Row: 0, Col: 0}) })
	h.tap(in.remove)
	var reason *widget.Entry
	h.do(func() {
		reason = topShown(h, func(e *widget.Entry) bool { return e.PlaceHolder == "Why it comes off the list (kept in its history)" })
		reason.SetText("wrong number")
	})
	h.tap(h.button("Remove"))
	h.do(func() { in.search.SetText("") })
	h.waitFor("one number left", func() bool { return h.textOf(in.count) == "1 number" })
	log, err := fb.service().Compliance().InternalLog(context.Background(), "5125550102")
	if err != nil || len(log) != 2 || log[1].Action != "removed" || log[1].Reason != "wrong number" {
		t.Errorf("history: %+v %v", log, err)
	}
}

// The callable list asks the person's choices first, warns of the risky
// ones, and passes them on.
func TestCallableChoices(t *testing.T) {
	fb := signedIn(downloaded("trc_1", jobs.KindTrace, "owners.csv", 10))
	h := start(t, fb)
	h.do(func() { h.app.jobs.selectJob("trc_1") })
	h.openCallableChoices()
	var checks []*widget.Check
	h.do(func() {
		for _, c := range shown[*widget.Check](h) {
			if strings.HasPrefix(c.Text, "Leave out mobiles") || strings.HasPrefix(c.Text, "Keep") {
				checks = append(checks, c)
			}
		}
	})
	if len(checks) != 3 {
		t.Fatalf("%d choices", len(checks))
	}
	h.do(func() {
		for _, c := range checks {
			if c.Checked {
				t.Errorf("%q is on by default", c.Text)
			}
		}
		checks[0].SetChecked(true)
		checks[2].SetChecked(true)
	})
	if txt := h.dialogText(); !strings.Contains(txt, "may be on the registry") {
		t.Errorf("keeping unknown answers is not warned: %q", txt)
	}
	got := h.exportCallable()
	if len(got) != 1 || !got[0].LeaveOutMobiles || got[0].KeepLitigators || !got[0].KeepUnknown || got[0].LeaveOutStale {
		t.Errorf("choices passed: %+v", got)
	}
}

// A stale scrub: the window says when it ran out, writes nothing, and
// offers a scrub of just those numbers (the DNC wizard, which prices it
// first) or the list without them.
func TestStaleScrubRefusal(t *testing.T) {
	fb := signedIn(downloaded("trc_1", jobs.KindTrace, "owners.csv", 10))
	fb.real(t)
	h := start(t, fb)
	done := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	stale := &export.StaleError{Scrubs: []export.StaleScrub{{Name: "owners phones.csv", Date: done, Phones: 2}},
		Numbers: []string{"5125550101", "5125550104"}}
	for _, choice := range []string{"Scrub these 2 numbers again…", "Export without them"} {
		fb.mu.Lock()
		fb.exportErr = stale
		fb.choices = nil
		fb.mu.Unlock()
		h.do(func() { h.app.jobs.selectJob("trc_1") })
		h.openCallableChoices()
		h.tap(h.button("Export"))
		h.save("")
		h.wait("stale-scrub")
		txt := h.dialogText()
		for _, want := range []string{"owners phones.csv", "was made on Mar 2, 2026", "ran out on Apr 2, 2026", "2 phones would be called on it",
			"Nothing was written"} {
			if !strings.Contains(txt, want) {
				t.Errorf("the refusal does not say %q: %q", want, txt)
			}
		}
		h.tap(h.button(choice))
		if choice == "Export without them" {
			h.wait("saved")
			fb.mu.Lock()
			got := fb.choices
			fb.mu.Unlock()
			if len(got) != 2 || !got[1].LeaveOutStale {
				t.Errorf("export without the stale phones: %+v", got)
			}
			continue
		}
		// A scrub of the trace's phones: its callable list will use it.
		flowOpened := h.nextFlow()
		path := strings.TrimPrefix(flowOpened, "rescrub:trc_1:")
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), "5125550101") || !strings.Contains(string(b), "5125550104") {
			t.Errorf("the rescrub opened %q holding %q (%v)", flowOpened, b, err)
		}
	}
}

// A row of a result goes on the list from the viewer: its numbers, the
// result and the row as the source.
func TestDoNotCallFromTheViewer(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	v := openFixture(t, h, "propstream.csv")
	h.do(func() { v.table.Select(widget.TableCellID{Row: 2, Col: 0}) }) // Linda Davis
	h.tap(h.button("Do not call…"))
	var nums *widget.Entry
	h.do(func() { nums = topShown(h, func(e *widget.Entry) bool { return e.MultiLine }) })
	if nums == nil || strings.Count(nums.Text, "\n") != 4 || !strings.HasPrefix(nums.Text, "(512) 555-0104") {
		t.Fatalf("the row's numbers: %+v", nums)
	}
	h.tap(h.button("Add"))
	h.waitFor("the addition", func() bool { return strings.Contains(h.dialogText(), "5 numbers added") })
	list, err := fb.service().Compliance().InternalList(context.Background())
	if err != nil || len(list) != 5 || list[0].Source != "result propstream, row 3" {
		t.Fatalf("list: %+v %v", list, err)
	}
	h.waitFor("the row marked", func() bool {
		var got string
		h.do(func() { got = v.shown(2, 2) })
		return strings.Contains(got, "on your do-not-call list")
	})
}

// The viewer's export of the callable phones is a callable list: the
// choices first; a stale scrub is explained and the list made without it
// on the person's word.
func TestViewerCallableExport(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	v := openFixture(t, h, "propstream.csv")
	fb.settings.OutputDir = t.TempDir()
	h.query(v, func() { v.quick[jobs.QuickCallable].SetChecked(true) })
	fb.mu.Lock()
	fb.exportErr = &export.StaleError{Scrubs: []export.StaleScrub{{Name: "propstream.csv", Date: time.Now().AddDate(0, 0, -40), Phones: 4}},
		Numbers: []string{"5125550101", "5125550104", "5125550105", "5125550106"}}
	fb.mu.Unlock()
	h.tap(h.button("Export .xlsx"))
	h.wait("callable-choices")
	h.tap(h.button("Export"))
	h.save("")
	h.wait("stale-scrub")
	if txt := h.dialogText(); !strings.Contains(txt, "4 phones would be called on it") {
		t.Errorf("the refusal: %q", txt)
	}
	h.tap(h.button("Export without them"))
	h.wait("saved")
	fb.mu.Lock()
	defer fb.mu.Unlock()
	if len(fb.choices) != 2 || fb.choices[0].LeaveOutStale || !fb.choices[1].LeaveOutStale ||
		len(fb.exported) != 1 || !strings.HasSuffix(fb.exported[0], "propstream callable.xlsx") {
		t.Errorf("choices %+v, exported %v", fb.choices, fb.exported)
	}
}

// fourPhones is a CRM export with four phone columns (one whose header
// does not say so), a notes column with one number among words, and a
// name column; line 4 has a number too short, line 5 repeats one.
const fourPhones = "Name,Phone,Cell,Wireless 2,Contact,Notes\r\n" +
	"Ann Lee,(512) 555-0101,512-555-0102,,2145550103,called twice\r\n" +
	"Bob Ray,5125550104,,512.555.0105,+1 214 555 0106,512-555-0199\r\n" +
	"Cy Dunn,,555-01,5125550107,2145550108,wrong number\r\n" +
	"Di Fox,5125550109,,,5125550101,left a message\r\n"

// Import a file: the window offers every column with what it holds over
// the whole file, the four phone columns ticked and the others with why
// not; the import puts the numbers of all four on the list and says what
// it did, with the value that is not a number and its line. With
// SKIPDESK_SCREENSHOTS set, the columns offered are saved there.
func TestImportAFileWithFourPhoneColumns(t *testing.T) {
	fb := signedIn()
	fb.real(t)
	h := start(t, fb)
	path := filepath.Join(t.TempDir(), "crm.csv")
	if err := os.WriteFile(path, []byte(fourPhones), 0o600); err != nil {
		t.Fatal(err)
	}
	h.do(func() { h.app.tabs.SelectIndex(2) })
	h.wait("internal-list")
	in := h.app.internal
	h.do(func() { in.importFile(path) })
	h.wait("list-columns")
	var ticked, unticked []string
	h.do(func() {
		for _, c := range shown[*widget.Check](h) {
			if c.Checked {
				ticked = append(ticked, c.Text)
			} else {
				unticked = append(unticked, c.Text)
			}
		}
	})
	want := []string{"Phone: 3 phone numbers", "Cell: 1 phone number, 1 value not a number", "Wireless 2: 2 phone numbers", "Contact: 4 phone numbers"}
	if !slices.Equal(ticked, want) || len(unticked) != 2 || !strings.HasPrefix(unticked[0], "Name: holds no phone number") ||
		!strings.HasPrefix(unticked[1], "Notes: holds phone numbers in 1 of 4 values, fewer than half") {
		t.Fatalf("columns offered:\nticked %q\nunticked %q", ticked, unticked)
	}
	if !h.hasText("crm.csv has 4 rows") {
		t.Errorf("the dialog does not say how many rows: %q", h.dialogText())
	}
	screenshot(t, h, "dnc-list-import-columns.png")
	h.tap(h.button("Import"))
	h.wait("list-imported")
	txt := h.dialogText()
	for _, w := range []string{"9 numbers added to your do-not-call list from crm.csv.", "1 number was repeated in the file.",
		"Not read:\n  Name: holds no phone number", "line 4, Cell: 555-01 (too short)"} {
		if !strings.Contains(txt, w) {
			t.Errorf("the report does not say %q:\n%s", w, txt)
		}
	}
	h.waitFor("the list shows the nine", func() bool { return h.textOf(in.count) == "9 numbers" })
}

// A big list: the tab shows the newest entries and says how many there
// are; a search finds any number in the ledger, not among those shown.
func TestInternalListTabShowsTheNewestOfABigList(t *testing.T) {
	fb := signedIn()
	svc := fb.real(t)
	var numbers []string
	for i := range internalShown + 500 {
		numbers = append(numbers, fmt.Sprintf("512555%04d", i))
	}
	if _, err := svc.Compliance().AddInternal(context.Background(), numbers[:1200], "imported", "file big.csv"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Compliance().AddInternal(context.Background(), numbers[1200:], "asked", "by hand"); err != nil {
		t.Fatal(err)
	}
	h := start(t, fb)
	h.do(func() { h.app.tabs.SelectIndex(2) })
	h.wait("internal-list")
	in := h.app.internal
	if got := h.textOf(in.count); got != "the newest 1,000 of 1,500 numbers" {
		t.Fatalf("the count says %q", got)
	}
	h.do(func() { in.search.SetText("(512) 555-0003") })
	h.waitFor("the search", func() bool { return h.textOf(in.count) == "1 of 1,500 numbers" })
	h.do(func() { in.search.SetText("file big") })
	h.waitFor("the search by source", func() bool { return h.textOf(in.count) == "the newest 1,000 of 1,200 found, of 1,500 numbers" })
}

// A workbook of numbers on two sheets: the columns of both are offered,
// each named with its sheet, and both sheets' numbers go on the list.
func TestImportAWorkbookOfTwoSheets(t *testing.T) {
	fb := signedIn()
	fb.real(t)
	h := start(t, fb)
	path := testlists.WriteWorkbook(t, "optouts.xlsx",
		testlists.Sheet{Name: "2024", Rows: [][]any{{"Name", "Phone"}, {"Ann", "(512) 555-0101"}, {"Bob", "512-555-0102"}}},
		testlists.Sheet{Name: "2025 texts", Rows: [][]any{{"Mobile", "Reply"}, {"3055550103", "STOP"}, {"305-555-0104; 305-555-0105", "stop"}}})
	h.do(func() { h.app.tabs.SelectIndex(2) })
	h.wait("internal-list")
	in := h.app.internal
	h.do(func() { in.importFile(path) })
	h.wait("list-columns")
	var ticked []string
	h.do(func() {
		for _, c := range shown[*widget.Check](h) {
			if c.Checked {
				ticked = append(ticked, c.Text)
			}
		}
	})
	want := []string{"2024 › Phone: 2 phone numbers", "2025 texts › Mobile: 3 phone numbers"}
	if !slices.Equal(ticked, want) || !h.hasText("optouts.xlsx has 4 rows on 2 sheets (2024, 2025 texts).") {
		t.Fatalf("columns offered: %q; %q", ticked, h.dialogText())
	}
	screenshot(t, h, "dnc-list-import-sheets.png")
	h.tap(h.button("Import"))
	h.wait("list-imported")
	if txt := h.dialogText(); !strings.Contains(txt, "5 numbers added to your do-not-call list from optouts.xlsx.") ||
		!strings.Contains(txt, "2025 texts › Mobile (3 numbers)") {
		t.Errorf("the report:\n%s", txt)
	}
}

// A result workbook split over sheets ("Clean", "DNC") is imported whole
// through the window; a sheet of results under other columns
// ("Landlines") is imported as a result of its own and a sheet of none
// ("Summary") named, each in a message.
func TestImportAResultWorkbookOfSheets(t *testing.T) {
	fb := signedIn()
	fb.real(t)
	h := start(t, fb)
	path := testlists.WriteWorkbook(t, "scrubbed.xlsx",
		testlists.Sheet{Name: "Clean", Rows: [][]any{{"Phone", "DNC", "Litigator"}, {"2125550101", "N", "N"}}},
		testlists.Sheet{Name: "DNC", Rows: [][]any{{"Phone", "DNC", "Litigator"}, {"2125550102", "Y", "N"}}},
		testlists.Sheet{Name: "Landlines", Rows: [][]any{{"Landline", "Federal DNC", "TCPA Litigator"}, {"2125550104", "No", "No"}}},
		testlists.Sheet{Name: "Summary", Rows: [][]any{{"Total", "Clean"}, {2, 1}}})
	v := h.app.library
	h.do(func() { v.importResult(path) })
	h.wait("scrub-date")
	h.do(func() {
		v.scrubAsk.entry.SetText(time.Now().AddDate(0, 0, -1).Format("2006-01-02"))
		v.scrubAsk.dialog.Confirm()
	})
	h.settle()
	txt := h.dialogText()
	for _, want := range []string{"Also imported, as a result of its own (a sheet under other columns): scrubbed - Landlines (imported), 1 row.",
		`Sheet "Summary" holds no phone results: not imported.`} {
		if !strings.Contains(txt, want) {
			t.Errorf("the message does not say %q: %q", want, txt)
		}
	}
	screenshot(t, h, "library-import-sheets.png")
}

// Opt-outs from an SMS tool's export: read and shown first (how the file
// was read, the numbers that go on, the rows passed over, the doubts),
// nothing on the list until confirmed; then on it, and a second
// import of the same file says they were there already.
func TestImportOptOuts(t *testing.T) {
	fb := signedIn()
	fb.real(t)
	h := start(t, fb)
	path := filepath.Join(t.TempDir(), "messages.csv")
	msgs := "From,To,Body,Direction,SentDate\n" +
		"+15125550199,+14045550101,\"Hi Ann, about 1 Main St. Reply STOP to opt out\",outbound-api,2026-11-20 10:00:00\n" +
		"+14045550101,+15125550199,Stop,inbound,2026-11-20 10:05:00\n" +
		"+14045550102,+15125550199,who is this,inbound,2026-11-20 10:06:00\n" +
		"+14045550103,+15125550199,wrong number,inbound,2026-11-21 09:00:00\n" +
		"+14045550104,+15125550199,remove me,,2026-11-21 09:30:00\n"
	if err := os.WriteFile(path, []byte(msgs), 0o600); err != nil {
		t.Fatal(err)
	}
	h.do(func() { h.app.tabs.SelectIndex(2) })
	h.wait("internal-list")
	in := h.app.internal
	h.do(func() { in.readOptOuts(path) })
	h.wait("optouts-read")
	txt := h.dialogText()
	for _, w := range []string{"messages.csv, read as SMS replies (from = From, to = To, said = Body, date = SentDate, direction = Direction): 5 rows.",
		"4 numbers go on your do-not-call list. Each opt-out stays on as long as the law asks and cannot be removed before. 1 reply or disposition only may be an opt-out", `(404) 555-0101  "Stop"  2026-11-20`,
		`(404) 555-0103  "wrong number"  2026-11-21  (may be an opt-out)`, "1 row is not an opt-out; 1 message the tool sent passed over.",
		"Read with a doubt, on the safe side (1):\n  line 6: the row does not say whether the message was sent or received"} {
		if !strings.Contains(txt, w) {
			t.Errorf("the dialog does not say %q:\n%s", w, txt)
		}
	}
	if got := h.textOf(in.count); got != "0 numbers" {
		t.Errorf("the list changed before the person confirmed: %q", got)
	}
	screenshot(t, h, "dnc-list-optouts.png")
	h.tap(h.button("Add 4 numbers"))
	h.wait("optouts-added")
	if txt := h.dialogText(); !strings.Contains(txt, "4 numbers added to your do-not-call list from messages.csv.") {
		t.Errorf("after: %q", txt)
	}
	h.waitFor("the list shows the four", func() bool { return h.textOf(in.count) == "4 numbers" })
}

// A dialer's dispositions export brought to "Import a file…" is said to
// be one before anything is imported: every row's number would go on the
// list, and Import opt-outs… puts on only the rows that are opt-outs.
func TestImportAFileThatIsAnExportOfOptOuts(t *testing.T) {
	fb := signedIn()
	fb.real(t)
	h := start(t, fb)
	path := filepath.Join(t.TempDir(), "calls.csv")
	if err := os.WriteFile(path, []byte("Phone,Disposition,Date\n5125550101,DNC,2026-11-01\n5125550102,No Answer,2026-11-01\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h.do(func() { h.app.tabs.SelectIndex(2) })
	h.wait("internal-list")
	h.do(func() { h.app.internal.importFile(path) })
	h.wait("list-columns")
	if !h.hasText(`This file looks like an export of dialer dispositions (column "Disposition"): every row's number goes on the list`) ||
		!h.hasText("use Import opt-outs…") {
		t.Errorf("the dialog does not say what the file is:\n%s", h.dialogText())
	}
	screenshot(t, h, "dnc-list-import-dispositions.png")
}
