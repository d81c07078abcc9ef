package webhook

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client"
)

func TestSignRFC4231Case2(t *testing.T) {
	got := Sign([]byte("what do ya want for nothing?"), "Jefe")
	const want = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
	if got != want {
		t.Fatalf("Sign = %s, want %s", got, want)
	}
}

func TestVerify(t *testing.T) {
	body := []byte("what do ya want for nothing?")
	const good = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
	tests := []struct {
		name    string
		sig     string
		secrets []string
		want    error
	}{
		{"lower-case hex", good, []string{"Jefe"}, nil},
		{"upper-case hex", strings.ToUpper(good), []string{"Jefe"}, nil},
		{"spaces and sha256= prefix", "  sha256=" + good + " ", []string{"Jefe"}, nil},
		{"second secret (rotation)", good, []string{"old", "Jefe"}, nil},
		{"wrong secret", good, []string{"jefe"}, ErrBadSignature},
		{"no secret", good, nil, ErrNoSecret},
		{"only empty secrets", good, []string{""}, ErrNoSecret},
		{"empty signature", "", []string{"Jefe"}, ErrBadSignature},
		{"not hex", strings.Repeat("zz", 32), []string{"Jefe"}, ErrBadSignature},
		{"truncated", good[:62], []string{"Jefe"}, ErrBadSignature},
		{"one bit off", good[:63] + "2", []string{"Jefe"}, ErrBadSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Verify(body, tt.sig, tt.secrets...)
			if !errors.Is(err, tt.want) || (tt.want == nil && err != nil) {
				t.Fatalf("Verify = %v, want %v", err, tt.want)
			}
		})
	}
	// The body is checked as raw bytes: re-serialised JSON does not verify.
	if err := Verify([]byte("what do ya want for nothing? "), good, "Jefe"); err == nil {
		t.Fatal("a changed body verified")
	}
}

