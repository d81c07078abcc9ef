package client

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skipdesk/skipdesk/internal/backoff"
)

// RetryPolicy bounds automatic retries. Zero fields take the defaults of
// DefaultRetryPolicy.
type RetryPolicy struct {
	MaxRetries    int           // retries after the first attempt
	BaseDelay     time.Duration // first backoff; doubles each retry
	MaxDelay      time.Duration // cap of one backoff
	MaxRetryAfter time.Duration // cap applied to a server's Retry-After
	// Budget bounds the time one call spends on failures: the waits before
	// retries plus the failed attempts themselves (for a download only the
	// attempts that got no answer: a cut download keeps its bytes). A
	// server that accepts connections and never answers thus costs one
	// budget, not one response timeout per retry.
	Budget time.Duration
}

// DefaultRetryPolicy: 5 retries, 500 ms doubling up to 30 s, Retry-After
// capped at 60 s, at most 2 minutes spent on failures per call.
func DefaultRetryPolicy() RetryPolicy {
	return RetryPolicy{MaxRetries: 5, BaseDelay: 500 * time.Millisecond, MaxDelay: 30 * time.Second,
		MaxRetryAfter: 60 * time.Second, Budget: 2 * time.Minute}
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	d := DefaultRetryPolicy()
	if p.MaxRetries == 0 {
		p.MaxRetries = d.MaxRetries
	}
	if p.MaxRetries < 0 {
		p.MaxRetries = 0
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = d.BaseDelay
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = d.MaxDelay
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = d.MaxRetryAfter
	}
	if p.Budget <= 0 {
		p.Budget = d.Budget
	}
	return p
}

// backoff returns the jittered delay before retry number n (0-based): a
// random value in [d/2, d] with d = BaseDelay·2^n capped at MaxDelay.
func (p RetryPolicy) backoff(n int) time.Duration {
	return backoff.Delay(p.BaseDelay, p.MaxDelay, n)
}

// retrier keeps the state of one call's retries.
type retrier struct {
	p       RetryPolicy
	retries int
	waited  time.Duration
}

// next returns the delay before the next retry: the server's Retry-After
// (capped at MaxRetryAfter) when it gave one, else the jittered backoff. It
// returns false when the retry count or the time budget is spent.
func (r *retrier) next(retryAfter time.Duration) (time.Duration, bool) {
	if r.retries >= r.p.MaxRetries {
		return 0, false
	}
	d := r.p.backoff(r.retries)
	if retryAfter > 0 {
		d = min(retryAfter, r.p.MaxRetryAfter)
	}
	if r.waited+d > r.p.Budget {
		return 0, false
	}
	return d, true
}

// wait sleeps before the next retry. It returns false when no retry is
// left (or the caller's deadline would pass first), and the context's
// error when the context ends while waiting.
func (r *retrier) wait(ctx context.Context, retryAfter time.Duration) (bool, error) {
	d, ok := r.next(retryAfter)
	if !ok {
		return false, nil
	}
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < d {
		return false, nil // waiting would outlive the caller: report the error now
	}
	if err := backoff.Sleep(ctx, d); err != nil {
		return false, err
	}
	r.retries++
	r.waited += d
	return true, nil
}

// shouldRetry decides, in one place, whether a failed attempt may be sent
// again. status is 0 for a transport error. sent reports whether any byte of
// the request may have reached the server.
//
// Reads retry on 429, on 5xx other than 501/505, and on network errors.
// Charged POSTs retry only on a transport error that happened before any
// byte was written; never once the server has seen the request, not even
// after a 429: the answer says nothing was charged, but a server that
// answers outside the spec could have created the job all the same, and
// the caller (which gets the 429 with its Retry-After) decides.
func shouldRetry(charged bool, status int, sent bool) bool {
	switch {
	case status == http.StatusTooManyRequests:
		return !charged
	case status == 0:
		return !charged || !sent
	case charged:
		return false
	case status >= 500 && status != http.StatusNotImplemented && status != http.StatusHTTPVersionNotSupported:
		return true
	}
	return false
}

// parseRetryAfter reads Retry-After as delay-seconds or an HTTP-date.
// Negative, unparsable or past values give 0 (use the backoff). Very large
// values are clamped to a day so that arithmetic cannot overflow.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	const maxRA = 24 * time.Hour
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n <= 0 {
			return 0
		}
		if n > int64(maxRA/time.Second) {
			return maxRA
		}
		return time.Duration(n) * time.Second
	} else if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange && !strings.HasPrefix(v, "-") {
		return maxRA
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d <= 0 {
			return 0
		}
		return min(d, maxRA)
	}
	return 0
}

