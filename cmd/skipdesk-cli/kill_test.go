//go:build harness

package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// buildCLI builds the real skipdesk-cli binary.
func buildCLI(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command line and runs it as a process of its own (kills, signals, hangs); skipped with -short, make test runs it")
	}
	bin := filepath.Join(t.TempDir(), "skipdesk-cli")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	cmd := exec.Command("go", "build", "-tags", "harness", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// cliProc runs the binary against one sandbox and one SkipDesk home.
type cliProc struct {
	bin, home, url string
}

func (c cliProc) command(pauseAt string, args ...string) *exec.Cmd {
	cmd := exec.Command(c.bin, append([]string{"--base-url", c.url}, args...)...)
	cmd.Env = append(os.Environ(), "SKIPDESK_HOME="+c.home, "SKIPDESK_API_KEY="+sandbox.DemoKey, pauseEnv+"="+pauseAt,
		"SKIPDESK_BASE_URL=")
	return cmd
}

// start starts a command that pauses at step, with its standard error
// piped to the test.
func (c cliProc) start(t *testing.T, pauseAt string, args ...string) (*exec.Cmd, io.Reader) {
	t.Helper()
	cmd := c.command(pauseAt, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stderr
}

// run runs a command to its end and returns its exit code and output.
func (c cliProc) run(t *testing.T, args ...string) (int, string) {
	t.Helper()
	cmd := c.command("", args...)
	out, err := cmd.CombinedOutput()
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%v: %v", args, err)
		}
		code = ee.ExitCode()
	}
	return code, string(out)
}

// killAt starts a command that pauses at step, waits until it says it is
// there, and SIGKILLs it.
func (c cliProc) killAt(t *testing.T, step string, args ...string) {
	t.Helper()
	cmd, stderr := c.start(t, step, args...)
	reached := make(chan bool, 1)
	var said strings.Builder
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			said.WriteString(sc.Text() + "\n")
			if sc.Text() == "SKIPDESK_PAUSED "+step {
				reached <- true
				return
			}
		}
		reached <- false
	}()
	select {
	case ok := <-reached:
		if !ok {
			cmd.Wait()
			t.Fatalf("the process ended without reaching step %s:\n%s", step, said.String())
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("step %s not reached in 20 s", step)
	}
	if err := cmd.Process.Kill(); err != nil { // SIGKILL: no cleanup of any kind
		t.Fatal(err)
	}
	cmd.Wait()
}

// TestKillAtEachStep kills a real `skipdesk-cli traces submit --wait` at each
// step of a submission, restarts it, and checks that no job id is lost, no
// second job is created, and the result is downloaded exactly once.
func TestKillAtEachStep(t *testing.T) {
	bin := buildCLI(t)
	for _, step := range []string{"intent", "sent", "posted", "created", "tracking", "download", "downloaded", "recorded"} {
		t.Run(step, func(t *testing.T) {
			t.Parallel()
			processing := 1.0
			if step == "tracking" {
				processing = 4 // still in flight at the first look, even on a busy machine
			}
			sb := startSubmitSandbox(t, processing)
			c := cliProc{bin: bin, home: t.TempDir(), url: sb.url}
			file := writeOwners(t)
			submitArgs := append(append([]string{"traces", "submit", "--file", file}, submitMaps...), "--wait")

			c.killAt(t, step, submitArgs...)
			checkKilledAt(t, c.home, sb, step)

			// Restart: reconcile, then finish what the killed run started.
			code, out := c.run(t, "jobs", "reconcile")
			switch step {
			case "sent":
				// The POST may have gone out: unknown until the window
				// passes, and resubmitting needs --again.
				if code != exitOutcomeUnknown {
					t.Fatalf("reconcile after a kill at %s: exit %d\n%s", step, code, out)
				}
				if code, out := c.run(t, submitArgs...); code != exitUsage || !strings.Contains(out, "--again") {
					t.Fatalf("resubmitting an unknown submission without --again: exit %d\n%s", code, out)
				}
				if n, _ := sb.jobs(t); n != 0 {
					t.Fatalf("%d jobs on the server after a refused duplicate", n)
				}
				code, out = c.run(t, append(submitArgs, "--again")...)
			case "intent":
				// Nothing was sent: the submission is not created, and
				// submitting again is no duplicate.
				if code != 0 || !strings.Contains(out, "not created") {
					t.Fatalf("reconcile after a kill at %s: exit %d\n%s", step, code, out)
				}
				code, out = c.run(t, submitArgs...)
			default:
				if code != 0 {
					t.Fatalf("reconcile after a kill at %s: exit %d\n%s", step, code, out)
				}
				if step == "posted" && !strings.Contains(out, "found job") {
					t.Fatalf("the job created before the kill was not adopted:\n%s", out)
				}
				// Running the killed command again does not pay twice:
				// it asks for --again and points at the job to wait for.
				if code, out := c.run(t, submitArgs...); code != exitUsage || !strings.Contains(out, "--again") {
					t.Fatalf("the same submit after a kill at %s: exit %d\n%s", step, code, out)
				}
				if n, _ := sb.jobs(t); n != 1 {
					t.Fatalf("after a kill at %s and the same submit again: %d jobs on the server", step, n)
				}
				code, out = c.run(t, "jobs", "wait")
			}
			if code != 0 {
				t.Fatalf("finishing after a kill at %s: exit %d\n%s", step, code, out)
			}
			checkDoneOnce(t, c.home, sb, step)
		})
	}
}

