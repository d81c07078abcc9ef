package submit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/hostile"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs/ledger"
)

// produceText writes content in two parts; between them, between runs.
func produceText(content string, between func() error) Produce {
	return func(ctx context.Context, w io.Writer) (File, error) {
		half := len(content) / 2
		if _, err := io.WriteString(w, content[:half]); err != nil {
			return File{}, err
		}
		if between != nil {
			if err := between(); err != nil {
				return File{}, err
			}
		}
		if _, err := io.WriteString(w, content[half:]); err != nil {
			return File{}, err
		}
		sum := sha256.Sum256([]byte(content))
		return File{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(content)), Rows: strings.Count(strings.TrimSpace(content), "\n")}, nil
	}
}

// streamedReq is traceReq for the file written while sent: the request
// names the picked file, produce gives the bytes.
func streamedReq(f File) Request {
	r := traceReq(f)
	r.File = File{Source: f.Path, Name: f.Name, SourceSHA256: f.SHA256, Size: f.Size}
	return r
}

// A streamed submission records the same steps as Submit, none of them
// before the file is whole: no job exists until the intent is recorded
// and marked sent, and the ledger holds the same fingerprint (SHA-256,
// rows, size) as a submission of the file from disk.
func TestStreamedCommitsEachStep(t *testing.T) {
	t.Parallel()
	e, f := newOwnersEnv(t)
	ctx := context.Background()
	var steps []Step
	req := streamedReq(f)
	req.OnStep = func(s Step, sub *ledger.Submission) {
		steps = append(steps, s)
		if (s == StepIntent || s == StepSent) && clienttest.Jobs(t, e.api) != 0 {
			t.Errorf("a job exists at step %s", s)
		}
	}
	res, err := SubmitStreamed(ctx, e.api, e.led, req, produceText(ownersCSV, func() error {
		if clienttest.Jobs(t, e.api) != 0 {
			return errors.New("a job exists while the file is being written")
		}
		return nil
	}))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(stepNames(steps), ",") != "intent,sent,posted,created" || res.JobID == "" || res.Charged != 2 {
		t.Fatalf("steps %v, result %+v", steps, res)
	}
	sub, _ := e.led.Submissions().Submission(ctx, res.Submission.ID)
	if sub.State != ledger.StateCreated || sub.FileHash != f.SHA256 || sub.SourceHash != f.SHA256 || sub.Rows != 3 ||
		sub.FileSize != f.Size || sub.FilePath != f.Path {
		t.Fatalf("submission %+v", sub)
	}
	wantServerJobs(t, e.api, 1, "")
	// The same file from disk is the same submission.
	if _, err := Submit(ctx, e.api, e.led, traceReq(f)); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("the same file from disk: %v", err)
	}
	wantServerJobs(t, e.api, 1, "(a duplicate reached it)")
}

// A streamed submission stopped before its tail leaves — the duplicate
// guard refuses it, the file cannot be written, the context ends — sends
// the server an incomplete body: no job, no charge, no submission left in
// the ledger as sent or unknown.
func TestStreamedAbortedCreatesNothing(t *testing.T) {
	t.Parallel()
	cases := map[string]func(t *testing.T, e *env, f File) (context.Context, Produce, error){
		"duplicate": func(t *testing.T, e *env, f File) (context.Context, Produce, error) {
			if _, err := Submit(context.Background(), e.api, e.led, traceReq(f)); err != nil {
				t.Fatal(err)
			}
			return context.Background(), produceText(ownersCSV, nil), ErrDuplicate
		},
		"the file cannot be written": func(t *testing.T, e *env, f File) (context.Context, Produce, error) {
			broken := errors.New("disk gone")
			return context.Background(), produceText(ownersCSV, func() error { return broken }), broken
		},
		"context cancelled": func(t *testing.T, e *env, f File) (context.Context, Produce, error) {
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			return ctx, produceText(ownersCSV, func() error { cancel(); return ctx.Err() }), context.Canceled
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, f := newOwnersEnv(t)
			ctx, produce, want := setup(t, e, f)
			before := clienttest.Jobs(t, e.api)
			acc, err := e.api.Account(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			_, err = SubmitStreamed(ctx, e.api, e.led, streamedReq(f), produce)
			if !errors.Is(err, want) || errors.Is(err, client.ErrOutcomeUnknown) {
				t.Fatalf("err %v, want %v", err, want)
			}
			wantServerJobs(t, e.api, before, "(an aborted upload created one)")
			// An earlier job's refunds may come meanwhile: only a charge
			// lowers the balance.
			if after, err := e.api.Account(context.Background()); err != nil || after.Credits < acc.Credits {
				t.Fatalf("credits %d, then %d (%v)", acc.Credits, after.Credits, err)
			}
			pending, err := e.led.Submissions().List(context.Background(), ledger.StateIntent, ledger.StateSent, ledger.StateUnknown)
			if err != nil || len(pending) != 0 {
				t.Fatalf("pending submissions %d (%v)", len(pending), err)
			}
		})
	}
}

