//go:build harness

package ui

// The end-to-end driver: the one place that reads the window's unexported
// state for the end-to-end tests (the module's e2e package), through the
// e2e.Driver interface. Built only with -tags harness.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/e2e"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

// harness, in a build for tests only: with SKIPDESK_E2E set the app runs
// that end-to-end suite (see package ui/e2e) and exits.
func (a *App) harness(code *int) {
	if name := os.Getenv("SKIPDESK_E2E"); name != "" {
		a.runE2E(name, code)
	}
}

// runE2E arranges for the named end-to-end suite to run once the main
// screen is ready, then quits the app; *code gets the exit code.
// "startup" is special: it prints the time of the first frame and quits
// (the command lists the suites itself: SKIPDESK_E2E=list).
func (a *App) runE2E(name string, code *int) {
	switch name {
	case "startup":
		a.fyne.Lifecycle().SetOnStarted(func() {
			go func() {
				// The first DoAndWait returns after the event loop has run
				// once after start, which draws the first frame.
				fyne.DoAndWait(func() {})
				fyne.DoAndWait(func() { a.win.Canvas().Content() })
				fmt.Printf("first-frame %d\n", time.Now().UnixNano())
				a.end.arm()
				fyne.Do(a.fyne.Quit)
			}()
		})
		return
	}
	suite, ok := e2e.Lookup(name)
	if !ok {
		fmt.Fprintf(os.Stderr, "e2e: no suite %q (have %v)\n", name, e2e.Names())
		*code = 2
		a.fyne.Lifecycle().SetOnStarted(func() { a.end.arm(); fyne.Do(a.fyne.Quit) })
		return
	}
	// The window and the wizard try a server that went away again every
	// 3 seconds, not every 10 or 15: the suites take the sandbox away and
	// bring it back. Each try is busy while the client's retries last
	// (cmd/skipdesk/harness.go: 100 ms doubling to 1 s, about 1–2.5 s in
	// all); with a pause of one second, the header's tries and the
	// wizard's left the app idle at once too seldom for a step that waits
	// for it (Settle) while the server is away.
	a.opts.OfflineRetry, a.opts.Wizard.RetryDelay = 3*time.Second, 3*time.Second
	a.OnReady(func() { go a.runSuite(name, suite, code) })
}

// runSuite runs the suite, says how it ended and quits the app.
func (a *App) runSuite(name string, suite e2e.Script, code *int) {
	h, err := e2e.NewHarness(name, a.fyne, a.win, &driver{a: a})
	if err == nil {
		h.Idle = a.busy.Wait // Settle waits for the window's work in flight
		err = suite(h)
		h.Close()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "e2e: %s: FAIL: %v\n", name, err)
		*code = 1
	} else {
		fmt.Fprintf(os.Stderr, "e2e: %s: ok\n", name)
	}
	// Quit ends the event loop; should it not, the program ends without
	// it (ending), and should closing itself hang, say where. The test
	// measures closing from the time said here to the process's end.
	go exitIfStuck(time.Minute)
	a.end.arm()
	fmt.Fprintf(os.Stderr, "e2e: quit at %d\n", time.Now().UnixNano())
	fyne.Do(a.fyne.Quit)
}

// driver is the App as the end-to-end tests drive it.
type driver struct {
	a *App
	// settings is the Settings form OpenSettings showed last.
	settings *settingsForm
}

var _ e2e.Driver = (*driver)(nil)

func (d *driver) App() e2e.AppDriver         { return appDriver{d} }
func (d *driver) Jobs() e2e.JobsDriver       { return jobsDriver{d.a} }
func (d *driver) Viewer() e2e.ViewerDriver   { return viewerDriver{d.a} }
func (d *driver) Exports() e2e.ExportsDriver { return exportsDriver{d.a} }
func (d *driver) Library() e2e.LibraryDriver { return libraryDriver{d.a} }

// TraceWizard is the trace wizard opened last.
func (d *driver) TraceWizard() e2e.TraceWizard {
	if w := wizard.LastTrace(); w != nil {
		return w
	}
	return nil
}

// DNCWizard is the DNC scrub opened last.
func (d *driver) DNCWizard() e2e.DNCWizard {
	if w := wizard.LastDNC(); w != nil {
		return w
	}
	return nil
}

// appDriver is the main window.
type appDriver struct{ d *driver }

func (x appDriver) Sandbox() bool { return x.d.a.Session().Sandbox }

func (x appDriver) SampleList() (string, error) {
	return x.d.a.svc.Samples.SampleList(x.d.a.ctx)
}

func (x appDriver) Drop(path string) {
	x.d.a.onDropped(fyne.NewPos(300, 300), []fyne.URI{storage.NewFileURI(path)})
}

