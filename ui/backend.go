package ui

import (
	"context"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/dialer"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/optout"
	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/lookup"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

// The window reaches the rest of the program only through the application
// layer's services (jobs/workflow). Each interface here is what one screen
// uses of one service; Services gathers them, one field a service, and each
// screen is built with its own. Every method may block on disk, network or
// keyring: the window calls them off the UI thread and brings the results
// back with fyne.Do.

// Sessions opens, resumes and closes the connection, and keeps the
// settings (workflow.SessionService): the shell, the first-run screen and
// the settings form.
type Sessions interface {
	// Resume reconnects with the stored key. It returns workflow.ErrNoKey
	// when there is none.
	Resume(ctx context.Context) (workflow.Session, error)
	// Connect checks key against baseURL (GET /account) and then stores it
	// in the keyring; with sessionOnly it is kept in memory only. When the
	// keyring cannot store it, the error matches
	// workflow.ErrKeyringUnavailable and the session is not opened.
	Connect(ctx context.Context, baseURL, key string, sessionOnly bool) (workflow.Session, error)
	// StartSandbox starts the embedded sandbox on loopback with the demo
	// account and connects to it.
	StartSandbox(ctx context.Context) (workflow.Session, error)
	// SignOut removes the key from the keyring and closes the session.
	SignOut(ctx context.Context) error
	AccountReader
	SettingsBackend
	// Home is the data folder.
	Home() string
}

// AccountReader is what the header shows: the account and the rates.
type AccountReader interface {
	Account(ctx context.Context) (*client.Account, error)
	Pricing(ctx context.Context) (*client.Pricing, error)
}

// SettingsBackend keeps the settings and the webhook secret.
type SettingsBackend interface {
	Settings() settings.Settings
	SaveSettings(ctx context.Context, s settings.Settings) error
	// SetWebhookSecret stores the webhook secret in the keyring ("" deletes it).
	SetWebhookSecret(ctx context.Context, secret string) error
}

// JobsBackend is what the jobs list does (workflow.JobService).
type JobsBackend interface {
	// List lists the ledger's jobs merged with the first pages of the
	// API's lists, newest first; more reports older pages.
	List(ctx context.Context, pages int) (jobs []workflow.Job, more bool, err error)
	// Download fetches a completed job's result into the library (when not
	// there yet) and returns the job with ResultPath set.
	Download(ctx context.Context, job workflow.Job, progress func(done, total int64)) (workflow.Job, error)
	RetryWebhook(ctx context.Context, job workflow.Job) error
	// ReconcileJob settles an unknown submission against the API lists;
	// jobs that only look like it come back for the person to recognise.
	ReconcileJob(ctx context.Context, job workflow.Job) (workflow.Job, []workflow.LookAlike, error)
	// Adopt records a look-alike as the submission's job, on the person's word.
	Adopt(ctx context.Context, submission int64, jobID string) error
	// Dismiss records that an unknown submission created no job, on the
	// person's word.
	Dismiss(ctx context.Context, submission int64, why string) error
	// ExportJob writes a job's result to dest (.xlsx or .csv); callable
	// keeps only the phones that may be called.
	ExportJob(ctx context.Context, job workflow.Job, dest string, callable *workflow.CallableChoices, progress func(done, total int64)) (*workflow.ExportReport, error)
	// ScrubFirst says whether a trace's callable list needs a scrub of its
	// phones first, priced (nil: it does not).
	ScrubFirst(ctx context.Context, job workflow.Job) (*workflow.ScrubOffer, error)
	Events
}

// Events are the jobs' events, which the window's event bridge shows.
type Events interface {
	// Subscribe delivers job events to f (from any goroutine) until stop.
	Subscribe(f func(workflow.Event)) (stop func())
	// Refresh asks the tracker to look at every job now.
	Refresh(ctx context.Context) error
}

// ResultsBackend opens, queries and exports results (the viewer) and tells
// which flow a file belongs to (workflow.ResultService).
type ResultsBackend interface {
	// OpenResult opens a result CSV for the viewer (progress in bytes read).
	OpenResult(ctx context.Context, path string, progress func(done, total int64)) (workflow.Result, error)
	// ExportView writes the rows of v (a query of r) to dest (.xlsx or .csv).
	// A view of the callable phones takes the person's choices (nil: the
	// defaults) and gets its proof of scrub.
	ExportView(ctx context.Context, r workflow.Result, v workflow.View, dest string, choices *workflow.CallableChoices,
		progress func(done, total int64)) (*workflow.ExportReport, error)
	// ExportPeople writes the rows of v as the people view shows them, in
	// words (Owner, Phone 1, Phone 1 type, Phone 1 status…).
	ExportPeople(ctx context.Context, r workflow.Result, v workflow.View, dest string, progress func(done, total int64)) (*workflow.ExportReport, error)
	// Classify says which flow a dropped or opened file belongs to.
	Classify(ctx context.Context, path string) (workflow.FileKind, error)
	// CorrectLayout reads r through its layout as the person corrected it,
	// and remembers the correction for files with the same columns.
	CorrectLayout(ctx context.Context, r workflow.Result, c *layout.Correction) error
	// ReadLayout says how each flag column's values read, from every row of
	// the result at path.
	ReadLayout(ctx context.Context, path string) (layout.Summary, error)
	// Recheck reads r again with the internal do-not-call list as it is
	// now and the scrubs' age today.
	Recheck(ctx context.Context, r workflow.Result) error
}

// PresetsBackend lists the dialer and CRM layouts a callable list can be
// written in: SkipDesk's and the person's own (those of the person's that
// cannot be used are in problems) (workflow.PresetService).
type PresetsBackend interface {
	DialerPresets() (presets []*dialer.Preset, problems []error, err error)
}

// InternalBackend keeps the company's own do-not-call list
// (workflow.ComplianceService).
type InternalBackend interface {
	// FindInternal is a window onto the list: the newest entries a search
	// picks, at most limit.
	FindInternal(ctx context.Context, query string, limit int) (workflow.InternalFound, error)
	AddInternal(ctx context.Context, numbers []string, reason, source string) (workflow.InternalAdded, error)
	// ScanListFile counts every column of a file over all its rows and
	// says which are phone-looking.
	ScanListFile(ctx context.Context, path string, progress func(workflow.ListProgress)) (workflow.ListFile, error)
	// ImportInternal puts the numbers of a file's columns on the list.
	ImportInternal(ctx context.Context, req workflow.ListImport, progress func(workflow.ListProgress)) (workflow.ListImported, error)
	ExportInternal(ctx context.Context, dest string) (int, error)
	RemoveInternal(ctx context.Context, number, reason string) error
	// ReadOptOuts reads an SMS tool's, a dialer's or a CRM's export of
	// opt-outs and changes nothing; AddOptOuts puts what it read on the
	// list.
	ReadOptOuts(ctx context.Context, path string, loc *time.Location) (*optout.Import, error)
	AddOptOuts(ctx context.Context, imp *optout.Import) (*workflow.OptOutImport, error)
	StaleScrubs
}

// StaleScrubs lists the numbers of a stale scrub in a phone list, to scrub
// them again (the callable export's offer).
type StaleScrubs interface {
	StalePhones(e *workflow.StaleError) (string, error)
}

// LibraryBackend searches the downloaded results (workflow.LibraryService).
type LibraryBackend interface {
	// SearchLibrary lists the downloaded results; a non-empty query keeps
	// those with a cell containing it (phone, name, address), offline.
	SearchLibrary(ctx context.Context, query string) ([]workflow.LibraryItem, error)
	// ImportResult copies a result made elsewhere (CSV or XLSX, any layout)
	// into the library.
	ImportResult(ctx context.Context, path string, opts workflow.ImportOptions) (workflow.LibraryItem, error)
	// FetchResult brings a result a search found in a teammate's library
	// here (downloaded from the provider once) and returns it with its path.
	FetchResult(ctx context.Context, it workflow.LibraryItem, progress func(done, total int64)) (workflow.LibraryItem, error)
}

// TeamBackend shares this computer's records with a team
// (workflow.TeamService).
type TeamBackend interface {
	// Status says whether this computer shares a team's database.
	Status(ctx context.Context) workflow.TeamStatus
	// ShareWithTeam moves this computer's records into the team's
	// database at url (kept in the keyring) and works on it from then on;
	// name is this computer's name in the team.
	ShareWithTeam(ctx context.Context, url, name string, progress func(workflow.ShareProgress)) (workflow.ShareReport, error)
	// StopSharingPreview says what stopping sharing would copy back.
	StopSharingPreview(ctx context.Context) (workflow.KeptRecords, error)
	// StopSharing copies back what this computer needs on its own and
	// goes back to its own records (refused, nothing changed, when that
	// cannot be done).
	StopSharing(ctx context.Context, progress func(workflow.ShareProgress)) (workflow.KeptRecords, error)
}

// Samples writes the bundled sample owner list to disk
// (workflow.QuoteService).
type Samples interface {
	SampleList(ctx context.Context) (path string, err error)
}

// Services are the application layer's services the window is built with,
// one field a service: each screen takes the one it uses.
type Services struct {
	Sessions   Sessions
	Jobs       JobsBackend
	Results    ResultsBackend
	Library    LibraryBackend
	Compliance InternalBackend
	Presets    PresetsBackend
	Team       TeamBackend
	Samples    Samples
	// Trace is what the wizards use (reading, pricing and submitting a
	// list, its presets); Lookup the single lookup.
	Trace  wizard.TraceBackend
	Lookup lookup.Backend
}

// FromWorkflow is the window's services: the application layer's.
func FromWorkflow(s *workflow.Service) Services {
	return Services{Sessions: s.Sessions(), Jobs: s.Jobs(), Results: s.Results(), Library: s.Library(),
		Compliance: s.Compliance(), Presets: s.Presets(), Team: s.Team(), Samples: s.Quotes(),
		Trace: wizard.FromWorkflow(s), Lookup: lookup.FromWorkflow(s)}
}
