package submit

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
)

// SingleRequest is one single-record trace.
type SingleRequest struct {
	Trace    client.SingleTraceRequest
	Estimate *Estimate                      // the cost shown before the click
	OnStep   func(Step, *ledger.Submission) // as Request.OnStep
}

// SingleResult is a single trace that was charged.
type SingleResult struct {
	Submission *ledger.Submission
	JobID      string // the result's id, or "single-<submission id>" when the server gave none
	Result     *client.SingleTraceResult
}

// SingleName is the name the service gives a single trace in GET /traces
// (CONTRACT §8): "Single: FIRST LAST".
func SingleName(r *client.SingleTraceRequest) string {
	return strings.TrimSpace("Single: " + strings.TrimSpace(r.FirstName) + " " + strings.TrimSpace(r.LastName))
}

// Single runs POST /traces/single through the ledger with the same steps
// as Submit: intent, sent, then the charge recorded as a finished job of
// kind single. Answers are classified as for Submit. An unknown outcome is
// left for Reconcile, which looks for the lookup in GET /traces?type=single
// (see Reconcile for what it can and cannot prove of a single). There is no
// duplicate check: the same owner may be looked up again on purpose.
func Single(ctx context.Context, api *client.Client, led *ledger.Ledger, req SingleRequest) (*SingleResult, error) {
	if strings.TrimSpace(req.Trace.FirstName) == "" {
		return nil, errors.New("submit: a single trace needs first_name")
	}
	body, err := json.Marshal(req.Trace)
	if err != nil {
		return nil, fmt.Errorf("submit: single trace: %w", err)
	}
	est, err := encodeOptional(req.Estimate, "estimate")
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	sub := &ledger.Submission{Kind: jobs.KindSingle, FileName: SingleName(&req.Trace), FileHash: hex.EncodeToString(sum[:]),
		FileSize: int64(len(body)), Rows: 1, Options: body, Estimate: est}
	id, step, done, err := beginSend(ctx, led, sub, req.OnStep)
	if err != nil {
		return nil, err
	}
	defer done()
	rec := context.WithoutCancel(ctx)

	res, err := api.Traces.Single(ctx, &req.Trace)
	if err != nil {
		// Classified as any charged call: only the spec's refusals are
		// failed; a redirect, 408, 409, another 4xx or a 5xx is unknown.
		return nil, recordFailure(rec, led, sub, err)
	}
	step(StepPosted)
	jobID := res.ID
	if jobID == "" {
		jobID = fmt.Sprintf("single-%d", id)
	}
	raw, _ := json.Marshal(res)
	now := time.Now()
	err = led.Submissions().MarkCreated(rec, id, ledger.Created{JobID: jobID, Response: raw, Charged: res.Credits, Refunded: res.CreditsRefunded,
		Job: ledger.Job{Kind: jobs.KindSingle, Name: sub.FileName, Status: jobs.StatusCompleted, TotalRows: 1,
			CreatedAt: now, CompletedAt: now, Last: raw}})
	if err != nil {
		return nil, &UnknownError{SubmissionID: id, Err: fmt.Errorf("single trace %s was charged but could not be recorded: %w", jobID, err)}
	}
	sub.State, sub.JobID, sub.Response = ledger.StateCreated, jobID, raw
	step(StepCreated)
	return &SingleResult{Submission: sub, JobID: jobID, Result: res}, nil
}

// sameLookup reports whether the single lookup c is the one submission s
// sent. A single trace cannot carry a tag: the API names it "Single: FIRST
// LAST" from the names sent, so another lookup of the same name (another
// computer, the same key) is named the same. Its result file is the only
// other thing the API shows of it: c is s's lookup when the result repeats
// the address, city, state and zip sent (kept with the intent). The spec
// does not show the result's columns; a result without them, or one that
// cannot be downloaded, proves nothing, and c is then only a look-alike.
func sameLookup(ctx context.Context, api *client.Client, s *ledger.Submission, c *candidate) (bool, error) {
	var req client.SingleTraceRequest
	if json.Unmarshal(s.Options, &req) != nil || strings.TrimSpace(req.Address) == "" {
		return false, nil
	}
	dir, err := os.MkdirTemp("", "skipdesk-lookup-*")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "result.csv")
	if _, err := api.Traces.Download(ctx, c.id, path, nil); err != nil {
		return false, ctx.Err()
	}
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord, r.LazyQuotes = -1, true
	header, err := r.Read()
	if err != nil {
		return false, nil
	}
	row, err := r.Read()
	if err != nil {
		return false, nil
	}
	index := map[string]int{}
	for i, h := range header {
		index[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
	}
	norm := func(v string) string { return strings.ToUpper(strings.Join(strings.Fields(v), " ")) }
	for col, sent := range map[string]string{"address": req.Address, "city": req.City, "state": req.State, "zip": req.Zip} {
		i, ok := index[col]
		if !ok || i >= len(row) || norm(row[i]) != norm(sent) {
			return false, nil
		}
	}
	return true, nil
}
