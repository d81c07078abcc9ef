package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
)

// TracesService is the /traces resource.
type TracesService struct{ c *Client }

// TraceListOptions are the query parameters of GET /traces. Zero values are
// left out (the server's defaults apply: page 1, limit 10).
type TraceListOptions struct {
	Page  int
	Limit int    // at most 100
	Type  string // TypeBulk, TypeSingle or "" for both
}

// ListOptions are the query parameters of GET /dnc.
type ListOptions struct {
	Page  int
	Limit int // at most 100
}

func pageQuery(page, limit int) url.Values {
	q := url.Values{}
	if page > 0 {
		q.Set("page", itoa(page))
	}
	if limit > 0 {
		q.Set("limit", itoa(limit))
	}
	return q
}

// List is one page of GET /traces.
func (s *TracesService) List(ctx context.Context, opts *TraceListOptions) (*TraceList, error) {
	if opts == nil {
		opts = &TraceListOptions{}
	}
	q := pageQuery(opts.Page, opts.Limit)
	if opts.Type != "" {
		q.Set("type", opts.Type)
	}
	return decoded[TraceList](ctx, s.c, &request{method: http.MethodGet, path: "traces", query: q})
}

// All iterates over every trace of every page, starting at opts.Page (or 1),
// with opts.Limit per page (or 100). An item that cannot be read is yielded
// as a *ListItemError, after the page's readable items, and the walk goes on
// while the caller does; any other error ends it.
func (s *TracesService) All(ctx context.Context, opts *TraceListOptions) iter.Seq2[*Trace, error] {
	o := TraceListOptions{}
	if opts != nil {
		o = *opts
	}
	return paginate(o.Page, o.Limit, func(t *Trace) string { return t.ID }, func(page, limit int) ([]Trace, []*ListItemError, Metadata, error) {
		o.Page, o.Limit = page, limit
		l, err := s.List(ctx, &o)
		if err != nil {
			return nil, nil, Metadata{}, err
		}
		return l.Traces, l.Invalid, l.Metadata, nil
	})
}

// paginate walks pages until _metadata.page_count (or an empty page). A
// server that answers another page than the one asked for, or the same page
// again, ends the walk with an error rather than an endless loop.
func paginate[T any](page, limit int, id func(*T) string, fetch func(page, limit int) ([]T, []*ListItemError, Metadata, error)) iter.Seq2[*T, error] {
	if page < 1 {
		page = 1
	}
	if limit < 1 {
		limit = 100
	}
	return func(yield func(*T, error) bool) {
		var prev []string // ids of the previous page
		for {
			items, invalid, md, err := fetch(page, limit)
			if err != nil {
				yield(nil, err)
				return
			}
			if md.Page > 0 && md.Page != page {
				yield(nil, fmt.Errorf("client: asked for page %d of the list, the server answered page %d", page, md.Page))
				return
			}
			ids := make([]string, len(items))
			for i := range items {
				ids[i] = id(&items[i])
			}
			if len(ids) > 0 && slices.Equal(ids, prev) {
				yield(nil, fmt.Errorf("client: page %d of the list repeats page %d", page, page-1))
				return
			}
			prev = ids
			for i := range items {
				if !yield(&items[i], nil) {
					return
				}
			}
			for _, e := range invalid {
				if !yield(nil, e) {
					return
				}
			}
			n := len(items) + len(invalid)
			if n == 0 {
				return
			}
			// Without _metadata, a full page suggests there may be more.
			if md.PageCount > 0 && page >= md.PageCount || md.PageCount == 0 && n < limit {
				return
			}
			page++
		}
	}
}

// Get is GET /traces/:id. The id is used exactly as returned by the API.
func (s *TracesService) Get(ctx context.Context, id string) (*Trace, error) {
	return onJob[Trace](ctx, s.c, http.MethodGet, "traces", id, "")
}

// onJob is method /resource/:id[/suffix], its answer decoded into a new T.
// Not for a charged request: that is createJob's.
func onJob[T any](ctx context.Context, c *Client, method, resource, id, suffix string) (*T, error) {
	p, err := idPath(resource, id, suffix)
	if err != nil {
		return nil, err
	}
	return decoded[T](ctx, c, &request{method: method, path: p})
}

// idPath builds "resource/<escaped id>[/suffix]".
func idPath(resource, id, suffix string) (string, error) {
	if strings.TrimSpace(id) == "" {
		return "", fmt.Errorf("client: empty %s id", strings.TrimSuffix(resource, "s"))
	}
	seg := url.PathEscape(id)
	if seg == "." || seg == ".." {
		// Dot segments would be resolved away; escaped they stay an id.
		seg = strings.ReplaceAll(seg, ".", "%2E")
	}
	p := resource + "/" + seg
	if suffix != "" {
		p += "/" + suffix
	}
	return p, nil
}

