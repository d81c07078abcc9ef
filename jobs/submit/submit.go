// Package submit creates trace and DNC jobs so that a job is never paid for
// twice and never lost.
//
// The API has no idempotency key and charges up front, so a job-creating POST
// is never resent once its bytes may have reached the server. Submit writes
// each step to the ledger before taking the next one: the intent (with the
// tag that will make its job recognisable, tag.go), then "sent" right
// before the POST, then the job id. Only a 2xx naming a job is "created"
// and only the spec's refusals are "failed" (client.ChargedOutcome): any
// other answer (a redirect, 408, 409, another 4xx, a 5xx, a broken
// connection after sending, an unreadable answer) leaves the submission
// "unknown — may be charged", and so does a crash between the steps.
// Reconcile settles such submissions by looking for the job carrying its tag
// in the API's lists; it never resubmits, and never adopts a job that
// merely looks like it.
package submit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/mapping"
)

// DuplicateWindow is how far back Submit looks for the same submission.
const DuplicateWindow = 24 * time.Hour

// ErrDuplicate is matched (errors.Is) by the *DuplicateError Submit returns
// when the same file with the same mapping and options was submitted within
// DuplicateWindow and Request.Again is false. Nothing was sent.
var ErrDuplicate = errors.New("submit: the same file was submitted recently")

// DuplicateError names the earlier submission, and what became of it, so
// that a "pay twice?" question can say what is at stake. Its safe answer is
// not to submit: a dialog asking it makes Cancel the default button.
type DuplicateError struct {
	Earlier *ledger.Submission
	// Job is the earlier submission's job as the ledger last saw it (nil
	// when its outcome is not known yet).
	Job *ledger.Job
	// Spend is that job's credits (zero without a job).
	Spend ledger.Spend
	// MaybeCharged is true when the earlier submission's outcome is unknown:
	// it may have created a job and been charged.
	MaybeCharged bool
	// Elsewhere: the earlier submission was made on another computer
	// (Earlier.Computer names it).
	Elsewhere bool
}

func (e *DuplicateError) Error() string {
	s := e.Earlier
	name, _ := Untag(s.FileName)
	var what string
	switch {
	case s.State == ledger.StateIntent || s.State == ledger.StateSent:
		what = "it is being sent right now"
	case s.JobID == "":
		what = "it may have created a job and been charged (outcome unknown)"
	case e.Job != nil && e.Job.Status != "":
		what = fmt.Sprintf("job %s, %s", s.JobID, e.Job.Status)
		if e.Spend.Charged > 0 {
			what += fmt.Sprintf(", charged %d credits", e.Spend.Charged)
		}
	default:
		what = "created job " + s.JobID
	}
	from := ""
	if e.Elsewhere && s.Computer != "" {
		from = " from " + s.Computer
	}
	return fmt.Sprintf("%s was submitted%s with the same content, mapping and options at %s (%s); submit again only if you mean to pay for it twice",
		name, from, s.CreatedAt.Local().Format("2006-01-02 15:04"), what)
}

// Is makes errors.Is(err, ErrDuplicate) true.
func (e *DuplicateError) Is(target error) bool { return target == ErrDuplicate }

// UnknownError is returned when the POST may or may not have created (and
// charged for) a job. It matches client.ErrOutcomeUnknown. The submission is
// recorded as unknown; Reconcile settles it.
type UnknownError struct {
	SubmissionID int64
	Err          error
}

func (e *UnknownError) Error() string {
	return fmt.Sprintf("submission %d may have created a job and been charged; it is recorded and will be reconciled against the job lists (never resubmitted): %v",
		e.SubmissionID, e.Err)
}

func (e *UnknownError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, client.ErrOutcomeUnknown) true even when the cause
// was not a client error (a crash-like failure to record the outcome).
func (e *UnknownError) Is(target error) bool { return target == client.ErrOutcomeUnknown }

// Step names the points of a submission, each committed to the ledger.
type Step string

const (
	StepIntent  Step = "intent"  // the intent is recorded; nothing was sent
	StepSent    Step = "sent"    // "sent" is recorded; the POST starts next
	StepPosted  Step = "posted"  // the POST answered with a job id, not yet recorded
	StepCreated Step = "created" // the job id is recorded
)

// File is the upload: the file actually sent (after preparation).
type File struct {
	Path string
	// Source is the file the person picked, which Path was prepared from
	// (the job's record and its export name it); "" when Path is that
	// file.
	Source string
	// Name is the person's name for the file; the name sent (the job's
	// name) is this with the submission's tag added (TagName). Default: the
	// base name of Path.
	Name   string
	SHA256 string // hex digest of the bytes of Path
	// SourceSHA256 is the hex digest of the file the person picked, before
	// preparation; the duplicate guard matches on it as well as on SHA256.
	// "" when not known.
	SourceSHA256 string
	Size         int64
	Rows         int // data rows (CONTRACT §1)
}

