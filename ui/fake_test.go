package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/dialer"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/lookup"
	"github.com/skipdesk/skipdesk/ui/wizard"
)

// fakeBackend is an in-memory Backend. Its settings and secrets go through
// the real settings rules and the (mocked) keyring. The wizard's and the
// lookup's parts are not faked here (these tests replace the flows that
// open them): calling one panics.
type fakeBackend struct {
	wizard.TraceBackend
	lookup.Backend

	mu sync.Mutex

	resumeErr  error
	fromEnv    bool // Resume's key came from $SKIPDESK_API_KEY
	connectErr func(sessionOnly bool) error
	// connectHangs makes Connect wait for its context to end.
	connectHangs bool
	connected    []string // "base|key|sessionOnly"
	sandboxes    int
	signedOut    int

	account    *client.Account
	accountErr error
	pricing    *client.Pricing
	jobs       []workflow.Job
	jobsErr    error

	subscriber func(workflow.Event)

	// blockDownload makes Download wait for its context to end.
	blockDownload bool
	downloadErr   chan error

	results   map[string]*memResult
	found     map[string][]workflow.LibraryItem // what SearchLibrary finds, by query
	fetchable map[string]string                 // what FetchResult brings here: the path, by job id
	fetched   []string                          // the jobs FetchResult brought
	exported  []string
	people    []string                   // exports of the people view, in words
	choices   []workflow.CallableChoices // the choices of each callable export
	exportErr error                      // the next callable export fails with it
	settings  settings.Settings
	saved     []settings.Settings
	saveErr   error // returned after saving (a receiver that cannot start)
	team      workflow.TeamStatus
	sharedURL string               // the connection string ShareWithTeam was given
	shareErr  error                // ShareWithTeam fails with it
	kept      workflow.KeptRecords // what stopping sharing keeps
	stopErr   error                // stopping sharing (and its preview) fail with it
	stopped   int                  // times sharing was stopped

	svc *workflow.Service // reads the result files the tests write
}

func newFake() *fakeBackend {
	return &fakeBackend{
		resumeErr: workflow.ErrNoKey,
		account:   &client.Account{ID: "acc_1", Email: "demo@example.com", BillingMode: "prepaid", Credits: 25000},
		pricing:   &client.Pricing{Rates: client.Rates{Normal: 1, Enhanced: 3, LLC: 2, DNC: 1}},
		results:   map[string]*memResult{},
		settings:  settings.Default(),
	}
}

func (f *fakeBackend) Resume(ctx context.Context) (workflow.Session, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.resumeErr != nil {
		return workflow.Session{}, f.resumeErr
	}
	return workflow.Session{BaseURL: "https://api.example.com/v1", FromEnv: f.fromEnv, SessionOnly: f.fromEnv}, nil
}

func (f *fakeBackend) Connect(ctx context.Context, baseURL, key string, sessionOnly bool) (workflow.Session, error) {
	f.mu.Lock()
	hangs := f.connectHangs
	f.mu.Unlock()
	if hangs {
		<-ctx.Done()
		return workflow.Session{}, ctx.Err()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.connected = append(f.connected, strings.Join([]string{baseURL, key, map[bool]string{true: "session", false: "keyring"}[sessionOnly]}, "|"))
	if f.connectErr != nil {
		if err := f.connectErr(sessionOnly); err != nil {
			return workflow.Session{}, err
		}
	}
	return workflow.Session{BaseURL: baseURL, SessionOnly: sessionOnly}, nil
}

func (f *fakeBackend) StartSandbox(ctx context.Context) (workflow.Session, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sandboxes++
	return workflow.Session{BaseURL: "http://127.0.0.1:1234/v1", Sandbox: true}, nil
}

func (f *fakeBackend) SignOut(ctx context.Context) error {
	f.mu.Lock()
	f.signedOut++
	f.mu.Unlock()
	return secrets.Delete(ctx, secrets.APIKey)
}

func (f *fakeBackend) Account(ctx context.Context) (*client.Account, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.accountErr != nil {
		return nil, f.accountErr
	}
	a := *f.account
	return &a, nil
}

func (f *fakeBackend) Pricing(ctx context.Context) (*client.Pricing, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := *f.pricing
	return &p, nil
}

func (f *fakeBackend) Jobs(ctx context.Context, pages int) ([]workflow.Job, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]workflow.Job(nil), f.jobs...), false, f.jobsErr
}

func (f *fakeBackend) Subscribe(fn func(workflow.Event)) func() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.subscriber = fn
	return func() {
		f.mu.Lock()
		f.subscriber = nil
		f.mu.Unlock()
	}
}

// emit sends events as the tracker would, from another goroutine.
func (f *fakeBackend) emit(evs ...workflow.Event) {
	f.mu.Lock()
	fn := f.subscriber
	f.mu.Unlock()
	go func() {
		for _, ev := range evs {
			fn(ev)
		}
	}()
}

