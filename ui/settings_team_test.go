package ui

import (
	"errors"
	"image"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/internal/uitest"
)

// Settings → Share with my team: the connection string and the computer's
// name go to the backend, the section then says where the records are and
// who is connected; the jobs list names the computer that submitted each
// job. With SKIPDESK_SCREENSHOTS set, the two screens are saved there.
func TestShareWithMyTeam(t *testing.T) {
	now := time.Now()
	fb := signedIn()
	fb.team = workflow.TeamStatus{Computer: "vm"}
	fb.jobs = []workflow.Job{
		{ID: "trc_2", Key: "trc_2", Kind: jobs.KindTrace, Name: "county-owners.csv", Status: "completed", CreatedAt: now,
			Rows: 1200, Matches: 1010, Charged: 1200, Refunded: 190, SubmittedBy: "front-desk"},
		{ID: "dnc_1", Key: "dnc_1", Kind: jobs.KindDNC, Name: "county-owners phones.csv", Status: "completed",
			CreatedAt: now.Add(-time.Hour), Rows: 2300, Charged: 230, SubmittedBy: "back-office"},
	}
	h := start(t, fb)
	statuses := make(chan workflow.TeamStatus, 4)
	var f *settingsForm
	h.do(func() {
		f = h.app.newSettingsForm()
		f.team.onStatus = func(st workflow.TeamStatus) { statuses <- st }
		f.dialog.Show()
	})
	<-statuses
	if !h.hasText("keeps its own records") {
		t.Fatal("the team line before sharing")
	}
	h.tap(h.button("Share with my team…"))
	shared := make(chan error, 1)
	h.do(func() {
		sf := f.team.form
		sf.onShared = func(_ workflow.ShareReport, err error) { shared <- err }
		test.Type(sf.url, "postgres://desk:s3cret@db.example.com:5432/skipdesk")
		sf.name.SetText("front-desk")
	})
	h.tap(h.button("Share"))
	if err := <-shared; err != nil {
		t.Fatal(err)
	}
	st := <-statuses
	for !st.On {
		st = <-statuses
	}
	if fb.sharedURL != "postgres://desk:s3cret@db.example.com:5432/skipdesk" {
		t.Fatalf("the backend was given %q", fb.sharedURL)
	}
	if !h.hasText("Shared with the team on the team database \"skipdesk\" on db.example.com:5432, as front-desk") ||
		!h.hasText("Connected now: front-desk, back-office") || h.hasText("s3cret") {
		t.Fatalf("the team line after sharing: %q", h.textOf(f.team.status))
	}
	if !h.button("Stop sharing").Visible() {
		t.Fatal("no way to stop sharing")
	}
	screenshot(t, h, "settings-team.png")
	h.do(func() { f.dialog.Hide() })

	v := h.app.jobs
	h.waitFor("the jobs list", func() bool {
		n := 0
		h.do(func() { n = len(v.shown) })
		return n == 2
	})
	if jobColumns[10].title != "Submitted by" || jobCell(v.shown[0], 10, now, nil) != "front-desk" || jobCell(v.shown[1], 10, now, nil) != "back-office" {
		t.Fatalf("submitted by: %q, %q", jobCell(v.shown[0], 10, now, nil), jobCell(v.shown[1], 10, now, nil))
	}
	h.do(func() { v.selectJob("trc_2") })
	if !strings.Contains(h.textOf(v.detail), "Submitted by front-desk.") {
		t.Fatalf("the job's details: %q", h.textOf(v.detail))
	}
	screenshot(t, h, "jobs-submitted-by.png")
}

// screenshot saves the window as name in $SKIPDESK_SCREENSHOTS, when set.
func screenshot(t *testing.T, h *harness, name string) {
	t.Helper()
	uitest.SaveShot(t, "SKIPDESK_SCREENSHOTS", name, func() (img image.Image) {
		h.do(func() { img = h.win.Canvas().Capture() })
		return img
	})
}

