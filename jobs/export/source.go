package export

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"

	"github.com/skipdesk/skipdesk/jobs/library"
)

// source yields a result's rows in the order to export.
type source interface {
	Headers() []string
	// Next returns the next row and its 1-based data row number in the file.
	Next() ([]string, int, error)
	Total() int // rows to export; -1 when unknown until the end
	// Warnings are the damage met in the file (a quoted value never
	// closed): complete once Next has returned io.EOF.
	Warnings() []string
	Close() error
}

func openSource(path string, rows []int) (source, error) {
	if rows != nil {
		r, err := library.OpenResult(path)
		if err != nil {
			return nil, err
		}
		return &permSource{r: r, rows: rows}, nil
	}
	return openCSVSource(path)
}

// csvSource streams a result in file order, its rows read as the library's
// viewer reads them (library.RowReader), blank records skipped.
type csvSource struct {
	path string
	f    *os.File
	rr   *library.RowReader
	hash hash.Hash // the bytes read, when asked; nil otherwise
	sum  string    // their SHA-256 once the last row is read
}

func openCSVSource(path string) (*csvSource, error) { return openCSVSourceHashed(path, false) }

// openCSVSourceHashed opens a result to stream; with hashed, the SHA-256 of
// the file is taken as it is read (sum, once every row is read).
func openCSVSourceHashed(path string, hashed bool) (*csvSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	s := &csvSource{path: path, f: f}
	var r io.Reader = f
	if hashed {
		s.hash = sha256.New()
		r = io.TeeReader(f, s.hash)
	}
	if s.rr, err = library.NewRowReader(r); err != nil {
		f.Close()
		return nil, fmt.Errorf("export: %s: %w", path, err)
	}
	return s, nil
}

// sourceSum is the SHA-256 of the file a source read whole, in order; ""
// when it did not (chosen rows, or not to its end).
func sourceSum(s source) string {
	if c, ok := s.(*csvSource); ok {
		return c.sum
	}
	return ""
}

func (s *csvSource) Headers() []string { return s.rr.Headers() }
func (s *csvSource) Total() int        { return -1 }
func (s *csvSource) Close() error      { return s.f.Close() }

// Warnings are the damage met in the file so far (complete after the last
// row).
func (s *csvSource) Warnings() []string { return s.rr.Warnings() }

func (s *csvSource) Next() ([]string, int, error) {
	rec, err := s.rr.Next()
	if err == io.EOF {
		if s.hash != nil && s.sum == "" {
			// The reader stops at the end of the file: every byte is in.
			s.sum = hex.EncodeToString(s.hash.Sum(nil))
		}
		return nil, 0, io.EOF
	}
	if err != nil {
		return nil, 0, fmt.Errorf("export: %s: %w", s.path, err)
	}
	return rec, s.rr.Row(), nil
}

// permSource reads chosen rows through the library's indexed reader.
type permSource struct {
	r    *library.Result
	rows []int
	next int
	buf  [][]string
	bufN []int
}

func (s *permSource) Headers() []string { return s.r.Headers() }
func (s *permSource) Total() int        { return len(s.rows) }
func (s *permSource) Close() error      { return s.r.Close() }

// Warnings are the damage the reader met in the file.
func (s *permSource) Warnings() []string { return s.r.Warnings() }

func (s *permSource) Next() ([]string, int, error) {
	if len(s.buf) == 0 {
		if s.next >= len(s.rows) {
			return nil, 0, io.EOF
		}
		end := min(s.next+4096, len(s.rows))
		rows, err := s.r.ReadRows(s.rows[s.next:end])
		if err != nil {
			return nil, 0, fmt.Errorf("export: %w", err)
		}
		s.buf, s.bufN = rows, s.rows[s.next:end]
		s.next = end
	}
	rec, n := s.buf[0], s.bufN[0]
	s.buf, s.bufN = s.buf[1:], s.bufN[1:]
	return rec, n + 1, nil
}
