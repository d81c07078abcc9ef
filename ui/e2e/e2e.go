//go:build harness

// Package e2e runs end-to-end tests inside the real SkipDesk binary.
//
// The binary runs a suite of tests when started with SKIPDESK_E2E=<suite>
// (in the sandbox: SKIPDESK_HOME should point at a temporary folder).
// Screenshots and notes go to SKIPDESK_E2E_OUT (default testout/e2e). The
// process exits 0 when every test of the suite passed and 1 otherwise,
// after printing "e2e: <suite>: ok" or "e2e: <suite>: FAIL: <error>" on
// stderr. SKIPDESK_E2E=list prints the suites.
//
// The tests live in their own tree (the module's e2e package), each one
// thing a person does, written against the Driver (what a person does and
// sees on each screen, implemented by package ui) and the Harness's
// widget-tree helpers. A suite is one start of the app: its tests run in
// the order given and share what the earlier ones made:
//
//	func init() {
//		e2e.Suite("help",
//			e2e.T("Help shows the calling rules", helpRules))
//	}
//
//	func helpRules(h *e2e.Harness) error {
//		if err := h.Menu("Help", "Calling rules"); err != nil {
//			return err
//		}
//		return h.Shot("help-01-calling-rules") // testout/e2e/help-01-calling-rules.png
//	}
//
// A suite runs on its own goroutine once the main screen is up (session
// open, first jobs and account loaded). Everything that touches widgets
// must go through h.Do (fyne.DoAndWait); Wait evaluates its condition on
// the UI thread too, so conditions may call the Driver.
//
// Harness API:
//   - h.D: the Driver; h.Window, h.App: the main window and the app.
//   - h.Do(f): run f on the UI thread and wait for it.
//   - h.Wait(what, timeout, cond): check cond (UI thread) after each frame
//     of the driver until it is true; the error names what was awaited.
//   - h.Settle(): wait until the app has no work in flight (h.Idle: its
//     goroutines, timers and batches of job events) and the driver has
//     drawn it; Shot settles first by itself.
//   - h.Press(label), h.Fill(placeholder, text), h.Find(label), h.Texts(),
//     h.Menu(menu, item), h.ShowTab(label), h.DialogShown(), h.Focused():
//     the window's widget tree, found by what it shows.
//   - h.Click, h.Drag, h.Key, h.Type: the real pointer and keyboard
//     (xdotool), as a person's.
//   - h.Shot(name) / h.ShotWindow(w, name): save the window's canvas as
//     <out>/<name>.png, and the whole X screen as <out>/<name>-screen.png
//     when ImageMagick's import is available.
//   - h.Logf: a line on stderr and in <out>/<suite>.log; h.Figuref the
//     same for a figure measured, which TestEndToEnd prints in its log.
//   - h.Out: the output folder.
package e2e

import (
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
)

// Script is one end-to-end test, or a whole suite of them.
type Script func(h *Harness) error

// Case is one test of a suite: one thing a person does, named by what it
// shows.
type Case struct {
	Name string
	Run  Script
}

// T names a test.
func T(name string, run Script) Case { return Case{Name: name, Run: run} }

var (
	mu     sync.Mutex
	suites = map[string][]Case{}
)

// Suite registers the tests of a suite, run in this order in one start of
// the app; registering a name twice panics.
func Suite(name string, tests ...Case) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := suites[name]; dup {
		panic("e2e: suite registered twice: " + name)
	}
	suites[name] = tests
}

// Lookup returns the suite registered under name as one script: its tests
// in turn, each logged; the first failure ends it, named.
func Lookup(name string) (Script, bool) {
	mu.Lock()
	defer mu.Unlock()
	tests, ok := suites[name]
	if !ok {
		return nil, false
	}
	return func(h *Harness) error {
		for _, t := range tests {
			h.Logf("test: %s", t.Name)
			if err := t.Run(h); err != nil {
				return fmt.Errorf("%s: %w", t.Name, err)
			}
		}
		return nil
	}, true
}

