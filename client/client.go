// Package client is the only code in SkipDesk that speaks HTTP to the
// skip-tracing / DNC provider (spec/api.md).
//
// Every call takes a context first; every wait (backoff, Retry-After,
// rate-limit pacing) ends when the context does.
//
// Retries are decided in one place (shouldRetry in retry.go):
//
//   - Reads (GET, downloads included) and the retry-webhook POSTs are
//     retried on 429 (Retry-After in seconds or as an HTTP-date, capped;
//     a negative or unreadable value falls back to the backoff), on 5xx
//     other than 501/505, and on network errors, with jittered exponential
//     backoff within a retry count and a time budget (which the failed
//     attempts themselves use up too).
//   - The charged POSTs (POST /traces, POST /dnc, POST /traces/single) carry
//     no idempotency key, so they are resent only when the request provably
//     never left the machine: DNS, dial or TLS failures, or a connection on
//     which not one byte of this request was written (the default transport
//     counts bytes per connection). Nothing else: a 429 to a charged POST
//     comes back as an *APIError matching ErrRateLimited (nothing was
//     charged; RetryAfter says when to try again).
//   - Any other failure of a charged POST returns an error matching
//     ErrOutcomeUnknown: a reset, timeout or cancellation after bytes left,
//     a 2xx whose body was cut, unreadable or names no job, and every
//     answer other than the refusals the spec defines (400, 401, 402, 403,
//     404, 413, 422, 429): a redirect, 408, 409, any other 4xx, a 5xx. Such
//     an answer says the server did something with the request, not that
//     it created nothing (a gateway's 502 or a proxy's 302 may hide a job
//     that was created and charged), so the caller reconciles against GET
//     /traces or GET /dnc instead of paying twice. ChargedOutcome sorts an
//     error into Created, Refused, NotSent and Unknown.
//
// A redirect is followed only for a GET (at most 5, never from https to
// http, never to plain http off loopback), and the API key goes only to the
// base URL's origin (scheme, host and port): a redirect elsewhere is
// followed without it. A 3xx answering a POST comes back as an *APIError.
// An upload the server stops taking, a read left unanswered, or a response
// body that stops arriving, for the idle timeout ends the attempt like a
// reset would; so does a JSON or error body still incomplete after the body
// timeout. A result download is capped in size (WithMaxDownloadBytes) and
// in time (WithDownloadTimeout), and must read as a CSV file (ErrNotResult).
//
// Errors are *APIError (any non-2xx answer, decoded from whichever body
// shape arrived) or *TransportError (no answer). Every string decoded from
// the server passes through CleanText (no terminal escapes, control or
// bidirectional characters), and neither errors nor decoded answers ever
// hold the API key in any case, spacing or encoding, nor any 8-byte part of
// it (redact.go).
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// MaxUploadBytes is the largest file the service accepts on POST /traces and
// POST /dnc.
const MaxUploadBytes = 50 << 20

// DefaultIdleTimeout is how long a request body being sent or a response
// body being read may stall (WithIdleTimeout).
const DefaultIdleTimeout = 60 * time.Second

// DefaultBodyTimeout is how long a JSON answer (or an error body) may take
// to arrive in full once its headers came (WithBodyTimeout).
const DefaultBodyTimeout = 2 * time.Minute

// DefaultMaxDownloadBytes caps a downloaded result file (WithMaxDownloadBytes):
// a result is its upload (at most 50 MB) plus the appended columns, so 1 GiB
// is far above any real one and stops a body that never ends from filling
// the disk.
const DefaultMaxDownloadBytes = 1 << 30

// DefaultDownloadTimeout is how long one result download may take in all,
// retries and resumptions included (WithDownloadTimeout): a result of a few
// hundred megabytes arrives well within it on a slow line, and a server
// trickling a byte every few seconds cannot hold a caller for days.
const DefaultDownloadTimeout = 30 * time.Minute

// maxSuccessBody caps JSON bodies of successful responses (a page of 100
// traces is a few tens of KiB).
const maxSuccessBody = 16 << 20

