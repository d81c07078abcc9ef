// Package hostile is a scriptable fake of the provider's API on
// net/http/httptest, for tests of the client and of the code above it
// (submit, reconcile, tracking) against servers that answer the way a
// broken proxy, a login wall or a careless provider might.
//
// By default it behaves as a minimal, well-mannered provider: POST /traces
// and POST /dnc create a processing job named after the uploaded file and
// charge one credit a row, POST /traces/single answers a completed lookup,
// the lists and GET by id show the jobs newest first, and a completed job's
// download is a small CSV. A test then scripts what goes wrong: Next
// replaces the next answer of a route, Always every answer; AfterCreating
// lets a create happen (the job exists and is charged) and answers
// something else; jobs may be added, changed, or served as raw JSON.
//
// Only tests import it: it is not part of any program.
package hostile

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Routes, as net/http patterns (the base path /v1 included).
const (
	Account         = "GET /v1/account"
	Pricing         = "GET /v1/pricing"
	TraceList       = "GET /v1/traces"
	TraceCreate     = "POST /v1/traces"
	TraceSingle     = "POST /v1/traces/single"
	TraceGet        = "GET /v1/traces/{id}"
	TraceDownload   = "GET /v1/traces/{id}/download"
	DNCList         = "GET /v1/dnc"
	DNCCreate       = "POST /v1/dnc"
	DNCGet          = "GET /v1/dnc/{id}"
	DNCDownload     = "GET /v1/dnc/{id}/download"
	defaultStatus   = "processing"
	defaultRowPrice = 1
)

// FakeKey returns an obviously fake API key, different on every call.
func FakeKey() string {
	b := make([]byte, 12)
	rand.Read(b)
	return "sk_fake_" + hex.EncodeToString(b)
}

// Job is a job as the fake serves it.
type Job struct {
	ID           string
	Kind         string // "trace" (bulk), "single" or "dnc"
	Name         string
	Status       string
	Mode         string
	IncludeLLCs  bool
	TotalRows    int
	Charged      int64
	Refunded     int64
	CreatedAt    time.Time
	CompletedAt  time.Time
	ErrorMessage *string
	// Raw, when set, is served as the job's JSON (in the lists and by GET)
	// instead of the fields: a malformed or hostile item.
	Raw string
	// Result is the download's body (a small CSV by default, once the
	// job is completed); ResultType its Content-Type (text/csv).
	Result     []byte
	ResultType string
}

