package desk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/submit"
	"github.com/skipdesk/skipdesk/jobs/tracker"
)

// pageSize of the API lists merged into the jobs list.
const pageSize = 100

// Jobs lists the ledger's jobs and unsettled submissions merged with the
// first pages of GET /traces and GET /dnc (100 jobs each), newest first.
// more reports older pages. When the API cannot be reached the ledger's
// jobs are returned with the error.
func (d *Desk) Jobs(ctx context.Context, pages int) ([]Job, bool, error) {
	s, err := d.current()
	if err != nil {
		return nil, false, err
	}
	pages = max(pages, 1)
	byID := map[string]*Job{}
	var out []*Job

	entries, err := s.led.Entries(ctx)
	if err != nil {
		return nil, false, err
	}
	for _, e := range entries {
		j := fromLedger(&e.Job, e.Spend)
		if e.Download != nil {
			if _, err := os.Stat(e.Download.Path); err == nil {
				j.ResultPath = e.Download.Path
			}
		}
		out = append(out, &j)
		byID[j.ID] = &j
	}
	subs, err := s.led.Submissions(ctx, ledger.StateIntent, ledger.StateSent, ledger.StateUnknown)
	if err != nil {
		return nil, false, err
	}
	d.mu.Lock()
	for _, sub := range subs {
		if d.submitting[sub.FileHash] {
			continue // being sent right now
		}
		j := Job{Key: submissionKey(sub.ID), Kind: jobs.Kind(sub.Kind), Name: sub.FileName,
			Status: jobs.StatusUnknown, Mode: sub.Mode, IncludeLLCs: sub.IncludeLLCs, Rows: sub.Rows, CreatedAt: sub.CreatedAt,
			ErrorMessage: sub.Error}
		out = append(out, &j)
	}
	d.mu.Unlock()

	more := false
	var apiErr error
	for p := 1; p <= pages; p++ {
		tl, err := s.api.Traces.List(ctx, &client.TraceListOptions{Page: p, Limit: pageSize})
		if err != nil {
			apiErr = err
			break
		}
		for i := range tl.Traces {
			j := fromTrace(&tl.Traces[i])
			if have, ok := byID[j.ID]; ok {
				mergeAPI(have, j)
				continue
			}
			out = append(out, &j)
			byID[j.ID] = &j
		}
		dl, err := s.api.DNC.List(ctx, &client.ListOptions{Page: p, Limit: pageSize})
		if err != nil {
			apiErr = err
			break
		}
		for i := range dl.Jobs {
			j := fromDNC(&dl.Jobs[i])
			if have, ok := byID[j.ID]; ok {
				mergeAPI(have, j)
				continue
			}
			out = append(out, &j)
			byID[j.ID] = &j
		}
		more = tl.Metadata.PageCount > p || dl.Metadata.PageCount > p
	}
	jobs := make([]Job, len(out))
	for i, j := range out {
		jobs[i] = *j
	}
	sort.SliceStable(jobs, func(a, b int) bool {
		if !jobs[a].CreatedAt.Equal(jobs[b].CreatedAt) {
			return jobs[a].CreatedAt.After(jobs[b].CreatedAt)
		}
		return jobs[a].Key > jobs[b].Key
	})
	return jobs, more, apiErr
}

// mergeAPI updates a ledger job with what the API list says, unless the
// ledger already knows it is final (a list read can be older).
func mergeAPI(have *Job, api Job) {
	if have.Final() && !api.Final() {
		return
	}
	path := have.ResultPath
	*have = api
	have.ResultPath = path
}

func fromTrace(t *client.Trace) Job {
	j := Job{ID: t.ID, Key: t.ID, Kind: jobs.KindTrace, Name: t.Name, Status: jobs.Status(t.Status), Mode: jobs.Mode(t.Mode),
		IncludeLLCs: t.IncludeLLCs, Rows: t.TotalRows, EntityRows: t.EntityRows, Matches: t.MatchCount,
		NoMatches: t.NoMatchCount, Errors: t.ErrorCount, Charged: t.CreditsCharged, Refunded: t.CreditsRefunded,
		Breakdown: t.Breakdown, CreatedAt: t.CreatedAt, CompletedAt: t.CompletedAt}
	if t.Type == client.TypeSingle {
		j.Kind = jobs.KindSingle
	}
	if t.ErrorMessage != nil {
		j.ErrorMessage = *t.ErrorMessage
	}
	return j
}

func fromDNC(x *client.DNCJob) Job {
	j := Job{ID: x.ID, Key: x.ID, Kind: jobs.KindDNC, Name: x.Name, Status: jobs.Status(x.Status), Rows: x.TotalRows,
		Matches: x.MatchCount, Errors: x.ErrorCount, Charged: x.CreditsCharged, Refunded: x.CreditsRefunded,
		CreatedAt: x.CreatedAt, CompletedAt: x.CompletedAt}
	if x.ErrorMessage != nil {
		j.ErrorMessage = *x.ErrorMessage
	}
	return j
}

