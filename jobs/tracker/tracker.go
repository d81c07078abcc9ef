// Package tracker follows every job in flight until its result is in the
// library.
//
// One Tracker serves all jobs: it reads the list endpoints (one GET /traces
// page of 100 covers up to 100 jobs, GET /dnc likewise) rather than one GET
// per job, walks further pages only for jobs older than the first page
// shows, and falls back to GET by id for a job the lists do not show. Each
// job is due for a look on a schedule that backs off as it ages; a webhook
// (Hint) makes a job due at once. A read budget well under the spec's 1200
// reads a minute, and the server's X-RateLimit-* headers, bound the request
// rate whatever the number of jobs.
//
// The tracker keeps no state of its own: it starts from the ledger (jobs in
// flight, completed jobs not yet downloaded) and writes every change back,
// so it resumes after a crash or a restart. On completion it downloads the
// result into the library exactly once and records the spend (credits
// charged minus refunded).
//
// Events go to subscriber functions (the window's bridge, the CLI's progress
// line). It imports no UI package.
package tracker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/busy"
	"github.com/skipdesk/skipdesk/jobs/fanout"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// Defaults of Options.
const (
	DefaultReadsPerMinute = 480 // 40% of the spec's 1200: room for the app's other reads
	DefaultDownloads      = 2
	// DefaultUnknownStatusWait is how long Wait follows a job in a status
	// SkipDesk does not know (Options.UnknownStatusWait).
	DefaultUnknownStatusWait = 30 * time.Minute
	listLimit                = 100
	maxPagesPerPoll          = 10
	reloadEvery              = 10 * time.Second
	notFoundBackoff          = 5 * time.Minute
)

// DefaultInterval is the polling schedule: how long after a look a job of
// this age is looked at again. A small list is done in about a second:
// its first seconds are looked at four times a second (one list read
// covers every job in flight, and the read budget caps them all).
func DefaultInterval(age time.Duration) time.Duration {
	switch {
	case age < 5*time.Second:
		return 250 * time.Millisecond
	case age < time.Minute:
		return time.Second
	case age < 10*time.Minute:
		return 2 * time.Second
	case age < time.Hour:
		return 20 * time.Second
	default:
		return time.Minute
	}
}

// Options tune a Tracker. The zero value works (without downloads).
type Options struct {
	// Library receives the results; nil: results are not downloaded.
	Library *library.Library
	// Interval is the polling schedule by job age; default DefaultInterval.
	Interval func(age time.Duration) time.Duration
	// ReadsPerMinute caps the tracker's own reads; default
	// DefaultReadsPerMinute. A quarter goes to polling (lists, gets), the
	// rest to downloads, so that a burst of downloads never delays noticing
	// a completion.
	ReadsPerMinute int
	// Downloads is how many results download at once; default 2.
	Downloads int
	// UnknownStatusWait is how long Wait follows a job showing a status
	// SkipDesk does not know before it returns a *StillTrackedError (the
	// tracker keeps following the job); default DefaultUnknownStatusWait,
	// less than 0 waits for ever.
	UnknownStatusWait time.Duration
	// NoReconcile leaves submissions whose outcome is unknown to the
	// caller's own submit.Reconcile. By default Run settles them at start,
	// and every minute while their jobs may still appear in the lists.
	NoReconcile bool
	// LeaseTTL is how long the lease on a job of a team's ledger lasts
	// unless renewed (default ledger.DefaultLeaseTTL); the tracker renews
	// its leases three times within it.
	LeaseTTL time.Duration
	// DownloadRetry is the wait before a failed download is tried again,
	// doubling with each failure up to 5 minutes; default
	// DefaultDownloadRetry.
	DownloadRetry time.Duration
	// OnStep, when set, is called at points tests stop the process at:
	// "tracking" after a look at a job still in flight, "download" when the
	// first bytes of a result are written (the download not yet complete),
	// "downloaded" when the result is in place but not yet recorded,
	// "recorded" when its job record is beside it but the ledger does not
	// have the download yet.
	OnStep func(step, jobID string)
}

