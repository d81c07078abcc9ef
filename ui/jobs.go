package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"sort"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/flow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// Columns of the jobs table.
var jobColumns = []struct {
	title string
	width float32
}{
	{"Job", 220}, {"Kind", 80}, {"Status", 165}, {"Created", 110}, {"Rows", 65},
	{"Matches", 76}, {"Charged", 76}, {"Refunded", 84}, {"Net", 60}, {"Ind. / LLC", 90}, {"Submitted by", 110},
}

// Filter choices.
const (
	allKinds    = "All kinds"
	allStatuses = "All statuses"
)

var kindChoices = []string{allKinds, "Traces", "Single lookups", "DNC scrubs"}
var statusChoices = []string{allStatuses, "Processing", "Completed", "Failed", "Unknown"}

// jobsView is the jobs list with its filters, its detail line and the
// actions on the selected job. All fields are touched on the UI thread only.
type jobsView struct {
	sh      *shell
	be      JobsBackend
	exports *exports
	flows   Flows
	// openViewer opens a result in a viewer tab; submitted is told of a
	// job submitted from here (a scrub of a trace's phones).
	openViewer func(path, name string)
	submitted  func(id string)

	// scrubParents maps a DNC job started with "Scrub phones" to its trace,
	// so that its completion offers the trace's callable list.
	scrubParents map[string]string
	// finish are the callable lists asked for before their trace's scrub,
	// by the trace's id: the scrub's completion writes them.
	finish map[string]pendingExport
	// scrubAsk is the question "Scrub the phones first?" while it shows.
	scrubAsk *dialog.ConfirmDialog
	// callableYes is the offer's "Export callable list" while it shows.
	callableYes *widget.Button

	all      []workflow.Job // merged, newest first
	shown    []workflow.Job // after the filters
	pages    int            // API pages merged so far
	more     bool
	progress map[string]float64 // download progress by job key

	kind, status *widget.Select
	table        *widget.Table
	detail       *widget.Label
	empty        fyne.CanvasObject
	older        *widget.Button
	selected     string // key of the selected job
	loadProblem  string // why the last reload failed ("" when it did not)
	// lists keeps an older list arriving late (a reload started before a
	// job was submitted) from replacing a newer one; changed are the jobs
	// an event changed (or took away), with the newest asking of the list
	// then (lists.last): a list asked for before the change leaves the job
	// as the event left it.
	lists   latest
	changed map[string]uint64

	openBtn, folderBtn, xlsxBtn, callableBtn, scrubBtn, webhookBtn, reconcileBtn *widget.Button

	content fyne.CanvasObject
	ticker  *time.Ticker
	quit    chan struct{}
}

// newJobsView is the jobs list; welcome shows in place of an empty one.
func newJobsView(sh *shell, be JobsBackend, ex *exports, flows Flows, welcome fyne.CanvasObject) *jobsView {
	v := &jobsView{sh: sh, be: be, exports: ex, flows: flows, pages: 1, progress: map[string]float64{}, scrubParents: map[string]string{},
		finish: map[string]pendingExport{}}
	v.kind = widget.NewSelect(kindChoices, func(string) { v.applyFilter() })
	v.kind.SetSelectedIndex(0)
	v.status = widget.NewSelect(statusChoices, func(string) { v.applyFilter() })
	v.status.SetSelectedIndex(0)

	v.table = widget.NewTableWithHeaders(v.length, v.createCell, v.updateCell)
	v.table.ShowHeaderColumn = false
	v.table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	v.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 && id.Col < len(jobColumns) {
			o.(*widget.Label).SetText(jobColumns[id.Col].title)
		}
	}
	for i, c := range jobColumns {
		v.table.SetColumnWidth(i, c.width)
	}
	v.table.OnSelected = v.onSelected

	v.detail = widget.NewLabel("Select a job to see its details and actions.")
	v.detail.Wrapping = fyne.TextWrapWord

	v.openBtn = widget.NewButtonWithIcon("Open result", theme.DocumentIcon(), v.onOpen)
	v.folderBtn = widget.NewButtonWithIcon("Show in folder", theme.FolderOpenIcon(), v.onShowFolder)
	v.xlsxBtn = widget.NewButtonWithIcon("Export to Excel", theme.DocumentSaveIcon(), func() { v.onExport(false) })
	v.callableBtn = widget.NewButtonWithIcon("Export callable list", theme.DocumentSaveIcon(), func() { v.onExport(true) })
	v.scrubBtn = widget.NewButtonWithIcon("Scrub phones", theme.ContentAddIcon(), v.onScrub)
	v.webhookBtn = widget.NewButtonWithIcon("Resend webhook", theme.MailSendIcon(), v.onRetryWebhook)
	v.reconcileBtn = widget.NewButtonWithIcon("Reconcile", theme.SearchReplaceIcon(), v.onReconcile)
	v.older = widget.NewButton("Load older jobs", v.onOlder)
	v.older.Hide()
	v.updateActions()

	filters := container.NewHBox(widget.NewLabel("Show"), v.kind, v.status, v.older)
	// The actions wrap onto a second row in a narrow window.
	actions := flow.New(v.openBtn, v.folderBtn, v.xlsxBtn, v.scrubBtn, v.callableBtn, v.webhookBtn, v.reconcileBtn)
	bottom := container.NewVBox(widget.NewSeparator(), v.detail, actions)
	v.empty = welcome
	v.empty.Hide()
	table := container.New(&lastColumnFills{table: v.table}, v.table)
	v.content = container.NewBorder(filters, bottom, nil, nil, container.NewStack(table, v.empty))

	// Processing rows show their elapsed time: redraw once a second while
	// any job is processing.
	v.ticker = time.NewTicker(sh.opts.TickEvery)
	quit := make(chan struct{})
	v.quit = quit
	ticks := v.ticker.C
	go func() {
		for {
			select {
			case <-ticks:
				sh.do(func() {
					if v.anyProcessing() {
						v.table.Refresh()
						if j, ok := v.current(); ok && j.Status == "processing" {
							v.showDetail() // its elapsed time too
						}
					}
				})
			case <-quit:
				return
			}
		}
	}()
	return v
}

