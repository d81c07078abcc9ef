package workflow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/index"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/prepare"
	"github.com/skipdesk/skipdesk/jobs/reuse"
)

// Don't pay twice. Before a trace is submitted its rows are looked up in
// the library index by their owner key (the owner's name and the property's
// address, read by one rule: index.OwnerKey); before a scrub, its phones
// (scrubbed within the registry's 31 days). The quote says what the
// library already holds and what leaving it out saves; with the person's
// choice (Plan.Reuse) the upload holds only the other rows, and once the
// new job's result is in, a merged result holds every row of the list in
// its order, each saying where its data came from (merge.go).

// Reuse is what the library already holds of a plan's rows, in a Quote.
type Reuse struct {
	// Rows of the upload found in the library within the age allowed:
	// traced before (a trace) or scrubbed within the window (a scrub).
	Rows       int `json:"rows"`
	EntityRows int `json:"entity_rows,omitempty"`
	// Older rows were found too, but their results are older than the
	// plan allows (Plan.ReuseWithin).
	Older int `json:"older_rows,omitempty"`
	// Newest and Oldest are the dates of the newest and oldest earlier
	// results that would be reused.
	Newest time.Time `json:"newest,omitempty"`
	Oldest time.Time `json:"oldest,omitempty"`
	// Savings are the credits leaving those rows out saves.
	Savings int64 `json:"savings"`
	// Skipped: the plan leaves them out and reuses their results.
	Skipped bool `json:"skipped"`
	// Within is how old a reused result may be (0: any age).
	Within time.Duration `json:"within_ns,omitempty"`
	// Unavailable says why the library could not be looked at ("" when it
	// was): nothing is offered then.
	Unavailable string `json:"unavailable,omitempty"`
}

// Offer is the line a screen shows for it: "120 rows were traced before
// (newest Nov 2, 2026): skip them and reuse their results — saves 120
// credits".
func (r *Reuse) Offer(kind jobs.Kind) string {
	if r == nil || r.Rows == 0 {
		return ""
	}
	what := jobs.Plural(int64(r.Rows), "row was traced before", "rows were traced before")
	if kind == jobs.KindDNC {
		what = jobs.Plural(int64(r.Rows), "phone was scrubbed", "phones were scrubbed") + " in the last 31 days"
	}
	newest := r.Newest.Local().Format("Jan 2, 2006")
	verb := "skip them and reuse their results"
	if r.Rows == 1 {
		verb = "skip it and reuse its result"
	}
	if r.Skipped {
		verb = "skipped, their results reused"
		if r.Rows == 1 {
			verb = "skipped, its result reused"
		}
		return fmt.Sprintf("%s (newest %s): %s — saves %s", what, newest, verb, jobs.Credits(r.Savings))
	}
	return fmt.Sprintf("%s (newest %s): %s — saves %s", what, newest, verb, jobs.Credits(r.Savings))
}

// reuseCounts are the rows of a plan's upload that the library holds,
// found by Service.Count.
type reuseCounts struct {
	at    time.Time
	all   []reuse.Hit // with duplicates
	noDup []reuse.Hit // without them (when the list has any; else all)
	err   error       // the library could not be read
}

// cutoff is the oldest date a plan reuses (Unix s; 0 any).
func cutoff(p Plan, at time.Time) int64 {
	w := p.ReuseWithin
	if p.Kind == jobs.KindDNC && (w <= 0 || w > reuse.DNCWindow) {
		w = reuse.DNCWindow
	}
	if w <= 0 {
		return 0
	}
	return at.Add(-w).Unix()
}

// reuseFor sums what the plan would reuse.
func (rc *reuseCounts) reuseFor(p Plan) *Reuse {
	if rc == nil {
		return nil
	}
	r := &Reuse{Within: p.ReuseWithin, Skipped: p.Reuse}
	if rc.err != nil {
		r.Unavailable = rc.err.Error()
		r.Skipped = false
		return r
	}
	hits := rc.all
	if p.DropDuplicates {
		hits = rc.noDup
	}
	from := cutoff(p, rc.at)
	enhanced := p.mode() == jobs.ModeEnhanced
	var newest, oldest int64
	for _, h := range hits {
		d := h.Date
		if enhanced {
			d = h.Enhanced // an enhanced trace reuses only enhanced results
		}
		switch {
		case d == 0:
			continue
		case d < from:
			r.Older++
			continue
		}
		r.Rows++
		if h.Entity {
			r.EntityRows++
		}
		newest = max(newest, d)
		if oldest == 0 || d < oldest {
			oldest = d
		}
	}
	if r.Rows > 0 {
		r.Newest, r.Oldest = time.Unix(newest, 0).UTC(), time.Unix(oldest, 0).UTC()
	}
	if r.Rows == 0 {
		r.Skipped = false
	}
	return r
}

