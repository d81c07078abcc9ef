package wizard

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/testlists"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// The estimate the wizard shows is what the provider charges, over varied
// lists (the sample, one mostly of companies, one with repeated rows) and
// every choice of mode, companies and duplicates: the first choice on
// every list, each other one on a list of its own (companies on the list
// of companies, duplicates dropped on the list of repeated rows). The
// command line's test prices every list with every choice through the
// same quote; what the wizard adds is its controls, which each choice
// sets here.
func TestWizardEstimateIsTheCharge(t *testing.T) {
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 0.05}
	svc := openOn(t, startSandbox(t, cfg), workflow.Config{Home: t.TempDir()})
	defer svc.Close()
	w := newWindow(t, fyne.NewSize(1280, 900))
	dir := t.TempDir()
	for i, l := range testlists.Lists() {
		path, err := l.Write(dir)
		if err != nil {
			t.Fatal(err)
		}
		for j, c := range testlists.Choices {
			if j != 0 && j%3 != i {
				continue
			}
			t.Run(l.Name+"/"+c.String(), func(t *testing.T) {
				done := make(chan string, 1)
				tr := traceOn(t, w, FromWorkflow(svc), path, done)
				act(func() {
					tr.board.setMapping(testlists.Mapping, nil)
					if c.Mode == "enhanced" {
						tr.modeRadio.SetSelected("Enhanced")
					}
					tr.llcCheck.SetChecked(c.IncludeLLCs)
					tr.dupCheck.SetChecked(c.DropDuplicates)
				})
				idle(t, tr.bg)
				var shown int64
				act(func() { fmt.Sscanf(strings.ReplaceAll(tr.costTotal.Text, ",", ""), "Total: %d", &shown) })
				if shown == 0 {
					t.Fatalf("no estimate shown: %q", tr.costTotal.Text)
				}
				act(func() { tapSubmit(tr.submitBtn, &tr.payBtn) })
				id := recv(t, done, "the submission")
				job, err := svc.API().Trace(t.Context(), id)
				if err != nil {
					t.Fatal(err)
				}
				if job.CreditsCharged != shown {
					t.Fatalf("%s: the wizard showed %d credits, the provider charged %d (%s, %d rows, %d companies)",
						filepath.Base(path), shown, job.CreditsCharged, jobs.Mode(job.Mode), job.TotalRows, job.EntityRows)
				}
			})
		}
	}
}