// Client talks to one base address with one API key. It is safe for
// concurrent use.
type Client struct {
	base      *url.URL // ends in "/"
	key       string
	red       *redactor // removes the key from text shown or stored
	hc        *http.Client
	userAgent string
	retry     RetryPolicy
	pacing    bool
	limits    *limiter
	budget    Budget // shared with other programs using the key; nil: none
	clock     serverClock
	traceable bool          // the transport reports connections through httptrace
	idle      time.Duration // longest wait for the next byte sent or received
	bodyLimit time.Duration // longest time to read a JSON or error body
	maxDown   int64         // largest result file a download stores
	downLimit time.Duration // longest time one result download may take

	// Traces is POST/GET /traces and its sub-resources.
	Traces *TracesService
	// DNC is POST/GET /dnc and its sub-resources.
	DNC *DNCService
}

// Option configures a Client.
type Option func(*Client)

// WithHTTPClient replaces the HTTP client. The default one counts the bytes
// written on each connection, which lets a charged POST that failed before
// any byte left be retried. With another *http.Transport only failures
// before a connection was obtained count as "never sent"; with any other
// RoundTripper nothing can be known, so every failure of a charged POST is
// reported as ErrOutcomeUnknown. The client's redirect policy is kept, after
// the client's own rules (no redirect of a POST, none to plain http).
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		if hc != nil {
			c.hc = hc
		}
	}
}

// WithIdleTimeout sets how long a response body may go without a single byte
// arriving, an upload without the server taking a single byte, or a read
// (not a charged POST) without an answer once sent, before the attempt is
// abandoned (a GET is then retried; a charged POST reports an
// unknown outcome). The default is 60 s; 0 or less turns the watch off.
func WithIdleTimeout(d time.Duration) Option { return func(c *Client) { c.idle = d } }

// WithBodyTimeout sets how long the body of a JSON answer, or of an error,
// may take to arrive in full after its headers: a server trickling a byte
// now and then escapes the idle timeout but not this one. Result downloads
// are not limited (they may be large; the idle timeout and the size cap
// apply). The default is 2 minutes; 0 or less turns it off.
func WithBodyTimeout(d time.Duration) Option { return func(c *Client) { c.bodyLimit = d } }

// WithMaxDownloadBytes caps the size of a downloaded result file (default
// DefaultMaxDownloadBytes). A larger one, announced or sent, fails without
// a retry and leaves nothing behind; 0 or less restores the default.
func WithMaxDownloadBytes(n int64) Option {
	return func(c *Client) {
		if n <= 0 {
			n = DefaultMaxDownloadBytes
		}
		c.maxDown = n
	}
}

// WithDownloadTimeout sets how long one result download may take in all
// (default DefaultDownloadTimeout): past it the download ends with a
// *DownloadTimeoutError and nothing is kept; the caller may ask again
// later. 0 or less turns the deadline off.
func WithDownloadTimeout(d time.Duration) Option { return func(c *Client) { c.downLimit = d } }

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option { return func(c *Client) { c.userAgent = ua } }

// WithRetryPolicy replaces the retry policy (zero fields take the defaults).
func WithRetryPolicy(p RetryPolicy) Option { return func(c *Client) { c.retry = p.withDefaults() } }

// Budget is a budget of requests shared with other programs that use the
// same API key (a team's computers): Take waits until one request of the
// rate-limit class bucket ("read" or "write", the spec's two limits) may
// go, or ctx ends.
type Budget interface {
	Take(ctx context.Context, bucket string) error
}

// WithBudget makes every request, each attempt of it, wait for the shared
// budget first: the key's per-minute limits hold for all its users
// together. A charged POST waits before any byte leaves, so it is never
// resent because of it.
func WithBudget(b Budget) Option { return func(c *Client) { c.budget = b } }

// WithPacing turns client-side pacing from the X-RateLimit-* headers on or
// off (on by default).
func WithPacing(on bool) Option { return func(c *Client) { c.pacing = on } }

// New returns a client for baseURL (ending in /v1; a trailing slash is
// tolerated). The address must be https, except for loopback hosts
// (127.0.0.0/8, ::1, localhost) where http is allowed for the sandbox.
func New(baseURL, apiKey string, opts ...Option) (*Client, error) {
	u, err := parseBase(baseURL)
	if err != nil {
		return nil, err
	}
	if apiKey == "" {
		return nil, errors.New("client: the API key is empty")
	}
	for _, r := range apiKey {
		if r <= ' ' || r == 0x7f {
			return nil, errors.New("client: the API key contains spaces or control characters")
		}
	}
	c := &Client{
		base:      u,
		key:       apiKey,
		red:       newRedactor(apiKey),
		hc:        &http.Client{Transport: newTransport()},
		userAgent: "skipdesk-client/1",
		retry:     DefaultRetryPolicy(),
		pacing:    true,
		limits:    newLimiter(),
		idle:      DefaultIdleTimeout,
		bodyLimit: DefaultBodyTimeout,
		maxDown:   DefaultMaxDownloadBytes,
		downLimit: DefaultDownloadTimeout,
	}
	for _, o := range opts {
		o(c)
	}
	c.hc = guardRedirects(c.hc, c.base)
	switch c.hc.Transport.(type) {
	case nil, *http.Transport:
		c.traceable = true
	}
	c.Traces = &TracesService{c: c}
	c.DNC = &DNCService{c: c}
	return c, nil
}