// checkKilledAt checks what the ledger and the server hold right after the
// kill.
func checkKilledAt(t *testing.T, home string, sb *submitSandbox, step string) {
	t.Helper()
	led := readLedger(t, home)
	defer led.Close()
	ctx := context.Background()
	subs, err := led.Submissions().List(ctx)
	if err != nil || len(subs) != 1 {
		t.Fatalf("submissions after a kill at %s: %+v, %v", step, subs, err)
	}
	wantState := map[string]ledger.State{"intent": ledger.StateIntent, "sent": ledger.StateSent, "posted": ledger.StateSent}[step]
	if wantState == "" {
		wantState = ledger.StateCreated
	}
	n, traces := sb.jobs(t)
	wantJobs := 1
	if step == "intent" || step == "sent" {
		wantJobs = 0
	}
	if subs[0].State != wantState || n != wantJobs {
		t.Fatalf("after a kill at %s: submission %s, %d jobs on the server; want %s, %d", step, subs[0].State, n, wantState, wantJobs)
	}
	if wantState == ledger.StateCreated && subs[0].JobID != traces[0].ID {
		t.Fatalf("after a kill at %s: the ledger holds job %q, the server %q", step, subs[0].JobID, traces[0].ID)
	}
	switch step {
	case "tracking":
		if j, err := led.Jobs().Job(ctx, traces[0].ID); err != nil || j.Status != jobs.StatusProcessing {
			t.Fatalf("after a kill while tracking: %+v, %v", j, err)
		}
	case "download", "downloaded", "recorded":
		j, err := led.Jobs().Job(ctx, traces[0].ID)
		if err != nil || j.Status != jobs.StatusCompleted {
			t.Fatalf("after a kill while downloading: %+v, %v", j, err)
		}
		if _, err := led.Jobs().JobDownload(ctx, j.ID); err == nil {
			t.Fatal("a download is recorded although the process died during it")
		}
		// Killed during the download: bytes in a temporary file, nothing
		// under the result's name.
		if step == "download" {
			parts, _ := filepath.Glob(filepath.Join(home, "results", ".*.part"))
			results, _ := filepath.Glob(filepath.Join(home, "results", "*.csv"))
			if len(parts) != 1 || len(results) != 0 {
				t.Fatalf("after a kill during the download: parts %q, results %q", parts, results)
			}
			if info, err := os.Stat(parts[0]); err != nil || info.Size() == 0 {
				t.Fatalf("the download was killed before any byte arrived: %v", err)
			}
		}
		// Killed once the result was in place: whole, under its name, with
		// (at "recorded") its job record, but not in the ledger.
		if step == "downloaded" || step == "recorded" {
			results, _ := filepath.Glob(filepath.Join(home, "results", "*.csv"))
			records, _ := filepath.Glob(filepath.Join(home, "results", "*"+library.RecordSuffix))
			if len(results) != 1 || len(records) != map[string]int{"downloaded": 0, "recorded": 1}[step] {
				t.Fatalf("after a kill at %s: results %q, job records %q", step, results, records)
			}
		}
	}
}

// checkDoneOnce: one job on the server, the same in the ledger, its result
// downloaded once and recorded with its checksum and spend.
func checkDoneOnce(t *testing.T, home string, sb *submitSandbox, step string) {
	t.Helper()
	n, traces := sb.jobs(t)
	if n != 1 {
		t.Fatalf("kill at %s: %d jobs on the server, want 1", step, n)
	}
	srvJob := traces[0]
	led := readLedger(t, home)
	defer led.Close()
	ctx := context.Background()
	entries, err := led.Jobs().Entries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 || entries[0].ID != srvJob.ID {
		t.Fatalf("kill at %s: the ledger holds %+v, the server job %s", step, entries, srvJob.ID)
	}
	e := entries[0]
	if e.Status != jobs.StatusCompleted || e.Spend.Charged != srvJob.CreditsCharged || e.Spend.Refunded != srvJob.CreditsRefunded {
		t.Fatalf("kill at %s: ledger job %s %s, spend %+v; server %s %d/%d", step, e.ID, e.Status, e.Spend,
			srvJob.Status, srvJob.CreditsCharged, srvJob.CreditsRefunded)
	}
	if e.Download == nil || e.Download.Rows != 3 || sha256File(t, e.Download.Path) != e.Download.SHA256 {
		t.Fatalf("kill at %s: download %+v", step, e.Download)
	}
	if pending, _ := led.Submissions().List(ctx, ledger.StateIntent, ledger.StateSent, ledger.StateUnknown); step != "sent" && len(pending) != 0 {
		t.Fatalf("kill at %s: submissions still pending: %+v", step, pending)
	}
	// Exactly one result in the library (and its job record), nothing half-written.
	files, _ := os.ReadDir(filepath.Join(home, "results"))
	var names []string
	for _, f := range files {
		names = append(names, f.Name())
	}
	if len(files) != 2 || filepath.Join(home, "results", names[0]) != e.Download.Path && filepath.Join(home, "results", names[1]) != e.Download.Path {
		t.Fatalf("kill at %s: library holds %q", step, names)
	}
	// One download from the server; two when the first one was cut by the
	// kill. A result renamed into place before the kill is not fetched again.
	want := int64(1)
	if step == "download" {
		want = 2
	}
	if got := sb.downloads.Load(); got != want {
		t.Fatalf("kill at %s: %d download requests, want %d", step, got, want)
	}
}
