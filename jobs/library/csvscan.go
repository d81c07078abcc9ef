package library

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"
)

// scanner splits a CSV stream (RFC 4180: quoted fields may hold commas,
// quotes doubled, line breaks) into records without parsing them: a record
// ends at a line break outside quotes, which a running count of quote
// characters tells. It reports where each record starts, so the reader's
// index, the search and the sort all number rows the same way.
type scanner struct {
	br   *bufio.Reader
	off  int64 // offset of the next unread byte
	buf  []byte
	line int // physical lines consumed
}

func newScanner(r io.Reader, off int64) *scanner {
	return &scanner{br: bufio.NewReaderSize(r, 1<<20), off: off}
}

// next returns the next record's start offset and bytes (with its line
// break). The bytes are valid until the next call. io.EOF at the end.
func (s *scanner) next() (int64, []byte, error) {
	start := s.off
	s.buf = s.buf[:0]
	quotes := 0
	for {
		chunk, err := s.br.ReadSlice('\n')
		s.off += int64(len(chunk))
		quotes += bytes.Count(chunk, []byte{'"'})
		if err == bufio.ErrBufferFull {
			s.buf = append(s.buf, chunk...)
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
			s.buf = append(s.buf, chunk...)
			rec = s.buf
		} else {
			rec = chunk
		}
		if err == io.EOF {
			if len(rec) == 0 {
				return start, nil, io.EOF
			}
			return start, rec, nil // last record without a line break (or an open quote)
		}
		if quotes%2 == 0 {
			return start, rec, nil
		}
		if len(s.buf) == 0 {
			s.buf = append(s.buf, chunk...)
		}
	}
}

// blankRecord reports whether a record has only blank fields (CONTRACT §1:
// such records are not rows).
func blankRecord(rec []byte) bool {
	quoted := false
	for _, c := range rec {
		switch c {
		case ' ', '\t', '\r', '\n', ',':
		case '"':
			quoted = true
		default:
			return false
		}
	}
	if !quoted {
		return true
	}
	for _, f := range parseRecord(rec, nil) {
		if strings.TrimSpace(f) != "" {
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