func parseBase(raw string) (*url.URL, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return nil, errors.New("client: the base URL is empty")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("client: base URL %q: %v", raw, err)
	}
	if u.Host == "" {
		return nil, fmt.Errorf("client: base URL %q has no host", raw)
	}
	if u.User != nil {
		return nil, fmt.Errorf("client: base URL must not carry credentials")
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !isLoopback(u.Hostname()) {
			return nil, fmt.Errorf("client: base URL %q must use https (plain http is allowed only for loopback addresses)", u.Redacted())
		}
	default:
		return nil, fmt.Errorf("client: base URL %q must use https", u.Redacted())
	}
	u.RawQuery, u.Fragment = "", ""
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	u.RawPath = ""
	return u, nil
}

// checkRedirect follows at most 5 redirects of a GET, never from https to
// plain http, and never to plain http off loopback. A redirect answering
// any other method is not followed: the 3xx comes back as an *APIError (and,
// for a charged POST, as an unknown outcome). Go would resend a POST's body
// on 307/308 (charging twice) and turn it into a GET on 301/302/303 (whose
// answer is not the job).
func checkRedirect(req *http.Request, via []*http.Request) error {
	if m := via[0].Method; m != http.MethodGet && m != http.MethodHead {
		return http.ErrUseLastResponse
	}
	if len(via) >= 5 {
		return &redirectError{"stopped after 5 redirects"}
	}
	if prev := via[len(via)-1].URL; strings.EqualFold(prev.Scheme, "https") && !strings.EqualFold(req.URL.Scheme, "https") {
		return &redirectError{fmt.Sprintf("refusing a redirect from https to %s", req.URL.Redacted())}
	}
	if req.URL.Scheme != "https" && !isLoopback(req.URL.Hostname()) {
		return &redirectError{fmt.Sprintf("refusing a redirect to %s: not https", req.URL.Redacted())}
	}
	return nil
}

// redirectError is a redirect refused by checkRedirect. Asking again would
// be refused again, so it is not retried.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

// guardRedirects returns a copy of hc whose redirect policy applies
// checkRedirect first, then hc's own policy (when it has one), and last
// removes the API key from a redirected request that leaves base's origin.
// (Go's own rule keeps the key for another port of the same host, for a
// subdomain, and for plain http on the same host.)
func guardRedirects(hc *http.Client, base *url.URL) *http.Client {
	cp := *hc
	own := hc.CheckRedirect
	cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := checkRedirect(req, via); err != nil {
			return err
		}
		if own != nil {
			if err := own(req, via); err != nil {
				return err
			}
		}
		if !sameOrigin(req.URL, base) {
			req.Header.Del("Authorization")
		}
		return nil
	}
	return &cp
}

// sameOrigin reports whether u has base's scheme, host and port (the
// scheme's default port when none is written).
func sameOrigin(u, base *url.URL) bool {
	return strings.EqualFold(u.Scheme, base.Scheme) &&
		strings.EqualFold(strings.TrimSuffix(u.Hostname(), "."), strings.TrimSuffix(base.Hostname(), ".")) &&
		portOf(u) == portOf(base)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "http":
		return "80"
	case "https":
		return "443"
	}
	return ""
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// BaseURL returns the base address in use (with a trailing slash).
func (c *Client) BaseURL() string { return c.base.String() }

// CloseIdleConnections closes the connections kept for the next request
// (the session's end): a connection dialled for a request that another
// connection served first would otherwise stay open, unused, until the
// program ends.
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// RateLimit returns the last X-RateLimit-* values seen on any response.
func (c *Client) RateLimit() RateLimit { return c.limits.last() }

