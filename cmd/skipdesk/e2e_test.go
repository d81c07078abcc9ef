package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestEndToEnd builds the real binary, starts it under Xvfb in the sandbox
// once for each suite of end-to-end tests (package e2e at the top of the
// module, run by the harness of package ui/e2e): each must exit 0 and leave
// its screenshots. Screenshots go to $SKIPDESK_E2E_OUT or testout/e2e at
// the top of the module.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("end-to-end test skipped: Xvfb is not installed (apt-get install xvfb)")
	}
	bin := filepath.Join(t.TempDir(), "skipdesk")
	build := exec.Command("go", "build", "-tags", "migrated_fynedo,harness", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the app: %v\n%s", err, out)
	}
	display, stop, err := startXvfb(xvfb)
	if err != nil {
		t.Skipf("end-to-end test skipped: no X server could be started: %v", err)
	}
	defer stop()

	out := os.Getenv("SKIPDESK_E2E_OUT")
	if out == "" {
		out, _ = filepath.Abs(filepath.Join("..", "..", "testout", "e2e"))
	}
	// Results written by other services, for the tests that import them.
	fixtures, err := filepath.Abs(filepath.Join("..", "..", "jobs", "layout", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(t.TempDir(), "sandbox.json")
	if err := os.WriteFile(cfg, []byte(`{"processing": {"min_seconds": 2, "rows_per_second": 2000}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := func(suite string) []string {
		return append(os.Environ(), "DISPLAY="+display, "LANG=en_US.UTF-8",
			"SKIPDESK_HOME="+t.TempDir(), "HOME="+t.TempDir(), "SKIPDESK_E2E="+suite, "SKIPDESK_E2E_OUT="+out, "SKIPDESK_E2E_FIXTURES="+fixtures,
			"SKIPDESK_SANDBOX_CONFIG="+cfg, "SKIPDESK_API_KEY=", "SKIPDESK_BASE_URL=")
	}

	list := exec.Command(bin)
	list.Env = env("list")
	names, err := list.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("listing the suites: %v\n%s", err, stderr)
	}
	suites := strings.Fields(string(names))
	if len(suites) == 0 {
		t.Fatal("the app registers no end-to-end suite")
	}
	for _, name := range suites {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin)
			// On the time limit the Go runtime prints every goroutine's
			// stack before it exits, so a hang says where it hangs.
			cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGQUIT) }
			cmd.WaitDelay = 15 * time.Second
			cmd.Env = env(name)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			start := time.Now()
			err := cmd.Run()
			end := time.Now()
			t.Logf("%s: %s", name, end.Sub(start).Round(time.Millisecond))
			if quit, ok := quitAt(stderr.String()); ok {
				// Measured, not bounded: the time from the suite's end
				// (the window asked to close) to the process's end.
				t.Logf("%s: closing took %s", name, end.Sub(quit).Round(time.Millisecond))
			}
			// Fyne's event loop can fail to end (ui.ending): the program
			// ended without it, and the run says so.
			for _, l := range marked(stderr.String(), "SkipDesk: the window's event loop ") {
				t.Logf("%s: the window's event loop %s", name, l)
			}
			if err != nil {
				t.Fatalf("suite %s: %v\n%s", name, err, tail(stderr.String(), limitFor(ctx, stderr.String())))
			}
			if !strings.Contains(stderr.String(), "e2e: "+name+": ok") {
				t.Fatalf("suite %s did not report ok:\n%s", name, tail(stderr.String(), 4000))
			}
			for _, test := range marked(stderr.String(), ": test: ") {
				t.Logf("ok: %s", test)
			}
			for _, f := range figures(stderr.String()) {
				t.Log(f)
			}
			shots := screenshots(stderr.String())
			if len(shots) == 0 {
				t.Fatalf("suite %s saved no screenshot", name)
			}
			for _, p := range shots {
				checkPNG(t, p)
			}
			t.Logf("%d screenshots in %s", len(shots), out)
		})
	}
}

// startXvfb starts Xvfb on a free display and returns it (":N").
func startXvfb(xvfb string) (string, func(), error) {
	r, w, err := os.Pipe()
	if err != nil {
		return "", nil, err
	}
	cmd := exec.Command(xvfb, "-displayfd", "3", "-screen", "0", "1280x860x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	w.Close()
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	stop := func() {
		cmd.Process.Kill()
		cmd.Wait()
		r.Close()
	}
	select {
	case n := <-got:
		if n == "" {
			stop()
			return "", nil, fmt.Errorf("Xvfb gave no display number")
		}
		return ":" + n, stop, nil
	case <-time.After(15 * time.Second):
		stop()
		return "", nil, fmt.Errorf("Xvfb did not start within 15 s")
	}
}

// quitAt is when the harness asked the app to quit ("e2e: quit at N").
func quitAt(log string) (time.Time, bool) {
	for _, l := range strings.Split(log, "\n") {
		if v, ok := strings.CutPrefix(l, "e2e: quit at "); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				return time.Unix(0, n), true
			}
		}
	}
	return time.Time{}, false
}

// screenshots are the files the harness logged ("screenshot <path>").
func screenshots(log string) []string { return marked(log, ": screenshot ") }

// figures are the figures the suite measured (harness Figuref: lines
// "e2e: <suite>: figure: ...").
func figures(log string) []string { return marked(log, ": figure: ") }

// marked are the rests of the log's lines after mark.
func marked(log, mark string) []string {
	var out []string
	for _, line := range strings.Split(log, "\n") {
		if i := strings.Index(line, mark); i >= 0 {
			out = append(out, strings.TrimSpace(line[i+len(mark):]))
		}
	}
	return out
}

// checkPNG fails unless path is a PNG of a window with something drawn.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b := img.Bounds()
	if b.Dx() < 400 || b.Dy() < 300 {
		t.Fatalf("%s: %dx%d is too small for the window", path, b.Dx(), b.Dy())
	}
	colours := map[uint32]bool{}
	for y := b.Min.Y; y < b.Max.Y; y += 7 {
		for x := b.Min.X; x < b.Max.X; x += 7 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[(r>>8)<<16|(g>>8)<<8|bl>>8] = true
		}
	}
	if len(colours) < 8 {
		t.Fatalf("%s: only %d colours: the window looks blank", path, len(colours))
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// limitFor is how much of the app's output a failure shows: all of it
// (the goroutine dump) when the suite was stopped at its time limit or
// the app said that closing did not finish.
func limitFor(ctx context.Context, out string) int {
	if ctx.Err() != nil || strings.Contains(out, "closing did not finish") {
		return 200000
	}
	return 4000
}