// do runs r with the retry policy and hands a 2xx response to handle, which
// reads the body. A handle error wrapping *bodyReadError counts as a
// transport failure of the attempt.
func (c *Client) do(ctx context.Context, r *request, handle func(*http.Response) error) error {
	rt := retrier{p: c.retry}
	for {
		if c.pacing {
			if err := c.limits.wait(ctx, r.bucket()); err != nil {
				return fmt.Errorf("client: %s: %w", r.op(), err)
			}
		}
		if c.budget != nil {
			if err := c.budget.Take(ctx, r.bucket()); err != nil {
				return fmt.Errorf("client: %s: %w", r.op(), err)
			}
		}
		start := time.Now()
		retry, retryAfter, answered, err := c.attempt(ctx, r, handle)
		if !retry {
			return err
		}
		if !answered || !r.stream {
			rt.waited += time.Since(start)
		}
		if ok, werr := rt.wait(ctx, retryAfter); werr != nil {
			return fmt.Errorf("client: %s: %w (while waiting to retry after: %v)", r.op(), werr, err)
		} else if !ok {
			return err
		}
	}
}

// attempt sends r once. It returns the call's error, whether the policy
// allows another attempt (with the server's Retry-After, if any), and
// whether an answer (a status line and headers) arrived.
func (c *Client) attempt(ctx context.Context, r *request, handle func(*http.Response) error) (retry bool, retryAfter time.Duration, answered bool, err error) {
	// The attempt has its own context so that a stalled transfer can be
	// cut without ending the call.
	actx, cancel := context.WithCancel(ctx)
	defer cancel()
	wd := &watchdog{cancel: cancel}
	defer wd.stop()
	req, err := c.newHTTPRequest(actx, r)
	if err != nil {
		return false, 0, false, err
	}
	if c.traceable {
		// The watch ends at WroteRequest, which only an *http.Transport
		// reports.
		wd.sending(req, c.idle)
	}
	if r.held != nil {
		// The transport waits for a body's read to end: a held tail's
		// wait ends with the attempt.
		stop := context.AfterFunc(actx, func() { r.held.interrupt(context.Cause(actx)) })
		defer stop()
	}
	var st sendState
	trace := st.trace()
	trace.WroteRequest = func(httptrace.WroteRequestInfo) {
		wd.disarmSend()
		if !r.charged && c.idle > 0 {
			// A read is answered at once by a working server: waiting
			// longer than the idle timeout for the status line is a stall
			// too. (A charged POST waits for the transport's longer header
			// timeout: the server may be checking a 50 MB file, and it is
			// not resent.)
			wd.awaitAnswer(c.idle)
		}
	}
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), trace))
	resp, err := c.hc.Do(req)
	if err != nil {
		if why := wd.reason(); why != nil && ctx.Err() == nil {
			err = why
		}
		retry, err = c.unanswered(ctx, r, err, !c.traceable || st.maybeSent())
		return retry, 0, false, err
	}
	ok := resp.StatusCode >= 200 && resp.StatusCode < 300
	limit := c.bodyLimit
	if ok && r.stream {
		limit = 0
	}
	wd.receiving(resp, c.idle, limit)
	c.limits.record(r.bucket(), resp.Header, time.Now())
	c.clock.record(resp.Header, time.Now())
	if ok {
		retry, err = c.accepted(ctx, r, resp, handle)
		return retry, 0, true, err
	}
	apiErr := c.readAPIError(r, resp)
	if r.charged && !refusal(resp.StatusCode) {
		// Only the refusals the spec defines say that nothing was created.
		// Any other answer to a charged request (a redirect, 408, 409, any
		// other 4xx, a 5xx) may come after the job was created and
		// charged: its outcome is unknown. Never resend.
		apiErr.outcomeUnknown = true
		return false, 0, true, apiErr
	}
	return shouldRetry(r.charged, resp.StatusCode, true), apiErr.RetryAfter, true, apiErr
}

// unanswered is what an attempt that got no answer comes to: err, and
// whether to try again. A charged request that may have been sent has an
// unknown outcome and is never resent.
func (c *Client) unanswered(ctx context.Context, r *request, err error, sent bool) (retry bool, _ error) {
	var re *redirectError
	switch {
	case r.held != nil && !r.held.TailSent():
		// The server never had the whole body: nothing was created.
		if !errors.Is(err, ErrUploadIncomplete) {
			err = fmt.Errorf("%w: %w", ErrUploadIncomplete, err)
		}
		return false, c.transportError(r, err)
	case r.charged && sent:
		return false, c.unknownOutcome(r, err)
	case ctx.Err() != nil:
		return false, fmt.Errorf("client: %s: %w", r.op(), ctx.Err())
	case errors.As(err, &re):
		return false, c.transportError(r, err)
	}
	return shouldRetry(r.charged, 0, sent), c.transportError(r, err)
}

