package sandbox

import (
	"fmt"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

const (
	kindTrace = "trace"
	kindDNC   = "dnc"
)

const (
	statusProcessing = "processing"
	statusCompleted  = "completed"
	statusFailed     = "failed"
)

// tier is one member of a trace breakdown.
type tier struct {
	Rate            int64 `json:"rate"`
	Rows            int   `json:"rows"`
	Match           int   `json:"match"`
	NoMatch         int   `json:"no_match"`
	Error           int   `json:"error"`
	CreditsCharged  int64 `json:"credits_charged"`
	CreditsRefunded int64 `json:"credits_refunded"`
}

type breakdown struct {
	Individuals tier `json:"individuals"`
	LLCs        tier `json:"llcs"`
}

// job is a bulk trace, a single trace or a DNC job.
type job struct {
	kind      string
	seq       uint64
	id        string
	encodedID string
	owner     *account
	name      string
	status    string
	createdAt time.Time
	doneAt    time.Time
	errMsg    string
	baseURL   string // scheme://host/v1 of the creating request

	totalRows       int
	matchCount      int
	noMatchCount    int
	errorCount      int
	creditsCharged  int64
	creditsRefunded int64

	// trace
	traceType   string // bulk | single
	mode        string
	includeLLCs bool
	entityRows  int
	breakdown   *breakdown
	rates       Rates // rates at submission

	// input
	inputPath  string
	headers    []string
	nameCols   []int // columns of first_name, last_name (-1 when unmapped)
	phoneCol   int   // DNC
	mapped     []mappedCol
	layouts    ResultLayouts // of the result file, as configured at creation
	failUpload bool          // file name contains FAILJOB

	resultPath string
	timer      *time.Timer
	cutDone    bool // faults.reset_downloads_after_bytes already applied
	finalizing bool
	finished   chan struct{} // closed once finalize has set the outcome (made when finalizing starts)
}

// newJob registers a job owned by a; the caller holds s.mu.
func (s *Server) newJob(kind string, a *account, r *http.Request) *job {
	s.seq++
	prefix := "trc_"
	if kind == kindDNC {
		prefix = "dnc_"
	}
	token := fmt.Sprintf("%06x%s", s.seq, newToken(7))
	j := &job{
		kind:      kind,
		seq:       s.seq,
		owner:     a,
		status:    statusProcessing,
		createdAt: s.now().UTC().Truncate(time.Millisecond),
		baseURL:   baseURL(r),
		phoneCol:  -1,
		rates:     s.cfg.Rates,
		layouts:   s.cfg.ResultLayouts.normalized(),
	}
	// encoded_id is always prefixed; id is prefixed unless id_style is plain.
	j.encodedID = prefix + strconv.FormatUint(s.seq*2654435761%(1<<40)+1<<40, 36)
	j.id = prefix + token
	if s.cfg.IDStyle == "plain" {
		j.id = token
	}
	s.jobs[kind+":"+j.id] = j
	s.jobs[kind+":"+j.encodedID] = j
	s.order = append(s.order, j)
	return j
}

func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + "/v1"
}

// lookup finds a job of the key by id or encoded id; the caller holds s.mu.
// A job of another key is reported exactly like a missing one.
func (s *Server) lookup(kind string, a *account, id string) *job {
	j := s.jobs[kind+":"+id]
	if j == nil || j.owner != a {
		return nil
	}
	return j
}

func notFound(kind, id string) *apiError {
	what := "trace"
	if kind == kindDNC {
		what = "DNC job"
	}
	return plainErr(http.StatusNotFound, "NOT_FOUND", fmt.Sprintf("%s %q not found", what, id))
}

func (j *job) downloadURL() *string {
	if j.status != statusCompleted {
		return nil
	}
	seg := "traces"
	if j.kind == kindDNC {
		seg = "dnc"
	}
	u := j.baseURL + "/" + seg + "/" + j.id + "/download"
	return &u
}

func (j *job) completedAt() *string {
	if j.status == statusProcessing {
		return nil
	}
	t := timestamp(j.doneAt)
	return &t
}

func (j *job) errorMessage() *string {
	if j.status != statusFailed {
		return nil
	}
	m := j.errMsg
	return &m
}

type traceJSON struct {
	ID              string     `json:"id"`
	EncodedID       string     `json:"encoded_id"`
	Type            string     `json:"type"`
	Status          string     `json:"status"`
	Mode            string     `json:"mode"`
	IncludeLLCs     bool       `json:"include_llcs"`
	TotalRows       int        `json:"total_rows"`
	EntityRows      int        `json:"entity_rows"`
	MatchCount      *int       `json:"match_count,omitempty"`
	NoMatchCount    *int       `json:"no_match_count,omitempty"`
	ErrorCount      *int       `json:"error_count,omitempty"`
	CreditsCharged  int64      `json:"credits_charged"`
	CreditsRefunded int64      `json:"credits_refunded"`
	Name            string     `json:"name"`
	DownloadURL     *string    `json:"download_url"`
	CreatedAt       string     `json:"created_at"`
	CompletedAt     *string    `json:"completed_at"`
	ErrorMessage    *string    `json:"error_message"`
	Breakdown       *breakdown `json:"breakdown,omitempty"`
}