// JSON is the job as the API shows it.
func (j *Job) JSON() json.RawMessage {
	if j.Raw != "" {
		return json.RawMessage(j.Raw)
	}
	m := map[string]any{
		"id": j.ID, "name": j.Name, "status": j.Status, "total_rows": j.TotalRows,
		"credits_charged": j.Charged, "credits_refunded": j.Refunded,
		"created_at": stamp(j.CreatedAt), "error_message": j.ErrorMessage, "download_url": nil,
	}
	if !j.CompletedAt.IsZero() {
		m["completed_at"] = stamp(j.CompletedAt)
	}
	if j.Status == "completed" {
		m["download_url"] = "/v1/" + map[bool]string{true: "dnc", false: "traces"}[j.Kind == "dnc"] + "/" + j.ID + "/download"
	}
	if j.Kind == "dnc" {
		m["rate"] = defaultRowPrice
	} else {
		m["type"] = map[bool]string{true: "single", false: "bulk"}[j.Kind == "single"]
		m["mode"], m["include_llcs"] = j.Mode, j.IncludeLLCs
	}
	b, _ := json.Marshal(m)
	return b
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// Request is a request the fake received.
type Request struct {
	Method, Path, Query string
	Header              http.Header
	Pattern             string // the route it matched ("" for none)
	FileName            string // the uploaded file's name (creates)
	Body                []byte // the body of a JSON request
}

// Server is the fake. Its methods are safe for concurrent use.
type Server struct {
	// URL is the base address, ending in /v1.
	URL string
	// Key is the API key the fake expects (FakeKey); a request with
	// another answers 401.
	Key  string
	ts   *httptest.Server
	mux  *http.ServeMux
	quit chan struct{} // closed when the test ends: slow answers stop

	mu      sync.Mutex
	jobs    []*Job // in creation order
	seq     int
	reqs    []Request
	next    map[string][]http.HandlerFunc
	always  map[string]http.HandlerFunc
	now     func() time.Time
	created int // jobs created by POSTs
}

// New starts a fake on a loopback port, closed when the test ends.
func New(t testing.TB) *Server {
	t.Helper()
	return start(t, httptest.NewServer)
}

// NewTLS is New over https, with httptest's certificate (trusted by
// Client()'s transport).
func NewTLS(t testing.TB) *Server {
	t.Helper()
	return start(t, httptest.NewTLSServer)
}

// start serves the fake through newTS (httptest.NewServer or NewTLSServer).
func start(t testing.TB, newTS func(http.Handler) *httptest.Server) *Server {
	t.Helper()
	s := newServer()
	s.ts = newTS(http.HandlerFunc(s.serve))
	s.cleanup(t)
	return s
}

// cleanup ends the slow answers, then closes the server, when the test
// ends.
func (s *Server) cleanup(t testing.TB) {
	s.URL = s.ts.URL + "/v1"
	t.Cleanup(s.ts.Close)
	t.Cleanup(func() { close(s.quit) }) // runs first
}

func newServer() *Server {
	s := &Server{Key: FakeKey(), quit: make(chan struct{}), next: map[string][]http.HandlerFunc{}, always: map[string]http.HandlerFunc{}, now: time.Now}
	mux := http.NewServeMux()
	mux.HandleFunc(Account, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"id":"acc_1","email":"someone@example.com","billing_mode":"prepaid","credits":100000}`)
	})
	mux.HandleFunc(Pricing, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, `{"rates":{"normal":1,"enhanced":2,"llc":2,"dnc":1}}`)
	})
	mux.HandleFunc(TraceCreate, s.create("trace"))
	mux.HandleFunc(DNCCreate, s.create("dnc"))
	mux.HandleFunc(TraceSingle, s.single)
	mux.HandleFunc(TraceList, s.list("traces"))
	mux.HandleFunc(DNCList, s.list("dnc"))
	mux.HandleFunc(TraceGet, s.get)
	mux.HandleFunc(DNCGet, s.get)
	mux.HandleFunc(TraceDownload, s.download)
	mux.HandleFunc(DNCDownload, s.download)
	s.mux = mux
	return s
}

// Client is an *http.Client that trusts the fake's certificate (for
// NewTLS).
func (s *Server) Client() *http.Client { return s.ts.Client() }

// SetClock replaces the fake's clock (job times); nil restores time.Now.
func (s *Server) SetClock(now func() time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if now == nil {
		now = time.Now
	}
	s.now = now
}

// Next makes the next request to route answer with h (queued after earlier
// Next calls for the route).
func (s *Server) Next(route string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next[route] = append(s.next[route], h)
}

// Always makes every request to route answer with h (after any queued
// Next); nil restores the default.
func (s *Server) Always(route string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if h == nil {
		delete(s.always, route)
		return
	}
	s.always[route] = h
}

// Default is the fake's own answer for the request (for scripts that wrap
// it).
func (s *Server) Default(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	go func() {
		select {
		case <-s.quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	r = r.WithContext(ctx)
	_, pattern := s.mux.Handler(r)
	rec := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Pattern: pattern}
	if r.Header.Get("Content-Type") == "application/json" {
		rec.Body, _ = io.ReadAll(io.LimitReader(r.Body, 1<<20))
		r.Body = io.NopCloser(bytes.NewReader(rec.Body))
	}
	s.mu.Lock()
	idx := len(s.reqs)
	s.reqs = append(s.reqs, rec)
	var h http.HandlerFunc
	if q := s.next[pattern]; len(q) > 0 {
		h, s.next[pattern] = q[0], q[1:]
	} else if a := s.always[pattern]; a != nil {
		h = a
	}
	s.mu.Unlock()
	if r.Header.Get("Authorization") != "Bearer "+s.Key && h == nil {
		writeJSON(w, 401, `{"error":"missing or invalid API key","code":"UNAUTHORIZED"}`)
		return
	}
	if h == nil {
		h = s.mux.ServeHTTP
	}
	h(&fileNameRecorder{ResponseWriter: w, s: s, idx: idx}, r)
}

// fileNameRecorder lets create handlers note the uploaded file's name on
// the request's record.
type fileNameRecorder struct {
	http.ResponseWriter
	s   *Server
	idx int
}

func (f *fileNameRecorder) noteFileName(name string) {
	f.s.mu.Lock()
	f.s.reqs[f.idx].FileName = name
	f.s.mu.Unlock()
}

func (f *fileNameRecorder) Unwrap() http.ResponseWriter { return f.ResponseWriter }

func (f *fileNameRecorder) Flush() {
	if fl, ok := f.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Count is the number of requests that matched route.
func (s *Server) Count(route string) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Pattern == route {
			n++
		}
	}
	return n
}

// Created is the number of jobs the fake's creates made (scripted answers
// included when they let the create happen).
func (s *Server) Created() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.created
}

// Add adds a job (filling the id, kind, status and creation time when
// empty) and returns it.
func (s *Server) Add(j *Job) *Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addLocked(j)
	return j
}

func (s *Server) addLocked(j *Job) {
	s.seq++
	if j.Kind == "" {
		j.Kind = "trace"
	}
	if j.ID == "" {
		j.ID = fmt.Sprintf("%s_%04d", map[bool]string{true: "dnc", false: "trc"}[j.Kind == "dnc"], s.seq)
	}
	if j.Status == "" {
		j.Status = defaultStatus
	}
	if j.CreatedAt.IsZero() {
		j.CreatedAt = s.now()
	}
	if j.Mode == "" && j.Kind != "dnc" {
		j.Mode = "normal"
	}
	s.jobs = append(s.jobs, j)
}

// Job returns the job with id (nil when none).
func (s *Server) Job(id string) *Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, j := range s.jobs {
		if j.ID == id {
			return j
		}
	}
	return nil
}

// Jobs returns the jobs, in creation order.
func (s *Server) Jobs() []*Job {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Job(nil), s.jobs...)
}

// Update changes the job with id under the fake's lock.
func (s *Server) Update(id string, f func(*Job)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, j := range s.jobs {
		if j.ID == id {
			f(j)
		}
	}
}

// Complete marks the job completed, with a small CSV result.
func (s *Server) Complete(id string) {
	now := time.Now()
	s.Update(id, func(j *Job) {
		j.Status, j.CompletedAt = "completed", now
		if j.Result == nil {
			j.Result = []byte("first_name,last_name,phone_1,match_status\r\nAnn,Lee,5125550101,matched\r\n")
		}
	})
}

func (s *Server) create(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name, rows, fields, err := readUpload(r)
		if err != nil {
			writeJSON(w, 400, fmt.Sprintf(`{"error":{"code":"VALIDATION_ERROR","message":%q}}`, err.Error()))
			return
		}
		if f, ok := w.(*fileNameRecorder); ok {
			f.noteFileName(name)
		}
		j := &Job{Kind: kind, Name: name, TotalRows: rows, Charged: int64(rows * defaultRowPrice)}
		if kind == "trace" {
			j.Mode = fields["mode"]
			j.IncludeLLCs = fields["include_llcs"] == "true"
		}
		s.mu.Lock()
		s.addLocked(j)
		s.created++
		s.mu.Unlock()
		if kind == "dnc" {
			writeJSON(w, 201, fmt.Sprintf(`{"id":%q,"name":%q,"status":"processing","total_rows":%d,"rate":1,"credits_charged":%d}`,
				j.ID, j.Name, j.TotalRows, j.Charged))
			return
		}
		writeJSON(w, 201, fmt.Sprintf(`{"success":true,"id":%q,"status":"processing","mode":%q,"include_llcs":%v,"total_rows":%d,"entity_rows":0,"cost":%d,"credits_charged":%d,"columns":{}}`,
			j.ID, j.Mode, j.IncludeLLCs, j.TotalRows, j.Charged, j.Charged))
	}
}

// readUpload reads a multipart upload: the file's name and data rows, and
// the other fields.
func readUpload(r *http.Request) (name string, rows int, fields map[string]string, err error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return "", 0, nil, err
	}
	fields = map[string]string{}
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", 0, nil, err
		}
		if p.FormName() == "file" {
			name = p.FileName()
			sc := bufio.NewScanner(p)
			sc.Buffer(make([]byte, 64<<10), 1<<20)
			lines := 0
			for sc.Scan() {
				if strings.TrimSpace(sc.Text()) != "" {
					lines++
				}
			}
			rows = max(lines-1, 0)
			continue
		}
		b, _ := io.ReadAll(p)
		fields[p.FormName()] = string(b)
	}
	if name == "" {
		return "", 0, nil, fmt.Errorf("no file")
	}
	return name, rows, fields, nil
}

// SingleResult is the result file of a single lookup: the fields sent,
// then a phone.
func SingleResult(first, last, address, city, state, zip string) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	w.Write([]string{"first_name", "last_name", "address", "city", "state", "zip", "phone_1"})
	w.Write([]string{first, last, address, city, state, zip, "5125550101"})
	w.Flush()
	return b.Bytes()
}

func (s *Server) single(w http.ResponseWriter, r *http.Request) {
	var in struct {
		FirstName string `json:"first_name"`
		LastName  string `json:"last_name"`
		Address   string `json:"address"`
		City      string `json:"city"`
		State     string `json:"state"`
		Zip       string `json:"zip"`
	}
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		writeJSON(w, 400, `{"error":{"code":"VALIDATION_ERROR","message":"bad JSON"}}`)
		return
	}
	j := &Job{Kind: "single", Name: strings.TrimSpace("Single: " + in.FirstName + " " + in.LastName), TotalRows: 1, Charged: 1, Status: "completed",
		Result: SingleResult(in.FirstName, in.LastName, in.Address, in.City, in.State, in.Zip)}
	s.mu.Lock()
	s.addLocked(j)
	j.CompletedAt = j.CreatedAt
	s.created++
	s.mu.Unlock()
	writeJSON(w, 200, fmt.Sprintf(`{"id":%q,"matched":true,"first_name":%q,"last_name":%q,"phones":[{"number":"5125550101","type":"mobile"}],"emails":[],"credits":1,"credits_refunded":0,"is_entity":false}`,
		j.ID, in.FirstName, in.LastName))
}

func (s *Server) list(resource string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		page, _ := strconv.Atoi(q.Get("page"))
		limit, _ := strconv.Atoi(q.Get("limit"))
		page, limit = max(page, 1), min(max(limit, 1), 100)
		if q.Get("limit") == "" {
			limit = 10
		}
		typ := q.Get("type")
		s.mu.Lock()
		var items []*Job
		for _, j := range s.jobs {
			switch {
			case resource == "dnc" && j.Kind != "dnc",
				resource == "traces" && j.Kind == "dnc",
				typ == "bulk" && j.Kind != "trace",
				typ == "single" && j.Kind != "single":
				continue
			}
			items = append(items, j)
		}
		sort.SliceStable(items, func(a, b int) bool { return items[a].CreatedAt.After(items[b].CreatedAt) })
		total := len(items)
		from := min((page-1)*limit, total)
		to := min(from+limit, total)
		raws := make([]json.RawMessage, 0, to-from)
		for _, j := range items[from:to] {
			raws = append(raws, j.JSON())
		}
		s.mu.Unlock()
		pages := (total + limit - 1) / limit
		key := map[bool]string{true: "jobs", false: "traces"}[resource == "dnc"]
		body, _ := json.Marshal(map[string]any{
			"_metadata": map[string]int{"page": page, "per_page": limit, "page_count": pages, "total_count": total},
			key:         raws,
		})
		writeJSON(w, 200, string(body))
	}
}

// find is the job the path names; when there is none it answers 404 and
// returns nil.
func (s *Server) find(w http.ResponseWriter, r *http.Request) *Job {
	id := r.PathValue("id")
	dnc := strings.HasPrefix(r.URL.Path, "/v1/dnc/")
	var found *Job
	s.mu.Lock()
	for _, j := range s.jobs {
		if j.ID == id && (j.Kind == "dnc") == dnc {
			found = j
			break
		}
	}
	s.mu.Unlock()
	if found == nil {
		writeJSON(w, 404, `{"error":"not found","code":"NOT_FOUND"}`)
	}
	return found
}

func (s *Server) get(w http.ResponseWriter, r *http.Request) {
	j := s.find(w, r)
	if j == nil {
		return
	}
	s.mu.Lock()
	body := j.JSON()
	s.mu.Unlock()
	writeJSON(w, 200, string(body))
}

func (s *Server) download(w http.ResponseWriter, r *http.Request) {
	j := s.find(w, r)
	if j == nil {
		return
	}
	s.mu.Lock()
	status, result, ctype := j.Status, j.Result, j.ResultType
	s.mu.Unlock()
	if status != "completed" {
		writeJSON(w, 409, `{"error":"the result is not ready","code":"JOB_NOT_COMPLETED"}`)
		return
	}
	if ctype == "" {
		ctype = "text/csv; charset=utf-8"
	}
	w.Header().Set("Content-Type", ctype)
	w.Header().Set("Content-Length", strconv.Itoa(len(result)))
	w.WriteHeader(200)
	w.Write(result)
}

func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// Reply answers status with body (JSON unless header says otherwise),
// after reading the request.
func Reply(status int, header map[string]string, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// Redirect answers a redirect to location with code.
func Redirect(location string, code int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		http.Redirect(w, r, location, code)
	}
}

// AfterCreating lets the fake handle the request as usual (a create makes
// its job and charges for it), throws that answer away and answers with
// then instead: the job exists, the client does not hear of it.
func (s *Server) AfterCreating(then http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		var rw http.ResponseWriter = rec
		if f, ok := w.(*fileNameRecorder); ok {
			rw = &fileNameRecorder{ResponseWriter: rec, s: f.s, idx: f.idx}
		}
		s.mux.ServeHTTP(rw, r)
		then(w, r)
	}
}

// Drop reads the request and closes the connection without an answer.
func Drop(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	conn, _, err := http.NewResponseController(w).Hijack()
	if err == nil {
		conn.Close()
	}
}

// Trickle answers 200 with header set, writes first, then one byte of
// more every pause until the client goes away (or more runs out).
func Trickle(header map[string]string, first, more string, pause time.Duration) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(200)
		io.WriteString(w, first)
		http.NewResponseController(w).Flush()
		for i := 0; i < len(more) && r.Context().Err() == nil; i++ {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(pause):
			}
			if _, err := w.Write([]byte{more[i]}); err != nil {
				return
			}
			http.NewResponseController(w).Flush()
		}
	}
}