// Request is one submission.
type Request struct {
	Kind jobs.Kind // jobs.KindTrace or jobs.KindDNC
	File File
	// Mapping is the column mapping: service key → header. For a DNC job it
	// is {mapping.Phone: header}.
	Mapping     map[string]string
	Mode        jobs.Mode // traces: jobs.ModeNormal (default) or jobs.ModeEnhanced
	IncludeLLCs bool
	// Options are the other choices that shaped the upload: part of what
	// makes two submissions the same.
	Options Options
	// Estimate is the cost the person saw, kept with the intent.
	Estimate *Estimate
	// Again submits even when the same submission was made recently.
	Again bool
	// Progress receives upload progress.
	Progress func(sent, total int64)
	// OnStep, when set, is called after each step is committed (before the
	// next one starts). Tests use it to stop the process at each step.
	OnStep func(Step, *ledger.Submission)
}

// Options are the preparation choices that shaped an upload besides the
// mapping and the mode. The window and the command line fill the same
// struct, so the same choices made in either are the same submission.
type Options struct {
	DropDuplicates bool `json:"drop_duplicates,omitempty"`
	// Splits are the columns split into service fields (a full-name or a
	// one-line address column).
	Splits     []string `json:"splits,omitempty"`
	HeaderLine int      `json:"header_line,omitempty"` // the header's line in the picked file; 0 detected
	Sheet      string   `json:"sheet,omitempty"`       // the workbook sheet; "" the first
	// ParentTraceID links a scrub of a trace's phones to that trace.
	ParentTraceID string `json:"parent_trace_id,omitempty"`
	// Repairs made before paying: ZIP codes given back their leading
	// zero, rows without an address, with an invalid phone or with a
	// number outside the US left out.
	PadZips           bool `json:"pad_zips,omitempty"`
	LeaveOutNoAddress bool `json:"leave_out_no_address,omitempty"`
	LeaveOutInvalid   bool `json:"leave_out_invalid,omitempty"`
	LeaveOutAbroad    bool `json:"leave_out_abroad,omitempty"`
}

// Estimate is what the person was shown before paying.
type Estimate struct {
	Credits    int64 `json:"credits"`
	Rows       int   `json:"rows"`
	EntityRows int   `json:"entity_rows,omitempty"`
}

// Result is a created job.
type Result struct {
	Submission *ledger.Submission
	JobID      string
	Charged    int64
	// Warning says what is implausible about the figures the server
	// answered with (ledger.Implausible); "" when nothing.
	Warning string
	Trace   *client.TraceCreated // traces
	DNC     *client.DNCCreated   // DNC jobs
}

// active holds the submissions being sent by this process: Reconcile leaves
// them alone (their "sent" state is not a leftover of a crash). A
// submission joins it in the same critical section that records its
// intent, so that a Reconcile running meanwhile never sees the intent
// without knowing it is being sent.
var (
	activeMu sync.Mutex
	active   = map[activeKey]struct{}{}
)

type activeKey struct {
	led *ledger.Ledger
	id  int64
}

// recordActive records sub's intent and marks it as being sent; the
// returned done ends that.
func recordActive(ctx context.Context, led *ledger.Ledger, sub *ledger.Submission) (id int64, done func(), err error) {
	activeMu.Lock()
	defer activeMu.Unlock()
	id, err = led.Submissions().RecordIntent(ctx, sub)
	if err != nil {
		return 0, nil, err
	}
	k := activeKey{led, id}
	active[k] = struct{}{}
	return id, func() {
		activeMu.Lock()
		delete(active, k)
		activeMu.Unlock()
	}, nil
}

// beginSend records sub's intent (refused with a *ledger.ClaimedError
// where another submission holds its claim) and then that it is being
// sent, calling onStep, when set, after each step. step reports the later
// steps; done releases the submission once its outcome is recorded.
func beginSend(ctx context.Context, led *ledger.Ledger, sub *ledger.Submission, onStep func(Step, *ledger.Submission)) (
	id int64, step func(Step), done func(), err error) {
	id, done, err = recordActive(ctx, led, sub)
	if err != nil {
		return 0, nil, nil, err
	}
	step = func(s Step) {
		if onStep != nil {
			onStep(s, sub)
		}
	}
	step(StepIntent)
	if err := markSent(ctx, led, id, sub); err != nil {
		done()
		return 0, nil, nil, err
	}
	step(StepSent)
	return id, step, done, nil
}

