package ui

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

func TestShortcuts(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	cases := []struct {
		key  fyne.KeyName
		want string
	}{
		{fyne.KeyN, "trace:"},
		{fyne.KeyD, "dnc:"},
		{fyne.KeyL, "lookup"},
	}
	for _, c := range cases {
		h.do(func() {
			h.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(&desktop.CustomShortcut{KeyName: c.key, Modifier: fyne.KeyModifierShortcutDefault})
		})
		if got := h.nextFlow(); got != c.want {
			t.Fatalf("shortcut %s opened %q, want %q", c.key, got, c.want)
		}
	}
	// Ctrl+, opens the settings.
	h.do(func() {
		h.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyComma, Modifier: fyne.KeyModifierShortcutDefault})
	})
	if !strings.Contains(h.dialogText(), "Notify me when a job completes or fails") {
		t.Fatalf("Ctrl+, did not open the settings: %q", h.dialogText())
	}
	// While a dialog is open the shortcuts open nothing on top of it.
	h.do(func() {
		h.win.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierShortcutDefault})
	})
	select {
	case got := <-h.flows.opened:
		t.Fatalf("Ctrl+N over the settings opened %q", got)
	case <-time.After(200 * time.Millisecond):
	}
	// A file dropped then is not taken either; the user is told why.
	h.do(func() { h.app.onDropped(fyne.NewPos(1, 1), []fyne.URI{storage.NewFileURI("/in/owners.csv")}) })
	select {
	case got := <-h.flows.opened:
		t.Fatalf("a drop over the settings opened %q", got)
	case <-time.After(200 * time.Millisecond):
	}
	if !strings.Contains(h.dialogText(), "Finish or cancel it, then drop the file again") {
		t.Fatalf("a drop over a dialog: %q", h.dialogText())
	}
}

// The main menu holds the same actions and names their shortcuts.
func TestMainMenu(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	want := map[string]fyne.KeyName{"New trace…": fyne.KeyN, "DNC scrub…": fyne.KeyD, "Single lookup…": fyne.KeyL,
		"Open result…": fyne.KeyO, "Settings…": fyne.KeyComma, "Refresh": fyne.KeyR}
	found := map[string]*fyne.MenuItem{}
	for _, m := range h.app.menu.Items {
		for _, it := range m.Items {
			found[it.Label] = it
		}
	}
	for label, key := range want {
		it := found[label]
		if it == nil {
			t.Fatalf("no %q in the menu", label)
		}
		if sc, ok := it.Shortcut.(*desktop.CustomShortcut); !ok || sc.KeyName != key {
			t.Fatalf("%q has shortcut %v, want %s", label, it.Shortcut, key)
		}
	}
	h.do(found["Single lookup…"].Action)
	if got := h.nextFlow(); got != "lookup" {
		t.Fatalf("the menu opened %q", got)
	}
}

func TestDropResultOpensViewer(t *testing.T) {
	fb := signedIn()
	res := sampleResult()
	h := start(t, fb)
	fb.addResult(t, res)
	// The file as it is on disk: the result opened from it says that path,
	// which is how the window knows a result it has open already.
	fb.mu.Lock()
	fb.results[res.file] = res
	fb.mu.Unlock()
	h.app.onDropped(fyne.NewPos(1, 1), []fyne.URI{storage.NewFileURI(res.file)})
	h.settle()
	var rows int
	h.do(func() { rows = h.app.viewerRows() })
	if rows != 5 {
		t.Fatalf("dropping a result did not open the viewer (rows %d)", rows)
	}
	// Opening it again selects the same tab.
	h.do(func() { h.app.openViewer(res.file, "") })
	h.settle()
	var tabs int
	h.do(func() { tabs = len(h.app.tabs.Items) })
	if tabs != 4 { // jobs, library, do not call, the result
		t.Fatalf("%d tabs after opening the same result twice, want 4", tabs)
	}

	// A result's Close button closes its tab; the fixed tabs have none to
	// offer.
	h.settle()
	var open bool
	if h.do(func() { open = h.app.dialogOpen() }); open {
		t.Fatalf("a dialog stays over the result: %q", h.dialogText())
	}
	var item *container.TabItem
	h.do(func() { tabs, item = len(h.app.tabs.Items), h.app.tabs.Selected() })
	h.tap(h.button("Close"))
	var after int
	var still bool
	h.do(func() {
		after = len(h.app.tabs.Items)
		_, still = h.app.viewers[item]
	})
	if after != tabs-1 || still {
		t.Fatalf("Close: %d tabs before, %d after; the viewer still open: %v", tabs, after, still)
	}
}

