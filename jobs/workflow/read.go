package workflow

import (
	"context"
	"slices"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/prepare"
)

// Read reads a list once before it is paid for (the upload is a second
// reading): its inspection and, with the plan settle makes of the file's
// start (its headers and first rows: the person's choices, a preset, the
// automatic mapping), the counts of the trace's upload and the keys of the
// "traced before" look-up, or the scan of a scrub's phone column, all in
// the same pass; the counting runs on the inspection's second goroutine,
// beside the reading. With opts.Hash the file's fingerprint
// (Inspection.SHA256) comes from it too. Rows repeated are counted by the
// upload's key (Counts.Duplicates), not by the inspection's (its
// DuplicateRows is 0). The counts are nil for a plan
// whose rows cannot be counted (its mapping does not fit the file:
// Validate says why) or that reads the file otherwise (another header
// line or sheet), or while the library's index has results to read (the
// list is shown at once; its look-up waits for the index): Count counts
// those.
func (s *QuoteService) Read(ctx context.Context, path string, opts input.Options, settle func(head *input.Inspection) (Plan, error)) (*input.Inspection, Plan, *Counts, error) {
	return s.read(ctx, path, opts, settle, nil)
}

// Read is QuoteService.Read without the library: it needs no session.
func Read(ctx context.Context, path string, opts input.Options, settle func(head *input.Inspection) (Plan, error)) (*input.Inspection, Plan, *Counts, error) {
	return (&QuoteService{}).read(ctx, path, opts, settle, nil)
}

// rowTap is handed, once the plan is settled from the file's start, the
// plan and whether the "traced before" look-up takes the upload's rows
// (reusing); the function it returns, when not nil, is handed every row of
// the trace's upload as the count makes it (prepare.Counter's rows): a
// row repeating an earlier one is told so (dup) where the plan drops
// duplicates, else every row comes with dup false.
type rowTap func(head *input.Inspection, p Plan, reusing bool) func(rec []string, header, dup bool) error

// read is Read; tap, when not nil, sees the upload's rows too.
func (s *QuoteService) read(ctx context.Context, path string, opts input.Options, settle func(head *input.Inspection) (Plan, error),
	tap rowTap) (*input.Inspection, Plan, *Counts, error) {
	// The counts find the rows repeating an earlier one by the upload's
	// key (the mapped columns: what the provider bills again, and what
	// leaving out duplicates leaves out); the inspection's own count of
	// whole rows repeated would be a second figure for the same question:
	// not made (its DuplicateRows stays 0).
	opts.KeyColumns = []string{}
	var p Plan
	var look *reuseLook
	defer func() { look.close() }()
	var counter *prepare.Counter
	var scan *phone.Scanner
	ins, err := input.InspectWith(ctx, path, opts, func(head *input.Inspection) (input.Tap, error) {
		var err error
		if p, err = settle(head); err != nil {
			return nil, err
		}
		if p.Kind == jobs.KindDNC {
			sc, tap := scanTap(p, head)
			if tap == nil {
				return nil, nil // read otherwise: Count scans it
			}
			if look = s.lookFor(ctx, p, false); look.waits() {
				return nil, nil // counted once the library's index is current
			}
			scan = sc
			return look.phoneTap(path, head, p, tap), nil
		}
		if p.Kind != jobs.KindTrace {
			return nil, nil
		}
		if look = s.lookFor(ctx, p, false); look.waits() {
			return nil, nil // counted once the library's index is current
		}
		plan := p.prepare(head, true)
		var also func(rec []string, header, dup bool) error
		if tap != nil {
			also = tap(head, p, look.takesRows())
		}
		switch {
		case also != nil && !p.DropDuplicates:
			// Every row goes to the tap, its duplicates too: they are
			// found after the pass, not looked up row by row.
			counter, err = prepare.NewCounterHanding(path, head, plan, func(rec []string, header, _ bool) error {
				return also(rec, header, false)
			}, nil)
		case also != nil: // the library takes no row (tap is told)
			counter, err = prepare.NewCounter(path, head, plan, also)
		default:
			counter, err = look.counter(path, head, plan)
		}
		if err != nil {
			return nil, nil // its rows cannot be counted: its mapping does not fit the file
		}
		return func(row []string, _ int) error { return counter.Row(row) }, nil
	})
	if err != nil {
		return nil, p, nil, err
	}
	if scan != nil {
		return s.scanned(ctx, p, ins, scan, look)
	}
	if counter == nil {
		return ins, p, nil, nil
	}
	look.startHeld(ctx, s.core)
	c := countsOf(p, ins, counter.Tally())
	c.reuse = look.finish(ctx, s.core, p, ins, c)
	return ins, p, c, ctx.Err()
}

// scanTap is the tap that scans a scrub's phone column in the inspection's
// pass; nil when p reads the file otherwise than that pass (another header
// line or sheet) or names no column of it (Count says why).
func scanTap(p Plan, head *input.Inspection) (*phone.Scanner, input.Tap) {
	o := readOptions(p, head)
	col := slices.Index(head.Headers, p.Mapping[mapping.Phone])
	if o.HeaderLine != head.HeaderLine || o.Sheet != head.Sheet || col < 0 {
		return nil, nil
	}
	sc := phone.NewScanner(p.Path, head.Headers[col], scanOptions(p, head))
	return sc, func(row []string, line int) error {
		sc.Add(row[col], line)
		return nil
	}
}

// scanned are a scrub's counts from the scan of its inspection's pass,
// with what the library already holds of its numbers (look).
func (s *QuoteService) scanned(ctx context.Context, p Plan, ins *input.Inspection, sc *phone.Scanner, look *reuseLook) (*input.Inspection, Plan, *Counts, error) {
	scan, err := sc.Scan(ins.HeaderLine)
	if err != nil {
		return nil, p, nil, err
	}
	c := scrubCounts(p, ins, scan)
	c.reuse = look.finish(ctx, s.core, p, ins, c)
	return ins, p, c, ctx.Err()
}