// markSent records that submission id is about to be sent. Where ctx is
// cancelled or the ledger cannot record it, nothing is sent: the
// submission is recorded as not created and the error returned.
func markSent(ctx context.Context, led *ledger.Ledger, id int64, sub *ledger.Submission) error {
	rec := context.WithoutCancel(ctx)
	if err := ctx.Err(); err != nil {
		led.Submissions().MarkNotCreated(rec, id, "cancelled before sending")
		return err
	}
	if err := led.Submissions().MarkSent(ctx, id); err != nil {
		// Not recorded as sent, so not sent.
		led.Submissions().MarkNotCreated(rec, id, "could not record the submission: "+err.Error())
		return err
	}
	sub.State = ledger.StateSent
	return nil
}

func (r *Request) normalise() error {
	if err := r.normaliseJob(); err != nil {
		return err
	}
	return r.normaliseFile()
}

// normaliseJob checks and completes what the job is: its kind, mode and
// mapping.
func (r *Request) normaliseJob() error {
	switch r.Kind {
	case jobs.KindTrace:
		if r.Mode == "" {
			r.Mode = jobs.ModeNormal
		}
		if len(r.Mapping) == 0 {
			return errors.New("submit: a trace needs a column mapping")
		}
	case jobs.KindDNC:
		if r.Mapping[mapping.Phone] == "" {
			return errors.New("submit: a DNC scrub needs the phone column (mapping key \"phone\")")
		}
		r.Mode, r.IncludeLLCs = "", false
	default:
		return fmt.Errorf("submit: unknown kind %q (want trace or dnc)", r.Kind)
	}
	return nil
}

// normaliseFile checks and completes what is known of the file sent.
func (r *Request) normaliseFile() error {
	if r.File.Path == "" {
		return errors.New("submit: no file to upload")
	}
	if r.File.Name == "" {
		r.File.Name = filepath.Base(r.File.Path)
	}
	if r.File.SHA256 == "" {
		return fmt.Errorf("submit: %s: the upload's SHA-256 is missing", r.File.Name)
	}
	return nil
}

func encodeOptional(e *Estimate, what string) (json.RawMessage, error) {
	if e == nil {
		return nil, nil
	}
	b, err := json.Marshal(e)
	if err != nil {
		return nil, fmt.Errorf("submit: %s: %w", what, err)
	}
	return b, nil
}

// Submit creates a job for req through api, recording every step in led.
//
// Errors: a *DuplicateError (ErrDuplicate) when the same submission was made
// within DuplicateWindow and req.Again is false, nothing sent; an
// *UnknownError (client.ErrOutcomeUnknown) when a job may have been created;
// the client's error when the server refused the upload (nothing charged).
func Submit(ctx context.Context, api *client.Client, led *ledger.Ledger, req Request) (*Result, error) {
	if err := req.normalise(); err != nil {
		return nil, err
	}
	tag := NewTag()
	sent := TagName(req.File.Name, tag)
	sub, err := req.submission(tag, sent)
	if err != nil {
		return nil, err
	}
	id, step, done, err := claim(ctx, led, sub, req.OnStep)
	if err != nil {
		return nil, err
	}
	defer done()
	res := &Result{Submission: sub}
	c, err := post(ctx, api, req, sent, res, nil)
	return finish(ctx, led, req, id, step, res, c, err)
}

// submission is the ledger's record of req, its file sent as sent.
func (r *Request) submission(tag, sent string) (*ledger.Submission, error) {
	opts, err := json.Marshal(r.Options)
	if err != nil {
		return nil, fmt.Errorf("submit: options: %w", err)
	}
	est, err := encodeOptional(r.Estimate, "estimate")
	if err != nil {
		return nil, err
	}
	source := r.File.Source
	if source == "" {
		source = r.File.Path
	}
	return &ledger.Submission{Kind: r.Kind, FilePath: source, FileName: sent, Tag: tag, FileHash: r.File.SHA256,
		SourceHash: r.File.SourceSHA256, FileSize: r.File.Size, Rows: r.File.Rows, Mapping: r.Mapping, Mode: r.Mode,
		IncludeLLCs: r.IncludeLLCs, Options: opts, Estimate: est, Again: r.Again}, nil
}

// claim records sub's intent and that it is being sent (beginSend). The
// duplicate guard is the ledger's claim, taken with the intent: whichever
// computer records the same submission first sends it; the other gets a
// *DuplicateError.
func claim(ctx context.Context, led *ledger.Ledger, sub *ledger.Submission, onStep func(Step, *ledger.Submission)) (
	id int64, step func(Step), done func(), err error) {
	id, step, done, err = beginSend(ctx, led, sub, onStep)
	var claimed *ledger.ClaimedError
	if errors.As(err, &claimed) {
		dup, derr := led.Submissions().Submission(ctx, claimed.Holder)
		if derr != nil {
			return 0, nil, nil, fmt.Errorf("%w (%v)", ErrDuplicate, derr)
		}
		return 0, nil, nil, duplicateError(ctx, led, dup)
	}
	return id, step, done, err
}