// stop ends the ticker; safe to call more than once.
func (v *jobsView) stop() {
	if v.quit != nil {
		v.ticker.Stop()
		close(v.quit)
		v.quit = nil
	}
}

// reload fetches the list (ledger + API pages) off the UI thread; done (if
// any) is called from a goroutine once it is shown.
func (v *jobsView) reload(done func()) {
	a := v.sh
	pages := v.pages
	n := v.lists.ask()
	a.spawn(func() {
		jobs, more, err := v.be.List(a.ctx, pages)
		a.do(func() {
			if !v.lists.fresh(n) {
				return // a newer reload answered first
			}
			v.loadProblem = ""
			if err != nil {
				p := workflow.Explain(err, workflow.HostOf(a.session.BaseURL))
				switch {
				case errors.Is(err, workflow.ErrTeamUnreachable):
					v.loadProblem = p.What + " Shown: the provider's lists."
					var away *workflow.TeamAwayError
					if errors.As(err, &away) && !away.CopyAt.IsZero() {
						v.loadProblem = p.What + " Shown: the provider's lists, with the team's records as this computer last read them (" +
							away.CopyAt.Local().Format("Jan 2, 3:04 PM") + ")."
					}
				default:
					v.loadProblem = "The jobs list could not be loaded from the server: " + p.What
					if jobs != nil {
						v.loadProblem += " Shown: the jobs kept on this computer."
					}
				}
			}
			if jobs != nil || err == nil {
				v.setJobs(v.keepChanged(jobs, n), more)
			}
			v.showDetail()
		})
		if done != nil {
			done()
		}
	})
}

func (v *jobsView) onOlder() {
	v.pages++
	v.older.Disable()
	v.reload(func() { v.sh.do(v.older.Enable) })
}

// setJobs replaces the list (UI thread).
func (v *jobsView) setJobs(jobs []workflow.Job, more bool) {
	v.all = append(v.all[:0:0], jobs...)
	v.more = more
	sortJobs(v.all)
	if more {
		v.older.Show()
	} else {
		v.older.Hide()
	}
	v.applyFilter()
}

// keepChanged is list n with the jobs an event changed since it was asked
// for as they are now: the list may be from before the change (a job
// shown processing after its completion was told, or one replaced by its
// reconciled job shown again).
func (v *jobsView) keepChanged(list []workflow.Job, n uint64) []workflow.Job {
	for k, at := range v.changed {
		if at < n {
			delete(v.changed, k) // list n, and any later, is newer
		}
	}
	if len(v.changed) == 0 {
		return list
	}
	var now []workflow.Job
	ids := map[string]bool{}
	for _, j := range v.all {
		if _, ok := v.changed[j.Key]; ok {
			now = append(now, j)
			ids[j.ID] = j.ID != ""
		}
	}
	out := make([]workflow.Job, 0, len(list)+len(now))
	for _, j := range list {
		if j.Key == "" {
			j.Key = j.ID
		}
		if _, ok := v.changed[j.Key]; !ok && !ids[j.ID] {
			out = append(out, j)
		}
	}
	return append(out, now...)
}

