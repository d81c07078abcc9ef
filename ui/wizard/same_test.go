package wizard

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/assets"
	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// The window and the command line make the same submission of the same
// file, mapping and options: whichever pays first, the other is asked
// before paying again. The window's path is the trace wizard on the real
// application layer; the command line's is the skipdesk-cli binary, on the
// same data folder and sandbox.
func TestWindowAndCommandLineMakeTheSameSubmission(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command line")
	}
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 30} // still processing while we look
	srv := startSandbox(t, cfg)
	home := t.TempDir()
	file := filepath.Join(t.TempDir(), "owners.csv")
	if err := os.WriteFile(file, assets.SampleOwners, 0o600); err != nil {
		t.Fatal(err)
	}
	cli := filepath.Join(t.TempDir(), "skipdesk-cli")
	if out, err := exec.Command("go", "build", "-o", cli, "../../cmd/skipdesk-cli").CombinedOutput(); err != nil {
		t.Fatalf("building the command line: %v\n%s", err, out)
	}
	runCLI := func(args ...string) (int, string) {
		cmd := exec.Command(cli, args...)
		cmd.Env = append(os.Environ(), "SKIPDESK_HOME="+home, "SKIPDESK_BASE_URL="+srv.URL(), "SKIPDESK_API_KEY="+sandbox.DemoKey)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(out)
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0, string(out)
	}
	// The automatic mapping of the file, as the wizard shows it, given to
	// the command line as flags.
	ins, err := workflow.Inspect(t.Context(), file, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	auto := workflow.Suggest(ins, jobs.KindTrace).Mapping()
	args := []string{"traces", "submit", "--file", file, "--include-llcs", "--drop-duplicates"}
	for _, k := range mapping.Keys(jobs.KindTrace) {
		if auto[k] != "" {
			args = append(args, "--map", k+"="+auto[k])
		}
	}

	// The window first: the wizard on the layer, with the same options.
	svc := openOn(t, srv, workflow.Config{Home: home, Track: true})
	w := newWindow(t, fyne.NewSize(1280, 900))
	done := make(chan string, 1)
	submitWithOptions(t, traceOn(t, w, FromWorkflow(svc), file, done))
	id := recv(t, done, "the window's submission")
	svc.Close() // the window quits; the command line may write the ledger

	code, out := runCLI(args...)
	if code != 2 || !strings.Contains(out, "--again") || !strings.Contains(out, id) {
		t.Fatalf("the command line after the window: exit %d\n%s", code, out)
	}

	// The command line first, with a file of other content: the window
	// then asks before paying again.
	other := filepath.Join(t.TempDir(), "owners.csv")
	body := strings.Replace(string(assets.SampleOwners), "Donna", "Dona", 1)
	if err := os.WriteFile(other, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	args[3] = other
	if code, out := runCLI(args...); code != 0 {
		t.Fatalf("the command line's own submission: exit %d\n%s", code, out)
	}
	svc = openOn(t, srv, workflow.Config{Home: home, Track: true})
	defer svc.Close()
	tr := traceOn(t, w, FromWorkflow(svc), other, done)
	submitWithOptions(t, tr)
	idle(t, tr.bg)
	var asked bool
	act(func() { asked = findButton(w.Canvas().Overlays().Top(), "Submit again and pay again") != nil })
	if !asked {
		t.Fatal("the window did not ask before paying again for the command line's submission")
	}
	api, err := client.New(srv.URL(), sandbox.DemoKey)
	if err != nil {
		t.Fatal(err)
	}
	if l, err := api.Traces.List(t.Context(), &client.TraceListOptions{Type: client.TypeBulk}); err != nil || l.Metadata.TotalCount != 2 {
		t.Fatalf("jobs on the server: %+v %v, want 2", l, err)
	}
}

// submitWithOptions takes the companies and drops the duplicates in the
// trace wizard, then submits and pays.
func submitWithOptions(t *testing.T, tr *Trace) {
	t.Helper()
	act(func() {
		tr.llcCheck.SetChecked(true)
		tr.dupCheck.SetChecked(true)
	})
	idle(t, tr.bg)
	act(func() { tapSubmit(tr.submitBtn, &tr.payBtn) })
}