// readList reads the plan's upload (with or without duplicates) and hands
// each row to fn with its owner key or phone; m is the upload's mapping.
func readList(ctx context.Context, p Plan, ins *input.Inspection, dropDups bool, m mapping.Mapping,
	fn func(rec []string, header []string, r reuse.Row) error) error {
	var header []string
	var keys *reuse.Keys
	phoneCol := -1
	pp := p.prepare(ins, dropDups)
	return prepare.Each(ctx, p.Path, ins, pp, func(rec []string, isHeader bool) error {
		if isHeader {
			header = slices.Clone(rec)
			if p.Kind == jobs.KindDNC {
				phoneCol = slices.Index(header, p.Mapping[mapping.Phone])
			} else {
				keys = reuse.NewKeys(header, m)
			}
			return nil
		}
		if p.Kind == jobs.KindDNC {
			return fn(rec, header, reuse.PhoneRow(rec, phoneCol))
		}
		return fn(rec, header, keys.Row(rec))
	})
}

// lookupHere finds the rows' earlier results in the index that this
// computer can read. In a team's index a row may be in a teammate's result,
// which is in that computer's folder: those results are downloaded here
// first (reading a completed job's result costs nothing), so that the rows
// reused are read from this computer's copy. A row whose earlier result
// cannot be brought here is not reused: it is traced or scrubbed again.
// The quote and the submission both count through here, so they agree.
func (s *core) lookupHere(ctx context.Context, x *index.Index, kind jobs.Kind, rows []reuse.Row, at time.Time) (reuse.Earlier, error) {
	e, err := reuse.Lookup(ctx, x, kind, rows, at)
	if errors.Is(err, index.ErrDamaged) {
		// The read found the index damaged: rebuilt from the files now,
		// and asked again.
		if _, _, err = s.syncedIndex(ctx, x.Dir(), nil); err == nil {
			e, err = reuse.Lookup(ctx, x, kind, rows, at)
		}
	}
	if err != nil || !x.Shared() {
		return e, err
	}
	if want := e.Elsewhere(); len(want) > 0 {
		sess, err := s.books()
		if err != nil {
			return reuse.Earlier{}, err
		}
		got := 0
		for _, id := range want {
			if _, err := sess.trk.Fetch(ctx, kind, id, nil); err == nil {
				got++
			} else if ctx.Err() != nil {
				return reuse.Earlier{}, ctx.Err()
			}
		}
		if got > 0 {
			if _, _, err := s.syncedIndex(ctx, x.Dir(), nil); err != nil {
				return reuse.Earlier{}, err
			}
			if e, err = reuse.Lookup(ctx, x, kind, rows, at); err != nil {
				return e, err
			}
		}
	}
	return e.Here(), nil
}

// holdsReusable reports whether the library holds a result a row of a
// list of kind could be found in at at (a scrub's within the registry's
// window): when it holds none, the list need not be read for its keys.
func holdsReusable(ctx context.Context, x *index.Index, kind jobs.Kind, at time.Time) (bool, error) {
	var since time.Time
	if kind == jobs.KindDNC {
		since = at.Add(-reuse.DNCWindow)
	}
	return x.Holds(ctx, kind, since)
}

// reuseLook is the library look-up of a plan's rows for its quote, set up
// before they are counted: a trace's keys are gathered while the rows are
// counted (one reading of the file), and nothing is read for the look-up
// when the library holds no result a row could be found in.
type reuseLook struct {
	x  *index.Index // nil: nothing to look up (rc says why, or finds nothing)
	rc *reuseCounts
	// A trace's rows, gathered by count: in a team's index their owner
	// keys (rows, for lookupHere), else their owner hashes (owners), merged
	// with the index's owner runs read while the rows are counted (runs).
	rows   *reuse.Gather
	owners *reuse.Owners
	runs   *index.OwnerRuns
	// The merge of owners with runs (startHeld): its answer once merged
	// is closed.
	merged  chan struct{}
	hashes  []int64
	held    []index.Newest
	heldErr error
	// indexing: the library's index had results to read when the list
	// was read; nothing was looked up (lookFor).
	indexing bool
}

