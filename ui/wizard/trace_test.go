package wizard

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
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/busy"
	"github.com/skipdesk/skipdesk/jobs/fanout"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/submit"
	"github.com/skipdesk/skipdesk/jobs/testlists"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/internal/uitest"
)

// testEnv runs the screens with short delays; the test driver runs
// fyne.Do inline on the calling goroutine, so Do serialises the callbacks
// as the real driver does on its main thread.
var testEnv = Env{Do: act, RecountDelay: time.Millisecond, PreviewDelay: time.Millisecond, RetryDelay: 20 * time.Millisecond, After: retries.after}

// retries is the tests' clock of the rates' retries while the server is
// away: a retry armed runs when the test says its time has come (fire).
var retries retryClock

type retryClock struct {
	mu    sync.Mutex
	armed map[int]func()
	next  int
}

func (c *retryClock) after(_ time.Duration, f func()) (stop func() bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.armed == nil {
		c.armed = map[int]func(){}
	}
	id := c.next
	c.next++
	c.armed[id] = f
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		_, ok := c.armed[id]
		delete(c.armed, id)
		return ok
	}
}

// fire runs the retries armed, as their time coming would; it reports how
// many ran.
func (c *retryClock) fire() int {
	c.mu.Lock()
	due := c.armed
	c.armed = nil
	c.mu.Unlock()
	for _, f := range due {
		f()
	}
	return len(due)
}

var traceHeaders = []string{"First Name", "Last Name", "Property Address", "Property City", "Property State", "Property Zip", "Mailing Address", "Mailing City", "Mailing State", "Mailing Zip"}

var traceRows = [][]string{
	{"JOHN", "SMITH", "1 MAIN ST", "AUSTIN", "TX", "78701", "PO BOX 1", "AUSTIN", "TX", "78701"},
	{"ACME HOLDINGS", "LLC", "2 OAK AVE", "DALLAS", "TX", "75201", "", "", "", ""},
	{"MARY", "JONES", "3 ELM RD", "HOUSTON", "TX", "77002", "", "", "", ""},
	{"BLUE SKY", "TRUST", "4 PINE LN", "EL PASO", "TX", "79901", "", "", "", ""},
}

// fullMapping maps every trace key to its header.
func fullMapping() mapping.Mapping {
	m := mapping.Mapping{}
	for i, k := range mapping.Keys(jobs.KindTrace) {
		m[k] = traceHeaders[i]
	}
	return m
}

const wait = 60 * time.Second

func recv[T any](t *testing.T, ch chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(wait):
		t.Fatalf("timed out waiting for %s", what)
	}
	var zero T
	return zero
}

type harness struct {
	tr   *Trace
	w    fyne.Window
	f    *fakeBackend
	done chan string
}

// openTrace opens the wizard on the fake file, waits for the inspection,
// the rates, the presets and the first recount.
func openTrace(t *testing.T, f *fakeBackend) *harness {
	t.Helper()
	w := newWindow(t, fyne.NewSize(1280, 900))
	h := &harness{f: f, w: w, done: make(chan string, 1)}
	h.tr = traceOn(t, w, f, fakeFile(t, f, "owners.csv"), h.done)
	return h
}

// settle waits until the wizard's background work (inspection, rates,
// presets, the recount a change starts, a submission) is done.
func (h *harness) settle(t *testing.T) {
	t.Helper()
	idle(t, h.tr.bg)
}

// act runs f as the UI thread would: background callbacks (through the
// env's Do) and the test's own actions take turns on it.
var act = new(uitest.Thread).Do

// idle waits until the wizard's background work has ended.
func idle(t *testing.T, b *busy.Tracker) {
	t.Helper()
	ok := make(chan struct{})
	go func() { _ = b.Wait(context.Background()); close(ok) }()
	recv(t, ok, "the background work")
}

func (h *harness) set(t *testing.T, m mapping.Mapping) {
	t.Helper()
	act(func() { h.tr.board.setMapping(m, nil) })
	h.settle(t)
}

