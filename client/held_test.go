package client

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// heldRun is one held upload under test: Create runs on its own
// goroutine while the test writes the file.
type heldRun struct {
	h    *HeldFile
	sent chan int64 // body bytes sent, as progress reports them
	out  chan heldOut
}

type heldOut struct {
	created *TraceCreated
	err     error
}

func startHeld(ctx context.Context, c *Client, sizeHint int64) *heldRun {
	r := &heldRun{h: NewHeldFile(sizeHint), sent: make(chan int64, 1024), out: make(chan heldOut, 1)}
	go func() {
		created, err := c.Traces.Create(ctx, &TraceUpload{FileName: "owners.csv", ColumnMapping: ownersMapping, Held: r.h,
			Progress: func(sent, _ int64) {
				select {
				case r.sent <- sent:
				default:
				}
			}})
		r.out <- heldOut{created, err}
	}()
	return r
}

// waitSent waits until the transport has taken body bytes of the file
// (more than the envelope before it), or the call has ended.
func (r *heldRun) waitSent(t *testing.T, atLeast int64) {
	t.Helper()
	for {
		select {
		case n := <-r.sent:
			if n >= atLeast {
				return
			}
		case o := <-r.out:
			r.out <- o
			return
		}
	}
}

// ownersBody is a list of n owners, split in two: most of it, and a last
// line.
func ownersBody(n int) (head, last string) {
	var b strings.Builder
	b.WriteString("First,Last,Street,City,State,Zip\r\n")
	for i := 0; i < n-1; i++ {
		b.WriteString("John,Smith,1 Main St,Austin,TX,78701\r\n")
	}
	return b.String(), "Ann,Lee,4 Pine Rd,Austin,TX,78704\r\n"
}

// A released upload is the same job as the file sent from disk: the
// sandbox counts the same rows and charges the same.
func TestHeldUploadReleasedCreatesTheJob(t *testing.T) {
	t.Parallel()
	_, c := startSandbox(t, sandboxConfig())
	ctx := context.Background()
	run := startHeld(ctx, c, int64(len(ownersCSV)))
	io.WriteString(run.h, ownersCSV[:40])
	io.WriteString(run.h, ownersCSV[40:])
	run.h.Close()
	run.h.Release()
	o := <-run.out
	if o.err != nil {
		t.Fatal(o.err)
	}
	fromDisk, err := c.Traces.Create(ctx, &TraceUpload{Path: writeFile(t, t.TempDir(), "owners.csv", ownersCSV), ColumnMapping: ownersMapping})
	if err != nil {
		t.Fatal(err)
	}
	if o.created.TotalRows != fromDisk.TotalRows || o.created.CreditsCharged != fromDisk.CreditsCharged || o.created.TotalRows != 4 ||
		!run.h.TailSent() || run.h.Size() != int64(len(ownersCSV)) {
		t.Fatalf("held %+v, from disk %+v, size %d", o.created, fromDisk, run.h.Size())
	}
}

// sandboxUntouched checks that the sandbox holds no trace and charged
// nothing.
func sandboxUntouched(t *testing.T, c *Client) {
	t.Helper()
	ctx := context.Background()
	l, err := c.Traces.List(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.Account(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Traces) != 0 || a.Credits != 25000 {
		t.Fatalf("%d traces, %d credits left: an aborted upload created a job", len(l.Traces), a.Credits)
	}
}

// An upload stopped while its tail is held, whatever stops it (a check
// that failed, the context cancelled, the process gone: its connection
// closed), creates nothing and charges nothing, and the error says the
// outcome is known: not sent (never "may be charged").
func TestHeldUploadAbortedCreatesNothing(t *testing.T) {
	t.Parallel()
	head, last := ownersBody(20_000)
	stops := map[string]func(run *heldRun, cancel context.CancelFunc, conns *connKiller){
		"check failed":      func(run *heldRun, _ context.CancelFunc, _ *connKiller) { run.h.Abort(errors.New("duplicate")) },
		"context cancelled": func(_ *heldRun, cancel context.CancelFunc, _ *connKiller) { cancel() },
		"process gone": func(run *heldRun, _ context.CancelFunc, conns *connKiller) {
			conns.kill()
			// What stays of the process ends its side of the request.
			run.h.Abort(errors.New("stopped"))
		},
	}
	for name, stop := range stops {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv, _ := startSandbox(t, sandboxConfig())
			conns := &connKiller{}
			c, err := New(srv.URL(), "sk_sandbox_demo", WithRetryPolicy(fastRetry()), WithHTTPClient(conns.client()))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			run := startHeld(ctx, c, int64(len(head)+len(last)))
			io.WriteString(run.h, head)
			io.WriteString(run.h, last)
			run.h.Close()
			run.waitSent(t, int64(len(head)+len(last)-heldTail)) // all but the held tail has gone
			stop(run, cancel, conns)
			o := <-run.out
			if !errors.Is(o.err, ErrUploadIncomplete) || errors.Is(o.err, ErrOutcomeUnknown) || ChargedOutcome(o.err) != NotSent || run.h.TailSent() {
				t.Fatalf("err %v (outcome %v), tail sent %v", o.err, ChargedOutcome(o.err), run.h.TailSent())
			}
			sandboxUntouched(t, c)
		})
	}
}

