package workflow

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/entity"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/prepare"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// Errors of a submission that callers tell apart (errors.Is).
var (
	// ErrDuplicate: the same file with the same mapping and options was
	// submitted within a day; nothing was sent. DuplicateOf describes the
	// earlier one. Submitting again needs SubmitOptions.Again.
	ErrDuplicate = submit.ErrDuplicate
	// ErrOutcomeUnknown: the request may have reached the server and been
	// charged. It is recorded as "unknown — may be charged" and settled by
	// reconciling against the job lists, never by sending it again.
	ErrOutcomeUnknown = client.ErrOutcomeUnknown
	// ErrTooLarge: the upload would be over the provider's 50 MB limit.
	ErrTooLarge = prepare.ErrTooLarge
)

// Duplicate is the earlier submission a refused one repeats.
type Duplicate struct {
	FileName string
	At       time.Time
	JobID    string // "" when its outcome is unknown
}

// DuplicateOf describes the earlier submission err (ErrDuplicate) repeats.
func DuplicateOf(err error) (Duplicate, bool) {
	var de *submit.DuplicateError
	if !errors.As(err, &de) || de.Earlier == nil {
		return Duplicate{}, false
	}
	return Duplicate{FileName: de.Earlier.FileName, At: de.Earlier.CreatedAt, JobID: de.Earlier.JobID}, true
}

// SubmitOptions are the choices made at the moment of paying.
type SubmitOptions struct {
	// Again submits although the same submission was made within a day.
	Again bool
	// Quote is the price the person saw, kept with the intent.
	Quote *Quote
	// Progress receives upload progress in bytes.
	Progress func(sent, total int64)
}

// Submitted is a job created and charged.
type Submitted struct {
	JobID      string
	Charged    int64
	Submission int64
	// Upload says how the file was sent: as it is, or a prepared copy
	// (and why).
	Upload UploadInfo
	// Settled are earlier submissions whose outcome was unknown and that
	// were settled just before this one (the duplicate check then sees
	// what really happened).
	Settled []Settled
}

// UploadInfo says what was uploaded for a plan.
type UploadInfo struct {
	FileName          string   `json:"file_name"`
	Rows              int      `json:"rows"`
	Written           bool     `json:"written"`           // a prepared copy, not the picked file
	Reasons           []string `json:"reasons,omitempty"` // why a copy was written
	DroppedDuplicates int      `json:"dropped_duplicates,omitempty"`
	// SplitFailures counts, per split column, values that could not be
	// split (kept whole).
	SplitFailures map[string]int `json:"split_failures,omitempty"`
}

// Submit prepares the plan's file (an .xlsx or another encoding to plain
// CSV, split columns added, duplicates dropped), settles earlier unknown
// submissions, and submits it through the ledger: the intent is recorded
// before sending and the job after, so that nothing is charged twice or
// lost. The tracker follows the new job at once.
//
// Errors: ErrDuplicate (nothing sent; DuplicateOf), ErrOutcomeUnknown (may
// be charged: reconcile), a *CreditsError for a 402 (naming the cost and
// the balance), the client's error for any other refusal (nothing charged).
func (s *Service) Submit(ctx context.Context, p Plan, ins *input.Inspection, opts SubmitOptions) (*Submitted, error) {
	sess, err := s.books()
	if err != nil {
		return nil, err
	}
	if p.Kind != jobs.KindTrace && p.Kind != jobs.KindDNC {
		return nil, fmt.Errorf("workflow: cannot submit a %q", p.Kind)
	}
	up, err := prepare.Prepare(ctx, p.Path, ins, prepare.Plan{Kind: p.Kind, Mapping: p.Mapping, Splits: p.Splits,
		DropDuplicates: p.DropDuplicates, Input: readOptions(p, ins)})
	if err != nil {
		return nil, err
	}
	defer up.Remove()
	out := &Submitted{Upload: UploadInfo{FileName: p.name(up.Written), Rows: up.Rows, Written: up.Written, Reasons: up.Reasons,
		DroppedDuplicates: up.DroppedDuplicates, SplitFailures: up.SplitFailures}}
	settled, rerr := s.reconcile(ctx, sess)
	if rerr == nil {
		out.Settled = settled
	}
	req := submit.Request{
		Kind:        p.Kind,
		File:        submit.File{Path: up.Path, Name: p.name(up.Written), SHA256: up.SHA256, Size: up.Size, Rows: up.Rows},
		Mapping:     up.Mapping,
		Mode:        p.mode(),
		IncludeLLCs: p.IncludeLLCs && p.Kind == jobs.KindTrace,
		Options:     p.options(),
		Again:       opts.Again,
		Progress:    opts.Progress,
		OnStep:      func(st submit.Step, _ *ledger.Submission) { s.cfg.step(string(st)) },
	}
	if q := opts.Quote; q != nil {
		req.Estimate = &submit.Estimate{Credits: q.Credits, Rows: q.Rows}
		if q.Trace != nil {
			req.Estimate.EntityRows = q.Trace.EntityRows
		}
	}
	s.mu.Lock()
	s.submitting[up.SHA256] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.submitting, up.SHA256)
		s.mu.Unlock()
	}()
	res, err := submit.Submit(ctx, sess.api, sess.led, req)
	if err != nil {
		var ue *submit.UnknownError
		switch {
		case errors.As(err, &ue):
			sess.trk.Refresh()
			sess.trk.ReconcileSoon()
		case errors.Is(err, client.ErrInsufficientCredits):
			// Name what the job costs: the price shown, else priced now.
			needed := int64(-1)
			if opts.Quote != nil {
				needed = opts.Quote.Credits
			} else if q, qerr := s.Quote(context.WithoutCancel(ctx), p, ins); qerr == nil {
				needed = q.Credits
			}
			return nil, s.creditsError(ctx, sess, err, needed)
		}
		return nil, err
	}
	sess.trk.Hint(res.JobID)
	s.emit(Event{Kind: EventAccount})
	out.JobID, out.Charged, out.Submission = res.JobID, res.Charged, res.Submission.ID
	return out, nil
}