// A server that creates a job from an incomplete body and answers before
// the upload ends: the job is recorded, whatever the duplicate guard says
// (it exists and was charged), and the caller is told the outcome is not
// the one it asked for.
func TestStreamedEarlyAnswerIsRecorded(t *testing.T) {
	t.Parallel()
	s, api, led := hostileEnv(t)
	f := writeFile(t, "owners.csv", ownersCSV)
	ctx := context.Background()
	if _, err := Submit(ctx, api, led, traceReq(f)); err != nil {
		t.Fatal(err)
	}
	made := make(chan string, 1)
	s.Next(hostile.TraceCreate, func(w http.ResponseWriter, r *http.Request) {
		io.CopyN(io.Discard, r.Body, 16)
		j := s.Add(&hostile.Job{Name: "owners.csv", TotalRows: 3, Charged: 3})
		made <- j.ID
		// Answered on the connection itself: a Go handler's answer waits
		// for the body to be read.
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		t.Cleanup(func() { conn.Close() })
		body := fmt.Sprintf(`{"success":true,"id":%q,"status":"processing","total_rows":3,"credits_charged":3}`, j.ID)
		fmt.Fprintf(buf, "HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
		buf.Flush()
	})
	st, err := Start(ctx, api, streamedReq(f))
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(st.Writer(), ownersCSV[:20])
	id := <-made
	a := <-st.answer // the answer came before the file was all written
	st.answer <- a
	if a.err != nil {
		t.Fatalf("early answer: %v", a.err)
	}
	io.WriteString(st.Writer(), ownersCSV[20:]) // dropped: the request is over
	sum := sha256.Sum256([]byte(ownersCSV))
	_, err = st.Finish(ctx, led, File{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(ownersCSV)), Rows: 3}, nil)
	if !errors.Is(err, client.ErrOutcomeUnknown) {
		t.Fatalf("err %v", err)
	}
	if j, err := led.Jobs().Job(ctx, id); err != nil || j == nil {
		t.Fatalf("the job made from an incomplete body is not in the ledger: %v", err)
	}
}

// Abandoning a submission whose POST has not left yet (waiting for the
// team's shared rate budget, as long as it takes) ends it now, nothing
// sent.
func TestStreamedAbandonEndsAWaitingPOST(t *testing.T) {
	t.Parallel()
	e, f := newOwnersEnv(t)
	api, err := client.New(e.srv.URL(), sandbox.DemoKey, client.WithBudget(waitForever{}))
	if err != nil {
		t.Fatal(err)
	}
	st, err := Start(context.Background(), api, streamedReq(f))
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(st.Writer(), ownersCSV[:10])
	why := errors.New("the person did not go ahead")
	if err := st.Abandon(context.Background(), e.led, why); !errors.Is(err, why) {
		t.Fatalf("err %v", err)
	}
	wantServerJobs(t, e.api, 0, "(an abandoned upload created one)")
}

// waitForever is a rate budget that never has room: Take waits for its
// context.
type waitForever struct{}

func (waitForever) Take(ctx context.Context, _ string) error {
	<-ctx.Done()
	return ctx.Err()
}
