package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/zalando/go-keyring"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/internal/uitest"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// onUI runs f as the UI thread would: the window's background updates and
// the test's own actions take turns on it.
var onUI = new(uitest.Thread).Do

// testOptions are the window's options in tests: serialised, short delays.
func testOptions() Options {
	o := DefaultOptions()
	o.Do, o.Sync = onUI, onUI
	o.BatchDelay, o.FilterDelay, o.TickEvery = 10*time.Millisecond, 10*time.Millisecond, time.Hour
	o.Wizard.Do, o.Lookup.Do = onUI, onUI
	o.OfflineRetry, o.AccountEvery = 50*time.Millisecond, 0
	o.Now, o.MinuteEvery = func() time.Time { return testNow }, 0
	return o
}

// testNow is the window's clock in the tests: a Tuesday, 7:42 p.m. in
// Texas.
var testNow = time.Date(2026, 11, 24, 19, 42, 0, 0, time.FixedZone("CST", -6*3600))

// notifyApp records the desktop notifications sent.
type notifyApp struct {
	fyne.App
	mu   sync.Mutex
	sent []*fyne.Notification
}

func (n *notifyApp) SendNotification(x *fyne.Notification) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.sent = append(n.sent, x)
}

// recFlows records which flow was opened.
type recFlows struct {
	opened chan string
	// scrubbed, when set, submits the scrub: it returns the DNC job's id.
	scrubbed func(traceID string) string
}

func (r *recFlows) NewTrace(path string) { r.opened <- "trace:" + path }
func (r *recFlows) NewDNC(path string)   { r.opened <- "dnc:" + path }
func (r *recFlows) SingleLookup()        { r.opened <- "lookup" }
func (r *recFlows) RescrubTrace(phonesPath, traceID string, onDone func(string)) {
	r.opened <- "rescrub:" + traceID + ":" + phonesPath
}

func (r *recFlows) ScrubTrace(resultPath, traceID string, onDone func(string)) {
	r.opened <- "scrub:" + traceID
	if r.scrubbed != nil {
		onDone(r.scrubbed(traceID))
	}
}

func (h *harness) nextFlow() string {
	h.t.Helper()
	select {
	case f := <-h.flows.opened:
		return f
	case <-time.After(5 * time.Second):
		h.t.Fatal("no flow opened")
		return ""
	}
}

type harness struct {
	t      *testing.T
	app    *App
	fyneA  *notifyApp
	win    fyne.Window
	fb     *fakeBackend
	flows  *recFlows
	points chan string
}

// start opens the window on fb and waits for the first session screen.
func start(t *testing.T, fb *fakeBackend) *harness {
	t.Helper()
	return startWith(t, fb, testOptions())
}

// startWith is start with the window's options o.
func startWith(t *testing.T, fb *fakeBackend, o Options) *harness {
	t.Helper()
	a := &notifyApp{App: test.NewTempApp(t)}
	w := test.NewTempWindow(t, widget.NewLabel(""))
	w.Resize(fyne.NewSize(1180, 760))
	if fb.settings.OutputDir == "" {
		fb.settings.OutputDir = t.TempDir() // what the save dialog creates stays in the test's folder
	}
	h := &harness{t: t, fyneA: a, win: w, fb: fb, flows: &recFlows{opened: make(chan string, 10)}, points: make(chan string, 100)}
	h.app = New(a, w, fb.services(), o)
	h.app.Flows = h.flows
	h.app.hook = func(p string) { h.points <- p }
	t.Cleanup(h.app.Close)
	h.app.Start()
	if fb.resumeErr == nil || errors.Is(fb.resumeErr, workflow.ErrNoKey) {
		h.wait("session")
	} else {
		h.wait("first-run")
	}
	return h
}

// settle waits until the window has no work in flight (shell.busy):
// every goroutine and timer it started and every batch of job events has
// ended, and the test driver has run their updates of the window.
func (h *harness) settle() {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := h.app.busy.Wait(ctx); err != nil {
		h.t.Fatalf("the window's work did not end: %v", err)
	}
}

// do runs f as the UI thread would: serialised with the window's own
// updates.
func (h *harness) do(f func()) { onUI(f) }

func (h *harness) tap(b *widget.Button) { h.do(func() { test.Tap(b) }) }

// wait blocks until the app reaches point (see App.hook).
func (h *harness) wait(point string) {
	h.t.Helper()
	// A hang's limit, not a speed: the race detector on a busy machine
	// makes the window's work many times slower.
	timeout := time.After(time.Minute)
	for {
		select {
		case p := <-h.points:
			if p == point {
				return
			}
		case <-timeout:
			h.t.Fatalf("timed out waiting for %q", point)
		}
	}
}

// objects is everything laid out in the window, overlays (dialogs)
// included. The caller holds the UI (see do): laying out reads widgets that
// background results update.
func (h *harness) objects() []fyne.CanvasObject {
	c := h.win.Canvas()
	objs := test.LaidOutObjects(c.Content())
	for _, o := range c.Overlays().List() {
		objs = append(objs, test.LaidOutObjects(o)...)
	}
	return objs
}

