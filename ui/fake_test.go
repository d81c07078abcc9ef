package ui

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
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

	results  map[string]*memResult
	exported []string
	settings settings.Settings
	saved    []settings.Settings
	saveErr  error // returned after saving (a receiver that cannot start)
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

func (f *fakeBackend) ReconcileJob(ctx context.Context, j workflow.Job) (workflow.Job, error) {
	j.Status, j.ID = "completed", "trc_found"
	return j, nil
}

func (f *fakeBackend) ExportJob(ctx context.Context, j workflow.Job, dest string, callable bool, progress func(done, total int64)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.exported = append(f.exported, dest)
	return nil
}

func (f *fakeBackend) OpenResult(ctx context.Context, path string, progress func(done, total int64)) (workflow.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.results[path]
	if !ok {
		return nil, errors.New("no such result: " + path)
	}
	return r, nil
}

func (f *fakeBackend) ExportView(ctx context.Context, r workflow.Result, v workflow.View, dest string, progress func(done, total int64)) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.exported = append(f.exported, dest)
	return nil
}

func (f *fakeBackend) SearchLibrary(ctx context.Context, q string) ([]workflow.LibraryItem, error) {
	return nil, nil
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

// memResult is a small in-memory result.
type memResult struct {
	path     string
	headers  []string
	rows     [][]string
	warnings []string
}

func (m *memResult) Path() string             { return m.path }
func (m *memResult) Headers() []string        { return m.headers }
func (m *memResult) Len() int                 { return len(m.rows) }
func (m *memResult) Cell(row, col int) string { return m.rows[row][col] }
func (m *memResult) Close() error             { return nil }
func (m *memResult) Warnings() []string       { return m.warnings }
func (m *memResult) Query(ctx context.Context, q workflow.Query) (workflow.View, error) {
	var idx []int
	for i, r := range m.rows {
		if q.Text != "" && !strings.Contains(strings.ToLower(strings.Join(r, "\x00")), strings.ToLower(q.Text)) {
			continue
		}
		ok := true
		for _, qf := range q.Quick {
			if qf == jobs.QuickMatched && r[colIndex(m.headers, "match_status")] != "matched" {
				ok = false
			}
		}
		if ok {
			idx = append(idx, i)
		}
	}
	if q.SortCol >= 0 {
		sort.SliceStable(idx, func(a, b int) bool {
			x, y := m.rows[idx[a]][q.SortCol], m.rows[idx[b]][q.SortCol]
			if q.Desc {
				return x > y
			}
			return x < y
		})
	}
	return memView{m, idx}, nil
}

func colIndex(h []string, s string) int {
	for i, x := range h {
		if x == s {
			return i
		}
	}
	return -1
}

type memView struct {
	m   *memResult
	idx []int
}

func (v memView) Len() int                 { return len(v.idx) }
func (v memView) Cell(row, col int) string { return v.m.rows[v.idx[row]][col] }

func (m *memResult) QuickFilters() []jobs.QuickFilter {
	var out []jobs.QuickFilter
	for _, c := range []struct {
		col string
		f   jobs.QuickFilter
	}{{"match_status", jobs.QuickMatched}, {"phone_1_type", jobs.QuickMobile}, {"dnc", jobs.QuickNotDNC}, {"litigator", jobs.QuickNotLitigator}} {
		if colIndex(m.headers, c.col) >= 0 {
			out = append(out, c.f)
		}
	}
	return out
}
