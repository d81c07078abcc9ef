package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"path/filepath"
)

// DNCService is the /dnc resource.
type DNCService struct{ c *Client }

// List is one page of GET /dnc.
func (s *DNCService) List(ctx context.Context, opts *ListOptions) (*DNCList, error) {
	if opts == nil {
		opts = &ListOptions{}
	}
	var l DNCList
	r := &request{method: http.MethodGet, path: "dnc", query: pageQuery(opts.Page, opts.Limit)}
	if err := s.c.doJSON(ctx, r, &l); err != nil {
		return nil, err
	}
	return &l, nil
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
	p, err := idPath("dnc", id, "")
	if err != nil {
		return nil, err
	}
	var j DNCJob
	if err := s.c.doJSON(ctx, &request{method: http.MethodGet, path: p}, &j); err != nil {
		return nil, err
	}
	return &j, nil
}

// DNCUpload is the input of POST /dnc.
type DNCUpload struct {
	Path        string                  // CSV file to upload
	FileName    string                  // name sent to the server; default: base name of Path
	PhoneColumn string                  // CSV header of the phone column
	Progress    func(sent, total int64) // as TraceUpload.Progress
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
	name := u.FileName
	if name == "" {
		name = filepath.Base(u.Path)
	}
	mp, err := newMultipartFile(u.Path, name, [][2]string{{"column_mapping", string(mapping)}}, u.Progress)
	if err != nil {
		return nil, fmt.Errorf("client: POST /dnc: %w", err)
	}
	var out DNCCreated
	r := &request{method: http.MethodPost, path: "dnc", contentType: mp.contentType(), body: mp.open, charged: true}
	if err := s.c.doJSON(ctx, r, &out); err != nil {
		return nil, err
	}
	if err := s.c.checkJobID(r, out.ID); err != nil {
		return nil, err
	}
	return &out, nil
}

// Download streams the result CSV of a completed DNC job to destPath.
func (s *DNCService) Download(ctx context.Context, id, destPath string, progress func(done, total int64)) (int64, error) {
	p, err := idPath("dnc", id, "download")
	if err != nil {
		return 0, err
	}
	return s.c.download(ctx, p, destPath, progress)
}

// RetryWebhook is POST /dnc/:id/retry-webhook.
func (s *DNCService) RetryWebhook(ctx context.Context, id string) (*WebhookDelivery, error) {
	return s.c.retryWebhook(ctx, "dnc", id)
}
