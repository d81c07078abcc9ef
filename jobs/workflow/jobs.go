package workflow

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/reuse"
	"github.com/skipdesk/skipdesk/jobs/submit"
	"github.com/skipdesk/skipdesk/jobs/tracker"
)

// pageSize of the API lists merged into the jobs list.
const pageSize = 100

// Jobs lists the ledger's jobs and unsettled submissions merged with the
// first pages of GET /traces and GET /dnc (100 jobs each), newest first.
// more reports older pages. When the API cannot be reached the ledger's
// jobs are returned with the error.
//
// While the team's database is away, the API's lists are returned with
// the error (matching ErrTeamUnreachable): who submitted what and the
// unsettled submissions come back with the database.
func (s *JobService) List(ctx context.Context, pages int) ([]Job, bool, error) {
	sess, local, teamErr, err := s.localJobs(ctx)
	if err != nil {
		return nil, false, err
	}
	m := newJobMerge(local)
	more, apiErr := m.addPages(ctx, sess.api, max(pages, 1))
	list := m.list()
	sortJobs(list)
	if teamErr != nil {
		return list, more, teamErr
	}
	return list, more, apiErr
}

// localJobs are the ledger's jobs and unsettled submissions, the merges
// left unfinished finished first; while the team's database is away, the
// copy kept of them, with a *TeamAwayError (teamErr).
func (s *JobService) localJobs(ctx context.Context) (sess *session, local []Job, teamErr, err error) {
	sess, err = s.books()
	if err == nil {
		if merr := s.finishMerges(ctx, sess); merr != nil && ctx.Err() == nil {
			s.emit(Event{Kind: EventWarning, Err: merr})
		}
		local, err = s.ledgerJobs(ctx, sess.led)
		if err == nil && sess.led.Shared() {
			s.keepTeamCopy(local)
		}
	}
	if errors.Is(err, ErrTeamUnreachable) {
		away := &TeamAwayError{Err: err}
		local, away.CopyAt = s.teamCopy()
		teamErr = away
		sess, err = s.current()
	}
	return sess, local, teamErr, err
}

// jobMerge is the jobs list being built: the ledger's jobs, then the
// API's merged into those of the same id or added after them.
type jobMerge struct {
	out  []*Job
	byID map[string]*Job
}

func newJobMerge(local []Job) *jobMerge {
	m := &jobMerge{byID: map[string]*Job{}}
	for i := range local {
		j := &local[i]
		m.out = append(m.out, j)
		if j.ID != "" {
			m.byID[j.ID] = j
		}
	}
	return m
}

// add merges j into the job of its id, or adds it after the others.
func (m *jobMerge) add(j Job) {
	if have, ok := m.byID[j.ID]; ok {
		mergeAPI(have, j)
		return
	}
	m.out = append(m.out, &j)
	m.byID[j.ID] = &j
}

// addPages adds the first pages of GET /traces and GET /dnc; more reports
// older pages; err is the first request's that failed (the pages read
// before it stand).
func (m *jobMerge) addPages(ctx context.Context, api *client.Client, pages int) (more bool, err error) {
	for p := 1; p <= pages; p++ {
		tl, err := api.Traces.List(ctx, &client.TraceListOptions{Page: p, Limit: pageSize})
		if err != nil {
			return more, err
		}
		for i := range tl.Traces {
			m.add(fromTrace(&tl.Traces[i]))
		}
		dl, err := api.DNC.List(ctx, &client.ListOptions{Page: p, Limit: pageSize})
		if err != nil {
			return more, err
		}
		for i := range dl.Jobs {
			m.add(fromDNC(&dl.Jobs[i]))
		}
		more = tl.Metadata.PageCount > p || dl.Metadata.PageCount > p
	}
	return more, nil
}

// list is the jobs in the order met.
func (m *jobMerge) list() []Job {
	list := make([]Job, len(m.out))
	for i, j := range m.out {
		list[i] = *j
	}
	return list
}

