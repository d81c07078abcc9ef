package submit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
)

// Window bounds, around the time a submission was recorded, where its job's
// created_at may fall: the server's clock, read from its Date headers, is
// known only to within a second or so, and a large upload takes a while
// before the server creates the job.
const (
	WindowBefore = 2 * time.Minute
	WindowAfter  = 15 * time.Minute
)

// reconcileMu serialises Reconcile calls.
var reconcileMu sync.Mutex

// maxReconcilePages caps the list pages read per kind in one Reconcile.
var maxReconcilePages = 50

// ReconcileOptions tune Reconcile; the zero value is the default.
type ReconcileOptions struct {
	Before, After time.Duration    // default WindowBefore, WindowAfter
	Now           func() time.Time // default time.Now
}

// Outcome is what Reconcile decided for one submission.
type Outcome struct {
	Submission *ledger.Submission // as it was before
	State      ledger.State       // as it is now
	JobID      string             // the adopted job, when State is created
	Reason     string
	// LookAlikes are jobs that look like this submission's (same file
	// name and row count, created in its window) without proving to be
	// it: no tag of this submission in the name, or for a single trace a
	// result that does not repeat the address sent. They are never
	// adopted silently: the submission stays unknown, and the person is
	// shown them ("a job that looks like this submission exists: …"); one
	// they recognise as theirs is taken with Adopt.
	LookAlikes []LookAlike
}

// LookAlike is a job that looks like an unknown submission's.
type LookAlike struct {
	JobID     string
	Name      string
	Rows      int
	CreatedAt time.Time // the server's clock
	Charged   int64
}

func (l LookAlike) String() string {
	return fmt.Sprintf("%s %q (%d rows, created %s)", l.JobID, l.Name, l.Rows, l.CreatedAt.Local().Format("2006-01-02 15:04:05"))
}

// Reconcile settles every submission whose outcome is not known (states
// intent, sent and unknown), oldest first:
//
//   - intent: nothing was sent → not_created.
//   - sent or unknown: the job lists (GET /traces?type=bulk, GET /dnc,
//     GET /traces?type=single) are read back to [created_at − Before],
//     on the server's clock (this computer's may be minutes off: the
//     client measures the difference from the server's Date headers).
//     A job whose name carries the submission's tag is its job: adopted
//     (created). A single trace carries no tag (the API names it "Single:
//     FIRST LAST" from the names sent): a lookup of that name created in
//     [created_at − Before, created_at + After] is its job only when its
//     result repeats the address, city, state and zip sent; of several,
//     the one created closest to when it was sent.
//   - A job that merely looks like it (same file name and row count in the
//     window, without the tag; a single whose result cannot be matched) is
//     never adopted: the submission stays unknown, whatever the time, and
//     the Outcome lists it in LookAlikes for the person to decide (Adopt).
//   - Nothing found, and nothing like it, once the window has passed and the
//     lists were read back far enough and in full → not_created.
//     Otherwise → unknown, for a later try.
//
// Nothing is ever resubmitted. Submissions being sent by Submit in this
// process are left alone. A list item the client could not read makes
// absence unprovable: the submissions of that kind stay unknown.
func Reconcile(ctx context.Context, api *client.Client, led *ledger.Ledger, opts *ReconcileOptions) ([]Outcome, error) {
	o := opts.withDefaults()
	// One Reconcile at a time: two would race to settle the same
	// submissions.
	reconcileMu.Lock()
	defer reconcileMu.Unlock()
	activeMu.Lock()
	pending, err := led.Submissions().List(ctx, ledger.StateIntent, ledger.StateSent, ledger.StateUnknown)
	busy := map[int64]bool{}
	for k := range active {
		if k.led == led {
			busy[k.id] = true
		}
	}
	activeMu.Unlock()
	if err != nil {
		return nil, err
	}
	if err := busyElsewhere(ctx, led, pending, busy); err != nil {
		return nil, err
	}
	var out []Outcome
	// First the submissions that never left, and the candidate jobs of the
	// others.
	var todo []*open
	finders := map[jobs.Kind]*finder{}
	for _, s := range pending {
		if busy[s.ID] {
			continue
		}
		if s.State == ledger.StateIntent {
			reason := "nothing was sent"
			if err := led.Submissions().MarkNotCreated(ctx, s.ID, reason); err != nil && !errors.Is(err, ledger.ErrSettled) {
				return out, err
			}
			out = append(out, Outcome{Submission: s, State: ledger.StateNotCreated, Reason: reason})
			continue
		}
		f := finders[s.Kind]
		if f == nil {
			f = &finder{api: api, kind: s.Kind, since: oldestWindow(pending, s, o.Before)}
			finders[s.Kind] = f
		}
		cands, err := f.candidates(ctx)
		if err != nil {
			return out, fmt.Errorf("reconcile: reading the job lists: %w", err)
		}
		// The lists were read: the server's clock is known.
		from, to := s.CreatedAt.Add(serverSkew(api)-o.Before), s.CreatedAt.Add(serverSkew(api)+o.After)
		mine, alike, err := sortCandidates(ctx, api, led, s, cands, from, to)
		if err != nil {
			return out, err
		}
		todo = append(todo, &open{s: s, f: f, from: from, to: to, mine: mine, alike: alike})
	}

	taken := matchClosest(todo, serverSkew(api))
	for _, op := range todo {
		oc, err := settle(ctx, api, led, o, op, taken)
		if err != nil {
			return out, err
		}
		out = append(out, oc)
	}
	return out, nil
}