func FuzzVerify(f *testing.F) {
	f.Add([]byte("what do ya want for nothing?"), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", "Jefe")
	f.Add([]byte(`{"event":"trace.completed","data":{}}`), "zz", "")
	f.Fuzz(func(t *testing.T, body []byte, sig, secret string) {
		err := Verify(body, sig, secret)
		if err == nil && (secret == "" || !strings.EqualFold(strings.TrimPrefix(strings.TrimSpace(sig), "sha256="), Sign(body, secret))) {
			t.Fatalf("Verify accepted a signature that is not the HMAC: %q", sig)
		}
		if secret != "" {
			if err := Verify(body, Sign(body, secret), secret); err != nil {
				t.Fatalf("Verify rejected its own signature: %v", err)
			}
		}
	})
}

func TestParse(t *testing.T) {
	body := []byte(`{"event":"trace.completed","data":{"id":"trc_1","status":"completed","new_member":[1],"breakdown":{"individuals":{"rate":1},"llcs":{"rate":2}}}}`)
	ev, err := Parse(body, "")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Name != TraceCompleted || ev.Trace == nil || ev.Trace.ID != "trc_1" || ev.Trace.Breakdown.LLCs.Rate != 2 {
		t.Fatalf("event = %+v", ev)
	}
	if string(ev.Trace.Extra["new_member"]) != "[1]" {
		t.Fatalf("unknown member lost: %v", ev.Trace.Extra)
	}
	ev, err = Parse([]byte(`{"event":"dnc.failed","data":{"id":"dnc_1","status":"failed","error_message":"boom"}}`), "")
	if err != nil || ev.DNC == nil || *ev.DNC.ErrorMessage != "boom" || ev.ID() != "dnc_1" || ev.Status() != client.StatusFailed {
		t.Fatalf("dnc event = %+v, %v", ev, err)
	}
	ev, err = Parse([]byte(`{"data":{"id":"x"}}`), "job.archived")
	if err != nil || ev.Name != "job.archived" || ev.Trace != nil || ev.DNC != nil || ev.ID() != "" {
		t.Fatalf("unknown event = %+v, %v", ev, err)
	}
	for _, bad := range []string{``, `nope`, `{"event":"trace.failed","data":{"id":5}}`, `[1]`} {
		if _, err := Parse([]byte(bad), ""); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}

type recorder struct {
	mu     sync.Mutex
	events []Event
	ch     chan Event
}

func newRecorder() *recorder { return &recorder{ch: make(chan Event, 16)} }
func (r *recorder) on(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
	r.ch <- e
}

func (r *recorder) next(t *testing.T) Event {
	t.Helper()
	select {
	case e := <-r.ch:
		return e
	case <-time.After(5 * time.Second):
		t.Fatal("no event delivered")
		return Event{}
	}
}

func TestHandler(t *testing.T) {
	const secret = "whsec_test"
	rec := newRecorder()
	var errs []error
	var emu sync.Mutex
	h := Handler([]string{"whsec_old", secret}, rec.on, &Options{MaxBodyBytes: 4096, OnError: func(err error) {
		emu.Lock()
		errs = append(errs, err)
		emu.Unlock()
	}})
	trace := map[string]any{"id": "trc_1", "status": "completed", "mode": "normal"}

	serve := func(req *http.Request) *httptest.ResponseRecorder {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	req, _ := NewTestRequest("http://x/hook", TraceCompleted, trace, secret, "whd_1", 1)
	w := serve(req)
	if w.Code != 200 || strings.TrimSpace(w.Body.String()) != `{"received":true}` {
		t.Fatalf("valid delivery: %d %q", w.Code, w.Body)
	}
	ev := rec.next(t)
	if ev.Name != TraceCompleted || ev.Delivery != "whd_1" || ev.Attempt != 1 || ev.Trace.ID != "trc_1" || len(ev.Raw) == 0 {
		t.Fatalf("event = %+v", ev)
	}

	// Same delivery again, and a retry of the same job+status under a new
	// delivery id: both acknowledged, neither handed over.
	req, _ = NewTestRequest("http://x/hook", TraceCompleted, trace, secret, "whd_1", 1)
	if w := serve(req); w.Code != 200 {
		t.Fatalf("duplicate: %d", w.Code)
	}
	req, _ = NewTestRequest("http://x/hook", TraceCompleted, trace, secret, "whd_2", 2)
	if w := serve(req); w.Code != 200 {
		t.Fatalf("retry: %d", w.Code)
	}
	// A new status of the same job is new.
	req, _ = NewTestRequest("http://x/hook", DNCCompleted, map[string]any{"id": "dnc_1", "status": "completed"}, secret, "whd_3", 1)
	if w := serve(req); w.Code != 200 {
		t.Fatalf("dnc: %d", w.Code)
	}
	if ev := rec.next(t); ev.Delivery != "whd_3" || ev.DNC == nil {
		t.Fatalf("expected whd_3 next (duplicates dropped), got %+v", ev)
	}

	// Failures.
	bad, _ := NewTestRequest("http://x/hook", TraceCompleted, trace, "wrong", "whd_4", 1)
	if w := serve(bad); w.Code != http.StatusUnauthorized {
		t.Errorf("bad signature: %d", w.Code)
	}
	get := httptest.NewRequest(http.MethodGet, "/hook", nil)
	if w := serve(get); w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "POST" {
		t.Errorf("GET: %d", w.Code)
	}
	junk := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader("not json"))
	junk.Header.Set(HeaderSignature, Sign([]byte("not json"), secret))
	if w := serve(junk); w.Code != http.StatusBadRequest {
		t.Errorf("junk: %d", w.Code)
	}
	big := strings.Repeat("x", 5000)
	huge := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader(big))
	huge.Header.Set(HeaderSignature, Sign([]byte(big), secret))
	if w := serve(huge); w.Code != http.StatusRequestEntityTooLarge {
		t.Errorf("huge: %d", w.Code)
	}
	select {
	case ev := <-rec.ch:
		t.Fatalf("unexpected event %+v", ev)
	case <-time.After(50 * time.Millisecond):
	}
	emu.Lock()
	defer emu.Unlock()
	if len(errs) != 4 {
		t.Errorf("OnError called %d times, want 4: %v", len(errs), errs)
	}
}

type failingDedupe struct{}

func (failingDedupe) Seen(string) (bool, error) { return false, errors.New("disk gone") }

func TestHandlerDeliversWhenDedupeFails(t *testing.T) {
	rec := newRecorder()
	h := Handler([]string{"s"}, rec.on, &Options{Dedupe: failingDedupe{}})
	for i := range 2 {
		req, _ := NewTestRequest("http://x/", TraceFailed, map[string]any{"id": "trc_9", "status": "failed"}, "s", "whd_9", i+1)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			t.Fatalf("status %d", w.Code)
		}
		rec.next(t)
	}
}

