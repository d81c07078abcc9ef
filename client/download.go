package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// download streams GET path into destPath and returns the file's size.
//
// The bytes go to a temporary file in the destination's folder, which is
// synced and renamed over destPath only once complete and of the announced
// length: destPath never holds a partial file. When the connection drops in
// the middle, the next attempt asks for the rest with Range (when the server
// advertised Accept-Ranges: bytes or already answered 206), guarded by
// If-Range with the ETag or Last-Modified; a server that answers 200 instead
// restarts the file from the beginning.
func (c *Client) download(ctx context.Context, path, destPath string, progress func(done, total int64)) (int64, error) {
	if destPath == "" {
		return 0, errors.New("client: download: no destination path")
	}
	dir := filepath.Dir(destPath)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(destPath)+".*.part")
	if err != nil {
		return 0, fmt.Errorf("client: download to %s: %w", destPath, err)
	}
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()

	d := &downloadState{f: tmp, total: -1, progress: progress, max: c.maxDown, text: c.text}
	r := &request{method: http.MethodGet, path: path, prepare: d.prepare, stream: true,
		header: http.Header{"Accept": {"text/csv, */*"}}}
	d.op = r.op()
	dctx := ctx
	if c.downLimit > 0 {
		var cancel context.CancelFunc
		dctx, cancel = context.WithTimeoutCause(ctx, c.downLimit, &DownloadTimeoutError{Op: d.op, Limit: c.downLimit})
		defer cancel()
	}
	if err := c.do(dctx, r, d.handle); err != nil {
		var te *DownloadTimeoutError
		if ctx.Err() == nil && errors.As(context.Cause(dctx), &te) {
			return 0, te
		}
		return 0, err
	}
	if err := tmp.Sync(); err != nil {
		return 0, fmt.Errorf("client: download to %s: %w", destPath, err)
	}
	if err := tmp.Close(); err != nil {
		return 0, fmt.Errorf("client: download to %s: %w", destPath, err)
	}
	if err := os.Rename(tmp.Name(), destPath); err != nil {
		return 0, fmt.Errorf("client: download to %s: %w", destPath, err)
	}
	ok = true
	syncDir(dir)
	return d.written, nil
}

// syncDir makes the rename durable where the platform allows it.
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}

// DownloadTimeoutError is a result download that did not finish within the
// client's download deadline (WithDownloadTimeout): nothing was kept. It
// may be asked for again later.
type DownloadTimeoutError struct {
	Op    string
	Limit time.Duration
}

func (e *DownloadTimeoutError) Error() string {
	return fmt.Sprintf("client: %s: the result did not arrive in full within %v; nothing was kept", e.Op, e.Limit)
}

// ErrNotResult is matched (errors.Is) by the error of a download whose
// answer is not a result file: an HTML page (a login or error page sent
// with 200), JSON, XML, an image, an empty body, or text that does not read
// as CSV. Nothing is kept under the result's name; the server would send
// the same again at once, so it is not retried within the call.
var ErrNotResult = errors.New("the answer is not a result file")

// headLimit is how much of a result is read before deciding whether it is
// CSV: its header line must end within it.
const headLimit = 256 << 10

type downloadState struct {
	text      func(string) string // cleans server text for errors
	ctype     string              // Content-Type of the answer the file started with
	head      []byte              // the file's first bytes, until checked
	checked   bool                // the beginning of the file reads as CSV
	f         *os.File
	written   int64
	total     int64 // full length, -1 when unknown
	resumable bool
	validator string // ETag or Last-Modified of the first response
	asked     bool   // this attempt asked for the rest with Range
	max       int64  // largest file stored
	op        string // "GET /traces/ID/download", for errors
	progress  func(done, total int64)
}

// tooLarge refuses a result over the size cap: not retried (the server
// would send the same again).
func (d *downloadState) tooLarge(announced int64) error {
	if announced >= 0 {
		return fmt.Errorf("client: %s: the result is larger than %s (the server announced %s); it was not stored",
			d.op, jobs.Bytes(d.max), jobs.Bytes(announced))
	}
	return fmt.Errorf("client: %s: the result is larger than %s; it was not stored", d.op, jobs.Bytes(d.max))
}

func (d *downloadState) prepare(req *http.Request) {
	d.asked = d.written > 0 && d.resumable
	if d.asked {
		req.Header.Set("Range", "bytes="+strconv.FormatInt(d.written, 10)+"-")
		if d.validator != "" {
			req.Header.Set("If-Range", d.validator)
		}
	}
}

func (d *downloadState) restart() error {
	if err := d.f.Truncate(0); err != nil {
		return err
	}
	_, err := d.f.Seek(0, io.SeekStart)
	d.written = 0
	d.head, d.checked = nil, false
	return err
}