// upsert puts a job's new state in the list (UI thread); the caller
// refreshes the table once per batch.
func (v *jobsView) upsert(j workflow.Job) {
	if j.Key == "" {
		j.Key = j.ID
	}
	v.change(j.Key)
	for i := range v.all {
		if v.all[i].Key == j.Key || (j.ID != "" && v.all[i].ID == j.ID) {
			if j.ResultPath == "" {
				j.ResultPath = v.all[i].ResultPath
			}
			v.all[i] = j
			if j.Final() {
				delete(v.progress, j.Key)
			}
			return
		}
	}
	v.all = append(v.all, j)
	sortJobs(v.all)
}

// replace puts j in the place of the row with key old (UI thread): an
// upload whose outcome was unknown, settled. A j with no ID and no Key only
// takes the row away (no job was created). The selection follows. The
// caller refreshes the table.
func (v *jobsView) replace(old string, j workflow.Job) {
	v.change(old)
	for i := range v.all {
		if v.all[i].Key == old {
			v.all = append(v.all[:i], v.all[i+1:]...)
			delete(v.progress, old)
			break
		}
	}
	if j.Key == "" {
		j.Key = j.ID
	}
	if j.Key == "" {
		return
	}
	if v.selected == old {
		v.selected = j.Key
	}
	v.upsert(j)
}

// change notes that a job's state in the list is newer than the lists
// asked for so far (see keepChanged).
func (v *jobsView) change(key string) {
	if v.changed == nil {
		v.changed = map[string]uint64{}
	}
	v.changed[key] = v.lists.last()
}

func (v *jobsView) setProgress(key string, done, total int64) {
	if total > 0 {
		v.progress[key] = float64(done) / float64(total)
	}
}

func (v *jobsView) refreshTable() {
	v.applyFilter()
}

func sortJobs(jobs []workflow.Job) {
	sort.SliceStable(jobs, func(i, k int) bool {
		if !jobs[i].CreatedAt.Equal(jobs[k].CreatedAt) {
			return jobs[i].CreatedAt.After(jobs[k].CreatedAt)
		}
		return jobs[i].Key > jobs[k].Key
	})
}

// applyFilter rebuilds the shown rows from the filters (UI thread).
func (v *jobsView) applyFilter() {
	if v.table == nil || v.kind == nil || v.status == nil {
		return
	}
	kind, status := v.kind.Selected, v.status.Selected
	v.shown = v.shown[:0]
	for _, j := range v.all {
		if matchKind(j, kind) && matchStatus(j, status) {
			v.shown = append(v.shown, j)
		}
	}
	if len(v.all) == 0 {
		v.empty.Show()
		v.table.Hide()
	} else {
		v.empty.Hide()
		v.table.Show()
	}
	v.table.Refresh()
	v.showDetail()
}

func matchKind(j workflow.Job, choice string) bool {
	switch choice {
	case "Traces":
		return j.Kind == jobs.KindTrace
	case "Single lookups":
		return j.Kind == jobs.KindSingle
	case "DNC scrubs":
		return j.Kind == jobs.KindDNC
	}
	return true
}

func matchStatus(j workflow.Job, choice string) bool {
	switch choice {
	case "Processing":
		return !j.Final() && j.Status != jobs.StatusUnknown
	case "Completed":
		return j.Status == "completed"
	case "Failed":
		return j.Status == "failed"
	case "Unknown":
		return j.Status == jobs.StatusUnknown
	}
	return true
}

func (v *jobsView) anyProcessing() bool {
	for _, j := range v.shown {
		if j.Status == "processing" {
			return true
		}
	}
	return false
}

// length is the table's size; no rows until the table has a height (see
// viewer.length).
func (v *jobsView) length() (int, int) {
	if v.table.Size().Height <= 0 {
		return 0, len(jobColumns)
	}
	return len(v.shown), len(jobColumns)
}

// createCell is a label over a background that marks the selected job's
// whole row (the table itself marks only the cell tapped).
func (v *jobsView) createCell() fyne.CanvasObject {
	l := widget.NewLabel("")
	l.Truncation = fyne.TextTruncateEllipsis
	return container.NewStack(canvas.NewRectangle(color.Transparent), l)
}

