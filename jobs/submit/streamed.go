package submit

import (
	"context"
	"fmt"
	"io"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/ledger"
)

// Produce writes an upload's bytes into w and returns the file they make
// (SHA256, Size and Rows) once every byte is written.
type Produce func(ctx context.Context, w io.Writer) (File, error)

// posted is what the POST of a streamed submission came to.
type posted struct {
	c   *created
	err error
}

// SubmitStreamed is Submit for an upload written while it is sent: the
// POST starts at once and takes the bytes produce writes as they come,
// but its tail is held back (client.HeldFile) until every byte is written
// and the intent is recorded with the upload's SHA-256 (the duplicate
// guard's claim) and marked sent. Only then may the server have the whole
// body. Where produce fails, the claim is refused (*DuplicateError), the
// ledger cannot record the intent or ctx ends, the request is aborted
// with its body incomplete: no job, no charge, nothing recorded.
//
// req.File names the picked file (Path, or Source) and its name and
// fingerprint (SourceSHA256); produce gives SHA256, Size and Rows. Its
// Size, when set, is the expected size, for progress.
//
// An answer the server gives before the tail is sent (a job created from
// an incomplete body, or any answer that is not a refusal) is recorded as
// Submit records it, whatever the duplicate guard says: the job may exist.
func SubmitStreamed(ctx context.Context, api *client.Client, led *ledger.Ledger, req Request, produce Produce) (*Result, error) {
	st, err := Start(ctx, api, req)
	if err != nil {
		return nil, err
	}
	f, err := produce(ctx, st.Writer())
	if err != nil {
		return nil, st.Abandon(ctx, led, err)
	}
	return st.Finish(ctx, led, f, nil)
}

// Started is a submission whose POST has started, its file being written
// (Writer) and its tail held: Finish or Abandon ends it, always one of
// them.
type Started struct {
	api    *client.Client
	req    Request
	tag    string
	sent   string
	held   *client.HeldFile
	res    *Result
	answer chan posted
	cancel context.CancelFunc // ends the POST (Abandon: a dial or retry does not outlast it)
	ended  bool
}

// Start starts the POST of req, whose file is then written into Writer
// (SubmitStreamed). req.File names the picked file (Path, or Source), its
// name and its fingerprint (SourceSHA256); Finish gives the rest.
func Start(ctx context.Context, api *client.Client, req Request) (*Started, error) {
	if err := req.normaliseJob(); err != nil {
		return nil, err
	}
	if req.File.Path == "" {
		req.File.Path = req.File.Source
	}
	if req.File.Name == "" || req.File.Path == "" {
		return nil, fmt.Errorf("submit: a streamed upload needs its file's name")
	}
	st := &Started{api: api, req: req, tag: NewTag(), held: client.NewHeldFile(req.File.Size), res: &Result{}, answer: make(chan posted, 1)}
	st.sent = TagName(req.File.Name, st.tag)
	pctx, cancel := context.WithCancel(ctx)
	st.cancel = cancel
	go func() {
		// req, not st.req: Finish completes st.req meanwhile.
		c, err := post(pctx, api, req, st.sent, st.res, st.held)
		st.answer <- posted{c, err}
	}()
	return st, nil
}

// Writer takes the file's bytes.
func (st *Started) Writer() io.Writer { return st.held }

// Finish ends a started submission whose file f is all written: its
// intent is recorded with f's SHA-256 (the duplicate guard's claim) and
// marked sent, then the tail goes and the outcome is recorded, as Submit
// does. amend, when not nil, completes the request first with what is
// known only now (Again, Estimate, OnStep, File.SourceSHA256); the rest
// was sent at Start. A claim refused or not recorded abandons it
// (Abandon).
func (st *Started) Finish(ctx context.Context, led *ledger.Ledger, f File, amend func(*Request)) (*Result, error) {
	req := &st.req
	req.File.SHA256, req.File.Size, req.File.Rows = f.SHA256, f.Size, f.Rows
	if amend != nil {
		amend(req)
	}
	if err := req.normaliseFile(); err != nil {
		return nil, st.Abandon(ctx, led, err)
	}
	sub, err := req.submission(st.tag, st.sent)
	if err != nil {
		return nil, st.Abandon(ctx, led, err)
	}
	st.held.Close()
	id, step, done, err := claim(ctx, led, sub, req.OnStep)
	if err != nil {
		return nil, st.Abandon(ctx, led, err)
	}
	defer done()
	st.ended = true
	st.res.Submission = sub
	st.held.Release()
	a := <-st.answer
	st.cancel()
	return finish(ctx, led, *req, id, step, st.res, a.c, a.err)
}

// Abandon aborts a started submission before its tail was sent, for why,
// and returns why; nothing once it ended. An answer the server gave all
// the same (a job, or an answer that is not a refusal) is recorded as
// Submit records it, the intent taken whatever the duplicate guard says;
// the error is then that outcome's.
func (st *Started) Abandon(ctx context.Context, led *ledger.Ledger, why error) error {
	if st.ended {
		return why
	}
	st.ended = true
	st.held.Abort(why)
	// Cancelled too, so that a POST still dialling or waiting to retry
	// ends now; an answer being read is then cut, and recorded unknown.
	st.cancel()
	a := <-st.answer
	switch client.ChargedOutcome(a.err) {
	case client.Refused, client.NotSent:
		return why
	}
	// The server answered before the end of the body: record it.
	req := st.req
	rec := context.WithoutCancel(ctx)
	if req.File.SHA256 == "" {
		req.File.SHA256 = req.File.SourceSHA256 // the upload was not all written
	}
	req.Again = true
	sub, err := req.submission(st.tag, st.sent)
	if err != nil {
		return fmt.Errorf("%w (and the job the server answered with was not recorded: %v)", why, err)
	}
	id, step, done, err := claim(rec, led, sub, nil)
	if err != nil {
		return &UnknownError{Err: fmt.Errorf("the server answered before the upload was complete, and the ledger could not record it: %w", err)}
	}
	defer done()
	st.res.Submission = sub
	if _, err := finish(rec, led, req, id, step, st.res, a.c, a.err); err != nil {
		return err
	}
	return &UnknownError{SubmissionID: id, Err: fmt.Errorf("the server created job %s before the upload was complete (%v)", st.res.JobID, why)}
}
