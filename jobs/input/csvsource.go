package input

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
)

// csvSource reads records from a text file.
type csvSource struct {
	f  *os.File
	td *textDecoder // nil for UTF-16
	d  detected
	sc *scanner
	// sepLine: the file starts with Excel's "sep=;" line, which names the
	// delimiter and is not part of the list.
	sepLine bool
	// mixedLine is the line of the first character read in the other
	// encoding of a file mixing UTF-8 and Windows-1252 (0: none yet).
	mixedLine int
}

func openCSV(f *os.File, raw *bufio.Reader, d detected, path string) (*csvSource, error) {
	text, td := newTextReader(raw, d)
	sc := newScanner(text)
	prefix, err := sc.prefix()
	if err != nil {
		return nil, &FileError{Path: path, Msg: "cannot read: " + err.Error(), Err: err}
	}
	if looksBinary(prefix) {
		return nil, &FileError{Path: path, Msg: "this is not a text file (it holds NUL and control bytes): is it a CSV?", Err: errNotText}
	}
	sc.crOnly = sniffLineEnds(prefix)
	c := &csvSource{f: f, td: td, d: d, sc: sc}
	if delim, ok := sepDirective(prefix); ok {
		sc.delim, c.sepLine = delim, true
	} else {
		sc.delim = sniffDelimiter(prefix, sc.eof)
	}
	return c, nil
}

// sepDirective recognises the "sep=X" first line Excel writes and reads
// to name the delimiter.
func sepDirective(text []byte) (byte, bool) {
	line := text
	if i := bytes.IndexAny(text, "\r\n"); i >= 0 {
		line = text[:i]
	}
	if len(line) == 5 && strings.EqualFold(string(line[:4]), "sep=") && strings.IndexByte(",;\t|", line[4]) >= 0 {
		return line[4], true
	}
	return 0, false
}

func (c *csvSource) next() ([][]byte, int, error) {
	f, err := c.sc.next()
	if err != nil {
		return nil, c.sc.line, err
	}
	if c.td != nil && c.mixedLine == 0 && c.td.FirstMixed >= 0 && c.sc.read > c.td.FirstMixed {
		c.mixedLine = c.sc.recLine
	}
	return f, c.sc.recLine, nil
}

func (c *csvSource) close() error { return c.f.Close() }

// span returns the bytes all fields of the last record point into.
func (c *csvSource) span() []byte { return c.sc.span }

// estimateRecords guesses the number of records in the file from the
// average record length so far.
func (c *csvSource) estimateRecords(size int64) int {
	if c.sc.records == 0 || c.sc.read == 0 {
		return 0
	}
	return int(size * int64(c.sc.records) / c.sc.read)
}

func (c *csvSource) encoding() string {
	if c.td == nil || c.d.enc == EncUTF8BOM {
		return c.d.enc
	}
	return c.td.Encoding()
}

func (c *csvSource) warnings() []Warning {
	var ws []Warning
	sc := c.sc
	if sc.nuls > 0 {
		ws = append(ws, Warning{Line: sc.nulLine, Count: sc.nuls,
			Message: fmt.Sprintf("%s (a damaged file?) removed", plural(sc.nuls, "NUL byte", "NUL bytes"))})
	}
	if sc.unclosed > 0 {
		ws = append(ws, Warning{Line: sc.unclosedLine, Count: sc.unclosed,
			Message: fmt.Sprintf("%s a quote that is never closed: read with the quote as text", plural(sc.unclosed, "line has", "lines have"))})
	}
	if sc.strayQuotes > 0 {
		ws = append(ws, Warning{Line: sc.strayQuoteLine, Count: sc.strayQuotes,
			Message: fmt.Sprintf("%s a stray quote inside a field: kept as text", plural(sc.strayQuotes, "row has", "rows have"))})
	}
	if sc.multiline > 0 {
		ws = append(ws, Warning{Line: sc.multilineLine, Count: sc.multiline,
			Message: fmt.Sprintf("%s a quoted field with line breaks", plural(sc.multiline, "row has", "rows have"))})
	}
	if sc.otherEnds > 0 {
		ends, others := "a bare CR", "LF"
		if sc.crOnly {
			ends, others = "a bare LF", "CR"
		}
		ws = append(ws, Warning{Line: sc.otherEndsLine, Count: sc.otherEnds,
			Message: fmt.Sprintf("%s with %s while the others end with %s: read as line ends", plural(sc.otherEnds, "line ends", "lines end"), ends, others)})
	}
	if c.td != nil && c.td.Mixed > 0 {
		ws = append(ws, Warning{Line: c.mixedLine, Count: int(c.td.Mixed),
			Message: fmt.Sprintf("%s not valid UTF-8 in a UTF-8 file: read as Windows-1252", plural(int(c.td.Mixed), "byte is", "bytes are"))})
	}
	if c.td != nil && c.td.MixedUTF8 > 0 {
		ws = append(ws, Warning{Line: c.mixedLine, Count: int(c.td.MixedUTF8),
			Message: fmt.Sprintf("%s UTF-8 in a Windows-1252 file: read as UTF-8", plural(int(c.td.MixedUTF8), "character is", "characters are"))})
	}
	return ws
}
