// Package mock has the window's services as function fields (one type a
// service, after benbjohnson/wtf's mock package): a test sets the functions
// its screen calls, and a call to one it did not set panics, naming it.
// Each type implements the ui interface of the same service.
package mock

import (
	"context"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/dialer"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/optout"
	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// must panics, naming the method, when a test calls one it did not set.
func must(set bool, method string) {
	if !set {
		panic("mock." + method + " is not set")
	}
}

// Sessions is the window's Sessions (workflow.SessionService).
type Sessions struct {
	ResumeFn           func(ctx context.Context) (workflow.Session, error)
	ConnectFn          func(ctx context.Context, baseURL, key string, sessionOnly bool) (workflow.Session, error)
	StartSandboxFn     func(ctx context.Context) (workflow.Session, error)
	SignOutFn          func(ctx context.Context) error
	HomeFn             func() string
	AccountFn          func(ctx context.Context) (*client.Account, error)
	PricingFn          func(ctx context.Context) (*client.Pricing, error)
	SettingsFn         func() settings.Settings
	SaveSettingsFn     func(ctx context.Context, s settings.Settings) error
	SetWebhookSecretFn func(ctx context.Context, secret string) error
}

// Resume calls ResumeFn.
func (m *Sessions) Resume(ctx context.Context) (workflow.Session, error) {
	must(m.ResumeFn != nil, "Sessions.Resume")
	return m.ResumeFn(ctx)
}

// Connect calls ConnectFn.
func (m *Sessions) Connect(ctx context.Context, baseURL, key string, sessionOnly bool) (workflow.Session, error) {
	must(m.ConnectFn != nil, "Sessions.Connect")
	return m.ConnectFn(ctx, baseURL, key, sessionOnly)
}

// StartSandbox calls StartSandboxFn.
func (m *Sessions) StartSandbox(ctx context.Context) (workflow.Session, error) {
	must(m.StartSandboxFn != nil, "Sessions.StartSandbox")
	return m.StartSandboxFn(ctx)
}

// SignOut calls SignOutFn.
func (m *Sessions) SignOut(ctx context.Context) error {
	must(m.SignOutFn != nil, "Sessions.SignOut")
	return m.SignOutFn(ctx)
}

// Home calls HomeFn.
func (m *Sessions) Home() string {
	must(m.HomeFn != nil, "Sessions.Home")
	return m.HomeFn()
}

// Account calls AccountFn.
func (m *Sessions) Account(ctx context.Context) (*client.Account, error) {
	must(m.AccountFn != nil, "Sessions.Account")
	return m.AccountFn(ctx)
}

// Pricing calls PricingFn.
func (m *Sessions) Pricing(ctx context.Context) (*client.Pricing, error) {
	must(m.PricingFn != nil, "Sessions.Pricing")
	return m.PricingFn(ctx)
}

// Settings calls SettingsFn.
func (m *Sessions) Settings() settings.Settings {
	must(m.SettingsFn != nil, "Sessions.Settings")
	return m.SettingsFn()
}

// SaveSettings calls SaveSettingsFn.
func (m *Sessions) SaveSettings(ctx context.Context, s settings.Settings) error {
	must(m.SaveSettingsFn != nil, "Sessions.SaveSettings")
	return m.SaveSettingsFn(ctx, s)
}

// SetWebhookSecret calls SetWebhookSecretFn.
func (m *Sessions) SetWebhookSecret(ctx context.Context, secret string) error {
	must(m.SetWebhookSecretFn != nil, "Sessions.SetWebhookSecret")
	return m.SetWebhookSecretFn(ctx, secret)
}

// Jobs is the window's JobsBackend (workflow.JobService).
type Jobs struct {
	ListFn         func(ctx context.Context, pages int) (jobs []workflow.Job, more bool, err error)
	DownloadFn     func(ctx context.Context, job workflow.Job, progress func(done, total int64)) (workflow.Job, error)
	RetryWebhookFn func(ctx context.Context, job workflow.Job) error
	ReconcileJobFn func(ctx context.Context, job workflow.Job) (workflow.Job, []workflow.LookAlike, error)
	AdoptFn        func(ctx context.Context, submission int64, jobID string) error
	DismissFn      func(ctx context.Context, submission int64, why string) error
	ExportJobFn    func(ctx context.Context, job workflow.Job, dest string, callable *workflow.CallableChoices, progress func(done, total int64)) (*workflow.ExportReport, error)
	ScrubFirstFn   func(ctx context.Context, job workflow.Job) (*workflow.ScrubOffer, error)
	SubscribeFn    func(f func(workflow.Event)) (stop func())
	RefreshFn      func(ctx context.Context) error
}

// List calls ListFn.
func (m *Jobs) List(ctx context.Context, pages int) (jobs []workflow.Job, more bool, err error) {
	must(m.ListFn != nil, "Jobs.List")
	return m.ListFn(ctx, pages)
}

// Download calls DownloadFn.
func (m *Jobs) Download(ctx context.Context, job workflow.Job, progress func(done, total int64)) (workflow.Job, error) {
	must(m.DownloadFn != nil, "Jobs.Download")
	return m.DownloadFn(ctx, job, progress)
}

// RetryWebhook calls RetryWebhookFn.
func (m *Jobs) RetryWebhook(ctx context.Context, job workflow.Job) error {
	must(m.RetryWebhookFn != nil, "Jobs.RetryWebhook")
	return m.RetryWebhookFn(ctx, job)
}

// ReconcileJob calls ReconcileJobFn.
func (m *Jobs) ReconcileJob(ctx context.Context, job workflow.Job) (workflow.Job, []workflow.LookAlike, error) {
	must(m.ReconcileJobFn != nil, "Jobs.ReconcileJob")
	return m.ReconcileJobFn(ctx, job)
}

// Adopt calls AdoptFn.
func (m *Jobs) Adopt(ctx context.Context, submission int64, jobID string) error {
	must(m.AdoptFn != nil, "Jobs.Adopt")
	return m.AdoptFn(ctx, submission, jobID)
}

// Dismiss calls DismissFn.
func (m *Jobs) Dismiss(ctx context.Context, submission int64, why string) error {
	must(m.DismissFn != nil, "Jobs.Dismiss")
	return m.DismissFn(ctx, submission, why)
}

// ScrubFirst calls ScrubFirstFn.
func (m *Jobs) ScrubFirst(ctx context.Context, job workflow.Job) (*workflow.ScrubOffer, error) {
	must(m.ScrubFirstFn != nil, "Jobs.ScrubFirst")
	return m.ScrubFirstFn(ctx, job)
}

// ExportJob calls ExportJobFn.
func (m *Jobs) ExportJob(ctx context.Context, job workflow.Job, dest string, callable *workflow.CallableChoices, progress func(done, total int64)) (*workflow.ExportReport, error) {
	must(m.ExportJobFn != nil, "Jobs.ExportJob")
	return m.ExportJobFn(ctx, job, dest, callable, progress)
}

// Subscribe calls SubscribeFn.
func (m *Jobs) Subscribe(f func(workflow.Event)) (stop func()) {
	must(m.SubscribeFn != nil, "Jobs.Subscribe")
	return m.SubscribeFn(f)
}

// Refresh calls RefreshFn.
func (m *Jobs) Refresh(ctx context.Context) error {
	must(m.RefreshFn != nil, "Jobs.Refresh")
	return m.RefreshFn(ctx)
}

// Results is the window's ResultsBackend (workflow.ResultService).
type Results struct {
	OpenResultFn    func(ctx context.Context, path string, progress func(done, total int64)) (workflow.Result, error)
	ExportViewFn    func(ctx context.Context, r workflow.Result, v workflow.View, dest string, choices *workflow.CallableChoices, progress func(done, total int64)) (*workflow.ExportReport, error)
	ExportPeopleFn  func(ctx context.Context, r workflow.Result, v workflow.View, dest string, progress func(done, total int64)) (*workflow.ExportReport, error)
	ClassifyFn      func(ctx context.Context, path string) (workflow.FileKind, error)
	CorrectLayoutFn func(ctx context.Context, r workflow.Result, c *layout.Correction) error
	ReadLayoutFn    func(ctx context.Context, path string) (layout.Summary, error)
	RecheckFn       func(ctx context.Context, r workflow.Result) error
}

// OpenResult calls OpenResultFn.
func (m *Results) OpenResult(ctx context.Context, path string, progress func(done, total int64)) (workflow.Result, error) {
	must(m.OpenResultFn != nil, "Results.OpenResult")
	return m.OpenResultFn(ctx, path, progress)
}

// ExportView calls ExportViewFn.
func (m *Results) ExportView(ctx context.Context, r workflow.Result, v workflow.View, dest string, choices *workflow.CallableChoices, progress func(done, total int64)) (*workflow.ExportReport, error) {
	must(m.ExportViewFn != nil, "Results.ExportView")
	return m.ExportViewFn(ctx, r, v, dest, choices, progress)
}

// ExportPeople calls ExportPeopleFn.
func (m *Results) ExportPeople(ctx context.Context, r workflow.Result, v workflow.View, dest string, progress func(done, total int64)) (*workflow.ExportReport, error) {
	must(m.ExportPeopleFn != nil, "Results.ExportPeople")
	return m.ExportPeopleFn(ctx, r, v, dest, progress)
}

// Classify calls ClassifyFn.
func (m *Results) Classify(ctx context.Context, path string) (workflow.FileKind, error) {
	must(m.ClassifyFn != nil, "Results.Classify")
	return m.ClassifyFn(ctx, path)
}

// CorrectLayout calls CorrectLayoutFn.
func (m *Results) CorrectLayout(ctx context.Context, r workflow.Result, c *layout.Correction) error {
	must(m.CorrectLayoutFn != nil, "Results.CorrectLayout")
	return m.CorrectLayoutFn(ctx, r, c)
}

// ReadLayout calls ReadLayoutFn.
func (m *Results) ReadLayout(ctx context.Context, path string) (layout.Summary, error) {
	must(m.ReadLayoutFn != nil, "Results.ReadLayout")
	return m.ReadLayoutFn(ctx, path)
}

// Recheck calls RecheckFn.
func (m *Results) Recheck(ctx context.Context, r workflow.Result) error {
	must(m.RecheckFn != nil, "Results.Recheck")
	return m.RecheckFn(ctx, r)
}

// Library is the window's LibraryBackend (workflow.LibraryService).
type Library struct {
	SearchLibraryFn func(ctx context.Context, query string) ([]workflow.LibraryItem, error)
	ImportResultFn  func(ctx context.Context, path string, opts workflow.ImportOptions) (workflow.LibraryItem, error)
	FetchResultFn   func(ctx context.Context, it workflow.LibraryItem, progress func(done, total int64)) (workflow.LibraryItem, error)
}

// SearchLibrary calls SearchLibraryFn.
func (m *Library) SearchLibrary(ctx context.Context, query string) ([]workflow.LibraryItem, error) {
	must(m.SearchLibraryFn != nil, "Library.SearchLibrary")
	return m.SearchLibraryFn(ctx, query)
}

// ImportResult calls ImportResultFn.
func (m *Library) ImportResult(ctx context.Context, path string, opts workflow.ImportOptions) (workflow.LibraryItem, error) {
	must(m.ImportResultFn != nil, "Library.ImportResult")
	return m.ImportResultFn(ctx, path, opts)
}

// FetchResult calls FetchResultFn.
func (m *Library) FetchResult(ctx context.Context, it workflow.LibraryItem, progress func(done, total int64)) (workflow.LibraryItem, error) {
	must(m.FetchResultFn != nil, "Library.FetchResult")
	return m.FetchResultFn(ctx, it, progress)
}

// Compliance is the window's InternalBackend (workflow.ComplianceService).
type Compliance struct {
	FindInternalFn   func(ctx context.Context, query string, limit int) (workflow.InternalFound, error)
	AddInternalFn    func(ctx context.Context, numbers []string, reason, source string) (workflow.InternalAdded, error)
	ScanListFileFn   func(ctx context.Context, path string, progress func(workflow.ListProgress)) (workflow.ListFile, error)
	ImportInternalFn func(ctx context.Context, req workflow.ListImport, progress func(workflow.ListProgress)) (workflow.ListImported, error)
	ExportInternalFn func(ctx context.Context, dest string) (int, error)
	RemoveInternalFn func(ctx context.Context, number, reason string) error
	ReadOptOutsFn    func(ctx context.Context, path string, loc *time.Location) (*optout.Import, error)
	AddOptOutsFn     func(ctx context.Context, imp *optout.Import) (*workflow.OptOutImport, error)
	StalePhonesFn    func(e *workflow.StaleError) (string, error)
}

// ReadOptOuts calls ReadOptOutsFn.
func (m *Compliance) ReadOptOuts(ctx context.Context, path string, loc *time.Location) (*optout.Import, error) {
	must(m.ReadOptOutsFn != nil, "Compliance.ReadOptOuts")
	return m.ReadOptOutsFn(ctx, path, loc)
}

// AddOptOuts calls AddOptOutsFn.
func (m *Compliance) AddOptOuts(ctx context.Context, imp *optout.Import) (*workflow.OptOutImport, error) {
	must(m.AddOptOutsFn != nil, "Compliance.AddOptOuts")
	return m.AddOptOutsFn(ctx, imp)
}

// FindInternal calls FindInternalFn.
func (m *Compliance) FindInternal(ctx context.Context, query string, limit int) (workflow.InternalFound, error) {
	must(m.FindInternalFn != nil, "Compliance.FindInternal")
	return m.FindInternalFn(ctx, query, limit)
}

// AddInternal calls AddInternalFn.
func (m *Compliance) AddInternal(ctx context.Context, numbers []string, reason, source string) (workflow.InternalAdded, error) {
	must(m.AddInternalFn != nil, "Compliance.AddInternal")
	return m.AddInternalFn(ctx, numbers, reason, source)
}

// ScanListFile calls ScanListFileFn.
func (m *Compliance) ScanListFile(ctx context.Context, path string, progress func(workflow.ListProgress)) (workflow.ListFile, error) {
	must(m.ScanListFileFn != nil, "Compliance.ScanListFile")
	return m.ScanListFileFn(ctx, path, progress)
}

// ImportInternal calls ImportInternalFn.
func (m *Compliance) ImportInternal(ctx context.Context, req workflow.ListImport, progress func(workflow.ListProgress)) (workflow.ListImported, error) {
	must(m.ImportInternalFn != nil, "Compliance.ImportInternal")
	return m.ImportInternalFn(ctx, req, progress)
}

// ExportInternal calls ExportInternalFn.
func (m *Compliance) ExportInternal(ctx context.Context, dest string) (int, error) {
	must(m.ExportInternalFn != nil, "Compliance.ExportInternal")
	return m.ExportInternalFn(ctx, dest)
}

// RemoveInternal calls RemoveInternalFn.
func (m *Compliance) RemoveInternal(ctx context.Context, number, reason string) error {
	must(m.RemoveInternalFn != nil, "Compliance.RemoveInternal")
	return m.RemoveInternalFn(ctx, number, reason)
}

// StalePhones calls StalePhonesFn.
func (m *Compliance) StalePhones(e *workflow.StaleError) (string, error) {
	must(m.StalePhonesFn != nil, "Compliance.StalePhones")
	return m.StalePhonesFn(e)
}

// Presets is the window's PresetsBackend (workflow.PresetService).
type Presets struct {
	DialerPresetsFn func() (presets []*dialer.Preset, problems []error, err error)
}

// DialerPresets calls DialerPresetsFn.
func (m *Presets) DialerPresets() (presets []*dialer.Preset, problems []error, err error) {
	must(m.DialerPresetsFn != nil, "Presets.DialerPresets")
	return m.DialerPresetsFn()
}

// Team is the window's TeamBackend (workflow.TeamService).
type Team struct {
	StatusFn             func(ctx context.Context) workflow.TeamStatus
	ShareWithTeamFn      func(ctx context.Context, url, name string, progress func(workflow.ShareProgress)) (workflow.ShareReport, error)
	StopSharingPreviewFn func(ctx context.Context) (workflow.KeptRecords, error)
	StopSharingFn        func(ctx context.Context, progress func(workflow.ShareProgress)) (workflow.KeptRecords, error)
}

// Status calls StatusFn.
func (m *Team) Status(ctx context.Context) workflow.TeamStatus {
	must(m.StatusFn != nil, "Team.Status")
	return m.StatusFn(ctx)
}

// ShareWithTeam calls ShareWithTeamFn.
func (m *Team) ShareWithTeam(ctx context.Context, url, name string, progress func(workflow.ShareProgress)) (workflow.ShareReport, error) {
	must(m.ShareWithTeamFn != nil, "Team.ShareWithTeam")
	return m.ShareWithTeamFn(ctx, url, name, progress)
}

// StopSharingPreview calls StopSharingPreviewFn.
func (m *Team) StopSharingPreview(ctx context.Context) (workflow.KeptRecords, error) {
	must(m.StopSharingPreviewFn != nil, "Team.StopSharingPreview")
	return m.StopSharingPreviewFn(ctx)
}

// StopSharing calls StopSharingFn.
func (m *Team) StopSharing(ctx context.Context, progress func(workflow.ShareProgress)) (workflow.KeptRecords, error) {
	must(m.StopSharingFn != nil, "Team.StopSharing")
	return m.StopSharingFn(ctx, progress)
}

// Samples is the window's Samples (workflow.QuoteService).
type Samples struct {
	SampleListFn func(ctx context.Context) (path string, err error)
}

// SampleList calls SampleListFn.
func (m *Samples) SampleList(ctx context.Context) (path string, err error) {
	must(m.SampleListFn != nil, "Samples.SampleList")
	return m.SampleListFn(ctx)
}
