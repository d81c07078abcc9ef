package input

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
)

// maxRecord bounds the bytes of one record (one line, or several when a
// quoted field holds line breaks). It keeps memory bounded on a file with no
// line ends or an unmatched quote.
const maxRecord = 1 << 20

var errRecordTooLong = errors.New("record too long")

// scanner splits UTF-8 text into CSV records. It is written for speed: the
// common record (one line, no quotes) is split with bytes.IndexByte and its
// fields point into the read buffer; only records with quotes or NUL bytes
// are copied. Quotes are read tolerantly (like encoding/csv's LazyQuotes):
// a quote inside an unquoted field is text, text after a closing quote is
// kept, and an opening quote that is never closed is read as text on its
// own line; each case is counted for a warning.
type scanner struct {
	r        io.Reader
	buf      []byte
	pos, end int // unread data is buf[pos:end]
	eof      bool
	rerr     error // read error other than io.EOF

	delim  byte
	crOnly bool // lines end with a bare CR (old Mac export)
	// skipLF: the last record ended with a CR at the end of the buffer in
	// a bare-CR file; an LF starting the next read completes a CR LF.
	skipLF bool

	line    int    // physical line of buf[pos]
	recLine int    // physical line where the last record started
	span    []byte // the bytes every field of the last record points into
	plain   bool   // the last record is span split at the delimiter (no quotes)
	read    int64  // bytes of text consumed
	records int    // records returned
	fields  [][]byte
	rec     []byte // unquoted copy of a slow-path record
	ends    []int  // field ends in rec

	// Counts for warnings, each with the first line concerned.
	strayQuotes, strayQuoteLine int
	unclosed, unclosedLine      int
	multiline, multilineLine    int
	nuls, nulLine               int
	// otherEnds counts line ends of the other kind: a bare CR in a file of
	// LF (or CR LF) lines, a bare LF in a file of CR lines. Both end a
	// record, as they do for Excel and for the provider's reader.
	otherEnds, otherEndsLine int
}

func newScanner(r io.Reader) *scanner {
	return &scanner{r: r, buf: make([]byte, 256<<10), line: 1, delim: ','}
}

// prefix fills the buffer and returns its content, for sniffing.
func (s *scanner) prefix() ([]byte, error) {
	for s.end < len(s.buf) && !s.eof {
		if err := s.fill(); err != nil {
			return nil, err
		}
	}
	return s.buf[s.pos:s.end], s.rerr
}

// fill reads more data, keeping buf[pos:end] (shifted to the front) and
// growing the buffer up to maxRecord when it is full.
func (s *scanner) fill() error {
	if s.eof {
		return nil
	}
	if s.pos > 0 && s.end == len(s.buf) {
		copy(s.buf, s.buf[s.pos:s.end])
		s.end -= s.pos
		s.pos = 0
	}
	if s.end == len(s.buf) {
		if len(s.buf) >= maxRecord+1 {
			return errRecordTooLong
		}
		nb := make([]byte, min(2*len(s.buf), maxRecord+1))
		copy(nb, s.buf[:s.end])
		s.buf = nb
	}
	for range 100 {
		n, err := s.r.Read(s.buf[s.end:])
		s.end += n
		if err != nil {
			s.eof = true
			if err != io.EOF {
				s.rerr = err
			}
			return nil
		}
		if n > 0 {
			return nil
		}
	}
	return io.ErrNoProgress
}

func (s *scanner) eol() byte {
	if s.crOnly {
		return '\r'
	}
	return '\n'
}

// otherEOL is the line end byte that is not eol: found inside a line, it
// sends the line to the slow path, which ends the record there.
func (s *scanner) otherEOL() byte {
	if s.crOnly {
		return '\n'
	}
	return '\r'
}

func (s *scanner) noteOtherEnd(line int) {
	s.otherEnds++
	if s.otherEndsLine == 0 {
		s.otherEndsLine = line
	}
}