func TestTraceOpensWithAutoMappingAndConfidence(t *testing.T) {
	h := openTrace(t, newFake(traceHeaders, traceRows))
	b := h.tr.board
	if got := b.mapping(); len(got) != 10 || got[mapping.PropertyZip] != "Property Zip" {
		t.Fatalf("auto mapping = %v", got)
	}
	// "First Name" names the field exactly: certain, not "94% sure".
	if s := b.slotByK[mapping.FirstName].conf.Text; s != "auto · certain" {
		t.Fatalf("confidence shown = %q", s)
	}
	if s := b.slotByK[mapping.FirstName].samples.Text; !strings.Contains(s, "JOHN") {
		t.Fatalf("samples = %q", s)
	}
	if !strings.Contains(h.tr.fileLine.Text, "UTF-8") || !strings.Contains(h.tr.fileLine.Text, "fields separated by commas") || !strings.Contains(h.tr.fileLine.Text, "4 rows") {
		t.Fatalf("file line = %q", h.tr.fileLine.Text)
	}
	if h.tr.submitBtn.Disabled() {
		t.Fatalf("submit disabled with a complete mapping; status %q", h.tr.status.Text)
	}
	if !strings.Contains(h.tr.llcCheck.Text, "2 company rows") {
		t.Fatalf("llc check = %q", h.tr.llcCheck.Text)
	}
}

// The list is read once before its first price: the reading that
// inspects it counts the plan the wizard opens with, a preset saved for
// its headers too. A change of the mapping counts again.
func TestTraceReadsTheListOnceBeforeItsPrice(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	h := openTrace(t, f)
	f.mu.Lock()
	reads, inspects, counts := f.reads, f.inspects, f.counts
	f.mu.Unlock()
	if reads != 1 || inspects != 0 || counts != 0 {
		t.Fatalf("opening read the list %d times, inspected it %d times and counted it %d times; want one reading", reads, inspects, counts)
	}
	if h.tr.costTotal.Text != "Total: 2 credits" || !strings.Contains(h.tr.llcCheck.Text, "2 company rows") {
		t.Fatalf("price %q, companies %q", h.tr.costTotal.Text, h.tr.llcCheck.Text)
	}

	f.presets["swapped"] = mapping.Mapping{"first_name": "Last Name", "last_name": "First Name",
		"property_street": "Property Address", "property_city": "Property City", "property_state": "Property State", "property_zip": "Property Zip"}
	f.match = "swapped"
	h = openTrace(t, f)
	f.mu.Lock()
	reads, counts = f.reads, f.counts
	f.mu.Unlock()
	if reads != 2 || counts != 0 || h.tr.board.m["first_name"] != "Last Name" {
		t.Fatalf("with a preset: %d readings, %d counts, mapping %v; want the preset's mapping counted in the reading", reads, counts, h.tr.board.m)
	}
	if !h.tr.counts.Fits(h.tr.plan()) || h.tr.costTotal.Text != "Total: 2 credits" {
		t.Fatalf("with a preset the counts do not fit the plan; price %q", h.tr.costTotal.Text)
	}
	m := fullMapping()
	m[mapping.LastName] = "Mailing City"
	h.set(t, m)
	f.mu.Lock()
	counts = f.counts
	f.mu.Unlock()
	if counts != 1 || !h.tr.counts.Fits(h.tr.plan()) {
		t.Fatalf("after a change of the mapping: %d counts; want it counted again", counts)
	}
}

// The file's step names one figure for the rows repeated: the one the
// review's "Drop duplicate rows" leaves out (the mapped columns the
// provider bills), counted in the reading; nothing is said of them while
// they cannot be counted.
func TestTraceFileStepShowsTheRowsRepeatedAsCounted(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	f.rows = append(f.rows, f.rows[0])
	h := openTrace(t, f)
	if h.tr.ins.DuplicateRows != 0 || strings.Contains(h.tr.warnings.Text, "same values") {
		t.Fatalf("a second figure for the rows repeated: %d, %q", h.tr.ins.DuplicateRows, h.tr.warnings.Text)
	}
	if !strings.Contains(h.tr.warnings.Text, "1 row repeats an earlier row in every column mapped") ||
		!strings.Contains(h.tr.dupCheck.Text, "(1 found)") {
		t.Fatalf("file step %q, review %q", h.tr.warnings.Text, h.tr.dupCheck.Text)
	}
	m := fullMapping()
	delete(m, mapping.PropertyStreet)
	delete(m, mapping.MailingStreet)
	h.set(t, m)
	if h.tr.board.result.OK() {
		t.Fatal("the mapping without an address is accepted")
	}
	if w := h.tr.warnings.Text; strings.Contains(w, "repeats") || !strings.Contains(w, "counted once the columns are mapped") {
		t.Fatalf("file step with a mapping that cannot be counted: %q", w)
	}
}

