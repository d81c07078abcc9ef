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
	if err := req.normaliseJob(); err != nil {
		return nil, err
	}
	if req.File.Path == "" {
		req.File.Path = req.File.Source
	}
	if req.File.Name == "" || req.File.Path == "" {
		return nil, fmt.Errorf("submit: a streamed upload needs its file's name")
	}
	tag := NewTag()
	sent := TagName(req.File.Name, tag)
	held := client.NewHeldFile(req.File.Size)
	res := &Result{}
	answer := make(chan posted, 1)
	go func() {
		c, err := post(ctx, api, req, sent, res, held)
		answer <- posted{c, err}
	}()
	f, err := produce(ctx, held)
	if err == nil {
		held.Close()
		req.File.SHA256, req.File.Size, req.File.Rows = f.SHA256, f.Size, f.Rows
		err = req.normaliseFile()
	}
	if err != nil {
		return nil, abandon(ctx, led, req, tag, sent, held, res, answer, err)
	}
	sub, err := req.submission(tag, sent)
	if err != nil {
		return nil, abandon(ctx, led, req, tag, sent, held, res, answer, err)
	}
	id, step, done, err := claim(ctx, led, sub, req.OnStep)
	if err != nil {
		return nil, abandon(ctx, led, req, tag, sent, held, res, answer, err)
	}
	defer done()
	res.Submission = sub
	held.Release()
	a := <-answer
	return finish(ctx, led, req, id, step, res, a.c, a.err)
}

// abandon aborts a streamed submission's request before its tail was
// sent, for why, and returns why. An answer the server gave all the same
// (a job, or an answer that is not a refusal) is recorded as Submit
// records it, the intent taken whatever the duplicate guard says; the
// error is then that outcome's.
func abandon(ctx context.Context, led *ledger.Ledger, req Request, tag, sent string, held *client.HeldFile, res *Result,
	answer chan posted, why error) error {
	held.Abort(why)
	a := <-answer
	switch client.ChargedOutcome(a.err) {
	case client.Refused, client.NotSent:
		return why
	}
	// The server answered before the end of the body: record it.
	rec := context.WithoutCancel(ctx)
	if req.File.SHA256 == "" {
		req.File.SHA256 = req.File.SourceSHA256 // the upload was not all written
	}
	req.Again = true
	sub, err := req.submission(tag, sent)
	if err != nil {
		return fmt.Errorf("%w (and the job the server answered with was not recorded: %v)", why, err)
	}
	id, step, done, err := claim(rec, led, sub, nil)
	if err != nil {
		return &UnknownError{Err: fmt.Errorf("the server answered before the upload was complete, and the ledger could not record it: %w", err)}
	}
	defer done()
	res.Submission = sub
	if _, err := finish(rec, led, req, id, step, res, a.c, a.err); err != nil {
		return err
	}
	return &UnknownError{SubmissionID: id, Err: fmt.Errorf("the server created job %s before the upload was complete (%v)", res.JobID, why)}
}
