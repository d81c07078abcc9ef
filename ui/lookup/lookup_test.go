package lookup

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/internal/uitest"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// act runs f as the UI thread would: background callbacks (through do)
// and the test's actions take turns.
var act = new(uitest.Thread).Do

// testEnv runs the screen's callbacks in turn with the test's actions.
var testEnv = Env{Do: act}

type fake struct {
	mu     sync.Mutex
	reqs   []client.SingleTraceRequest
	res    *client.SingleTraceResult
	err    error
	onList map[string]bool // the internal do-not-call list
}

func (f *fake) OnInternalList(ctx context.Context, numbers []string) (map[string]bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.onList, nil
}

func (f *fake) Pricing(ctx context.Context) (*client.Pricing, error) {
	return &client.Pricing{Rates: client.Rates{Normal: 1, Enhanced: 2, LLC: 3, DNC: 1}}, nil
}

func (f *fake) Single(ctx context.Context, r client.SingleTraceRequest) (*client.SingleTraceResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, r)
	return f.res, f.err
}

func idle(t *testing.T, s *Screen) {
	t.Helper()
	ok := make(chan struct{})
	go func() { _ = s.bg.Wait(context.Background()); close(ok) }()
	select {
	case <-ok:
	case <-time.After(60 * time.Second):
		t.Fatal("timed out waiting for the background work")
	}
}

func open(t *testing.T, f *fake) (*Screen, fyne.Window) {
	t.Helper()
	test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	var s *Screen
	act(func() {
		s = New(w, f, testEnv)
		w.SetContent(s.Content())
		w.Resize(fyne.NewSize(1000, 760))
	})
	idle(t, s)
	return s, w
}

func typeIn(e *keys.Entry, text string) {
	act(func() {
		e.SetText("")
		test.Type(e, text)
	})
}

func fillRequired(s *Screen) {
	typeIn(s.first, "John")
	typeIn(s.last, "Smith")
	typeIn(s.street, "1 Main St")
	typeIn(s.city, "Austin")
	typeIn(s.state, "tx")
	typeIn(s.zip, "78701")
}

func TestLookupNeedsTheRequiredFields(t *testing.T) {
	s, _ := open(t, &fake{})
	if !s.lookupBtn.Disabled() || !strings.Contains(s.missing.Text, "first name, street, city, state, ZIP code") {
		t.Fatalf("empty form: disabled %v, %q", s.lookupBtn.Disabled(), s.missing.Text)
	}
	typeIn(s.first, "John")
	typeIn(s.street, "1 Main St")
	if !strings.Contains(s.missing.Text, "Fill in: city, state, ZIP code.") {
		t.Fatalf("missing = %q", s.missing.Text)
	}
	fillRequired(s)
	if s.lookupBtn.Disabled() || s.missing.Text != "" {
		t.Fatalf("complete form: disabled %v, %q", s.lookupBtn.Disabled(), s.missing.Text)
	}
	if r := s.request(); r.State != "TX" {
		t.Fatalf("state sent as %q, want TX", r.State)
	}
}

func TestLookupChecksTheState(t *testing.T) {
	s, _ := open(t, &fake{})
	fillRequired(s)
	cases := []struct{ in, want string }{
		{"Texas", "2-letter code"},
		{"T1", "2-letter code"},
		{"ZZ", `"ZZ" is not a US state`},
		{"ca", ""},
	}
	for _, c := range cases {
		typeIn(s.state, c.in)
		shown := s.stateErr.Visible()
		if c.want == "" {
			if shown || s.lookupBtn.Disabled() {
				t.Errorf("%q: error %q shown %v, disabled %v", c.in, s.stateErr.Text, shown, s.lookupBtn.Disabled())
			}
			continue
		}
		if !shown || !strings.Contains(s.stateErr.Text, c.want) || !s.lookupBtn.Disabled() {
			t.Errorf("%q: error %q (shown %v), disabled %v; want %q", c.in, s.stateErr.Text, shown, s.lookupBtn.Disabled(), c.want)
		}
	}
}

