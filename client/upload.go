package client

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/textproto"
	"os"
	"strings"

	"github.com/skipdesk/skipdesk/jobs"
)

// multipartFile is a multipart/form-data body made of a few small fields and
// one file, streamed from disk: the envelope before and after the file is
// built once, so the length is known (no chunked encoding) and memory stays
// flat whatever the file size. Each attempt opens the file again.
type multipartFile struct {
	path     string
	size     int64
	boundary string
	prefix   []byte // fields, then the file part's header
	trailer  []byte // closing boundary
	progress func(sent, total int64)
}

func newMultipartFile(path, fileName string, fields [][2]string, progress func(sent, total int64)) (*multipartFile, error) {
	if path == "" {
		return nil, errors.New("no file given")
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if st.Size() > MaxUploadBytes {
		return nil, fmt.Errorf("%w: %s is %s; the service accepts files of at most %s",
			ErrTooLarge, path, jobs.Bytes(st.Size()), jobs.Bytes(MaxUploadBytes))
	}
	m := &multipartFile{path: path, size: st.Size(), progress: progress}
	if m.boundary, m.prefix, m.trailer, err = envelope(fileName, fields); err != nil {
		return nil, err
	}
	return m, nil
}

// envelope is what a multipart/form-data body of fields and one file holds
// around the file's bytes: the fields and the file part's header before,
// the closing boundary after.
func envelope(fileName string, fields [][2]string) (boundary string, prefix, trailer []byte, err error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range fields {
		if err := w.WriteField(f[0], f[1]); err != nil {
			return "", nil, nil, err
		}
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename="%s"`, quoteEscaper.Replace(fileName)))
	h.Set("Content-Type", "text/csv")
	if _, err := w.CreatePart(h); err != nil {
		return "", nil, nil, err
	}
	prefix = bytes.Clone(buf.Bytes())
	buf.Reset()
	if err := w.Close(); err != nil {
		return "", nil, nil, err
	}
	return w.Boundary(), prefix, bytes.Clone(buf.Bytes()), nil
}

// heldRequest is the body of an upload whose file is written while it is
// sent (HeldFile): no length, sent once.
func heldRequest(h *HeldFile, fileName string, fields [][2]string, progress func(sent, total int64)) (
	contentType string, body func() (io.ReadCloser, int64, error), err error) {
	boundary, prefix, trailer, err := envelope(fileName, fields)
	if err != nil {
		return "", nil, err
	}
	body = func() (io.ReadCloser, int64, error) {
		if !h.take() {
			return nil, 0, errors.New("the upload was written while it was sent and cannot be sent again")
		}
		r := io.MultiReader(bytes.NewReader(prefix), heldReader{h}, bytes.NewReader(trailer))
		envelope := int64(len(prefix) + len(trailer))
		return &progressBody{r: r, progress: progress, close: func() error { h.put(); return nil },
			total: func(sent int64) int64 { return h.total(envelope, sent) }}, -1, nil
	}
	return "multipart/form-data; boundary=" + boundary, body, nil
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", " ", "\n", " ")

func (m *multipartFile) contentType() string { return "multipart/form-data; boundary=" + m.boundary }

func (m *multipartFile) length() int64 { return int64(len(m.prefix)) + m.size + int64(len(m.trailer)) }

// open returns a fresh body for one attempt.
func (m *multipartFile) open() (io.ReadCloser, int64, error) {
	f, err := os.Open(m.path)
	if err != nil {
		return nil, 0, fmt.Errorf("reading %s: %w", m.path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("reading %s: %w", m.path, err)
	}
	if st.Size() != m.size {
		f.Close()
		return nil, 0, fmt.Errorf("%s changed size while being sent (%d bytes, then %d)", m.path, m.size, st.Size())
	}
	total := m.length()
	body := &progressBody{
		r:        io.MultiReader(bytes.NewReader(m.prefix), &exactReader{f: f, left: m.size, path: m.path}, bytes.NewReader(m.trailer)),
		close:    f.Close,
		total:    func(int64) int64 { return total },
		progress: m.progress,
	}
	return body, total, nil
}

// progressBody is an upload's request body: it reports progress as the
// transport reads (total: the size known once sent bytes were read).
type progressBody struct {
	r        io.Reader
	sent     int64
	total    func(sent int64) int64
	progress func(sent, total int64)
	close    func() error
}

func (b *progressBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if n > 0 {
		b.sent += int64(n)
		if b.progress != nil {
			b.progress(b.sent, b.total(b.sent))
		}
	}
	return n, err
}

func (b *progressBody) Close() error { return b.close() }

// exactReader reads exactly left bytes of f and fails if the file is shorter
// (it shrank after the size was taken).
type exactReader struct {
	f    *os.File
	left int64
	path string
}

func (r *exactReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n, err := r.f.Read(p)
	r.left -= int64(n)
	if err == io.EOF {
		if r.left > 0 {
			return n, fmt.Errorf("%s shrank while being sent", r.path)
		}
		err = nil
	}
	return n, err
}