// next returns the fields of the next record, valid until the following
// call, or io.EOF. A blank line is a record of one empty field.
func (s *scanner) next() ([][]byte, error) {
	// searched is how much of buf[pos:end] is known to hold no line end, so
	// that a long line read in several fills is not searched again from
	// its start after each.
	searched := 0
	for {
		if s.pos == s.end {
			if s.eof {
				if s.rerr != nil {
					return nil, s.rerr
				}
				return nil, io.EOF
			}
			if err := s.fill(); err != nil {
				return nil, err
			}
			continue
		}
		if s.skipLF {
			s.skipLF = false
			if s.buf[s.pos] == '\n' {
				s.pos++
				s.read++
				continue
			}
		}
		data := s.buf[s.pos:s.end]
		i := bytes.IndexByte(data[searched:], s.eol())
		if i >= 0 {
			i += searched
		} else if !s.eof {
			searched = len(data)
			if err := s.fill(); err != nil {
				return nil, err
			}
			continue
		}
		next := i + 1 // start of the next line, relative to pos
		if i < 0 {
			i, next = len(data), len(data)
		}
		line := data[:i]
		if !s.crOnly && len(line) > 0 && line[len(line)-1] == '\r' {
			line = line[:len(line)-1]
		}
		f, special := splitLine(s.fields[:0], line, s.delim, s.otherEOL())
		s.fields = f
		if special {
			return s.slow()
		}
		s.recLine = s.line
		s.line++
		s.pos += next
		s.read += int64(next)
		s.records++
		s.span = line
		s.plain = true
		if s.crOnly && i < len(data) {
			// CR LF in a file that started with bare CRs: the LF may
			// still be unread.
			if s.pos < s.end {
				if s.buf[s.pos] == '\n' {
					s.pos++
					s.read++
				}
			} else {
				s.skipLF = true
			}
		}
		return s.fields, nil
	}
}

// slow parses the record at pos that has quotes or NUL bytes, copying its
// fields into rec.
func (s *scanner) slow() ([][]byte, error) {
	nuls, nulLine := s.nuls, s.nulLine
	n, lines, ok, err := s.parse(false)
	if err != nil {
		return nil, err
	}
	if !ok {
		// An opening quote never closed (or closed only by what looks like
		// the opening quote of a later field): read the line with its
		// quotes as text, forgetting what the failed attempt counted.
		s.nuls, s.nulLine = nuls, nulLine
		s.unclosed++
		if s.unclosedLine == 0 {
			s.unclosedLine = s.line
		}
		n, lines, _, err = s.parse(true)
		if err != nil {
			return nil, err
		}
	}
	s.recLine = s.line
	s.line += lines
	s.pos += n
	s.read += int64(n)
	s.records++
	s.span = s.rec
	s.plain = false
	f := s.fields[:0]
	start := 0
	for _, e := range s.ends {
		f = append(f, s.rec[start:e])
		start = e
	}
	s.fields = f
	return f, nil
}

// parse reads one record at pos into rec/ends. It returns the bytes
// consumed and the line ends inside them (including the final one). ok is
// false when a quoted field is not closed properly (at the end of the file,
// beyond maxRecord, or a field spanning lines followed by stray text); with
// literal set, quotes are ordinary text and the record is one line.
func (s *scanner) parse(literal bool) (consumed, lines int, ok bool, err error) {
	s.rec = s.rec[:0]
	s.ends = s.ends[:0]
	j := 0 // offset from pos
	stray := 0
	multiline := false
	fieldStart := true
	inQuotes := false
	quotedLines := 0
	for {
		if s.pos+j >= s.end {
			if !s.eof {
				if err := s.fill(); err != nil {
					if errors.Is(err, errRecordTooLong) && inQuotes {
						return 0, 0, false, nil
					}
					return 0, 0, false, err
				}
				continue
			}
			// End of file.
			if inQuotes {
				return 0, 0, false, nil
			}
			s.ends = append(s.ends, len(s.rec))
			s.noteStray(stray, multiline)
			return j, lines, true, nil
		}
		// Copy runs of ordinary bytes at once: inside quotes up to the
		// next quote, outside up to the next delimiter or quote; line
		// breaks and NUL bytes go byte by byte below.
		rest := s.buf[s.pos+j : s.end]
		n := 0
		if inQuotes {
			// One pass up to the next quote or control byte: searching
			// for the quote first and then for line breaks before it would
			// scan the rest of a long field again after every line break.
			for n < len(rest) && rest[n] != '"' && rest[n] > '\r' {
				n++
			}
		} else {
			for n < len(rest) {
				c := rest[n]
				if c == s.delim || c == '"' && !literal || c <= '\r' {
					break
				}
				n++
			}
			if n > 0 {
				fieldStart = false
			}
		}
		if n > 0 {
			s.rec = append(s.rec, rest[:n]...)
			j += n
			continue
		}
		c := s.buf[s.pos+j]
		j++
		if c == 0 {
			s.nuls++
			if s.nulLine == 0 {
				s.nulLine = s.line + lines
			}
			continue
		}
		if inQuotes {
			switch c {
			case '"':
				if s.pos+j >= s.end && !s.eof {
					j-- // need the next byte to decide
					if err := s.fill(); err != nil {
						if errors.Is(err, errRecordTooLong) {
							return 0, 0, false, nil
						}
						return 0, 0, false, err
					}
					continue
				}
				if s.pos+j < s.end && s.buf[s.pos+j] == '"' {
					s.rec = append(s.rec, '"')
					j++
					continue
				}
				// The closing quote. Spaces or tabs may follow it before
				// the delimiter or the line end (`"c" ` from a hand-edited
				// file): kept as text, and no sign of a stray quote. In a
				// file of tab-separated fields a tab is the delimiter.
				k := s.pos + j
				for k < s.end && (s.buf[k] == ' ' || s.buf[k] == '\t' && s.delim != '\t') {
					k++
				}
				if k == s.end && !s.eof {
					j-- // need what follows the spaces to decide
					if err := s.fill(); err != nil {
						if errors.Is(err, errRecordTooLong) {
							return 0, 0, false, nil
						}
						return 0, 0, false, err
					}
					continue
				}
				inQuotes = false
				if k < s.end {
					if d := s.buf[k]; d != s.delim && d != '\n' && d != '\r' {
						if quotedLines > 0 {
							return 0, 0, false, nil
						}
						stray++
					}
				}
			case '\r', '\n':
				// A line break inside a quoted field is part of the value,
				// kept as written (LF, CR LF or a bare CR); CR LF counts
				// as one line.
				s.rec = append(s.rec, c)
				if c == '\r' {
					if s.pos+j >= s.end && !s.eof {
						j--
						s.rec = s.rec[:len(s.rec)-1]
						if err := s.fill(); err != nil {
							if errors.Is(err, errRecordTooLong) {
								return 0, 0, false, nil
							}
							return 0, 0, false, err
						}
						continue
					}
					if s.pos+j < s.end && s.buf[s.pos+j] == '\n' {
						j++
						s.rec = append(s.rec, '\n')
					}
				}
				lines++
				quotedLines++
				multiline = true
			default:
				s.rec = append(s.rec, c)
			}
			continue
		}
		switch {
		case c == s.delim:
			s.ends = append(s.ends, len(s.rec))
			fieldStart = true
			continue
		case c == '\n' || c == '\r':
			if c == '\r' {
				if s.pos+j >= s.end && !s.eof {
					j--
					if err := s.fill(); err != nil {
						return 0, 0, false, err
					}
					continue
				}
				if s.pos+j < s.end && s.buf[s.pos+j] == '\n' {
					j++
				} else if !s.crOnly {
					s.noteOtherEnd(s.line + lines)
				}
			} else if s.crOnly {
				s.noteOtherEnd(s.line + lines)
			}
			lines++
			s.ends = append(s.ends, len(s.rec))
			s.noteStray(stray, multiline)
			return j, lines, true, nil
		case c == '"' && !literal:
			if fieldStart {
				inQuotes = true
				quotedLines = 0
				fieldStart = false
				continue
			}
			stray++
		}
		fieldStart = false
		s.rec = append(s.rec, c)
	}
}

