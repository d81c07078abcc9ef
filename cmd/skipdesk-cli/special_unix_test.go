//go:build harness && unix

package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runGuarded runs cmd to its end; a command that has not ended after a
// minute is killed and the test fails (it hung).
func runGuarded(t *testing.T, cmd *exec.Cmd) (int, string) {
	t.Helper()
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), out.String()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, out.String()
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v hung:\n%s", cmd.Args, out.String())
		return 0, ""
	}
}

// A named pipe and a result whose first line is 8 MB long in the results
// folder: `results search` returns with the other results' rows and says
// which file it could not read, `results layout` refuses both, naming why;
// nothing hangs.
func TestResultsFolderWithSpecialFiles(t *testing.T) {
	c := cliProc{bin: buildCLI(t), home: t.TempDir(), url: "http://127.0.0.1:1/v1"}
	results := filepath.Join(c.home, "results")
	os.MkdirAll(results, 0o755)
	os.WriteFile(filepath.Join(results, "owners 2026-05-01 abc123.csv"), []byte(cliTrace), 0o644)
	pipe := filepath.Join(results, "pipe.csv")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(results, "long.csv")
	os.WriteFile(long, []byte(strings.Repeat("x", 8<<20)+"\nJOHN,SMITH\n"), 0o644)

	code, out := runGuarded(t, c.command("", "results", "search", "john smith"))
	if code != 0 || !strings.Contains(out, "owners 2026-05-01 abc123.csv") || !strings.Contains(out, "long.csv is not searched") {
		t.Fatalf("search: exit %d\n%s", code, out)
	}
	if strings.Contains(out, "pipe.csv") {
		t.Errorf("the named pipe was looked at:\n%s", out)
	}
	for _, tc := range []struct{ file, words string }{
		{long, "longer than 1 MB"},
		{pipe, "named pipe"},
	} {
		code, out := runGuarded(t, c.command("", "results", "layout", tc.file))
		if code == 0 || !strings.Contains(out, tc.words) || (tc.file == long && !strings.Contains(out, "line 1")) {
			t.Errorf("layout of %s: exit %d\n%s", filepath.Base(tc.file), code, out)
		}
		code, out = runGuarded(t, c.command("", "results", "import", tc.file))
		if code == 0 || !strings.Contains(out, tc.words) {
			t.Errorf("import of %s: exit %d\n%s", filepath.Base(tc.file), code, out)
		}
	}
}

// SIGTERM ends the command line even when a step does not end by itself
// (the harness's pause, which ignores its context, stands for one): the
// process is gone with exit code 130 after the grace, and a second signal
// is not needed.
func TestSIGTERMEndsTheCLI(t *testing.T) {
	sb := startSubmitSandbox(t, 0.2)
	c := cliProc{bin: buildCLI(t), home: t.TempDir(), url: sb.url}
	cmd, stderr := c.start(t, "intent", append(append([]string{"traces", "submit", "--file", writeOwners(t)}, submitMaps...), "--wait")...)
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	waitFor := func(want string) string {
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("the process ended before saying %q", want)
				}
				if strings.Contains(l, want) {
					return l
				}
			case <-ctx.Done():
				cmd.Process.Kill()
				t.Fatalf("%q not said within a minute", want)
			}
		}
	}
	waitFor("SKIPDESK_PAUSED intent")
	cmd.Process.Signal(syscall.SIGTERM)
	waitFor("skipdesk-cli: stopped")
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != exitStopped {
			t.Fatalf("exit: %v", err)
		}
	case <-ctx.Done():
		cmd.Process.Kill()
		t.Fatal("SIGTERM did not end the command line")
	}
	if n, _ := sb.jobs(t); n != 0 {
		t.Errorf("%d jobs were created", n)
	}
}