// A file is opened from the keyboard alone: Tab reaches "Open result…",
// Enter asks for the file with the focus in its path field, the path is
// typed, Enter opens it.
func TestOpenAFileFromTheKeyboard(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	list := filepath.Join(t.TempDir(), "owners.csv")
	os.WriteFile(list, []byte("First Name,Last Name\nAnn,Smith\n"), 0o600)
	key := func(k fyne.KeyName) {
		h.do(func() {
			if f := h.win.Canvas().Focused(); f != nil {
				f.TypedKey(&fyne.KeyEvent{Name: k})
			}
		})
	}
	var open *keys.Button
	h.do(func() { open = topShown(h, func(b *keys.Button) bool { return b.Text == "Open result…" }) })
	if open == nil {
		t.Fatal("no Open result… button")
	}
	for i := 0; ; i++ {
		var on bool
		h.do(func() {
			h.win.Canvas().FocusNext()
			on = h.win.Canvas().Focused() == fyne.Focusable(open)
		})
		if on {
			break
		}
		if i > 40 {
			t.Fatal("Tab never reaches Open result…")
		}
	}
	key(fyne.KeyReturn)
	var path *keys.Entry
	h.do(func() { path, _ = h.win.Canvas().Focused().(*keys.Entry) })
	if path == nil || path.PlaceHolder != "Type the file's path, or choose Browse…" {
		t.Fatalf("Enter on Open result… did not ask for the file with the focus in its path field (focus: %T)", h.win.Canvas().Focused())
	}
	// A folder is not a file: the question says so and stays.
	h.do(func() { test.Type(path, filepath.Dir(list)) })
	key(fyne.KeyReturn)
	if txt := h.dialogText(); !strings.Contains(txt, "is a folder") {
		t.Fatalf("a folder typed: %q", txt)
	}
	h.do(func() { test.Type(path, string(filepath.Separator)+"owners.csv") })
	key(fyne.KeyReturn)
	if got := h.nextFlow(); got != "trace:"+list {
		t.Fatalf("opened %q, want the trace of %s", got, list)
	}
}

func TestReconcileUnknownJob(t *testing.T) {
	fb := signedIn()
	fb.jobs = []workflow.Job{{Key: "submission-3", Kind: jobs.KindTrace, Name: "big.csv", Status: jobs.StatusUnknown, Rows: 10, CreatedAt: time.Now()}}
	h := start(t, fb)
	v := h.app.jobs
	h.do(func() { v.selectJob("submission-3") })
	h.tap(v.reconcileBtn)
	h.settle()
	if text := h.dialogText(); !strings.Contains(text, "Reconciled") {
		t.Fatalf("no reconciliation message: %q", text)
	}
	var status string
	h.do(func() { status = string(v.shown[0].Status) + " " + v.shown[0].ID })
	if status != "completed trc_found" {
		t.Fatalf("after reconcile the row is %q", status)
	}
}

func TestHeaderMeteredAndSubscription(t *testing.T) {
	fb := signedIn()
	end := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	fb.account = &client.Account{Email: "va@example.com", BillingMode: "metered",
		Metered:      &client.Metered{Threshold: 5000, UnbilledUsage: 1234, CardLast4: "4242", PastDue: true},
		Subscription: &client.Subscription{PlanName: "Pro", CreditsLimit: 10000, CreditsUsed: 2500, CurrentPeriodEnd: end}}
	h := start(t, fb)
	for _, want := range []string{"va@example.com", "Metered billing", "1,234 of 5,000", "•••• 4242", "PAYMENT PAST DUE",
		"Pro plan · period ends " + end.Local().Format("Jan 2, 2006")} {
		if !h.hasText(want) {
			t.Fatalf("header lacks %q", want)
		}
	}
	var bar float32
	var barText string
	h.do(func() {
		bar = h.app.header.subBar.fraction()
		barText = h.app.header.subBar.text
	})
	if bar != 0.25 || barText != "2,500 of 10,000 credits used" {
		t.Fatalf("subscription bar at %v saying %q, want 0.25 and the credits used", bar, barText)
	}
}