// connKiller is an HTTP client whose connections the test can close, as
// a process that dies closes them.
type connKiller struct {
	mu    sync.Mutex
	conns []net.Conn
}

func (k *connKiller) client() *http.Client {
	d := &net.Dialer{}
	return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := d.DialContext(ctx, network, addr)
		if err == nil {
			k.mu.Lock()
			k.conns = append(k.conns, conn)
			k.mu.Unlock()
		}
		return conn, err
	}}}
}

func (k *connKiller) kill() {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, c := range k.conns {
		c.Close()
	}
}

// completeBodies counts the uploads a server read to their closing
// boundary: only those can create a job.
type completeBodies struct{ n atomic.Int32 }

func (cb *completeBodies) read(r *http.Request) bool {
	mr, err := r.MultipartReader()
	if err != nil {
		return false
	}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			cb.n.Add(1)
			return true
		}
		if err != nil {
			return false
		}
		if _, err := io.Copy(io.Discard, readSlowly{p}); err != nil {
			return false
		}
	}
}

// Against hostile servers (one that reads slowly, one that answers
// before the body ends, one that drops the connection mid-body), an
// upload aborted while its tail is held never reaches a server whole, and
// the caller is told that nothing was created: cut before its end, or
// refused.
func TestHeldUploadAbortedHostile(t *testing.T) {
	t.Parallel()
	head, last := ownersBody(20_000)
	servers := map[string]func(cb *completeBodies) http.HandlerFunc{
		"reads slowly": func(cb *completeBodies) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				if cb.read(r) {
					reply(201, nil, `{"id":"trc_1","status":"processing"}`)(w, r)
				}
			}
		},
		"answers before the body ends": func(cb *completeBodies) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				io.CopyN(io.Discard, r.Body, 4096)
				w.Header().Set("Connection", "close")
				reply(400, nil, `{"error":{"code":"VALIDATION_ERROR","message":"bad"}}`)(w, r)
			}
		},
		"drops the connection mid-body": func(cb *completeBodies) http.HandlerFunc {
			return func(w http.ResponseWriter, r *http.Request) {
				io.CopyN(io.Discard, r.Body, 64<<10)
				if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
					conn.Close()
				}
			}
		},
	}
	for name, handler := range servers {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var cb completeBodies
			reached := make(chan struct{})
			s := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
				close(reached)
				handler(&cb)(w, r)
			})
			run := startHeld(context.Background(), s.client(t), int64(len(head)+len(last)))
			io.WriteString(run.h, head[:len(head)/2])
			<-reached
			io.WriteString(run.h, head[len(head)/2:])
			io.WriteString(run.h, last)
			run.h.Close()
			run.h.Abort(errors.New("a check failed"))
			o := <-run.out
			if out := ChargedOutcome(o.err); !(out == NotSent && errors.Is(o.err, ErrUploadIncomplete)) && out != Refused {
				t.Fatalf("err %v (outcome %v)", o.err, out)
			}
			if cb.n.Load() != 0 || s.hits.Load() != 1 || run.h.TailSent() {
				t.Fatalf("%d complete bodies in %d requests, tail sent %v", cb.n.Load(), s.hits.Load(), run.h.TailSent())
			}
		})
	}
}

// readSlowly reads r 512 bytes at a time.
type readSlowly struct{ r io.Reader }

func (s readSlowly) Read(p []byte) (int, error) { return s.r.Read(p[:min(len(p), 512)]) }

// A held upload is never sent twice: a request that took bytes of it
// cannot be retried, and the writer is not left waiting once the call is
// over.
func TestHeldUploadSentOnce(t *testing.T) {
	t.Parallel()
	s := newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		io.CopyN(io.Discard, r.Body, 1024)
		reply(503, nil, `{"error":"busy"}`)(w, r)
	})
	head, last := ownersBody(50_000)
	run := startHeld(context.Background(), s.client(t), 0)
	io.WriteString(run.h, head)
	io.WriteString(run.h, last) // the call is over by now or soon: writes never block for good
	run.h.Close()
	run.h.Release()
	o := <-run.out
	if o.err == nil || s.hits.Load() != 1 {
		t.Fatalf("err %v after %d requests", o.err, s.hits.Load())
	}
}
