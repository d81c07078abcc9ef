package library

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
)

// scanner splits a CSV stream (RFC 4180: quoted fields may hold commas,
// quotes doubled, line breaks) into records without parsing them: a record
// ends at a line break outside quotes. A quote opens a quoted field only at
// the start of a field, as parseRecord reads it: a stray quote inside an
// unquoted field (JOHN "JACK" SMITH written without quoting) is a
// character, and must not join the next line to this record. It reports
// where each record starts, so the reader's index, the search and the sort
// all number rows the same way.
type scanner struct {
	br   *bufio.Reader
	off  int64 // offset of the next unread byte
	buf  []byte
	line int // physical lines consumed

	// Quote state within the record being read.
	inQuote bool // inside a quoted field
	closing bool // inside a quoted field, the last byte read was a quote (closing, or the first of a pair)
	prev    byte // the byte before the next one: ',' or '\n' at a field start

	// unclosed is the 1-based line where a record starts whose quoted field
	// is never closed (it runs to the end of the file); 0 when none.
	unclosed int
}

func newScanner(r io.Reader, off int64) *scanner {
	return &scanner{br: bufio.NewReaderSize(r, 1<<20), off: off}
}

// quotes follows the quote state over a chunk of the current record.
func (s *scanner) quotes(chunk []byte) {
	i := 0
	if s.closing && len(chunk) > 0 {
		s.closing = false
		if chunk[0] == '"' { // a doubled quote: still inside
			i = 1
		} else {
			s.inQuote = false
		}
	}
	for i < len(chunk) {
		k := bytes.IndexByte(chunk[i:], '"')
		if k < 0 {
			break
		}
		i += k
		if s.inQuote {
			if i+1 == len(chunk) {
				s.closing = true // decided by the next chunk's first byte
				break
			}
			if chunk[i+1] == '"' {
				i += 2
				continue
			}
			s.inQuote = false
			i++
			// The common `","`: the next quoted field opens at once.
			if i+1 < len(chunk) && chunk[i] == ',' && chunk[i+1] == '"' {
				s.inQuote = true
				i += 2
			}
			continue
		}
		p := s.prev
		if i > 0 {
			p = chunk[i-1]
		}
		if p == ',' || p == '\n' {
			s.inQuote = true
		}
		i++
	}
	if len(chunk) > 0 {
		s.prev = chunk[len(chunk)-1]
	}
}

// next returns the next record's start offset and bytes (with its line
// break). The bytes are valid until the next call. io.EOF at the end.
func (s *scanner) next() (int64, []byte, error) {
	start, firstLine := s.off, s.line+1
	s.buf = s.buf[:0]
	s.inQuote, s.closing, s.prev = false, false, '\n'
	for {
		chunk, err := s.br.ReadSlice('\n')
		s.off += int64(len(chunk))
		if s.inQuote || bytes.IndexByte(chunk, '"') >= 0 {
			s.quotes(chunk)
		} else if len(chunk) > 0 {
			s.prev = chunk[len(chunk)-1]
		}
		if err == bufio.ErrBufferFull {
			if s.buf = append(s.buf, chunk...); len(s.buf) > input.MaxRecordBytes {
				return start, nil, &TooLongError{Line: firstLine, Quoted: s.inQuote}
			}
			continue
		}
		if len(chunk) > 0 && chunk[len(chunk)-1] == '\n' {
			s.line++
		}
		if err != nil && err != io.EOF {
			return start, nil, err
		}
		var rec []byte
		if len(s.buf) > 0 {
			if s.buf = append(s.buf, chunk...); len(s.buf) > input.MaxRecordBytes {
				return start, nil, &TooLongError{Line: firstLine, Quoted: s.inQuote}
			}
			rec = s.buf
		} else {
			rec = chunk
		}
		if err == io.EOF {
			if len(rec) == 0 {
				return start, nil, io.EOF
			}
			if s.inQuote && !s.closing && s.unclosed == 0 {
				s.unclosed = firstLine
			}
			return start, rec, nil // last record without a line break (or an open quote)
		}
		if !s.inQuote {
			return start, rec, nil
		}
		if len(s.buf) == 0 {
			s.buf = append(s.buf, chunk...)
		}
	}
}