// shown are the visible objects of type T on screen, dialogs included (and
// last); call it on the UI thread.
func shown[T fyne.CanvasObject](h *harness) []T {
	var out []T
	for _, o := range h.objects() {
		if x, ok := o.(T); ok && x.Visible() {
			out = append(out, x)
		}
	}
	return out
}

// topShown is the visible object of type T that match accepts, the one on
// top when several are (the zero T when none); call it on the UI thread.
func topShown[T fyne.CanvasObject](h *harness, match func(T) bool) T {
	var top T
	for _, x := range shown[T](h) {
		if match(x) {
			top = x
		}
	}
	return top
}

// typeKey types a server and a key in the first-run screen, which must
// show; done receives what each of up to n attempts to connect answered.
func (h *harness) typeKey(n int) (f *firstRun, done chan error) {
	h.t.Helper()
	if f = h.app.firstRun; f == nil {
		h.t.Fatal("the first-run screen did not show")
	}
	done = make(chan error, n)
	f.onDone = func(err error) { done <- err }
	h.do(func() { test.Type(f.baseURL, "https://api.example.com/v1") })
	h.do(func() { test.Type(f.key, "sk_live_123") })
	return f, done
}

// save answers the save dialog: name, when not "", typed over the name it
// offers, then Save. It returns the name offered.
func (h *harness) save(name string) string {
	h.t.Helper()
	h.wait("save-as")
	var entry *widget.Entry
	var btn *widget.Button
	h.do(func() {
		for _, o := range test.LaidOutObjects(h.win.Canvas().Overlays().Top()) {
			switch x := o.(type) {
			case *widget.Entry:
				if entry == nil && x.PlaceHolder == "Enter filename" {
					entry = x
				}
			case *widget.Button:
				if x.Text == "Save" && x.Visible() {
					btn = x
				}
			}
		}
	})
	if entry == nil || btn == nil {
		h.t.Fatal("no save dialog")
	}
	var offered string
	h.do(func() {
		offered = entry.Text
		if name != "" {
			entry.SetText(name)
		}
	})
	h.tap(btn)
	return offered
}

func (h *harness) button(text string) *widget.Button {
	h.t.Helper()
	var found *widget.Button
	h.do(func() {
		for _, o := range h.objects() {
			if b, ok := o.(*widget.Button); ok && b.Visible() && b.Text == text {
				found = b
				return
			}
			if b, ok := o.(*keys.Button); ok && b.Visible() && b.Text == text {
				found = &b.Button
				return
			}
		}
	})
	if found == nil {
		h.t.Fatalf("no button %q on screen", text)
	}
	return found
}

// tapHeader taps the viewer's column header showing text.
func (h *harness) tapHeader(text string) {
	h.t.Helper()
	tapped := false
	h.do(func() {
		for _, o := range h.objects() {
			if c, ok := o.(*headerCell); ok && c.Visible() && c.Text == text {
				test.Tap(c)
				tapped = true
				return
			}
		}
	})
	if !tapped {
		h.t.Fatalf("no column header %q on screen", text)
	}
}

func (h *harness) hasText(sub string) bool {
	found := false
	h.do(func() {
		for _, o := range h.objects() {
			switch x := o.(type) {
			case *widget.Label:
				found = found || x.Visible() && strings.Contains(x.Text, sub)
			case *canvas.Text:
				found = found || x.Visible() && strings.Contains(x.Text, sub)
			}
		}
	})
	return found
}

// dialogText is the text of the dialogs shown (holding the UI itself).
func (h *harness) dialogText() string {
	var b strings.Builder
	h.do(func() {
		for _, o := range h.win.Canvas().Overlays().List() {
			b.WriteString(uitest.Text(o))
		}
	})
	return b.String()
}

func TestNoKeyLandsInSandboxWithSampleReady(t *testing.T) {
	fb := newFake()
	h := start(t, fb)
	if !h.app.Session().Sandbox || fb.sandboxes != 1 {
		t.Fatalf("session %+v after %d sandbox starts, want the sandbox", h.app.Session(), fb.sandboxes)
	}
	if !h.hasText("SANDBOX") {
		t.Fatal("no SANDBOX badge on the main screen")
	}
	if !h.hasText("25,000 credits") {
		t.Fatal("header does not show the balance")
	}
	if !h.hasText("Credits per row: normal 1 · enhanced 3 · LLC 2 · DNC 1") {
		t.Fatal("header does not show the rates")
	}
	h.tap(h.button("Try the sample list"))
	if got := h.nextFlow(); got != "trace:/assets/sample-owners.csv" {
		t.Fatalf("flows opened %s, want the trace wizard on the sample list", got)
	}
}

func TestFirstRunConnectWithKey(t *testing.T) {
	fb := newFake()
	h := start(t, fb)
	h.tap(h.button("Use my API key…")) // from the sandbox bar
	f, done := h.typeKey(1)
	h.tap(f.connect)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	h.wait("session")
	if got := fmt.Sprint(fb.connected); got != "[https://api.example.com/v1|sk_live_123|keyring]" {
		t.Fatalf("connected %s", got)
	}
	if h.app.Session().Sandbox || h.hasText("SANDBOX") {
		t.Fatal("still in the sandbox after connecting with a key")
	}
}