// Tracker follows jobs. Create it with New, start it with Run.
type Tracker struct {
	api  *client.Client
	led  *ledger.Ledger
	lib  *library.Library
	opts Options

	pollBudget, dlBudget *budget
	wake                 chan struct{}
	reconcileWake        chan struct{} // ReconcileSoon

	subs fanout.List[Event]

	mu       sync.Mutex
	jobs     map[string]*tracked // in flight
	hinted   map[string]bool
	queued   map[string]bool // downloads queued or running
	retries  map[string]int  // failed download attempts
	jobLocks map[string]*sync.Mutex
	stuck    map[string]stuckReason // jobs that cannot progress now, and why
	// unreadable: list items already reported as unreadable (id and why).
	unreadable map[string]bool
	dlq        chan string

	// work counts what the tracker was asked to do and has not done yet:
	// each hint until the look it asked for has been taken, each download
	// from its queueing to the end of its attempt (Quiet waits for it).
	work      busy.Tracker
	hintDone  []func()          // the hints the next look answers (under mu)
	fetchDone map[string]func() // the downloads queued, by job (under mu)

	obsMu sync.Mutex // one observation at a time: events in order, no double Completed
}

type tracked struct {
	job       *ledger.Job
	firstSeen time.Time
	next      time.Time
}

// New makes a tracker of the jobs in led, reading through api.
func New(api *client.Client, led *ledger.Ledger, opts Options) *Tracker {
	if opts.Interval == nil {
		opts.Interval = DefaultInterval
	}
	if opts.ReadsPerMinute <= 0 {
		opts.ReadsPerMinute = DefaultReadsPerMinute
	}
	if opts.Downloads <= 0 {
		opts.Downloads = DefaultDownloads
	}
	if opts.UnknownStatusWait == 0 {
		opts.UnknownStatusWait = DefaultUnknownStatusWait
	}
	if opts.DownloadRetry <= 0 {
		opts.DownloadRetry = DefaultDownloadRetry
	}
	if opts.LeaseTTL <= 0 {
		opts.LeaseTTL = ledger.DefaultLeaseTTL
	}
	if led != nil {
		led.Team().SetLeaseTTL(opts.LeaseTTL)
	}
	return &Tracker{
		api: api, led: led, lib: opts.Library, opts: opts,
		pollBudget:    newBudget(max(1, opts.ReadsPerMinute/4), api),
		dlBudget:      newBudget(max(1, opts.ReadsPerMinute-opts.ReadsPerMinute/4), api),
		wake:          make(chan struct{}, 1),
		reconcileWake: make(chan struct{}, 1),
		jobs:          map[string]*tracked{},
		hinted:        map[string]bool{},
		queued:        map[string]bool{},
		retries:       map[string]int{},
		jobLocks:      map[string]*sync.Mutex{},
		stuck:         map[string]stuckReason{},
		unreadable:    map[string]bool{},
		dlq:           make(chan string, 1024),
		fetchDone:     map[string]func(){},
	}
}

// Subscribe calls f with every event, from the tracker's goroutines, until
// cancel is called. f must return quickly (hand the event over, not work
// on it). It may call the tracker (Hint, Fetch), except Fetch of the job a
// DownloadProgress event is about.
func (t *Tracker) Subscribe(f func(Event)) (cancel func()) { return t.subs.Subscribe(f) }

func (t *Tracker) emit(e Event) {
	if e.At.IsZero() {
		e.At = time.Now()
	}
	t.subs.Send(e)
}

func (t *Tracker) emitErr(jobID string, err error) {
	t.emit(Event{Type: Error, JobID: jobID, Err: err})
}