// finish records what the POST of submission id came to (c, or err) and
// returns the result.
func finish(ctx context.Context, led *ledger.Ledger, req Request, id int64, step func(Step), res *Result, c *created, err error) (*Result, error) {
	sub := res.Submission
	// The outcome must be recorded whatever happened to ctx meanwhile.
	rec := context.WithoutCancel(ctx)
	if err != nil {
		return nil, recordFailure(rec, led, sub, err)
	}
	step(StepPosted)

	raw, _ := json.Marshal(c.response)
	jobID, charged, rows := c.jobID, c.charged, c.rows
	if c.name == "" {
		c.name = req.File.Name
	}
	err = led.Submissions().MarkCreated(rec, id, ledger.Created{JobID: jobID, Response: raw, Charged: charged,
		Job: ledger.Job{Kind: req.Kind, Name: c.name, Status: c.status, TotalRows: rows, CreatedAt: time.Now()}})
	if err != nil {
		// The job exists but the ledger did not take it: leave the
		// submission "sent" for Reconcile, and say which job it was.
		return nil, &UnknownError{SubmissionID: id, Err: fmt.Errorf("job %s was created but could not be recorded: %w", jobID, err)}
	}
	sub.State, sub.JobID, sub.Response = ledger.StateCreated, jobID, raw
	res.JobID, res.Charged = jobID, charged
	res.Warning = ledger.Implausible(rows, ledger.Spend{Charged: charged})
	step(StepCreated)
	return res, nil
}

// created is what the server answered a job's creation with.
type created struct {
	jobID, name string
	status      jobs.Status
	charged     int64
	rows        int
	response    any // the answer as it came, recorded in the ledger
}

// post sends the submission (its file named sent) and reads the job it
// created; the answer is kept on res too. An answer without a job id is an
// unknown outcome.
func post(ctx context.Context, api *client.Client, req Request, sent string, res *Result, held *client.HeldFile) (*created, error) {
	var c created
	switch req.Kind {
	case jobs.KindTrace:
		t, err := api.Traces.Create(ctx, &client.TraceUpload{Path: req.File.Path, FileName: sent, Mode: string(req.Mode),
			ColumnMapping: req.Mapping, IncludeLLCs: req.IncludeLLCs, Progress: req.Progress, Held: held})
		if err != nil {
			return nil, err
		}
		res.Trace, c.response = t, t
		c.jobID, c.status, c.charged, c.rows, c.name = t.ID, t.Status, t.CreditsCharged, t.TotalRows, sent
	case jobs.KindDNC:
		d, err := api.DNC.Create(ctx, &client.DNCUpload{Path: req.File.Path, FileName: sent,
			PhoneColumn: req.Mapping[mapping.Phone], Progress: req.Progress, Held: held})
		if err != nil {
			return nil, err
		}
		res.DNC, c.response = d, d
		c.jobID, c.status, c.charged, c.rows, c.name = d.ID, d.Status, d.CreditsCharged, d.TotalRows, d.Name
	}
	if strings.TrimSpace(c.jobID) == "" {
		return nil, fmt.Errorf("%w: the server answered without a job id", client.ErrOutcomeUnknown)
	}
	if c.status == "" {
		c.status = jobs.StatusProcessing
	}
	return &c, nil
}

// recordFailure records what a charged call's error says happened, by the
// client's one rule (client.ChargedOutcome): refused → failed, never sent
// → not created, anything else → unknown, which may have been charged and
// goes to Reconcile. It returns the error to give the caller: an
// *UnknownError for an unknown outcome, err otherwise.
func recordFailure(ctx context.Context, led *ledger.Ledger, sub *ledger.Submission, err error) error {
	switch client.ChargedOutcome(err) {
	case client.Refused:
		led.Submissions().MarkFailed(ctx, sub.ID, err.Error())
		sub.State = ledger.StateFailed
		return err
	case client.NotSent:
		led.Submissions().MarkNotCreated(ctx, sub.ID, err.Error())
		sub.State = ledger.StateNotCreated
		return err
	}
	if mErr := led.Submissions().MarkUnknown(ctx, sub.ID, err.Error()); mErr != nil {
		err = errors.Join(err, mErr)
	}
	sub.State = ledger.StateUnknown
	return &UnknownError{SubmissionID: sub.ID, Err: err}
}

// duplicateError describes an earlier submission of the same content.
func duplicateError(ctx context.Context, led *ledger.Ledger, dup *ledger.Submission) *DuplicateError {
	e := &DuplicateError{Earlier: dup, MaybeCharged: dup.State.Pending(),
		Elsewhere: led.Shared() && dup.ComputerID != led.Team().Me().ComputerID}
	if dup.JobID != "" {
		if j, err := led.Jobs().Job(ctx, dup.JobID); err == nil {
			e.Job = j
		}
		e.Spend, _ = led.Jobs().JobSpend(ctx, dup.JobID)
	}
	return e
}