// creditsError turns a 402 into a *CreditsError with what the request
// costs (needed; -1 unknown) and the balance.
func (s *Service) creditsError(ctx context.Context, sess *session, err error, needed int64) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 20*time.Second)
	defer cancel()
	ce := &CreditsError{Err: err, Needed: max(needed, 0)}
	var ae *client.APIError
	if errors.As(err, &ae) && strings.EqualFold(ae.Code, "PAST_DUE") {
		ce.PastDue = true
	}
	acc, aerr := sess.api.Account(ctx)
	if aerr != nil {
		return ce
	}
	ce.Balance = acc.Credits
	if acc.BillingMode == client.BillingMetered {
		ce.Metered = true
		ce.PastDue = ce.PastDue || (acc.Metered != nil && acc.Metered.PastDue)
	}
	return ce
}

// Single is POST /traces/single through the ledger, as a bulk submission:
// the intent is recorded before sending, the charge after. An interrupted
// lookup is left "unknown — may be charged" for reconcile, and never resent.
func (s *Service) Single(ctx context.Context, req client.SingleTraceRequest) (*client.SingleTraceResult, error) {
	sess, err := s.books()
	if err != nil {
		return nil, err
	}
	out, err := submit.Single(ctx, sess.api, sess.led, submit.SingleRequest{Trace: req,
		OnStep: func(st submit.Step, _ *ledger.Submission) { s.cfg.step(string(st)) }})
	if err != nil {
		var ue *submit.UnknownError
		switch {
		case errors.Is(err, client.ErrInsufficientCredits):
			// A 402 names what the lookup costs and what the account has.
			needed := int64(-1)
			if p, perr := sess.api.Pricing(ctx); perr == nil {
				needed = SingleCost(req, p.Rates)
			}
			return nil, s.creditsError(ctx, sess, err, needed)
		case errors.As(err, &ue):
			s.emit(Event{Kind: EventStatus, Job: Job{Key: submissionKey(ue.SubmissionID), Kind: jobs.KindSingle,
				Name: submit.SingleName(&req), Status: jobs.StatusUnknown, Rows: 1, CreatedAt: time.Now()}})
		}
		return nil, err
	}
	res := out.Result
	now := time.Now().UTC()
	matches := 0
	if res.Matched {
		matches = 1
	}
	s.emit(Event{Kind: EventStatus, Job: Job{ID: out.JobID, Key: out.JobID, Kind: jobs.KindSingle, Name: submit.SingleName(&req),
		Status: jobs.StatusCompleted, Rows: 1, Matches: matches, Charged: res.Credits, Refunded: res.CreditsRefunded,
		CreatedAt: now, CompletedAt: now}})
	s.emit(Event{Kind: EventAccount})
	return res, nil
}

// SingleCost is what a single lookup costs at rates: the llc rate for a
// company (flagged, or a name the provider recognises as one), else the
// normal rate.
func SingleCost(req client.SingleTraceRequest, r client.Rates) int64 {
	if SingleIsCompany(req) {
		return r.LLC
	}
	return r.Normal
}

// SingleIsCompany: the provider prices the lookup as a company's.
func SingleIsCompany(req client.SingleTraceRequest) bool {
	return req.IsEntity || entity.IsEntity(strings.TrimSpace(req.FirstName+" "+req.LastName))
}

// TracePhones writes the phones of a completed trace's result (phone_1 to
// phone_3, blanks and repeated numbers skipped) as a one-column phone list
// for a DNC scrub, and returns the plan that scrubs it, linked to the trace.
func (s *Service) TracePhones(ctx context.Context, traceResultPath, traceJobID string) (Plan, error) {
	in, err := os.Open(traceResultPath)
	if err != nil {
		return Plan{}, err
	}
	defer in.Close()
	r := csv.NewReader(in)
	r.FieldsPerRecord, r.LazyQuotes, r.ReuseRecord = -1, true, true
	header, err := r.Read()
	if err != nil {
		return Plan{}, fmt.Errorf("%s: no header row: %w", traceResultPath, err)
	}
	var cols []int
	for i, h := range header {
		switch strings.TrimSpace(h) {
		case "phone_1", "phone_2", "phone_3":
			cols = append(cols, i)
		}
	}
	if len(cols) == 0 {
		return Plan{}, fmt.Errorf("%s is not a trace result: no phone_1..phone_3 columns", filepath.Base(traceResultPath))
	}
	dir := filepath.Join(s.cfg.Home, "phone-lists")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Plan{}, err
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
			return Plan{}, fmt.Errorf("%s: %w", traceResultPath, err)
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
			return Plan{}, ctx.Err()
		}
	}
	w.Flush()
	if n == 0 {
		return Plan{}, fmt.Errorf("the trace %s found no phone numbers to scrub", traceJobID)
	}
	if err := library.WriteFileAtomic(out, []byte(b.String())); err != nil {
		return Plan{}, err
	}
	return Plan{Kind: jobs.KindDNC, Path: out, Mapping: mapping.Mapping{mapping.Phone: "phone"}, ParentTraceID: traceJobID}, nil
}
