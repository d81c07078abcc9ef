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
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/dialer"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/optout"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/mock"
)

// fakeBackend is the state behind the window's services in these tests:
// services() gives each service as a mock (ui/mock) whose functions work on
// it in memory. Its settings and secrets go through the real settings rules
// and the (mocked) keyring. The wizard's and the lookup's services are not
// faked here (these tests replace the flows that open them).
type fakeBackend struct {
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
	// accountGate, when set, holds each account answer that succeeds.
	accountGate *gate
	pricing     *client.Pricing
	jobs        []workflow.Job
	jobsErr     error
	// listGate, when set, holds each jobs list.
	listGate *gate

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
	// scrubFirst is the scrub a trace's callable list is offered first
	// (nil: none).
	scrubFirst *workflow.ScrubOffer
	settings   settings.Settings
	saved      []settings.Settings
	saveErr    error // returned after saving (a receiver that cannot start)
	team       workflow.TeamStatus
	sharedURL  string               // the connection string ShareWithTeam was given
	shareErr   error                // ShareWithTeam fails with it
	kept       workflow.KeptRecords // what stopping sharing keeps
	stopErr    error                // stopping sharing (and its preview) fail with it
	stopped    int                  // times sharing was stopped

	svc  *workflow.Service // reads the result files the tests write
	home string            // the data folder ("" none)
}

// The mocks are the window's services.
var (
	_ Sessions        = (*mock.Sessions)(nil)
	_ JobsBackend     = (*mock.Jobs)(nil)
	_ ResultsBackend  = (*mock.Results)(nil)
	_ LibraryBackend  = (*mock.Library)(nil)
	_ InternalBackend = (*mock.Compliance)(nil)
	_ PresetsBackend  = (*mock.Presets)(nil)
	_ TeamBackend     = (*mock.Team)(nil)
	_ Samples         = (*mock.Samples)(nil)
)

// signedIn is a fake whose key is in place (the session resumes), holding
// jobs.
func signedIn(js ...workflow.Job) *fakeBackend {
	fb := newFake()
	fb.resumeErr = nil
	fb.jobs = js
	return fb
}

// downloaded is a completed job of rows rows whose result is in /results
// under the job's name.
func downloaded(id string, kind jobs.Kind, name string, rows int) workflow.Job {
	return workflow.Job{ID: id, Key: id, Kind: kind, Name: name, Status: "completed", Rows: rows,
		CreatedAt: time.Now(), ResultPath: "/results/" + name}
}

// gate holds a fake's answers, as they stood when asked for, until it is
// opened (a slow server), saying on held that one waits.
type gate struct{ open, held chan struct{} }

func newGate() *gate { return &gate{open: make(chan struct{}), held: make(chan struct{}, 1)} }

// pass waits at g until it opens; a nil gate holds nothing.
func (g *gate) pass() {
	if g != nil {
		g.held <- struct{}{}
		<-g.open
	}
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

// emit sends events as the tracker would, from another goroutine; it
// returns once they are handed to the subscriber (the window's bridge
// counts them from then on).
func (f *fakeBackend) emit(evs ...workflow.Event) {
	f.mu.Lock()
	fn := f.subscriber
	f.mu.Unlock()
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		for _, ev := range evs {
			fn(ev)
		}
	}()
	<-sent
}

// The internal list and the rechecks go to the real application layer on
// a temporary folder (see real).
func (f *fakeBackend) service() *workflow.Service {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.svc
}

// export records an export to dest (a callable list's choices too); the
// next callable export fails with exportErr when set.
func (f *fakeBackend) export(dest string, choices *workflow.CallableChoices) (*workflow.ExportReport, error) {
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
	r := f.openIndexed(t, f.writeMem(t, m))
	t.Cleanup(func() { r.Close() })
	return r
}