func (v *jobsView) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	c := o.(*fyne.Container)
	bg, l := c.Objects[0].(*canvas.Rectangle), c.Objects[1].(*widget.Label)
	if id.Row < 0 || id.Row >= len(v.shown) {
		l.SetText("")
		bg.FillColor = color.Transparent
		bg.Refresh()
		return
	}
	j := v.shown[id.Row]
	var fill color.Color = color.Transparent
	if v.selected != "" && j.Key == v.selected {
		fill = theme.Color(theme.ColorNameSelection)
	}
	if bg.FillColor != fill {
		bg.FillColor = fill
		bg.Refresh()
	}
	l.SetText(jobCell(j, id.Col, time.Now(), v.progress))
}

// jobCell is the text of one cell of the jobs table.
func jobCell(j workflow.Job, col int, now time.Time, progress map[string]float64) string {
	done := j.Final()
	switch col {
	case 0:
		return j.Name
	case 1:
		return jobKindText(j)
	case 2:
		return statusText(j, now, progress)
	case 3:
		if j.CreatedAt.IsZero() {
			return ""
		}
		return j.CreatedAt.Local().Format("Jan 2 15:04")
	case 4:
		return jobs.Thousands(int64(j.Rows))
	case 5:
		return settledFigure(done, int64(j.Matches))
	case 6:
		return jobs.Thousands(j.Charged)
	case 7:
		return settledFigure(done, j.Refunded)
	case 8:
		return settledFigure(done, j.Net())
	case 9:
		return tiersText(j)
	case 10:
		return j.SubmittedBy
	}
	return ""
}

// jobKindText names a job's kind in the list.
func jobKindText(j workflow.Job) string {
	switch {
	case j.Kind == jobs.KindSingle:
		return "Single"
	case j.Kind == jobs.KindDNC:
		return "DNC"
	case j.Mode == "enhanced":
		return "Trace (enh.)"
	}
	return "Trace"
}

// settledFigure is a figure known once the job is final ("—" before).
func settledFigure(final bool, n int64) string {
	if !final {
		return "—"
	}
	return jobs.Thousands(n)
}

// tiersText is a trace's rows by tier, as the column's title reads:
// individuals / LLCs ("—" for individuals not known yet); a trace that
// left its company rows out says so, once its settings were read (its
// mode known: a job recorded as it was submitted has not had the API's
// answer yet); blank otherwise, and for a scrub, which has no tiers.
// Short enough for the column's width.
func tiersText(j workflow.Job) string {
	switch b := j.Breakdown; {
	case b != nil:
		return fmt.Sprintf("%s / %s", jobs.Thousands(int64(b.Individuals.Rows)), jobs.Thousands(int64(b.LLCs.Rows)))
	case j.IncludeLLCs:
		return "— / " + jobs.Thousands(int64(j.EntityRows))
	case j.Kind == jobs.KindTrace && j.Mode != "":
		return "ind. only"
	}
	return ""
}

func statusText(j workflow.Job, now time.Time, progress map[string]float64) string {
	switch j.Status {
	case "processing":
		if j.CreatedAt.IsZero() {
			return "Processing"
		}
		return "Processing · " + elapsed(now.Sub(j.CreatedAt))
	case "completed":
		if p, ok := progress[j.Key]; ok && p < 1 {
			return fmt.Sprintf("Completed · downloading %d%%", int(p*100))
		}
		if j.ResultPath != "" {
			return "Completed · downloaded"
		}
		return "Completed"
	case "failed":
		if j.ErrorMessage != "" {
			return "Failed: " + j.ErrorMessage
		}
		return "Failed"
	case jobs.StatusUnknown:
		return "Unknown — may be charged"
	case "":
		return "—"
	}
	s := string(j.Status)
	return strings.ToUpper(s[:1]) + s[1:]
}

func elapsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

func (v *jobsView) onSelected(id widget.TableCellID) {
	if id.Row >= 0 && id.Row < len(v.shown) {
		v.selected = v.shown[id.Row].Key
	}
	// The table's own mark of the tapped cell goes: it stayed on a row
	// number, and marked half a cell of another job when the list moved.
	// The row's background follows the selected job.
	v.table.UnselectAll()
	v.table.Refresh()
	v.showDetail()
}

// current is the selected job, if still shown.
func (v *jobsView) current() (workflow.Job, bool) {
	for _, j := range v.shown {
		if j.Key == v.selected && v.selected != "" {
			return j, true
		}
	}
	return workflow.Job{}, false
}