// Hint makes a job due at once (a webhook said it changed, or it was just
// submitted). An empty id makes every job due.
func (t *Tracker) Hint(jobID string) {
	done := t.work.Add()
	t.mu.Lock()
	t.hinted[jobID] = true
	t.hintDone = append(t.hintDone, done)
	t.mu.Unlock()
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// ReconcileSoon settles submissions whose outcome is unknown now, rather
// than at the next minute: a submission's answer was just lost, and its job,
// if the server made one, is in the lists already.
func (t *Tracker) ReconcileSoon() {
	select {
	case t.reconcileWake <- struct{}{}:
	default:
	}
}

// Quiet waits until the tracker has done what it was asked: every hint
// answered by a look at the lists and every download queued attempted. Tests
// wait for it rather than for time to pass.
func (t *Tracker) Quiet(ctx context.Context) error { return t.work.Wait(ctx) }

// takeHints takes the hints the coming look answers.
func (t *Tracker) takeHints() []func() {
	t.mu.Lock()
	defer t.mu.Unlock()
	h := t.hintDone
	t.hintDone = nil
	return h
}

// endWork ends the count of what is left undone when Run stops.
func (t *Tracker) endWork() {
	t.mu.Lock()
	done := t.hintDone
	t.hintDone = nil
	for id, d := range t.fetchDone {
		done = append(done, d)
		delete(t.fetchDone, id)
	}
	t.mu.Unlock()
	for _, d := range done {
		d()
	}
}

// Refresh makes every job due at once.
func (t *Tracker) Refresh() { t.Hint("") }

func (t *Tracker) step(name, jobID string) {
	if t.opts.OnStep != nil {
		t.opts.OnStep(name, jobID)
	}
}

// Run tracks until ctx ends. It loads the jobs in flight and the results not
// yet downloaded from the ledger first, so it resumes where an earlier run
// (or a crashed process) stopped, and settles the submissions such a run
// left with an unknown outcome (unless Options.NoReconcile).
func (t *Tracker) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	if t.lib != nil {
		for range t.opts.Downloads {
			wg.Go(func() { t.downloader(ctx) })
		}
	}
	if !t.opts.NoReconcile {
		wg.Go(func() { t.reconciler(ctx) })
	}
	defer wg.Wait()

	lastReload := time.Time{}
	every := t.reloadEvery()
	for {
		answered := t.takeHints()
		now := time.Now()
		if now.Sub(lastReload) >= every || t.needReload() {
			if err := t.reload(ctx); err != nil && ctx.Err() == nil {
				t.emitErr("", err)
			}
			lastReload = now
		}
		t.pollDue(ctx)
		for _, done := range answered {
			done()
		}
		if ctx.Err() != nil {
			t.endWork()
			return nil
		}
		wait := t.untilNext(time.Now())
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			t.endWork()
			return nil
		case <-t.wake:
			timer.Stop()
		case <-timer.C:
		}
	}
}

// needReload reports whether a hint names a job the tracker does not follow
// (one just submitted, or a finished one) or asks for a full refresh.
func (t *Tracker) needReload() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for id := range t.hinted {
		if _, ok := t.jobs[id]; !ok {
			return true
		}
	}
	return false
}

// reloadEvery is how often the tracker reads the ledger again: on a team's
// ledger, often enough to renew its leases three times in their life.
func (t *Tracker) reloadEvery() time.Duration {
	if t.led.Shared() {
		return min(reloadEvery, t.opts.LeaseTTL/3)
	}
	return reloadEvery
}

