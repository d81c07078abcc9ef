package desk

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/entity"
	"github.com/skipdesk/skipdesk/jobs/estimate"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/prepare"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// Inspect reads a picked file (CSV or XLSX) in one streaming pass.
func (d *Desk) Inspect(ctx context.Context, path string, opts input.Options) (*input.Inspection, error) {
	return input.Inspect(ctx, path, opts)
}

func (d *Desk) presets() (mapping.PresetStore, error) {
	s, err := d.current()
	if err != nil {
		return nil, err
	}
	return ledger.PresetStore{L: s.led}, nil
}

// PresetNames lists the saved mapping presets, sorted.
func (d *Desk) PresetNames(ctx context.Context) ([]string, error) {
	st, err := d.presets()
	if err != nil {
		return nil, err
	}
	ps, err := st.Presets()
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(ps))
	for _, p := range ps {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return names, nil
}

// LoadPreset returns the mapping of a saved preset.
func (d *Desk) LoadPreset(ctx context.Context, name string) (map[string]string, error) {
	st, err := d.presets()
	if err != nil {
		return nil, err
	}
	ps, err := st.Presets()
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		if p.Name == name {
			return p.Mapping.Clone(), nil
		}
	}
	return nil, fmt.Errorf("no preset named %q", name)
}

// MatchPreset finds the saved preset for files with these headers.
func (d *Desk) MatchPreset(ctx context.Context, headers []string) (string, map[string]string, error) {
	st, err := d.presets()
	if err != nil {
		return "", nil, err
	}
	p, err := mapping.MatchPreset(st, headers, "")
	if err != nil || p == nil {
		return "", nil, err
	}
	return p.Name, p.Mapping, nil
}

// SavePreset stores mapping under name for files with these headers.
func (d *Desk) SavePreset(ctx context.Context, name string, headers []string, m map[string]string) error {
	st, err := d.presets()
	if err != nil {
		return err
	}
	kind := jobs.KindTrace
	if _, ok := m[mapping.Phone]; ok && len(m) == 1 {
		kind = jobs.KindDNC
	}
	return st.SavePreset(mapping.NewPreset(name, headers, kind, mapping.Mapping(m).Clone(), "", false))
}

// SubmitTrace prepares the picked file (XLSX to CSV, header line, dropped
// duplicates) and submits it through the ledger; the tracker follows the new
// job at once. A 402 comes back as a *CreditsError naming the cost and the
// balance.
func (d *Desk) SubmitTrace(ctx context.Context, up client.TraceUpload, opts input.Options, dropDuplicates, again bool) (string, error) {
	s, err := d.current()
	if err != nil {
		return "", err
	}
	m := mapping.Mapping(up.ColumnMapping).Clone()
	ins, err := input.Inspect(ctx, up.Path, estimate.Options(opts, m))
	if err != nil {
		return "", err
	}
	prep, err := prepare.Prepare(ctx, up.Path, ins, prepare.Plan{Kind: jobs.KindTrace, Mapping: m, DropDuplicates: dropDuplicates, Input: opts})
	if err != nil {
		return "", err
	}
	defer prep.Remove()
	name := up.FileName
	if name == "" {
		name = prep.FileName
	}
	mode := jobs.Mode(up.Mode)
	if mode == "" {
		mode = jobs.ModeNormal
	}
	req := submit.Request{
		Kind:        jobs.KindTrace,
		File:        submit.File{Path: prep.Path, Name: name, SHA256: prep.SHA256, Size: prep.Size, Rows: prep.Rows},
		Mapping:     prep.Mapping,
		Mode:        mode,
		IncludeLLCs: up.IncludeLLCs,
		Options:     submit.Options{DropDuplicates: dropDuplicates, HeaderLine: opts.HeaderLine, Sheet: opts.Sheet},
		Again:       again,
		Progress:    up.Progress,
	}
	res, err := d.submit(ctx, s, req)
	if err != nil {
		if errors.Is(err, client.ErrInsufficientCredits) {
			return "", d.creditsError(ctx, s, err, func(p *client.Pricing, a *client.Account) int64 {
				pins, ierr := input.Inspect(ctx, prep.Path, estimate.Options(input.Options{SampleRows: -1, HeaderLine: 1}, prep.Mapping))
				if ierr != nil {
					return 0
				}
				return estimate.Estimate(pins, prep.Mapping, mode, up.IncludeLLCs, p, a).Credits
			})
		}
		return "", err
	}
	return res.JobID, nil
}

