package workflow

import (
	"context"
	"errors"
	"fmt"
	"iter"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
)

// The provider's reading endpoints, for the command line's `traces list`,
// `dnc get` and the like. Nothing here is charged; the charged requests go
// through Submit and Single only.

// Listed is what a list of the provider's jobs held: the jobs, the page's
// metadata (one page), and the items that could not be read (each names
// its job when it can; the others are still listed).
type Listed[T any] struct {
	Jobs       []T
	Metadata   *client.Metadata
	Unreadable []*client.ListItemError
}

// ListTraces is one page of GET /traces; with all, every page.
func (s *APIService) ListTraces(ctx context.Context, opts client.TraceListOptions, all bool) (Listed[client.Trace], error) {
	sess, err := s.current()
	if err != nil {
		return Listed[client.Trace]{}, err
	}
	if !all {
		l, err := sess.api.Traces.List(ctx, &opts)
		if err != nil {
			return Listed[client.Trace]{}, err
		}
		return Listed[client.Trace]{Jobs: l.Traces, Metadata: &l.Metadata, Unreadable: l.Invalid}, nil
	}
	return collect(sess.api.Traces.All(ctx, &opts))
}

// ListDNC is one page of GET /dnc; with all, every page.
func (s *APIService) ListDNC(ctx context.Context, opts client.ListOptions, all bool) (Listed[client.DNCJob], error) {
	sess, err := s.current()
	if err != nil {
		return Listed[client.DNCJob]{}, err
	}
	if !all {
		l, err := sess.api.DNC.List(ctx, &opts)
		if err != nil {
			return Listed[client.DNCJob]{}, err
		}
		return Listed[client.DNCJob]{Jobs: l.Jobs, Metadata: &l.Metadata, Unreadable: l.Invalid}, nil
	}
	return collect(sess.api.DNC.All(ctx, &opts))
}

// collect walks every page; an unreadable item is noted and the walk goes on.
func collect[T any](seq iter.Seq2[*T, error]) (Listed[T], error) {
	var out Listed[T]
	for x, err := range seq {
		var ie *client.ListItemError
		if errors.As(err, &ie) {
			out.Unreadable = append(out.Unreadable, ie)
			continue
		}
		if err != nil {
			return out, err
		}
		out.Jobs = append(out.Jobs, *x)
	}
	return out, nil
}

// Trace is GET /traces/:id.
func (s *APIService) Trace(ctx context.Context, id string) (*client.Trace, error) {
	sess, err := s.current()
	if err != nil {
		return nil, err
	}
	return sess.api.Traces.Get(ctx, id)
}

// DNCJob is GET /dnc/:id.
func (s *APIService) DNCJob(ctx context.Context, id string) (*client.DNCJob, error) {
	sess, err := s.current()
	if err != nil {
		return nil, err
	}
	return sess.api.DNC.Get(ctx, id)
}

// DownloadTo streams a completed job's result CSV to dest (temporary file,
// synced, renamed), outside the library. It returns the bytes written.
func (s *APIService) DownloadTo(ctx context.Context, kind jobs.Kind, id, dest string, progress func(done, total int64)) (int64, error) {
	sess, err := s.current()
	if err != nil {
		return 0, err
	}
	switch kind {
	case jobs.KindTrace:
		return sess.api.Traces.Download(ctx, id, dest, progress)
	case jobs.KindDNC:
		return sess.api.DNC.Download(ctx, id, dest, progress)
	}
	return 0, fmt.Errorf("a %s job has no result file", kind)
}

// RetryWebhookOf asks the API to deliver a finished job's webhook again.
func (s *APIService) RetryWebhookOf(ctx context.Context, kind jobs.Kind, id string) (*client.WebhookDelivery, error) {
	sess, err := s.current()
	if err != nil {
		return nil, err
	}
	if kind == jobs.KindDNC {
		return sess.api.DNC.RetryWebhook(ctx, id)
	}
	return sess.api.Traces.RetryWebhook(ctx, id)
}