// reload brings the in-memory set in line with the ledger: new jobs in
// flight (submitted since), jobs no longer in flight, results to download.
// On a team's ledger it follows only the jobs it holds the lease of (a job
// nobody follows, or whose follower disappeared, it takes).
func (t *Tracker) reload(ctx context.Context) error {
	inflight, err := t.led.Jobs().InFlight(ctx)
	if err == nil && t.led.Shared() {
		inflight, err = t.leased(ctx, inflight)
	}
	if err != nil {
		if t.led.Shared() {
			// What cannot be recorded is not followed: the jobs are
			// taken up again when the database is back.
			t.mu.Lock()
			clear(t.jobs)
			t.mu.Unlock()
		}
		return err
	}
	now := time.Now()
	t.mu.Lock()
	seen := map[string]bool{}
	for _, j := range inflight {
		seen[j.ID] = true
		if tr, ok := t.jobs[j.ID]; ok {
			tr.job = j
			continue
		}
		t.jobs[j.ID] = &tracked{job: j, firstSeen: now} // next zero: due now
	}
	for id := range t.jobs {
		if !seen[id] {
			delete(t.jobs, id)
		}
	}
	t.mu.Unlock()
	if t.lib != nil {
		todo, err := t.led.Jobs().NotDownloadedHere(ctx)
		if err != nil {
			return err
		}
		for _, j := range todo {
			t.enqueue(j.ID)
		}
	}
	return nil
}

// leased is the jobs of inflight whose lease this tracker holds, renewed.
func (t *Tracker) leased(ctx context.Context, inflight []*ledger.Job) ([]*ledger.Job, error) {
	ids := make([]string, len(inflight))
	for i, j := range inflight {
		ids[i] = j.ID
	}
	held, err := t.led.Team().TakeLeases(ctx, ids, t.opts.LeaseTTL)
	if err != nil {
		return nil, err
	}
	out := inflight[:0]
	for _, j := range inflight {
		if held[j.ID] {
			out = append(out, j)
		}
	}
	return out, nil
}

// Following reports whether this tracker follows the job now.
func (t *Tracker) Following(jobID string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.jobs[jobID]
	return ok
}

// untilNext is how long to sleep before the next due job.
func (t *Tracker) untilNext(now time.Time) time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.hinted) > 0 {
		return 0
	}
	wait := t.reloadEvery() // a team's leases are renewed in time
	for _, tr := range t.jobs {
		if d := tr.next.Sub(now); d < wait {
			wait = d
		}
	}
	return max(wait, 0)
}

// pollDue looks at every due job, one list read per kind covering them all.
func (t *Tracker) pollDue(ctx context.Context) {
	now := time.Now()
	t.mu.Lock()
	all := t.hinted[""]
	due := map[jobs.Kind][]*tracked{}
	for id, tr := range t.jobs {
		if all || t.hinted[id] || !tr.next.After(now) {
			due[tr.job.Kind] = append(due[tr.job.Kind], tr)
		}
	}
	var finalHints []string
	for id := range t.hinted {
		if _, ok := t.jobs[id]; !ok && id != "" {
			finalHints = append(finalHints, id)
		}
	}
	clear(t.hinted)
	t.mu.Unlock()

	// A hint about a job not in flight: a completed job whose result may
	// still be missing.
	for _, id := range finalHints {
		if t.lib != nil {
			if j, err := t.led.Jobs().Job(ctx, id); err == nil && j.Status == jobs.StatusCompleted {
				t.enqueue(id)
			}
		}
	}
	for _, kind := range []jobs.Kind{jobs.KindTrace, jobs.KindDNC} {
		if len(due[kind]) > 0 {
			t.poll(ctx, kind, due[kind])
		}
	}
}

// schedule sets a job's next look from its age.
func (t *Tracker) schedule(tr *tracked, now time.Time, extra time.Duration) {
	// The younger of the server's age and the time this process has known
	// the job: a server clock behind ours must not slow a new job down.
	born := tr.firstSeen
	if c := tr.job.CreatedAt; !c.IsZero() && c.After(born) && !c.After(now) {
		born = c
	}
	tr.next = now.Add(t.opts.Interval(now.Sub(born)) + extra)
}

// item is one job as the API showed it.
type item struct {
	trace *client.Trace
	dnc   *client.DNCJob
}

func (it item) id() string {
	if it.trace != nil {
		return it.trace.ID
	}
	return it.dnc.ID
}