func TestFirstRunTrySandbox(t *testing.T) {
	fb := newFake()
	fb.resumeErr = errors.New("keyring locked") // shows the first-run screen
	h := start(t, fb)
	f := h.app.firstRun
	if f == nil {
		t.Fatal("the first-run screen did not show")
	}
	done := make(chan error, 1)
	f.onDone = func(err error) { done <- err }
	h.tap(h.button("Try the sandbox"))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	h.wait("session")
	if !h.app.Session().Sandbox || !h.hasText("SANDBOX") {
		t.Fatal("not in the sandbox after Try the sandbox")
	}
}

func TestFirstRunKeyringUnavailableOffersSessionOnly(t *testing.T) {
	fb := newFake()
	fb.resumeErr = errors.New("keyring locked")
	fb.connectErr = func(sessionOnly bool) error {
		if sessionOnly {
			return nil
		}
		return fmt.Errorf("store key: %w", workflow.ErrKeyringUnavailable)
	}
	h := start(t, fb)
	f, done := h.typeKey(4)
	h.tap(f.connect)
	if err := <-done; !errors.Is(err, workflow.ErrKeyringUnavailable) {
		t.Fatalf("first attempt: %v", err)
	}
	if !strings.Contains(h.dialogText(), "session only") {
		t.Fatalf("no session-only offer; dialog says %q", h.dialogText())
	}
	h.tap(h.button("Yes"))
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	h.wait("session")
	if !h.app.Session().SessionOnly {
		t.Fatalf("session %+v, want session-only", h.app.Session())
	}
}

func TestUnreachableServerDialog(t *testing.T) {
	fb := newFake()
	fb.resumeErr = errors.New("keyring locked")
	fb.connectErr = func(bool) error {
		return accountUnreachable()
	}
	h := start(t, fb)
	f, done := h.typeKey(1)
	h.tap(f.connect)
	<-done
	got := h.dialogText()
	for _, want := range []string{"Can't reach api.example.com.", "Check your internet connection"} {
		if !strings.Contains(got, want) {
			t.Fatalf("dialog %q lacks %q", got, want)
		}
	}
	if !strings.Contains(got, "Can't reach the server") {
		t.Fatalf("dialog title missing: %q", got)
	}
}

// A key check against a server that does not answer can be cancelled;
// trying a key from the sandbox leaves the sandbox session as it was.
func TestFirstRunCheckCanBeCancelled(t *testing.T) {
	fb := newFake()
	h := start(t, fb)
	sandboxURL := h.app.Session().BaseURL
	h.tap(h.button("Use my API key…"))
	f, done := h.typeKey(2)
	fb.mu.Lock()
	fb.connectHangs = true
	fb.mu.Unlock()
	h.tap(f.connect)
	if !f.stop.Visible() || !f.connect.Disabled() {
		t.Fatal("no Cancel while the key is checked")
	}
	h.tap(f.stop)
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled check: %v", err)
	}
	if f.stop.Visible() || f.connect.Disabled() || !strings.Contains(f.status.Text, "Cancelled") {
		t.Fatalf("after cancel: status %q, connect disabled %v", f.status.Text, f.connect.Disabled())
	}
	if h.app.win.Canvas().Overlays().Top() != nil {
		t.Fatalf("a dialog after a cancel: %q", h.dialogText())
	}

	// A refused key shows a dialog naming the server typed, and the
	// sandbox session keeps its address.
	fb.mu.Lock()
	fb.connectHangs = false
	fb.connectErr = func(bool) error {
		return fmt.Errorf("GET /account: %w", &client.APIError{StatusCode: 401, Message: "invalid key"})
	}
	fb.mu.Unlock()
	h.tap(f.connect)
	<-done
	if !strings.Contains(h.dialogText(), "API key refused") {
		t.Fatalf("dialog %q", h.dialogText())
	}
	if h.app.Session().BaseURL != sandboxURL || !h.app.Session().Sandbox {
		t.Fatalf("session after a refused key: %+v", h.app.Session())
	}
}

func TestInsufficientCreditsDialog(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want []string
	}{
		{"needed and balance known", &workflow.CreditsError{Needed: 1200, Balance: 300, Err: &client.APIError{StatusCode: 402, Message: "Insufficient credits"}},
			[]string{"Not enough credits", "needs 1,200 credits", "balance is 300", "900 short", "Top up or lower the rows"}},
		{"bare 402", fmt.Errorf("POST /traces: %w", &client.APIError{StatusCode: 402, Message: "Insufficient credits"}),
			[]string{"Not enough credits", "The server refused the charge: Insufficient credits.", "Top up"}},
		{"prepaid with enough credits", &workflow.CreditsError{Needed: 100, Balance: 5000, Err: &client.APIError{StatusCode: 402, Message: "the account is past due"}},
			[]string{"Payment refused", "balance (5,000 credits) covers this job (100 credits)", "past due", "billing"}},
		{"metered past due", &workflow.CreditsError{Metered: true, PastDue: true, Err: &client.APIError{StatusCode: 402}},
			[]string{"Payment past due", "card"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := start(t, newFake())
			h.do(func() { h.app.showError(c.err) })
			got := h.dialogText()
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Fatalf("dialog %q lacks %q", got, w)
				}
			}
		})
	}
}