// byID finds a job of the list (shown or filtered out) by its id or key.
func (v *jobsView) byID(id string) (workflow.Job, bool) {
	for _, j := range v.all {
		if j.ID == id || j.Key == id {
			return j, true
		}
	}
	return workflow.Job{}, false
}

// selectJob selects the job with key (tests and the harness use it).
func (v *jobsView) selectJob(key string) bool {
	for i, j := range v.shown {
		if j.Key == key || j.ID == key {
			v.table.Select(widget.TableCellID{Row: i, Col: 0})
			v.selected = j.Key
			v.showDetail()
			return true
		}
	}
	return false
}

func (v *jobsView) showDetail() {
	j, ok := v.current()
	v.updateActions()
	if !ok {
		switch {
		case v.loadProblem != "":
			v.detail.SetText(v.loadProblem)
		case len(v.all) > 0:
			v.detail.SetText(plural(len(v.shown), "job", "jobs") + " shown. Select a job to see its details and actions.")
		}
		return
	}
	var b strings.Builder
	b.WriteString(j.Name)
	b.WriteString(" — ")
	b.WriteString(statusText(j, time.Now(), v.progress))
	if j.Final() {
		fmt.Fprintf(&b, ". %s rows, %s matches, charged %s, refunded %s, net %s credits.",
			jobs.Thousands(int64(j.Rows)), jobs.Thousands(int64(j.Matches)), jobs.Thousands(j.Charged), jobs.Thousands(j.Refunded), jobs.Thousands(j.Net()))
	} else {
		fmt.Fprintf(&b, ". %s rows, charged %s credits.", jobs.Thousands(int64(j.Rows)), jobs.Thousands(j.Charged))
	}
	if br := j.Breakdown; br != nil {
		fmt.Fprintf(&b, " Individuals: %s rows at %d, %s matches. LLCs: %s rows at %d, %s matches.",
			jobs.Thousands(int64(br.Individuals.Rows)), br.Individuals.Rate, jobs.Thousands(int64(br.Individuals.Match)),
			jobs.Thousands(int64(br.LLCs.Rows)), br.LLCs.Rate, jobs.Thousands(int64(br.LLCs.Match)))
	}
	if j.SubmittedBy != "" {
		fmt.Fprintf(&b, " Submitted by %s.", j.SubmittedBy)
	}
	if j.Status == jobs.StatusUnknown {
		b.WriteString(" The upload was interrupted: it may have been created and charged. Reconcile asks the server whether it was " +
			"(it then shows here as created, with its charge, or as not created, with nothing charged); do not submit the file again.")
	}
	if j.CanRetryWebhook() && !v.sh.settings().WebhookEnabled {
		b.WriteString(" Resend webhook is off: no webhook is set up (Settings › Receive webhooks).")
	}
	if j.Problem != "" {
		b.WriteString(" The service reported " + j.Problem + ": these figures cannot be right, so they are shown as reported and left out of every total.")
	}
	v.detail.SetText(b.String())
	if v.content != nil {
		// The detail's lines changed: the list gives up the room they take.
		v.content.Refresh()
	}
}

func setEnabled(b *widget.Button, on bool) {
	if on {
		b.Enable()
	} else {
		b.Disable()
	}
}

func (v *jobsView) updateActions() {
	j, ok := v.current()
	setEnabled(v.openBtn, ok && j.HasResult())
	setEnabled(v.folderBtn, ok && j.ResultPath != "")
	setEnabled(v.xlsxBtn, ok && j.HasResult())
	setEnabled(v.callableBtn, ok && j.HasResult())
	setEnabled(v.scrubBtn, ok && j.Kind == jobs.KindTrace && j.HasResult())
	// Resending needs a webhook to receive it (showDetail says so).
	setEnabled(v.webhookBtn, ok && j.CanRetryWebhook() && v.sh.settings().WebhookEnabled)
	setEnabled(v.reconcileBtn, ok && j.Status == jobs.StatusUnknown)
}

// ensureDownloaded calls then with the job once its result is on disk,
// downloading it first (with progress and Cancel) when needed.
func (v *jobsView) ensureDownloaded(j workflow.Job, then func(workflow.Job)) {
	if j.ResultPath != "" {
		then(j)
		return
	}
	withProgressOf(v.sh, "Downloading "+j.Name, func(ctx context.Context, progress func(int64, int64)) (workflow.Job, error) {
		return v.be.Download(ctx, j, progress)
	}, orShowError(v.sh, func(got workflow.Job) {
		v.upsert(got)
		v.refreshTable()
		then(got)
	}))
}

