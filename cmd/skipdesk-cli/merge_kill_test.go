//go:build harness

package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// A submission that reuses rows is killed between its job's download and
// the merge of the earlier rows: `jobs` does not name the job's own result
// (it holds only the rows sent) but says the merge is owed; then `jobs
// wait`, or the window when it starts following jobs, writes the merge, and
// `jobs` names the merged result, which holds every row of the list.
func TestMergeCutShortIsFinished(t *testing.T) {
	bin := buildCLI(t)
	for _, finish := range []string{"jobs wait", "window"} {
		t.Run(finish, func(t *testing.T) {
			sb := startSubmitSandbox(t, 0.2)
			c := cliProc{bin: bin, home: t.TempDir(), url: sb.url}
			if code, out := c.run(t, append(append([]string{"traces", "submit", "--file", writeOwners(t)}, submitMaps...), "--wait")...); code != 0 {
				t.Fatalf("first trace: exit %d\n%s", code, out)
			}
			again := filepath.Join(t.TempDir(), "again.csv")
			os.WriteFile(again, []byte(submitOwners+"Dee,Fox,4 Pine Ln,Austin,TX,78704\r\n"), 0o644)
			c.killAt(t, "merge", append(append([]string{"traces", "submit", "--file", again}, submitMaps...), "--skip-traced", "--wait")...)

			if j := reusedJob(t, c); !j.MergePending || j.Result != "" {
				t.Fatalf("after the kill: %+v", j)
			}
			switch finish {
			case "jobs wait":
				if code, out := c.run(t, "jobs", "wait"); code != 0 || !strings.Contains(out, "(merged)") {
					t.Fatalf("jobs wait: exit %d\n%s", code, out)
				}
			case "window":
				openWindow(t, c)
			}
			j := reusedJob(t, c)
			if j.MergePending || !strings.Contains(j.Result, "(merged)") {
				t.Fatalf("after the merge: %+v", j)
			}
			if recs := readRows(t, j.Result); len(recs) != 5 {
				t.Fatalf("the merged result holds %d records, want the header and 4 rows", len(recs))
			}
		})
	}
}

// reusedJob is the newest job `jobs --json` lists (the one that reused rows).
func reusedJob(t *testing.T, c cliProc) jobLine {
	t.Helper()
	out, err := c.command("", "--json", "jobs").Output()
	if err != nil {
		t.Fatalf("jobs: %v", err)
	}
	var list jobsOut
	if err := json.Unmarshal(out, &list); err != nil || len(list.Jobs) != 2 {
		t.Fatalf("jobs: %s (%v)", out, err)
	}
	return list.Jobs[0]
}

// openWindow opens the application layer as the window does (following
// jobs from the start) on c's data folder, and waits until it announces
// the merged result.
func openWindow(t *testing.T, c cliProc) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	svc, err := workflow.Open(workflow.Config{Home: c.home, BaseURL: c.url, APIKey: sandbox.DemoKey, Track: true})
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	merged := make(chan string, 10)
	defer svc.Jobs().Subscribe(func(e workflow.Event) {
		if e.Kind == workflow.EventDownloaded && strings.Contains(e.Job.ResultPath, "(merged)") {
			merged <- e.Job.ResultPath
		}
	})()
	if _, err := svc.Sessions().Resume(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-merged:
	case <-ctx.Done():
		t.Fatal("the window did not finish the merge")
	}
}