// job is the ledger's record of the item, and the spend it reports.
func (it item) job() (ledger.Job, ledger.Spend) {
	if it.trace != nil {
		return submit.TraceJob(it.trace), ledger.Spend{Charged: it.trace.CreditsCharged, Refunded: it.trace.CreditsRefunded}
	}
	return submit.DNCJob(it.dnc), ledger.Spend{Charged: it.dnc.CreditsCharged, Refunded: it.dnc.CreditsRefunded}
}

func (it item) encodedID() string {
	if it.trace != nil {
		return it.trace.EncodedID
	}
	return it.dnc.EncodedID
}

func (it item) created() time.Time {
	if it.trace != nil {
		return it.trace.CreatedAt
	}
	return it.dnc.CreatedAt
}

// poll reads the list pages of one kind and observes every tracked job they
// show; due jobs they do not show are read one by one.
func (t *Tracker) poll(ctx context.Context, kind jobs.Kind, due []*tracked) {
	// A job's record is replaced under t.mu (a webhook, a reload): what
	// is read of it here is read under t.mu too.
	remaining := map[string]*tracked{}
	t.mu.Lock()
	for _, tr := range due {
		remaining[tr.job.ID] = tr
	}
	t.mu.Unlock()
	for page := 1; page <= maxPagesPerPoll && len(remaining) > 0; page++ {
		if err := t.pollBudget.take(ctx); err != nil {
			return
		}
		items, invalid, md, err := t.list(ctx, kind, page)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			t.emitErr("", fmt.Errorf("tracker: reading the %s list: %w", kind, err))
			t.backoff(due, err)
			return
		}
		// A job the list shows in a form the client cannot read is
		// reported (once) and, if tracked, read alone below: it stays in
		// remaining.
		t.reportUnreadable(invalid)
		t.observe(ctx, t.matchPage(items, remaining))
		if len(items)+len(invalid) == 0 || page >= md.PageCount || !t.olderThan(remaining, items[len(items)-1].created()) {
			// Walk on only for jobs older than the oldest this page shows.
			break
		}
	}
	for id, tr := range remaining {
		if !t.pollOne(ctx, kind, id, tr) {
			return
		}
	}
}

// matchPage pairs a page of the list with the jobs tracked, taking the
// due ones out of remaining. The ledger knows a job by the id the API
// returned at creation: the prefixed id or, from some servers, the encoded
// one.
func (t *Tracker) matchPage(items []item, remaining map[string]*tracked) []observation {
	var obs []observation
	for _, it := range items {
		var tr *tracked
		for _, id := range []string{it.id(), it.encodedID()} {
			if tr = remaining[id]; id != "" && tr != nil {
				delete(remaining, id)
				break
			}
		}
		if tr == nil {
			// Not due but tracked: the look is free, take it.
			t.mu.Lock()
			tr = t.jobs[it.id()]
			if tr == nil && it.encodedID() != "" {
				tr = t.jobs[it.encodedID()]
			}
			t.mu.Unlock()
		}
		if tr != nil {
			obs = append(obs, observation{it, tr})
		}
	}
	return obs
}

// olderThan reports whether a job left may be older than the oldest a
// page showed (or has no creation time).
func (t *Tracker) olderThan(remaining map[string]*tracked, oldest time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, tr := range remaining {
		if tr.job.CreatedAt.IsZero() || !tr.job.CreatedAt.After(oldest) {
			return true
		}
	}
	return false
}

// pollOne reads a job the list did not show, alone; false when the poll
// is to end (ctx is done).
func (t *Tracker) pollOne(ctx context.Context, kind jobs.Kind, id string, tr *tracked) bool {
	if err := t.pollBudget.take(ctx); err != nil {
		return false
	}
	it, err := t.get(ctx, kind, id)
	switch {
	case err == nil:
		t.observe(ctx, []observation{{it, tr}})
	case ctx.Err() != nil:
		return false
	case errors.Is(err, client.ErrNotFound):
		t.emitErr(id, fmt.Errorf("tracker: job %s is not visible to this API key (404); looking again in %v", id, notFoundBackoff))
		t.mu.Lock()
		t.schedule(tr, time.Now(), notFoundBackoff)
		t.stuck[id] = stuckReason{why: "not visible to this API key"}
		t.mu.Unlock()
	default:
		t.emitErr(id, fmt.Errorf("tracker: reading job %s: %w", id, err))
		t.backoff([]*tracked{tr}, err)
	}
	return true
}