func (v *jobsView) onOpen() {
	j, ok := v.current()
	if !ok {
		return
	}
	v.ensureDownloaded(j, func(j workflow.Job) { v.openViewer(j.ResultPath, j.Name) })
}

func (v *jobsView) onShowFolder() {
	j, ok := v.current()
	if !ok || j.ResultPath == "" {
		return
	}
	v.sh.showInFolder(j.ResultPath)
}

func (v *jobsView) onExport(callable bool) {
	if j, ok := v.current(); ok {
		v.export(j, callable)
	}
}

// onScrub starts a DNC scrub of a completed trace's phones.
func (v *jobsView) onScrub() {
	j, ok := v.current()
	if !ok || j.Kind != jobs.KindTrace {
		return
	}
	v.ensureDownloaded(j, func(j workflow.Job) { v.scrubTrace(j.ResultPath, j.ID) })
}

// export writes j's result (or its callable list, after the person's
// choices) to the output folder.
func (v *jobsView) export(j workflow.Job, callable bool) {
	v.ensureDownloaded(j, func(j workflow.Job) {
		if !callable {
			v.exportJob(j, nil)
			return
		}
		if j.Kind != jobs.KindTrace {
			v.exports.askCallableChoices(j.Name, false, func(c workflow.CallableChoices) { v.exportJob(j, &c) })
			return
		}
		// A trace never scrubbed: the scrub is offered, priced, before
		// any other question.
		background(v.sh, v.sh.ctx, func(ctx context.Context) (*workflow.ScrubOffer, error) {
			return v.be.ScrubFirst(ctx, j)
		}, func(offer *workflow.ScrubOffer, err error) {
			switch {
			case err != nil:
				v.sh.showError(err)
			case offer != nil:
				v.askScrubFirst(j, *offer)
			default:
				v.exports.askCallableChoices(j.Name, false, func(c workflow.CallableChoices) { v.exportJob(j, &c) })
			}
		})
	})
}

// pendingExport is a callable list asked for before its trace's scrub:
// its choices and where it goes.
type pendingExport struct {
	choices workflow.CallableChoices
	dest    string
}

// askScrubFirst offers the scrub a trace's callable list needs, with its
// price; on yes the person chooses the list's options and where it goes,
// the scrub's wizard opens, and when the scrub completes the list is
// written by itself.
func (v *jobsView) askScrubFirst(j workflow.Job, offer workflow.ScrubOffer) {
	price := "at the DNC rate per phone"
	if offer.Credits >= 0 {
		price = jobs.Thousands(offer.Credits) + " credits"
	}
	msg := widget.NewLabel(fmt.Sprintf("The callable list leaves out the numbers on the Do-Not-Call registry and the litigator list, "+
		"so the %s phone numbers of %s need a DNC scrub first: %s. "+
		"Choose the list's options and where to save it now; it is written when the scrub completes.",
		jobs.Thousands(int64(offer.Phones)), j.Name, price))
	msg.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm("Scrub the phones first?", "Scrub first", "Cancel", msg, func(ok bool) {
		if !ok {
			return
		}
		v.exports.askCallableChoices(j.Name, false, func(c workflow.CallableChoices) {
			v.exports.askSavePath(workflow.ExportName(j.Name, "callable", ".xlsx"), func(dest string) {
				v.finish[j.ID] = pendingExport{choices: c, dest: dest}
				v.scrubTrace(j.ResultPath, j.ID)
			})
		})
	}, v.sh.win)
	d.Resize(fyne.NewSize(560, 0))
	keys.Track(v.sh.win, d, d.Confirm, nil)
	v.scrubAsk = d
	d.SetOnClosed(func() { v.scrubAsk = nil })
	d.Show()
	v.sh.fire("scrub-first")
}

// exportJob asks where to save j's result, or its callable list with
// choices c, then writes it there.
func (v *jobsView) exportJob(j workflow.Job, c *workflow.CallableChoices) {
	what := ""
	if c != nil {
		what = "callable"
	}
	name := j.Name // the job's: the person's file and its tag
	if name == "" {
		name = j.ResultPath
	}
	v.exports.askSavePath(workflow.ExportName(name, what, ".xlsx"), func(dest string) { v.exportJobTo(j, c, dest) })
}