func TestSettingsSaveAndSignOut(t *testing.T) {
	keyring.MockInit()
	ctx := t.Context()
	if err := secrets.OS().Set(ctx, secrets.APIKey, "sk_live_123"); err != nil {
		t.Fatal(err)
	}
	fb := signedIn()
	h := start(t, fb)

	saved := make(chan error, 1)
	dir := t.TempDir()
	h.do(func() {
		f := h.app.newSettingsForm()
		f.onSaved = func(err error) { saved <- err }
		f.dialog.Show()
		f.webhookOn.SetChecked(true)
		f.webhookAddr.SetText("127.0.0.1:9123")
		test.Type(f.webhookSecret, "whsec_abc")
		f.theme.SetSelected("Dark")
		f.notifications.SetChecked(false)
		f.outputDir.SetText(dir)
	})
	h.tap(h.button("Save"))
	if err := <-saved; err != nil {
		t.Fatal(err)
	}
	s := fb.sessions().Settings()
	if !s.WebhookEnabled || s.WebhookAddr != "127.0.0.1:9123" || s.Theme != "dark" || s.Notifications || s.OutputDir != dir {
		t.Fatalf("saved settings %+v", s)
	}
	if got, err := keyring.Get(secrets.Service, secrets.WebhookSecret); err != nil || got != "whsec_abc" {
		t.Fatalf("webhook secret in keyring: %q, %v", got, err)
	}

	// An invalid address is refused before anything is saved.
	var f2 *settingsForm
	h.do(func() {
		f2 = h.app.newSettingsForm()
		f2.onSaved = func(err error) { saved <- err }
		f2.dialog.Show()
		f2.webhookAddr.SetText("localhost")
	})
	h.tap(h.button("Save"))
	if err := <-saved; err == nil || !strings.Contains(err.Error(), "host:port") {
		t.Fatalf("invalid address: %v", err)
	}
	if len(fb.saved) != 1 {
		t.Fatalf("saved %d times, want 1", len(fb.saved))
	}
	// The dialog stays open with the mistake shown next to what was typed.
	if !f2.problem.Visible() || !strings.Contains(f2.problem.Text, "host:port") || f2.webhookAddr.Text != "localhost" || !h.hasText("Listen on") {
		t.Fatalf("after an invalid address: problem %q (shown %v)", f2.problem.Text, f2.problem.Visible())
	}
	// Saved settings with a receiver that cannot start: saved, and the
	// dialog says why webhooks are not on.
	fb.mu.Lock()
	fb.saveErr = &workflow.WebhookError{NoSecret: true}
	fb.mu.Unlock()
	h.do(func() { f2.webhookAddr.SetText("127.0.0.1:9124") })
	h.tap(h.button("Save"))
	if err := <-saved; err == nil {
		t.Fatal("no error from a receiver that cannot start")
	}
	if !strings.Contains(f2.problem.Text, "webhook secret") || len(fb.saved) != 2 {
		t.Fatalf("problem %q after %d saves", f2.problem.Text, len(fb.saved))
	}
	var f3 *settingsForm
	h.do(func() {
		f2.dialog.Hide()
		f3 = h.app.newSettingsForm()
		f3.dialog.Show()
	})
	h.tap(f3.signOut)
	h.tap(h.button("Yes"))
	h.wait("signed-out")
	if _, err := keyring.Get(secrets.Service, secrets.APIKey); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("API key still in the keyring after sign out: %v", err)
	}
	if h.app.firstRun == nil || h.app.Session().BaseURL != "" {
		t.Fatal("sign out did not return to the first-run screen")
	}
}

