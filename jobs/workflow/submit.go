package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/entity"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/prepare"
	"github.com/skipdesk/skipdesk/jobs/reuse"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// Errors of a submission that callers tell apart (errors.Is).
var (
	// ErrDuplicate: the same file with the same mapping and options was
	// submitted within a day; nothing was sent. DuplicateOf describes the
	// earlier one. Submitting again needs SubmitOptions.Again.
	ErrDuplicate = submit.ErrDuplicate
	// ErrOutcomeUnknown: the request may have reached the server and been
	// charged. It is recorded as "unknown — may be charged" and settled by
	// reconciling against the job lists, never by sending it again.
	ErrOutcomeUnknown = client.ErrOutcomeUnknown
	// ErrTooLarge: the upload would be over the provider's 50 MB limit.
	ErrTooLarge = prepare.ErrTooLarge
)

// Duplicate is the earlier submission a refused one repeats.
type Duplicate struct {
	FileName string // as the person named it (without the submission's tag)
	At       time.Time
	JobID    string      // "" when its outcome is unknown
	Status   jobs.Status // its job's status, when known
	Charged  int64       // what its job was charged (net of refunds: Net)
	Net      int64
	// MaybeCharged: its outcome is unknown, it may have been charged.
	MaybeCharged bool
	// By names the teammate's computer that made it ("" when this one did).
	By string
}

// DuplicateOf describes the earlier submission err (ErrDuplicate) repeats.
func DuplicateOf(err error) (Duplicate, bool) {
	var de *submit.DuplicateError
	if !errors.As(err, &de) || de.Earlier == nil {
		return Duplicate{}, false
	}
	name, _ := submit.Untag(de.Earlier.FileName)
	d := Duplicate{FileName: name, At: de.Earlier.CreatedAt, JobID: de.Earlier.JobID, MaybeCharged: de.MaybeCharged,
		Charged: de.Spend.Charged, Net: de.Spend.Net()}
	if de.Job != nil {
		d.Status = de.Job.Status
	}
	if de.Elsewhere {
		d.By = de.Earlier.Computer
		if d.By == "" {
			d.By = "another computer"
		}
	}
	return d, true
}

// SubmitOptions are the choices made at the moment of paying.
type SubmitOptions struct {
	// Again submits although the same submission was made within a day.
	Again bool
	// Quote is the price the person saw, kept with the intent.
	Quote *Quote
	// Progress receives upload progress in bytes.
	Progress func(sent, total int64)
	// Early is the upload started while the list was read (ReadToSubmit),
	// nil when none: Submit sends it when it is the plan's upload, and
	// aborts it otherwise.
	Early *EarlyUpload
}

// Why an early upload is aborted (nothing of it reached the server whole).
var (
	errEarlyUnsent = errors.New("the submission did not go ahead")
	errEarlyUnfit  = errors.New("the upload started as the list was read is not the one to send")
)

// Submitted is a job created and charged.
type Submitted struct {
	JobID      string
	Charged    int64
	Submission int64
	// Upload says how the file was sent: as it is, or a prepared copy
	// (and why).
	Upload UploadInfo
	// Settled are earlier submissions whose outcome was unknown and that
	// were settled just before this one (the duplicate check then sees
	// what really happened).
	Settled []Settled
	// Reused counts the rows left out because the library holds their
	// earlier results (Plan.Reuse); they are merged into the job's result.
	Reused int
	// ResultPath is the merged result when every row was reused: no job
	// was needed (JobID is "").
	ResultPath string
	// Problem says what cannot be right in the charge the service
	// reported ("an absurd charge"), "" when nothing: shown as reported,
	// flagged, as Job.Problem is.
	Problem string
}