// exportJobTo writes j's result, or its callable list with choices c, to
// dest. A trace whose phones were never scrubbed is offered a scrub; a
// stale scrub, one of just its numbers, linked to the trace.
func (v *jobsView) exportJobTo(j workflow.Job, c *workflow.CallableChoices, dest string) {
	sh := v.sh
	withProgressOf(sh, "Exporting "+j.Name, func(ctx context.Context, progress func(int64, int64)) (*workflow.ExportReport, error) {
		return v.be.ExportJob(ctx, j, dest, c, progress)
	}, func(rep *workflow.ExportReport, err error) {
		if errors.Is(err, workflow.ErrNeedScrub) {
			dropEmpty(dest)
			dialog.ShowConfirm("Scrub these phones first?",
				"The callable list leaves out the numbers on the Do-Not-Call registry and the litigator list,\n"+
					"so the trace's phones need a DNC scrub first (at the DNC rate per phone).\n"+
					"Start the scrub now? When it completes, export the callable list again.",
				func(ok bool) {
					if ok {
						v.scrubTrace(j.ResultPath, j.ID)
					}
				}, sh.win)
			return
		}
		var rescrub func(path string)
		if j.Kind == jobs.KindTrace {
			// A scrub of the trace's phones: its callable list uses it.
			rescrub = func(path string) { v.rescrubTrace(path, j.ID) }
		}
		v.exports.ended(dest, rep, err, c, func() { v.openViewer(j.ResultPath, j.Name) },
			rescrub, func(cc workflow.CallableChoices) { v.exportJobTo(j, &cc, dest) })
	})
}

func (v *jobsView) onRetryWebhook() {
	j, ok := v.current()
	if !ok || !j.CanRetryWebhook() {
		return
	}
	a := v.sh
	backgroundErr(a, a.ctx, func(ctx context.Context) error { return v.be.RetryWebhook(ctx, j) }, a.orShow(func() {
		a.showMessage("Webhook queued", "A fresh delivery of the job's webhook was queued for the address set on the API key.")
	}))
}

func (v *jobsView) onReconcile() {
	j, ok := v.current()
	if !ok || j.Status != jobs.StatusUnknown {
		return
	}
	a := v.sh
	type answer struct {
		job   workflow.Job
		alike []workflow.LookAlike
	}
	background(a, a.ctx, func(ctx context.Context) (answer, error) {
		got, alike, err := v.be.ReconcileJob(ctx, j)
		return answer{got, alike}, err
	}, func(ans answer, err error) {
		if err != nil {
			a.showError(err)
			return
		}
		got := ans.job
		if len(ans.alike) > 0 && got.Status == jobs.StatusUnknown {
			v.askLookAlikes(j, ans.alike)
			return
		}
		v.replace(j.Key, got)
		v.refreshTable()
		if got.Status == jobs.StatusNotCreated {
			a.showMessage("No job was created", "The upload never reached the server as a job: nothing was charged. You can submit the file again.")
			v.reload(nil)
			return
		}
		if got.Status == jobs.StatusUnknown {
			a.showMessage("Still unknown", "The server's lists hold no job for this upload yet. If the connection was cut early, nothing was charged; check again later before submitting the file again.")
		} else {
			a.showMessage("Reconciled", fmt.Sprintf("The upload did reach the server: job %s, %s, charged %s credits.", got.ID, statusText(got, time.Now(), nil), jobs.Thousands(got.Charged)))
		}
	})
}

// askLookAlikes shows the jobs that look like an unknown upload without
// proving to be it (the same file name and size, maybe from another
// computer with the same key): the person says which, if any, is theirs.
// Nothing is adopted without their word.
func (v *jobsView) askLookAlikes(j workflow.Job, alike []workflow.LookAlike) {
	a := v.sh
	intro := widget.NewLabel(fmt.Sprintf("SkipDesk found jobs that look like your upload of %s, but none carries its mark: "+
		"they may be someone else's upload of a file with the same name (another computer using this API key). "+
		"Pick yours only if you recognise it; otherwise leave it unknown and check the provider's dashboard.", j.Name))
	intro.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(intro)
	var d *dialog.CustomDialog
	for _, la := range alike {
		la := la
		line := widget.NewLabel(fmt.Sprintf("%s · %s · %s rows · created %s · charged %s", la.JobID, la.Name,
			jobs.Thousands(int64(la.Rows)), la.CreatedAt.Local().Format("Jan 2 15:04:05"), jobs.Credits(la.Charged)))
		line.Truncation = fyne.TextTruncateEllipsis
		mine := widget.NewButton("This is mine", func() {
			d.Hide()
			backgroundErr(a, a.ctx, func(ctx context.Context) error {
				return v.be.Adopt(ctx, j.Submission, la.JobID)
			}, func(err error) {
				a.showError(err) // none when nil
				v.reload(nil)
			})
		})
		box.Add(container.NewBorder(nil, nil, nil, mine, line))
	}
	later := keys.NewPrimary("Leave it unknown", nil, func() { d.Hide() })
	none := widget.NewButton("None: the dashboard shows it was not made", func() {
		d.Hide()
		backgroundErr(a, a.ctx, func(ctx context.Context) error {
			return v.be.Dismiss(ctx, j.Submission, "the person checked the provider's dashboard: none of the look-alikes is this upload")
		}, func(err error) {
			a.showError(err) // none when nil
			v.reload(nil)
		})
	})
	d = dialog.NewCustomWithoutButtons("Is one of these your upload?", container.NewVBox(box, container.NewHBox(layout.NewSpacer(), none, later)), a.win)
	d.Resize(fyne.NewSize(720, 0))
	d.Show()
}

