package workflow

import (
	"context"
	"io"

	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/prepare"
	"github.com/skipdesk/skipdesk/jobs/reuse"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// sendStreamed submits p's prepared copy while it is written
// (submit.SubmitStreamed): the copy goes straight into the request,
// hashed as it goes, rather than to disk and then read again; its tail
// waits until the copy is whole, within the size limit, and its intent
// recorded (the duplicate guard has seen its SHA-256). The copy's bytes,
// SHA-256, rows and counts are the ones Prepare writes, so the ledger and
// the duplicate guard see the same submission either way.
func (s *SubmitService) sendStreamed(ctx context.Context, sess *session, p Plan, ins *input.Inspection, pp prepare.Plan, rj *reuse.Folder,
	opts SubmitOptions, out *Submitted) (*submit.Result, error) {
	m, err := prepare.UploadMapping(p.Path, ins, pp)
	if err != nil {
		return nil, err
	}
	// The request before the copy exists: what it is known by up front.
	req, err := s.request(p, ins, &prepare.Upload{Mapping: m, Written: true, Size: ins.Size}, opts)
	if err != nil {
		return nil, err
	}
	req.File.Path = ""
	ended := func() {}
	defer func() { ended() }()
	produce := func(ctx context.Context, w io.Writer) (submit.File, error) {
		up, err := prepare.Stream(ctx, p.Path, ins, pp, w)
		if err != nil {
			return submit.File{}, err
		}
		s.uploaded(p, up, rj, out)
		ended = s.markSubmitting(up.SHA256)
		return submit.File{SHA256: up.SHA256, Size: up.Size, Rows: up.Rows}, nil
	}
	return submit.SubmitStreamed(ctx, sess.api, sess.led, req, produce)
}
