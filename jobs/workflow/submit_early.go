package workflow

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/prepare"
	"github.com/skipdesk/skipdesk/jobs/reuse"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// EarlyUpload is a trace's upload started while its list is read before
// paying (ReadToSubmit): the rows of the prepared copy, as the count makes
// them, go into the request as the list is read, hashed as they go, and
// the request's tail waits. Submit, given it (SubmitOptions.Early), sends
// the tail once the checks before paying have passed and the intent is
// recorded; any other ending aborts it (Abandon), so that the server never
// has the whole body: no job, no charge.
type EarlyUpload struct {
	mu       sync.Mutex
	st       *submit.Started
	cw       *prepare.CopyWriter
	plan     Plan // the plan the copy is made for
	header   bool // the count handed the header: every row comes after it
	err      error
	progress atomic.Pointer[func(sent, total int64)]
	led      *ledger.Ledger
	counts   *Counts // the read's, once it is over
}

// earlyNot says why p's upload cannot be made while its list is read ("":
// it can), in the one place that decides it. The copy's bytes are the
// count's rows (prepare.Counter): a scrub's are not counted then; the rows
// the library holds (reusing) are known only once the whole list is read;
// and a list that may be sent as it is (neither prepare.Describe nor the
// repairs of its first rows find a reason for a copy) is known to need
// none only at its end. Those keep the upload after the read; Submit
// checks the guess against the whole list (EarlyUpload.fits).
func earlyNot(head *input.Inspection, p Plan, reusing bool) string {
	switch {
	case p.Kind != jobs.KindTrace:
		return "a scrub's rows are not counted as its list is read"
	case reusing:
		return "the rows the library holds are known once the whole list is read"
	}
	pp := p.prepare(head, p.DropDuplicates)
	if written, _ := prepare.Describe(head, pp); written {
		return ""
	}
	if n := prepare.SampleRepairs(p.Path, head, pp); n != (prepare.Repaired{}) {
		return ""
	}
	return "whether the list is sent as it is is known once it is all read"
}

// ReadToSubmit is QuoteService.Read for a list about to be submitted: where
// it can (earlyNot), the upload starts while the list is read, and the
// returned EarlyUpload goes to Submit (SubmitOptions.Early). It is nil
// where the upload waits for Submit. The caller ends a non-nil one: Submit
// does, else Abandon.
func (s *SubmitService) ReadToSubmit(ctx context.Context, path string, opts input.Options, settle func(head *input.Inspection) (Plan, error)) (
	*input.Inspection, Plan, *Counts, *EarlyUpload, error) {
	sess, err := s.books()
	if err != nil {
		return nil, Plan{}, nil, nil, err
	}
	var e *EarlyUpload
	tap := func(head *input.Inspection, p Plan, reusing bool) func(rec []string, header, dup bool) error {
		if earlyNot(head, p, reusing) != "" {
			return nil
		}
		e = s.startEarly(ctx, sess, head, p)
		if e == nil {
			return nil
		}
		return e.row
	}
	ins, p, c, err := s.quotes().read(ctx, path, opts, settle, tap)
	if err != nil {
		e.Abandon(ctx, err)
		return nil, p, nil, nil, err
	}
	if e != nil {
		e.counts = c
	}
	return ins, p, c, e, nil
}

// startEarly starts the POST of p's upload; nil where it cannot start
// (the upload then waits for Submit).
func (s *SubmitService) startEarly(ctx context.Context, sess *session, head *input.Inspection, p Plan) *EarlyUpload {
	pp := p.prepare(head, p.DropDuplicates)
	m, err := prepare.UploadMapping(p.Path, head, pp)
	if err != nil {
		return nil
	}
	e := &EarlyUpload{plan: p, led: sess.led}
	req := submit.Request{Kind: p.Kind, File: submit.File{Source: p.Path, Name: p.name(true), Size: head.Size}, Mapping: m,
		Mode: p.mode(), IncludeLLCs: p.IncludeLLCs, Options: p.options(), Progress: e.report}
	st, err := submit.Start(ctx, sess.api, req)
	if err != nil {
		return nil
	}
	e.st, e.cw = st, prepare.NewCopyWriter(st.Writer(), p.DropDuplicates)
	return e
}