func TestLoadOlderJobs(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	// Paging is the backend's (workflow.Jobs); the list shows the button when
	// the backend says there is more.
	h.do(func() { h.app.jobs.setJobs([]workflow.Job{{ID: "a", Key: "a", Status: "completed"}}, true) })
	var shown bool
	h.do(func() { shown = h.app.jobs.older.Visible() })
	if !shown {
		t.Fatal("no Load older jobs button when the API has older pages")
	}
	h.do(func() { h.app.jobs.setJobs([]workflow.Job{{ID: "a", Key: "a", Status: "completed"}}, false) })
	h.do(func() { shown = h.app.jobs.older.Visible() })
	if shown {
		t.Fatal("Load older jobs shown with no older page")
	}
}

func TestStatusTexts(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		job  workflow.Job
		want string
	}{
		{workflow.Job{Status: "processing", CreatedAt: now.Add(-3725 * time.Second)}, "Processing · 1:02:05"},
		{workflow.Job{Status: "completed"}, "Completed"},
		{workflow.Job{Status: "completed", ResultPath: "/x.csv"}, "Completed · downloaded"},
		{workflow.Job{Status: "failed"}, "Failed"},
		{workflow.Job{Status: jobs.StatusUnknown}, "Unknown — may be charged"},
		{workflow.Job{Status: "queued"}, "Queued"}, // a status the spec does not list
	}
	for _, c := range cases {
		if got := statusText(c.job, now, nil); got != c.want {
			t.Errorf("%+v: %q, want %q", c.job, got, c.want)
		}
	}
	if got := statusText(workflow.Job{Key: "k", Status: "completed"}, now, map[string]float64{"k": 0.42}); got != "Completed · downloading 42%" {
		t.Errorf("download progress: %q", got)
	}
}

func TestDownloadCancel(t *testing.T) {
	fb := signedIn()
	fb.blockDownload = true
	fb.downloadErr = make(chan error, 1)
	fb.jobs = []workflow.Job{{ID: "trc_1", Key: "trc_1", Kind: jobs.KindTrace, Name: "owners.csv", Status: "completed", Rows: 10, CreatedAt: time.Now()}}
	h := start(t, fb)
	v := h.app.jobs
	h.do(func() { v.selectJob("trc_1") })
	h.tap(v.openBtn)
	// The progress dialog shows at once, while the download runs.
	var cancel *widget.Button
	h.do(func() { cancel = topShown(h, func(b *widget.Button) bool { return b.Text == "Cancel" }) })
	if cancel == nil {
		t.Fatal("no progress dialog with Cancel")
	}
	h.tap(cancel)
	if err := <-fb.downloadErr; !errors.Is(err, context.Canceled) {
		t.Fatalf("download ended with %v, want its context cancelled", err)
	}
	h.app.waitInflight(5 * time.Second)
	text := h.dialogText()
	if strings.Contains(text, "went wrong") || strings.Contains(text, "Cancelled") {
		t.Fatalf("a cancel showed an error dialog: %q", text)
	}
}

func TestScrubPhonesThenCallableList(t *testing.T) {
	fb := signedIn()
	trace := workflow.Job{ID: "trc_1", Key: "trc_1", Kind: jobs.KindTrace, Name: "owners.csv", Status: "completed", Rows: 10, CreatedAt: time.Now()}
	dnc := workflow.Job{ID: "dnc_9", Key: "dnc_9", Kind: jobs.KindDNC, Name: "owners phones", Status: "processing", Rows: 12, CreatedAt: time.Now()}
	fb.jobs = []workflow.Job{trace}
	h := start(t, fb)
	h.flows.scrubbed = func(traceID string) string {
		fb.mu.Lock()
		fb.jobs = append(fb.jobs, dnc)
		fb.mu.Unlock()
		return dnc.ID
	}
	v := h.app.jobs

	// A DNC job has no phones to scrub; a completed trace has.
	h.do(func() { v.selectJob("trc_1") })
	var off bool
	h.do(func() { off = v.scrubBtn.Disabled() })
	if off {
		t.Fatal("Scrub phones is disabled on a completed trace")
	}
	h.tap(v.scrubBtn)
	if got := h.nextFlow(); got != "scrub:trc_1" {
		t.Fatalf("Scrub phones opened %q, want the scrub of trc_1", got)
	}

	// The scrub completes and its result is downloaded: the callable list
	// of the trace is offered (not before: until then the trace reads as
	// never scrubbed).
	done := dnc
	done.Status = "completed"
	fb.emit(workflow.Event{Kind: workflow.EventCompleted, Job: done})
	done.ResultPath = "/results/owners phones.csv"
	fb.emit(workflow.Event{Kind: workflow.EventDownloaded, Job: done})
	h.settle()
	if txt := h.dialogTextSafe(); !strings.Contains(txt, "Export the callable list now?") {
		t.Fatalf("no callable-list offer after the scrub completed: %q", txt)
	}
	h.tap(h.button("Export now"))
	// The person's choices come first; the defaults leave out what may
	// not be called.
	h.wait("callable-choices")
	if txt := h.dialogTextSafe(); !strings.Contains(txt, "Leave out mobiles") || !strings.Contains(txt, "proof of scrub") {
		t.Fatalf("the callable list's choices: %q", txt)
	}
	h.tap(h.button("Export"))
	h.save("")
	h.settle()
	fb.mu.Lock()
	got := strings.Join(fb.exported, ",")
	fb.mu.Unlock()
	if !strings.HasSuffix(got, "callable.xlsx") {
		t.Fatalf("exports %q, want the trace's callable list", got)
	}
	h.do(func() { v.selectJob("dnc_9") })
	h.do(func() { off = v.scrubBtn.Disabled() })
	if !off {
		t.Fatal("Scrub phones is enabled on a DNC job")
	}
}