// Account is GET /account.
func (c *Client) Account(ctx context.Context) (*Account, error) {
	return decoded[Account](ctx, c, &request{method: http.MethodGet, path: "account"})
}

// Pricing is GET /pricing.
func (c *Client) Pricing(ctx context.Context) (*Pricing, error) {
	return decoded[Pricing](ctx, c, &request{method: http.MethodGet, path: "pricing"})
}

// request describes one API call; body is rebuilt for every attempt.
type request struct {
	method      string
	path        string // relative to the base, already escaped
	query       url.Values
	contentType string
	body        func() (io.ReadCloser, int64, error) // nil: no body
	charged     bool                                 // a POST that costs credits
	held        *HeldFile                            // its file, written while sent: complete only once its tail left
	stream      bool                                 // a download: its 2xx body has no time limit
	header      http.Header
	prepare     func(*http.Request) // per-attempt changes (Range on a resumed download)
}

func (r *request) op() string { return r.method + " /" + r.path }

// bucket names the rate-limit class of the request (spec, Limits).
func (r *request) bucket() string {
	if r.method != http.MethodGet || r.path == "account" || r.path == "pricing" {
		return bucketWrite
	}
	return bucketRead
}

func (c *Client) newHTTPRequest(ctx context.Context, r *request) (*http.Request, error) {
	u := *c.base
	ref, err := url.Parse(r.path)
	if err != nil {
		return nil, fmt.Errorf("client: %s: bad path: %v", r.op(), err)
	}
	full := u.ResolveReference(ref)
	if len(r.query) > 0 {
		full.RawQuery = r.query.Encode()
	}
	if !sameOrigin(full, c.base) {
		// The key goes to the base URL's origin only.
		return nil, fmt.Errorf("client: %s: the address leaves the base URL's origin", r.op())
	}
	var body io.ReadCloser
	var length int64
	if r.body != nil {
		body, length, err = r.body()
		if err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, r.method, full.String(), body)
	if err != nil {
		if body != nil {
			body.Close()
		}
		return nil, fmt.Errorf("client: %s: %v", r.op(), err)
	}
	if body != nil {
		req.ContentLength = length
		if length == 0 {
			body.Close()
			req.Body = http.NoBody
		}
	}
	for k, v := range r.header {
		req.Header[k] = v
	}
	req.Header.Set("Authorization", "Bearer "+c.key)
	req.Header.Set("User-Agent", c.userAgent)
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json")
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.body != nil && length > 0 {
		// Lets the transport resend a body it provably never wrote (a
		// kept-alive connection the server had closed); never otherwise.
		req.GetBody = func() (io.ReadCloser, error) {
			rc, _, err := r.body()
			return rc, err
		}
	}
	if r.prepare != nil {
		r.prepare(req)
	}
	return req, nil
}

// decoded runs r and decodes its JSON answer (doJSON) into a new T.
func decoded[T any](ctx context.Context, c *Client, r *request) (*T, error) {
	var v T
	if err := c.doJSON(ctx, r, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// doJSON runs r and decodes a successful JSON body into out. Reading the
// body is part of the attempt: a read failure on a GET is retried.
func (c *Client) doJSON(ctx context.Context, r *request, out any) error {
	return c.do(ctx, r, func(resp *http.Response) error {
		data, err := io.ReadAll(io.LimitReader(resp.Body, maxSuccessBody+1))
		if err != nil {
			return &bodyReadError{err: err}
		}
		if len(data) > maxSuccessBody {
			return fmt.Errorf("client: %s: response body larger than %d bytes", r.op(), maxSuccessBody)
		}
		if out == nil {
			return nil
		}
		if err := json.Unmarshal(bytes.TrimSpace(data), out); err != nil {
			return fmt.Errorf("client: %s: decoding the %d response: %v", r.op(), resp.StatusCode, c.text(err.Error()))
		}
		sanitize(out, c.text, c.red.redact)
		return nil
	})
}

// bodyReadError marks a transport failure while reading a success body.
type bodyReadError struct{ err error }

func (e *bodyReadError) Error() string { return "reading the response: " + e.err.Error() }
func (e *bodyReadError) Unwrap() error { return e.err }

// text makes text that came from the server or from a transport error fit
// to show or store: control characters removed (CleanText) and the API key
// redacted in any form.
func (c *Client) text(s string) string { return c.red.redact(CleanText(s)) }

func itoa(n int) string { return strconv.Itoa(n) }
