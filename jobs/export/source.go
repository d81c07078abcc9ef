package export

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/skipdesk/skipdesk/jobs/library"
)

// source yields a result's rows in the order to export.
type source interface {
	Headers() []string
	// Next returns the next row and its 1-based data row number in the file.
	Next() ([]string, int, error)
	Total() int // rows to export; -1 when unknown until the end
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

// csvSource streams a CSV file in file order, skipping blank records.
type csvSource struct {
	path    string
	f       *os.File
	cr      *csv.Reader
	headers []string
	row     int
}

func openCSVSource(path string) (*csvSource, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	cr := csv.NewReader(bufio.NewReaderSize(f, 1<<20))
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	cr.LazyQuotes = true // as lenient as the library's reader
	s := &csvSource{path: path, f: f, cr: cr}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			f.Close()
			return nil, fmt.Errorf("export: %s: no header row", path)
		}
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("export: %s: %w", path, err)
		}
		if blank(rec) {
			continue
		}
		s.headers = append([]string(nil), rec...)
		s.headers[0] = strings.TrimPrefix(s.headers[0], "\ufeff")
		return s, nil
	}
}

func (s *csvSource) Headers() []string { return s.headers }
func (s *csvSource) Total() int        { return -1 }
func (s *csvSource) Close() error      { return s.f.Close() }

func (s *csvSource) Next() ([]string, int, error) {
	for {
		rec, err := s.cr.Read()
		if err != nil {
			if err == io.EOF {
				return nil, 0, io.EOF
			}
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, 0, fmt.Errorf("export: %s: line %d: %v", s.path, pe.Line, pe.Err)
			}
			return nil, 0, fmt.Errorf("export: %s: %w", s.path, err)
		}
		if blank(rec) {
			continue
		}
		s.row++
		return rec, s.row, nil
	}
}

func blank(rec []string) bool {
	for _, f := range rec {
		if strings.TrimSpace(f) != "" {
			return false
		}
	}
	return true
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