// TeamAwayError is Jobs' error while the team's database cannot be
// reached (it matches ErrTeamUnreachable): the list shown is the provider's,
// with the team's records as this computer last read them (CopyAt; zero
// when it never did).
type TeamAwayError struct {
	Err    error
	CopyAt time.Time
}

func (e *TeamAwayError) Error() string { return e.Err.Error() }
func (e *TeamAwayError) Unwrap() error { return e.Err }

// teamCopyFile keeps, in the data folder, the team's jobs as this computer
// last read them: what the jobs list shows of them while the database is
// away (read-only: nothing is submitted or settled from it).
const teamCopyFile = "team-jobs.json"

type teamCopy[J any] struct {
	SavedAt time.Time `json:"saved_at"`
	Jobs    J         `json:"jobs"`
}

// keepTeamCopy writes the team's jobs as read now, when they changed since
// the copy was last written.
func (s *core) keepTeamCopy(list []Job) {
	b, err := json.Marshal(list)
	if err != nil {
		return
	}
	sum := sha256.Sum256(b)
	s.mu.Lock()
	same := sum == s.teamCopySum
	s.mu.Unlock()
	if same {
		return
	}
	out, err := json.Marshal(teamCopy[json.RawMessage]{SavedAt: time.Now().UTC(), Jobs: b})
	if err != nil || library.WriteFileAtomic(filepath.Join(s.cfg.Home, teamCopyFile), out) != nil {
		return
	}
	s.mu.Lock()
	s.teamCopySum = sum
	s.mu.Unlock()
}

// teamCopy is the team's jobs as this computer last read them, and when
// (nothing when it never did, or the copy cannot be read).
func (s *core) teamCopy() ([]Job, time.Time) {
	b, err := os.ReadFile(filepath.Join(s.cfg.Home, teamCopyFile))
	if err != nil {
		return nil, time.Time{}
	}
	var c teamCopy[[]Job]
	if json.Unmarshal(b, &c) != nil {
		return nil, time.Time{}
	}
	return c.Jobs, c.SavedAt
}

