//go:build harness

package e2e

import (
	"context"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// Driver is what a person does and sees in the SkipDesk window, grouped by
// screen. The app implements it (package ui, driver_harness.go); the
// end-to-end tests are written against it and the Harness's widget-tree
// helpers (Press, Find, Texts, Menu, ShowTab) alone.
//
// Every method but those marked (any goroutine) must be called on the UI
// thread: inside h.Do, or in a condition given to h.Wait.
type Driver interface {
	App() AppDriver
	Jobs() JobsDriver
	Viewer() ViewerDriver
	Exports() ExportsDriver
	Library() LibraryDriver
	// TraceWizard is the trace wizard opened last (nil before one opens).
	TraceWizard() TraceWizard
	// DNCWizard is the DNC scrub wizard opened last (nil before one opens).
	DNCWizard() DNCWizard
}

// AppDriver is the main window: its files, theme, header and the work done
// the way the wizards do it.
type AppDriver interface {
	// Sandbox reports whether the app talks to the embedded sandbox.
	Sandbox() bool
	// SampleList writes the bundled sample owner list and returns its
	// path (any goroutine).
	SampleList() (string, error)
	// Drop drops the file on the window.
	Drop(path string)
	// NewTrace opens the trace wizard on path ("" for the file picker).
	NewTrace(path string)
	// NewDNC opens the DNC scrub on path.
	NewDNC(path string)
	// SingleLookup opens the single lookup.
	SingleLookup()
	// UseTheme shows the window in a theme ("light", "dark"; "" for the
	// one saved in the settings).
	UseTheme(name string)
	// PlanBar is the text of the header's plan bar ("" while hidden).
	PlanBar() string
	// Offline is the header's "server away" banner ("" when none).
	Offline() string
	// Refresh asks the server for the jobs and the account now.
	Refresh()
	// OpenSettings shows Settings; SettingsOutOfPlace says what in it is
	// laid out wrong ("" when nothing).
	OpenSettings()
	SettingsOutOfPlace() string
	// ShowConnect shows the first-run screen that asks for a key.
	ShowConnect()
	// Submit submits the list at path with its automatic mapping through
	// the application layer, as the trace wizard does, and tells the
	// window (any goroutine). It returns the job's id.
	Submit(ctx context.Context, path string, includeLLCs bool) (string, error)
	// SubmitScrubOf submits the DNC scrub of a trace's phones, as "Scrub
	// phones" does (any goroutine).
	SubmitScrubOf(ctx context.Context, trace workflow.Job) (string, error)
	// FirstPhone is the first valid phone of a result, read through its
	// layout (any goroutine).
	FirstPhone(ctx context.Context, resultPath string) (string, error)
	// AddToCompanyList puts numbers on the company's own do-not-call list
	// (any goroutine).
	AddToCompanyList(ctx context.Context, numbers []string, reason, source string) error
	// CompanyListCount is the count the Do not call tab shows.
	CompanyListCount() string
	// Unplug and Replug take the embedded sandbox server away and back
	// (any goroutine).
	Unplug() error
	Replug() error
}

// JobsDriver is the Jobs tab.
type JobsDriver interface {
	// Shown are the rows of the jobs list, newest first.
	Shown() []workflow.Job
	// Select selects the Jobs tab and, when id is not "", the job.
	Select(id string)
	// WelcomeShown reports whether the welcome panel (no jobs yet) shows.
	WelcomeShown() bool
	// OpenResult downloads (if needed) and opens the job's result in a
	// viewer tab; done is called on the UI thread.
	OpenResult(id string, done func(error))
	// ScrubOffered reports whether the "scrub first" question shows;
	// AcceptScrub answers it yes.
	ScrubOffered() bool
	AcceptScrub()
	// Pending describes what the list waits for (for failure messages).
	Pending() string
}

// ViewerState is what a viewer tab shows.
type ViewerState struct {
	Name, Path string
	Headers    []string
	// Rows are the file's rows read; Shown the rows the filters leave.
	Rows, Shown int
	// Indexed: the whole file is read.
	Indexed bool
	// People: the people-and-phones view shows (not the file's columns).
	People bool
	// Sure: the file's layout is known.
	Sure bool
	// Count is the row count line ("2 of 4 rows", "Filtering…").
	Count string
	// SortCol is the column sorted by (-1 none); Desc when descending.
	SortCol int
	Desc    bool
	// FirstRow is the file row of the first row shown (-1 none).
	FirstRow int
	// CallableFilter: the "Callable" quick filter can be used.
	CallableFilter bool
	// PhoneStates are the states of the phones of the first 50 rows, in
	// words ("not scrubbed", "DNC", ...).
	PhoneStates []string
	// TableHeight is the table's height on screen.
	TableHeight float32
	// Correcting: the correction dialog ("Check the columns") is open.
	Correcting bool
}

// ViewerDriver is the viewer tabs.
type ViewerDriver interface {
	// Open opens path in a new viewer tab, named name ("" for the file's).
	Open(path, name string)
	// Selected is the selected tab's state (false: not a viewer).
	Selected() (ViewerState, bool)
	// All are every viewer tab's states.
	All() []ViewerState
	// Select selects the viewer of path.
	Select(path string)
	// Rows is the selected viewer's row count, -1 while it is not a
	// viewer or its file is still being read.
	Rows() int
	// Close closes the selected viewer with its Close button.
	Close()
	// Quick turns a quick filter of the selected viewer on or off.
	Quick(f jobs.QuickFilter, on bool)
	// TapHeader taps the header of a column of the selected viewer (the
	// file's column name): sorts by it, then reverses; false when it has
	// no such column.
	TapHeader(column string) bool
	// Columns shows the file's columns (not the people view).
	Columns()
	// TypeFilter types r into the filter box; FilterBackspace erases.
	TypeFilter(r rune)
	FilterBackspace()
	// OnQueried is called (UI thread) after each answer of the selected
	// viewer is shown, with its count line.
	OnQueried(f func(count string, err error))
	// OnOpen is called (UI thread) when a viewer shows its first page
	// ("viewer") and when it has read the whole file ("indexed").
	OnOpen(f func(stage string))
	// SetClock sets the selected viewer's clock for the calling times
	// (nil: the real one); Tick makes it read the time again, as its
	// minute's ticker does.
	SetClock(now func() time.Time)
	Tick()
	// Export exports the view (".csv", ".xlsx").
	Export(ext string)
	// CheckColumns opens the correction dialog; Correct chooses how a
	// column's value reads ("" the blank); About chooses the phone a flag
	// column is about (as offered: "Phone 1", "Every phone of the row");
	// ConfirmCorrections applies.
	CheckColumns()
	Correct(column, value, reading string) error
	About(column, phone string) error
	ConfirmCorrections()
	// ShowLastColumn scrolls the table to its last column.
	ShowLastColumn()
	// RefreshTable lays the table out again.
	RefreshTable()
}

// ExportsDriver is the export dialogs.
type ExportsDriver interface {
	// SaveAsking reports whether the save dialog asks where to save.
	SaveAsking() bool
	// Saved is the file the "Saved" message names while it shows.
	Saved() string
	// Folder is the export folder.
	Folder() string
	// CallableChoices reports whether the callable list's choices show,
	// with the dialers' column layouts offered.
	CallableChoices() (shown bool, layouts []string)
	// ChooseCallable picks a layout and "only the phones that may be
	// called right now" (rightNow) in the choices shown.
	ChooseCallable(layout string, rightNow bool)
	// ConfirmCallable and CloseCallable answer the choices.
	ConfirmCallable()
	CloseCallable()
	// StaleRefused reports whether the "scrub too old" refusal shows;
	// Rescrub presses its "scrub them again".
	StaleRefused() bool
	Rescrub()
}

// LibraryHit is a row the library's search found.
type LibraryHit struct {
	Path string
	Row  int
}

// LibraryDriver is the Library tab.
type LibraryDriver interface {
	// Hits are the search's hits; Open opens the i-th.
	Hits() []LibraryHit
	Open(i int)
	// Import imports a result written elsewhere.
	Import(path string)
	// ScrubDateAsked reports whether the import asks when its phones were
	// scrubbed; AnswerScrubDate answers (YYYY-MM-DD).
	ScrubDateAsked() bool
	AnswerScrubDate(date string)
}

// TraceWizard is the trace wizard (ui/wizard's probe).
type TraceWizard interface {
	Ready() bool
	Closed() bool
	Tab(i int)
	Submit() *widget.Button
	Pay() *keys.Button
	Chip(header string) fyne.CanvasObject
	Slot(key string) fyne.CanvasObject
	Choose(key, header string)
	Find(q string) bool
	Reveal(key string)
	Columns() int
	Mapping() map[string]string
	Problems() string
	IncludeLLCs() *keys.Check
	Summary() string
	Reuse() *keys.Check
	PadZips() *keys.Check
	LeaveOutNoAddress() *keys.Check
	CostTotal() string
	CostNote() string
	ShowCost()
	ShowReview()
	Review() workflow.Review
}

// DNCWizard is the DNC scrub wizard (ui/wizard's probe).
type DNCWizard interface {
	Ready() bool
	Closed() bool
	Submit() *widget.Button
	Pay() *keys.Button
	Summary() string
	LeaveOutInvalid() *keys.Check
	ShowInvalid()
	ScrollTop()
	Cost() string
	ShowReview()
	Review() workflow.Review
}