// SubmitDNC prepares the phone list and submits it through the ledger.
func (d *Desk) SubmitDNC(ctx context.Context, up client.DNCUpload, opts input.Options, again bool) (string, error) {
	s, err := d.current()
	if err != nil {
		return "", err
	}
	m := mapping.Mapping{mapping.Phone: up.PhoneColumn}
	ins, err := input.Inspect(ctx, up.Path, opts)
	if err != nil {
		return "", err
	}
	prep, err := prepare.Prepare(ctx, up.Path, ins, prepare.Plan{Kind: jobs.KindDNC, Mapping: m, Input: opts})
	if err != nil {
		return "", err
	}
	defer prep.Remove()
	name := up.FileName
	if name == "" {
		name = prep.FileName
	}
	d.mu.Lock()
	parent := d.phoneLists[up.Path]
	d.mu.Unlock()
	req := submit.Request{
		Kind:     jobs.KindDNC,
		File:     submit.File{Path: prep.Path, Name: name, SHA256: prep.SHA256, Size: prep.Size, Rows: prep.Rows},
		Mapping:  prep.Mapping,
		Options:  submit.Options{HeaderLine: opts.HeaderLine, Sheet: opts.Sheet, ParentTraceID: parent},
		Again:    again,
		Progress: up.Progress,
	}
	res, err := d.submit(ctx, s, req)
	if err != nil {
		if errors.Is(err, client.ErrInsufficientCredits) {
			return "", d.creditsError(ctx, s, err, func(p *client.Pricing, a *client.Account) int64 {
				return int64(prep.Rows) * p.Rates.DNC
			})
		}
		return "", err
	}
	return res.JobID, nil
}

// submit sends req through the ledger and has the tracker follow the job.
func (d *Desk) submit(ctx context.Context, s *session, req submit.Request) (*submit.Result, error) {
	d.mu.Lock()
	d.submitting[req.File.SHA256] = true
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		delete(d.submitting, req.File.SHA256)
		d.mu.Unlock()
	}()
	res, err := submit.Submit(ctx, s.api, s.led, req)
	if err != nil {
		var ue *submit.UnknownError
		if errors.As(err, &ue) {
			s.trk.Refresh()
			s.trk.ReconcileSoon()
		}
		return nil, err
	}
	s.trk.Hint(res.JobID)
	d.emit(Event{Kind: EventAccount})
	return res, nil
}

// creditsError turns a 402 into a *CreditsError with the job's cost (from
// cost, given the rates and the account) and the balance.
func (d *Desk) creditsError(ctx context.Context, s *session, err error, cost func(*client.Pricing, *client.Account) int64) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 20*time.Second)
	defer cancel()
	ce := &CreditsError{Err: err}
	acc, aerr := s.api.Account(ctx)
	if aerr != nil {
		return ce
	}
	ce.Balance = acc.Credits
	if acc.BillingMode == client.BillingMetered {
		ce.Metered = true
		ce.PastDue = acc.Metered != nil && acc.Metered.PastDue
		return ce
	}
	if p, perr := s.api.Pricing(ctx); perr == nil {
		ce.Needed = cost(p, acc)
	}
	return ce
}