// UploadInfo says what was uploaded for a plan.
type UploadInfo struct {
	FileName          string   `json:"file_name"`
	Rows              int      `json:"rows"`
	Written           bool     `json:"written"`           // a prepared copy, not the picked file
	Reasons           []string `json:"reasons,omitempty"` // why a copy was written
	DroppedDuplicates int      `json:"dropped_duplicates,omitempty"`
	// SplitFailures counts, per split column, values that could not be
	// split (kept whole).
	SplitFailures map[string]int `json:"split_failures,omitempty"`
	// The repairs chosen before paying: ZIP codes given their zero back,
	// rows left out for a blank address, an invalid phone or a number
	// outside the US (not charged).
	PaddedZips       int `json:"padded_zips,omitempty"`
	LeftOutNoAddress int `json:"left_out_no_address,omitempty"`
	LeftOutInvalid   int `json:"left_out_invalid,omitempty"`
	LeftOutAbroad    int `json:"left_out_abroad,omitempty"`
}

// Submit prepares the plan's file (an .xlsx or another encoding to plain
// CSV, split columns added, duplicates dropped), settles earlier unknown
// submissions, and submits it through the ledger: the intent is recorded
// before sending and the job after, so that nothing is charged twice or
// lost. The tracker follows the new job at once.
//
// A plan that would be charged for nothing is refused before anything is
// recorded or sent (*NothingBillableError).
//
// Errors: ErrDuplicate (nothing sent; DuplicateOf), ErrOutcomeUnknown (may
// be charged: reconcile), a *CreditsError for a 402 (naming the cost and
// the balance), the client's error for any other refusal (nothing charged).
func (s *SubmitService) Submit(ctx context.Context, p Plan, ins *input.Inspection, opts SubmitOptions) (*Submitted, error) {
	// An early upload not sent by the end is aborted: nothing charged.
	defer opts.Early.Abandon(ctx, errEarlyUnsent)
	sess, err := s.books()
	if err != nil {
		return nil, err
	}
	if p.Kind != jobs.KindTrace && p.Kind != jobs.KindDNC {
		return nil, fmt.Errorf("workflow: cannot submit a %q", p.Kind)
	}
	if err := checkBillable(ctx, p, ins, opts.Quote); err != nil {
		return nil, err // nothing sent, nothing charged
	}
	rj, done, err := s.reuseFor(ctx, sess, p, ins, opts.Quote)
	if done != nil || err != nil {
		return done, err // every row reused (no job), or nothing sent
	}
	pp := p.prepare(ins, p.DropDuplicates)
	if rj != nil {
		pp.Keep, pp.KeepReason = rj.Keep, reuseReason(p.Kind)
	}
	out := &Submitted{}
	if settled, rerr := s.reconcile(ctx, sess); rerr == nil {
		out.Settled = settled
	}
	send := s.sendPrepared
	if opts.Early.fits(p, ins, pp, rj) {
		send = s.sendEarly // the copy was written as the list was read
	} else if written, _ := prepare.Describe(ins, pp); written {
		opts.Early.Abandon(ctx, errEarlyUnfit)
		send = s.sendStreamed // the copy is written while it is sent
	}
	res, err := send(ctx, sess, p, ins, pp, rj, opts, out)
	if err != nil {
		return nil, s.notSubmitted(ctx, sess, p, ins, opts, rj, err)
	}
	rj.MoveTo(library.SanitizeName(res.JobID))
	sess.trk.Hint(res.JobID)
	s.emit(Event{Kind: EventAccount})
	out.JobID, out.Charged, out.Submission = res.JobID, res.Charged, res.Submission.ID
	out.Problem = ledger.Implausible(res.Submission.Rows, ledger.Spend{Charged: res.Charged})
	if rj != nil {
		out.Reused = rj.State.Reused
	}
	return out, nil
}

// sendPrepared submits p's upload prepared (the picked file as it is, or
// a copy written first) and describes it in out.
func (s *SubmitService) sendPrepared(ctx context.Context, sess *session, p Plan, ins *input.Inspection, pp prepare.Plan, rj *reuse.Folder,
	opts SubmitOptions, out *Submitted) (*submit.Result, error) {
	up, err := prepare.Prepare(ctx, p.Path, ins, pp)
	if err != nil {
		return nil, err
	}
	defer up.Remove()
	s.uploaded(p, up, rj, out)
	req, err := s.request(p, ins, up, opts)
	if err != nil {
		return nil, err
	}
	defer s.markSubmitting(up.SHA256)()
	return submit.Submit(ctx, sess.api, sess.led, req)
}