func TestLookupMailingFieldsGoTogether(t *testing.T) {
	s, _ := open(t, &fake{})
	fillRequired(s)
	typeIn(s.mStreet, "PO Box 9")
	if !s.mailErr.Visible() || !strings.Contains(s.mailErr.Text, "street given, city, state, ZIP code missing") || !s.lookupBtn.Disabled() {
		t.Fatalf("mailing started: %q, disabled %v", s.mailErr.Text, s.lookupBtn.Disabled())
	}
	typeIn(s.mCity, "Austin")
	typeIn(s.mState, "Tex")
	typeIn(s.mZip, "78702")
	if !s.mStateErr.Visible() || s.mailErr.Visible() {
		t.Fatalf("bad mailing state: state error %q, group error %q", s.mStateErr.Text, s.mailErr.Text)
	}
	typeIn(s.mState, "TX")
	if s.mailErr.Visible() || s.mStateErr.Visible() || s.lookupBtn.Disabled() {
		t.Fatalf("complete mailing address refused: %q %q", s.mailErr.Text, s.mStateErr.Text)
	}
	// Emptying it again is fine too: the group is optional.
	for _, e := range []*keys.Entry{s.mStreet, s.mCity, s.mState, s.mZip} {
		act(func() { e.SetText("") })
	}
	if s.mailErr.Visible() || s.lookupBtn.Disabled() {
		t.Fatalf("empty mailing address refused: %q", s.mailErr.Text)
	}
}

func TestLookupDetectsEntitiesAndShowsTheirPrice(t *testing.T) {
	s, _ := open(t, &fake{})
	fillRequired(s)
	if s.entityChk.Checked || !strings.Contains(s.price.Text, "Costs 1 credit (normal rate)") {
		t.Fatalf("person: entity %v, price %q", s.entityChk.Checked, s.price.Text)
	}
	typeIn(s.first, "Acme Holdings L.L.C.")
	typeIn(s.last, "")
	if !s.entityChk.Checked || !strings.Contains(s.price.Text, "Costs 3 credits (llc rate") || !strings.Contains(s.entityChk.Text, "detected") {
		t.Fatalf("company: entity %v (%q), price %q", s.entityChk.Checked, s.entityChk.Text, s.price.Text)
	}
	if !s.request().IsEntity {
		t.Fatal("is_entity not sent for a detected company")
	}
	typeIn(s.first, "Cobb")
	if s.entityChk.Checked {
		t.Fatal(`"Cobb" taken for a company`)
	}
	// Forced by the user: kept whatever the name.
	act(func() { s.entityChk.SetChecked(true) })
	typeIn(s.first, "Jane")
	if !s.entityChk.Checked || !strings.Contains(s.price.Text, "3 credits") {
		t.Fatalf("forced entity lost: %v %q", s.entityChk.Checked, s.price.Text)
	}
}

func TestLookupShowsTheResultWithCopyButtons(t *testing.T) {
	f := &fake{res: &client.SingleTraceResult{Matched: true, FirstName: "JOHN", LastName: "SMITH",
		Phones: []client.Phone{{Number: "2125550147", Type: "mobile"}, {Number: "2125550148", Type: "landline"}},
		Emails: []string{"john.smith@example.com"}, Credits: 1}}
	s, w := open(t, f)
	fillRequired(s)
	act(func() { test.Tap(s.lookupBtn) })
	idle(t, s)
	if len(f.reqs) != 1 || f.reqs[0].FirstName != "John" || f.reqs[0].State != "TX" || f.reqs[0].IsEntity {
		t.Fatalf("requests %+v", f.reqs)
	}
	text := labels(s.result)
	for _, want := range []string{"Match found: JOHN SMITH", "(212) 555-0147   mobile", "landline", "john.smith@example.com", "Charged 1 credit, refunded 0 credits: net 1 credit."} {
		if !strings.Contains(text, want) {
			t.Errorf("result lacks %q:\n%s", want, text)
		}
	}
	var copies []*widget.Button
	for _, o := range test.LaidOutObjects(s.result) {
		if b, ok := o.(*widget.Button); ok {
			copies = append(copies, b)
		}
	}
	if len(copies) != 3 {
		t.Fatalf("%d copy buttons, want 3 (2 phones, 1 e-mail)", len(copies))
	}
	act(func() { test.Tap(copies[0]) })
	if got := fyne.CurrentApp().Clipboard().Content(); got != "2125550147" {
		t.Fatalf("clipboard = %q", got)
	}
	act(func() { test.Tap(copies[2]) })
	if got := fyne.CurrentApp().Clipboard().Content(); got != "john.smith@example.com" {
		t.Fatalf("clipboard = %q", got)
	}
	_ = w
}