// TraceUpload is the input of POST /traces.
type TraceUpload struct {
	Path          string            // CSV file to upload
	FileName      string            // name sent to the server (the job's name); default: base name of Path
	Mode          string            // ModeNormal (default) or ModeEnhanced
	ColumnMapping map[string]string // service field key → CSV header
	IncludeLLCs   bool
	// Progress, when set, is called as the body is sent (bytes so far,
	// body size), from the goroutine that writes it, many times a second:
	// keep it cheap. A retried attempt starts again from 0.
	Progress func(sent, total int64)
	// Held, when set, is the file, written while it is sent (Path is not
	// read): its tail waits for Held.Release, and Held.Abort ends the
	// request with the body incomplete (ErrUploadIncomplete).
	Held *HeldFile
}

// Create is POST /traces: it streams the file as multipart/form-data. The
// request is charged: it is never resent once it may have reached the
// server, and such a failure matches ErrOutcomeUnknown.
func (s *TracesService) Create(ctx context.Context, u *TraceUpload) (*TraceCreated, error) {
	if u == nil {
		return nil, errors.New("client: POST /traces: no upload")
	}
	if len(u.ColumnMapping) == 0 {
		return nil, errors.New("client: POST /traces: the column mapping is empty")
	}
	mapping, err := json.Marshal(u.ColumnMapping)
	if err != nil {
		return nil, fmt.Errorf("client: POST /traces: column mapping: %v", err)
	}
	fields := [][2]string{{"column_mapping", string(mapping)}}
	if u.Mode != "" {
		fields = append(fields, [2]string{"mode", u.Mode})
	}
	fields = append(fields, [2]string{"include_llcs", fmt.Sprint(u.IncludeLLCs)})
	return createJob(ctx, s.c, "traces", jobFile{u.Path, u.FileName, u.Progress, u.Held}, fields, func(j *TraceCreated) string { return j.ID })
}

// jobFile is the file a job-creating POST uploads.
type jobFile struct {
	path     string
	name     string // the name sent; default: the base name of path
	progress func(sent, total int64)
	held     *HeldFile // the file written while sent; path is then only its name's source
}

// createJob is the charged POST /resource that creates a job: it streams f
// as multipart/form-data with fields, and refuses an answer whose id is
// empty.
func createJob[T any](ctx context.Context, c *Client, resource string, f jobFile, fields [][2]string, id func(*T) string) (*T, error) {
	name := f.name
	if name == "" {
		name = filepath.Base(f.path)
	}
	r := &request{method: http.MethodPost, path: resource, charged: true, held: f.held}
	var err error
	if f.held != nil {
		// Once the call is over, what is written is no longer sent.
		defer f.held.done()
		r.contentType, r.body, err = heldRequest(f.held, name, fields, f.progress)
	} else {
		var mp *multipartFile
		if mp, err = newMultipartFile(f.path, name, fields, f.progress); err == nil {
			r.contentType, r.body = mp.contentType(), mp.open
		}
	}
	if err != nil {
		return nil, fmt.Errorf("client: POST /%s: %w", resource, err)
	}
	out, err := decoded[T](ctx, c, r)
	if err != nil {
		return nil, err
	}
	if err := c.checkJobID(r, id(out)); err != nil {
		return nil, err
	}
	return out, nil
}

// checkJobID refuses a success answer to a job-creating POST that names no
// job: the job may exist and be charged, and without its id only a
// reconciliation against the list can tell.
func (c *Client) checkJobID(r *request, id string) error {
	if strings.TrimSpace(id) == "" {
		return c.unknownOutcome(r, errors.New("the server accepted the request but its answer names no job id"))
	}
	return nil
}

// Single is POST /traces/single, a synchronous charged lookup.
func (s *TracesService) Single(ctx context.Context, in *SingleTraceRequest) (*SingleTraceResult, error) {
	if in == nil {
		return nil, errors.New("client: POST /traces/single: no request")
	}
	return decoded[SingleTraceResult](ctx, s.c, jsonRequest(http.MethodPost, "traces/single", in, true))
}

// Download streams the result CSV of a completed trace to destPath and
// returns its size. destPath is replaced only by a complete file (temporary
// file in the same folder, fsync, rename); a dropped connection resumes with
// Range where the server allows it, else starts over. progress, when set,
// gets (bytes written, total or -1 when unknown); after a restart done goes
// back to 0. A job not yet completed gives an *APIError (409 from the
// sandbox).
func (s *TracesService) Download(ctx context.Context, id, destPath string, progress func(done, total int64)) (int64, error) {
	return s.c.downloadJob(ctx, "traces", id, destPath, progress)
}

// downloadJob is download from GET /resource/:id/download.
func (c *Client) downloadJob(ctx context.Context, resource, id, destPath string, progress func(done, total int64)) (int64, error) {
	p, err := idPath(resource, id, "download")
	if err != nil {
		return 0, err
	}
	return c.download(ctx, p, destPath, progress)
}

// RetryWebhook is POST /traces/:id/retry-webhook.
func (s *TracesService) RetryWebhook(ctx context.Context, id string) (*WebhookDelivery, error) {
	return s.c.retryWebhook(ctx, "traces", id)
}

func (c *Client) retryWebhook(ctx context.Context, resource, id string) (*WebhookDelivery, error) {
	// Not charged and harmless to repeat (at worst one more delivery, which
	// receivers dedupe), so it follows the read retry policy.
	return onJob[WebhookDelivery](ctx, c, http.MethodPost, resource, id, "retry-webhook")
}