func (h *harness) dialogTextSafe() string {
	return h.dialogText()
}

// The main window fits a 1024×700 screen with a result open: a row of
// buttons or a header that asks for more makes the window grow past it.
func TestMainWindowFitsASmallScreen(t *testing.T) {
	fb := signedIn()
	fb.jobs = []workflow.Job{{ID: "trc_1", Key: "trc_1", Kind: jobs.KindTrace, Name: "a list with a long name.csv", Status: "completed", Rows: 10, CreatedAt: time.Now()}}
	fb.account.Subscription = &client.Subscription{PlanName: "Professional Annual", CreditsLimit: 1_000_000, CreditsUsed: 123_456,
		CurrentPeriodEnd: time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC)}
	fb.account.Email = "virtual.assistant.number.one@a-real-estate-investor.example.com"
	fb.account.BillingMode = "metered"
	fb.account.Metered = &client.Metered{Threshold: 50_000, UnbilledUsage: 12_345, CardLast4: "4242", PastDue: true}
	h := start(t, fb)
	h.win.Resize(fyne.NewSize(1024, 700))
	r := sampleResult()
	r.headers = append(r.headers, "A Column Header From The County Export That Goes On And On", "dnc", "litigator")
	for i := range r.rows {
		r.rows[i] = append(r.rows[i], "x", "no", "no")
	}
	res := fb.openMem(t, r)
	h.do(func() { h.app.showViewer(res, "owners") })
	h.wait("indexed")
	for _, tab := range []int{0, 2} {
		var got fyne.Size
		h.do(func() {
			h.app.tabs.SelectIndex(tab)
			h.app.jobs.selectJob("trc_1")
			got = h.app.main.MinSize()
		})
		if got.Width > 1000 || got.Height > 680 {
			t.Errorf("tab %d: the main screen asks for %v, more than a 1024×700 screen", tab, got)
		}
	}
}

// Offline in a session: the header and the jobs list say the server cannot
// be reached; the window still opens (the library works offline).
func TestServerUnreachableInSession(t *testing.T) {
	fb := signedIn()
	down := accountUnreachable()
	fb.accountErr = down
	fb.jobsErr = down
	fb.jobs = []workflow.Job{{ID: "trc_1", Key: "trc_1", Kind: jobs.KindTrace, Name: "from the ledger.csv", Status: "completed", CreatedAt: time.Now()}}
	h := start(t, fb)
	for _, want := range []string{"Account not loaded", "Can't reach api.example.com", "jobs list could not be loaded"} {
		if !h.hasText(want) {
			t.Fatalf("the window does not say %q", want)
		}
	}
	var shown []workflow.Job
	h.do(func() { shown = h.app.jobs.shown })
	if len(shown) != 1 {
		t.Fatalf("the ledger's jobs are not shown offline: %v", shown)
	}
}