// A phone on the company's own do-not-call list is marked as such.
func TestLookupMarksTheInternalList(t *testing.T) {
	f := &fake{res: &client.SingleTraceResult{Matched: true, FirstName: "JOHN", LastName: "SMITH",
		Phones: []client.Phone{{Number: "2125550147", Type: "mobile"}, {Number: "2125550148", Type: "landline"}}, Credits: 1},
		onList: map[string]bool{"2125550148": true}}
	s, _ := open(t, f)
	fillRequired(s)
	act(func() { test.Tap(s.lookupBtn) })
	idle(t, s)
	text := labels(s.result)
	if strings.Count(text, "on your do-not-call list") != 1 ||
		strings.Index(text, "on your do-not-call list") < strings.Index(text, "(212) 555-0148") {
		t.Errorf("the number on the list is not marked, or the other is:\n%s", text)
	}
}

func TestLookupNoMatchShowsTheRefund(t *testing.T) {
	f := &fake{res: &client.SingleTraceResult{Matched: false, Credits: 3, CreditsRefunded: 3, IsEntity: true}}
	s, _ := open(t, f)
	fillRequired(s)
	typeIn(s.first, "Blue Sky Trust")
	act(func() { test.Tap(s.lookupBtn) })
	idle(t, s)
	text := labels(s.result)
	for _, want := range []string{"No match for Blue Sky Trust Smith", "company", "Charged 3 credits, refunded 3 credits: net 0 credits."} {
		if !strings.Contains(text, want) {
			t.Errorf("result lacks %q:\n%s", want, text)
		}
	}
}

// A failed lookup says in the user's terms what happened and what to do:
// no status codes, no endpoint paths.
func TestLookupErrorIsShown(t *testing.T) {
	api402 := &client.APIError{StatusCode: 402, Message: "insufficient credits"}
	cases := []struct {
		name string
		err  error
		want []string
	}{
		{"402", fmt.Errorf("POST /traces/single: %w", api402), []string{"Not enough credits", "insufficient credits", "Top up"}},
		{"402 with its price", &workflow.CreditsError{Needed: 2, Balance: 1, Err: api402}, []string{"Not enough credits", "needs 2 credits", "1 short"}},
		{"402 past due", &workflow.CreditsError{Needed: 1, Balance: 500,
			Err: &client.APIError{StatusCode: 402, Message: "the account is past due: update the card on file"}},
			[]string{"Payment refused", "past due"}},
		{"unreachable", &url.Error{Op: "Post", URL: "https://api.example.com/v1/traces/single",
			Err: &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}}, []string{"Can't reach", "internet connection"}},
		{"outcome unknown", fmt.Errorf("POST /traces/single: %w", client.ErrOutcomeUnknown), []string{"may have been charged", "jobs list"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fake{err: c.err}
			s, _ := open(t, f)
			fillRequired(s)
			act(func() { test.Tap(s.lookupBtn) })
			idle(t, s)
			text := labels(s.result)
			for _, w := range append(c.want, "Lookup failed") {
				if !strings.Contains(text, w) {
					t.Errorf("result %q lacks %q", text, w)
				}
			}
			if strings.Contains(text, "/traces/single") || strings.Contains(text, "402") {
				t.Errorf("result shows the request's insides: %q", text)
			}
			if s.lookupBtn.Disabled() {
				t.Error("the button stays disabled after a failure")
			}
		})
	}
}