// While a count waits for the library's index, the price says so and how
// far the index is; once the round is over it says "counting" again, and
// the price comes with the count.
func TestTracePriceSaysItWaitsForTheLibrarysIndex(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	env := testEnv
	env.Indexing = &fanout.List[workflow.IndexProgress]{}
	w := newWindow(t, fyne.NewSize(1280, 900))
	tr := newTrace(w, f, env, nil)
	showOn(t, w, &tr.session, tr.open, fakeFile(t, f, "owners.csv"))
	gate := make(chan struct{})
	f.mu.Lock()
	f.countGate = gate
	f.mu.Unlock()
	m := fullMapping()
	m[mapping.LastName] = "Mailing City"
	act(func() { tr.board.setMapping(m, nil); tr.tabs.SelectIndex(3) }) // counted again: held at the gate
	var warn, summary string
	act(func() {
		env.Indexing.Send(workflow.IndexProgress{Files: 20, FilesDone: 2, Bytes: 1000, BytesDone: 400})
		warn, summary = tr.costWarn.Text, tr.summary.Text
	})
	saveShot(t, w, "trace-4-waits-for-the-library")
	if warn != "Checking the library for what was done before: indexing 3 of 20 results (40%)…" || summary != "Cost: checking the library…" {
		t.Fatalf("while the index is brought up to date: %q, %q", warn, summary)
	}
	act(func() {
		env.Indexing.Send(workflow.IndexProgress{Files: 20, FilesDone: 20, Done: true})
		warn = tr.costWarn.Text
	})
	if warn != "Counting the rows…" {
		t.Fatalf("once the index is current: %q", warn)
	}
	close(gate)
	idle(t, tr.bg)
	if !strings.HasPrefix(tr.costTotal.Text, "Total: ") || !tr.counts.Fits(tr.plan()) {
		t.Fatalf("price %q after the count", tr.costTotal.Text)
	}
}

func TestTraceDragChipOntoSlotChangesMappingAndMessages(t *testing.T) {
	h := openTrace(t, newFake(traceHeaders, traceRows))
	m := fullMapping()
	delete(m, mapping.LastName)
	h.set(t, m)
	name := h.tr.board.groups[mapping.GroupName].problem
	if !strings.Contains(name.Text, "choose the column of Owner last name") || !h.tr.submitBtn.Disabled() {
		t.Fatalf("before the drop: problem %q, submit disabled %v", name.Text, h.tr.submitBtn.Disabled())
	}
	act(func() { h.tr.tabs.SelectIndex(1) })
	b := h.tr.board
	act(func() { dragTo(h.w.Canvas(), b.pool[1], b.slotByK[mapping.LastName].card) })
	h.settle(t)
	if got := b.m[mapping.LastName]; got != "Last Name" {
		t.Fatalf("last_name = %q after the drop", got)
	}
	if name.Visible() {
		t.Fatalf("name problem still shown: %q", name.Text)
	}
	if h.tr.submitBtn.Disabled() {
		t.Fatalf("submit still disabled: %q", h.tr.status.Text)
	}
}