func (f *fakeBackend) Refresh(ctx context.Context) error { return nil }

func (f *fakeBackend) Download(ctx context.Context, j workflow.Job, progress func(done, total int64)) (workflow.Job, error) {
	if f.blockDownload {
		progress(1, 10)
		<-ctx.Done()
		f.downloadErr <- ctx.Err()
		return j, ctx.Err()
	}
	progress(10, 10)
	j.ResultPath = "/results/" + j.ID + ".csv"
	return j, nil
}

func (f *fakeBackend) RetryWebhook(ctx context.Context, j workflow.Job) error { return nil }

func (f *fakeBackend) ReconcileJob(ctx context.Context, j workflow.Job) (workflow.Job, []workflow.LookAlike, error) {
	j.Status, j.ID = "completed", "trc_found"
	return j, nil, nil
}

func (f *fakeBackend) Adopt(ctx context.Context, submission int64, jobID string) error { return nil }

func (f *fakeBackend) Dismiss(ctx context.Context, submission int64, why string) error { return nil }

func (f *fakeBackend) ExportJob(ctx context.Context, j workflow.Job, dest string, callable *workflow.CallableChoices, progress func(done, total int64)) (*workflow.ExportReport, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if callable != nil {
		f.choices = append(f.choices, *callable)
		if f.exportErr != nil {
			err := f.exportErr
			f.exportErr = nil
			return nil, err
		}
	}
	f.exported = append(f.exported, dest)
	return &workflow.ExportReport{Path: dest}, nil
}

func (f *fakeBackend) ExportPeople(ctx context.Context, r workflow.Result, v workflow.View, dest string, progress func(done, total int64)) (*workflow.ExportReport, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.exported = append(f.exported, dest)
	f.people = append(f.people, dest)
	return &workflow.ExportReport{Path: dest}, nil
}

// DialerPresets are the presets SkipDesk ships.
func (f *fakeBackend) DialerPresets() ([]*dialer.Preset, []error, error) {
	ps, err := dialer.Builtin()
	return ps, nil, err
}

// The internal list and the rechecks go to the real application layer on
// a temporary folder (see real).
func (f *fakeBackend) service() *workflow.Service {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.svc
}

func (f *fakeBackend) FindInternal(ctx context.Context, query string, limit int) (workflow.InternalFound, error) {
	if f.service() == nil {
		return workflow.InternalFound{}, nil
	}
	return f.service().FindInternal(ctx, query, limit)
}

func (f *fakeBackend) AddInternal(ctx context.Context, numbers []string, reason, source string) (workflow.InternalAdded, error) {
	return f.service().AddInternal(ctx, numbers, reason, source)
}

func (f *fakeBackend) ScanListFile(ctx context.Context, path string, progress func(workflow.ListProgress)) (workflow.ListFile, error) {
	return f.service().ScanListFile(ctx, path, progress)
}

func (f *fakeBackend) ImportInternal(ctx context.Context, req workflow.ListImport, progress func(workflow.ListProgress)) (workflow.ListImported, error) {
	return f.service().ImportInternal(ctx, req, progress)
}

func (f *fakeBackend) ExportInternal(ctx context.Context, dest string) (int, error) {
	return f.service().ExportInternal(ctx, dest)
}

func (f *fakeBackend) RemoveInternal(ctx context.Context, number, reason string) error {
	return f.service().RemoveInternal(ctx, number, reason)
}

func (f *fakeBackend) StalePhones(e *workflow.StaleError) (string, error) {
	return f.service().StalePhones(e)
}

func (f *fakeBackend) Recheck(ctx context.Context, r workflow.Result) error {
	return f.service().Recheck(ctx, r)
}

func (f *fakeBackend) OpenResult(ctx context.Context, path string, progress func(done, total int64)) (workflow.Result, error) {
	f.mu.Lock()
	r, ok := f.results[path]
	svc := f.svc
	f.mu.Unlock()
	if !ok || svc == nil {
		return nil, errors.New("no such result: " + path)
	}
	return svc.OpenResult(ctx, r.file, progress)
}

func (f *fakeBackend) CorrectLayout(ctx context.Context, r workflow.Result, c *layout.Correction) error {
	f.mu.Lock()
	svc := f.svc
	f.mu.Unlock()
	return svc.CorrectLayout(ctx, r, c)
}

func (f *fakeBackend) ReadLayout(ctx context.Context, path string) (layout.Summary, error) {
	f.mu.Lock()
	svc := f.svc
	f.mu.Unlock()
	return svc.ReadLayout(ctx, path)
}

func (f *fakeBackend) ImportResult(ctx context.Context, path string, _ workflow.ImportOptions) (workflow.LibraryItem, error) {
	return workflow.LibraryItem{}, errors.New("not in these tests")
}

