package wizard

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/zalando/go-keyring"

	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// newWindow is an empty window of the test driver, in a new test app,
// sized size (the zero size leaves the driver's own).
func newWindow(t testing.TB, size fyne.Size) fyne.Window {
	test.NewTempApp(t)
	w := test.NewTempWindow(t, nil)
	if !size.IsZero() {
		w.Resize(size)
	}
	return w
}

// startSandbox starts the provider's sandbox with cfg, and the keyring's
// in-memory stand-in; the sandbox stops when the test ends.
func startSandbox(t *testing.T, cfg sandbox.Config) *sandbox.Server {
	t.Helper()
	keyring.MockInit()
	return clienttest.StartSandbox(t, cfg)
}

// openOn opens the application layer as cfg says, on srv with the demo
// key, and resumes its session. The caller closes it.
func openOn(t *testing.T, srv *sandbox.Server, cfg workflow.Config) *workflow.Service {
	t.Helper()
	cfg.BaseURL, cfg.APIKey = srv.URL(), sandbox.DemoKey
	svc, err := workflow.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Sessions().Resume(t.Context()); err != nil {
		svc.Close()
		t.Fatal(err)
	}
	return svc
}

// sendsTo is an onDone that hands the job's id to done (nil: none).
func sendsTo(done chan<- string) func(string) {
	if done == nil {
		return nil
	}
	return func(id string) { done <- id }
}

// traceOn opens the trace wizard in w over be on path and waits until its
// background work is done; done receives the submitted job's id.
func traceOn(t *testing.T, w fyne.Window, be TraceBackend, path string, done chan<- string) *Trace {
	t.Helper()
	tr := newTrace(w, be, testEnv, sendsTo(done))
	showOn(t, w, &tr.session, tr.open, path)
	return tr
}

// dncOn opens the DNC scrub in w over be on path and waits until its
// background work is done; done receives the submitted job's id.
func dncOn(t *testing.T, w fyne.Window, be DNCBackend, path string, done chan<- string) *DNC {
	t.Helper()
	d := newDNC(w, be, testEnv, sendsTo(done))
	showOn(t, w, &d.session, d.open, path)
	return d
}

// showOn shows a screen's session in w, opens path with open and waits
// until the screen's background work is done.
func showOn(t *testing.T, w fyne.Window, s *session, open func(path string), path string) {
	t.Helper()
	w.SetContent(s.root)
	act(func() { open(path) })
	idle(t, s.bg)
}
