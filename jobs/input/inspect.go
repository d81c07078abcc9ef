package input

import (
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"strings"

	"github.com/skipdesk/skipdesk/jobs/entity"
)

// Inspect reads path once and reports what a submission needs to know. It
// fails on files that cannot be read as a list (empty, binary, no data
// rows); everything else is a Warning. ctx cancels a long read.
func Inspect(ctx context.Context, path string, opts Options) (*Inspection, error) {
	r, err := Open(path, opts)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	ins := &Inspection{
		Path:       path,
		Size:       r.Size(),
		Format:     r.Format(),
		Sheet:      r.Sheet(),
		Delimiter:  r.Delimiter(),
		HeaderLine: r.HeaderLine(),
		Headers:    r.Headers(),
		RawHeaders: r.RawHeaders(),
		Blanks:     make([]int, len(r.Headers())),
		Sample:     [][]string{},
	}
	sampleRows := opts.SampleRows
	if sampleRows == 0 {
		sampleRows = DefaultSampleRows
	}
	headers := r.Headers()
	nameIdx, names := columnsFor(headers, opts.NameColumns, guessNameColumns)
	keyIdx, keys := columnsFor(headers, opts.KeyColumns, func([]string) []int { return allColumns(len(headers)) })
	ins.NameColumns, ins.KeyColumns = names, keys
	var warns []Warning
	for _, set := range []struct {
		asked []string
		what  string
	}{{opts.NameColumns, "name"}, {opts.KeyColumns, "duplicate key"}} {
		for _, h := range set.asked {
			if indexOf(headers, h) < 0 {
				warns = append(warns, Warning{Column: h, Message: fmt.Sprintf("%s column not in the file: ignored", set.what)})
			}
		}
	}
	zipCol := make([]bool, len(headers))
	for i, h := range headers {
		zipCol[i] = isZipHeader(h)
	}
	var (
		seen             hashSet
		seed             = maphash.MakeSeed()
		key              []byte
		shortZipLine     int
		sciLine, dupLine int
		shortZipCols     = make([]int, len(headers))
		sciCols          = make([]int, len(headers))
	)
	for n := 0; ; n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		row, err := r.nextBytes()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		ins.Rows++
		if len(ins.Sample) < sampleRows {
			ins.Sample = append(ins.Sample, toStrings(row))
		}
		for i, f := range row {
			f = trimSpace(f)
			if len(f) == 0 {
				ins.Blanks[i]++
				continue
			}
			if zipCol[i] && len(f) == 4 && allDigits(f) {
				ins.ShortZips++
				shortZipCols[i]++
				if shortZipLine == 0 {
					shortZipLine = r.Line()
				}
			}
			if f[0] >= '0' && f[0] <= '9' && isSci(f) {
				ins.SciNumbers++
				sciCols[i]++
				if sciLine == 0 {
					sciLine = r.Line()
				}
			}
		}
		for _, i := range nameIdx {
			if entity.IsEntityBytes(row[i]) {
				ins.EntityRows++
				break
			}
		}
		key = key[:0]
		for _, i := range keyIdx {
			key = appendNormalized(key, row[i])
			key = append(key, 0x1f)
		}
		if !seen.add(maphash.Bytes(seed, key)) {
			ins.DuplicateRows++
			if dupLine == 0 {
				dupLine = r.Line()
			}
		}
	}
	ins.BlankRows = r.blankRows
	ins.RaggedRows = r.ragged
	ins.Encoding = r.Encoding()
	if ins.Rows == 0 {
		return nil, &FileError{Path: path, Line: ins.HeaderLine, Msg: "no data rows: the file has a header and nothing else"}
	}
	warns = append(warns, r.Warnings()...)
	if ins.DuplicateRows > 0 {
		warns = append(warns, Warning{Line: dupLine, Count: ins.DuplicateRows,
			Message: fmt.Sprintf("%s the same %s as an earlier row (billed again if sent)", plural(ins.DuplicateRows, "row has", "rows have"), keyWords(opts.KeyColumns))})
	}
	for i, n := range shortZipCols {
		if n > 0 {
			warns = append(warns, Warning{Line: shortZipLine, Column: headers[i], Count: n,
				Message: fmt.Sprintf("%s 4 digits: Excel dropped a leading zero (1234 should be 01234)", plural(n, "zip has", "zips have"))})
		}
	}
	for i, n := range sciCols {
		if n > 0 {
			warns = append(warns, Warning{Line: sciLine, Column: headers[i], Count: n,
				Message: fmt.Sprintf("%s in scientific notation (like 1.23E+10): Excel damaged these numbers and the digits are lost", plural(n, "value is", "values are"))})
		}
	}
	ins.TooLarge = ins.Size > MaxUploadBytes
	if ins.TooLarge {
		warns = append(warns, Warning{Message: fmt.Sprintf("the file is %.1f MB; the upload limit is 50 MB: split it", float64(ins.Size)/(1<<20))})
	}
	ins.ConversionReasons = conversionReasons(ins, r)
	ins.NeedsConversion = len(ins.ConversionReasons) > 0
	ins.Warnings = warns
	return ins, nil
}