// The team line with the database away says so, and that nothing is
// submitted meanwhile.
func TestTeamLineDatabaseAway(t *testing.T) {
	got := teamText(workflow.TeamStatus{On: true, Computer: "vm", Err: workflow.ErrTeamUnreachable})
	if !strings.Contains(got, "Shared with the team, as vm.") || !strings.Contains(got, "cannot be reached") ||
		!strings.Contains(got, "Nothing is submitted until it answers.") {
		t.Fatalf("%q", got)
	}
}

// The team's database away in a session: the jobs list shows the team's
// records as this computer last read them, and says from when.
func TestJobsListTeamAway(t *testing.T) {
	fb := signedIn()
	at := time.Date(2026, 11, 24, 15, 4, 0, 0, time.Local)
	fb.jobsErr = &workflow.TeamAwayError{Err: workflow.ErrTeamUnreachable, CopyAt: at}
	fb.jobs = []workflow.Job{{ID: "trc_1", Key: "trc_1", Kind: jobs.KindTrace, Name: "county-owners.csv", Status: "completed",
		CreatedAt: at, SubmittedBy: "front-desk"}}
	h := start(t, fb)
	if !h.hasText("with the team's records as this computer last read them (Nov 24, 3:04 PM)") {
		t.Fatalf("the jobs list says %q", h.textOf(h.app.jobs.detail))
	}
	if len(h.app.jobs.shown) != 1 || h.app.jobs.shown[0].SubmittedBy != "front-desk" {
		t.Fatalf("shown %+v", h.app.jobs.shown)
	}
	screenshot(t, h, "jobs-team-away.png")
}

// Stop sharing: with the team's database away the window says sharing
// stays on and stops nothing; when it answers, the window says what this
// computer will copy back before it stops (the do-not-call list, its jobs
// in flight, the duplicate guard's records) and, after, what it kept. With
// SKIPDESK_SCREENSHOTS set, the question is saved there.
func TestStopSharingSaysWhatItKeeps(t *testing.T) {
	fb := signedIn()
	fb.team = workflow.TeamStatus{On: true, Database: `the team database "skipdesk" on db.example.com`, Computer: "front-desk"}
	fb.kept = workflow.KeptRecords{Numbers: 1_000_000, History: 1_000_004, Submissions: 12, Jobs: 12, InFlight: 2, Claims: 3}
	fb.stopErr = &workflow.StopRefusedError{Err: workflow.ErrTeamUnreachable}
	h := start(t, fb)
	statuses := make(chan workflow.TeamStatus, 8)
	stopped := make(chan error, 2)
	var f *settingsForm
	h.do(func() {
		f = h.app.newSettingsForm()
		f.team.onStatus = func(st workflow.TeamStatus) { statuses <- st }
		f.team.onStopped = func(err error) { stopped <- err }
		f.dialog.Show()
	})
	<-statuses
	h.tap(h.button("Stop sharing"))
	if err := <-stopped; !errors.Is(err, workflow.ErrTeamUnreachable) || !strings.Contains(h.dialogText(), "Sharing stays on") {
		t.Fatalf("stopping with the team's database away: %v; the window says %q", err, h.dialogText())
	}
	if fb.stopped != 0 {
		t.Fatal("sharing stopped without the records")
	}

	fb.mu.Lock()
	fb.stopErr = nil
	fb.mu.Unlock()
	h.tap(h.button("Stop sharing"))
	h.wait("stop-sharing")
	txt := h.dialogText()
	for _, want := range []string{"1,000,000 numbers", "1,000,004 entries of its history", "12 jobs (2 in flight)", "3 records of files sent in the last day"} {
		if !strings.Contains(txt, want) {
			t.Errorf("the question does not say %q: %q", want, txt)
		}
	}
	screenshot(t, h, "settings-stop-sharing.png")
	h.tap(h.button("Copy back and stop"))
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if fb.stopped != 1 || !h.hasText("This computer works on its own records again") {
		t.Fatalf("after stopping: %d stops; %q", fb.stopped, h.dialogText())
	}
}