func labels(o fyne.CanvasObject) string {
	var b strings.Builder
	for _, x := range test.LaidOutObjects(o) {
		if l, ok := x.(*widget.Label); ok {
			b.WriteString(l.Text + "\n")
		}
	}
	return b.String()
}

// TestEnterLooksUpAndEscapeCloses: Enter in a field of an incomplete form
// does nothing; of a complete one, runs the lookup; Escape closes the
// dialog.
func TestEnterLooksUpAndEscapeCloses(t *testing.T) {
	f := &fake{res: &client.SingleTraceResult{Matched: true, FirstName: "JOHN", LastName: "SMITH", Credits: 1}}
	test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	w.Resize(fyne.NewSize(1000, 760))
	var s *Screen
	act(func() { s = Show(w, f, testEnv) })
	idle(t, s)
	enter := func(e *keys.Entry) {
		act(func() {
			w.Canvas().Focus(e)
			test.Type(e, "")
			e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		})
		idle(t, s)
	}
	typeIn(s.first, "John")
	enter(s.first)
	if len(f.reqs) != 0 {
		t.Fatal("Enter in an incomplete form sent a lookup")
	}
	fillRequired(s)
	enter(s.zip)
	if len(f.reqs) != 1 || !strings.Contains(labels(s.result), "Match found: JOHN SMITH") {
		t.Fatalf("Enter in a complete form: %d lookups", len(f.reqs))
	}
	act(func() { s.zip.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	if w.Canvas().Overlays().Top() != nil || s.ctx.Err() == nil {
		t.Fatal("Escape left the lookup open")
	}
}

// TestResultClearedWhenTheFormChanges: a result answers the details it was
// looked up with; changing them clears it. A ZIP code of 4 digits is
// named as such, and blocks the lookup.
func TestResultClearedWhenTheFormChanges(t *testing.T) {
	f := &fake{res: &client.SingleTraceResult{Matched: true, FirstName: "JOHN", LastName: "SMITH", Credits: 1}}
	s, _ := open(t, f)
	fillRequired(s)
	act(func() { test.Tap(s.lookupBtn) })
	idle(t, s)
	if !strings.Contains(labels(s.result), "Match found") {
		t.Fatal("no result")
	}
	typeIn(s.zip, "7870")
	if strings.Contains(labels(s.result), "Match found") {
		t.Fatal("the result of other details is still shown")
	}
	if !s.stateErr.Visible() || !strings.Contains(s.stateErr.Text, `"7870" has 4 digits: it is likely 07870`) || !s.lookupBtn.Disabled() {
		t.Fatalf("4-digit ZIP: %q (shown %v), lookup disabled %v", s.stateErr.Text, s.stateErr.Visible(), s.lookupBtn.Disabled())
	}
	typeIn(s.zip, "78701")
	if s.stateErr.Visible() || s.lookupBtn.Disabled() {
		t.Fatalf("a good ZIP code: %q, lookup disabled %v", s.stateErr.Text, s.lookupBtn.Disabled())
	}
}

// The fields of the owner, the property and the mailing address start at
// one edge: their labels share one width.
func TestLookupFieldsLineUp(t *testing.T) {
	s, _ := open(t, &fake{})
	var xs []float32
	act(func() {
		d := fyne.CurrentApp().Driver()
		for _, e := range []*keys.Entry{s.first, s.last, s.street, s.city, s.mStreet, s.mCity} {
			xs = append(xs, d.AbsolutePositionForObject(e).X)
		}
		for _, pair := range [][2]*keys.Entry{{s.state, s.mState}, {s.zip, s.mZip}} {
			if a, b := d.AbsolutePositionForObject(pair[0]).X, d.AbsolutePositionForObject(pair[1]).X; a != b {
				t.Errorf("the property's and the mailing address's state or ZIP start at x=%v and x=%v", a, b)
			}
		}
	})
	for i, x := range xs {
		if x != xs[0] {
			t.Fatalf("field %d starts at x=%v, the first name at x=%v (all: %v)", i, x, xs[0], xs)
		}
	}
}