// TracePhones writes the phones of a completed trace's result (phone_1 to
// phone_3, blanks and repeated numbers skipped) as a one-column phone list
// for a DNC scrub, and remembers which trace it came from.
func (d *Desk) TracePhones(ctx context.Context, traceResultPath, traceJobID string) (string, error) {
	in, err := os.Open(traceResultPath)
	if err != nil {
		return "", err
	}
	defer in.Close()
	r := csv.NewReader(in)
	r.FieldsPerRecord, r.LazyQuotes, r.ReuseRecord = -1, true, true
	header, err := r.Read()
	if err != nil {
		return "", fmt.Errorf("%s: no header row: %w", traceResultPath, err)
	}
	var cols []int
	for i, h := range header {
		switch strings.TrimSpace(h) {
		case "phone_1", "phone_2", "phone_3":
			cols = append(cols, i)
		}
	}
	if len(cols) == 0 {
		return "", fmt.Errorf("%s is not a trace result: no phone_1..phone_3 columns", filepath.Base(traceResultPath))
	}
	dir := filepath.Join(d.home, "phone-lists")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	base := strings.TrimSuffix(filepath.Base(traceResultPath), filepath.Ext(traceResultPath))
	out := filepath.Join(dir, library.SanitizeName(base+" phones")+".csv")
	var b strings.Builder
	w := csv.NewWriter(&b)
	w.UseCRLF = true
	w.Write([]string{"phone"})
	n := 0
	seen := map[string]struct{}{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("%s: %w", traceResultPath, err)
		}
		for _, c := range cols {
			if c >= len(rec) {
				continue
			}
			v := strings.TrimSpace(rec[c])
			if v == "" {
				continue
			}
			// Each number once: the scrub is billed per row, and the
			// callable list matches flags to phones by number.
			key := v
			if num := phone.Normalize(v); num.Valid {
				key = num.Digits
			}
			if _, dup := seen[key]; dup {
				continue
			}
			seen[key] = struct{}{}
			w.Write([]string{v})
			n++
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
	}
	w.Flush()
	if n == 0 {
		return "", fmt.Errorf("the trace %s found no phone numbers to scrub", traceJobID)
	}
	if err := library.WriteFileAtomic(out, []byte(b.String())); err != nil {
		return "", err
	}
	d.mu.Lock()
	d.phoneLists[out] = traceJobID
	d.mu.Unlock()
	return out, nil
}

// Single is POST /traces/single through the ledger, as a bulk submission:
// the intent is recorded before sending, the charge after. An interrupted
// lookup is left "unknown — may be charged" for Reconcile, and never resent.
func (d *Desk) Single(ctx context.Context, req *client.SingleTraceRequest) (*client.SingleTraceResult, error) {
	s, err := d.current()
	if err != nil {
		return nil, err
	}
	out, err := submit.Single(ctx, s.api, s.led, submit.SingleRequest{Trace: *req})
	if err != nil {
		if errors.Is(err, client.ErrInsufficientCredits) {
			// A 402 names what the lookup costs and what the account has.
			company := req.IsEntity || entity.IsEntity(strings.TrimSpace(req.FirstName+" "+req.LastName))
			return nil, d.creditsError(ctx, s, err, func(p *client.Pricing, _ *client.Account) int64 {
				if company {
					return p.Rates.LLC
				}
				return p.Rates.Normal
			})
		}
		var ue *submit.UnknownError
		if errors.As(err, &ue) {
			d.emit(Event{Kind: EventStatus, Job: Job{Key: fmt.Sprintf("submission-%d", ue.SubmissionID), Kind: jobs.KindSingle,
				Name: submit.SingleName(req), Status: jobs.StatusUnknown, Rows: 1, CreatedAt: time.Now()}})
		}
		return nil, err
	}
	res := out.Result
	now := time.Now().UTC()
	d.emit(Event{Kind: EventStatus, Job: Job{ID: out.JobID, Key: out.JobID, Kind: jobs.KindSingle, Name: submit.SingleName(req), Status: "completed", Rows: 1,
		Matches: map[bool]int{true: 1}[res.Matched], Charged: res.Credits, Refunded: res.CreditsRefunded, CreatedAt: now, CompletedAt: now}})
	d.emit(Event{Kind: EventAccount})
	return res, nil
}