// LocalJobs lists what this computer's ledger knows, newest first, with
// nothing asked of the API. It reads the ledger even while another
// SkipDesk (the window) holds it.
func (s *JobService) LocalJobs(ctx context.Context) ([]Job, error) {
	if sess, err := s.current(); err == nil {
		sess.mu.Lock()
		led := sess.led
		sess.mu.Unlock()
		if led != nil {
			return s.ledgerJobs(ctx, led)
		}
	}
	b, err := s.openBooks(ctx, s.cfg.Home, false, true)
	if errors.Is(err, ledger.ErrNoLedger) {
		return []Job{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer b.close()
	return s.ledgerJobs(ctx, b.led)
}

// ledgerJobs are the ledger's jobs and its submissions whose outcome is
// not known, newest first.
func (s *core) ledgerJobs(ctx context.Context, led *ledger.Ledger) ([]Job, error) {
	entries, err := led.Jobs().Entries(ctx)
	if err != nil {
		return nil, err
	}
	out := []Job{}
	root := s.reuseRoot(s.sessionNow())
	for _, e := range entries {
		j := fromLedger(&e.Job, e.Spend)
		j.SubmittedBy = e.SubmittedBy
		if e.Download != nil {
			if _, err := os.Stat(e.Download.Path); err == nil {
				j.ResultPath = e.Download.Path
			}
		}
		switch merged, pending := reuse.MergeOf(root, j.ID); {
		case merged != "":
			j.ResultPath = merged // the person's whole list, earlier results merged in
		case pending:
			// The job's own result holds only the rows sent: not the
			// person's result until its merge is written.
			j.ResultPath, j.MergePending = "", true
		}
		out = append(out, j)
	}
	subs, err := led.Submissions().List(ctx, ledger.StateIntent, ledger.StateSent, ledger.StateUnknown)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	for _, sub := range subs {
		if s.submitting[sub.FileHash] {
			continue // being sent right now
		}
		out = append(out, Job{Key: submissionKey(sub.ID), Submission: sub.ID, Kind: sub.Kind, Name: submit.PlainName(sub.FileName),
			Status: jobs.StatusUnknown, Mode: sub.Mode, IncludeLLCs: sub.IncludeLLCs, Rows: sub.Rows, CreatedAt: sub.CreatedAt,
			ErrorMessage: sub.Error, SubmittedBy: sub.Computer})
	}
	s.mu.Unlock()
	sortJobs(out)
	return out, nil
}

func sortJobs(list []Job) {
	sort.SliceStable(list, func(a, b int) bool {
		if !list[a].CreatedAt.Equal(list[b].CreatedAt) {
			return list[a].CreatedAt.After(list[b].CreatedAt)
		}
		return list[a].Key > list[b].Key
	})
}

// mergeAPI updates a ledger job with what the API list says, unless the
// ledger already knows it is final (a list read can be older).
func mergeAPI(have *Job, api Job) {
	if have.Final() && !api.Final() {
		return
	}
	path, by := have.ResultPath, have.SubmittedBy
	*have = api
	have.ResultPath, have.SubmittedBy = path, by
}

func fromTrace(t *client.Trace) Job {
	j := Job{ID: t.ID, Key: t.ID, Kind: jobs.KindTrace, Name: submit.PlainName(t.Name), Status: t.Status, Mode: jobs.Mode(t.Mode),
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
	j := Job{ID: x.ID, Key: x.ID, Kind: jobs.KindDNC, Name: submit.PlainName(x.Name), Status: x.Status, Rows: x.TotalRows,
		Matches: x.MatchCount, Errors: x.ErrorCount, Charged: x.CreditsCharged, Refunded: x.CreditsRefunded,
		CreatedAt: x.CreatedAt, CompletedAt: x.CompletedAt}
	if x.ErrorMessage != nil {
		j.ErrorMessage = *x.ErrorMessage
	}
	return j
}

// lastAnswer is what the API last said of a ledger's job (its record's
// last answer, read in the shape of its kind): a zero Job when nothing
// readable was recorded.
func lastAnswer(l *ledger.Job) Job {
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
	return j
}

// fromLedger is the job the ledger knows, from its last API object.
func fromLedger(l *ledger.Job, sp ledger.Spend) Job {
	j := lastAnswer(l)
	j.ID, j.Key, j.Name, j.Status, j.Rows = l.ID, l.ID, submit.PlainName(l.Name), l.Status, l.TotalRows
	if j.Kind == "" || l.Kind == jobs.KindSingle {
		j.Kind = l.Kind
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
	j.Problem = ledger.Implausible(j.Rows, ledger.Spend{Charged: j.Charged, Refunded: j.Refunded})
	return j
}

// submissionKey is the Key of the row of a submission whose outcome is not
// known yet.
func submissionKey(id int64) string { return "submission-" + strconv.FormatInt(id, 10) }

// Subscribe calls f with every job event (from any goroutine) until stop.
// Subscriptions outlive sessions: signing in again keeps them.
func (s *JobService) Subscribe(f func(Event)) (stop func()) { return s.subs.Subscribe(f) }

func (s *core) emit(ev Event) { s.subs.Send(ev) }

// onTrackerEvent turns the session's tracker events into Events.
func (s *core) onTrackerEvent(sess *session) func(tracker.Event) {
	return func(ev tracker.Event) {
		switch ev.Type {
		case tracker.DownloadProgress:
			s.emit(Event{Kind: EventProgress, Job: Job{ID: ev.JobID, Key: ev.JobID, Kind: ev.Kind, Status: ev.Status}, Done: ev.Done, Total: ev.Total})
			return
		case tracker.Error:
			// The tracker tries again; the list shows the last known state.
			s.emit(Event{Kind: EventWarning, Job: Job{ID: ev.JobID, Key: ev.JobID}, Err: ev.Err})
			return
		case tracker.Reconciled:
			key := submissionKey(ev.Submission)
			settled := Settled{Submission: ev.Submission, State: ledger.State(ev.SubmissionState), Reason: ev.Reason}
			switch {
			case ev.Job != nil:
				j := fromLedger(ev.Job, ev.Spend)
				settled.JobID = j.ID
				s.emit(Event{Kind: EventStatus, Job: j, Replaces: key, Settled: &settled})
			case ev.SubmissionState == string(ledger.StateNotCreated):
				s.emit(Event{Kind: EventStatus, Replaces: key, Settled: &settled})
			default:
				s.emit(Event{Kind: EventSettled, Settled: &settled})
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
			kind = EventDownloaded
			j.ResultPath = ev.Path
			s.noteDownload(sess, ev.JobID, ev.Path)
			if s.afterDownload(sess, &j) {
				return // the merged result's event follows
			}
		}
		s.emit(Event{Kind: kind, Job: j})
	}
}

// RetryWebhook asks the API to deliver the job's webhook again.
func (s *JobService) RetryWebhook(ctx context.Context, j Job) error {
	if !j.CanRetryWebhook() {
		return fmt.Errorf("%s: webhooks are re-sent only for completed or failed jobs", j.Name)
	}
	_, err := s.api().RetryWebhookOf(ctx, j.Kind, j.ID)
	return err
}

// Settled is what reconciling decided for one submission whose outcome was
// unknown.
type Settled struct {
	Submission int64        `json:"submission"`
	FileName   string       `json:"file"`
	State      ledger.State `json:"state"`
	JobID      string       `json:"job_id,omitempty"`
	Reason     string       `json:"reason"`
	Changed    bool         `json:"-"` // the state is not what it was before
	// LookAlikes are jobs that look like this submission's without proving
	// to be it (another computer's upload of the same file name and size,
	// say). They are never adopted silently: the person decides (Adopt,
	// Dismiss).
	LookAlikes []LookAlike `json:"look_alikes,omitempty"`
}

// LookAlike is a job that looks like an unknown submission's.
type LookAlike struct {
	JobID     string    `json:"job_id"`
	Name      string    `json:"name"`
	Rows      int       `json:"rows"`
	CreatedAt time.Time `json:"created_at"`
	Charged   int64     `json:"credits_charged"`
}

// Unknown reports whether the submission is still unknown — may be charged.
func (st Settled) Unknown() bool {
	return st.State == ledger.StateUnknown || st.State == ledger.StateSent || st.State == ledger.StateIntent
}

// StateWords says a submission's state in words.
func (st Settled) StateWords() string {
	switch st.State {
	case ledger.StateUnknown, ledger.StateSent:
		return "unknown — may be charged"
	case ledger.StateNotCreated:
		return "not created (not charged)"
	case ledger.StateCreated:
		return "created"
	case ledger.StateFailed:
		return "refused by the service (not charged)"
	case ledger.StateIntent:
		return "not sent"
	}
	return string(st.State)
}

// Reconcile settles every submission whose outcome is unknown against the
// API's job lists — never resubmitting — and says what became of each.
func (s *JobService) Reconcile(ctx context.Context) ([]Settled, error) {
	sess, err := s.books()
	if err != nil {
		return nil, err
	}
	return s.reconcile(ctx, sess)
}

func (s *core) reconcile(ctx context.Context, sess *session) ([]Settled, error) {
	outs, err := submit.Reconcile(ctx, sess.api, sess.led, nil)
	var list []Settled
	for _, o := range outs {
		name, _ := submit.Untag(o.Submission.FileName)
		st := Settled{Submission: o.Submission.ID, FileName: name, State: o.State,
			JobID: o.JobID, Reason: o.Reason, Changed: o.State != o.Submission.State}
		for _, la := range o.LookAlikes {
			st.LookAlikes = append(st.LookAlikes, LookAlike{JobID: la.JobID, Name: la.Name, Rows: la.Rows, CreatedAt: la.CreatedAt,
				Charged: la.Charged})
		}
		list = append(list, st)
		if o.State == ledger.StateCreated {
			sess.trk.Hint(o.JobID)
		}
	}
	return list, err
}

// Adopt records jobID as the job of an unknown submission, on the person's
// word: they recognised a look-alike as their own upload.
func (s *JobService) Adopt(ctx context.Context, submission int64, jobID string) error {
	sess, err := s.books()
	if err != nil {
		return err
	}
	if err := submit.Adopt(ctx, sess.api, sess.led, submission, jobID); err != nil {
		return err
	}
	sess.trk.Hint(jobID)
	return nil
}

// Dismiss records that an unknown submission created no job, on the
// person's word (they checked the provider's dashboard); why is kept.
func (s *JobService) Dismiss(ctx context.Context, submission int64, why string) error {
	sess, err := s.books()
	if err != nil {
		return err
	}
	return submit.Dismiss(ctx, sess.led, submission, why)
}

// ReconcileJob settles an unknown submission shown in the jobs list and
// returns what became of it: the job it created, the same row still
// unknown (with the jobs that look like it, for the person to recognise),
// or the row with jobs.StatusNotCreated.
func (s *JobService) ReconcileJob(ctx context.Context, j Job) (Job, []LookAlike, error) {
	sess, err := s.books()
	if err != nil {
		return j, nil, err
	}
	outs, err := s.reconcile(ctx, sess)
	if err != nil {
		return j, nil, err
	}
	id := j.Submission
	if id == 0 {
		id, _ = strconv.ParseInt(strings.TrimPrefix(j.Key, "submission-"), 10, 64)
	}
	for _, o := range outs {
		if o.Submission != id {
			continue
		}
		switch o.State {
		case ledger.StateCreated:
			return s.ledgerJob(ctx, sess, o.JobID, j), nil, nil
		case ledger.StateNotCreated:
			j.Status = jobs.StatusNotCreated
		}
		return j, o.LookAlikes, nil
	}
	sub, err := sess.led.Submissions().Submission(ctx, id)
	if errors.Is(err, ledger.ErrNotFound) {
		return j, nil, fmt.Errorf("%s: no such submission in the ledger", j.Name)
	}
	if err == nil && sub.State == ledger.StateCreated {
		return s.ledgerJob(ctx, sess, sub.JobID, j), nil, nil
	}
	if err == nil && sub.State == ledger.StateNotCreated {
		j.Status = jobs.StatusNotCreated
	}
	return j, nil, nil
}

// ledgerJob is the ledger's job id, or a row standing for it in place of
// row while the ledger has not recorded it yet.
func (s *core) ledgerJob(ctx context.Context, sess *session, id string, row Job) Job {
	lj, err := sess.led.Jobs().Job(ctx, id)
	if err != nil {
		return Job{ID: id, Key: id, Kind: row.Kind, Name: row.Name, Status: jobs.StatusProcessing, CreatedAt: row.CreatedAt}
	}
	sp, _ := sess.led.Jobs().JobSpend(ctx, id)
	return fromLedger(lj, sp)
}

// Outcome is where a job ended: its state, what it cost, and its result in
// the library (none for a failed job).
type Outcome struct {
	Job        Job
	ResultPath string
}

// Wait follows the job until it failed or its result is in the library,
// downloading it; with a limit > 0 it gives up after that long with a
// *WaitLimitError (the job stays tracked). A job that cannot progress now
// gives a *StuckError.
func (s *JobService) Wait(ctx context.Context, jobID string, limit time.Duration) (*Outcome, error) {
	sess, err := s.books()
	if err != nil {
		return nil, err
	}
	if _, err := sess.led.Jobs().Job(ctx, jobID); err != nil {
		return nil, &NotTrackedError{JobID: jobID}
	}
	stop := s.trackFor(ctx, sess)
	defer stop()
	wctx := ctx
	if limit > 0 {
		var cancel context.CancelFunc
		wctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	o, err := sess.trk.Wait(wctx, jobID)
	if err != nil {
		if ctx.Err() == nil && wctx.Err() != nil {
			return nil, &WaitLimitError{JobID: jobID, Limit: limit}
		}
		if ctx.Err() != nil {
			return nil, &StoppedWaitingError{JobID: jobID, Err: ctx.Err()}
		}
		return nil, stuck(err)
	}
	out := &Outcome{Job: fromLedger(o.Job, o.Spend)}
	if o.Download != nil {
		out.ResultPath = o.Download.Path
		out.Job.ResultPath = o.Download.Path
		// What the Downloaded event does may not have run yet (it runs on
		// the tracker's goroutine): the caller reads the result next.
		s.noteDownload(sess, jobID, o.Download.Path)
		// A job that reused rows: its merged result is the person's.
		p, ok, err := s.finishReuse(ctx, sess, jobID, o.Download.Path)
		if err != nil {
			return out, err
		}
		if ok {
			out.ResultPath, out.Job.ResultPath = p, p
		}
	}
	return out, nil
}

// WaitAll follows every job in flight until each has failed or has its
// result downloaded. A *StuckError names the jobs that cannot progress now
// once every other job is done.
func (s *JobService) WaitAll(ctx context.Context) error {
	sess, err := s.books()
	if err != nil {
		return err
	}
	if _, err := s.reconcile(ctx, sess); err != nil {
		s.emit(Event{Kind: EventWarning, Err: fmt.Errorf("could not reconcile earlier submissions: %w", err)})
	}
	stop := s.trackFor(ctx, sess)
	defer stop()
	if err := sess.trk.WaitIdle(ctx); err != nil {
		if ctx.Err() != nil {
			return &StoppedWaitingError{Err: ctx.Err()}
		}
		return stuck(err)
	}
	// Every result is in: the merges of reused rows owed too (one cut
	// short earlier), or the results are not all the person's yet.
	if err := s.finishMerges(ctx, sess); err != nil {
		if ctx.Err() != nil {
			return &StoppedWaitingError{Err: ctx.Err()}
		}
		return err
	}
	return nil
}

// trackFor runs the tracker until stop, unless it runs already.
func (s *core) trackFor(ctx context.Context, sess *session) (stop func()) {
	if sess.running() {
		return func() {}
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { sess.trk.Run(runCtx); close(done) }()
	return func() { cancel(); <-done }
}

// Download puts a completed job's result into the library (when not there
// yet) and returns the job with ResultPath set. Jobs the tracker follows are
// downloaded by it; this covers jobs only the API lists (history from
// before this computer's ledger).
func (s *JobService) Download(ctx context.Context, j Job, progress func(done, total int64)) (Job, error) {
	if j.ResultPath != "" {
		if _, err := os.Stat(j.ResultPath); err == nil {
			return j, nil
		}
	}
	sess, err := s.books()
	if err != nil {
		return j, err
	}
	if j.Status != jobs.StatusCompleted || j.ID == "" || j.Kind == jobs.KindSingle {
		return j, fmt.Errorf("%s has no result to download (status %s)", j.Name, j.Status)
	}
	dl, err := sess.trk.Fetch(ctx, j.Kind, j.ID, progress)
	if err != nil {
		return j, err
	}
	j.ResultPath = dl.Path
	// A job that reused rows: its merged result (written now if owed).
	p, ok, err := s.finishReuse(ctx, sess, j.ID, dl.Path)
	if err != nil {
		return j, err
	}
	if ok {
		j.ResultPath, j.MergePending = p, false
	}
	return j, nil
}

// linkParent notes, in a downloaded DNC result's job record, the trace whose
// phones it scrubbed (from the submission's options), so the callable list
// can find it later.
func (s *core) linkParent(sess *session, jobID, path string) {
	sub, err := sess.led.Submissions().SubmissionForJob(context.Background(), jobID)
	if err != nil || sub.Kind != jobs.KindDNC {
		return
	}
	var o submit.Options
	if json.Unmarshal(sub.Options, &o) != nil || o.ParentTraceID == "" {
		return
	}
	m, err := library.ReadRecord(library.RecordPath(path))
	if err != nil || m.ParentTraceID == o.ParentTraceID {
		return
	}
	m.ParentTraceID = o.ParentTraceID
	_ = sess.lib.Record(m, path)
}
