package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// buildMain builds the main screen for the current session: the SANDBOX bar
// (in the sandbox), the header, the toolbar and the tabs (jobs, library,
// opened results).
func (a *App) buildMain() {
	if a.jobs != nil {
		a.jobs.stop()
	}
	if a.header != nil {
		a.header.stop()
	}
	a.header = newHeader(a.shell, a.svc.Sessions, a.refreshNow, func() { a.refreshAll(nil) })
	a.header.watch()
	a.jobs = newJobsView(a.shell, a.svc.Jobs, a.exports, a.Flows, a.welcomePanel())
	a.jobs.openViewer, a.jobs.submitted = a.openViewer, a.JobSubmitted
	a.library = newLibraryView(a.shell, a.svc.Library, a.openViewerAt)
	a.internal = newInternalView(a.shell, a.svc.Compliance, a.exports, a.recheckViewers)

	toolbar := container.NewHBox(
		// Enter presses them, as Space does, once Tab has reached them.
		keys.NewButtonWithIcon("New trace", theme.ContentAddIcon(), a.onNewTrace),
		keys.NewButtonWithIcon("DNC scrub", theme.ContentAddIcon(), a.onNewDNC),
		keys.NewButtonWithIcon("Single lookup", theme.SearchIcon(), a.onSingleLookup),
		keys.NewButtonWithIcon("Open result…", theme.FolderOpenIcon(), a.onOpenResult),
		keys.NewButtonWithIcon("Settings", theme.SettingsIcon(), a.showSettings),
	)

	jobsTab := container.NewTabItemWithIcon("Jobs", theme.ListIcon(), a.jobs.content)
	libTab := container.NewTabItemWithIcon("Library", theme.StorageIcon(), a.library.content)
	dncTab := container.NewTabItemWithIcon("Do not call", doNotCallIcon, a.internal.content)
	// Fixed tabs: a result's tab closes with the Close button of its viewer
	// (tabs that close showed a "×" on Jobs and Library that did nothing).
	a.tabs = container.NewAppTabs(jobsTab, libTab, dncTab)
	a.tabs.OnSelected = func(item *container.TabItem) {
		switch item {
		case libTab:
			a.library.search()
		case dncTab:
			a.internal.load()
		}
	}

	top := container.NewVBox()
	if a.session.Sandbox {
		a.badge = sandboxBadge(a.showConnect)
		top.Add(a.badge)
	}
	top.Add(container.NewPadded(a.header.content))
	top.Add(toolbar)
	a.main = container.NewBorder(top, nil, nil, nil, a.tabs)
}

// welcomePanel is shown in place of the empty jobs list: the two ways in.
func (a *App) welcomePanel() fyne.CanvasObject {
	title := widget.NewLabelWithStyle("Welcome to SkipDesk", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	var body *widget.Label
	var buttons *fyne.Container
	if a.session.Sandbox {
		body = widget.NewLabel("You are in the sandbox: a practice account with demo credits. Nothing is charged and the results are made up.\n" +
			"Try the sample list to see a whole trace: map the columns, see the cost, submit, and open the result.")
		a.sampleBtn = &widget.Button{Text: "Try the sample list", Icon: theme.MediaPlayIcon(), Importance: widget.HighImportance, OnTapped: a.onTrySample}
		buttons = container.NewHBox(
			a.sampleBtn,
			widget.NewButton("Use my API key…", a.showConnect),
		)
	} else {
		body = widget.NewLabel("No jobs yet. Start a trace from an owner list (CSV or Excel), scrub a phone list against the DNC and litigator lists,\n" +
			"or look up one owner. You can also drop a file on this window.")
		buttons = container.NewHBox(
			keys.NewPrimary("New trace", nil, a.onNewTrace),
			widget.NewButton("DNC scrub", a.onNewDNC),
			widget.NewButton("Single lookup", a.onSingleLookup),
		)
	}
	body.Alignment = fyne.TextAlignCenter
	return container.NewCenter(container.NewVBox(title, body, container.NewCenter(buttons)))
}

// onTrySample opens the trace wizard with the bundled sample owner list.
func (a *App) onTrySample() {
	background(a.shell, a.ctx, a.svc.Samples.SampleList, func(path string, err error) {
		if err != nil {
			a.showError(err)
			return
		}
		a.Flows.NewTrace(path)
	})
}

func (a *App) onNewTrace()     { a.Flows.NewTrace("") }
func (a *App) onNewDNC()       { a.Flows.NewDNC("") }
func (a *App) onSingleLookup() { a.Flows.SingleLookup() }

// reloadJobs reloads the jobs list, when one shows (the records changed).
func (a *App) reloadJobs() {
	if a.jobs != nil {
		a.jobs.reload(nil)
	}
}

// JobSubmitted is called by the wizard and the lookup once a job exists: the
// list reloads and shows it, and the account (balance) refreshes.
func (a *App) JobSubmitted(jobID string) {
	if a.jobs == nil {
		return
	}
	a.tabs.SelectIndex(0)
	a.jobs.reload(func() {
		a.do(func() { a.jobs.selectJob(jobID) })
	})
	a.header.refresh(nil)
}
