package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// teamSection is Settings' "Team" line: whether this computer shares a
// team's database, and "Share with my team…" (or "Stop sharing").
type teamSection struct {
	sh *shell
	be TeamBackend
	// changed is called when the records the window shows changed.
	changed func()
	status  *widget.Label
	share   *widget.Button
	stop    *widget.Button
	box     *fyne.Container
	// answers keeps an older status arriving late from replacing a newer.
	answers latest
	// form is the open "Share with my team" dialog's (tests fill it).
	form *shareForm
	// relayout lays the settings out again when the status's lines changed
	// (a wrapped label's height is not its parents' news).
	relayout func()
	// onStatus is called on the UI thread when the status is shown (tests).
	onStatus func(workflow.TeamStatus)
	// onStopped is called on the UI thread when stopping sharing ended or
	// was refused (tests).
	onStopped func(error)
}

func newTeamSection(sh *shell, be TeamBackend, changed func()) *teamSection {
	t := &teamSection{sh: sh, be: be, changed: changed}
	t.status = widget.NewLabel("Reading the team's status…")
	t.status.Wrapping = fyne.TextWrapWord
	t.share = widget.NewButton("Share with my team…", t.openShare)
	t.stop = widget.NewButton("Stop sharing", t.confirmStop)
	t.stop.Hide()
	t.box = container.NewVBox(t.status, container.NewHBox(t.share, t.stop))
	t.refresh()
	return t
}

// refresh reads the team's status off the UI thread and shows it.
func (t *teamSection) refresh() {
	a := t.sh
	n := t.answers.ask()
	background(a, a.ctx, func(ctx context.Context) (workflow.TeamStatus, error) {
		return t.be.Status(ctx), nil
	}, func(st workflow.TeamStatus, _ error) {
		if t.answers.fresh(n) { // else a newer status is shown
			t.show(st)
		}
	})
}

func (t *teamSection) show(st workflow.TeamStatus) {
	t.status.SetText(teamText(st))
	if t.relayout != nil {
		t.relayout()
	}
	if st.On {
		t.share.Hide()
		if !st.FromEnv {
			t.stop.Show()
		}
	} else {
		t.share.Show()
		t.stop.Hide()
	}
	if t.onStatus != nil {
		t.onStatus(st)
	}
}

// teamText says where this computer's records are.
func teamText(st workflow.TeamStatus) string {
	if !st.On {
		return fmt.Sprintf("This computer (%s) keeps its own records. Share them with your team to work on one database: the jobs, presets, layout corrections and the internal do-not-call list, with each job showing which computer submitted it.", st.Computer)
	}
	var b strings.Builder
	if st.Database != "" {
		fmt.Fprintf(&b, "Shared with the team on %s, as %s.", st.Database, st.Computer)
	} else {
		fmt.Fprintf(&b, "Shared with the team, as %s.", st.Computer)
	}
	if st.FromEnv {
		b.WriteString(" The database is set by the SKIPDESK_DATABASE_URL environment variable.")
	}
	switch {
	case st.Err != nil:
		b.WriteString(" " + workflow.Explain(st.Err, "").What + " Nothing is submitted until it answers.")
	case len(st.Computers) > 0:
		b.WriteString(" Connected now: " + strings.Join(st.Computers, ", ") + ".")
	}
	return b.String()
}

// shareForm is the "Share with my team" dialog.
type shareForm struct {
	url      *widget.Entry
	name     *widget.Entry
	problem  *widget.Label
	dialog   *dialog.ConfirmDialog
	onShared func(workflow.ShareReport, error) // tests
}

func (t *teamSection) openShare() {
	a := t.sh
	f := &shareForm{url: widget.NewPasswordEntry(), name: widget.NewEntry()}
	f.url.SetPlaceHolder("postgres://user:password@host:5432/skipdesk")
	f.name.SetText(a.settings().ComputerName)
	f.name.SetPlaceHolder("this computer's name (default: its host name)")
	f.problem = widget.NewLabel("")
	f.problem.Wrapping = fyne.TextWrapWord
	f.problem.Importance = widget.DangerImportance
	f.problem.Hide()
	intro := widget.NewLabel("SkipDesk moves this computer's jobs, presets, layout corrections and internal do-not-call list into the team's PostgreSQL database, once (an interrupted move picks up where it stopped), and works on it from then on. The connection string is kept in this computer's keyring only. Results stay in this computer's library.")
	intro.Wrapping = fyne.TextWrapWord
	body := container.NewVBox(intro, widget.NewForm(
		widget.NewFormItem("Connection string", f.url),
		widget.NewFormItem("This computer", f.name),
	), f.problem)
	f.dialog = dialog.NewCustomConfirm("Share with my team", "Share", "Cancel", body, func(ok bool) {
		if ok {
			t.runShare(f)
		}
	}, a.win)
	f.dialog.Resize(fyne.NewSize(600, 0))
	t.form = f
	f.dialog.Show()
}

// runShare moves the records with a progress dialog, then shows the
// section again (or the dialog with why it failed).
func (t *teamSection) runShare(f *shareForm) {
	a := t.sh
	url, name := strings.TrimSpace(f.url.Text), strings.TrimSpace(f.name.Text)
	withProgressOf(a, "Moving this computer's records to the team", func(ctx context.Context, progress func(done, total int64)) (workflow.ShareReport, error) {
		return t.be.ShareWithTeam(ctx, url, name, func(p workflow.ShareProgress) {
			progress(int64(p.Done), int64(p.Total))
		})
	}, func(rep workflow.ShareReport, err error) {
		if err != nil {
			f.problem.SetText(workflow.Explain(err, "").String())
			f.problem.Show()
			f.dialog.Show()
		} else {
			t.changed()
		}
		t.refresh()
		if f.onShared != nil {
			f.onShared(rep, err)
		}
	})
}

// confirmStop reads what stopping would copy back to this computer and
// asks, saying so; with the team's database away it says sharing stays on.
func (t *teamSection) confirmStop() {
	a := t.sh
	background(a, a.ctx, t.be.StopSharingPreview, func(k workflow.KeptRecords, err error) {
		if err != nil {
			a.showError(err)
			t.stopped(err)
			return
		}
		d := dialog.NewConfirm("Stop sharing?", "This computer first copies back from the team's database what it needs on its own: "+
			workflow.DescribeKept(k)+". Then it works on its own records again; what the team did stays in the team's database. "+
			"The connection string is removed from the keyring.", func(ok bool) {
			if ok {
				t.runStop()
			}
		}, a.win)
		d.SetConfirmText("Copy back and stop")
		d.SetDismissText("Keep sharing")
		d.Show()
		a.fire("stop-sharing")
	})
}

// runStop copies back and stops sharing, with a progress dialog, then
// says what this computer kept (or why sharing stays on).
func (t *teamSection) runStop() {
	a := t.sh
	withProgressOf(a, "Copying back this computer's records", func(ctx context.Context, progress func(done, total int64)) (workflow.KeptRecords, error) {
		return t.be.StopSharing(ctx, func(p workflow.ShareProgress) { progress(int64(p.Done), int64(p.Total)) })
	}, func(kept workflow.KeptRecords, err error) {
		if err != nil {
			a.showError(err)
		} else {
			a.showMessage("Stopped sharing", "This computer works on its own records again, with what it copied back from the team's database: "+
				workflow.DescribeKept(kept)+".")
		}
		t.changed()
		t.refresh()
		t.stopped(err)
	})
}

// stopped tells the tests a stop ended (onStopped).
func (t *teamSection) stopped(err error) {
	if t.onStopped != nil {
		t.onStopped(err)
	}
}