func TestJobsListUpdatesFromEvents(t *testing.T) {
	now := time.Now()
	fb := signedIn()
	fb.settings.WebhookEnabled = true // Resend webhook needs one
	fb.jobs = []workflow.Job{
		{ID: "trc_2", Key: "trc_2", Kind: jobs.KindTrace, Name: "owners.csv", Status: "processing", Rows: 100, Charged: 100, CreatedAt: now.Add(-75 * time.Second)},
		{ID: "dnc_1", Key: "dnc_1", Kind: jobs.KindDNC, Name: "phones.csv", Status: "completed", Rows: 50, Matches: 5, Charged: 50, Refunded: 2, CreatedAt: now.Add(-time.Hour)},
		{Key: "intent_7", Kind: jobs.KindTrace, Name: "big.csv", Status: jobs.StatusUnknown, Rows: 10, Charged: 10, CreatedAt: now.Add(-2 * time.Hour)},
	}
	h := start(t, fb)
	v := h.app.jobs
	if len(v.shown) != 3 || v.shown[0].ID != "trc_2" {
		t.Fatalf("shown %v", v.shown)
	}
	if got := jobCell(v.shown[0], 2, now, nil); !strings.HasPrefix(got, "Processing · 1:1") {
		t.Fatalf("status cell %q, want elapsed time", got)
	}
	if got := jobCell(v.shown[2], 2, now, nil); got != "Unknown — may be charged" {
		t.Fatalf("unknown job status %q", got)
	}

	// Reconcile is offered for the unknown one only; resend webhook for
	// final ones only.
	v.selectJob("intent_7")
	if v.reconcileBtn.Disabled() || !v.webhookBtn.Disabled() {
		t.Fatal("actions of an unknown job: want reconcile on, resend webhook off")
	}
	v.selectJob("trc_2")
	if !v.reconcileBtn.Disabled() || !v.webhookBtn.Disabled() || !v.openBtn.Disabled() {
		t.Fatal("actions of a processing job: want all off")
	}

	// 30 events in a burst are shown in a few batches, not 30 updates.
	done := fb.jobs[0]
	done.Status, done.Matches, done.NoMatches, done.Refunded, done.CompletedAt = "completed", 80, 20, 20, now
	done.Breakdown = &client.Breakdown{Individuals: client.Tier{Rows: 90, Rate: 1}, LLCs: client.Tier{Rows: 10, Rate: 2}}
	var evs []workflow.Event
	for i := 0; i < 29; i++ {
		p := fb.jobs[0]
		p.Rows = 100
		evs = append(evs, workflow.Event{Kind: workflow.EventStatus, Job: p})
	}
	evs = append(evs, workflow.Event{Kind: workflow.EventCompleted, Job: done})
	fb.emit(evs...)
	batches := 0
	for {
		h.wait("events")
		batches++
		if v.shown[0].Status == "completed" {
			break
		}
	}
	if batches > 5 {
		t.Fatalf("%d UI updates for one burst of 30 events", batches)
	}
	row := v.shown[0]
	if jobCell(row, 5, now, nil) != "80" || jobCell(row, 8, now, nil) != "80" || jobCell(row, 9, now, nil) != "90 / 10" {
		t.Fatalf("completed row: matches %q net %q llc %q", jobCell(row, 5, now, nil), jobCell(row, 8, now, nil), jobCell(row, 9, now, nil))
	}
	if v.openBtn.Disabled() || v.webhookBtn.Disabled() {
		t.Fatal("a completed job should offer open result and resend webhook")
	}
	h.fyneA.mu.Lock()
	sent := append([]*fyne.Notification(nil), h.fyneA.sent...)
	h.fyneA.mu.Unlock()
	if len(sent) != 1 || !strings.Contains(sent[0].Title, "owners.csv") || !strings.Contains(sent[0].Content, "80 matches") {
		t.Fatalf("notifications %+v", sent)
	}

	// A failure event shows the message.
	failed := workflow.Job{ID: "trc_3", Key: "trc_3", Kind: jobs.KindTrace, Name: "FAILJOB.csv", Status: "failed", ErrorMessage: "upstream provider unavailable", CreatedAt: now}
	fb.emit(workflow.Event{Kind: workflow.EventFailed, Job: failed})
	h.wait("events")
	if got := jobCell(v.shown[0], 2, now, nil); got != "Failed: upstream provider unavailable" {
		t.Fatalf("failed row status %q", got)
	}

	// Filters.
	var shown []workflow.Job
	h.do(func() {
		v.status.SetSelected("Failed")
		shown = v.shown
	})
	if len(shown) != 1 || shown[0].ID != "trc_3" {
		t.Fatalf("status filter: %v", shown)
	}
	h.do(func() {
		v.status.SetSelected(allStatuses)
		v.kind.SetSelected("DNC scrubs")
		shown = v.shown
	})
	if len(shown) != 1 || shown[0].ID != "dnc_1" {
		t.Fatalf("kind filter: %v", shown)
	}
}

func TestNotificationsOff(t *testing.T) {
	fb := signedIn()
	fb.settings.Notifications = false
	fb.jobs = []workflow.Job{{ID: "trc_1", Key: "trc_1", Kind: jobs.KindTrace, Name: "a.csv", Status: "processing"}}
	h := start(t, fb)
	j := fb.jobs[0]
	j.Status = "completed"
	fb.emit(workflow.Event{Kind: workflow.EventCompleted, Job: j})
	h.wait("events")
	h.fyneA.mu.Lock()
	defer h.fyneA.mu.Unlock()
	if len(h.fyneA.sent) != 0 {
		t.Fatalf("sent %d notifications with notifications off", len(h.fyneA.sent))
	}
}

func sampleResult() *memResult {
	return &memResult{
		path:    "/results/owners result.csv",
		headers: []string{"first_name", "last_name", "phone_1", "phone_1_type", "match_status"},
		rows: [][]string{
			{"Ann", "Smith", "2125550101", "mobile", "matched"},
			{"Bob", "Jones", "", "", "no_match"},
			{"Cal", "Adams", "2125550102", "landline", "matched"},
			{"Dee", "Brown", "", "", "no_match"},
			{"ACME HOLDINGS LLC", "", "", "", "skipped"},
		},
	}
}

