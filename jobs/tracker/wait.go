package tracker

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
)

// Outcome is where a job ended up.
type Outcome struct {
	Job      *ledger.Job
	Spend    ledger.Spend
	Download *ledger.Download // nil for a failed job, or without a library
}

// Wait blocks until the job has failed or its result is in the library
// (without a library: until it completed or failed). The tracker must be
// running (Run) for anything to change. It returns a *StuckError when the
// job cannot progress now (not visible to the key, its download failing),
// and a *StillTrackedError when the job has shown a status SkipDesk does
// not know for Options.UnknownStatusWait: the tracker keeps following it.
func (t *Tracker) Wait(ctx context.Context, jobID string) (*Outcome, error) {
	var o *Outcome
	var strange jobs.Status // the unknown status last seen
	var since time.Time     // when it was first seen, in this Wait
	err := t.waitFor(ctx, jobID, func() (bool, error) {
		var done bool
		var err error
		o, done, err = t.settled(ctx, jobID)
		if err != nil || done || o == nil {
			return done, err
		}
		switch st := o.Job.Status; {
		case knownStatus(st):
			strange, since = "", time.Time{}
		case st != strange:
			strange, since = st, time.Now()
		case t.opts.UnknownStatusWait > 0 && time.Since(since) >= t.opts.UnknownStatusWait:
			return false, &StillTrackedError{JobID: jobID, Status: st, For: time.Since(since).Round(time.Second)}
		}
		return false, nil
	})
	return o, err
}

// knownStatus reports whether a status is one the spec lists.
func knownStatus(s jobs.Status) bool {
	return s == jobs.StatusProcessing || s == jobs.StatusCompleted || s == jobs.StatusFailed
}

// StillTrackedError is returned by Wait when the job has shown a status
// SkipDesk does not know (the spec says the full set is not shown) for
// Options.UnknownStatusWait. The status is kept as the service sent it,
// never taken for completed or failed; the job stays in flight, and the
// tracker keeps following it and downloads its result if it completes.
type StillTrackedError struct {
	JobID  string
	Status jobs.Status
	For    time.Duration // how long Wait saw it
}

func (e *StillTrackedError) Error() string {
	return fmt.Sprintf("job %s has been %q for %v, a status SkipDesk does not know; it is still tracked, and its result is downloaded if it completes: "+
		"wait for it again later (skipdesk-cli jobs wait %s) or follow it in the jobs list", e.JobID, client.CleanText(string(e.Status)), e.For, e.JobID)
}

// StuckError is returned by WaitIdle when the only jobs left cannot
// progress now: jobs the API key cannot see (another account's), results
// that keep failing to download. The tracker keeps trying them.
type StuckError struct {
	Jobs  map[string]string // job id → why
	local map[string]bool
}

// Local reports whether every stuck job is stuck on this computer (its
// result cannot be written into the library), not on the service.
func (e *StuckError) Local() bool {
	for id := range e.Jobs {
		if !e.local[id] {
			return false
		}
	}
	return len(e.Jobs) > 0
}

func (e *StuckError) add(jobID string, r stuckReason) {
	if e.Jobs == nil {
		e.Jobs, e.local = map[string]string{}, map[string]bool{}
	}
	e.Jobs[jobID], e.local[jobID] = r.why, r.local
}

func (e *StuckError) Error() string {
	ids := make([]string, 0, len(e.Jobs))
	for id := range e.Jobs {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = id + ": " + e.Jobs[id]
	}
	return fmt.Sprintf("%d %s cannot be finished now (%s)", len(ids), map[bool]string{true: "job", false: "jobs"}[len(ids) == 1],
		strings.Join(parts, "; "))
}

// WaitIdle blocks until no job is in flight and every completed job's
// result is in the library. When the jobs left are all stuck it returns a
// *StuckError.
func (t *Tracker) WaitIdle(ctx context.Context) error {
	return t.waitFor(ctx, "", func() (bool, error) {
		inflight, err := t.led.Jobs().InFlight(ctx)
		if err != nil {
			return false, err
		}
		left := inflight
		if t.lib != nil {
			todo, err := t.led.Jobs().NotDownloadedHere(ctx)
			if err != nil {
				return false, err
			}
			left = append(left, todo...)
		}
		if len(left) == 0 {
			return true, nil
		}
		t.mu.Lock()
		defer t.mu.Unlock()
		stuck := &StuckError{}
		for _, j := range left {
			r, ok := t.stuck[j.ID]
			if !ok {
				return false, nil
			}
			stuck.add(j.ID, r)
		}
		return false, stuck
	})
}

// waitFor re-checks done after every event about jobID ("" any job), and
// every second.
func (t *Tracker) waitFor(ctx context.Context, jobID string, done func() (bool, error)) error {
	poke := make(chan struct{}, 1)
	cancel := t.Subscribe(func(e Event) {
		if e.Type != DownloadProgress && (jobID == "" || e.JobID == jobID) {
			select {
			case poke <- struct{}{}:
			default:
			}
		}
	})
	defer cancel()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		ok, err := done()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-poke:
		case <-tick.C:
		}
	}
}

func (t *Tracker) settled(ctx context.Context, jobID string) (*Outcome, bool, error) {
	j, err := t.led.Jobs().Job(ctx, jobID)
	if err != nil {
		return nil, false, err
	}
	sp, err := t.led.Jobs().JobSpend(ctx, jobID)
	if err != nil {
		return nil, false, err
	}
	o := &Outcome{Job: j, Spend: sp}
	t.mu.Lock()
	r, stuck := t.stuck[jobID]
	t.mu.Unlock()
	if stuck {
		se := &StuckError{}
		se.add(jobID, r)
		return nil, false, se
	}
	switch {
	case j.Status == jobs.StatusFailed:
		return o, true, nil
	case j.Status == jobs.StatusCompleted && t.lib == nil:
		return o, true, nil
	case j.Status == jobs.StatusCompleted:
		d, err := t.led.Jobs().JobDownload(ctx, jobID)
		if errors.Is(err, ledger.ErrNotFound) {
			// Completed, perhaps seen by another computer: its result is
			// downloaded here (once: a queued download is not queued again).
			t.enqueue(jobID)
			return o, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		o.Download = d
		return o, true, nil
	}
	return o, false, nil
}
