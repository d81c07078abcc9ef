package client

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
)

// DNCService is the /dnc resource.
type DNCService struct{ c *Client }

// List is one page of GET /dnc.
func (s *DNCService) List(ctx context.Context, opts *ListOptions) (*DNCList, error) {
	if opts == nil {
		opts = &ListOptions{}
	}
	return decoded[DNCList](ctx, s.c, &request{method: http.MethodGet, path: "dnc", query: pageQuery(opts.Page, opts.Limit)})
}

// All iterates over every DNC job of every page, starting at opts.Page (or
// 1), with opts.Limit per page (or 100). Items that cannot be read are
// yielded as in TracesService.All.
func (s *DNCService) All(ctx context.Context, opts *ListOptions) iter.Seq2[*DNCJob, error] {
	o := ListOptions{}
	if opts != nil {
		o = *opts
	}
	return paginate(o.Page, o.Limit, func(j *DNCJob) string { return j.ID }, func(page, limit int) ([]DNCJob, []*ListItemError, Metadata, error) {
		l, err := s.List(ctx, &ListOptions{Page: page, Limit: limit})
		if err != nil {
			return nil, nil, Metadata{}, err
		}
		return l.Jobs, l.Invalid, l.Metadata, nil
	})
}

// Get is GET /dnc/:id. The id is used exactly as returned by the API.
func (s *DNCService) Get(ctx context.Context, id string) (*DNCJob, error) {
	return onJob[DNCJob](ctx, s.c, http.MethodGet, "dnc", id, "")
}

// DNCUpload is the input of POST /dnc.
type DNCUpload struct {
	Path        string                  // CSV file to upload
	FileName    string                  // name sent to the server; default: base name of Path
	PhoneColumn string                  // CSV header of the phone column
	Progress    func(sent, total int64) // as TraceUpload.Progress
	Held        *HeldFile               // as TraceUpload.Held
}

// Create is POST /dnc: it streams the file as multipart/form-data. Charged:
// see TracesService.Create.
func (s *DNCService) Create(ctx context.Context, u *DNCUpload) (*DNCCreated, error) {
	if u == nil {
		return nil, errors.New("client: POST /dnc: no upload")
	}
	if u.PhoneColumn == "" {
		return nil, errors.New("client: POST /dnc: no phone column given")
	}
	mapping, _ := json.Marshal(map[string]string{"phone": u.PhoneColumn})
	fields := [][2]string{{"column_mapping", string(mapping)}}
	return createJob(ctx, s.c, "dnc", jobFile{u.Path, u.FileName, u.Progress, u.Held}, fields, func(j *DNCCreated) string { return j.ID })
}

// Download streams the result CSV of a completed DNC job to destPath.
func (s *DNCService) Download(ctx context.Context, id, destPath string, progress func(done, total int64)) (int64, error) {
	return s.c.downloadJob(ctx, "dnc", id, destPath, progress)
}

// RetryWebhook is POST /dnc/:id/retry-webhook.
func (s *DNCService) RetryWebhook(ctx context.Context, id string) (*WebhookDelivery, error) {
	return s.c.retryWebhook(ctx, "dnc", id)
}