// The server goes away in a session: the header says so at once (a
// tracker's failed poll is enough), with the time of the last good
// refresh, keeps the figures, and tries again by itself; when the server
// is back the banner goes.
func TestServerAwayThenBack(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	var bal string
	h.do(func() { bal = h.app.header.billing.Text })
	down := accountUnreachable()
	fb.mu.Lock()
	fb.accountErr = down
	fb.mu.Unlock()
	h.do(func() {
		h.app.applyEvents([]workflow.Event{{Kind: workflow.EventWarning, Err: fmt.Errorf("tracker: reading the trace list: %w", down)}})
	})
	var banner, billing string
	h.do(func() { banner, billing = h.app.header.Offline(), h.app.header.billing.Text })
	if !strings.Contains(banner, "Offline: can't reach") || !strings.Contains(banner, "the last time it answered") || billing != bal {
		t.Fatalf("banner %q, billing %q (was %q)", banner, billing, bal)
	}
	if h.hasText("dial tcp") || h.hasText("connection refused") {
		t.Fatal("transport text shown")
	}
	fb.mu.Lock()
	fb.accountErr = nil
	fb.mu.Unlock()
	h.wait("online") // the retry, by itself
	h.do(func() { banner = h.app.header.Offline() })
	if banner != "" {
		t.Fatalf("back online, the banner says %q", banner)
	}
}

// An export asks where to save it before writing anything: the export
// folder, a free name with one extension; picking a file that is there asks
// before replacing it.
func TestExportAsksWhereToSaveBeforeWriting(t *testing.T) {
	fb := signedIn()
	out := t.TempDir()
	fb.settings.OutputDir = out
	mine := filepath.Join(out, "owners [sd-1a2b3].xlsx")
	os.WriteFile(mine, []byte("mine"), 0o600)
	fb.jobs = []workflow.Job{{ID: "trc_1", Key: "trc_1", Kind: jobs.KindTrace, Name: "owners [sd-1a2b3].csv", Status: "completed", Rows: 10,
		CreatedAt: time.Now(), ResultPath: "/results/owners [sd-1a2b3].csv"}}
	h := start(t, fb)
	exported := func() []string {
		fb.mu.Lock()
		defer fb.mu.Unlock()
		return slices.Clone(fb.exported)
	}

	// The dialog offers a free name in the export folder; nothing is
	// written before the person answers, and Cancel writes nothing.
	h.do(func() { h.app.jobs.selectJob("trc_1") })
	h.tap(h.app.jobs.xlsxBtn)
	h.wait("save-as")
	h.points <- "save-as" // answered below
	if got := exported(); len(got) != 0 {
		t.Fatalf("written before the person chose where: %v", got)
	}

	// The file the person has: asked before replacing it; No keeps it.
	if offered := h.save("owners [sd-1a2b3].xlsx"); offered != "owners [sd-1a2b3] (2).xlsx" {
		t.Fatalf("the dialog offers %q", offered)
	}
	if txt := h.dialogText(); !strings.Contains(txt, "overwrite") || !strings.Contains(txt, "owners [sd-1a2b3].xlsx") {
		t.Fatalf("no question before replacing the file: %q", txt)
	}
	h.tap(h.button("No"))
	if b, _ := os.ReadFile(mine); string(b) != "mine" || len(exported()) != 0 {
		t.Fatalf("No replaced the file: %q, exported %v", b, exported())
	}

	// Yes: the export goes there, and the message says where.
	h.tap(h.button("Save"))
	h.tap(h.button("Yes"))
	h.wait("saved")
	if got := exported(); len(got) != 1 || got[0] != mine {
		t.Fatalf("exported to %v, want %s", got, mine)
	}
	if !strings.Contains(h.dialogText(), "Saved to "+mine) {
		t.Fatalf("the message: %q", h.dialogText())
	}
}