// waits reports whether the look-up was left for the library's index to
// catch up: the reading's counts would lack it, so it counts nothing.
func (l *reuseLook) waits() bool { return l != nil && l.indexing }

// lookFor sets up the look-up of p's rows; nil when the plan cannot be
// looked up (a trace without a property address; no library). It brings
// the library's index up to date first; a reading that shows the list
// before its price (wait false) does not wait for that: while the index
// has results to read, the look-up is left undone (indexing) and the
// index is brought up to date in the background, for Count.
func (s *core) lookFor(ctx context.Context, p Plan, wait bool) *reuseLook {
	switch {
	case s == nil:
		return nil // no session, no library (Read, Count)
	case p.Kind == jobs.KindTrace && p.Mapping[mapping.PropertyStreet] == "":
		return nil // without a property address no row can be matched
	}
	lib, err := s.library()
	if err != nil {
		return nil
	}
	l := &reuseLook{rc: &reuseCounts{at: time.Now()}}
	if !wait && s.indexBehind(ctx, lib.Dir()) {
		s.indexInBackground(lib.Dir())
		l.indexing = true
		return l
	}
	x, _, err := s.syncedIndex(ctx, lib.Dir(), nil)
	if x == nil {
		l.rc.err = err
		return l
	}
	holds, err := holdsReusable(ctx, x, p.Kind, l.rc.at)
	switch {
	case err != nil:
		if ctx.Err() == nil {
			l.rc.err = err
		}
	case holds:
		l.x = x
		switch {
		case p.Kind != jobs.KindTrace:
		case x.Shared():
			l.rows = &reuse.Gather{}
		default:
			l.runs = x.ReadOwners(ctx)
		}
	}
	return l
}

// counter counts plan's upload (head: its file's inspection, or its start)
// and hands a trace's rows to the look-up when it gathers them.
func (l *reuseLook) counter(path string, head *input.Inspection, plan prepare.Plan) (*prepare.Counter, error) {
	if l == nil || (l.rows == nil && l.runs == nil) {
		return prepare.NewCounter(path, head, plan, nil)
	}
	m, err := prepare.UploadMapping(path, head, plan)
	if err != nil {
		return nil, err
	}
	if l.rows != nil {
		return prepare.NewCounter(path, head, plan, l.rows.Reader(m))
	}
	l.owners = reuse.NewOwners(m, prepare.ExpectRows(head))
	return prepare.NewCounterHanding(path, head, plan, l.owners.Row, l.owners.Dup)
}

// phoneTap is tap with, when the library holds scrubs the list's numbers
// could reuse, the scrub's upload gathered for the look-up in the same
// reading: counted as the upload will be (prepare.Counter: its invalid
// numbers left out as the plan says, its repeats marked), so that finish
// need not read the list again for its rows.
func (l *reuseLook) phoneTap(path string, head *input.Inspection, p Plan, tap input.Tap) input.Tap {
	if l == nil || l.x == nil {
		return tap
	}
	g := &reuse.Gather{}
	counter, err := prepare.NewCounter(path, head, p.prepare(head, true), g.PhoneReader(p.Mapping[mapping.Phone]))
	if err != nil {
		return tap // finish reads the rows itself
	}
	l.rows = g
	return func(row []string, line int) error {
		if err := tap(row, line); err != nil {
			return err
		}
		return counter.Row(row)
	}
}

// close stops the reading of the index's owner runs, if it was not
// merged, and the hashing of the rows' owner keys.
func (l *reuseLook) close() {
	if l == nil {
		return
	}
	if l.merged != nil {
		<-l.merged
	}
	if l.runs != nil {
		l.runs.Close()
	}
	l.owners.Close()
}

