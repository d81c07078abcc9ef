package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strings"
	"time"
)

const (
	maxFieldBytes = 1 << 20 // a non-file form field (column_mapping, mode, ...)
	maxParts      = 100
)

// upload is a multipart request with its file part spooled to disk, so the
// form fields may come in any order and memory stays flat whatever the size.
type upload struct {
	filePath string // spooled file part; "" when there was none
	fileName string
	size     int64
	fields   map[string]string
	kept     bool // the file now belongs to a job: release leaves it
}

// errTooLarge marks an upload over max_upload_bytes: the caller answers 413
// at once and drains the rest of the body.
var errTooLarge = errors.New("too large")

// readUpload streams a multipart/form-data body. Known text fields are read
// (up to 1 MB each), unknown ones skipped, the "file" part copied to a
// temporary file while its size is checked.
func (s *Server) readUpload(r *http.Request, known ...string) (*upload, error) {
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || mt != "multipart/form-data" {
		return nil, validationErr(FieldError{Field: "Content-Type", Message: "the request must be multipart/form-data with a boundary"})
	}
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, validationErr(FieldError{Field: "body", Message: "malformed multipart body: " + err.Error()})
	}
	up := &upload{fields: map[string]string{}}
	isKnown := map[string]bool{}
	for _, k := range known {
		isKnown[k] = true
	}
	fail := func(e error) (*upload, error) {
		up.remove()
		return nil, e
	}
	for parts := 0; ; parts++ {
		if parts == maxParts {
			return fail(validationErr(FieldError{Field: "body", Message: fmt.Sprintf("too many form parts (more than %d)", maxParts)}))
		}
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fail(validationErr(FieldError{Field: "body", Message: "malformed multipart body: " + err.Error()}))
		}
		name := p.FormName()
		switch {
		case name == "file":
			if up.filePath != "" {
				p.Close()
				return fail(validationErr(FieldError{Field: "file", Message: "only one file may be uploaded per request"}))
			}
			f, err := os.CreateTemp(s.dir, "upload-*.csv")
			if err != nil {
				p.Close()
				return fail(fmt.Errorf("spooling the upload: %w", err))
			}
			up.filePath = f.Name()
			up.fileName = nameOf(p.FileName())
			n, err := io.Copy(f, io.LimitReader(p, s.cfg.MaxUploadBytes+1))
			cerr := f.Close()
			up.size = n
			if err != nil {
				return fail(validationErr(FieldError{Field: "file", Message: "reading the file part: " + err.Error()}))
			}
			if cerr != nil {
				return fail(fmt.Errorf("spooling the upload: %w", cerr))
			}
			if n > s.cfg.MaxUploadBytes {
				return fail(errTooLarge)
			}
		case isKnown[name]:
			if _, dup := up.fields[name]; dup {
				p.Close()
				return fail(validationErr(FieldError{Field: name, Message: "the field is given more than once"}))
			}
			b, err := io.ReadAll(io.LimitReader(p, maxFieldBytes+1))
			if err != nil {
				return fail(validationErr(FieldError{Field: name, Message: "reading the field: " + err.Error()}))
			}
			if len(b) > maxFieldBytes {
				return fail(validationErr(FieldError{Field: name, Message: "the field is larger than 1 MB"}))
			}
			up.fields[name] = string(b)
		default:
			if _, err := io.Copy(io.Discard, io.LimitReader(p, s.cfg.MaxUploadBytes+1)); err != nil {
				return fail(validationErr(FieldError{Field: "body", Message: "malformed multipart body: " + err.Error()}))
			}
		}
		p.Close()
	}
	return up, nil
}

// release removes the spooled file unless a job kept it.
func (u *upload) release() {
	if !u.kept {
		u.remove()
	}
}

func (u *upload) remove() {
	if u != nil && u.filePath != "" {
		os.Remove(u.filePath)
		u.filePath = ""
	}
}

// tooLarge answers 413 before the body is read to its end, then drains a
// bounded amount of what the client is still sending so that it can read the
// answer instead of seeing a reset connection.
func (s *Server) tooLarge(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	rc.EnableFullDuplex()
	w.Header().Set("Connection", "close")
	writePlain(w, http.StatusRequestEntityTooLarge,
		fmt.Sprintf("the file is larger than the upload limit of %d bytes", s.cfg.MaxUploadBytes), "PAYLOAD_TOO_LARGE")
	rc.Flush()
	rc.SetReadDeadline(time.Now().Add(30 * time.Second))
	io.CopyN(io.Discard, r.Body, 4*s.cfg.MaxUploadBytes+(1<<20))
}

// header is the first non-blank record of an uploaded file.
type fileHead struct {
	headers []string // trimmed
	index   map[string]int
}

// openCSV checks the spooled file and reads its header row. The returned
// scanner is positioned after the header.
func openCSV(path string) (*os.File, *csvScanner, *fileHead, *FieldError) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, &FieldError{Field: "file", Message: "the file could not be read"}
	}
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	if n == 0 {
		f.Close()
		return nil, nil, nil, &FieldError{Field: "file", Message: "the file is empty"}
	}
	if bytes.Equal(magic[:n], []byte("PK\x03\x04")) {
		f.Close()
		return nil, nil, nil, &FieldError{Field: "file", Message: "the file is an Excel workbook or a ZIP archive, not a CSV file"}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, nil, &FieldError{Field: "file", Message: "the file could not be read"}
	}
	sc := newCSVScanner(f)
	for sc.Next() {
		if sc.Blank() {
			continue
		}
		h := &fileHead{index: map[string]int{}}
		for i := 0; i < sc.Len(); i++ {
			name := strings.TrimSpace(string(sc.Field(i)))
			h.headers = append(h.headers, name)
			if _, dup := h.index[name]; !dup {
				h.index[name] = i
			}
		}
		return f, sc, h, nil
	}
	f.Close()
	if err := sc.Err(); err != nil {
		return nil, nil, nil, &FieldError{Field: "file", Message: err.Error()}
	}
	return nil, nil, nil, &FieldError{Field: "file", Message: "the file has no header row (it holds only blank lines)"}
}

// col is the index of a header, -1 when absent.
func (h *fileHead) col(name string) int {
	if i, ok := h.index[strings.TrimSpace(name)]; ok {
		return i
	}
	return -1
}
