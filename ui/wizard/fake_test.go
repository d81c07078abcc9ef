package wizard

import (
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// fakeBackend fakes what needs an account — the rates, presets, the
// submission — and leaves reading files to the application layer, on
// real files the tests write (fakeFile).
type fakeBackend struct {
	headers []string
	rows    [][]string

	pricing *client.Pricing
	account *client.Account

	mu        sync.Mutex
	presets   map[string]mapping.Mapping
	match     string // preset MatchPreset returns
	inspects  int
	reads     int // one reading: the inspection and the counts of the plan the screen opens with
	counts    int // the counts read again
	submits   []submitCall
	submitErr func(again bool) error
	// uploading, when set, makes Submit report half the upload, send on it
	// and wait for its context to end.
	uploading chan struct{}
	phones    string
	// ratesErr, when set, is what Rates answers.
	ratesErr error
	// svc, when set, counts (the library's earlier results included).
	svc *workflow.Service
	// countGate, when set, holds each Count until it is closed (or the
	// count's context ends), as a count waiting for the library does.
	countGate chan struct{}
}

type submitCall struct {
	plan workflow.Plan
	opts workflow.SubmitOptions
}

func newFake(headers []string, rows [][]string) *fakeBackend {
	return &fakeBackend{
		headers: headers, rows: rows,
		pricing: &client.Pricing{Rates: client.Rates{Normal: 1, Enhanced: 3, LLC: 2, DNC: 1}},
		account: &client.Account{BillingMode: client.BillingPrepaid, Credits: 1000},
		presets: map[string]mapping.Mapping{},
	}
}

// fakeFile writes the fake's rows as a CSV file named name and returns its
// path.
func fakeFile(t testing.TB, f *fakeBackend, name string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	out, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(out)
	w.UseCRLF = true
	w.Write(f.headers)
	w.WriteAll(f.rows)
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func (f *fakeBackend) Inspect(ctx context.Context, path string, opts input.Options) (*input.Inspection, error) {
	f.mu.Lock()
	f.inspects++
	f.mu.Unlock()
	return workflow.Inspect(ctx, path, opts)
}

func (f *fakeBackend) Read(ctx context.Context, path string, opts input.Options, settle func(head *input.Inspection) (workflow.Plan, error)) (*input.Inspection, workflow.Plan, *workflow.Counts, error) {
	f.mu.Lock()
	f.reads++
	svc := f.svc
	f.mu.Unlock()
	if svc != nil {
		return svc.Quotes().Read(ctx, path, opts, settle)
	}
	return workflow.Read(ctx, path, opts, settle)
}

func (f *fakeBackend) Count(ctx context.Context, p workflow.Plan, ins *input.Inspection) (*workflow.Counts, error) {
	f.mu.Lock()
	f.counts++
	svc, gate := f.svc, f.countGate
	f.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if svc != nil {
		return svc.Quotes().Count(ctx, p, ins)
	}
	return workflow.Count(ctx, p, ins)
}

func (f *fakeBackend) Rates(ctx context.Context) (workflow.Rates, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ratesErr != nil {
		return workflow.Rates{}, f.ratesErr
	}
	return workflow.Rates{Pricing: f.pricing, Account: f.account}, nil
}

func (f *fakeBackend) PresetNames(ctx context.Context) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for n := range f.presets {
		out = append(out, n)
	}
	sort.Strings(out)
	return out, nil
}

func (f *fakeBackend) LoadPreset(ctx context.Context, name string) (*mapping.Preset, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, ok := f.presets[name]
	if !ok {
		return nil, errors.New("no such preset")
	}
	return &mapping.Preset{Name: name, Mapping: m.Clone()}, nil
}

func (f *fakeBackend) MatchPreset(ctx context.Context, headers []string, kind jobs.Kind) (*mapping.Preset, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.match == "" {
		return nil, nil
	}
	return &mapping.Preset{Name: f.match, Mapping: f.presets[f.match].Clone()}, nil
}

func (f *fakeBackend) SavePreset(ctx context.Context, name string, headers []string, p workflow.Plan) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.presets[name] = p.Mapping.Clone()
	return nil
}

func (f *fakeBackend) Submit(ctx context.Context, p workflow.Plan, ins *input.Inspection, opts workflow.SubmitOptions) (*workflow.Submitted, error) {
	f.mu.Lock()
	f.submits = append(f.submits, submitCall{plan: p, opts: opts})
	errf := f.submitErr
	uploading := f.uploading
	f.mu.Unlock()
	if uploading != nil {
		// Half sent, then wait for the user's Cancel.
		opts.Progress(50, 100)
		uploading <- struct{}{}
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if opts.Progress != nil {
		opts.Progress(50, 100)
		opts.Progress(100, 100)
	}
	if errf != nil {
		if err := errf(opts.Again); err != nil {
			return nil, err
		}
	}
	id := "trc_new"
	if p.Kind == jobs.KindDNC {
		id = "dnc_new"
	}
	return &workflow.Submitted{JobID: id}, nil
}

func (f *fakeBackend) TracePhones(ctx context.Context, resultPath, jobID string) (workflow.Plan, error) {
	return workflow.Plan{Kind: jobs.KindDNC, Path: f.phones, Mapping: mapping.Mapping{mapping.Phone: "phone"}, ParentTraceID: jobID}, nil
}

var _ TraceBackend = (*fakeBackend)(nil)

// tapSubmit taps Submit and, when it asks before paying, Pay.
func tapSubmit(submit *widget.Button, pay **keys.Button) {
	pressSubmit(submit, pay)
	if *pay != nil {
		test.Tap(*pay)
	}
}

// pressSubmit presses Submit until it asks before paying: from any other
// step the first press leads to the review.
func pressSubmit(submit *widget.Button, pay **keys.Button) {
	test.Tap(submit)
	if *pay == nil {
		test.Tap(submit)
	}
}