// Resend webhook is off, and says why, while no webhook is set up; an
// interrupted upload's details explain what Reconcile does.
func TestResendWebhookNeedsAWebhook(t *testing.T) {
	fb := signedIn()
	fb.jobs = []workflow.Job{
		{ID: "trc_1", Key: "trc_1", Kind: jobs.KindTrace, Name: "owners.csv", Status: "completed", Rows: 10, CreatedAt: time.Now()},
		{Key: "submission-3", Kind: jobs.KindTrace, Name: "big.csv", Status: jobs.StatusUnknown, Rows: 10, CreatedAt: time.Now()},
	}
	h := start(t, fb)
	h.do(func() { h.app.jobs.selectJob("trc_1") })
	var off bool
	var detail string
	h.do(func() { off, detail = h.app.jobs.webhookBtn.Disabled(), h.app.jobs.detail.Text })
	if !off || !strings.Contains(detail, "Resend webhook is off: no webhook is set up") {
		t.Fatalf("no webhook: resend disabled %v, %q", off, detail)
	}
	fb.mu.Lock()
	fb.settings.WebhookEnabled = true
	fb.mu.Unlock()
	h.do(func() { h.app.jobs.selectJob("submission-3"); h.app.jobs.selectJob("trc_1") })
	h.do(func() { off, detail = h.app.jobs.webhookBtn.Disabled(), h.app.jobs.detail.Text })
	if off || strings.Contains(detail, "Resend webhook is off") {
		t.Fatalf("a webhook: resend disabled %v, %q", off, detail)
	}
	h.do(func() { h.app.jobs.selectJob("submission-3") })
	h.do(func() { detail = h.app.jobs.detail.Text })
	if !strings.Contains(detail, "Reconcile asks the server whether it was") {
		t.Fatalf("unknown: %q", detail)
	}
}

// The server goes away while nothing else asks it anything: the header's
// own reload notices, and says so.
func TestServerGoesAwayWhileIdle(t *testing.T) {
	fb := signedIn()
	o := testOptions()
	o.AccountEvery = 30 * time.Millisecond
	h := startWith(t, fb, o)
	fb.mu.Lock()
	fb.accountErr = accountUnreachable()
	fb.mu.Unlock()
	// The header's next reload (a tick of its own clock) finds it away.
	h.wait("offline")
	wantOffline(t, h, "the header says")
}

// An answer that set out before the server went away and arrives after
// the header said so leaves the banner up: the newer answer stands.
func TestLateAnswerKeepsTheHeaderOffline(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	lateAnswer(h, &fb.accountGate, h.app.header.refresh, func() {
		fb.accountErr = accountUnreachable()
	}, func() {
		h.do(func() { h.app.header.refresh(nil) })
		h.wait("offline")
	})
	wantOffline(t, h, "after the late answer the header says")
}

// accountUnreachable is the error of an account request that cannot reach
// the server (the connection refused).
func accountUnreachable() error {
	return &url.Error{Op: "Get", URL: "https://api.example.com/v1/account",
		Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}}
}

// wantOffline checks that the header's banner says the server cannot be
// reached; when says where the test is.
func wantOffline(t *testing.T, h *harness, when string) {
	t.Helper()
	var s string
	if h.do(func() { s = h.app.header.Offline() }); !strings.Contains(s, "Offline: can't reach") {
		t.Fatalf("%s %q", when, s)
	}
}

// A jobs list asked for before a job was submitted and arriving after the
// list that holds it does not take the job away.
func TestLateJobsListKeepsTheNewerOne(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	lateAnswer(h, &fb.listGate, h.app.jobs.reload, func() {
		fb.jobs = []workflow.Job{downloaded("trc_1", jobs.KindTrace, "owners.csv", 3)}
	}, func() {
		newer := make(chan struct{})
		h.do(func() { h.app.jobs.reload(func() { close(newer) }) })
		<-newer
	})
	var ids []string
	h.do(func() {
		for _, j := range h.app.jobs.shown {
			ids = append(ids, j.ID)
		}
	})
	if !slices.Equal(ids, []string{"trc_1"}) {
		t.Fatalf("after the late list the jobs shown are %q", ids)
	}
}

// A jobs list asked for before the events of two jobs, arriving after
// them, leaves each as its event left it: the completed job completed, the
// upload settled into its job not shown again as unknown.
func TestLateJobsListKeepsWhatEventsSaid(t *testing.T) {
	running := workflow.Job{ID: "trc_1", Key: "trc_1", Kind: jobs.KindTrace, Name: "owners.csv", Status: "processing", CreatedAt: time.Now()}
	unknown := workflow.Job{Key: "sub_9", Kind: jobs.KindTrace, Name: "spring.csv", Status: jobs.StatusUnknown, CreatedAt: time.Now()}
	fb := signedIn(running, unknown)
	h := start(t, fb)
	completed, settled := running, workflow.Job{ID: "trc_9", Key: "trc_9", Kind: jobs.KindTrace, Name: "spring.csv",
		Status: "processing", CreatedAt: time.Now()}
	completed.Status = "completed"
	lateAnswer(h, &fb.listGate, h.app.jobs.reload, func() {}, func() {
		h.do(func() {
			h.app.applyEvents([]workflow.Event{{Kind: workflow.EventCompleted, Job: completed},
				{Kind: workflow.EventSettled, Job: settled, Replaces: "sub_9"}})
		})
	})
	var shown []string
	h.do(func() {
		for _, j := range h.app.jobs.all {
			shown = append(shown, j.Key+" "+string(j.Status))
		}
	})
	slices.Sort(shown)
	if want := []string{"trc_1 completed", "trc_9 processing"}; !slices.Equal(shown, want) {
		t.Fatalf("after the late list the jobs are %q, want %q", shown, want)
	}
}