type dncJSON struct {
	ID              string  `json:"id"`
	EncodedID       string  `json:"encoded_id"`
	Name            string  `json:"name"`
	Status          string  `json:"status"`
	TotalRows       int     `json:"total_rows"`
	MatchCount      int     `json:"match_count"`
	ErrorCount      int     `json:"error_count"`
	Rate            int64   `json:"rate"`
	CreditsCharged  int64   `json:"credits_charged"`
	CreditsRefunded int64   `json:"credits_refunded"`
	DownloadURL     *string `json:"download_url"`
	CreatedAt       string  `json:"created_at"`
	CompletedAt     *string `json:"completed_at"`
	ErrorMessage    *string `json:"error_message"`
}

// view is the job as GET by id, the lists and the webhook data show it; the
// caller holds s.mu.
func (j *job) view() any {
	if j.kind == kindDNC {
		return dncJSON{
			ID: j.id, EncodedID: j.encodedID, Name: j.name, Status: j.status,
			TotalRows: j.totalRows, MatchCount: j.matchCount, ErrorCount: j.errorCount,
			Rate: j.rates.DNC, CreditsCharged: j.creditsCharged, CreditsRefunded: j.creditsRefunded,
			DownloadURL: j.downloadURL(), CreatedAt: timestamp(j.createdAt),
			CompletedAt: j.completedAt(), ErrorMessage: j.errorMessage(),
		}
	}
	v := traceJSON{
		ID: j.id, EncodedID: j.encodedID, Type: j.traceType, Status: j.status, Mode: j.mode,
		IncludeLLCs: j.includeLLCs, TotalRows: j.totalRows, EntityRows: j.entityRows,
		CreditsCharged: j.creditsCharged, CreditsRefunded: j.creditsRefunded, Name: j.name,
		DownloadURL: j.downloadURL(), CreatedAt: timestamp(j.createdAt),
		CompletedAt: j.completedAt(), ErrorMessage: j.errorMessage(),
	}
	if j.status != statusProcessing {
		m, n, e := j.matchCount, j.noMatchCount, j.errorCount
		v.MatchCount, v.NoMatchCount, v.ErrorCount = &m, &n, &e
	}
	if j.breakdown != nil {
		b := *j.breakdown
		v.Breakdown = &b
	}
	return v
}

type metadataJSON struct {
	Page       int `json:"page"`
	PerPage    int `json:"per_page"`
	PageCount  int `json:"page_count"`
	TotalCount int `json:"total_count"`
}

func (s *Server) listHandler(kind string) func(http.ResponseWriter, *http.Request, *account, string) {
	return func(w http.ResponseWriter, r *http.Request, a *account, _ string) {
		q := r.URL.Query()
		var problems []FieldError
		page, limit := 1, 10
		intParam := func(name string, lo, hi int, dst *int) {
			v := q.Get(name)
			if v == "" {
				return
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < lo || n > hi {
				msg := fmt.Sprintf("must be an integer from %d to %d", lo, hi)
				if hi == 1<<31-1 {
					msg = fmt.Sprintf("must be an integer of at least %d", lo)
				}
				problems = append(problems, FieldError{Field: name, Message: msg})
				return
			}
			*dst = n
		}
		intParam("page", 1, 1<<31-1, &page)
		intParam("limit", 1, 100, &limit)
		typ := q.Get("type")
		if kind == kindTrace && typ != "" && typ != "bulk" && typ != "single" {
			problems = append(problems, FieldError{Field: "type", Message: `must be "bulk" or "single"`})
		}
		if len(problems) > 0 {
			writeAPIError(w, validationErr(problems...))
			return
		}
		s.mu.Lock()
		mine := s.jobsOf(a, kind, typ)
		md := metadataJSON{Page: page, PerPage: limit, TotalCount: len(mine), PageCount: (len(mine) + limit - 1) / limit}
		items := make([]any, 0, limit)
		for i := (page - 1) * limit; i < len(mine) && i < page*limit && i >= 0; i++ {
			items = append(items, mine[i].view())
		}
		s.mu.Unlock()
		key := "traces"
		if kind == kindDNC {
			key = "jobs"
		}
		writeJSON(w, http.StatusOK, map[string]any{"_metadata": md, key: items})
	}
}

// jobsOf are the account's jobs of a kind (and trace type, when not ""),
// newest first (under s.mu).
func (s *Server) jobsOf(a *account, kind, typ string) []*job {
	var mine []*job
	for _, j := range s.order {
		if j.kind == kind && j.owner == a && (typ == "" || j.traceType == typ) {
			mine = append(mine, j)
		}
	}
	sort.SliceStable(mine, func(x, y int) bool {
		if !mine[x].createdAt.Equal(mine[y].createdAt) {
			return mine[x].createdAt.After(mine[y].createdAt)
		}
		return mine[x].seq > mine[y].seq
	})
	return mine
}

func (s *Server) getHandler(kind string) func(http.ResponseWriter, *http.Request, *account, string) {
	return func(w http.ResponseWriter, r *http.Request, a *account, id string) {
		s.mu.Lock()
		j := s.lookup(kind, a, id)
		var v any
		if j != nil {
			v = j.view()
		}
		s.mu.Unlock()
		if j == nil {
			writeAPIError(w, notFound(kind, id))
			return
		}
		writeJSON(w, http.StatusOK, v)
	}
}

// nameOf is the base name of a multipart file name (either slash).
func nameOf(filename string) string {
	if i := strings.LastIndexAny(filename, `/\`); i >= 0 {
		filename = filename[i+1:]
	}
	if strings.TrimSpace(filename) == "" {
		return "upload.csv"
	}
	return filename
}