func TestTraceDragSlotChipOffUnmaps(t *testing.T) {
	h := openTrace(t, newFake(traceHeaders, traceRows))
	act(func() { h.tr.tabs.SelectIndex(1) })
	b := h.tr.board
	s := b.slotByK[mapping.PropertyCity]
	// Drag the slot's chip onto the header pool, away from every slot.
	act(func() { dragTo(h.w.Canvas(), s.chip, b.pool[0]) })
	h.settle(t)
	if _, ok := b.m[mapping.PropertyCity]; ok {
		t.Fatalf("property_city still mapped: %v", b.m)
	}
	if p := b.groups[mapping.GroupProperty].problem.Text; !strings.Contains(p, "all four parts or none") || !strings.Contains(p, "Property city is not") {
		t.Fatalf("property group problem = %q", p)
	}
	if !h.tr.submitBtn.Disabled() {
		t.Fatal("submit enabled with an incomplete group")
	}
	// Drag a slot chip onto another slot: the column moves.
	act(func() { b.reveal(s) })
	act(func() { dragTo(h.w.Canvas(), b.slotByK[mapping.PropertyState].chip, s.card) })
	h.settle(t)
	if b.m[mapping.PropertyCity] != "Property State" || b.m[mapping.PropertyState] != "" {
		t.Fatalf("after moving: %v", b.m)
	}
}

func TestTraceSelectDoesWhatADropDoes(t *testing.T) {
	h := openTrace(t, newFake(traceHeaders, traceRows))
	m := fullMapping()
	delete(m, mapping.FirstName)
	h.set(t, m)
	b := h.tr.board
	name := b.groups[mapping.GroupName].problem
	if !strings.Contains(name.Text, "choose the column of Owner first name") {
		t.Fatalf("problem = %q", name.Text)
	}
	act(func() { b.slotByK[mapping.FirstName].sel.SetSelected("First Name") })
	h.settle(t)
	if b.m[mapping.FirstName] != "First Name" || name.Visible() {
		t.Fatalf("after select: mapping %v, problem %q", b.m, name.Text)
	}
	act(func() { b.slotByK[mapping.FirstName].sel.SetSelected(notMapped) })
	h.settle(t)
	if _, ok := b.m[mapping.FirstName]; ok || !strings.Contains(name.Text, "Owner first name") {
		t.Fatalf("after clearing: mapping %v, problem %q", b.m, name.Text)
	}
	// Selecting a header another slot has moves it (one header, one field).
	act(func() { b.slotByK[mapping.FirstName].sel.SetSelected("Last Name") })
	h.settle(t)
	if b.m[mapping.FirstName] != "Last Name" || b.m[mapping.LastName] != "" || b.slotByK[mapping.LastName].sel.Selected != "" {
		t.Fatalf("after moving with the select: %v", b.m)
	}
}