func (x appDriver) NewTrace(path string) { x.d.a.Flows.NewTrace(path) }
func (x appDriver) NewDNC(path string)   { x.d.a.Flows.NewDNC(path) }
func (x appDriver) SingleLookup()        { x.d.a.Flows.SingleLookup() }

func (x appDriver) UseTheme(name string) {
	if name == "" {
		name = x.d.a.settings().Theme
	}
	x.d.a.applyTheme(name)
}

func (x appDriver) PlanBar() string {
	if b := x.d.a.header.subBar; b.Visible() {
		return b.text
	}
	return ""
}

func (x appDriver) Offline() string { return x.d.a.header.Offline() }
func (x appDriver) Refresh()        { x.d.a.refreshNow() }

func (x appDriver) OpenSettings() {
	x.d.settings = x.d.a.newSettingsForm()
	x.d.settings.dialog.Show()
}

func (x appDriver) SettingsOutOfPlace() string {
	if x.d.settings == nil {
		return "Settings are not open"
	}
	return x.d.settings.outOfPlace()
}

func (x appDriver) ShowConnect() { x.d.a.showConnect() }

func (x appDriver) Submit(ctx context.Context, path string, includeLLCs bool) (string, error) {
	a := x.d.a
	ins, err := a.svc.Trace.Inspect(ctx, path, input.Options{})
	if err != nil {
		return "", err
	}
	plan := workflow.Plan{Kind: jobs.KindTrace, Path: path, Mapping: workflow.Suggest(ins, jobs.KindTrace).Mapping(),
		Mode: jobs.ModeNormal, IncludeLLCs: includeLLCs}
	return x.submit(ctx, plan, ins)
}

func (x appDriver) SubmitScrubOf(ctx context.Context, trace workflow.Job) (string, error) {
	plan, err := x.d.a.svc.Trace.TracePhones(ctx, trace.ResultPath, trace.ID)
	if err != nil {
		return "", err
	}
	ins, err := x.d.a.svc.Trace.Inspect(ctx, plan.Path, input.Options{})
	if err != nil {
		return "", err
	}
	return x.submit(ctx, plan, ins)
}

// submit submits plan and tells the window, as the wizards do.
func (x appDriver) submit(ctx context.Context, plan workflow.Plan, ins *input.Inspection) (string, error) {
	res, err := x.d.a.svc.Trace.Submit(ctx, plan, ins, workflow.SubmitOptions{Again: true})
	if err != nil {
		return "", fmt.Errorf("submit %s: %w", plan.Kind, err)
	}
	fyne.DoAndWait(func() { x.d.a.JobSubmitted(res.JobID) })
	return res.JobID, nil
}

func (x appDriver) FirstPhone(ctx context.Context, resultPath string) (string, error) {
	r, err := x.d.a.svc.Results.OpenResult(ctx, resultPath, nil)
	if err != nil {
		return "", err
	}
	defer r.Close()
	if err := r.Index(ctx, nil); err != nil { // its rows read through the layout
		return "", err
	}
	for i := 0; i < r.Len(); i++ {
		for _, p := range r.Person(i).Phones {
			if p.Valid() {
				return p.Digits(), nil
			}
		}
	}
	return "", errors.New("no phone in " + resultPath)
}

func (x appDriver) AddToCompanyList(ctx context.Context, numbers []string, reason, source string) error {
	_, err := x.d.a.svc.Compliance.AddInternal(ctx, numbers, reason, source)
	return err
}

func (x appDriver) CompanyListCount() string { return x.d.a.internal.count.Text }

func (x appDriver) Unplug() error {
	srv, err := x.server()
	if err != nil {
		return err
	}
	return srv.Unplug()
}

func (x appDriver) Replug() error {
	srv, err := x.server()
	if err != nil {
		return err
	}
	return srv.Replug()
}

func (x appDriver) server() (*sandbox.Server, error) {
	sb, ok := x.d.a.svc.Sessions.(interface{ SandboxServer() *sandbox.Server })
	if !ok || sb.SandboxServer() == nil {
		return nil, errors.New("no embedded sandbox to unplug")
	}
	return sb.SandboxServer(), nil
}

// jobsDriver is the Jobs tab.
type jobsDriver struct{ a *App }

func (x jobsDriver) Shown() []workflow.Job {
	if x.a.jobs == nil {
		return nil
	}
	return append([]workflow.Job(nil), x.a.jobs.shown...)
}

func (x jobsDriver) Select(id string) {
	if x.a.tabs == nil {
		return
	}
	x.a.tabs.SelectIndex(0)
	if id != "" {
		x.a.jobs.selectJob(id)
	}
}