// Names lists the registered suites, sorted.
func Names() []string {
	mu.Lock()
	defer mu.Unlock()
	var out []string
	for n := range suites {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Harness is what a test gets.
type Harness struct {
	Name   string
	App    fyne.App
	Window fyne.Window
	D      Driver
	Out    string
	// Idle waits until the app has no work in flight (nil: nothing is
	// counted; Settle then waits for the frames alone).
	Idle func(ctx context.Context) error

	logMu    sync.Mutex
	log      *os.File
	cleanups []func()
}

// Cleanup registers f to run when the suite ends, the last registered
// first (any goroutine).
func (h *Harness) Cleanup(f func()) {
	h.logMu.Lock()
	defer h.logMu.Unlock()
	h.cleanups = append(h.cleanups, f)
}

// NewHarness prepares the output folder (SKIPDESK_E2E_OUT, default
// testout/e2e).
func NewHarness(name string, a fyne.App, w fyne.Window, d Driver) (*Harness, error) {
	out := os.Getenv("SKIPDESK_E2E_OUT")
	if out == "" {
		out = filepath.Join("testout", "e2e")
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("e2e: output folder: %w", err)
	}
	f, err := os.Create(filepath.Join(out, name+".log"))
	if err != nil {
		return nil, fmt.Errorf("e2e: log: %w", err)
	}
	return &Harness{Name: name, App: a, Window: w, D: d, Out: out, log: f}, nil
}

// Close runs the cleanups and closes the log.
func (h *Harness) Close() {
	for i := len(h.cleanups) - 1; i >= 0; i-- {
		h.cleanups[i]()
	}
	if h.log != nil {
		h.log.Close()
	}
}

// Logf writes a line to stderr and the suite's log.
func (h *Harness) Logf(format string, args ...any) {
	line := fmt.Sprintf("e2e: %s: %s\n", h.Name, fmt.Sprintf(format, args...))
	h.logMu.Lock()
	defer h.logMu.Unlock()
	os.Stderr.WriteString(line)
	if h.log != nil {
		h.log.WriteString(time.Now().Format("15:04:05.000 ") + line)
	}
}

// FigureMark starts the log lines of figures (Figuref) after the suite's
// name: TestEndToEnd prints them.
const FigureMark = "figure: "

// Figuref logs a figure the test measured (see FigureMark).
func (h *Harness) Figuref(format string, args ...any) { h.Logf(FigureMark+format, args...) }

// Do runs f on the UI thread and waits for it.
func (h *Harness) Do(f func()) { fyne.DoAndWait(f) }

// Wait checks cond on the UI thread, again after each frame the driver
// draws, until it returns true. What cond waits for may follow work the
// app does not count (the provider's processing time, X events), so it is
// looked at again rather than waited on.
func (h *Harness) Wait(what string, timeout time.Duration, cond func() bool) error {
	deadline := time.Now().Add(timeout)
	frame := time.NewTicker(frameTime)
	defer frame.Stop()
	for {
		var ok bool
		fyne.DoAndWait(func() { ok = cond() })
		if ok {
			h.Logf("%s", what)
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("e2e: waited %s for: %s", timeout, what)
		}
		<-frame.C
	}
}

// Settle waits until the app has no work in flight (Idle, a minute at the
// most) and the driver has drawn what it shows.
func (h *Harness) Settle() error {
	if h.Idle != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := h.Idle(ctx); err != nil {
			return fmt.Errorf("e2e: the app's work did not end: %w", err)
		}
	}
	drawn()
	return nil
}

// frameTime is the GL driver's frame: it polls X events (the real
// pointer's and keyboard's) and draws the windows on its own 60 Hz tick.
const frameTime = time.Second / 60

// drawnFrames is how many of the driver's frames drawn waits for.
const drawnFrames = 6

// drawn waits for the driver's next few frames, on a ticker of its
// frame's period: the GL driver draws on its own tick, and gives nothing
// outside it a signal to wait on, so the frames are counted here.
func drawn() { frames(drawnFrames) }

// frames waits for n of the driver's frames, on a ticker of its period.
func frames(n int) {
	frame := time.NewTicker(frameTime)
	defer frame.Stop()
	for range n {
		<-frame.C
	}
}

// Shot saves the main window as <out>/<name>.png (and the screen, see
// ShotWindow).
func (h *Harness) Shot(name string) error { return h.ShotWindow(h.Window, name) }

// ShotWindow saves w as <out>/<name>.png: the canvas's own capture, or,
// where the GL driver gives back an empty frame (some software GL setups,
// Xvfb among them), the window grabbed from the X server with ImageMagick's
// import (the window found by its title with xdotool). When DISPLAY is set
// and import is on the PATH, the whole screen is saved too, as
// <out>/<name>-screen.png (dialogs and other windows included).
func (h *Harness) ShotWindow(w fyne.Window, name string) error {
	if err := h.Settle(); err != nil {
		return err
	}
	path := filepath.Join(h.Out, name+".png")
	var img image.Image
	var title string
	fyne.DoAndWait(func() {
		img = w.Canvas().Capture()
		title = w.Title()
	})
	imp, impErr := exec.LookPath("import")
	x11 := os.Getenv("DISPLAY") != "" && impErr == nil
	if x11 {
		screen := filepath.Join(h.Out, name+"-screen.png")
		if out, err := exec.Command(imp, "-window", "root", screen).CombinedOutput(); err != nil {
			h.Logf("import -window root: %v: %s", err, out)
		}
	}
	switch {
	case img != nil && !blank(img):
		if err := writePNG(path, img); err != nil {
			return err
		}
	case x11:
		target := "root"
		if id, err := exec.Command("xdotool", "search", "--name", titlePattern(title)).Output(); err == nil {
			if f := strings.Fields(string(id)); len(f) > 0 {
				target = f[0]
			}
		}
		if out, err := exec.Command(imp, "-window", target, path).CombinedOutput(); err != nil {
			return fmt.Errorf("e2e: screenshot %s: import: %v: %s", path, err, out)
		}
	default:
		return fmt.Errorf("e2e: %s: the canvas gave an empty frame and no X screen grabber is available", name)
	}
	h.Logf("screenshot %s", path)
	return nil
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("e2e: screenshot %s: %w", path, err)
	}
	err = png.Encode(f, img)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("e2e: screenshot %s: %w", path, err)
	}
	return nil
}

// blank reports whether every sampled pixel has the same colour.
func blank(img image.Image) bool {
	b := img.Bounds()
	if b.Empty() {
		return true
	}
	r0, g0, b0, a0 := img.At(b.Min.X, b.Min.Y).RGBA()
	for y := b.Min.Y; y < b.Max.Y; y += 5 {
		for x := b.Min.X; x < b.Max.X; x += 5 {
			r, g, bl, a := img.At(x, y).RGBA()
			if r != r0 || g != g0 || bl != b0 || a != a0 {
				return false
			}
		}
	}
	return true
}

func regexpQuote(s string) string {
	const special = `\.+*?()|[]{}^$`
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(special, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
