package tracker

import (
	"context"
	"fmt"
	"time"

	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// reconcileEvery is how often the tracker looks for submissions whose
// outcome is unknown (a crash or a broken connection during the POST).
const reconcileEvery = time.Minute

// reconciler settles unknown submissions: at start (what a crashed run
// left), then every minute while one may still find its job, and at once
// when ReconcileSoon asks. A job found is
// adopted and tracked like any other; nothing is ever resubmitted.
func (t *Tracker) reconciler(ctx context.Context) {
	for {
		if err := t.reconcileDue(ctx); err != nil && ctx.Err() == nil {
			t.emitErr("", fmt.Errorf("tracker: settling submissions with an unknown outcome: %w", err))
		}
		timer := time.NewTimer(reconcileEvery)
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-t.reconcileWake:
			timer.Stop()
		case <-timer.C:
		}
	}
}

// reconcileDue runs submit.Reconcile when a pending submission was never
// looked at, or its window (when its job may still appear) is open or just
// closed. One still unknown after that (the lists could not be read back far
// enough) is left to the user's Reconcile, rather than read for every minute.
func (t *Tracker) reconcileDue(ctx context.Context) error {
	pending, err := t.led.Submissions().List(ctx, ledger.StateIntent, ledger.StateSent, ledger.StateUnknown)
	if err != nil || len(pending) == 0 {
		return err
	}
	now := time.Now()
	due := false
	for _, s := range pending {
		if s.ReconciledAt.IsZero() || now.Before(s.CreatedAt.Add(submit.WindowAfter+2*reconcileEvery)) {
			due = true
			break
		}
	}
	if !due {
		return nil
	}
	outs, err := submit.Reconcile(ctx, t.api, t.led, nil)
	for _, o := range outs {
		if o.State == o.Submission.State {
			continue
		}
		ev := Event{Type: Reconciled, Kind: o.Submission.Kind, Submission: o.Submission.ID,
			SubmissionState: string(o.State), Reason: o.Reason}
		if o.JobID != "" {
			ev.JobID = o.JobID
			if j, err := t.led.Jobs().Job(ctx, o.JobID); err == nil {
				ev.Job, ev.Status, ev.Kind = j, j.Status, j.Kind
			}
			ev.Spend, _ = t.led.Jobs().JobSpend(ctx, o.JobID)
		}
		t.emit(ev)
		if o.JobID != "" {
			t.Hint(o.JobID) // track it now
		}
	}
	return err
}