// lateAnswer asks (ask, handed a done) while the fake holds the answer at
// the gate *at; then changes the fake (change, under its lock), lets
// newer ask again and see its answer shown, and only then lets the first
// answer through, returning once the window has been handed it.
func lateAnswer(h *harness, at **gate, ask func(done func()), change, newer func()) {
	h.settle()
	g := newGate()
	h.fb.mu.Lock()
	*at = g
	h.fb.mu.Unlock()
	late := make(chan struct{})
	h.do(func() { ask(func() { close(late) }) })
	<-g.held // the older answer is on its way
	h.fb.mu.Lock()
	*at = nil
	change()
	h.fb.mu.Unlock()
	newer()
	close(g.open)
	<-late
}

// startOnScrub starts the app over a fake holding one completed scrub,
// selected in the jobs list.
func startOnScrub(t *testing.T) (*fakeBackend, *harness) {
	fb := signedIn(downloaded("dnc_1", jobs.KindDNC, "phones.csv", 3))
	h := start(t, fb)
	h.do(func() { h.app.jobs.selectJob("dnc_1") })
	return fb, h
}

// openCallableChoices asks for the selected scrub's callable list and
// waits for its choices.
func (h *harness) openCallableChoices() {
	h.tap(h.app.jobs.callableBtn)
	h.wait("callable-choices")
}

// exportCallable exports with the callable list's choices as they stand,
// saved where offered, and returns the choices every export so far was
// given.
func (h *harness) exportCallable() []workflow.CallableChoices {
	h.tap(h.button("Export"))
	h.save("")
	h.wait("saved")
	h.fb.mu.Lock()
	defer h.fb.mu.Unlock()
	return slices.Clone(h.fb.choices)
}

// shownSelect is the visible drop-down showing selected (nil when none);
// call it on the UI thread.
func (h *harness) shownSelect(selected string) *widget.Select {
	return topShown(h, func(s *widget.Select) bool { return s.Selected == selected })
}

// The callable list's choices answer the keyboard: Escape closes them
// without exporting, Enter goes on to where to save it.
func TestCallableChoicesKeys(t *testing.T) {
	fb, h := startOnScrub(t)
	h.openCallableChoices()
	h.do(func() { keys.Press(h.win.Canvas(), fyne.KeyEscape) })
	var open bool
	h.do(func() { open = h.app.exports.callableAsk != nil })
	if open {
		t.Fatal("Escape left the choices open")
	}
	h.openCallableChoices()
	h.do(func() { keys.Press(h.win.Canvas(), fyne.KeyReturn) })
	h.save("")
	h.wait("saved")
	fb.mu.Lock()
	defer fb.mu.Unlock()
	if len(fb.exported) != 1 || !strings.HasSuffix(fb.exported[0], "phones callable.xlsx") {
		t.Fatalf("exported %v", fb.exported)
	}
}

// The callable list's choices offer the dialer and CRM presets; the one
// chosen goes with the export.
func TestCallableChoicesPreset(t *testing.T) {
	_, h := startOnScrub(t)
	h.openCallableChoices()
	h.wait("callable-presets")
	var options []string
	h.do(func() {
		if sel := h.shownSelect(ownColumns); sel != nil {
			options = sel.Options
			sel.SetSelected("REISift")
		}
	})
	if len(options) != 11 || options[0] != ownColumns || !slices.Contains(options, "GoHighLevel") || !slices.Contains(options, "People and phones (plain words)") {
		t.Fatalf("layouts offered: %q", options)
	}
	screenshot(t, h, "callable-choices-preset.png")
	if got := h.exportCallable(); len(got) != 1 || got[0].Preset != "reisift" {
		t.Fatalf("choices %+v", got)
	}
}