// accepted hands a 2xx answer to handle: nil when it was read, and whether
// to try again when its body broke off (never for a charged request).
func (c *Client) accepted(ctx context.Context, r *request, resp *http.Response, handle func(*http.Response) error) (retry bool, _ error) {
	herr := handle(resp)
	resp.Body.Close()
	if herr == nil {
		return false, nil
	}
	if r.charged {
		// Accepted (and charged), but the answer cannot be read: the
		// job exists and its id is unknown.
		return false, c.unknownOutcome(r, herr)
	}
	var bre *bodyReadError
	if !errors.As(herr, &bre) {
		return false, herr
	}
	if ctx.Err() != nil {
		return false, fmt.Errorf("client: %s: %w", r.op(), ctx.Err())
	}
	return true, c.transportError(r, bre.err)
}

// watchdog ends an attempt whose transfer stops moving: an upload the
// server no longer takes, a read the server leaves unanswered, a response
// body that stops arriving, or a JSON or error body still incomplete after
// the body timeout. The transport and the
// body's reads then fail with the reason instead of blocking until the
// caller's context ends (a dead Wi-Fi link can leave a connection open for
// minutes, and a server can trickle a byte a minute forever).
type watchdog struct {
	cancel context.CancelFunc
	why    atomic.Pointer[error]

	mu     sync.Mutex
	send   *time.Timer // running while the transport waits to send more
	head   *time.Timer // running while a read waits for the status line
	recv   *time.Timer // idle watch of the response body
	whole  *time.Timer // body timeout
	done   bool
	idle   time.Duration
	sendOK bool // the response came: the send watch no longer applies
}

// fire records the first reason and cuts the attempt.
func (w *watchdog) fire(err error) {
	w.why.CompareAndSwap(nil, &err)
	w.cancel()
}

// reason is why the watchdog cut the attempt (nil when it did not).
func (w *watchdog) reason() error {
	if p := w.why.Load(); p != nil {
		return *p
	}
	return nil
}

func (w *watchdog) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.done = true
	for _, t := range []*time.Timer{w.send, w.head, w.recv, w.whole} {
		if t != nil {
			t.Stop()
		}
	}
}

// sending watches req's body: between two reads by the transport (which
// reads as the connection takes bytes) at most idle may pass.
func (w *watchdog) sending(req *http.Request, idle time.Duration) {
	if idle <= 0 || req.Body == nil || req.Body == http.NoBody {
		return
	}
	w.idle = idle
	req.Body = &sendBody{ReadCloser: req.Body, w: w}
	if gb := req.GetBody; gb != nil {
		req.GetBody = func() (io.ReadCloser, error) {
			rc, err := gb()
			if err != nil {
				return nil, err
			}
			return &sendBody{ReadCloser: rc, w: w}, nil
		}
	}
}

// armSend (re)starts the send watch; disarmSend stops it.
func (w *watchdog) armSend() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done || w.sendOK {
		return
	}
	if w.send == nil {
		d := w.idle
		w.send = time.AfterFunc(d, func() {
			w.fire(fmt.Errorf("the upload stalled: the server took no data for %v: %w", d, errStalled))
		})
		return
	}
	w.send.Reset(w.idle)
}

func (w *watchdog) disarmSend() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.send != nil {
		w.send.Stop()
	}
}

type sendBody struct {
	io.ReadCloser
	w *watchdog
}

// Read restarts the send watch after every read, the last one (EOF)
// included: the transport writes the bytes next, and after the end of the
// body it still flushes its buffer, which blocks as surely on a server that
// takes nothing. Only the request written in full (WroteRequest), or an
// answer, stops the watch; Close does not, as the transport closes the
// body before that last flush.
func (b *sendBody) Read(p []byte) (int, error) {
	b.w.disarmSend() // reading the file is not the server's delay
	n, err := b.ReadCloser.Read(p)
	b.w.armSend()
	return n, err
}

// awaitAnswer starts the wait for the status line once the request is
// written (again, if the transport rewrote it on another connection).
func (w *watchdog) awaitAnswer(d time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done || w.sendOK {
		return
	}
	if w.head != nil {
		w.head.Stop()
	}
	w.head = time.AfterFunc(d, func() {
		w.fire(fmt.Errorf("no answer came within %v of sending the request: %w", d, errStalled))
	})
}

