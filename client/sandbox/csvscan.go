package sandbox

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"unicode/utf8"
)

// csvScanner reads RFC 4180 records without allocating per record: the
// fields of the current record live in one reused buffer. It is lenient the
// way spreadsheet exports need: a quote inside an unquoted field is kept as
// is, CRLF and LF both end a record, a UTF-8 byte order mark is skipped. It
// is strict where data would be lost: a quoted field left open at the end of
// the file, invalid UTF-8 and NUL bytes are errors naming the line.
type csvScanner struct {
	r        *bufio.Reader
	buf      []byte
	ends     []int
	line     int // physical line where the current record starts
	nextLine int
	err      error
	started  bool
}

// Limits of one record: a file without line breaks (or with a delimiter
// other than the comma and one enormous quoted field) would otherwise be
// held whole in memory. 16,384 is Excel's column limit; 1 MB is far above
// any real row of an owner or phone list.
const (
	maxRecordBytes  = 1 << 20
	maxRecordFields = 16384
)

// tooLong stops the scan when the current record is over the limits.
func (s *csvScanner) tooLong() bool {
	switch {
	case len(s.buf) > maxRecordBytes:
		s.err = &csvError{s.line, "a record (row) is longer than 1 MB: is the file a CSV with one row per line?"}
	case len(s.ends) > maxRecordFields:
		s.err = &csvError{s.line, fmt.Sprintf("a record (row) has more than %d fields (columns)", maxRecordFields)}
	default:
		return false
	}
	return true
}

func newCSVScanner(r io.Reader) *csvScanner {
	return &csvScanner{r: bufio.NewReaderSize(r, 64<<10), nextLine: 1}
}

// csvError is a problem in the uploaded file.
type csvError struct {
	line int
	msg  string
}

func (e *csvError) Error() string { return fmt.Sprintf("line %d: %s", e.line, e.msg) }

// Next reads the next record; false at the end or on error (see Err).
func (s *csvScanner) Next() bool {
	if s.err != nil {
		return false
	}
	if !s.started {
		s.started = true
		if b, err := s.r.Peek(3); err == nil && bytes.Equal(b, []byte{0xEF, 0xBB, 0xBF}) {
			s.r.Discard(3)
		}
	}
	s.buf = s.buf[:0]
	s.ends = s.ends[:0]
	s.line = s.nextLine
	c, err := s.r.ReadByte()
	if err != nil {
		if err != io.EOF {
			s.err = err
		}
		return false
	}
	for {
		// c is the first byte of a field.
		if c == '"' {
			closed := false
			for {
				c, err = s.r.ReadByte()
				if err != nil {
					break
				}
				if c == '"' {
					n, err2 := s.r.ReadByte()
					if err2 != nil {
						closed = true
						err = err2
						break
					}
					if n == '"' {
						s.buf = append(s.buf, '"')
						continue
					}
					if n == ',' || n == '\n' || n == '\r' {
						closed = true
						c = n
						break
					}
					// A stray quote inside a quoted field: keep it.
					s.buf = append(s.buf, '"', n)
					if n == '\n' {
						s.nextLine++
					}
					continue
				}
				if c == '\n' {
					s.nextLine++
				}
				s.buf = append(s.buf, c)
				if len(s.buf) > maxRecordBytes && s.tooLong() {
					return false
				}
			}
			if !closed {
				if err == io.EOF {
					s.err = &csvError{s.line, "a quoted field is never closed (missing closing \")"}
				} else {
					s.err = err
				}
				return false
			}
		} else if c != ',' && c != '\n' && c != '\r' {
			// An unquoted field: copy buffered bytes up to the next delimiter
			// in one step rather than byte by byte.
			s.buf = append(s.buf, c)
			for {
				chunk, perr := s.peek()
				if perr != nil {
					err = perr
					break
				}
				i := indexDelim(chunk)
				if i < 0 {
					s.buf = append(s.buf, chunk...)
					s.r.Discard(len(chunk))
					if s.tooLong() {
						return false
					}
					continue
				}
				s.buf = append(s.buf, chunk[:i]...)
				c = chunk[i]
				s.r.Discard(i + 1)
				break
			}
		}
		s.ends = append(s.ends, len(s.buf))
		if (len(s.ends) > maxRecordFields || len(s.buf) > maxRecordBytes) && s.tooLong() {
			return false
		}
		if err != nil { // end of file ends the record
			if err != io.EOF {
				s.err = err
				return false
			}
			break
		}
		if c == '\r' {
			if n, err2 := s.r.ReadByte(); err2 == nil && n != '\n' {
				s.r.UnreadByte()
			}
			c = '\n'
		}
		if c == '\n' {
			s.nextLine++
			break
		}
		// c == ',': the next field; an empty last field when the file ends.
		c, err = s.r.ReadByte()
		if err != nil {
			if err != io.EOF {
				s.err = err
				return false
			}
			s.ends = append(s.ends, len(s.buf))
			break
		}
		if c == '\n' || c == '\r' {
			s.ends = append(s.ends, len(s.buf))
			if c == '\r' {
				if n, err2 := s.r.ReadByte(); err2 == nil && n != '\n' {
					s.r.UnreadByte()
				}
			}
			s.nextLine++
			break
		}
	}
	if bytes.IndexByte(s.buf, 0) >= 0 {
		s.err = &csvError{s.line, "the file contains NUL bytes: it is not a text CSV file"}
		return false
	}
	if !utf8.Valid(s.buf) {
		s.err = &csvError{s.line, "the text is not valid UTF-8 (convert the file to UTF-8)"}
		return false
	}
	return true
}

// peek returns the buffered bytes, filling the buffer when it is empty.
func (s *csvScanner) peek() ([]byte, error) {
	if s.r.Buffered() == 0 {
		if _, err := s.r.Peek(1); err != nil {
			return nil, err
		}
	}
	return s.r.Peek(s.r.Buffered())
}

// Err is the error that stopped Next, nil at a clean end of file.
func (s *csvScanner) Err() error { return s.err }

// Line is the physical line number where the current record starts.
func (s *csvScanner) Line() int { return s.line }

// Len is the number of fields of the current record.
func (s *csvScanner) Len() int { return len(s.ends) }

// Field is field i of the current record; empty when i is out of range
// (short rows are padded). Valid until the next call to Next.
func (s *csvScanner) Field(i int) []byte {
	if i < 0 || i >= len(s.ends) {
		return nil
	}
	start := 0
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.buf[start:s.ends[i]]
}

// Blank reports whether every field of the record is empty after trimming
// spaces (such records are not data rows).
func (s *csvScanner) Blank() bool {
	// The fields are concatenated: all are blank exactly when the whole
	// buffer is white space.
	return len(bytes.TrimSpace(s.buf)) == 0
}

// indexDelim is the index of the first ',', '\r' or '\n' in b, or -1.
func indexDelim(b []byte) int {
	for i, c := range b {
		if c == ',' || c == '\n' || c == '\r' {
			return i
		}
	}
	return -1
}