// finish looks the rows up and says which the library holds: for the
// quote's offer (see reuseCounts).
func (l *reuseLook) finish(ctx context.Context, s *core, p Plan, ins *input.Inspection, c *Counts) *reuseCounts {
	if l == nil || l.x == nil {
		return l.reuse()
	}
	rc := l.rc
	if l.owners != nil {
		rc.all, rc.noDup, rc.err = l.ownersHeld(ctx, s)
		if ctx.Err() != nil {
			rc.err = nil
		}
		return rc
	}
	var all, noDup []reuse.Row
	if l.rows != nil {
		all, noDup = l.rows.All, l.rows.NoDup
	} else {
		// A scrub's rows are read here: with duplicates and, when the
		// list has any, without.
		var err error
		all, err = readRows(ctx, p, ins, false, c.mapping)
		noDup = all
		if err == nil && c.Duplicates > 0 {
			noDup, err = readRows(ctx, p, ins, true, c.mapping)
		}
		if err != nil {
			if ctx.Err() == nil {
				rc.err = err
			}
			return rc
		}
	}
	// One look-up for both (the second's keys are among the first's).
	e, err := s.lookupHere(ctx, l.x, p.Kind, all, rc.at)
	if err != nil {
		if ctx.Err() == nil {
			rc.err = err
		}
		return rc
	}
	rc.all, rc.noDup = e.Hits(all), e.Hits(noDup)
	return rc
}

// ownersHeld are the trace's rows the library holds (with the rows
// repeating an earlier one and without), found by merging their owner
// hashes with the index's owner runs (begun by startHeld, or here). The
// count must have found its duplicate rows (Tally) first.
func (l *reuseLook) ownersHeld(ctx context.Context, s *core) (all, noDup []reuse.Hit, err error) {
	l.startHeld(ctx, s)
	<-l.merged
	if l.heldErr != nil {
		return nil, nil, l.heldErr
	}
	all, noDup = l.owners.Hits(l.hashes, l.held)
	return all, noDup, nil
}

// startHeld starts the merge of the rows' owner hashes with the index's
// owner runs once the list is read, beside the count's own last step
// (its duplicates, which the merge does not need); ownersHeld takes its
// answer. An index found damaged is rebuilt from the files, and its runs
// read again.
func (l *reuseLook) startHeld(ctx context.Context, s *core) {
	if l == nil || l.owners == nil || l.x == nil || l.merged != nil {
		return
	}
	l.merged = make(chan struct{})
	go func() {
		defer close(l.merged)
		l.hashes = l.owners.Hashes()
		held, err := l.runs.Newest(l.hashes)
		if errors.Is(err, index.ErrDamaged) {
			if _, _, err = s.syncedIndex(ctx, l.x.Dir(), nil); err == nil {
				runs := l.x.ReadOwners(ctx)
				defer runs.Close()
				held, err = runs.Newest(l.hashes)
			}
		}
		l.held, l.heldErr = held, err
	}()
}

// reuse is the counts of a look-up that read nothing (nil without one).
func (l *reuseLook) reuse() *reuseCounts {
	if l == nil {
		return nil
	}
	return l.rc
}

// readRows reads the keys of the plan's upload rows.
func readRows(ctx context.Context, p Plan, ins *input.Inspection, dropDups bool, m mapping.Mapping) ([]reuse.Row, error) {
	var rows []reuse.Row
	err := readList(ctx, p, ins, dropDups, m, func(_ []string, _ []string, r reuse.Row) error {
		rows = append(rows, r)
		return nil
	})
	return rows, err
}

// QuoteChangedError: the rows the library holds changed between the quote
// and the submission (a result arrived or was removed): nothing was sent;
// price again.
type QuoteChangedError struct {
	Quoted, Now int
	Kind        jobs.Kind
}

func (e *QuoteChangedError) Error() string {
	what := "rows traced before"
	if e.Kind == jobs.KindDNC {
		what = "phones scrubbed in the last 31 days"
	}
	return fmt.Sprintf("the library changed since the price was shown (%d %s then, %d now): nothing was sent; look at the price again",
		e.Quoted, what, e.Now)
}

// ErrQuoteChanged is matched (errors.Is) by a *QuoteChangedError.
var ErrQuoteChanged = errors.New("the library changed since the price was shown")

// Is makes errors.Is(err, ErrQuoteChanged) true.
func (e *QuoteChangedError) Is(target error) bool { return target == ErrQuoteChanged }

// keepAll stands for the reuse filter when a quote describes the upload.
func keepAll([]string) bool { return true }

// reuseReason says why an upload leaves rows out, in words.
func reuseReason(kind jobs.Kind) string {
	if kind == jobs.KindDNC {
		return "phones scrubbed in the last 31 days are left out (their answers are reused)"
	}
	return "rows traced before are left out (their results are reused)"
}