// uploaded is what is known once p's upload is prepared: its reused rows'
// folder is named after it, and out describes it.
func (s *SubmitService) uploaded(p Plan, up *prepare.Upload, rj *reuse.Folder, out *Submitted) {
	rj.MoveTo("up-" + up.SHA256)
	out.Upload = UploadInfo{FileName: p.name(up.Written), Rows: up.Rows, Written: up.Written, Reasons: up.Reasons,
		DroppedDuplicates: up.DroppedDuplicates, SplitFailures: up.SplitFailures,
		PaddedZips: up.PaddedZips, LeftOutNoAddress: up.LeftOutBlank, LeftOutInvalid: up.LeftOutInvalid, LeftOutAbroad: up.LeftOutAbroad}
}

// markSubmitting notes that the upload sum is being sent (the job list
// does not show it as unknown meanwhile); the returned func ends that.
func (s *SubmitService) markSubmitting(sum string) func() {
	s.mu.Lock()
	s.submitting[sum] = true
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.submitting, sum)
		s.mu.Unlock()
	}
}

// request is the submission of the upload prepared from p. Its source is
// the person's file, not the copy prepared from it: the same list picked
// again is the same submission, however it is prepared.
func (s *SubmitService) request(p Plan, ins *input.Inspection, up *prepare.Upload, opts SubmitOptions) (submit.Request, error) {
	source := up.SHA256
	if up.Written {
		if source = ins.SHA256; source == "" {
			var err error
			if source, err = fileSum(p.Path); err != nil {
				return submit.Request{}, err
			}
		}
	}
	req := submit.Request{
		Kind: p.Kind,
		File: submit.File{Path: up.Path, Source: p.Path, Name: p.name(up.Written), SHA256: up.SHA256, SourceSHA256: source, Size: up.Size,
			Rows: up.Rows},
		Mapping:     up.Mapping,
		Mode:        p.mode(),
		IncludeLLCs: p.IncludeLLCs && p.Kind == jobs.KindTrace,
		Options:     p.options(),
		Again:       opts.Again,
		Progress:    opts.Progress,
		OnStep:      func(st submit.Step, _ *ledger.Submission) { s.cfg.step(string(st)) },
	}
	if q := opts.Quote; q != nil {
		req.Estimate = &submit.Estimate{Credits: q.Credits, Rows: q.Rows}
		if q.Trace != nil {
			req.Estimate.EntityRows = q.Trace.EntityRows
		}
	}
	return req, nil
}

// notSubmitted is the error of a submission that failed: an unknown
// outcome is looked for at once (its reused rows kept for the job it may
// be); otherwise the reused rows go, and too few credits names what the
// job costs (the price shown, else priced now).
func (s *SubmitService) notSubmitted(ctx context.Context, sess *session, p Plan, ins *input.Inspection, opts SubmitOptions, rj *reuse.Folder, err error) error {
	var ue *submit.UnknownError
	if errors.As(err, &ue) {
		sess.trk.Refresh()
		sess.trk.ReconcileSoon()
		return err
	}
	rj.Discard() // nothing charged: nothing to merge
	if !errors.Is(err, client.ErrInsufficientCredits) {
		return err
	}
	needed := int64(-1)
	if opts.Quote != nil {
		needed = opts.Quote.Credits
	} else if q, qerr := s.quotes().Quote(context.WithoutCancel(ctx), p, ins); qerr == nil {
		needed = q.Credits
	}
	return s.creditsError(ctx, sess, err, needed)
}

// checkBillable refuses a plan that would be charged for nothing (every
// row a company's with companies not traced, every phone invalid), read
// from the quote the person saw, else from the file counted again (without
// the library: rows it would reuse are then counted as billed, which never
// refuses a list that has something to charge for).
func checkBillable(ctx context.Context, p Plan, ins *input.Inspection, q *Quote) error {
	if q == nil {
		c, err := Count(ctx, p, ins)
		if err != nil {
			return err
		}
		priced := Price(c, p, Rates{}) // the rows per tier: no rate needed
		q = &priced
	}
	if why := nothingBillable(p, *q); why != "" {
		return &NothingBillableError{Kind: p.Kind, File: filepath.Base(p.Path), Why: why}
	}
	return nil
}

