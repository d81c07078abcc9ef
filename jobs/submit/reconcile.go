package submit

import (
	"context"
	"encoding/json"
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
}

// Reconcile settles every submission whose outcome is not known (states
// intent, sent and unknown), oldest first:
//
//   - intent: nothing was sent → not_created.
//   - sent or unknown: the job lists (GET /traces?type=bulk, GET /dnc) are
//     searched for a job created within [created_at − Before, created_at +
//     After], read on the server's clock (this computer's may be minutes
//     off: the client measures the difference from the server's Date
//     headers), with the submission's file name and row count that no other
//     submission holds; of several, the one created closest to when the
//     submission was sent. Found → the job is adopted (created). Not found
//     once the window has passed → not_created. Otherwise → unknown, for a
//     later try.
//
// Nothing is ever resubmitted. Submissions being sent by Submit in this
// process are left alone.
func Reconcile(ctx context.Context, api *client.Client, led *ledger.Ledger, opts *ReconcileOptions) ([]Outcome, error) {
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
	// One Reconcile at a time: two would race to settle the same
	// submissions.
	reconcileMu.Lock()
	defer reconcileMu.Unlock()
	activeMu.Lock()
	pending, err := led.Submissions(ctx, ledger.StateIntent, ledger.StateSent, ledger.StateUnknown)
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
	var out []Outcome
	// First the submissions that never left, and the candidate jobs of the
	// others.
	type open struct {
		s        *ledger.Submission
		f        *finder
		from, to time.Time
		fits     []*candidate
		match    *candidate
	}
	var todo []*open
	finders := map[jobs.Kind]*finder{}
	for _, s := range pending {
		if busy[s.ID] {
			continue
		}
		if s.State == ledger.StateIntent {
			reason := "nothing was sent"
			if err := led.MarkNotCreated(ctx, s.ID, reason); err != nil {
				return out, err
			}
			out = append(out, Outcome{Submission: s, State: ledger.StateNotCreated, Reason: reason})
			continue
		}
		f := finders[s.Kind]
		if f == nil {
			// The oldest window start among the pending submissions of
			// this kind bounds how far back the lists are read.
			oldest := s.CreatedAt.Add(-o.Before)
			for _, p := range pending {
				if p.Kind == s.Kind && p.State != ledger.StateIntent && p.CreatedAt.Add(-o.Before).Before(oldest) {
					oldest = p.CreatedAt.Add(-o.Before)
				}
			}
			f = &finder{api: api, kind: s.Kind, since: oldest}
			finders[s.Kind] = f
		}
		cands, err := f.candidates(ctx)
		if err != nil {
			return out, fmt.Errorf("reconcile: reading the job lists: %w", err)
		}
		// The lists were read: the server's clock is known.
		from, to := s.CreatedAt.Add(serverSkew(api)-o.Before), s.CreatedAt.Add(serverSkew(api)+o.After)
		fits, err := fitting(ctx, led, s, cands, from, to)
		if err != nil {
			return out, err
		}
		todo = append(todo, &open{s: s, f: f, from: from, to: to, fits: fits})
	}

	// Then the matching: the pairs closest in time first, each job and each
	// submission used once. A submission's job is the one created closest
	// to when it was sent: the same file may also have been submitted a
	// minute earlier from another computer with the same key, or by an
	// earlier submission whose outcome is also unknown.
	type pair struct {
		o    *open
		c    *candidate
		dist time.Duration
	}
	var pairs []pair
	for _, op := range todo {
		for _, c := range op.fits {
			pairs = append(pairs, pair{op, c, c.created.Sub(sentTime(op.s).Add(serverSkew(api))).Abs()})
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].dist < pairs[j].dist })
	taken := map[string]bool{}
	for _, p := range pairs {
		if p.o.match == nil && !taken[p.c.id] {
			p.o.match, taken[p.c.id] = p.c, true
		}
	}

	for _, op := range todo {
		s, match := op.s, op.match
		oc := Outcome{Submission: s}
		switch {
		case match != nil:
			c := ledger.Created{JobID: match.id, Response: match.raw, Charged: match.charged, Adopted: true, Job: match.job}
			if match.job.Status.Final() {
				c.Refunded = match.refunded
			}
			if err := led.MarkCreated(ctx, s.ID, c); err != nil {
				return out, err
			}
			oc.State, oc.JobID = ledger.StateCreated, match.id
			oc.Reason = fmt.Sprintf("found job %s created %s", match.id, match.job.CreatedAt.Local().Format("15:04:05"))
			if len(op.fits) > 1 {
				oc.Reason += fmt.Sprintf(" (%d jobs of that name and size fit; this one was created closest to when it was sent)", len(op.fits))
			}
		case o.Now().Add(serverSkew(api)).After(op.to) && op.f.complete:
			oc.State = ledger.StateNotCreated
			oc.Reason = fmt.Sprintf("no job named %q with %d rows was created between %s and %s",
				filepath.Base(s.FileName), s.Rows, op.from.Local().Format("15:04:05"), op.to.Local().Format("15:04:05"))
			if err := led.MarkNotCreated(ctx, s.ID, oc.Reason); err != nil {
				return out, err
			}
		default:
			oc.State = ledger.StateUnknown
			if len(op.fits) > 0 {
				// Every job that fits went to a submission sent closer to
				// its creation; one may still appear, or be this one's.
				oc.Reason = fmt.Sprintf("the %d jobs that fit belong to other submissions; it may still appear until %s",
					len(op.fits), op.to.Local().Format("15:04:05"))
			} else {
				oc.Reason = fmt.Sprintf("no matching job yet; it may still appear until %s", op.to.Local().Format("15:04:05"))
			}
			if s.State == ledger.StateSent {
				// Sent by a process that is gone: its outcome is unknown.
				if err := led.MarkUnknown(ctx, s.ID, "interrupted after sending; "+oc.Reason); err != nil {
					return out, err
				}
			} else if err := led.TouchReconciled(ctx, s.ID); err != nil {
				return out, err
			}
		}
		out = append(out, oc)
	}
	return out, nil
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
	list     []candidate
}

