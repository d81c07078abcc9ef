package ui

import (
	"context"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/desk"
	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/ui/lookup"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

// Backend is everything the window needs from the layers below. jobs/desk
// implements it (and the wizard's and the lookup's backends); tests use a
// fake. Every method may block on disk, network or keyring: the window calls
// them off the UI thread and brings the results back with fyne.Do.
type Backend interface {
	// The trace wizard, the DNC scrub and the single lookup run on the same
	// backend.
	wizard.Backend
	lookup.Backend

	// Resume reconnects with the stored key (or the sandbox when the last
	// session was one). It returns desk.ErrNoKey when there is none.
	Resume(ctx context.Context) (desk.Session, error)
	// Connect checks key against baseURL (GET /account) and then stores it
	// in the keyring; with sessionOnly it is kept in memory only. When the
	// keyring cannot store it, the error matches desk.ErrKeyringUnavailable
	// and the session is not opened.
	Connect(ctx context.Context, baseURL, key string, sessionOnly bool) (desk.Session, error)
	// StartSandbox starts the embedded sandbox on loopback with the demo
	// account and connects to it.
	StartSandbox(ctx context.Context) (desk.Session, error)
	// SignOut removes the key from the keyring and closes the session.
	SignOut(ctx context.Context) error

	Account(ctx context.Context) (*client.Account, error)

	// Jobs lists the jobs of the ledger merged with the first pages API
	// pages of traces and DNC jobs, newest first; more reports older pages.
	Jobs(ctx context.Context, pages int) (jobs []desk.Job, more bool, err error)
	// Subscribe delivers tracker events to f (from any goroutine) until stop.
	Subscribe(f func(desk.Event)) (stop func())
	// Refresh asks the tracker to poll now.
	Refresh(ctx context.Context) error
	// Download fetches a completed job's result into the library (when not
	// there yet) and returns the job with ResultPath set.
	Download(ctx context.Context, job desk.Job, progress func(done, total int64)) (desk.Job, error)
	RetryWebhook(ctx context.Context, job desk.Job) error
	// Reconcile settles an unknown submission against the API lists.
	Reconcile(ctx context.Context, job desk.Job) (desk.Job, error)
	// ExportJob writes a job's result to dest (.xlsx or .csv); callable
	// keeps only the phones that may be called (DNC and litigator removed).
	ExportJob(ctx context.Context, job desk.Job, dest string, callable bool, progress func(done, total int64)) error

	// OpenResult opens a result CSV for the viewer (progress in bytes read).
	OpenResult(ctx context.Context, path string, progress func(done, total int64)) (desk.Result, error)
	// ExportView writes the rows of v (a query of r) to dest (.xlsx or .csv).
	ExportView(ctx context.Context, r desk.Result, v desk.View, dest string, progress func(done, total int64)) error
	// SearchLibrary lists the downloaded results; a non-empty query keeps
	// those with a cell containing it (phone, name, address), offline.
	SearchLibrary(ctx context.Context, query string) ([]desk.LibraryItem, error)
	// Classify says which flow a dropped or opened file belongs to.
	Classify(ctx context.Context, path string) (desk.FileKind, error)

	Settings() settings.Settings
	SaveSettings(ctx context.Context, s settings.Settings) error
	// SetWebhookSecret stores the webhook secret in the keyring ("" deletes it).
	SetWebhookSecret(ctx context.Context, secret string) error

	// SampleList is the bundled sample owner list, written to disk.
	SampleList(ctx context.Context) (path string, err error)
}

// The desk facade is the window's backend.
var _ Backend = (*desk.Desk)(nil)