// creditsError turns a 402 into a *CreditsError with what the request
// costs (needed; -1 unknown) and the balance.
func (s *core) creditsError(ctx context.Context, sess *session, err error, needed int64) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 20*time.Second)
	defer cancel()
	ce := &CreditsError{Err: err, Needed: max(needed, 0)}
	var ae *client.APIError
	if errors.As(err, &ae) && strings.EqualFold(ae.Code, "PAST_DUE") {
		ce.PastDue = true
	}
	acc, aerr := sess.api.Account(ctx)
	if aerr != nil {
		return ce
	}
	ce.Balance = acc.Credits
	if acc.BillingMode == client.BillingMetered {
		ce.Metered = true
		ce.PastDue = ce.PastDue || (acc.Metered != nil && acc.Metered.PastDue)
	}
	return ce
}

// Single is POST /traces/single through the ledger, as a bulk submission:
// the intent is recorded before sending, the charge after. An interrupted
// lookup is left "unknown — may be charged" for reconcile, and never resent.
func (s *SubmitService) Single(ctx context.Context, req client.SingleTraceRequest) (*client.SingleTraceResult, error) {
	sess, err := s.books()
	if err != nil {
		return nil, err
	}
	out, err := submit.Single(ctx, sess.api, sess.led, submit.SingleRequest{Trace: req,
		OnStep: func(st submit.Step, _ *ledger.Submission) { s.cfg.step(string(st)) }})
	if err != nil {
		var ue *submit.UnknownError
		switch {
		case errors.Is(err, client.ErrInsufficientCredits):
			// A 402 names what the lookup costs and what the account has.
			needed := int64(-1)
			if p, perr := sess.api.Pricing(ctx); perr == nil {
				needed = SingleCost(req, p.Rates)
			}
			return nil, s.creditsError(ctx, sess, err, needed)
		case errors.As(err, &ue):
			s.emit(Event{Kind: EventStatus, Job: Job{Key: submissionKey(ue.SubmissionID), Kind: jobs.KindSingle,
				Name: submit.SingleName(&req), Status: jobs.StatusUnknown, Rows: 1, CreatedAt: time.Now()}})
		}
		return nil, err
	}
	res := out.Result
	now := time.Now().UTC()
	matches := 0
	if res.Matched {
		matches = 1
	}
	j := Job{ID: out.JobID, Key: out.JobID, Kind: jobs.KindSingle, Name: submit.SingleName(&req),
		Status: jobs.StatusCompleted, Rows: 1, Matches: matches, Charged: res.Credits, Refunded: res.CreditsRefunded,
		CreatedAt: now, CompletedAt: now}
	// The answer is kept in the library (a lookup paid for is never lost);
	// a library that cannot be written costs the lookup nothing.
	if path, err := s.keepSingle(out.JobID, req, res, now); err == nil {
		j.ResultPath = path
	} else {
		s.emit(Event{Kind: EventWarning, Job: j, Err: fmt.Errorf("the lookup's answer was not kept in the library: %w", err)})
	}
	s.emit(Event{Kind: EventStatus, Job: j})
	s.emit(Event{Kind: EventAccount})
	return res, nil
}

// SingleCost is what a single lookup costs at rates: the llc rate for a
// company (flagged, or a name the provider recognises as one), else the
// normal rate.
func SingleCost(req client.SingleTraceRequest, r client.Rates) int64 {
	if SingleIsCompany(req) {
		return r.LLC
	}
	return r.Normal
}

// SingleIsCompany: the provider prices the lookup as a company's.
func SingleIsCompany(req client.SingleTraceRequest) bool {
	return req.IsEntity || entity.IsEntity(strings.TrimSpace(req.FirstName+" "+req.LastName))
}

// tracePhonesName is the name of a trace's phone list, as the person named
// the trace ("owners phones"), never the result file's dated, tagged name.
func tracePhonesName(traceResultPath string) string {
	base := strings.TrimSuffix(filepath.Base(traceResultPath), filepath.Ext(traceResultPath))
	if m, err := library.ReadRecord(library.RecordPath(traceResultPath)); err == nil && m.Name != "" {
		base = strings.TrimSuffix(m.Name, filepath.Ext(m.Name))
	}
	return base + " phones"
}