// fromLedger is the job the ledger knows, from its last API object.
func fromLedger(l *ledger.Job, sp ledger.Spend) Job {
	var j Job
	switch l.Kind {
	case jobs.KindSingle:
		var r client.SingleTraceResult
		if json.Unmarshal(l.Last, &r) == nil && r.Matched {
			j.Matches = 1
		}
	case jobs.KindDNC:
		var x client.DNCJob
		if json.Unmarshal(l.Last, &x) == nil && x.ID != "" {
			j = fromDNC(&x)
		}
	default:
		var t client.Trace
		if json.Unmarshal(l.Last, &t) == nil && t.ID != "" {
			j = fromTrace(&t)
		}
	}
	j.ID, j.Key, j.Name, j.Status, j.Rows = l.ID, l.ID, l.Name, l.Status, l.TotalRows
	if j.Kind == "" || l.Kind == jobs.KindSingle {
		j.Kind = jobs.Kind(l.Kind)
	}
	if !l.CreatedAt.IsZero() {
		j.CreatedAt = l.CreatedAt
	}
	if !l.CompletedAt.IsZero() {
		j.CompletedAt = l.CompletedAt
	}
	if l.ErrorMessage != "" {
		j.ErrorMessage = l.ErrorMessage
	}
	if sp.Charged != 0 || sp.Refunded != 0 {
		j.Charged, j.Refunded = sp.Charged, sp.Refunded
	}
	return j
}

// submissionKey is the Key of the row of a submission whose outcome is not
// known yet.
func submissionKey(id int64) string { return "submission-" + strconv.FormatInt(id, 10) }

// Subscribe calls f with every job event (from any goroutine) until stop.
// Subscriptions outlive sessions: signing in again keeps them.
func (d *Desk) Subscribe(f func(Event)) (stop func()) {
	d.mu.Lock()
	id := d.nextSub
	d.nextSub++
	d.subs[id] = f
	d.mu.Unlock()
	return func() {
		d.mu.Lock()
		delete(d.subs, id)
		d.mu.Unlock()
	}
}

func (d *Desk) emit(ev Event) {
	d.mu.Lock()
	fs := make([]func(Event), 0, len(d.subs))
	for _, f := range d.subs {
		fs = append(fs, f)
	}
	d.mu.Unlock()
	for _, f := range fs {
		f(ev)
	}
}

// onTrackerEvent turns the session's tracker events into Events.
func (d *Desk) onTrackerEvent(s *session) func(tracker.Event) {
	return func(ev tracker.Event) {
		switch ev.Type {
		case tracker.DownloadProgress:
			d.emit(Event{Kind: EventProgress, Job: Job{ID: ev.JobID, Key: ev.JobID, Kind: jobs.Kind(ev.Kind), Status: ev.Status}, Done: ev.Done, Total: ev.Total})
			return
		case tracker.Error:
			return // the tracker tries again; the list shows the last known state
		case tracker.Reconciled:
			key := submissionKey(ev.Submission)
			switch {
			case ev.Job != nil:
				d.emit(Event{Kind: EventStatus, Job: fromLedger(ev.Job, ev.Spend), Replaces: key})
			case ev.SubmissionState == string(ledger.StateNotCreated):
				d.emit(Event{Kind: EventStatus, Replaces: key})
			}
			return
		}
		if ev.Job == nil {
			return
		}
		j := fromLedger(ev.Job, ev.Spend)
		kind := EventStatus
		switch ev.Type {
		case tracker.Completed:
			kind = EventCompleted
		case tracker.Failed:
			kind = EventFailed
		case tracker.Downloaded:
			j.ResultPath = ev.Path
			d.linkParent(s, ev.JobID, ev.Path)
		}
		d.emit(Event{Kind: kind, Job: j})
	}
}

// RetryWebhook asks the API to deliver the job's webhook again.
func (d *Desk) RetryWebhook(ctx context.Context, j Job) error {
	s, err := d.current()
	if err != nil {
		return err
	}
	if !j.CanRetryWebhook() {
		return fmt.Errorf("%s: webhooks are re-sent only for completed or failed jobs", j.Name)
	}
	if j.Kind == jobs.KindDNC {
		_, err = s.api.DNC.RetryWebhook(ctx, j.ID)
	} else {
		_, err = s.api.Traces.RetryWebhook(ctx, j.ID)
	}
	return err
}

// Reconcile settles unknown submissions against the API's lists (never
// resubmitting) and returns what became of j: the job it created, the same
// job still unknown, or jobs.StatusNotCreated.
func (d *Desk) Reconcile(ctx context.Context, j Job) (Job, error) {
	s, err := d.current()
	if err != nil {
		return j, err
	}
	outs, err := submit.Reconcile(ctx, s.api, s.led, nil)
	if err != nil {
		return j, err
	}
	id, _ := strconv.ParseInt(strings.TrimPrefix(j.Key, "submission-"), 10, 64)
	for _, o := range outs {
		if o.Submission == nil || o.Submission.ID != id {
			continue
		}
		switch o.State {
		case ledger.StateCreated:
			s.trk.Hint(o.JobID)
			lj, err := s.led.Job(ctx, o.JobID)
			if err != nil {
				return Job{ID: o.JobID, Key: o.JobID, Kind: j.Kind, Name: j.Name, Status: "processing", CreatedAt: j.CreatedAt}, nil
			}
			sp, _ := s.led.JobSpend(ctx, o.JobID)
			return fromLedger(lj, sp), nil
		case ledger.StateNotCreated:
			j.Status = jobs.StatusNotCreated
			return j, nil
		}
		return j, nil
	}
	sub, err := s.led.Submission(ctx, id)
	if errors.Is(err, ledger.ErrNotFound) {
		return j, fmt.Errorf("%s: no such submission in the ledger", j.Name)
	}
	if err == nil && sub.State == ledger.StateCreated {
		lj, err := s.led.Job(ctx, sub.JobID)
		if err == nil {
			sp, _ := s.led.JobSpend(ctx, sub.JobID)
			return fromLedger(lj, sp), nil
		}
	}
	if err == nil && sub.State == ledger.StateNotCreated {
		j.Status = jobs.StatusNotCreated
	}
	return j, nil
}