func TestViewerSortAndFilter(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	var v *viewer
	h.do(func() { v = h.app.showViewer(fb.openMem(t, sampleResult()), "owners") })
	h.wait("indexed") // the layout is known: the people view, or the file's columns
	h.do(func() { v.mode.SetSelected(modeColumns) })
	queried := make(chan error, 10)
	v.onQueried = func(err error) { queried <- err }
	h.win.Resize(fyne.NewSize(1180, 760))

	if v.count.Text != "5 rows" {
		t.Fatalf("count %q", v.count.Text)
	}
	// The quick filters the layout allows are on; the others are off, and
	// the viewer says why (never an empty view).
	if v.quick[jobs.QuickMatched].Disabled() || v.quick[jobs.QuickMobile].Disabled() {
		t.Fatal("matched/mobile quick filters off")
	}
	if !v.quick[jobs.QuickNotDNC].Disabled() || !v.quick[jobs.QuickCallable].Disabled() ||
		!strings.Contains(v.why.Text, "Not DNC, Callable, Callable now: the result has no DNC flags: scrub its phones first") {
		t.Fatalf("DNC quick filters without DNC flags: %q", v.why.Text)
	}

	// Tapping a header sorts by it; again reverses; a third time restores.
	h.tapHeader("last_name")
	if err := <-queried; err != nil {
		t.Fatal(err)
	}
	col := func() []string {
		var out []string
		for i := 0; i < v.view.Len(); i++ {
			out = append(out, v.view.Cell(i, 1))
		}
		return out
	}
	// Blank values go last either way.
	if got := fmt.Sprint(col()); got != "[Adams Brown Jones Smith ]" {
		t.Fatalf("ascending: %s", got)
	}
	// The row numbers are the rows' in the file: they move with their rows.
	rowNumbers := func() string {
		var out []string
		h.do(func() {
			for i := 0; i < v.view.Len(); i++ {
				c := newHeaderCell()
				v.updateHeader(widget.TableCellID{Row: i, Col: -1}, c)
				out = append(out, c.Text)
			}
		})
		return fmt.Sprint(out)
	}
	if got := rowNumbers(); got != "[3 4 2 1 5]" {
		t.Fatalf("row numbers after sorting: %s, want [3 4 2 1 5]", got)
	}
	h.tapHeader("last_name (A-Z)")
	<-queried
	if got := fmt.Sprint(col()); got != "[Smith Jones Brown Adams ]" {
		t.Fatalf("descending: %s", got)
	}
	h.tapHeader("last_name (Z-A)")
	<-queried
	if got := fmt.Sprint(col()); got != "[Smith Jones Adams Brown ]" {
		t.Fatalf("file order: %s", got)
	}

	// The filter box (debounced, off the UI thread).
	h.do(func() { v.filter.SetText("555010") })
	if err := <-queried; err != nil {
		t.Fatal(err)
	}
	if v.count.Text != "2 of 5 rows" {
		t.Fatalf("after filter: %q", v.count.Text)
	}
	h.do(func() { v.filter.SetText("") })
	<-queried
	h.do(func() { v.quick[jobs.QuickMatched].SetChecked(true) })
	<-queried
	if v.count.Text != "2 of 5 rows" || v.view.Cell(0, 4) != "matched" {
		t.Fatalf("matched only: %q", v.count.Text)
	}

	// Export writes the filtered view to the output folder.
	fb.settings.OutputDir = t.TempDir()
	h.tap(h.button("Export .xlsx"))
	h.save("")
	h.settle()
	fb.mu.Lock()
	defer fb.mu.Unlock()
	if len(fb.exported) != 1 || !strings.HasSuffix(fb.exported[0], "owners filtered.xlsx") {
		t.Fatalf("exported %v", fb.exported)
	}
}

func TestDropRoutesFiles(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	cases := []struct{ file, want string }{
		{"/in/owners.csv", "trace:/in/owners.csv"},
		{"/in/my phones.xlsx", "dnc:/in/my phones.xlsx"},
	}
	for _, c := range cases {
		h.app.onDropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(c.file)})
		if got := h.nextFlow(); got != c.want {
			t.Fatalf("drop %s opened %s, want %s", c.file, got, c.want)
		}
	}
	h.app.onDropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI("/in/photo.png")})
	if !strings.Contains(h.dialogText(), "CSV and Excel") {
		t.Fatalf("dropping a PNG: %q", h.dialogText())
	}
}