// openIndexed opens the result at path with the application layer and
// indexes it, as the window does before it shows a result.
func (f *fakeBackend) openIndexed(t testing.TB, path string) workflow.Result {
	t.Helper()
	r, err := f.real(t).Results().OpenResult(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
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

// services are the window's services over the fake's state: each a mock
// whose functions behave as the application layer would, on memory.
func (f *fakeBackend) services() Services {
	return Services{Jobs: f.jobsService(), Results: f.resultsService(), Library: f.library(),
		Compliance: f.compliance(), Presets: f.presets(), Team: f.teamService(), Samples: f.samples(), Sessions: f.sessions()}
}

func (f *fakeBackend) sessions() *mock.Sessions {
	return &mock.Sessions{
		HomeFn: func() string { return f.home },
		ResumeFn: func(ctx context.Context) (workflow.Session, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.resumeErr != nil {
				return workflow.Session{}, f.resumeErr
			}
			return workflow.Session{BaseURL: "https://api.example.com/v1", FromEnv: f.fromEnv, SessionOnly: f.fromEnv}, nil
		},
		ConnectFn: func(ctx context.Context, baseURL, key string, sessionOnly bool) (workflow.Session, error) {
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
		},
		StartSandboxFn: func(ctx context.Context) (workflow.Session, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.sandboxes++
			return workflow.Session{BaseURL: "http://127.0.0.1:1234/v1", Sandbox: true}, nil
		},
		SignOutFn: func(ctx context.Context) error {
			f.mu.Lock()
			f.signedOut++
			f.mu.Unlock()
			return secrets.OS().Delete(ctx, secrets.APIKey)
		},
		AccountFn: func(ctx context.Context) (*client.Account, error) {
			f.mu.Lock()
			if f.accountErr != nil {
				defer f.mu.Unlock()
				return nil, f.accountErr
			}
			a, g := *f.account, f.accountGate
			f.mu.Unlock()
			g.pass()
			return &a, nil
		},
		PricingFn: func(ctx context.Context) (*client.Pricing, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			p := *f.pricing
			return &p, nil
		},
		SettingsFn: func() settings.Settings {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.settings
		},
		SaveSettingsFn: func(ctx context.Context, s settings.Settings) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			if err := s.Validate(); err != nil {
				return err
			}
			f.settings = s
			f.saved = append(f.saved, s)
			return f.saveErr
		},
		SetWebhookSecretFn: func(ctx context.Context, secret string) error {
			if secret == "" {
				return secrets.OS().Delete(ctx, secrets.WebhookSecret)
			}
			return secrets.OS().Set(ctx, secrets.WebhookSecret, secret)
		},
	}
}

func (f *fakeBackend) jobsService() *mock.Jobs {
	return &mock.Jobs{
		ListFn: func(ctx context.Context, pages int) ([]workflow.Job, bool, error) {
			f.mu.Lock()
			js, err, g := append([]workflow.Job(nil), f.jobs...), f.jobsErr, f.listGate
			f.mu.Unlock()
			g.pass()
			return js, false, err
		},
		SubscribeFn: func(fn func(workflow.Event)) func() {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.subscriber = fn
			return func() {
				f.mu.Lock()
				f.subscriber = nil
				f.mu.Unlock()
			}
		},
		RefreshFn: func(ctx context.Context) error { return nil },
		DownloadFn: func(ctx context.Context, j workflow.Job, progress func(done, total int64)) (workflow.Job, error) {
			if f.blockDownload {
				progress(1, 10)
				<-ctx.Done()
				f.downloadErr <- ctx.Err()
				return j, ctx.Err()
			}
			progress(10, 10)
			j.ResultPath = "/results/" + j.ID + ".csv"
			return j, nil
		},
		RetryWebhookFn: func(ctx context.Context, j workflow.Job) error { return nil },
		ReconcileJobFn: func(ctx context.Context, j workflow.Job) (workflow.Job, []workflow.LookAlike, error) {
			j.Status, j.ID = "completed", "trc_found"
			return j, nil, nil
		},
		AdoptFn:   func(ctx context.Context, submission int64, jobID string) error { return nil },
		DismissFn: func(ctx context.Context, submission int64, why string) error { return nil },
		ScrubFirstFn: func(ctx context.Context, j workflow.Job) (*workflow.ScrubOffer, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.scrubFirst, nil
		},
		ExportJobFn: func(ctx context.Context, j workflow.Job, dest string, callable *workflow.CallableChoices, progress func(done, total int64)) (*workflow.ExportReport, error) {
			return f.export(dest, callable)
		},
	}
}

func (f *fakeBackend) presets() *mock.Presets {
	return &mock.Presets{
		// DialerPresets are the presets SkipDesk ships.
		DialerPresetsFn: func() ([]*dialer.Preset, []error, error) {
			ps, err := dialer.Builtin()
			return ps, nil, err
		},
	}
}

func (f *fakeBackend) compliance() *mock.Compliance {
	return &mock.Compliance{
		FindInternalFn: func(ctx context.Context, query string, limit int) (workflow.InternalFound, error) {
			if f.service() == nil {
				return workflow.InternalFound{}, nil
			}
			return f.service().Compliance().FindInternal(ctx, query, limit)
		},
		AddInternalFn: func(ctx context.Context, numbers []string, reason, source string) (workflow.InternalAdded, error) {
			return f.service().Compliance().AddInternal(ctx, numbers, reason, source)
		},
		ScanListFileFn: func(ctx context.Context, path string, progress func(workflow.ListProgress)) (workflow.ListFile, error) {
			return f.service().Compliance().ScanListFile(ctx, path, progress)
		},
		ImportInternalFn: func(ctx context.Context, req workflow.ListImport, progress func(workflow.ListProgress)) (workflow.ListImported, error) {
			return f.service().Compliance().ImportInternal(ctx, req, progress)
		},
		ExportInternalFn: func(ctx context.Context, dest string) (int, error) {
			return f.service().Compliance().ExportInternal(ctx, dest)
		},
		RemoveInternalFn: func(ctx context.Context, number, reason string) error {
			return f.service().Compliance().RemoveInternal(ctx, number, reason)
		},
		ReadOptOutsFn: func(ctx context.Context, path string, loc *time.Location) (*optout.Import, error) {
			return f.service().Compliance().ReadOptOuts(ctx, path, loc)
		},
		AddOptOutsFn: func(ctx context.Context, imp *optout.Import) (*workflow.OptOutImport, error) {
			return f.service().Compliance().AddOptOuts(ctx, imp)
		},
		StalePhonesFn: func(e *workflow.StaleError) (string, error) {
			return f.service().Compliance().StalePhones(e)
		},
	}
}

func (f *fakeBackend) resultsService() *mock.Results {
	return &mock.Results{
		RecheckFn: func(ctx context.Context, r workflow.Result) error {
			return f.service().Results().Recheck(ctx, r)
		},
		OpenResultFn: func(ctx context.Context, path string, progress func(done, total int64)) (workflow.Result, error) {
			f.mu.Lock()
			r, ok := f.results[path]
			svc := f.svc
			f.mu.Unlock()
			switch {
			case svc == nil:
				return nil, errors.New("no such result: " + path)
			case !ok:
				return svc.Results().OpenResult(ctx, path, progress) // one the real layer wrote (an import)
			}
			return svc.Results().OpenResult(ctx, r.file, progress)
		},
		CorrectLayoutFn: func(ctx context.Context, r workflow.Result, c *layout.Correction) error {
			f.mu.Lock()
			svc := f.svc
			f.mu.Unlock()
			return svc.Results().CorrectLayout(ctx, r, c)
		},
		ReadLayoutFn: func(ctx context.Context, path string) (layout.Summary, error) {
			f.mu.Lock()
			svc := f.svc
			f.mu.Unlock()
			return svc.Results().ReadLayout(ctx, path)
		},
		ExportViewFn: func(ctx context.Context, r workflow.Result, v workflow.View, dest string, choices *workflow.CallableChoices,
			progress func(done, total int64)) (*workflow.ExportReport, error) {
			return f.export(dest, choices)
		},
		ExportPeopleFn: func(ctx context.Context, r workflow.Result, v workflow.View, dest string, progress func(done, total int64)) (*workflow.ExportReport, error) {
			f.mu.Lock()
			f.people = append(f.people, dest)
			f.mu.Unlock()
			return f.export(dest, nil)
		},
		ClassifyFn: func(ctx context.Context, path string) (workflow.FileKind, error) {
			switch {
			case strings.Contains(path, "result"):
				return workflow.FileTraceResult, nil
			case strings.Contains(path, "phones"):
				return workflow.FilePhones, nil
			}
			return workflow.FileOwners, nil
		},
	}
}

func (f *fakeBackend) library() *mock.Library {
	return &mock.Library{
		ImportResultFn: func(ctx context.Context, path string, opts workflow.ImportOptions) (workflow.LibraryItem, error) {
			f.mu.Lock()
			svc := f.svc
			f.mu.Unlock()
			if svc != nil { // a test with the real application layer (real)
				return svc.Library().ImportResult(ctx, path, opts)
			}
			return workflow.LibraryItem{}, errors.New("not in these tests")
		},
		FetchResultFn: func(ctx context.Context, it workflow.LibraryItem, progress func(done, total int64)) (workflow.LibraryItem, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			path, ok := f.fetchable[it.JobID]
			if !ok {
				return it, fmt.Errorf("downloading %s: job %s not found", it.Name, it.JobID)
			}
			f.fetched = append(f.fetched, it.JobID)
			it.Path, it.Teammate = path, ""
			return it, nil
		},
		SearchLibraryFn: func(ctx context.Context, q string) ([]workflow.LibraryItem, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.found[q], nil
		},
	}
}

func (f *fakeBackend) samples() *mock.Samples {
	return &mock.Samples{
		SampleListFn: func(ctx context.Context) (string, error) {
			return "/assets/sample-owners.csv", nil
		},
	}
}

func (f *fakeBackend) teamService() *mock.Team {
	return &mock.Team{
		StatusFn: func(ctx context.Context) workflow.TeamStatus {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.team
		},
		ShareWithTeamFn: func(ctx context.Context, url, name string, progress func(workflow.ShareProgress)) (workflow.ShareReport, error) {
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
		},
		StopSharingPreviewFn: func(ctx context.Context) (workflow.KeptRecords, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.kept, f.stopErr
		},
		StopSharingFn: func(ctx context.Context, progress func(workflow.ShareProgress)) (workflow.KeptRecords, error) {
			f.mu.Lock()
			defer f.mu.Unlock()
			if f.stopErr != nil {
				return workflow.KeptRecords{}, f.stopErr
			}
			progress(workflow.ShareProgress{Part: "internal", Done: f.kept.Numbers, Total: f.kept.Numbers})
			f.team = workflow.TeamStatus{Computer: f.team.Computer}
			f.stopped++
			return f.kept, nil
		},
	}
}