// conversionReasons lists why the file cannot be uploaded as it is.
func conversionReasons(ins *Inspection, r *Reader) []string {
	var why []string
	if ins.Format == "xlsx" {
		return []string{"an Excel workbook is uploaded as CSV"}
	}
	if ins.Encoding != EncUTF8 {
		why = append(why, "the text is "+ins.Encoding+", not plain UTF-8")
	}
	if ins.Delimiter != ',' {
		why = append(why, fmt.Sprintf("fields are separated by %s, not commas", delimName(ins.Delimiter)))
	}
	if ins.HeaderLine != 1 {
		why = append(why, fmt.Sprintf("the header is on line %d, not line 1", ins.HeaderLine))
	}
	for i, h := range ins.Headers {
		if h != ins.RawHeaders[i] {
			why = append(why, "header names are blank or repeated")
			break
		}
	}
	if sc := r.csv.sc; sc.nuls > 0 || sc.unclosed > 0 || sc.strayQuotes > 0 {
		why = append(why, "stray quotes or NUL bytes")
	}
	if r.csv.sc.crOnly {
		why = append(why, "lines end with a bare CR")
	}
	return why
}

func delimName(d rune) string {
	switch d {
	case '\t':
		return "tabs"
	case ';':
		return "semicolons"
	case '|':
		return "pipes"
	}
	return fmt.Sprintf("%q", d)
}

func keyWords(keys []string) string {
	if keys == nil {
		return "values"
	}
	return strings.Join(keys, " + ")
}

func indexOf(headers []string, h string) int {
	for i, x := range headers {
		if x == h {
			return i
		}
	}
	for i, x := range headers {
		if strings.EqualFold(x, h) {
			return i
		}
	}
	return -1
}

// columnsFor resolves asked headers to indexes (guess when asked is nil).
func columnsFor(headers, asked []string, guess func([]string) []int) ([]int, []string) {
	var idx []int
	if asked == nil {
		idx = guess(headers)
	} else {
		for _, h := range asked {
			if i := indexOf(headers, h); i >= 0 {
				idx = append(idx, i)
			}
		}
	}
	names := make([]string, 0, len(idx))
	for _, i := range idx {
		names = append(names, headers[i])
	}
	return idx, names
}

func allColumns(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t') {
		b = b[:len(b)-1]
	}
	return b
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// isSci recognises Excel's scientific notation: 1.23E+10, 2.01555E+09, 1E+10.
func isSci(b []byte) bool {
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	if i == 0 || i == len(b) {
		return false
	}
	if b[i] == '.' {
		i++
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		if i == j || i == len(b) {
			return false
		}
	}
	if b[i] != 'E' && b[i] != 'e' {
		return false
	}
	i++
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		i++
	}
	return i < len(b) && allDigits(b[i:])
}

// normClass maps a byte for duplicate keys: letters uppercased, digits and
// bytes of non-ASCII characters kept, spaces 1, punctuation 0 (dropped).
var normClass [256]byte

func init() {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z':
			normClass[c] = byte(c) - 'a' + 'A'
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c >= 0x80:
			normClass[c] = byte(c)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			normClass[c] = 1
		}
	}
}

// appendNormalized appends the duplicate-key form of f: uppercase, ASCII
// punctuation removed, runs of spaces collapsed to one, no leading or
// trailing space. "  Smith,  John. " → "SMITH JOHN".
func appendNormalized(dst, f []byte) []byte {
	space := false
	start := len(dst)
	for _, c := range f {
		switch n := normClass[c]; n {
		case 0:
		case 1:
			space = true
		default:
			if space && len(dst) > start {
				dst = append(dst, ' ')
			}
			space = false
			dst = append(dst, n)
		}
	}
	return dst
}
