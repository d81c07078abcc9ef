//go:build harness

package ui

import (
	"errors"
	"fmt"
	"os"
	"time"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/ui/e2e"
)

// harness, in a build for tests only: with SKIPDESK_E2E set the app runs
// that end-to-end script (see package e2e) and exits.
func (a *App) harness(code *int) {
	if name := os.Getenv("SKIPDESK_E2E"); name != "" {
		a.runE2E(name, code)
	}
}

// runE2E arranges for the named end-to-end script to run once the main
// screen is ready, then quits the app; *code gets the exit code.
// "startup" is special: it prints the time of the first frame and quits.
func (a *App) runE2E(name string, code *int) {
	if name == "startup" {
		a.fyne.Lifecycle().SetOnStarted(func() {
			go func() {
				// The first DoAndWait returns after the event loop has run
				// once after start, which draws the first frame.
				fyne.DoAndWait(func() {})
				fyne.DoAndWait(func() { a.win.Canvas().Content() })
				fmt.Printf("first-frame %d\n", time.Now().UnixNano())
				fyne.Do(a.fyne.Quit)
			}()
		})
		return
	}
	if name == "list" {
		for _, n := range e2e.Names() {
			fmt.Println(n)
		}
		a.fyne.Lifecycle().SetOnStarted(func() { a.do(a.fyne.Quit) })
		return
	}
	script, ok := e2e.Lookup(name)
	if !ok {
		fmt.Fprintf(os.Stderr, "e2e: no script %q (have %v)\n", name, e2e.Names())
		*code = 2
		a.fyne.Lifecycle().SetOnStarted(func() { fyne.Do(a.fyne.Quit) })
		return
	}
	a.OnReady(func() {
		go func() {
			h, err := e2e.NewHarness(name, a.fyne, a.win, a)
			if err == nil {
				h.Idle = a.busy.Wait // Settle waits for the window's work in flight
				err = script(h)
				h.Close()
			}
			if err != nil {
				fmt.Fprintf(os.Stderr, "e2e: %s: FAIL: %v\n", name, err)
				*code = 1
			} else {
				fmt.Fprintf(os.Stderr, "e2e: %s: ok\n", name)
			}
			// Quit ends the event loop; should it not, say where it hangs.
			// The test measures closing from the time said here to the
			// process's end.
			go exitIfStuck(time.Minute)
			fmt.Fprintf(os.Stderr, "e2e: quit at %d\n", time.Now().UnixNano())
			fyne.Do(a.fyne.Quit)
		}()
	})
}

// shellAndDir is the app an end-to-end script drives and a temporary
// folder for its files; done removes the folder.
func shellAndDir(h *e2e.Harness) (a *App, dir string, done func(), err error) {
	if a, err = shellApp(h); err != nil {
		return nil, "", nil, err
	}
	if dir, err = os.MkdirTemp("", "skipdesk-e2e-"); err != nil {
		return nil, "", nil, err
	}
	return a, dir, func() { os.RemoveAll(dir) }, nil
}

// shellApp is the app an end-to-end script drives.
func shellApp(h *e2e.Harness) (*App, error) {
	var a *App
	h.Do(func() { a, _ = h.Shell.(*App) })
	if a == nil {
		return nil, errors.New("the shell is not the app")
	}
	return a, nil
}