// withDefaults are the options given, their zero values filled in.
func (opts *ReconcileOptions) withDefaults() ReconcileOptions {
	o := ReconcileOptions{}
	if opts != nil {
		o = *opts
	}
	if o.Before <= 0 {
		o.Before = WindowBefore
	}
	if o.After <= 0 {
		o.After = WindowAfter
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// oldestWindow is the oldest window start among the pending submissions
// of s's kind that were sent: how far back the lists are read.
func oldestWindow(pending []*ledger.Submission, s *ledger.Submission, before time.Duration) time.Time {
	oldest := s.CreatedAt.Add(-before)
	for _, p := range pending {
		if p.Kind == s.Kind && p.State != ledger.StateIntent && p.CreatedAt.Add(-before).Before(oldest) {
			oldest = p.CreatedAt.Add(-before)
		}
	}
	return oldest
}

// matchClosest matches the submissions with their jobs: the pairs closest
// in time first, each job and each submission used once. (A tag names one
// submission; single lookups of the same person at the same address may be
// several.) It returns the jobs taken.
func matchClosest(todo []*open, skew time.Duration) map[string]bool {
	type pair struct {
		o    *open
		c    *candidate
		dist time.Duration
	}
	var pairs []pair
	for _, op := range todo {
		for _, c := range op.mine {
			pairs = append(pairs, pair{op, c, c.created.Sub(sentTime(op.s).Add(skew)).Abs()})
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].dist < pairs[j].dist })
	taken := map[string]bool{}
	for _, p := range pairs {
		if p.o.match == nil && !taken[p.c.id] {
			p.o.match, taken[p.c.id] = p.c, true
		}
	}
	return taken
}

// busyElsewhere adds to busy the submissions another SkipDesk, still
// running, is sending: on a team's ledger an intent or a "sent" of a live
// session is its own business, not a leftover of a crash. (An unknown one,
// whoever made it, is anyone's to settle.)
func busyElsewhere(ctx context.Context, led *ledger.Ledger, pending []*ledger.Submission, busy map[int64]bool) error {
	if !led.Shared() {
		return nil
	}
	live, err := led.Team().LiveSessions(ctx)
	if err != nil {
		return err
	}
	me := led.Team().Me().Session
	for _, s := range pending {
		if s.Session != me && live[s.Session] && (s.State == ledger.StateIntent || s.State == ledger.StateSent) {
			busy[s.ID] = true
		}
	}
	return nil
}

// open is a sent or unknown submission being reconciled.
type open struct {
	s        *ledger.Submission
	f        *finder   // the list of its kind
	from, to time.Time // its window, on the server's clock
	mine     []*candidate
	alike    []*candidate
	match    *candidate // of mine, the one paired with it
}

// settle records what Reconcile found for one sent or unknown submission:
// its job (match), jobs that only look like it (alike, unless another
// submission took them), or nothing.
func settle(ctx context.Context, api *client.Client, led *ledger.Ledger, o ReconcileOptions, op *open, taken map[string]bool) (Outcome, error) {
	s, match, f, from, to := op.s, op.match, op.f, op.from, op.to
	oc := Outcome{Submission: s}
	if match != nil {
		if err := adopt(ctx, led, s.ID, match); err != nil {
			return settledMeanwhile(ctx, led, oc, err)
		}
		oc.State, oc.JobID = ledger.StateCreated, match.id
		oc.Reason = fmt.Sprintf("found job %s created %s, named with this submission's tag %s", match.id, match.job.CreatedAt.Local().Format("15:04:05"), s.Tag)
		if s.Kind == jobs.KindSingle {
			oc.Reason = fmt.Sprintf("found lookup %s created %s, whose result repeats the address sent", match.id, match.job.CreatedAt.Local().Format("15:04:05"))
		}
		return oc, nil
	}
	for _, c := range op.alike {
		if !taken[c.id] {
			oc.LookAlikes = append(oc.LookAlikes, LookAlike{JobID: c.id, Name: c.name, Rows: c.rows, CreatedAt: c.created, Charged: c.charged})
		}
	}
	switch {
	case len(oc.LookAlikes) > 0:
		oc.State, oc.Reason = ledger.StateUnknown, lookAlikeReason(s, oc.LookAlikes)
		return oc, keepUnknown(ctx, led, s, oc.Reason)
	case o.Now().Add(serverSkew(api)).After(to) && f.complete && f.unreadable == 0:
		oc.State = ledger.StateNotCreated
		oc.Reason = fmt.Sprintf("no job named %q was created between %s and %s", s.FileName, from.Local().Format("15:04:05"), to.Local().Format("15:04:05"))
		if err := led.Submissions().MarkNotCreated(ctx, s.ID, oc.Reason); err != nil {
			return settledMeanwhile(ctx, led, oc, err)
		}
		return oc, nil
	}
	oc.State = ledger.StateUnknown
	oc.Reason = fmt.Sprintf("no job of this submission yet; it may still appear until %s", to.Local().Format("15:04:05"))
	if f.unreadable > 0 {
		oc.Reason = fmt.Sprintf("no job of this submission found, but %d jobs in the lists could not be read; it stays unknown until they can", f.unreadable)
	}
	return oc, keepUnknown(ctx, led, s, oc.Reason)
}

// settledMeanwhile is the outcome of a submission that another computer
// (or SkipDesk) settled while this Reconcile looked at it: as it stands
// now. Any other error is returned as it is.
func settledMeanwhile(ctx context.Context, led *ledger.Ledger, oc Outcome, err error) (Outcome, error) {
	if !errors.Is(err, ledger.ErrSettled) && !errors.Is(err, ledger.ErrAdopted) {
		return oc, err
	}
	now, rerr := led.Submissions().Submission(ctx, oc.Submission.ID)
	if rerr != nil {
		return oc, rerr
	}
	oc.State, oc.JobID, oc.LookAlikes = now.State, now.JobID, nil
	oc.Reason = "settled meanwhile by another SkipDesk"
	if errors.Is(err, ledger.ErrAdopted) && now.State.Pending() {
		oc.Reason = "the job found was adopted by another submission meanwhile; this one stays unknown"
	}
	return oc, nil
}

// keepUnknown leaves a submission unknown: one "sent" by a process that is
// gone becomes unknown with the reason; an unknown one is marked as looked
// at.
func keepUnknown(ctx context.Context, led *ledger.Ledger, s *ledger.Submission, reason string) error {
	if s.State == ledger.StateSent {
		err := led.Submissions().MarkUnknown(ctx, s.ID, "interrupted after sending; "+reason)
		if errors.Is(err, ledger.ErrSettled) {
			return nil // settled meanwhile by another SkipDesk
		}
		return err
	}
	return led.Submissions().TouchReconciled(ctx, s.ID)
}

func lookAlikeReason(s *ledger.Submission, alike []LookAlike) string {
	list := make([]string, len(alike))
	for i, a := range alike {
		list[i] = a.String()
	}
	what := "a job that looks like this submission exists: "
	if len(alike) > 1 {
		what = fmt.Sprintf("%d jobs that look like this submission exist: ", len(alike))
	}
	why := fmt.Sprintf("its name does not carry this submission's tag %s, so it may be another computer's upload of the same file", s.Tag)
	switch {
	case s.Kind == jobs.KindSingle:
		why = "its result could not be matched to the address sent, so it may be another lookup of the same name"
	case s.Tag == "":
		why = "this submission was recorded before submissions were tagged, so nothing proves the job is its own"
	}
	return what + strings.Join(list, "; ") + "; " + why + ". It stays unknown (it may have been charged) until you say whether the job is yours"
}

// adopt records c as the job of submission id.
func adopt(ctx context.Context, led *ledger.Ledger, id int64, c *candidate) error {
	cr := ledger.Created{JobID: c.id, Response: c.raw, Charged: c.charged, Adopted: true, Job: c.job}
	if c.job.Status.Final() {
		cr.Refunded = c.refunded
	}
	return led.Submissions().MarkCreated(ctx, id, cr)
}

// Adopt records jobID as the job of the submission whose outcome is unknown,
// on the person's word: they recognised a look-alike (Outcome.LookAlikes) as
// their own. The job is read from the API first.
func Adopt(ctx context.Context, api *client.Client, led *ledger.Ledger, submissionID int64, jobID string) error {
	reconcileMu.Lock()
	defer reconcileMu.Unlock()
	s, err := led.Submissions().Submission(ctx, submissionID)
	if err != nil {
		return err
	}
	if !s.State.Pending() {
		return fmt.Errorf("submit: submission %d is %s: only one whose outcome is unknown can take a job", submissionID, s.State)
	}
	var c candidate
	switch s.Kind {
	case jobs.KindDNC:
		d, err := api.DNC.Get(ctx, jobID)
		if err != nil {
			return err
		}
		c = dncCandidate(d)
	default:
		t, err := api.Traces.Get(ctx, jobID)
		if err != nil {
			return err
		}
		c = traceCandidate(t)
		if s.Kind == jobs.KindSingle {
			c.job.Kind = jobs.KindSingle
		}
	}
	c.id = jobID
	return adopt(ctx, led, s.ID, &c)
}

// Dismiss records that the submission whose outcome is unknown created no
// job, on the person's word (they checked the provider's dashboard). why is
// kept with it.
func Dismiss(ctx context.Context, led *ledger.Ledger, submissionID int64, why string) error {
	reconcileMu.Lock()
	defer reconcileMu.Unlock()
	if why == "" {
		why = "you said it created no job"
	}
	return led.Submissions().MarkNotCreated(ctx, submissionID, why)
}

// serverSkew is how far the server's clock is ahead of this computer's, 0
// until an answer said.
func serverSkew(api *client.Client) time.Duration {
	d, _ := api.ServerClockOffset()
	return d
}

// sentTime is when a submission's POST started (when it was recorded, for
// a submission from before "sent" carried a time).
func sentTime(s *ledger.Submission) time.Time {
	if !s.SentAt.IsZero() {
		return s.SentAt
	}
	return s.CreatedAt
}

// candidate is a job read from a list.
type candidate struct {
	id                string
	name              string
	rows              int
	mode              jobs.Mode
	includeLLCs       bool
	created           time.Time
	charged, refunded int64
	job               ledger.Job
	raw               json.RawMessage
}

// finder reads the list of one kind, newest first, once per Reconcile.
type finder struct {
	api   *client.Client
	kind  jobs.Kind
	since time.Time
	read  bool
	// complete: the pages read reach back past since (else the page cap
	// stopped the walk, and absence proves nothing).
	complete bool
	// unreadable counts the list items the client could not read: one
	// may be the job looked for.
	unreadable int
	list       []candidate
}

func (f *finder) candidates(ctx context.Context) ([]candidate, error) {
	if f.read {
		return f.list, nil
	}
	for page := 1; page <= maxReconcilePages; page++ {
		items, md, err := f.page(ctx, page)
		if err != nil {
			return nil, err
		}
		f.list = append(f.list, items...)
		// Lists are newest first: stop once a page reaches before the
		// window (on the server's clock, known from the first page on).
		if len(items) == 0 || page >= md.PageCount || items[len(items)-1].created.Before(f.since.Add(serverSkew(f.api))) {
			f.complete = true
			break
		}
	}
	f.read = true
	return f.list, nil
}

// page reads one page of the kind's list as candidates, counting the items
// the client could not read.
func (f *finder) page(ctx context.Context, page int) ([]candidate, client.Metadata, error) {
	switch f.kind {
	case jobs.KindTrace, jobs.KindSingle:
		return f.tracePage(ctx, page)
	case jobs.KindDNC:
		l, err := f.api.DNC.List(ctx, &client.ListOptions{Page: page, Limit: 100})
		if err != nil {
			return nil, client.Metadata{}, err
		}
		f.unreadable += len(l.Invalid)
		items := make([]candidate, 0, len(l.Jobs))
		for i := range l.Jobs {
			items = append(items, dncCandidate(&l.Jobs[i]))
		}
		return items, l.Metadata, nil
	}
	return nil, client.Metadata{}, fmt.Errorf("reconcile: unknown kind %q", f.kind)
}

// tracePage reads a page of bulk traces, or of single ones: those are
// recorded as singles whatever type the server gives them.
func (f *finder) tracePage(ctx context.Context, page int) ([]candidate, client.Metadata, error) {
	typ := client.TypeBulk
	if f.kind == jobs.KindSingle {
		typ = client.TypeSingle
	}
	l, err := f.api.Traces.List(ctx, &client.TraceListOptions{Page: page, Limit: 100, Type: typ})
	if err != nil {
		return nil, client.Metadata{}, err
	}
	f.unreadable += len(l.Invalid)
	items := make([]candidate, 0, len(l.Traces))
	for i := range l.Traces {
		c := traceCandidate(&l.Traces[i])
		if f.kind == jobs.KindSingle {
			c.job.Kind = jobs.KindSingle
		}
		items = append(items, c)
	}
	return items, l.Metadata, nil
}

// TraceJob turns an API trace into the ledger's record of it.
func TraceJob(t *client.Trace) ledger.Job {
	raw, _ := json.Marshal(t)
	kind := jobs.KindTrace
	if t.Type == client.TypeSingle {
		kind = jobs.KindSingle
	}
	j := ledger.Job{ID: t.ID, Kind: kind, Name: t.Name, Status: t.Status, TotalRows: t.TotalRows,
		CreatedAt: t.CreatedAt, CompletedAt: t.CompletedAt, Last: raw}
	if t.ErrorMessage != nil {
		j.ErrorMessage = *t.ErrorMessage
	}
	return j
}

// DNCJob turns an API DNC job into the ledger's record of it.
func DNCJob(d *client.DNCJob) ledger.Job {
	raw, _ := json.Marshal(d)
	j := ledger.Job{ID: d.ID, Kind: jobs.KindDNC, Name: d.Name, Status: d.Status, TotalRows: d.TotalRows,
		CreatedAt: d.CreatedAt, CompletedAt: d.CompletedAt, Last: raw}
	if d.ErrorMessage != nil {
		j.ErrorMessage = *d.ErrorMessage
	}
	return j
}

func traceCandidate(t *client.Trace) candidate {
	j := TraceJob(t)
	return candidate{id: t.ID, name: t.Name, rows: t.TotalRows, mode: jobs.Mode(t.Mode), includeLLCs: t.IncludeLLCs, created: t.CreatedAt,
		charged: t.CreditsCharged, refunded: t.CreditsRefunded, job: j, raw: j.Last}
}

func dncCandidate(d *client.DNCJob) candidate {
	j := DNCJob(d)
	return candidate{id: d.ID, name: d.Name, rows: d.TotalRows, created: d.CreatedAt,
		charged: d.CreditsCharged, refunded: d.CreditsRefunded, job: j, raw: j.Last}
}

// sortCandidates sorts the jobs held by no other submission into those
// that are s's (mine) and those that merely look like it (alike):
//
//   - a tagged bulk trace or DNC scrub: mine carry its tag; alike are
//     untagged jobs of the same file name and row count (and, for a trace,
//     mode and include_llcs) created within [from, to];
//   - one recorded before tags: every such job is alike;
//   - a single trace: lookups of the same name within [from, to] are mine
//     when their result repeats the address sent, alike otherwise.
func sortCandidates(ctx context.Context, api *client.Client, led *ledger.Ledger, s *ledger.Submission, cands []candidate, from, to time.Time) (mine, alike []*candidate, err error) {
	base, _ := Untag(filepath.Base(s.FileName))
	name := nameKey(base)
	for i := range cands {
		c := &cands[i]
		held, err := led.Submissions().JobAdopted(ctx, c.id)
		if err != nil {
			return nil, nil, err
		}
		if held {
			continue
		}
		if s.Tag != "" && carriesTag(c.name, s.Tag) {
			mine = append(mine, c)
			continue
		}
		if !c.alike(s, name, from, to) {
			continue
		}
		if s.Kind == jobs.KindSingle {
			same, err := sameLookup(ctx, api, s, c)
			if err != nil {
				return nil, nil, err
			}
			if same {
				mine = append(mine, c)
				continue
			}
		}
		alike = append(alike, c)
	}
	return mine, alike, nil
}

// alike reports a job without a tag of its own that may be submission s's:
// the same name (nameKey), created within [from, to], the same row count
// and, for a trace, the same mode and include_llcs.
func (c *candidate) alike(s *ledger.Submission, name string, from, to time.Time) bool {
	cbase, ctag := Untag(c.name)
	if ctag != "" || nameKey(cbase) != name || c.created.Before(from) || c.created.After(to) {
		return false // another submission's tag, another name, another time
	}
	if s.Rows > 0 && c.rows != s.Rows {
		return false
	}
	return s.Kind != jobs.KindTrace || ((c.mode == "" || s.Mode == "" || c.mode == s.Mode) && c.includeLLCs == s.IncludeLLCs)
}

// nameKey is a name reduced to its lower-case letters and digits.
func nameKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