// A settled upload takes the place of its "unknown — may be charged" row,
// with the selection; one that made no job just leaves the list.
func TestSettledUploadReplacesItsRow(t *testing.T) {
	now := time.Now()
	fb := signedIn()
	fb.jobs = []workflow.Job{
		{Key: "submission-7", Kind: jobs.KindTrace, Name: "big.csv", Status: jobs.StatusUnknown, Rows: 10, CreatedAt: now.Add(-time.Minute)},
		{Key: "submission-8", Kind: jobs.KindDNC, Name: "phones.csv", Status: jobs.StatusUnknown, Rows: 5, CreatedAt: now.Add(-2 * time.Minute)},
	}
	h := start(t, fb)
	v := h.app.jobs
	v.selectJob("submission-7")
	fb.emit(workflow.Event{Kind: workflow.EventStatus, Replaces: "submission-7",
		Job: workflow.Job{ID: "trc_9", Key: "trc_9", Kind: jobs.KindTrace, Name: "big.csv", Status: "processing", Rows: 10, Charged: 10, CreatedAt: now.Add(-time.Minute)}})
	h.wait("events")
	if len(v.shown) != 2 || v.shown[0].Key != "trc_9" || v.shown[1].Key != "submission-8" {
		t.Fatalf("after settling: %+v", v.shown)
	}
	if j, ok := v.current(); !ok || j.Key != "trc_9" || v.reconcileBtn.Disabled() == false {
		t.Fatalf("selection %+v (%v); reconcile enabled: %v", j, ok, !v.reconcileBtn.Disabled())
	}
	fb.emit(workflow.Event{Kind: workflow.EventStatus, Replaces: "submission-8"})
	h.wait("events")
	if len(v.shown) != 1 || v.shown[0].Key != "trc_9" {
		t.Fatalf("after a no-job settlement: %+v", v.shown)
	}
}

// A damaged result still opens, and the viewer says what is off above the
// rows; a sound one shows no such line.
func TestViewerShowsDamage(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	var v *viewer
	h.do(func() { v = h.app.showViewer(fb.openMem(t, sampleResult()), "owners") })
	h.wait("indexed")
	if v.warning.Visible() {
		t.Fatalf("a sound file shows %q", v.warning.Text)
	}
	r := sampleResult()
	r.path = "/results/damaged.csv"
	r.warnings = []string{"line 4: a quoted value that starts on this line is never closed"}
	h.do(func() { v = h.app.showViewer(fb.openMem(t, r), "damaged") })
	h.wait("indexed")
	if v.warning == nil || !v.warning.Visible() || !strings.Contains(v.warning.Text, "line 7: a quoted value") {
		t.Fatalf("damage line: %+v", v.warning)
	}
	// The damaged line holds the rest of the file: one row more.
	if v.count.Text != "6 rows" {
		t.Fatalf("count %q", v.count.Text)
	}
}

// The selected job's whole row is marked, not only the cell tapped.
func TestJobsSelectionMarksTheRow(t *testing.T) {
	now := time.Now()
	fb := signedIn()
	fb.jobs = []workflow.Job{
		{ID: "trc_2", Key: "trc_2", Kind: jobs.KindTrace, Name: "a.csv", Status: "completed", CreatedAt: now},
		{ID: "trc_1", Key: "trc_1", Kind: jobs.KindTrace, Name: "b.csv", Status: "completed", CreatedAt: now.Add(-time.Hour)},
	}
	h := start(t, fb)
	v := h.app.jobs
	v.selectJob("trc_1")
	fill := func(row, col int) color.Color {
		c := v.createCell()
		v.updateCell(widget.TableCellID{Row: row, Col: col}, c)
		return c.(*fyne.Container).Objects[0].(*canvas.Rectangle).FillColor
	}
	sel := theme.Color(theme.ColorNameSelection)
	for col := range jobColumns {
		if fill(1, col) != sel {
			t.Fatalf("column %d of the selected row is not marked", col)
		}
		if fill(0, col) == sel {
			t.Fatalf("column %d of another row is marked", col)
		}
	}

	// A job arrives on top: the selection follows its job, and nothing is
	// marked but its row's cells (the table's own mark of the tapped cell
	// stayed on the row number).
	fb.emit(workflow.Event{Kind: workflow.EventCompleted, Job: workflow.Job{ID: "trc_3", Key: "trc_3", Kind: jobs.KindTrace, Name: "c.csv",
		Status: "completed", CreatedAt: now.Add(time.Minute)}})
	h.waitFor("the new job listed", func() (three bool) { h.do(func() { three = len(v.shown) == 3 }); return })
	h.do(func() {
		cells := map[*canvas.Rectangle]bool{}
		objs := test.LaidOutObjects(v.table)
		for _, o := range objs {
			if c, ok := o.(*fyne.Container); ok && len(c.Objects) == 2 {
				if r, ok := c.Objects[0].(*canvas.Rectangle); ok {
					cells[r] = true
				}
			}
		}
		for _, o := range objs {
			if r, ok := o.(*canvas.Rectangle); ok && !cells[r] && r.Visible() && r.FillColor == sel && r.Size().Width > 0 {
				t.Errorf("a mark outside the selected job's row at %v, %v", r.Position(), r.Size())
			}
		}
	})
}

// A key from $SKIPDESK_API_KEY is named as such in the settings, and there
// is nothing to sign out of there.
func TestSettingsNameAKeyFromTheEnvironment(t *testing.T) {
	fb := signedIn()
	fb.fromEnv = true
	h := start(t, fb)
	var f *settingsForm
	h.do(func() {
		f = h.app.newSettingsForm()
		f.dialog.Show()
	})
	if txt := h.dialogText(); !strings.Contains(txt, "SKIPDESK_API_KEY environment variable") || strings.Contains(txt, "no keyring") {
		t.Fatalf("connection line: %q", txt)
	}
	if !f.signOut.Disabled() {
		t.Fatal("sign out is offered for a key from the environment")
	}
}

