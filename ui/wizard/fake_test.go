package wizard

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/entity"
	"github.com/skipdesk/skipdesk/jobs/input"
)

// fakeBackend serves a small in-memory "file" (headers and rows).
type fakeBackend struct {
	headers []string
	rows    [][]string
	dups    int

	pricing *client.Pricing
	account *client.Account

	mu        sync.Mutex
	presets   map[string]map[string]string
	match     string // preset MatchPreset returns
	inspects  int
	lastOpts  input.Options
	submits   []submitCall
	submitErr func(again bool) error
	// uploading, when set, makes SubmitTrace report half the upload, send on
	// it and wait for its context to end.
	uploading chan struct{}
	phones    string
}

type submitCall struct {
	up    client.TraceUpload
	dnc   client.DNCUpload
	drop  bool
	again bool
}

func newFake(headers []string, rows [][]string) *fakeBackend {
	return &fakeBackend{
		headers: headers, rows: rows,
		pricing: &client.Pricing{Rates: client.Rates{Normal: 1, Enhanced: 3, LLC: 2, DNC: 1}},
		account: &client.Account{BillingMode: client.BillingPrepaid, Credits: 1000},
		presets: map[string]map[string]string{},
	}
}

func (f *fakeBackend) Inspect(ctx context.Context, path string, opts input.Options) (*input.Inspection, error) {
	f.mu.Lock()
	f.inspects++
	f.lastOpts = opts
	f.mu.Unlock()
	if f.headers == nil { // a real file
		return input.Inspect(ctx, path, opts)
	}
	if strings.Contains(path, "broken") {
		return nil, &input.FileError{Path: path, Line: 3, Msg: "a quote is not closed"}
	}
	ins := &input.Inspection{Path: path, Format: "csv", Encoding: "UTF-8", Delimiter: ',', HeaderLine: 1,
		Headers: f.headers, Sample: f.rows, Rows: len(f.rows), Blanks: make([]int, len(f.headers)),
		DuplicateRows: f.dups, NameColumns: opts.NameColumns, KeyColumns: opts.KeyColumns}
	idx := map[string]int{}
	for i, h := range f.headers {
		idx[h] = i
	}
	for _, r := range f.rows {
		var parts []string
		for _, h := range opts.NameColumns {
			if i, ok := idx[h]; ok {
				parts = append(parts, r[i])
			}
		}
		if len(parts) > 0 && entity.IsEntity(strings.Join(parts, " ")) {
			ins.EntityRows++
		}
		for i, v := range r {
			if strings.TrimSpace(v) == "" {
				ins.Blanks[i]++
			}
		}
	}
	return ins, nil
}

func (f *fakeBackend) Pricing(ctx context.Context) (*client.Pricing, error) { return f.pricing, nil }
func (f *fakeBackend) Account(ctx context.Context) (*client.Account, error) { return f.account, nil }

func (f *fakeBackend) PresetNames(ctx context.Context) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []string
	for n := range f.presets {
		out = append(out, n)
	}
	return out, nil
}

func (f *fakeBackend) LoadPreset(ctx context.Context, name string) (map[string]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, ok := f.presets[name]
	if !ok {
		return nil, errors.New("no such preset")
	}
	return m, nil
}

func (f *fakeBackend) MatchPreset(ctx context.Context, headers []string) (string, map[string]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.match == "" {
		return "", nil, nil
	}
	return f.match, f.presets[f.match], nil
}

func (f *fakeBackend) SavePreset(ctx context.Context, name string, headers []string, m map[string]string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.presets[name] = m
	return nil
}

func (f *fakeBackend) SubmitTrace(ctx context.Context, up client.TraceUpload, opts input.Options, drop, again bool) (string, error) {
	f.mu.Lock()
	f.submits = append(f.submits, submitCall{up: up, drop: drop, again: again})
	errf := f.submitErr
	uploading := f.uploading
	f.mu.Unlock()
	if uploading != nil {
		// Half sent, then wait for the user's Cancel.
		up.Progress(50, 100)
		uploading <- struct{}{}
		<-ctx.Done()
		return "", ctx.Err()
	}
	if up.Progress != nil {
		up.Progress(50, 100)
		up.Progress(100, 100)
	}
	if errf != nil {
		if err := errf(again); err != nil {
			return "", err
		}
	}
	return "trc_new", nil
}

func (f *fakeBackend) SubmitDNC(ctx context.Context, up client.DNCUpload, opts input.Options, again bool) (string, error) {
	f.mu.Lock()
	f.submits = append(f.submits, submitCall{dnc: up, again: again})
	f.mu.Unlock()
	return "dnc_new", nil
}

func (f *fakeBackend) TracePhones(ctx context.Context, resultPath, jobID string) (string, error) {
	return f.phones, nil
}

var _ Backend = (*fakeBackend)(nil)