// splitLine appends the fields of line, split at delim, to fields. It
// stops and reports special when the line holds a quote, a NUL byte or the
// byte other (a line end of the other kind; the slow path handles those).
// Eight bytes at a time: each byte equal to the delimiter, a quote, NUL or
// other sets a bit in a mask, and the delimiters are read off the mask.
func splitLine(fields [][]byte, line []byte, delim, other byte) (_ [][]byte, special bool) {
	dm := lo8 * uint64(delim)
	om := lo8 * uint64(other)
	start, i := 0, 0
	for ; i+8 <= len(line); i += 8 {
		x := binary.LittleEndian.Uint64(line[i:])
		if hasZero(x^quotes8)|hasZero(x)|hasZero(x^om) != 0 {
			return fields, true
		}
		for d := zeroBytes(x ^ dm); d != 0; d &= d - 1 {
			p := i + bits.TrailingZeros64(d)>>3
			fields = append(fields, line[start:p])
			start = p + 1
		}
	}
	for ; i < len(line); i++ {
		switch line[i] {
		case delim:
			fields = append(fields, line[start:i])
			start = i + 1
		case '"', 0, other:
			return fields, true
		}
	}
	return append(fields, line[start:]), false
}

const (
	lo8     = 0x0101010101010101
	hi7     = 0x7F7F7F7F7F7F7F7F
	quotes8 = lo8 * '"'
)

// hasZero is not zero when a byte of x is zero (the classic test; which
// bits are set is not exact, whether any is, is).
func hasZero(x uint64) uint64 {
	return (x - lo8) &^ x & (lo8 << 7)
}

// zeroBytes sets the high bit of each byte of x that is zero, and only
// those (no false positives, unlike the shorter has-zero trick).
func zeroBytes(x uint64) uint64 {
	return ^((x&hi7 + hi7) | x | hi7)
}

func (s *scanner) noteStray(stray int, multiline bool) {
	if stray > 0 {
		s.strayQuotes++
		if s.strayQuoteLine == 0 {
			s.strayQuoteLine = s.line
		}
	}
	if multiline {
		s.multiline++
		if s.multilineLine == 0 {
			s.multilineLine = s.line
		}
	}
}
