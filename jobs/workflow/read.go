package workflow

import (
	"context"
	"errors"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/prepare"
	"github.com/skipdesk/skipdesk/jobs/reuse"
)

// Read reads a list once before it is paid for (the upload is a second
// reading): its inspection and, with the plan settle makes of the file's
// start (its headers and first rows: the person's choices, a preset, the
// automatic mapping), the counts of the trace's upload and the keys of the
// "traced before" look-up, all in the same pass; the counting runs on a
// core of its own. With opts.Hash the file's fingerprint (Inspection.SHA256)
// comes from it too. The counts are nil for a scrub, and for a plan whose
// rows cannot be counted (its mapping does not fit the file: Validate says
// why): Count counts those.
func (s *QuoteService) Read(ctx context.Context, path string, opts input.Options, settle func(head *input.Inspection) (Plan, error)) (*input.Inspection, Plan, *Counts, error) {
	var p Plan
	var look *reuseLook
	var tc *tapCounter
	ins, err := input.InspectWith(ctx, path, opts, func(head *input.Inspection) (input.Tap, error) {
		var err error
		if p, err = settle(head); err != nil {
			return nil, err
		}
		if p.Kind != jobs.KindTrace {
			return nil, nil
		}
		look = s.lookFor(ctx, p)
		tc = newTapCounter(path, head, p, look.gather())
		if tc == nil {
			return nil, nil
		}
		return tc.row, nil
	})
	if tc != nil {
		tc.stop()
	}
	if err != nil {
		return nil, p, nil, err
	}
	if tc == nil {
		return ins, p, nil, nil
	}
	t, err := tc.tally()
	if err != nil {
		return nil, p, nil, err
	}
	c := countsOf(p, ins, t)
	c.reuse = look.finish(ctx, s.core, p, ins, c)
	return ins, p, c, ctx.Err()
}

// tapCounter counts an upload from an inspection's rows on a goroutine of
// its own: the rows come in batches (their strings are the inspection's
// own, the slice of each row is not: they are copied into the batch).
type tapCounter struct {
	counter *prepare.Counter
	width   int
	batch   []string
	rows    chan []string
	done    chan struct{}
	stopped bool
	err     error
}

// tapRows is how many rows go to the counter at a time.
const tapRows = 1024

// newTapCounter starts counting p's upload; nil when its rows cannot be
// counted (its mapping does not fit the file).
func newTapCounter(path string, head *input.Inspection, p Plan, rows *reuse.Gather) *tapCounter {
	plan := p.prepare(head, true)
	var each func(rec []string, header, dup bool) error
	if rows != nil {
		m, err := prepare.UploadMapping(path, head, plan)
		if err != nil {
			return nil
		}
		each = rows.Reader(m)
	}
	c, err := prepare.NewCounter(path, head, plan, each)
	if err != nil {
		return nil
	}
	tc := &tapCounter{counter: c, width: len(head.Headers), rows: make(chan []string, 4), done: make(chan struct{})}
	go tc.run(tc.rows)
	return tc
}

func (tc *tapCounter) run(rows <-chan []string) {
	defer close(tc.done)
	for b := range rows {
		for len(b) > 0 && tc.err == nil {
			tc.err = tc.counter.Row(b[:tc.width:tc.width])
			b = b[tc.width:]
		}
	}
}

// row is the inspection's tap.
func (tc *tapCounter) row(row []string) error {
	if tc.batch == nil {
		tc.batch = make([]string, 0, tapRows*tc.width)
	}
	tc.batch = append(tc.batch, row...)
	if len(tc.batch) == cap(tc.batch) {
		tc.send()
	}
	return nil
}

func (tc *tapCounter) send() {
	if len(tc.batch) > 0 {
		tc.rows <- tc.batch
		tc.batch = nil
	}
}

// stop hands the last rows and waits for the counter.
func (tc *tapCounter) stop() {
	if tc.stopped {
		return
	}
	tc.stopped = true
	tc.send()
	close(tc.rows)
	<-tc.done
}

// tally is what was counted.
func (tc *tapCounter) tally() (*prepare.Tally, error) {
	if tc.err != nil {
		return nil, tc.err
	}
	if !tc.stopped {
		return nil, errors.New("workflow: the count is not finished")
	}
	return tc.counter.Tally(), nil
}