// backoff delays jobs after a failed read: by the server's Retry-After when
// it sent one, else a few seconds more than usual.
func (t *Tracker) backoff(trs []*tracked, err error) {
	extra := 5 * time.Second
	var ae *client.APIError
	if errors.As(err, &ae) && ae.RetryAfter > 0 {
		extra = ae.RetryAfter
	}
	now := time.Now()
	t.mu.Lock()
	for _, tr := range trs {
		t.schedule(tr, now, extra)
	}
	t.mu.Unlock()
}

// list reads one page of a kind's list: the jobs it could read, and the
// items it could not.
func (t *Tracker) list(ctx context.Context, kind jobs.Kind, page int) ([]item, []*client.ListItemError, client.Metadata, error) {
	switch kind {
	case jobs.KindTrace:
		l, err := t.api.Traces.List(ctx, &client.TraceListOptions{Page: page, Limit: listLimit, Type: client.TypeBulk})
		if err != nil {
			return nil, nil, client.Metadata{}, err
		}
		return itemsOf(l.Traces, func(tr *client.Trace) item { return item{trace: tr} }), l.Invalid, l.Metadata, nil
	case jobs.KindDNC:
		l, err := t.api.DNC.List(ctx, &client.ListOptions{Page: page, Limit: listLimit})
		if err != nil {
			return nil, nil, client.Metadata{}, err
		}
		return itemsOf(l.Jobs, func(d *client.DNCJob) item { return item{dnc: d} }), l.Invalid, l.Metadata, nil
	}
	return nil, nil, client.Metadata{}, fmt.Errorf("tracker: unknown kind %q", kind)
}

// itemsOf wraps each job of a list's page as an item.
func itemsOf[J any](list []J, wrap func(*J) item) []item {
	out := make([]item, len(list))
	for i := range list {
		out[i] = wrap(&list[i])
	}
	return out
}

// reportUnreadable emits an Error for each list item the client could not
// read, naming the job when its id could be read; the same problem of the
// same job is reported once.
func (t *Tracker) reportUnreadable(invalid []*client.ListItemError) {
	for _, e := range invalid {
		key := e.ID + "\x00" + e.Reason
		t.mu.Lock()
		seen := t.unreadable[key]
		t.unreadable[key] = true
		t.mu.Unlock()
		if !seen {
			t.emitErr(e.ID, fmt.Errorf("tracker: %w; the other jobs are tracked, and a tracked job it hides is read on its own", e))
		}
	}
}

func (t *Tracker) get(ctx context.Context, kind jobs.Kind, id string) (item, error) {
	if kind == jobs.KindDNC {
		d, err := t.api.DNC.Get(ctx, id)
		return item{dnc: d}, err
	}
	tr, err := t.api.Traces.Get(ctx, id)
	return item{trace: tr}, err
}

// observation is one look at a tracked job.
type observation struct {
	it item
	tr *tracked
}

// observe records what the API showed about tracked jobs (one write for
// all of them) and reports the changes.
func (t *Tracker) observe(ctx context.Context, obs []observation) {
	if len(obs) == 0 {
		return
	}
	states := make([]ledger.JobState, len(obs))
	t.mu.Lock()
	for i, o := range obs {
		j, sp := o.it.job()
		// Keep the id and kind the ledger knows the job by.
		j.ID, j.Kind = o.tr.job.ID, o.tr.job.Kind
		states[i] = ledger.JobState{Job: j, Spend: sp}
	}
	t.mu.Unlock()
	curs := t.record(ctx, states)
	now := time.Now()
	t.mu.Lock()
	for i, o := range obs {
		delete(t.stuck, o.tr.job.ID)
		if curs[i] != nil {
			o.tr.job = curs[i]
		}
		t.schedule(o.tr, now, 0)
		if states[i].Job.Status.Final() {
			delete(t.jobs, o.tr.job.ID)
		}
	}
	t.mu.Unlock()
	for _, s := range states {
		if !s.Job.Status.Final() {
			t.step("tracking", s.Job.ID)
		}
	}
}