func TestTraceShowsEachValidationCaseNextToItsField(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(m mapping.Mapping)
		label func(b *board) *widget.Label
		want  []string
	}{
		{"missing names", func(m mapping.Mapping) { delete(m, mapping.FirstName); delete(m, mapping.LastName) },
			func(b *board) *widget.Label { return b.groups[mapping.GroupName].problem },
			[]string{"Normal mode searches by the owner's name", "choose the columns of Owner first name and Owner last name", "Enhanced mode"}},
		{"no full address group", func(m mapping.Mapping) {
			for _, k := range append(mapping.GroupKeys(mapping.GroupProperty), mapping.GroupKeys(mapping.GroupMailing)...) {
				delete(m, k)
			}
		}, func(b *board) *widget.Label { return b.address },
			[]string{"Choose the columns of one whole address"}},
		{"unknown key", func(m mapping.Mapping) { m["frist_name"] = "First Name" },
			func(b *board) *widget.Label { return b.general },
			[]string{`"frist_name" is not a field of the service`, `did you mean Owner first name`}},
		{"incomplete group", func(m mapping.Mapping) { delete(m, mapping.MailingZip); delete(m, mapping.MailingState) },
			func(b *board) *widget.Label { return b.groups[mapping.GroupMailing].problem },
			[]string{"The mailing address needs all four parts or none", "Mailing state and Mailing ZIP code are not"}},
		{"column absent", func(m mapping.Mapping) { m[mapping.PropertyCity] = "Town" },
			func(b *board) *widget.Label { return b.slotByK[mapping.PropertyCity].problem },
			[]string{`Column "Town", chosen for Property city, is not in this file`, `"Property City"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(traceHeaders, traceRows)
			m := fullMapping()
			c.edit(m)
			f.presets["saved"], f.match = m, "saved" // arrives as a matching preset
			h := openTrace(t, f)
			l := c.label(h.tr.board)
			got := l.Text
			if !l.Visible() {
				t.Errorf("the problem %q is not shown", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("shown %q; want it to contain %q", got, w)
				}
			}
			if !h.tr.submitBtn.Disabled() {
				t.Error("submit enabled while the mapping is invalid")
			}
			if !strings.Contains(h.tr.status.Text, "to fix") {
				t.Errorf("status = %q", h.tr.status.Text)
			}
		})
	}
}

func TestTraceEstimateFollowsModeAndLLCs(t *testing.T) {
	h := openTrace(t, newFake(traceHeaders, traceRows))
	tr := h.tr
	// 4 rows, 2 companies; rates normal 1, enhanced 3, llc 2; balance 1000.
	steps := []struct {
		do    func()
		total string
	}{
		{func() {}, "Total: 2 credits"},                                        // 2 individuals × 1
		{func() { tr.llcCheck.SetChecked(true) }, "Total: 6 credits"},          // + 2 companies × 2
		{func() { tr.modeRadio.SetSelected("Enhanced") }, "Total: 12 credits"}, // 4 × 3
		{func() { tr.llcCheck.SetChecked(false) }, "Total: 6 credits"},         // 2 × 3
		{func() { tr.modeRadio.SetSelected("Normal") }, "Total: 2 credits"},
	}
	for i, s := range steps {
		act(func() { s.do() })
		h.settle(t)
		if tr.costTotal.Text != s.total {
			t.Fatalf("step %d: %q, want %q", i, tr.costTotal.Text, s.total)
		}
		if !strings.Contains(tr.summary.Text, strings.TrimSuffix(strings.TrimPrefix(s.total, "Total: "), " credits")) {
			t.Fatalf("step %d: footer %q", i, tr.summary.Text)
		}
	}
	if !strings.Contains(tr.costAfter.Text, "1,000") || !strings.Contains(tr.costAfter.Text, "998") {
		t.Fatalf("balance line = %q", tr.costAfter.Text)
	}
	// A mapping change recounts; the tiers come back with the new count.
	m := fullMapping()
	m[mapping.LastName] = "Mailing City"
	h.set(t, m)
	h.set(t, fullMapping())
	if n := len(tr.costGrid.Objects); n != 3 || !strings.Contains(tr.costLines[0].Text, "Individuals (normal rate): 2 rows × 1 = 2 credits") {
		t.Fatalf("after a recount the cost shows %d lines: %v", n, tr.costLines)
	}
}

func TestTraceShortfallDisablesSubmit(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	f.account.Credits = 1
	h := openTrace(t, f)
	if !strings.Contains(h.tr.costWarn.Text, "needs 1 more") {
		t.Fatalf("warning = %q", h.tr.costWarn.Text)
	}
	// Submit leads to the review, which says why it cannot pay.
	act(func() { test.Tap(h.tr.submitBtn) })
	if !h.tr.onReview() || !h.tr.submitBtn.Disabled() {
		t.Fatal("submit enabled though the account cannot pay")
	}
}

func TestTraceEnhancedModeAcceptsNoNames(t *testing.T) {
	h := openTrace(t, newFake(traceHeaders, traceRows))
	m := fullMapping()
	delete(m, mapping.FirstName)
	delete(m, mapping.LastName)
	h.set(t, m)
	if !h.tr.submitBtn.Disabled() {
		t.Fatal("normal mode without names: submit enabled")
	}
	act(func() { h.tr.modeRadio.SetSelected("Enhanced") })
	h.settle(t)
	if h.tr.submitBtn.Disabled() {
		t.Fatalf("enhanced mode without names: submit disabled (%q)", h.tr.status.Text)
	}
	if !strings.Contains(h.tr.llcCheck.Text, "0 company rows") {
		t.Fatalf("no names mapped, yet %q", h.tr.llcCheck.Text)
	}
}

func TestTraceSubmitSendsChoicesAndCloses(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	h := openTrace(t, f)
	act(func() { h.tr.llcCheck.SetChecked(true) })
	act(func() { h.tr.dupCheck.SetChecked(true) })
	act(func() { tapSubmit(h.tr.submitBtn, &h.tr.payBtn) })
	if id := recv(t, h.done, "onDone"); id != "trc_new" {
		t.Fatalf("onDone(%q)", id)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.submits) != 1 {
		t.Fatalf("%d submissions", len(f.submits))
	}
	s := f.submits[0]
	p := s.plan
	if p.Mode != jobs.ModeNormal || !p.IncludeLLCs || !p.DropDuplicates || s.opts.Again || filepath.Base(p.Path) != "owners.csv" ||
		p.Mapping["mailing_zip"] != "Mailing Zip" || s.opts.Quote == nil || s.opts.Quote.Credits != 6 {
		t.Fatalf("submitted %+v", s)
	}
}

func TestTraceDuplicateAsksThenResubmitsWithAgain(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	f.submitErr = func(again bool) error {
		if again {
			return nil
		}
		return fmt.Errorf("workflow: %w", &submit.DuplicateError{Earlier: &ledger.Submission{FileName: "owners.csv", JobID: "trc_old"}})
	}
	h := openTrace(t, f)
	act(func() { tapSubmit(h.tr.submitBtn, &h.tr.payBtn) })
	h.settle(t)
	// The confirm dialog is the top overlay: press its confirm button.
	top := h.w.Canvas().Overlays().Top()
	if l := findLabel(top, "job trc_old"); l == nil {
		t.Fatal("the confirmation does not name the earlier job")
	}
	yes := findButton(top, "Submit again and pay again")
	if yes == nil {
		t.Fatal("no confirmation dialog")
	}
	// Cancel is the default: highlighted and focused; paying again is not.
	cancel := findButton(top, "Cancel")
	if cancel == nil || cancel.Importance != widget.HighImportance || focusedButton(h.w.Canvas()) != cancel || yes.Importance == widget.HighImportance {
		t.Fatal("Cancel is not the default of the pay-again question")
	}
	act(func() { test.Tap(yes) })
	if id := recv(t, h.done, "onDone"); id != "trc_new" {
		t.Fatalf("onDone(%q)", id)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.submits) != 2 || f.submits[0].opts.Again || !f.submits[1].opts.Again {
		t.Fatalf("submissions %+v", f.submits)
	}
}

// A submission the server refuses with 402, or that cannot reach the
// server, says so in a dialog; the wizard stays open with Submit enabled.
func TestTraceSubmitRefusedShowsWhatToDo(t *testing.T) {
	api402 := &client.APIError{StatusCode: 402, Message: "Insufficient credits"}
	cases := []struct {
		name string
		err  error
		want []string
	}{
		{"402", &workflow.CreditsError{Needed: 1200, Balance: 300, Err: api402},
			[]string{"Not enough credits", "needs 1,200 credits", "900 short", "Top up"}},
		{"unreachable", fmt.Errorf("POST /traces: %w", &url.Error{Op: "Post", URL: "https://api.example.com/v1/traces",
			Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}}),
			[]string{"Can't reach the server", "internet connection"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(traceHeaders, traceRows)
			f.submitErr = func(bool) error { return c.err }
			h := openTrace(t, f)
			act(func() { tapSubmit(h.tr.submitBtn, &h.tr.payBtn) })
			h.settle(t)
			top := h.w.Canvas().Overlays().Top()
			for _, w := range c.want {
				if findLabel(top, w) == nil && !strings.Contains(uitest.Text(top), w) {
					t.Errorf("the dialog %q lacks %q", uitest.Text(top), w)
				}
			}
			if h.tr.submitBtn.Disabled() || h.tr.ctx.Err() != nil {
				t.Fatal("after a refused submission the wizard should stay open with Submit enabled")
			}
		})
	}
}

func TestTraceUnreadableFileShowsTheError(t *testing.T) {
	w := newWindow(t, fyne.Size{})
	broken := filepath.Join(t.TempDir(), "broken.csv")
	os.WriteFile(broken, []byte("A,B\n1,2\n3,\"4\n5,6\n"), 0o600)
	tr := traceOn(t, w, newFake(traceHeaders, traceRows), broken, nil)
	if l := findLabel(tr.root, "line 3"); l == nil && findLabel(tr.root, "quote") == nil {
		t.Fatalf("no error naming the line")
	}
}

// longFile is a 200-column file whose headers are long, the trace's ten
// among them.
func longFile() ([]string, [][]string) {
	var headers []string
	for i := 0; i < 190; i++ {
		headers = append(headers, fmt.Sprintf("County Assessor Export Column %03d (Do Not Edit)", i))
	}
	for _, h := range traceHeaders {
		headers = append(headers, "Owner Record "+h+" As Of The Last Tax Roll Update")
	}
	rows := make([][]string, 25)
	for r := range rows {
		row := make([]string, len(headers))
		for c := range row {
			row[c] = fmt.Sprintf("A RATHER LONG VALUE IN ROW %d AND COLUMN %d", r, c)
		}
		rows[r] = row
	}
	return headers, rows
}

// The wizard fits a 1024×700 window on every tab, whatever the file: a
// dialog that asks for more than the window makes the window grow past a
// small screen.
func TestTraceFitsASmallWindow(t *testing.T) {
	headers, rows := longFile()
	f := newFake(headers, rows)
	h := openTrace(t, f)
	h.w.Resize(fyne.NewSize(1024, 700))
	m := mapping.Mapping{}
	for i, k := range mapping.Keys(jobs.KindTrace) {
		m[k] = headers[190+i]
	}
	m[mapping.PropertyCity] = "A Column That Is Not In This File At All, With A Long Name"
	h.set(t, m)
	act(func() {
		h.tr.presetNote.SetText(`Saved as preset "a preset with a long name": files with these columns will use it automatically.`)
	})
	for i := 0; i < 3; i++ {
		var got fyne.Size
		act(func() {
			h.tr.tabs.SelectIndex(i)
			got = h.tr.root.MinSize()
		})
		if got.Width > 900 || got.Height > 600 {
			t.Errorf("tab %d asks for %v, more than a 1024×700 window's dialog has", i, got)
		}
	}
}

// Saved presets are offered; "Save as preset" is one click; a preset whose
// columns match the file's is applied when the file opens, and says so.
func TestTracePresets(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	f.presets["county A"] = mapping.Mapping{"first_name": "Last Name", "last_name": "First Name",
		"property_street": "Property Address", "property_city": "Property City", "property_state": "Property State", "property_zip": "Property Zip"}
	h := openTrace(t, f)
	tr := h.tr
	if !slices.Contains(tr.presetSel.Options, "county A") {
		t.Fatalf("presets offered: %v", tr.presetSel.Options)
	}
	// Applied from the list: the board shows it, with its name.
	act(func() { tr.presetSel.SetSelected("county A") })
	h.settle(t)
	if tr.board.m["first_name"] != "Last Name" || tr.board.m["mailing_zip"] != "" {
		t.Fatalf("mapping after choosing the preset: %v", tr.board.m)
	}
	if c := tr.board.slotByK["first_name"].conf.Text; !strings.Contains(c, "county A") {
		t.Fatalf("slot says %q, want the preset's name", c)
	}
	// One click saves the mapping shown, under the name in the box.
	act(func() { tr.tabs.SelectIndex(1); tr.presetName.SetText("my county") })
	act(func() { test.Tap(findButton(tr.root, "Save as preset")) })
	h.settle(t)
	f.mu.Lock()
	saved := f.presets["my county"]
	f.mu.Unlock()
	if saved["first_name"] != "Last Name" || !slices.Contains(tr.presetSel.Options, "my county") || !strings.Contains(tr.presetNote.Text, "my county") {
		t.Fatalf("saved %v; offered %v; note %q", saved, tr.presetSel.Options, tr.presetNote.Text)
	}

	// The next file with these columns opens with it.
	f.match = "my county"
	h2 := openTrace(t, f)
	if h2.tr.board.m["first_name"] != "Last Name" || !strings.Contains(h2.tr.presetNote.Text, `"my county" applied`) {
		t.Fatalf("matching preset not applied: %v, note %q", h2.tr.board.m, h2.tr.presetNote.Text)
	}
}

// The upload shows its progress with a Cancel button; a cancelled upload
// leaves the wizard open and says what may have happened.
func TestTraceUploadProgressAndCancel(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	f.uploading = make(chan struct{}, 1)
	h := openTrace(t, f)
	act(func() { tapSubmit(h.tr.submitBtn, &h.tr.payBtn) })
	recv(t, f.uploading, "the upload")
	var cancel *widget.Button
	var label string
	act(func() {
		top := h.w.Canvas().Overlays().Top()
		cancel = findButton(top, "Cancel")
		label = uitest.Text(top)
	})
	if cancel == nil || !strings.Contains(label, "Uploading: 50 bytes of 100 bytes") {
		t.Fatalf("progress dialog: %q", label)
	}
	if !h.tr.submitBtn.Disabled() {
		t.Fatal("Submit enabled during the upload")
	}
	act(func() { test.Tap(cancel) })
	h.settle(t)
	if h.tr.ctx.Err() != nil || !strings.Contains(h.tr.status.Text, "Upload cancelled") || h.tr.submitBtn.Disabled() {
		t.Fatalf("after cancel: closed %v, status %q, submit disabled %v", h.tr.ctx.Err() != nil, h.tr.status.Text, h.tr.submitBtn.Disabled())
	}
}

// The endless bar shown while the file is read stops once the wizard is up:
// out of sight it would still animate, redrawing the window every frame.
func TestTraceLoadingBarStops(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	f := newFake(traceHeaders, traceRows)
	tr := newTrace(w, f, testEnv, nil)
	w.SetContent(tr.root)
	path := fakeFile(t, f, "owners.csv")
	var bar *widget.ProgressBarInfinite
	act(func() {
		tr.open(path)
		bar = tr.loadingBar
	})
	idle(t, tr.bg)
	if bar == nil || bar.Running() {
		t.Fatalf("loading bar %v still running after the file was read", bar)
	}
}

// A workbook of owners on two sheets: the trace reads the first and names
// the other; choosing it reads the list again from it (its own columns
// mapped), and the trace sends that sheet.
func TestTraceChoosesTheSheetOfAWorkbook(t *testing.T) {
	f := newFake(traceHeaders, traceRows)
	w := newWindow(t, fyne.NewSize(1280, 900))
	first := append([][]any{}, []any{"Owner", "Street"}, []any{"JOHN SMITH", "1 MAIN ST"})
	var second [][]any
	for _, r := range append([][]string{traceHeaders}, traceRows...) {
		row := make([]any, len(r))
		for i, v := range r {
			row[i] = v
		}
		second = append(second, row)
	}
	path := testlists.WriteWorkbook(t, "owners.xlsx", testlists.Sheet{Name: "Notes", Rows: first}, testlists.Sheet{Name: "Owners", Rows: second})
	done := make(chan string, 1)
	tr := traceOn(t, w, f, path, done)
	if tr.ins.Sheet != "Notes" || tr.sheetSel == nil || strings.Join(tr.sheetSel.Options, ",") != "Notes,Owners" {
		t.Fatalf("sheet %q, choice %v", tr.ins.Sheet, tr.sheetSel)
	}
	act(func() { tr.sheetSel.SetSelected("Owners") })
	idle(t, tr.bg)
	if tr.ins.Sheet != "Owners" || tr.ins.Rows != len(traceRows) || tr.plan().Input.Sheet != "Owners" {
		t.Fatalf("after choosing Owners: sheet %q, %d rows, plan's sheet %q", tr.ins.Sheet, tr.ins.Rows, tr.plan().Input.Sheet)
	}
	saveShot(t, w, "trace-sheets")
	act(func() { tapSubmit(tr.submitBtn, &tr.payBtn) })
	recv(t, done, "onDone")
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.submits) != 1 || f.submits[0].plan.Input.Sheet != "Owners" {
		t.Fatalf("submitted %+v", f.submits)
	}
}