// ErrTooLong is matched by a *TooLongError.
var ErrTooLong = errors.New("past the limits of a list")

// TooLongError: a record or a row past the limits every reader of a file
// SkipDesk did not write keeps (input.MaxRecordBytes, input.MaxFields), as
// the import does. Such a file is not a result, and reading on would hold
// it whole in memory.
type TooLongError struct {
	Line   int  // 1-based line where the record starts
	Quoted bool // a quoted value opened there is not closed within the limit
	Fields int  // a row with more fields than input.MaxFields; 0 for a record too long
}

func (e *TooLongError) Error() string {
	switch {
	case e.Fields > 0:
		return fmt.Sprintf("line %d has %s fields, more than the %s columns a spreadsheet can hold: this is not a result",
			e.Line, jobs.Thousands(int64(e.Fields)), jobs.Thousands(input.MaxFields))
	case e.Quoted:
		return fmt.Sprintf("a quoted value opened on line %d is not closed within %d MB: this is not a result (the file is damaged)",
			e.Line, input.MaxRecordBytes>>20)
	}
	return fmt.Sprintf("line %d is longer than %d MB: this is not a result", e.Line, input.MaxRecordBytes>>20)
}

func (e *TooLongError) Is(target error) bool { return target == ErrTooLong }

// blankRecord reports whether a record has only blank fields (CONTRACT §1:
// such records are not rows).
func blankRecord(rec []byte) bool {
	parse := false
	for _, c := range rec {
		switch c {
		case ' ', '\t', '\r', '\n', ',', '\v', '\f':
		case '"':
			parse = true
		default:
			if c < utf8.RuneSelf {
				return false
			}
			parse = true // maybe Unicode white space (a no-break space)
		}
	}
	if !parse {
		return true
	}
	// Read as the rows are: bytes that are not UTF-8 as Windows-1252, where
	// 0xA0 alone is a no-break space.
	for _, f := range parseRecord(rec, nil) {
		if strings.TrimSpace(input.FixText(f)) != "" {
			return false
		}
	}
	return true
}

var errNoHeader = errors.New("no header row")

// parseRecord splits the first record of rec into fields, appending to
// dst[:0]; it stops at the first line break outside quotes (what follows,
// such as blank records, is ignored). Unquoted fields share one string
// allocation for the record. Lenient: a stray quote inside an unquoted field
// is kept as is; an unterminated quote runs to the end.
func parseRecord(rec []byte, dst []string) []string {
	dst = dst[:0]
	whole := string(rec)
	// fieldEnd finds the end of an unquoted stretch from i: the index of
	// the comma or line break, and whether the record ends there.
	fieldEnd := func(i int) (int, bool) {
		for k := i; k < len(rec); k++ {
			switch rec[k] {
			case ',':
				return k, false
			case '\n':
				return k, true
			}
		}
		return len(rec), true
	}
	trimCR := func(s string) string {
		if len(s) > 0 && s[len(s)-1] == '\r' {
			return s[:len(s)-1]
		}
		return s
	}
	i := 0
	for {
		if i < len(rec) && rec[i] == '"' {
			var b []byte
			j := i + 1
			simple := true
			startQ := j
			for j < len(rec) {
				if rec[j] == '"' {
					if j+1 < len(rec) && rec[j+1] == '"' {
						if simple {
							b = append(b, rec[startQ:j+1]...)
							simple = false
						} else {
							b = append(b, '"')
						}
						j += 2
						continue
					}
					break
				}
				if !simple {
					b = append(b, rec[j])
				}
				j++
			}
			var field string
			if simple {
				field = whole[startQ:min(j, len(rec))]
			} else {
				field = string(b)
			}
			j = min(j+1, len(rec)) // past the closing quote
			k, last := fieldEnd(j)
			if j < k {
				field += trimCR(whole[j:k]) // text after the closing quote is kept
			}
			dst = append(dst, field)
			if last {
				return dst
			}
			i = k + 1
			continue
		}
		k, last := fieldEnd(i)
		if last {
			return append(dst, trimCR(whole[i:k]))
		}
		dst = append(dst, whole[i:k])
		i = k + 1
	}
}
