package workflow

import (
	"context"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
)

// Job is one row of the jobs list: a trace (bulk or single) or a DNC job,
// from the local ledger, the API, or both merged.
type Job struct {
	ID  string // the API id; empty for an unknown submission that never got one
	Key string // stable identity in the list: ID, or the ledger's intent id
	// Submission is the ledger's submission of a row whose outcome is
	// unknown (0 otherwise).
	Submission int64
	Kind       jobs.Kind
	Name       string
	// Status is the API status ("processing", "completed", "failed", or any
	// other value the server sends) or jobs.StatusUnknown.
	Status       jobs.Status
	ErrorMessage string

	Mode        jobs.Mode
	IncludeLLCs bool
	Rows        int
	EntityRows  int
	Matches     int
	NoMatches   int
	Errors      int
	Charged     int64
	Refunded    int64
	Breakdown   *client.Breakdown // traces with include_llcs only

	CreatedAt   time.Time
	CompletedAt time.Time

	// ResultPath is the downloaded result in the library ("" until downloaded).
	ResultPath string
	// MergePending: the job reused earlier rows and their merge with its
	// own result is not written yet (cut short: a crash, the app closed);
	// ResultPath is "" until it is. The window and any `jobs wait` write it.
	MergePending bool
	// Problem says what cannot be right in the figures the service reported
	// ("a negative charge"), "" when nothing: such a job's credits are shown
	// as reported and left out of every total.
	Problem string
	// SubmittedBy names the computer that submitted the job ("" when
	// SkipDesk did not: seen in the API's lists only).
	SubmittedBy string
}

// Net is what the job cost: charged minus refunded.
func (j Job) Net() int64 { return j.Charged - j.Refunded }

// Final reports whether the job will not change any more on the server.
func (j Job) Final() bool { return j.Status.Final() }

// CanRetryWebhook: the API re-fires webhooks of completed or failed jobs only,
// and single traces never fire one.
func (j Job) CanRetryWebhook() bool { return j.Kind != jobs.KindSingle && j.ID != "" && j.Final() }

// HasResult: a result file exists or can be downloaded.
func (j Job) HasResult() bool {
	return j.ResultPath != "" || (j.Status == "completed" && j.Kind != jobs.KindSingle && j.ID != "")
}

// EventKind says what happened to a job.
type EventKind int

// Kinds of event.
const (
	EventStatus   EventKind = iota // the job's status or counts changed
	EventProgress                  // download progress (Done of Total bytes)
	EventCompleted
	EventFailed
	EventAccount    // the account changed (credits after a refund)
	EventDownloaded // the result is in the library (Job.ResultPath)
	EventWarning    // something went wrong and will be tried again (Err)
	EventSettled    // an unknown submission was looked at again (Settled)
	EventIndex      // the library index is being brought up to date (Index)
)

// Event is a change the tracker reports. Job carries the whole new state.
type Event struct {
	Kind        EventKind
	Job         Job
	Done, Total int64 // EventProgress
	// Replaces is the Key of a row that Job takes the place of: an upload
	// whose outcome was unknown, settled. With no Job (no ID, no Key) the
	// row just goes: no job was created and nothing was charged.
	Replaces string
	// Settled says what reconciling decided, on events it caused.
	Settled *Settled
	// Err is what went wrong (EventWarning).
	Err error
	// Index is how far indexing the library is (EventIndex).
	Index *IndexProgress
}

// LibraryItem is one downloaded result.
type LibraryItem struct {
	Path      string
	JobID     string
	Kind      jobs.Kind
	Name      string
	Rows      int
	CreatedAt time.Time
	Size      int64
	// Hits are the matching cells of a search, "column: value", a few at most.
	Hits []string
	// Row is the 1-based row of the result a search found (0: the whole
	// result), and Column the first column that matched.
	Row    int
	Column string
	// Teammate names the computer whose library holds the result, for a
	// search hit in a teammate's result (a team's index): Path is "" then,
	// and FetchResult brings the result here.
	Teammate string
	// merged: the teammate's result is a merged one (FetchResult brings its
	// job's own rows, so the row found is not where it opens).
	merged bool
	// Warnings say what an import left out (a workbook's sheet holding no
	// results); Others are the sheets under other columns than the first's,
	// each imported as a result of its own.
	Warnings []string
	Others   []LibraryItem
}

// Query is a view of a result: filter text (any cell contains it, case
// insensitive), quick filters, and a sort column (-1 for file order).
type Query struct {
	Text    string
	Quick   []jobs.QuickFilter
	SortCol int
	Desc    bool
	// At is the instant "callable-now" is read at; zero: the minute of
	// the query.
	At time.Time
}

// CallingTime is when a phone may be called, in the called person's time
// ("Callable 8 a.m.–8 p.m. CT · now 7:42 p.m."), and whether it may at the
// instant asked (Now: the calling rules allow it; the lists are the
// phone's Block).
type CallingTime struct {
	Now  bool
	Text string
}

// View is a query's rows. Cell only indexes memory: the viewer calls it for
// every visible cell on every frame.
type View interface {
	Len() int
	Cell(row, col int) string
	// Person is row i read through the result's layout: the people, their
	// addresses and e-mails, the match, each phone with its type, flags
	// and whether it may be called. The query's phone filters leave out
	// the phones that fail them.
	Person(i int) layout.Row
	// RowIndex is the 0-based data row in the file of view row i.
	RowIndex(i int) int
}

// Result is an opened result file. As a View it is every row in file order.
type Result interface {
	View
	Path() string
	Headers() []string
	// Layout is how the file is read; its Questions are what SkipDesk is
	// not sure of (the person answers with CorrectLayout).
	Layout() *layout.Layout
	// QuickFilters are the quick filters this result's layout allows;
	// CannotFilter says why another cannot apply.
	QuickFilters() []jobs.QuickFilter
	CannotFilter(f jobs.QuickFilter) error
	// CallingTime says when phone p of row (read through the layout) may
	// be called, at instant at; a zero CallingTime when the calling rules
	// are not loaded.
	CallingTime(row *layout.Row, p *layout.Phone, at time.Time) CallingTime
	// Scrubs are the DNC results whose flags the view carries (the scrubs
	// of a trace's phones), newest first.
	Scrubs() []string
	// Warnings name the damage reading the file got around (nil for a
	// sound file), for the viewer to show above the rows.
	Warnings() []string
	// Index reads the whole file into the viewer's store, reporting
	// progress in bytes: OpenResult returns once the first page can show,
	// and Len counts the rows read until then. A second call waits for
	// the first; Query calls it.
	Index(ctx context.Context, progress func(done, total int64)) error
	// Query builds a view; it honours ctx.
	Query(ctx context.Context, q Query) (View, error)
	Close() error
}

// FileKind is the flow a file belongs to.
type FileKind int

// Kinds of file.
const (
	FileOwners      FileKind = iota // an owner list: the trace wizard
	FilePhones                      // a phone list: the DNC scrub
	FileTraceResult                 // a trace result: the viewer
	FileDNCResult                   // a DNC result: the viewer
)

// DefaultBaseURL pre-fills the first-run screen: the provider's production
// address once known (empty until then).
var DefaultBaseURL = ""