func (d *downloadState) handle(resp *http.Response) error {
	if err := d.start(resp); err != nil {
		return err
	}
	if d.total > d.max {
		return d.tooLarge(d.total)
	}
	if d.progress != nil {
		d.progress(d.written, d.total)
	}
	return d.copyBody(resp)
}

// start takes an answer's headers: the rest of the file asked for (206), or
// the file from its beginning.
func (d *downloadState) start(resp *http.Response) error {
	if resp.StatusCode == http.StatusPartialContent && d.asked {
		start, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != d.written || (d.total >= 0 && total >= 0 && total != d.total) {
			// Not the piece asked for: start over.
			d.resumable = false
			if err := d.restart(); err != nil {
				return err
			}
			return &bodyReadError{err: fmt.Errorf("unexpected Content-Range %q", resp.Header.Get("Content-Range"))}
		}
		if total >= 0 {
			d.total = total
		}
		return nil
	}
	if d.written > 0 {
		if err := d.restart(); err != nil {
			return err
		}
	}
	d.total = resp.ContentLength
	d.ctype = resp.Header.Get("Content-Type")
	if err := d.checkType(); err != nil {
		return err
	}
	if resp.StatusCode == http.StatusPartialContent { // a 206 we did not ask for
		start, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != 0 {
			// Not the file's beginning: the next attempt asks for it whole.
			d.resumable = false
			return &bodyReadError{err: fmt.Errorf("unexpected Content-Range %q on a request without Range", resp.Header.Get("Content-Range"))}
		}
		d.total = total
	}
	d.resumable = strings.EqualFold(strings.TrimSpace(resp.Header.Get("Accept-Ranges")), "bytes")
	d.validator = resp.Header.Get("ETag")
	if d.validator == "" || strings.HasPrefix(d.validator, "W/") {
		d.validator = resp.Header.Get("Last-Modified")
	}
	return nil
}

// copyBody writes the body to the file, checking as it goes.
func (d *downloadState) copyBody(resp *http.Response) error {
	buf := make([]byte, 64<<10)
	for {
		n, rerr := resp.Body.Read(buf)
		if n > 0 {
			if err := d.write(buf[:n]); err != nil {
				return err
			}
		}
		if rerr == io.EOF {
			if !d.checked && (d.total < 0 || d.written == d.total) {
				if err := d.checkHead(true); err != nil {
					return err
				}
			}
			break
		}
		if rerr != nil {
			if resp.StatusCode == http.StatusPartialContent {
				d.resumable = true
			}
			return &bodyReadError{err: rerr}
		}
	}
	if d.total >= 0 && d.written != d.total {
		return &bodyReadError{err: fmt.Errorf("got %d of %d bytes: %w", d.written, d.total, io.ErrUnexpectedEOF)}
	}
	return nil
}

// write appends p to the file: within the size cap, the beginning checked
// to read as CSV, no more than the announced length.
func (d *downloadState) write(p []byte) error {
	if d.written+int64(len(p)) > d.max {
		return d.tooLarge(-1)
	}
	if _, err := d.f.Write(p); err != nil {
		return fmt.Errorf("writing %s: %w", d.f.Name(), err)
	}
	d.written += int64(len(p))
	if !d.checked {
		d.head = append(d.head, p[:min(len(p), headLimit+1-len(d.head))]...)
		if bytes.IndexByte(d.head, '\n') >= 0 || len(d.head) > headLimit {
			if err := d.checkHead(false); err != nil {
				return err
			}
		}
	}
	if d.progress != nil {
		d.progress(d.written, d.total)
	}
	if d.total >= 0 && d.written > d.total {
		d.resumable = false
		if err := d.restart(); err != nil {
			return err
		}
		return &bodyReadError{err: errors.New("the server sent more bytes than announced")}
	}
	return nil
}

// parseContentRange reads "bytes START-END/TOTAL" (TOTAL may be "*": -1).
func parseContentRange(v string) (start, total int64, ok bool) {
	v = strings.TrimSpace(v)
	rest, found := strings.CutPrefix(v, "bytes ")
	if !found {
		return 0, -1, false
	}
	rng, tot, found := strings.Cut(rest, "/")
	if !found {
		return 0, -1, false
	}
	s, _, found := strings.Cut(rng, "-")
	if !found {
		return 0, -1, false
	}
	start, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || start < 0 {
		return 0, -1, false
	}
	total = -1
	if tot = strings.TrimSpace(tot); tot != "*" {
		total, err = strconv.ParseInt(tot, 10, 64)
		if err != nil || total < 0 {
			return 0, -1, false
		}
	}
	return start, total, true
}