// TestLateResultAfterClose: background work that ends after the window has
// closed does not touch the window (its result is dropped), while one that
// ends before is shown.
func TestLateResultAfterClose(t *testing.T) {
	h := start(t, newFake())
	release := make(chan struct{})
	shown := make(chan string, 2)
	background(h.app.shell, context.Background(), func(context.Context) (string, error) { return "before", nil },
		func(v string, _ error) { shown <- v })
	background(h.app.shell, context.Background(), func(context.Context) (string, error) { <-release; return "after", nil },
		func(v string, _ error) { shown <- v })
	if v := <-shown; v != "before" {
		t.Fatalf("first result %q", v)
	}
	// The second result comes while the window closes: once it is closed,
	// before Close has waited for the work in flight.
	releaseOnce := sync.OnceFunc(func() { close(release) })
	h.app.hook = func(p string) {
		if p == "closing" {
			releaseOnce()
		}
	}
	h.app.Close()
	h.app.waitInflight(5 * time.Second)
	select {
	case v := <-shown:
		t.Fatalf("a result that arrived after the window closed ran on it: %q", v)
	default:
	}
}

// A result opens at once with its first rows as the file writes them; the
// people view, the quick filters and the tools that read rows through the
// layout wait until the whole file is read and the layout known.
func TestViewerWaitsForTheLayout(t *testing.T) {
	fb := signedIn()
	h := start(t, fb)
	var v *viewer
	h.do(func() {
		v = h.app.showViewer(fb.openMem(t, sampleResult()), "owners")
		// The reading is under way: it reports on the UI thread, held here.
		if v.people || !v.mode.Disabled() || v.mode.Selected != modeColumns {
			t.Errorf("before the layout: people %v, mode %q (off %v)", v.people, v.mode.Selected, v.mode.Disabled())
		}
		for f, c := range v.quick {
			if !c.Disabled() {
				t.Errorf("quick filter %s on before the layout is known", f)
			}
		}
		for _, b := range v.layoutTools {
			if !b.Disabled() {
				t.Errorf("%q on before the layout is known", b.Text)
			}
		}
		if v.count.Text != "Reading the file…" || v.view.Cell(0, 0) != "Ann" {
			t.Errorf("count %q, first cell %q", v.count.Text, v.view.Cell(0, 0))
		}
	})
	h.wait("indexed")
	h.do(func() {
		if !v.people || v.mode.Disabled() || v.quick[jobs.QuickMatched].Disabled() || v.count.Text != "5 rows" {
			t.Errorf("after the layout: people %v, mode off %v, matched off %v, count %q", v.people, v.mode.Disabled(),
				v.quick[jobs.QuickMatched].Disabled(), v.count.Text)
		}
		for _, b := range v.layoutTools {
			if b.Disabled() {
				t.Errorf("%q off once the layout is known", b.Text)
			}
		}
	})
}

// Closing never waits on a window that is gone: a background wait for the
// UI thread (a row to show once its result's tab is laid out) ends when the
// window closes, and no work of the window is left running after Close.
func TestCloseDoesNotWaitOnTheGoneWindow(t *testing.T) {
	fb := signedIn()
	res := bigResult()
	fb.addResult(t, res)
	h := start(t, fb)
	r, err := fb.resultsService().OpenResult(context.Background(), res.path, nil)
	if err != nil {
		t.Fatal(err)
	}
	h.do(func() {
		v := h.app.showViewer(r, "big")
		v.table.Resize(fyne.NewSize(0, 0)) // not laid out yet: the row waits for it
		v.scrollTo(150)
	})
	h.app.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := h.app.busy.Wait(ctx); err != nil {
		t.Fatal("a goroutine of the window still waits on the UI thread after Close")
	}
}

// The jobs table's "Ind. / LLC" cell says what each kind of job has: a
// trace's tiers, its company rows, that it left them out (once that is
// known); a scrub nothing.
func TestTiersText(t *testing.T) {
	tier := func(rows int) client.Tier { return client.Tier{Rows: rows} }
	for _, c := range []struct {
		j    workflow.Job
		want string
	}{
		{workflow.Job{Kind: jobs.KindTrace, IncludeLLCs: true, Breakdown: &client.Breakdown{Individuals: tier(1200), LLCs: tier(35)}}, "1,200 / 35"},
		{workflow.Job{Kind: jobs.KindTrace, IncludeLLCs: true, EntityRows: 35}, "— / 35"},
		{workflow.Job{Kind: jobs.KindTrace, Mode: jobs.ModeNormal}, "ind. only"},
		{workflow.Job{Kind: jobs.KindTrace}, ""}, // its settings not read yet: not said
		{workflow.Job{Kind: jobs.KindDNC}, ""},
	} {
		if got := tiersText(c.j); got != c.want {
			t.Errorf("%+v: %q, want %q", c.j, got, c.want)
		}
	}
}