func (x jobsDriver) WelcomeShown() bool {
	return x.a.jobs != nil && x.a.jobs.empty.Visible() && x.a.sampleBtn != nil &&
		!fyne.CurrentApp().Driver().AbsolutePositionForObject(x.a.sampleBtn).IsZero()
}

func (x jobsDriver) OpenResult(id string, done func(error)) {
	j, ok := x.find(id)
	switch {
	case !ok:
		done(errors.New("job " + id + " is not in the list"))
	case !j.HasResult():
		done(errors.New("job " + id + " has no result (status " + string(j.Status) + ")"))
	default:
		x.a.jobs.ensureDownloaded(j, func(j workflow.Job) {
			x.a.openViewer(j.ResultPath, j.Name)
			done(nil)
		})
	}
}

func (x jobsDriver) find(id string) (workflow.Job, bool) {
	if x.a.jobs == nil {
		return workflow.Job{}, false
	}
	i := slices.IndexFunc(x.a.jobs.all, func(j workflow.Job) bool { return j.ID == id || j.Key == id })
	if i < 0 {
		return workflow.Job{}, false
	}
	return x.a.jobs.all[i], true
}

func (x jobsDriver) ScrubOffered() bool { return x.a.jobs.scrubAsk != nil }
func (x jobsDriver) AcceptScrub()       { x.a.jobs.scrubAsk.Confirm() }

func (x jobsDriver) Pending() string {
	return fmt.Sprintf("scrubs %v, lists %v, jobs %+v", x.a.jobs.scrubParents, x.a.jobs.finish, x.Shown())
}

// exportsDriver is the export dialogs.
type exportsDriver struct{ a *App }

func (x exportsDriver) SaveAsking() bool { return x.a.exports.saving }
func (x exportsDriver) Saved() string    { return x.a.exports.saved }
func (x exportsDriver) Folder() string   { return x.a.exports.outputDir() }

func (x exportsDriver) CallableChoices() (bool, []string) {
	ex := x.a.exports
	if ex.callableAsk == nil {
		return false, nil
	}
	var names []string
	if ex.callableLayouts != nil {
		for _, p := range ex.callableLayouts.presets {
			names = append(names, p.Name)
		}
	}
	return true, names
}

func (x exportsDriver) ChooseCallable(layout string, now bool) {
	ex := x.a.exports
	ex.callableLayouts.sel.SetSelected(layout)
	if now {
		ex.callableWhen.sel.SetSelected(rightNow)
	}
}

func (x exportsDriver) ConfirmCallable()   { x.a.exports.callableAsk.Confirm() }
func (x exportsDriver) CloseCallable()     { x.a.exports.callableAsk.Hide() }
func (x exportsDriver) StaleRefused() bool { return x.a.exports.rescrubBtn != nil }
func (x exportsDriver) Rescrub()           { x.a.exports.rescrubBtn.OnTapped() }

// libraryDriver is the Library tab.
type libraryDriver struct{ a *App }

func (x libraryDriver) Hits() []e2e.LibraryHit {
	var out []e2e.LibraryHit
	for _, it := range x.a.library.items {
		out = append(out, e2e.LibraryHit{Path: it.Path, Row: it.Row})
	}
	return out
}

func (x libraryDriver) Open(i int)           { x.a.library.list.Select(i) }
func (x libraryDriver) Import(path string)   { x.a.library.importResult(path) }
func (x libraryDriver) ScrubDateAsked() bool { return x.a.library.scrubAsk != nil }

func (x libraryDriver) AnswerScrubDate(date string) {
	x.a.library.scrubAsk.entry.SetText(date)
	x.a.library.scrubAsk.dialog.Confirm()
}

// viewerDriver is the viewer tabs.
type viewerDriver struct{ a *App }

// selected is the selected tab's viewer (nil: not a viewer).
func (x viewerDriver) selected() *viewer {
	if x.a.tabs == nil {
		return nil
	}
	return x.a.viewers[x.a.tabs.Selected()]
}

func (x viewerDriver) Open(path, name string) { x.a.openViewer(path, name) }

func (x viewerDriver) Selected() (e2e.ViewerState, bool) {
	v := x.selected()
	if v == nil {
		return e2e.ViewerState{}, false
	}
	return stateOf(v), true
}

func (x viewerDriver) All() []e2e.ViewerState {
	var out []e2e.ViewerState
	for _, v := range x.a.viewers {
		out = append(out, stateOf(v))
	}
	return out
}