// row writes the count's next row of the upload (its header first). A
// write that fails is kept for Submit: the reading goes on.
func (e *EarlyUpload) row(rec []string, header, dup bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err == nil {
		e.header = e.header || header
		e.err = e.cw.Row(rec, header, dup)
	}
	return nil
}

// report hands upload progress to Submit's, once it has one.
func (e *EarlyUpload) report(sent, total int64) {
	if f := e.progress.Load(); f != nil {
		(*f)(sent, total)
	}
}

// Abandon aborts the upload (nothing sent whole, nothing charged) unless
// Submit sent it; safe on nil and more than once.
func (e *EarlyUpload) Abandon(ctx context.Context, why error) {
	if e == nil {
		return
	}
	e.st.Abandon(ctx, e.led, why)
}

// fits reports whether e is p's upload as Submit would send it: the same
// plan, every row counted and written, no row left out for the library,
// and a copy to send (the whole list read agrees with its start).
func (e *EarlyUpload) fits(p Plan, ins *input.Inspection, pp prepare.Plan, rj *reuse.Folder) bool {
	if e == nil || rj != nil || e.counts == nil || e.counts.tally == nil || !reflect.DeepEqual(e.plan, p) {
		return false
	}
	e.mu.Lock()
	ok := e.header && e.err == nil
	e.mu.Unlock()
	written, _ := prepare.Describe(ins, pp)
	return ok && written
}

// sendEarly ends p's early upload: the copy written as the list was read
// is whole; its intent is recorded and its tail sent (submit.Started),
// and out describes it as Prepare's copy would be described.
func (s *SubmitService) sendEarly(ctx context.Context, sess *session, p Plan, ins *input.Inspection, pp prepare.Plan, rj *reuse.Folder,
	opts SubmitOptions, out *Submitted) (*submit.Result, error) {
	e := opts.Early
	if opts.Progress != nil {
		e.progress.Store(&opts.Progress)
	}
	if err := e.cw.Flush(); err != nil {
		return nil, e.st.Abandon(ctx, sess.led, err)
	}
	up := e.upload(p, ins, pp)
	if up.Size > input.MaxUploadBytes {
		err := fmt.Errorf("prepare: the file to upload would be %.1f MB: %w; split the list", float64(up.Size)/(1<<20), prepare.ErrTooLarge)
		return nil, e.st.Abandon(ctx, sess.led, err)
	}
	s.uploaded(p, up, rj, out)
	req, err := s.request(p, ins, up, opts)
	if err != nil {
		return nil, e.st.Abandon(ctx, sess.led, err)
	}
	defer s.markSubmitting(up.SHA256)()
	return e.st.Finish(ctx, sess.led, submit.File{SHA256: up.SHA256, Size: up.Size, Rows: up.Rows}, func(r *submit.Request) {
		r.Again, r.Estimate, r.OnStep, r.File.SourceSHA256 = req.Again, req.Estimate, req.OnStep, req.File.SourceSHA256
	})
}

// upload is the copy e wrote, described as Prepare describes its own:
// the counts of the rows it holds (with their duplicates, or without).
func (e *EarlyUpload) upload(p Plan, ins *input.Inspection, pp prepare.Plan) *prepare.Upload {
	c := e.counts.tally.With
	if p.DropDuplicates {
		c = e.counts.tally.Without
	}
	_, why := prepare.Describe(ins, pp)
	up := &prepare.Upload{Mapping: c.Mapping, FileName: p.name(true), Rows: e.cw.Rows, Size: e.cw.Size(), SHA256: e.cw.SHA256(),
		Written: true, Reasons: why, DroppedDuplicates: c.DroppedDuplicates, SplitFailures: c.SplitFailures, Repaired: c.Repaired}
	return up
}

// takesRows reports whether the "traced before" look-up takes the
// upload's rows as they are counted (the library holds results to reuse).
func (l *reuseLook) takesRows() bool { return l != nil && l.x != nil }
