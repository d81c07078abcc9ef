package sandbox

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Server is one sandbox: accounts, jobs, result files and webhook deliveries,
// all in memory and in a temporary folder removed by Close.
type Server struct {
	cfg    Config
	logger *log.Logger
	dir    string // temporary folder: uploads and results

	ctx    context.Context // cancelled by Close: stops deliveries and finalisation
	cancel context.CancelFunc
	bg     sync.WaitGroup

	mu       sync.Mutex
	now      func() time.Time
	accounts map[string]*account // by API key
	jobs     map[string]*job     // by kind + ":" + id and kind + ":" + encoded id
	order    []*job              // every job, creation order
	seq      uint64
	windows  map[rateKey]*rateWindow
	reqSeq   uint64 // requests seen, for faults.error_rate
	drops    int    // create responses still to drop
	closed   bool

	deliveries []*Delivery
	// changed is closed at the next change of a delivery (DeliveriesChanged).
	changed chan struct{}

	panics atomic.Int64
	hook   func(*http.Request) // tests only: runs before routing

	ln   net.Listener
	http *http.Server
	url  string
}

// New builds a server without listening: mount Handler() in an
// httptest.Server or your own mux. Close still must be called.
func New(cfg Config) (*Server, error) {
	if err := cfg.validate(); err != nil {
		return nil, fmt.Errorf("sandbox config: %w", err)
	}
	cfg = cfg.normalized()
	dir, err := os.MkdirTemp("", "skipdesk-sandbox-*")
	if err != nil {
		return nil, fmt.Errorf("sandbox: temporary folder: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{
		cfg:      cfg,
		logger:   cfg.Logger,
		dir:      dir,
		ctx:      ctx,
		cancel:   cancel,
		now:      cfg.Now,
		accounts: map[string]*account{},
		jobs:     map[string]*job{},
		windows:  map[rateKey]*rateWindow{},
		drops:    cfg.Faults.DropCreateResponses,
	}
	for _, k := range cfg.Keys {
		if err := s.AddKey(k); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Start builds a server and serves it on addr (for example "127.0.0.1:0").
func Start(cfg Config, addr string) (*Server, error) {
	s, err := New(cfg)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("sandbox: listen on %s: %w", addr, err)
	}
	s.url = "http://" + ln.Addr().String() + "/v1"
	s.serve(ln)
	return s, nil
}

// serve answers the requests that arrive on ln.
func (s *Server) serve(ln net.Listener) {
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ErrorLog:          s.logger,
	}
	s.mu.Lock()
	s.ln, s.http = ln, hs
	s.mu.Unlock()
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.logger.Printf("sandbox: serve: %v", err)
		}
	}()
}

// Unplug makes a started server go away as a server or a network does:
// its address refuses connections and the open ones are cut. Accounts,
// jobs and results stay; Replug serves them again on the same address.
// Tests of what a client does while the server is away use it.
func (s *Server) Unplug() error {
	s.mu.Lock()
	hs := s.http
	s.http, s.ln = nil, nil
	s.mu.Unlock()
	if hs == nil {
		return nil
	}
	return hs.Close()
}

// Replug serves again, on the address it had, after Unplug.
func (s *Server) Replug() error {
	s.mu.Lock()
	up, closed := s.http != nil, s.closed
	s.mu.Unlock()
	switch {
	case closed:
		return errors.New("sandbox: closed")
	case up || s.url == "":
		return nil
	}
	u, err := url.Parse(s.url)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", u.Host)
	if err != nil {
		return fmt.Errorf("sandbox: listen on %s again: %w", u.Host, err)
	}
	s.serve(ln)
	return nil
}

// URL is the base URL ("http://127.0.0.1:PORT/v1"); empty for a server built
// with New.
func (s *Server) URL() string { return s.url }

// Close stops serving, cancels pending finalisations and webhook deliveries,
// and removes the temporary folder. It is safe to call twice.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	for _, j := range s.order {
		if j.timer != nil {
			j.timer.Stop()
		}
	}
	hs := s.http
	s.mu.Unlock()
	s.cancel()
	var err error
	if hs != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		if e := hs.Shutdown(ctx); e != nil {
			hs.Close()
		}
		cancel()
	}
	s.bg.Wait()
	if e := os.RemoveAll(s.dir); e != nil {
		err = e
	}
	return err
}

