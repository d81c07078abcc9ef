package prepare

import (
	"context"
	"errors"

	"github.com/skipdesk/skipdesk/jobs/input"
)

// Each reads src as the plan's upload would hold it and hands fn its
// header (header true), then each of its rows in order (splits applied,
// duplicates dropped when the plan says so, Keep asked). rec is reused
// between calls. It writes nothing.
func Each(ctx context.Context, src string, ins *input.Inspection, plan Plan, fn func(rec []string, header bool) error) error {
	if ins == nil {
		return errors.New("prepare: no inspection")
	}
	_, derived, err := layout(src, ins, plan)
	if err != nil {
		return err
	}
	return stream(ctx, src, ins, plan, ins.Headers, derived, &Upload{}, fn)
}
