//go:build harness

// Package e2e runs end-to-end scripts inside the real SkipDesk binary.
//
// The binary runs a script when started with SKIPDESK_E2E=<name> (in the
// sandbox: SKIPDESK_HOME should point at a temporary folder). Screenshots and
// notes go to SKIPDESK_E2E_OUT (default testout/e2e). The process exits 0
// when the script returns nil and 1 otherwise, after printing
// "e2e: <name>: ok" or "e2e: <name>: FAIL: <error>" on stderr.
//
// Scripts register themselves from the package that owns the screens they
// drive, in an init function:
//
//	func init() { e2e.Register("trace-wizard", runWizard) }
//
//	func runWizard(h *e2e.Harness) error {
//		path, err := h.Shell.SampleList()
//		if err != nil {
//			return err
//		}
//		h.Do(func() { h.Shell.NewTrace(path) })        // UI thread, waits
//		if err := h.Wait("wizard open", 10*time.Second, func() bool { return current != nil }); err != nil {
//			return err
//		}
//		return h.Shot("01-picked")                     // testout/e2e/01-picked.png
//	}
//
// The script runs on its own goroutine once the main screen is up (session
// open, first jobs and account loaded). Everything that touches widgets must
// go through h.Do (fyne.DoAndWait); Wait evaluates its condition on the UI
// thread too, so conditions may read widget state.
//
// Harness API:
//   - h.Window, h.App: the main window and the app.
//   - h.Shell: the app's controller (see Shell), for the actions a user would
//     take from the main window.
//   - h.Do(f): run f on the UI thread and wait for it.
//   - h.Wait(what, timeout, cond): check cond (UI thread) after each few
//     frames the driver draws until it is true; the error names what was
//     awaited.
//   - h.Settle(): wait until the app has no work in flight (h.Idle: its
//     goroutines, timers and batches of job events) and the driver has
//     drawn it; Shot settles first by itself.
//   - h.Shot(name) / h.ShotWindow(w, name): save the window's canvas as
//     <out>/<name>.png, and the whole X screen as <out>/<name>-screen.png
//     when ImageMagick's import is available.
//   - h.Logf: a line on stderr and in <out>/<script>.log; h.Figuref the
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

	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// Script is one end-to-end scenario.
type Script func(h *Harness) error

var (
	mu      sync.Mutex
	scripts = map[string]Script{}
)

// Register adds a script under name; registering a name twice panics.
func Register(name string, s Script) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := scripts[name]; dup {
		panic("e2e: script registered twice: " + name)
	}
	scripts[name] = s
}

// Lookup returns the script registered under name.
func Lookup(name string) (Script, bool) {
	mu.Lock()
	defer mu.Unlock()
	s, ok := scripts[name]
	return s, ok
}

// Names lists the registered scripts, sorted.
func Names() []string {
	mu.Lock()
	defer mu.Unlock()
	var out []string
	for n := range scripts {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Shell is what the main window offers scripts. Methods marked (UI) must be
// called inside h.Do.
type Shell interface {
	// SampleList writes the bundled sample owner list and returns its path
	// (any goroutine).
	SampleList() (string, error)
	// NewTrace opens the trace wizard on path ("" for the file picker). (UI)
	NewTrace(path string)
	// NewDNC opens the DNC scrub on path. (UI)
	NewDNC(path string)
	// SingleLookup opens the single lookup. (UI)
	SingleLookup()
	// JobsShown are the rows of the jobs list, newest first. (UI)
	JobsShown() []workflow.Job
	// ShowJobs selects the Jobs tab and, when id is not "", the job. (UI)
	ShowJobs(id string)
	// OpenJobResult downloads (if needed) and opens the job's result in a
	// viewer tab; done is called on the UI thread. (UI)
	OpenJobResult(id string, done func(error))
	// ViewerRows is the row count of the selected viewer tab, -1 when the
	// selected tab is not a viewer or its file is still being read. (UI)
	ViewerRows() int
}

// Harness is what a script gets.
type Harness struct {
	Name   string
	App    fyne.App
	Window fyne.Window
	Shell  Shell
	Out    string
	// Idle waits until the app has no work in flight (nil: nothing is
	// counted; Settle then waits for the frames alone).
	Idle func(ctx context.Context) error

	logMu sync.Mutex
	log   *os.File
}

// NewHarness prepares the output folder (SKIPDESK_E2E_OUT, default
// testout/e2e).
func NewHarness(name string, a fyne.App, w fyne.Window, shell Shell) (*Harness, error) {
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
	return &Harness{Name: name, App: a, Window: w, Shell: shell, Out: out, log: f}, nil
}

// Close closes the log.
func (h *Harness) Close() {
	if h.log != nil {
		h.log.Close()
	}
}

// Logf writes a line to stderr and the script's log.
func (h *Harness) Logf(format string, args ...any) {
	line := fmt.Sprintf("e2e: %s: %s\n", h.Name, fmt.Sprintf(format, args...))
	h.logMu.Lock()
	defer h.logMu.Unlock()
	os.Stderr.WriteString(line)
	if h.log != nil {
		h.log.WriteString(time.Now().Format("15:04:05.000 ") + line)
	}
}

// FigureMark starts the log lines of figures (Figuref) after the script's
// name: TestEndToEnd prints them.
const FigureMark = "figure: "

// Figuref logs a figure the script measured (see FigureMark).
func (h *Harness) Figuref(format string, args ...any) { h.Logf(FigureMark+format, args...) }

// Do runs f on the UI thread and waits for it.
func (h *Harness) Do(f func()) { fyne.DoAndWait(f) }

// Wait checks cond on the UI thread, again after each few frames the
// driver draws, until it returns true. What cond waits for may follow work
// the app does not count (the provider's processing time, X events), so it
// is looked at again rather than waited on.
func (h *Harness) Wait(what string, timeout time.Duration, cond func() bool) error {
	deadline := time.Now().Add(timeout)
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
		nextFrames()
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
	nextFrames()
	return nil
}

// frameTicks is how long nextFrames waits: six of the GL driver's 60 Hz
// ticks.
const frameTicks = 100 * time.Millisecond

// nextFrames lets the GL driver take its next few ticks: it polls X events
// (the real pointer's and keyboard's) and draws the windows on its own 60 Hz
// tick, which nothing outside it can wait on.
func nextFrames() { time.Sleep(frameTicks) }

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