// record writes jobs' new states and emits the events they imply. It
// returns, for each, the ledger's record, or nil when nothing changed.
func (t *Tracker) record(ctx context.Context, states []ledger.JobState) []*ledger.Job {
	// Events go out after the lock is released, so that a subscriber may
	// call back into the tracker.
	var events []Event
	defer func() {
		for _, e := range events {
			t.emit(e)
		}
	}()
	t.obsMu.Lock()
	defer t.obsMu.Unlock()
	out := make([]*ledger.Job, len(states))
	prevs := make([]*ledger.Job, len(states))
	var write []ledger.JobState
	var idx []int
	for i, s := range states {
		j := s.Job
		prev, err := t.led.Jobs().Job(ctx, j.ID)
		if err != nil && !errors.Is(err, ledger.ErrNotFound) {
			events = append(events, Event{Type: Error, JobID: j.ID, Err: err})
			continue
		}
		if prev != nil && prev.Status.Final() && !j.Status.Final() {
			continue // a stale read; the ledger keeps the final state anyway
		}
		if prev != nil && prev.Status == j.Status && jsonEqual(prev.Last, j.Last) {
			continue
		}
		prevs[i] = prev
		write = append(write, s)
		idx = append(idx, i)
	}
	if len(write) == 0 {
		return out
	}
	if err := t.led.Jobs().RecordJobStates(ctx, write); err != nil {
		events = append(events, Event{Type: Error, Err: err})
		return out
	}
	for k, i := range idx {
		sp := write[k].Spend
		if p := ledger.Implausible(write[k].Job.TotalRows, sp); p != "" {
			events = append(events, Event{Type: Error, JobID: write[k].Job.ID, Kind: write[k].Job.Kind, Spend: sp,
				Err: &FiguresError{JobID: write[k].Job.ID, Problem: p}})
		}
		cur, err := t.led.Jobs().Job(ctx, states[i].Job.ID)
		if err != nil {
			events = append(events, Event{Type: Error, JobID: states[i].Job.ID, Err: err})
			continue
		}
		out[i] = cur
		events = append(events, t.changed(prevs[i], cur, sp)...)
	}
	return out
}

// changed are the events of a job recorded in a new state (prev nil: the
// first the ledger has of it): its status changed, and it completed or
// failed; a completed job's result is queued for download.
func (t *Tracker) changed(prev, cur *ledger.Job, sp ledger.Spend) []Event {
	var events []Event
	ev := Event{JobID: cur.ID, Kind: cur.Kind, Status: cur.Status, Job: cur, Spend: sp}
	if prev == nil || prev.Status != cur.Status {
		ev.Type = StatusChanged
		events = append(events, ev)
	}
	if prev != nil && prev.Status.Final() {
		return events
	}
	switch cur.Status {
	case jobs.StatusCompleted:
		ev.Type = Completed
		events = append(events, ev)
		if t.lib != nil {
			t.enqueue(cur.ID)
		}
	case jobs.StatusFailed:
		ev.Type = Failed
		events = append(events, ev)
	}
	return events
}

// FiguresError is an Error event's Err when the service reported figures
// for a job that cannot be right (ledger.Implausible): they are kept as
// reported, flagged, and left out of the spend totals.
type FiguresError struct {
	JobID   string
	Problem string
}

func (e *FiguresError) Error() string {
	return fmt.Sprintf("tracker: the service reported %s for job %s; the figures are kept as reported but not counted in the spend totals",
		e.Problem, e.JobID)
}

func jsonEqual(a, b json.RawMessage) bool {
	return string(a) == string(b)
}