// The callable list's choices offer the instant it is judged at (no
// instant, right now, or a day and time the person writes in this
// computer's time); the one chosen goes with the export, and a time that
// cannot be read exports nothing.
func TestCallableChoicesTime(t *testing.T) {
	fb, h := startOnScrub(t)
	choose := func(option, text string) {
		h.openCallableChoices()
		h.do(func() {
			if sel := h.shownSelect(anyTime); sel != nil {
				sel.SetSelected(option)
			}
			for _, e := range shown[*widget.Entry](h) {
				if strings.Contains(e.PlaceHolder, atLayout) {
					e.SetText(text)
				}
			}
		})
	}
	choose(atTime, "next Tuesday")
	h.do(func() { h.app.exports.callableAsk.Confirm() })
	fb.mu.Lock()
	n := len(fb.choices)
	fb.mu.Unlock()
	if n != 0 {
		t.Fatalf("a time that cannot be read exported: %+v", fb.choices)
	}
	var shown bool
	h.do(func() { shown = h.app.dialogOpen() })
	if !shown {
		t.Fatal("a time that cannot be read: no message")
	}
	h.do(func() { keys.Press(h.win.Canvas(), fyne.KeyEscape) })
	choose(atTime, "2026-11-24 15:00")
	screenshot(t, h, "callable-choices-time.png")
	want := time.Date(2026, 11, 24, 15, 0, 0, 0, time.Local)
	if got := h.exportCallable(); len(got) != 1 || !got[0].CallableAt.Equal(want) {
		t.Fatalf("choices %+v, want callable at %v", got, want)
	}
}

// Saved, a file says where it went with a way to its folder; a callable
// list also names its proof of scrub, beside it, with a way to open it.
func TestSavedSaysWhereWithTheProof(t *testing.T) {
	_, h := startOnScrub(t)
	for _, c := range []struct {
		proof, says string
		opens       bool
	}{
		{"", "Saved to /out/phones.csv", false},
		{"/out/phones proof.pdf", "Its proof of scrub: phones proof.pdf, beside it", true},
	} {
		h.do(func() { h.app.exports.showSaved("/out/phones.csv", c.proof) })
		h.wait("saved")
		if txt := h.dialogText(); !strings.Contains(txt, c.says) {
			t.Errorf("proof %q: the dialog says %q", c.proof, txt)
		}
		var folder, proof *widget.Button
		h.do(func() {
			folder = topShown(h, func(b *widget.Button) bool { return b.Text == "Show in folder" })
			proof = topShown(h, func(b *widget.Button) bool { return b.Text == "Open the proof" })
		})
		if folder == nil || (proof != nil) != c.opens {
			t.Errorf("proof %q: Show in folder %v, Open the proof %v", c.proof, folder != nil, proof != nil)
		}
		h.do(func() { keys.Press(h.win.Canvas(), fyne.KeyEscape) })
	}
}

// A callable list resting on columns SkipDesk is not sure of writes
// nothing: the dialog names each file and question, and offers to check
// the columns or to make the list without the phones they decide; Cancel
// does neither.
func TestOpenQuestionsOfferTheWays(t *testing.T) {
	_, h := startOnScrub(t)
	e := &workflow.QuestionError{Files: []layout.FileQuestions{{File: "/lib/owners result.csv",
		Questions: []layout.Question{{Topic: "marks", Message: `"Known Litigator" marks numbers and leaves the others blank`, Blocks: true}}}}}
	for _, c := range []struct{ tap, want string }{
		{"Check the columns…", "check"},
		{"Export without those phones", "without"},
		{"Cancel", ""},
	} {
		var got string
		h.do(func() {
			h.app.exports.offerQuestions(e, func() { got = "check" }, func() { got = "without" })
		})
		h.wait("open-questions")
		if txt := h.dialogText(); !strings.Contains(txt, `owners result.csv: "Known Litigator" marks numbers`) ||
			!strings.Contains(txt, "Nothing was written") {
			t.Fatalf("the dialog says %q", txt)
		}
		h.tap(h.button(c.tap))
		if got != c.want {
			t.Errorf("%s: %q ran, want %q", c.tap, got, c.want)
		}
		var open bool
		h.do(func() { open = h.app.dialogOpen() })
		if open {
			t.Errorf("%s left the dialog open", c.tap)
		}
	}
}