// Panics counts handler panics recovered as 500 responses (tests assert 0).
func (s *Server) Panics() int64 { return s.panics.Load() }

// SetClock replaces the clock used for timestamps and rate-limit windows.
// Processing delays and webhook retries use real timers.
func (s *Server) SetClock(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now == nil {
		now = time.Now
	}
	s.now = now
}

// SetProcessing changes how long jobs created from now on take.
func (s *Server) SetProcessing(p Processing) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.Processing = p
}

// SetFaults replaces the fault knobs (DropCreateResponses restarts its count).
func (s *Server) SetFaults(f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.Faults = f
	s.drops = f.DropCreateResponses
	s.reqSeq = 0
}

// SetRates changes the rates (GET /pricing and jobs created from now on).
func (s *Server) SetRates(r Rates) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.Rates = r
}

// Handler serves the API under /v1.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serveHTTP) }

func (s *Server) clock() time.Time {
	s.mu.Lock()
	now := s.now
	s.mu.Unlock()
	return now().UTC()
}

func newToken(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}

// accountID is a stable UUID-shaped id derived from the key.
func accountID(key string) string {
	h := sha256.Sum256([]byte("skipdesk-sandbox-account:" + key))
	h[6] = h[6]&0x0f | 0x40
	h[8] = h[8]&0x3f | 0x80
	x := hex.EncodeToString(h[:16])
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}

// route groups for rate limiting.
const (
	groupRead  = 0
	groupWrite = 1
)

type route struct {
	group   int
	handler func(w http.ResponseWriter, r *http.Request, a *account, id string)
	id      string
}

// match maps method and escaped path to a handler. ok is false for an
// unknown path; allow lists the methods of a known path when the method does
// not fit. Segments are split before unescaping, so an id holding an escaped
// slash ("a%2Fdownload") stays one segment and cannot reach another route.
func (s *Server) match(method, escapedPath string) (rt route, allow string, ok bool) {
	seg, ok := pathSegments(escapedPath)
	if !ok {
		return rt, "", false
	}
	one := func(m string, group int, h func(http.ResponseWriter, *http.Request, *account, string), id string) (route, string, bool) {
		return oneMethod(method, m, route{group: group, handler: h, id: id})
	}
	switch {
	case len(seg) == 1 && seg[0] == "account":
		return one("GET", groupWrite, s.handleAccount, "")
	case len(seg) == 1 && seg[0] == "pricing":
		return one("GET", groupWrite, s.handlePricing, "")
	case len(seg) == 1 && (seg[0] == "traces" || seg[0] == "dnc"):
		kind := kindOf(seg[0])
		switch method {
		case "GET":
			return route{group: groupRead, handler: s.listHandler(kind)}, "", true
		case "POST":
			return route{group: groupWrite, handler: s.createHandler(kind)}, "", true
		}
		return rt, "GET, POST", true
	case len(seg) == 2 && seg[0] == "traces" && seg[1] == "single" && method == "POST":
		return route{group: groupWrite, handler: s.handleSingle}, "", true
	case len(seg) >= 2 && (seg[0] == "traces" || seg[0] == "dnc"):
		return s.matchJob(method, seg)
	}
	return rt, "", false
}

// matchJob routes the paths of one job: /traces/{id}, /dnc/{id}, and their
// /download and /retry-webhook.
func (s *Server) matchJob(method string, seg []string) (rt route, allow string, ok bool) {
	kind, id := kindOf(seg[0]), seg[1]
	switch {
	case len(seg) == 2:
		return oneMethod(method, "GET", route{group: groupRead, handler: s.getHandler(kind), id: id})
	case len(seg) == 3 && seg[2] == "download":
		return oneMethod(method, "GET", route{group: groupRead, handler: s.downloadHandler(kind), id: id})
	case len(seg) == 3 && seg[2] == "retry-webhook":
		return oneMethod(method, "POST", route{group: groupWrite, handler: s.retryWebhookHandler(kind), id: id})
	}
	return rt, "", false
}