// stateOf is what the viewer shows.
func stateOf(v *viewer) e2e.ViewerState {
	s := e2e.ViewerState{Name: v.name, Headers: v.headers, Indexed: v.indexed, People: v.people, Count: v.count.Text,
		SortCol: v.q.SortCol, Desc: v.q.Desc, FirstRow: -1, Correcting: v.fixing != nil}
	if v.res != nil {
		s.Path, s.Rows, s.Sure = v.res.Path(), v.res.Len(), v.res.Layout().Sure()
		for i := 0; i < min(v.res.Len(), 50); i++ {
			for _, p := range v.res.Person(i).Phones {
				w, _ := p.StateWords()
				s.PhoneStates = append(s.PhoneStates, w)
			}
		}
	}
	if v.view != nil {
		s.Shown = v.view.Len()
		if s.Shown > 0 {
			s.FirstRow = v.view.RowIndex(0)
		}
	}
	if c := v.quick[jobs.QuickCallable]; c != nil {
		s.CallableFilter = !c.Disabled()
	}
	if v.table != nil {
		s.TableHeight = v.table.Size().Height
	}
	return s
}

func (x viewerDriver) Select(path string) {
	for item, v := range x.a.viewers {
		if v.res != nil && v.res.Path() == path {
			x.a.tabs.Select(item)
		}
	}
}

func (x viewerDriver) Rows() int { return x.a.viewerRows() }

func (x viewerDriver) Close() {
	if v := x.selected(); v != nil {
		x.a.closeViewer(v.item)
	}
}

func (x viewerDriver) Quick(f jobs.QuickFilter, on bool) {
	if v := x.selected(); v != nil && v.quick[f] != nil {
		v.quick[f].SetChecked(on)
	}
}

func (x viewerDriver) TapHeader(column string) bool {
	v := x.selected()
	if v == nil || !slices.Contains(v.headers, column) {
		return false
	}
	v.onHeaderTapped(slices.Index(v.headers, column))
	return true
}

func (x viewerDriver) Columns() {
	if v := x.selected(); v != nil {
		v.mode.SetSelected(modeColumns)
	}
}

func (x viewerDriver) TypeFilter(r rune) {
	if v := x.selected(); v != nil {
		v.filter.TypedRune(r)
	}
}

func (x viewerDriver) FilterBackspace() {
	if v := x.selected(); v != nil {
		v.filter.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
	}
}

func (x viewerDriver) OnQueried(f func(count string, err error)) {
	if v := x.selected(); v != nil {
		v.onQueried = func(err error) { f(v.count.Text, err) }
	}
}

func (x viewerDriver) OnOpen(f func(stage string)) {
	prev := x.a.hook
	x.a.hook = func(p string) {
		if p == "viewer" || p == "indexed" {
			f(p)
		}
		if prev != nil {
			prev(p)
		}
	}
}

func (x viewerDriver) SetClock(now func() time.Time) { x.a.opts.Now = now }

func (x viewerDriver) Tick() {
	if v := x.selected(); v != nil {
		v.onMinute()
	}
}

func (x viewerDriver) Export(ext string) {
	if v := x.selected(); v != nil {
		v.onExport(ext)
	}
}

func (x viewerDriver) CheckColumns() {
	if v := x.selected(); v != nil {
		v.onCheckColumns()
	}
}

func (x viewerDriver) Correct(column, value, reading string) error {
	v := x.selected()
	if v == nil || v.fixing == nil {
		return errors.New("the correction dialog is not open")
	}
	for _, f := range v.fixing.values {
		if f.column == column && f.value == value {
			f.choice.SetSelected(reading)
			return nil
		}
	}
	return fmt.Errorf("the dialog offers no reading of %q in %q", value, column)
}

func (x viewerDriver) About(column, phone string) error {
	v := x.selected()
	if v == nil || v.fixing == nil {
		return errors.New("the correction dialog is not open")
	}
	for _, f := range v.fixing.columns {
		if f.col.Header == column && f.phone != nil && slices.Contains(f.phone.Options, phone) {
			f.phone.SetSelected(phone)
			return nil
		}
	}
	return fmt.Errorf("the dialog offers no phone %q for %q", phone, column)
}

func (x viewerDriver) ConfirmCorrections() {
	if v := x.selected(); v != nil && v.fixing != nil {
		v.fixing.dialog.Confirm()
	}
}

func (x viewerDriver) ShowLastColumn() {
	if v := x.selected(); v != nil {
		v.mode.SetSelected(modeColumns)
		v.table.ScrollTo(widget.TableCellID{Row: 0, Col: len(v.headers) - 1})
		v.table.Refresh()
	}
}

func (x viewerDriver) RefreshTable() {
	if v := x.selected(); v != nil && v.table != nil {
		v.table.Refresh()
	}
}
