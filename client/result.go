package client

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"mime"
	"strings"
)

// A result download must be a CSV file (spec: "result downloads stream a
// CSV file"); its columns are not shown by the spec, so any header is
// accepted. What a server may send instead with a 200 — a login or error
// page, JSON from an endpoint a redirect led to, an empty body — is refused
// before it can be kept as the result.

// notCSVTypes are media types, or parts of them, that no CSV file is sent
// as.
var notCSVTypes = []string{"html", "json", "xml", "javascript", "image/", "audio/", "video/", "font/", "multipart/",
	"application/pdf", "application/zip", "application/gzip", "application/x-gzip"}

// csvLike reports whether a media type names CSV (or comma-separated
// values) explicitly.
func csvLike(mediaType string) bool {
	return strings.Contains(mediaType, "csv") || strings.Contains(mediaType, "comma-separated")
}

func mediaType(ctype string) string {
	mt, _, err := mime.ParseMediaType(ctype)
	if err != nil {
		mt, _, _ = strings.Cut(ctype, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

// checkType refuses an answer whose Content-Type says it is not CSV.
func (d *downloadState) checkType() error {
	mt := mediaType(d.ctype)
	if csvLike(mt) {
		return nil
	}
	for _, bad := range notCSVTypes {
		if strings.Contains(mt, bad) {
			return d.notResult(fmt.Sprintf("the server sent %s, not CSV", d.text(mt)))
		}
	}
	return nil
}

// checkHead decides, from the first bytes (up to the end of the header
// line, or the whole body when eof), whether the file reads as CSV: not
// empty, not markup or JSON, no NUL byte, a header line with at least one
// named column, and a second line (when complete) with as many fields. A
// single column is accepted only from an answer typed as CSV: a one-line
// text page ("Please sign in") reads as a one-column CSV.
func (d *downloadState) checkHead(eof bool) error {
	head := bytes.TrimPrefix(d.head, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case len(trimmed) == 0 && eof:
		return d.notResult("the server sent an empty body")
	case len(trimmed) == 0:
		return d.notResult("the answer starts with 256 KB of blank lines")
	case trimmed[0] == '<':
		return d.notResult("the server sent markup (an HTML or XML page), not CSV: " + d.excerpt(trimmed))
	case trimmed[0] == '{' || trimmed[0] == '[':
		return d.notResult("the server sent JSON, not CSV: " + d.excerpt(trimmed))
	case bytes.IndexByte(head, 0) >= 0:
		return d.notResult("the server sent binary data, not CSV")
	}
	line, _, found := bytes.Cut(head, []byte("\n"))
	if !found && !eof {
		return d.notResult("no line ends within the first 256 KB: not a CSV header")
	}
	r := csv.NewReader(bytes.NewReader(head[:completeLines(head, eof)]))
	r.LazyQuotes = true
	header, err := r.Read()
	if err != nil {
		return d.notResult("its first line does not read as a CSV header: " + d.excerpt(line))
	}
	named := 0
	for _, f := range header {
		if strings.TrimSpace(f) != "" {
			named++
		}
	}
	if named == 0 {
		return d.notResult("its first line names no column: " + d.excerpt(line))
	}
	if len(header) < 2 && !csvLike(mediaType(d.ctype)) {
		return d.notResult(fmt.Sprintf("the server sent one line of text (%s), not a result: %s", d.text(mediaTypeOr(d.ctype)), d.excerpt(line)))
	}
	if _, err := r.Read(); errors.Is(err, csv.ErrFieldCount) {
		return d.notResult("its second line does not have the header's columns: " + d.excerpt(head))
	}
	d.checked, d.head = true, nil
	return nil
}

// completeLines is the length of head up to its last line break (all of
// it at the end of the body): a line cut in the middle is not judged.
func completeLines(head []byte, eof bool) int {
	if eof {
		return len(head)
	}
	return bytes.LastIndexByte(head, '\n') + 1
}

func mediaTypeOr(ctype string) string {
	if mt := mediaType(ctype); mt != "" {
		return mt
	}
	return "no Content-Type"
}

// excerpt is the start of b, cleaned, for an error.
func (d *downloadState) excerpt(b []byte) string {
	const n = 80
	s := string(b[:min(len(b), 4*n)])
	s = strings.Join(strings.Fields(d.text(s)), " ")
	return fmt.Sprintf("%q", truncate(s, n))
}

func (d *downloadState) notResult(why string) error {
	return fmt.Errorf("client: %s: %w: %s; nothing was kept", d.op, ErrNotResult, why)
}