// TracePhones writes the phones of a completed trace's result — every
// valid number of every phone column its layout finds, each once — as a
// one-column phone list for a DNC scrub, and returns the plan that scrubs
// it, linked to the trace.
func (s *SubmitService) TracePhones(ctx context.Context, traceResultPath, traceJobID string) (Plan, error) {
	l, err := s.resultLayout(traceResultPath)
	if err != nil {
		return Plan{}, err
	}
	if len(l.Slots) == 0 {
		return Plan{}, fmt.Errorf("%s has no phone column to scrub", filepath.Base(traceResultPath))
	}
	list, flagged, abroad, err := distinctPhones(ctx, traceResultPath, l)
	if err != nil {
		return Plan{}, err
	}
	if list == "" && flagged+abroad > 0 {
		return Plan{}, fmt.Errorf("every phone number of the trace %s is one its result already puts on a list or says not to call, or one outside the US: a scrub would make none of them callable", traceJobID)
	}
	if list == "" {
		return Plan{}, fmt.Errorf("the trace %s found no phone numbers to scrub", traceJobID)
	}
	dir := filepath.Join(s.cfg.Home, "phone-lists")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Plan{}, err
	}
	out := filepath.Join(dir, library.SanitizeName(tracePhonesName(traceResultPath))+".csv")
	if err := library.WriteFileAtomic(out, []byte("phone\r\n"+list)); err != nil {
		return Plan{}, err
	}
	return Plan{Kind: jobs.KindDNC, Path: out, Mapping: mapping.Mapping{mapping.Phone: "phone"}, ParentTraceID: traceJobID,
		Flagged: flagged, Abroad: abroad}, nil
}

// distinctPhones is the valid numbers of a trace's result read in layout
// l, each once, one a line (CRLF), in the order met; "" when it holds none.
// Each number once: the scrub is billed per row, and the callable list
// matches flags to phones by number. Invalid numbers are not sent: they
// are never callable anyway; nor are those the result itself puts on a
// list or says not to call (a vendor's file with its own flags): a
// flagged answer stays flagged whatever a scrub says. flagged counts
// those, each number once; abroad the numbers outside the US it leaves
// out too (a US scrub does not make them callable).
func distinctPhones(ctx context.Context, path string, l *layout.Layout) (list string, flagged, abroad int, err error) {
	in, err := os.Open(path)
	if err != nil {
		return "", 0, 0, err
	}
	defer in.Close()
	rr, err := library.NewRowReader(in)
	if err != nil {
		return "", 0, 0, fmt.Errorf("%s: %w", path, err)
	}
	rd := l.NewReader(nil)
	var row layout.Row
	var b strings.Builder
	// A number met → the reasons no scrub lifts that its rows give: a list
	// the result puts it on, or its being abroad (layout.Judge's rules).
	kept := map[uint64]layout.Block{}
	var order []uint64
	for n := 0; ; n++ {
		if n%4096 == 0 && ctx.Err() != nil {
			return "", 0, 0, ctx.Err()
		}
		rec, err := rr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", 0, 0, fmt.Errorf("%s: %w", path, err)
		}
		rd.ReadPhones(rec, &row)
		for _, p := range row.Phones {
			if p.Key == 0 {
				continue
			}
			was, met := kept[p.Key]
			if !met {
				order = append(order, p.Key)
			}
			// Listed in any of its rows: no scrub lifts it.
			kept[p.Key] = was | p.Block&(layout.ListedBlocks|layout.BlockAbroad)
		}
	}
	for _, k := range order {
		switch {
		case kept[k]&layout.ListedBlocks != 0:
			flagged++
			continue
		case kept[k]&layout.BlockAbroad != 0:
			abroad++ // a US scrub does not make it callable
			continue
		}
		b.WriteString(layout.Phone{Key: k}.Digits() + "\r\n")
	}
	return b.String(), flagged, abroad, nil
}