// lastColumnFills lays out the jobs table with its last column widened to
// the table's right edge: a selected row's mark then spans the row, where
// it stopped short of the edge.
type lastColumnFills struct {
	table *widget.Table
	width float32 // the last column's width set
}

func (l *lastColumnFills) MinSize(objs []fyne.CanvasObject) fyne.Size { return objs[0].MinSize() }

func (l *lastColumnFills) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	last := len(jobColumns) - 1
	used := float32(0)
	for _, c := range jobColumns[:last] {
		used += c.width + theme.Padding() // each column and its divider
	}
	// A little short of the edge: a last column too wide scrolls the table.
	w := max(jobColumns[last].width, size.Width-used-3*theme.Padding())
	if w != l.width {
		l.width = w
		l.table.SetColumnWidth(last, w)
	}
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

// scrubTrace opens the DNC scrub on a completed trace's phones. When that
// scrub completes, the callable-list export of the trace is offered.
func (v *jobsView) scrubTrace(resultPath, traceID string) {
	v.flows.ScrubTrace(resultPath, traceID, v.scrubbedFor(traceID))
}

// rescrubTrace opens the DNC scrub on some of a trace's phones (those a
// stale scrub answered); its completion offers the callable list again.
func (v *jobsView) rescrubTrace(phonesPath, traceID string) {
	v.flows.RescrubTrace(phonesPath, traceID, v.scrubbedFor(traceID))
}

// scrubbedFor notes a submitted scrub of the trace's phones, so that its
// completion offers the trace's callable list.
func (v *jobsView) scrubbedFor(traceID string) func(string) {
	return func(dncID string) {
		v.scrubParents[dncID] = traceID
		v.submitted(dncID)
	}
}

// scrubDownloaded: a scrub (dnc) is in the library. When it scrubbed a
// trace's phones, the callable list asked for before it is written, or
// else offered (UI thread). Not at its completion: until its result is
// here the trace still reads as never scrubbed.
func (v *jobsView) scrubDownloaded(dnc workflow.Job) {
	traceID, ok := v.scrubParents[dnc.ID]
	if !ok {
		return
	}
	p, pending := v.finish[traceID]
	if !pending {
		v.offerCallable(dnc)
		return
	}
	delete(v.scrubParents, dnc.ID)
	delete(v.finish, traceID)
	if trace, found := v.byID(traceID); found {
		v.exportJobTo(trace, &p.choices, p.dest)
	}
}

// offerCallable asks, once a scrub of a trace's phones is downloaded,
// whether to export the trace's callable list now (UI thread).
func (v *jobsView) offerCallable(dnc workflow.Job) {
	traceID, ok := v.scrubParents[dnc.ID]
	if !ok {
		return
	}
	delete(v.scrubParents, dnc.ID)
	trace, found := v.byID(traceID)
	if !found {
		return
	}
	msg := widget.NewLabel(fmt.Sprintf("The DNC scrub of %s's phones is done.\n"+
		"Export the callable list now? It holds the trace's rows with each phone's DNC and litigator flags.", trace.Name))
	var d *dialog.CustomDialog
	later := widget.NewButton("Later", func() { d.Hide() })
	v.callableYes = &widget.Button{Text: "Export now", Importance: widget.HighImportance, OnTapped: func() {
		d.Hide()
		v.export(trace, true)
	}}
	d = dialog.NewCustomWithoutButtons("Scrub completed", container.NewVBox(msg, container.NewHBox(layout.NewSpacer(), later, v.callableYes)), v.sh.win)
	d.SetOnClosed(func() { v.callableYes = nil })
	d.Show()
}