// pathSegments splits an escaped path under /v1/ into its unescaped
// segments; ok is false outside /v1/ or for an empty or badly escaped
// segment.
func pathSegments(escapedPath string) (seg []string, ok bool) {
	p, found := strings.CutPrefix(escapedPath, "/v1/")
	if !found {
		return nil, false
	}
	seg = strings.Split(p, "/")
	for i, x := range seg {
		u, err := url.PathUnescape(x)
		if err != nil || u == "" {
			return nil, false
		}
		seg[i] = u
	}
	return seg, true
}

// oneMethod is the route of a path that takes the one method m (and HEAD
// when m is GET), or the Allow value when method is another.
func oneMethod(method, m string, rt route) (route, string, bool) {
	if method != m && !(m == "GET" && method == "HEAD") {
		return route{}, m, true
	}
	return rt, "", true
}

func kindOf(seg string) string {
	if seg == "dnc" {
		return kindDNC
	}
	return kindTrace
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.panics.Add(1)
			s.logger.Printf("sandbox: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, v, debug.Stack())
			writePlain(w, http.StatusInternalServerError, "internal server error", "INTERNAL_ERROR")
		}
	}()
	if s.applyFaults(w, r) {
		return
	}
	a, ok := s.authenticate(w, r)
	if !ok {
		return
	}
	if s.hook != nil {
		s.hook(r)
	}
	rt, allow, found := s.match(r.Method, r.URL.EscapedPath())
	group := rt.group
	if !found || allow != "" {
		group = groupRead
	}
	if !s.rateLimit(w, a, group) {
		return
	}
	switch {
	case !found:
		writePlain(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path, "NOT_FOUND")
	case allow != "":
		w.Header().Set("Allow", allow)
		writePlain(w, http.StatusMethodNotAllowed, "method "+r.Method+" is not allowed here; use "+allow, "METHOD_NOT_ALLOWED")
	default:
		rt.handler(w, r, a, rt.id)
	}
}

// applyFaults answers the request itself when a fault fires.
func (s *Server) applyFaults(w http.ResponseWriter, r *http.Request) bool {
	s.mu.Lock()
	f := s.cfg.Faults
	s.reqSeq++
	n := s.reqSeq
	s.mu.Unlock()
	if f.SlowMS > 0 {
		t := time.NewTimer(time.Duration(f.SlowMS) * time.Millisecond)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
		case <-s.ctx.Done():
			t.Stop()
		}
	}
	if f.ErrorRate > 0 && int64(float64(n)*f.ErrorRate) > int64(float64(n-1)*f.ErrorRate) {
		w.Header().Set("Retry-After", "1")
		writePlain(w, http.StatusServiceUnavailable, "the service is temporarily unavailable (injected fault); retry later", "SERVICE_UNAVAILABLE")
		return true
	}
	return false
}

func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (*account, bool) {
	h := r.Header.Get("Authorization")
	if h == "" {
		writePlain(w, http.StatusUnauthorized, "missing API key: send the header Authorization: Bearer <key>", "UNAUTHORIZED")
		return nil, false
	}
	scheme, key, _ := strings.Cut(h, " ")
	key = strings.TrimSpace(key)
	if !strings.EqualFold(scheme, "Bearer") || key == "" {
		writePlain(w, http.StatusUnauthorized, "malformed Authorization header: expected Bearer <key>", "UNAUTHORIZED")
		return nil, false
	}
	s.mu.Lock()
	a := s.accounts[key]
	banned := a != nil && a.banned
	s.mu.Unlock()
	if a == nil {
		writePlain(w, http.StatusUnauthorized, "invalid API key", "UNAUTHORIZED")
		return nil, false
	}
	if banned {
		writePlain(w, http.StatusForbidden, "this account is banned and may not use the API", "ACCOUNT_BANNED")
		return nil, false
	}
	return a, true
}