func TestMemoryDedupeForgetsOldest(t *testing.T) {
	d := NewMemoryDedupe(2)
	for _, k := range []string{"a", "b", "c"} {
		if s, _ := d.Seen(k); s {
			t.Fatalf("%s seen on first use", k)
		}
	}
	if s, _ := d.Seen("c"); !s {
		t.Fatal("c forgotten")
	}
	if s, _ := d.Seen("a"); s {
		t.Fatal("a kept beyond capacity")
	}
}

func TestHandlerSecretsFunc(t *testing.T) {
	var mu sync.Mutex
	current := []string{"one"}
	rec := newRecorder()
	h := Handler(nil, rec.on, &Options{Secrets: func() []string { mu.Lock(); defer mu.Unlock(); return current }})
	send := func(secret, delivery string) int {
		req, _ := NewTestRequest("http://x/", DNCCompleted, map[string]any{"id": delivery, "status": "completed"}, secret, delivery, 1)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w.Code
	}
	if send("one", "d1") != 200 {
		t.Fatal("first secret refused")
	}
	mu.Lock()
	current = []string{"two"}
	mu.Unlock()
	if send("one", "d2") != http.StatusUnauthorized || send("two", "d3") != 200 {
		t.Fatal("rotation not applied")
	}
	rec.next(t)
	rec.next(t)
}

// The reply does not wait for the callback: a slow handler of the event
// never makes the provider time out and send again.
func TestHandlerRepliesBeforeTheCallbackEnds(t *testing.T) {
	release := make(chan struct{})
	started := make(chan string, 2)
	h := Handler([]string{"s"}, func(e Event) {
		started <- e.Delivery
		<-release
	}, nil)
	for _, id := range []string{"whd_a", "whd_b"} {
		req, _ := NewTestRequest("http://x/", TraceCompleted, map[string]any{"id": "trc_" + id, "status": "completed"}, "s", id, 1)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req) // returns while the first callback is still blocked
		if w.Code != 200 {
			t.Fatalf("%s: status %d", id, w.Code)
		}
	}
	if got := <-started; got != "whd_a" && got != "whd_b" {
		t.Fatalf("callback got %q", got)
	}
	select {
	case got := <-started:
		t.Fatalf("a second callback (%s) ran while the first was busy: callbacks run one at a time", got)
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("the second event was never handed over")
	}
}

// A delivery's text reaches people clean: the event name and the job's
// name and error message lose their escape sequences and control
// characters as they are parsed.
func TestParseCleansServerText(t *testing.T) {
	body := `{"event":"trace.failed\u001b[2J","data":{"id":"trc_1","status":"failed","name":"a\u001b]0;x\u0007b.csv","error_message":"bad\r\u202erow"}}`
	ev, err := Parse([]byte(body), "")
	if err != nil {
		t.Fatal(err)
	}
	if ev.Name != "trace.failed" || ev.Trace == nil || ev.Trace.Name != "ab.csv" || *ev.Trace.ErrorMessage != "bad row" {
		t.Fatalf("%q %+v", ev.Name, ev.Trace)
	}
}