func (f *fakeBackend) FetchResult(ctx context.Context, it workflow.LibraryItem, progress func(done, total int64)) (workflow.LibraryItem, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	path, ok := f.fetchable[it.JobID]
	if !ok {
		return it, fmt.Errorf("downloading %s: job %s not found", it.Name, it.JobID)
	}
	f.fetched = append(f.fetched, it.JobID)
	it.Path, it.Teammate = path, ""
	return it, nil
}

func (f *fakeBackend) ExportView(ctx context.Context, r workflow.Result, v workflow.View, dest string, choices *workflow.CallableChoices,
	progress func(done, total int64)) (*workflow.ExportReport, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if choices != nil {
		f.choices = append(f.choices, *choices)
		if f.exportErr != nil {
			err := f.exportErr
			f.exportErr = nil
			return nil, err
		}
	}
	f.exported = append(f.exported, dest)
	return &workflow.ExportReport{Path: dest}, nil
}

func (f *fakeBackend) SearchLibrary(ctx context.Context, q string) ([]workflow.LibraryItem, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.found[q], nil
}

func (f *fakeBackend) Classify(ctx context.Context, path string) (workflow.FileKind, error) {
	switch {
	case strings.Contains(path, "result"):
		return workflow.FileTraceResult, nil
	case strings.Contains(path, "phones"):
		return workflow.FilePhones, nil
	}
	return workflow.FileOwners, nil
}

func (f *fakeBackend) Settings() settings.Settings {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.settings
}

func (f *fakeBackend) SaveSettings(ctx context.Context, s settings.Settings) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := s.Validate(); err != nil {
		return err
	}
	f.settings = s
	f.saved = append(f.saved, s)
	return f.saveErr
}

func (f *fakeBackend) SetWebhookSecret(ctx context.Context, secret string) error {
	if secret == "" {
		return secrets.Delete(ctx, secrets.WebhookSecret)
	}
	return secrets.Set(ctx, secrets.WebhookSecret, secret)
}

func (f *fakeBackend) SampleList(ctx context.Context) (string, error) {
	return "/assets/sample-owners.csv", nil
}

// memResult is a small result, written to a file when it is opened.
type memResult struct {
	path     string
	headers  []string
	rows     [][]string
	warnings []string
	file     string // where it was written (addResult)
}

// openMem writes m as a CSV file (a damaged one when m has warnings to
// show) and opens it with the application layer, as the window would.
func (f *fakeBackend) openMem(t testing.TB, m *memResult) workflow.Result {
	t.Helper()
	path := f.writeMem(t, m)
	r, err := f.real(t).OpenResult(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// writeMem writes m's rows under its file name in a temporary folder.
func (f *fakeBackend) writeMem(t testing.TB, m *memResult) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), filepath.Base(m.path))
	var b []byte
	b = input.AppendRecord(b, m.headers)
	for _, r := range m.rows {
		b = input.AppendRecord(b, r)
	}
	if len(m.warnings) > 0 {
		b = append(b, []byte("\"never closed,x\r\n")...)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// real is the application layer the fake reads result files with.
func (f *fakeBackend) real(t testing.TB) *workflow.Service {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.svc == nil {
		svc, err := workflow.Open(workflow.Config{Home: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { svc.Close() })
		f.svc = svc
	}
	return f.svc
}

// addResult writes m and lets OpenResult find it under m.path.
func (f *fakeBackend) addResult(t testing.TB, m *memResult) {
	t.Helper()
	m.file = f.writeMem(t, m)
	f.real(t)
	f.mu.Lock()
	f.results[m.path] = m
	f.mu.Unlock()
}

func (f *fakeBackend) Team(ctx context.Context) workflow.TeamStatus {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.team
}

func (f *fakeBackend) ShareWithTeam(ctx context.Context, url, name string, progress func(workflow.ShareProgress)) (workflow.ShareReport, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.shareErr != nil {
		return workflow.ShareReport{}, f.shareErr
	}
	f.sharedURL = url
	progress(workflow.ShareProgress{Part: "jobs", Done: 3, Total: 3})
	f.team = workflow.TeamStatus{On: true, Database: "the team database \"skipdesk\" on db.example.com:5432", Computer: name,
		Computers: []string{name, "back-office"}}
	return workflow.ShareReport{Copied: map[string]int{"jobs": 3}}, nil
}

func (f *fakeBackend) StopSharingPreview(ctx context.Context) (workflow.KeptRecords, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.kept, f.stopErr
}

func (f *fakeBackend) StopSharing(ctx context.Context, progress func(workflow.ShareProgress)) (workflow.KeptRecords, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.stopErr != nil {
		return workflow.KeptRecords{}, f.stopErr
	}
	progress(workflow.ShareProgress{Part: "internal", Done: f.kept.Numbers, Total: f.kept.Numbers})
	f.team = workflow.TeamStatus{Computer: f.team.Computer}
	f.stopped++
	return f.kept, nil
}