// receiving watches resp's body: idle between bytes, limit for the whole
// body (0: none).
func (w *watchdog) receiving(resp *http.Response, idle, limit time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sendOK = true
	for _, t := range []*time.Timer{w.send, w.head} {
		if t != nil {
			t.Stop()
		}
	}
	if w.done || (idle <= 0 && limit <= 0) {
		return
	}
	if idle > 0 {
		w.recv = time.AfterFunc(idle, func() {
			w.fire(fmt.Errorf("no data received for %v: %w", idle, errStalled))
		})
	}
	if limit > 0 {
		w.whole = time.AfterFunc(limit, func() {
			w.fire(fmt.Errorf("the answer did not arrive in full within %v: %w", limit, errSlowBody))
		})
	}
	resp.Body = &watchedBody{ReadCloser: resp.Body, w: w, idle: idle}
}

type watchedBody struct {
	io.ReadCloser
	w    *watchdog
	idle time.Duration
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if n > 0 && b.idle > 0 {
		b.w.mu.Lock()
		if b.w.recv != nil && !b.w.done {
			b.w.recv.Reset(b.idle)
		}
		b.w.mu.Unlock()
	}
	if err != nil && err != io.EOF {
		if why := b.w.reason(); why != nil {
			err = why
		}
	}
	return n, err
}

var (
	// errStalled: a transfer stopped moving (WithIdleTimeout).
	errStalled = errors.New("the connection stalled")
	// errSlowBody: an answer took longer than the body timeout.
	errSlowBody = errors.New("the answer is too slow")
)

func (c *Client) transportError(r *request, err error) error {
	return &TransportError{Op: r.op(), Err: err, red: c.red}
}

func (c *Client) unknownOutcome(r *request, err error) error {
	return &TransportError{Op: r.op(), Err: err, OutcomeUnknown: true, red: c.red}
}

// TransportError is a failure to get an answer from the server: DNS, dial,
// TLS, a reset or timeout, a body cut short. When OutcomeUnknown is true the
// request was a charged POST whose bytes may have reached the server (or
// whose success answer could not be read); the error then matches
// ErrOutcomeUnknown.
type TransportError struct {
	Op             string
	Err            error
	OutcomeUnknown bool
	red            *redactor
}

func (e *TransportError) Error() string {
	msg := e.red.redact(CleanText(e.Err.Error()))
	if e.OutcomeUnknown {
		return fmt.Sprintf("%s: it is unknown whether the server accepted (and charged) the request: %s", e.Op, msg)
	}
	return fmt.Sprintf("%s: %s", e.Op, msg)
}

func (e *TransportError) Unwrap() error { return e.Err }

func (e *TransportError) Is(target error) bool {
	return target == ErrOutcomeUnknown && e.OutcomeUnknown
}

// sendState follows one attempt through httptrace to learn whether any byte
// of the request may have been written to the network.
type sendState struct {
	gotConn atomic.Bool
	cc      atomic.Pointer[countingConn]
	base    atomic.Int64 // cc's written count when the connection was handed over
	h2      atomic.Bool
}

func (s *sendState) trace() *httptrace.ClientTrace {
	return &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) {
			conn := info.Conn
			if tc, ok := conn.(*tls.Conn); ok {
				if tc.ConnectionState().NegotiatedProtocol == "h2" {
					s.h2.Store(true)
				}
				conn = tc.NetConn()
			}
			if cc, ok := conn.(*countingConn); ok {
				s.base.Store(cc.written.Load())
				s.cc.Store(cc)
			}
			s.gotConn.Store(true)
		},
	}
}

// maybeSent is false only when it is certain that nothing was written for
// this request: no connection was obtained (DNS, dial, TLS, proxy failure),
// or the HTTP/1 connection we counted saw no byte written since it was
// handed to this request.
func (s *sendState) maybeSent() bool {
	if !s.gotConn.Load() {
		return false
	}
	cc := s.cc.Load()
	if cc == nil || s.h2.Load() {
		return true
	}
	return cc.written.Load() != s.base.Load()
}

// countingConn counts bytes accepted by the kernel on a connection.
type countingConn struct {
	net.Conn
	written atomic.Int64
}

func (c *countingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.written.Add(int64(n))
	return n, err
}

// newTransport is http.DefaultTransport's settings with larger buffers (for
// 50 MB uploads) and connections that count written bytes.
func newTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	t.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countingConn{Conn: conn}, nil
	}
	t.WriteBufferSize = 64 << 10
	t.ReadBufferSize = 64 << 10
	t.ResponseHeaderTimeout = 2 * time.Minute
	// HTTP/2 multiplexes requests on one connection, which defeats the
	// per-request byte count; the API is plain request/response.
	t.ForceAttemptHTTP2 = false
	t.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
	return t
}