func (f *finder) candidates(ctx context.Context) ([]candidate, error) {
	if f.read {
		return f.list, nil
	}
	for page := 1; page <= maxReconcilePages; page++ {
		var items []candidate
		var md client.Metadata
		switch f.kind {
		case jobs.KindTrace:
			l, err := f.api.Traces.List(ctx, &client.TraceListOptions{Page: page, Limit: 100, Type: client.TypeBulk})
			if err != nil {
				return nil, err
			}
			md = l.Metadata
			for i := range l.Traces {
				items = append(items, traceCandidate(&l.Traces[i]))
			}
		case jobs.KindSingle:
			l, err := f.api.Traces.List(ctx, &client.TraceListOptions{Page: page, Limit: 100, Type: client.TypeSingle})
			if err != nil {
				return nil, err
			}
			md = l.Metadata
			for i := range l.Traces {
				c := traceCandidate(&l.Traces[i])
				c.job.Kind = jobs.KindSingle
				items = append(items, c)
			}
		case jobs.KindDNC:
			l, err := f.api.DNC.List(ctx, &client.ListOptions{Page: page, Limit: 100})
			if err != nil {
				return nil, err
			}
			md = l.Metadata
			for i := range l.Jobs {
				items = append(items, dncCandidate(&l.Jobs[i]))
			}
		default:
			return nil, fmt.Errorf("reconcile: unknown kind %q", f.kind)
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

// TraceJob turns an API trace into the ledger's record of it.
func TraceJob(t *client.Trace) ledger.Job {
	raw, _ := json.Marshal(t)
	kind := jobs.KindTrace
	if t.Type == client.TypeSingle {
		kind = jobs.KindSingle
	}
	j := ledger.Job{ID: t.ID, Kind: kind, Name: t.Name, Status: jobs.Status(t.Status), TotalRows: t.TotalRows,
		CreatedAt: t.CreatedAt, CompletedAt: t.CompletedAt, Last: raw}
	if t.ErrorMessage != nil {
		j.ErrorMessage = *t.ErrorMessage
	}
	return j
}

// DNCJob turns an API DNC job into the ledger's record of it.
func DNCJob(d *client.DNCJob) ledger.Job {
	raw, _ := json.Marshal(d)
	j := ledger.Job{ID: d.ID, Kind: jobs.KindDNC, Name: d.Name, Status: jobs.Status(d.Status), TotalRows: d.TotalRows,
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

// fitting returns the candidates that fit s: the same name and row count
// (and, for a trace, mode and include_llcs), created within [from, to], held
// by no submission yet.
func fitting(ctx context.Context, led *ledger.Ledger, s *ledger.Submission, cands []candidate, from, to time.Time) ([]*candidate, error) {
	// Names compare by their letters and digits, case aside: a server that
	// tidies a file name (spaces, accents, "Single: first last") still
	// names the same job.
	name := nameKey(filepath.Base(s.FileName))
	var out []*candidate
	for i := range cands {
		c := &cands[i]
		if nameKey(c.name) != name || c.created.Before(from) || c.created.After(to) {
			continue
		}
		if s.Rows > 0 && c.rows != s.Rows {
			continue
		}
		if s.Kind == jobs.KindTrace && ((c.mode != "" && s.Mode != "" && c.mode != s.Mode) || c.includeLLCs != s.IncludeLLCs) {
			continue
		}
		adopted, err := led.JobAdopted(ctx, c.id)
		if err != nil {
			return nil, err
		}
		if !adopted {
			out = append(out, c)
		}
	}
	return out, nil
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
