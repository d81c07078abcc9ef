package input

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Encoding names reported in Inspection.Encoding.
const (
	EncUTF8    = "UTF-8"
	EncUTF8BOM = "UTF-8 BOM"
	EncUTF16LE = "UTF-16LE"
	EncUTF16BE = "UTF-16BE"
	EncCP1252  = "Windows-1252"
)

// sniffSize is how much of the raw file is examined to recognise its kind.
const sniffSize = 64 << 10

// errNotText is wrapped in the FileError for files that are not text.
var errNotText = errors.New("not a text file")

// detected is what the first bytes of a file say about it.
type detected struct {
	kind string // "text", "zip"
	enc  string // for text: one of the Enc names (UTF-8 may turn into Windows-1252 while reading)
	bom  int    // bytes of byte-order mark to skip
}

// detect looks at the first bytes of a file. It returns an error message for
// files that are certainly not lists.
func detect(head []byte) (detected, string) {
	switch {
	case len(head) == 0:
		return detected{}, "the file is empty"
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		return detected{kind: "text", enc: EncUTF8BOM, bom: 3}, ""
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}) && !bytes.HasPrefix(head, []byte{0xFF, 0xFE, 0, 0}):
		return detected{kind: "text", enc: EncUTF16LE, bom: 2}, ""
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		return detected{kind: "text", enc: EncUTF16BE, bom: 2}, ""
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return detected{kind: "zip"}, ""
	case bytes.HasPrefix(head, []byte{0xD0, 0xCF, 0x11, 0xE0}):
		return detected{}, "this is an old Excel .xls (or other Office) file, not a CSV: save it as .xlsx or CSV"
	case bytes.HasPrefix(head, []byte("%PDF")):
		return detected{}, "this is a PDF, not a CSV or .xlsx list"
	case bytes.HasPrefix(head, []byte{0x1F, 0x8B}):
		return detected{}, "this is a gzip archive, not a CSV: extract it first"
	case bytes.HasPrefix(head, []byte("\x89PNG")), bytes.HasPrefix(head, []byte{0xFF, 0xD8, 0xFF}),
		bytes.HasPrefix(head, []byte("GIF8")):
		return detected{}, "this is an image, not a CSV or .xlsx list"
	}
	if enc := utf16NoBOM(head); enc != "" {
		return detected{kind: "text", enc: enc}, ""
	}
	if enc := utf16Units(head, len(head) < sniffSize); enc != "" {
		return detected{kind: "text", enc: enc}, ""
	}
	if looksBinary(head) {
		return detected{}, "this is not a text file (it holds NUL and control bytes): is it a CSV?"
	}
	return detected{kind: "text", enc: EncUTF8}, ""
}

// utf16NoBOM recognises UTF-16 without a byte-order mark from the zero high
// bytes of ASCII text.
func utf16NoBOM(head []byte) string {
	n := min(len(head), 4096) &^ 1
	if n < 8 {
		return ""
	}
	var evenZero, oddZero int
	for i := 0; i < n; i += 2 {
		if head[i] == 0 {
			evenZero++
		}
		if head[i+1] == 0 {
			oddZero++
		}
	}
	pairs := n / 2
	// The other byte of each zero pair must be text, or this is binary.
	text := func(off int) bool {
		t := 0
		for i := off; i < n; i += 2 {
			if c := head[i]; c >= 0x20 || c == '\t' || c == '\n' || c == '\r' {
				t++
			}
		}
		return t*20 >= pairs*19
	}
	switch {
	case oddZero*10 >= pairs*7 && evenZero*10 < pairs && text(0):
		return EncUTF16LE
	case evenZero*10 >= pairs*7 && oddZero*10 < pairs && text(1):
		return EncUTF16BE
	}
	return ""
}

// utf16Units recognises UTF-16 without a byte-order mark whose text is
// mostly not Latin (Chinese names, say: few zero bytes, so utf16NoBOM does
// not see it): read as 16-bit units in one byte order, the first bytes are
// well-formed text (no NUL or other control character but tab and line
// breaks, surrogates in pairs, no noncharacter) with line breaks, where
// the other order is not. It is only asked about bytes holding NULs, which
// neither UTF-8 nor Windows-1252 text has. whole says head is the whole
// file (a one-line file has no line break).
func utf16Units(head []byte, whole bool) string {
	if bytes.IndexByte(head, 0) < 0 {
		return ""
	}
	n := min(len(head), 8192) &^ 1
	if n < 4 {
		return ""
	}
	// UTF-8 text with stray NULs stays UTF-8 (UTF-16 of other scripts is
	// not valid UTF-8 beyond a few characters).
	if utf8Head(head[:n]) {
		return ""
	}
	return utf16Order(utf16Breaks(head, n, whole, false), utf16Breaks(head, n, whole, true), whole)
}

// utf8Head reports whether head is valid UTF-8, a sequence cut short at
// its end forgiven.
func utf8Head(head []byte) bool {
	n := len(head)
	for k := 1; k <= 3 && k <= n; k++ {
		if utf8.RuneStart(head[n-k]) {
			if !utf8.FullRune(head[n-k:]) {
				head = head[:n-k]
			}
			break
		}
	}
	return utf8.Valid(head)
}

// utf16Breaks counts the line breaks of head[:n] read as UTF-16 (big
// endian when be; the delimiters and spaces too when whole, for a
// one-line file), or -1 when the units are not text.
func utf16Breaks(head []byte, n int, whole, be bool) int {
	lines := 0
	highPending := false
	for i := 0; i < n; i += 2 {
		u := uint16(head[i]) | uint16(head[i+1])<<8
		if be {
			u = uint16(head[i])<<8 | uint16(head[i+1])
		}
		switch {
		case u == '\n' || u == '\r':
			lines++
		case whole && (u == ',' || u == ';' || u == '\t' || u == '|' || u == ' '):
			lines++
		case u < 0x20 && u != '\t', u == 0xFFFE, u == 0xFFFF:
			return -1
		}
		isHigh, isLow := u >= 0xD800 && u < 0xDC00, u >= 0xDC00 && u < 0xE000
		if isLow != highPending {
			return -1 // a lone surrogate
		}
		highPending = isHigh
	}
	if highPending && whole && n == len(head) {
		return -1 // the file ends inside a pair
	}
	return lines
}

// utf16Order picks the byte order that reads as text with more line breaks
// than the other: at least two, or one when the head is the whole file (le
// and be are the counts of utf16Units's breaks, -1 for not text). It stands
// apart to keep utf16Units under the complexity limit without touching the
// code before its loops: moving that code shifted the loops and measured
// 10% slower.
func utf16Order(le, be int, whole bool) string {
	need := 2
	if whole {
		need = 1
	}
	switch {
	case le >= need && le > be:
		return EncUTF16LE
	case be >= need && be > le:
		return EncUTF16BE
	}
	return ""
}

// looksBinary reports whether head holds enough NUL and control bytes to
// rule out a text list. A lone NUL in a text file is reported while reading,
// with its line.
func looksBinary(head []byte) bool {
	head = head[:min(len(head), 8192)]
	var nul, ctl int
	for _, c := range head {
		switch {
		case c == 0:
			nul++
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x1A:
			ctl++
		}
	}
	return ctl*20 > len(head) || (nul > 4 && nul*100 > len(head)) || (nul > 0 && ctl > 0 && (nul+ctl)*50 > len(head))
}

// newTextReader returns a reader of UTF-8 text decoded from raw, which is
// positioned at the start of the file; d comes from detect.
func newTextReader(raw *bufio.Reader, d detected) (io.Reader, *textDecoder) {
	if d.bom > 0 {
		raw.Discard(d.bom)
	}
	switch d.enc {
	case EncUTF16LE:
		return transform.NewReader(raw, unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder()), nil
	case EncUTF16BE:
		return transform.NewReader(raw, unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewDecoder()), nil
	}
	td := &textDecoder{r: raw, in: make([]byte, 64<<10), FirstMixed: -1}
	if d.enc == EncUTF8BOM {
		td.mode = modeUTF8 // the mark says UTF-8: other bytes are damage, counted
	}
	return td, td
}

// cp1252 maps the bytes 0x80–0xFF of Windows-1252 to UTF-8.
var cp1252 [128][]byte

func init() {
	for i := range cp1252 {
		r := charmap.Windows1252.DecodeByte(byte(0x80 + i))
		cp1252[i] = utf8.AppendRune(nil, r)
	}
}

// Modes of textDecoder.
const (
	modeASCII = iota // only ASCII so far: UTF-8 and Windows-1252 agree
	modeUTF8         // valid multi-byte UTF-8 seen
	mode1252         // an invalid UTF-8 byte came first: the file is Windows-1252
)

// textDecoder streams a file that is UTF-8 or Windows-1252 as UTF-8,
// deciding which as it reads: the first byte that is not valid UTF-8, when
// nothing but ASCII came before, makes the rest of the file Windows-1252
// (ASCII is the same in both, so nothing already read changes). Files
// pasted together from both encodings are read character by character:
// bytes that are not valid UTF-8 in a file that already had valid UTF-8
// are read as Windows-1252 (Mixed), and valid multi-byte UTF-8 sequences
// in a Windows-1252 file are read as UTF-8 (MixedUTF8), since such pairs
// of accented letters and punctuation hardly occur in real 1252 text.
type textDecoder struct {
	r     io.Reader
	in    []byte
	carry [utf8.UTFMax]byte // an incomplete UTF-8 sequence at the end of the last chunk
	nin   int               // bytes in carry
	out   []byte            // decoded bytes not yet read: in[:pass]…
	tail  []byte            // …then the translated rest
	trans []byte
	eof   bool
	err   error

	mode      int
	Mixed     int64 // invalid UTF-8 bytes read as Windows-1252 in a UTF-8 file
	MixedUTF8 int64 // UTF-8 characters read as such in a Windows-1252 file
	// produced counts the UTF-8 bytes given out before the current chunk;
	// FirstMixed is the offset in that output of the first mixed
	// character (-1: none), for the warning's line.
	produced   int64
	FirstMixed int64
}

// Encoding is the encoding decided so far.
func (d *textDecoder) Encoding() string {
	if d.mode == mode1252 {
		return EncCP1252
	}
	return EncUTF8
}

func (d *textDecoder) Read(p []byte) (int, error) {
	if len(d.out) == 0 && len(d.tail) == 0 && len(p) >= directRead {
		return d.readDirect(p)
	}
	for len(d.out) == 0 && len(d.tail) == 0 {
		if d.eof && d.nin == 0 {
			return 0, d.err
		}
		if err := d.decodeChunk(); err != nil {
			return 0, err
		}
	}
	n := copy(p, d.out)
	d.out = d.out[n:]
	if n < len(p) {
		m := copy(p[n:], d.tail)
		d.tail = d.tail[m:]
		n += m
	}
	return n, nil
}

// directRead is the smallest read served without an intermediate copy.
const directRead = 4096

// readDirect reads into p and converts in place: text that is already
// UTF-8 (nearly all of it) is not copied again.
func (d *textDecoder) readDirect(p []byte) (int, error) {
	n := copy(p, d.carry[:d.nin])
	d.nin = 0
	for !d.eof {
		m, err := d.r.Read(p[n:])
		n += m
		if err != nil {
			d.eof = true
			d.err = err
			break
		}
		if m > 0 {
			break
		}
	}
	if n == 0 {
		return 0, d.err
	}
	pass, tr := d.convert(p[:n])
	d.produced += int64(pass + len(tr))
	if tr == nil {
		return pass, nil // a carried incomplete sequence may have been held back
	}
	c := copy(p[pass:], tr)
	d.tail = tr[c:]
	return pass + c, nil
}

// decodeChunk reads the next chunk into in and sets out and tail to its
// UTF-8 form.
func (d *textDecoder) decodeChunk() error {
	n := copy(d.in, d.carry[:d.nin])
	d.nin = 0
	for n < len(d.in) && !d.eof {
		m, err := d.r.Read(d.in[n:])
		n += m
		if err != nil {
			d.eof = true
			d.err = err
			break
		}
		if m > 0 && n >= len(d.in)/2 {
			break
		}
	}
	if n == 0 {
		return nil
	}
	pass, tr := d.convert(d.in[:n])
	d.produced += int64(pass + len(tr))
	d.out, d.tail = d.in[:pass], tr
	return nil
}

// convert examines raw bytes b (any carried bytes already in front) and
// returns how many leading bytes are UTF-8 as they are, and the UTF-8
// form of the bytes after those (nil when there are none, or when the rest
// is an incomplete sequence carried to the next read). It decides the
// mode as it goes.
func (d *textDecoder) convert(b []byte) (pass int, tr []byte) {
	i := asciiPrefix(b)
	for i < len(b) && d.mode != mode1252 {
		if b[i] < utf8.RuneSelf {
			i += asciiPrefix(b[i:])
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			if !d.eof && !utf8.FullRune(b[i:]) {
				// An incomplete sequence at the end of the chunk: carry it.
				d.nin = copy(d.carry[:], b[i:])
				return i, nil
			}
			if d.mode == modeASCII {
				d.mode = mode1252
			}
			break // translate from here
		}
		d.mode = modeUTF8
		i += size
	}
	if i >= len(b) {
		return len(b), nil
	}
	pass = i
	t := d.trans[:0]
	for i < len(b) {
		c := b[i]
		if c < utf8.RuneSelf {
			j := i + asciiPrefix(b[i:])
			t = append(t, b[i:j]...)
			i = j
			continue
		}
		if d.mode == modeUTF8 || c >= 0xC2 && c <= 0xF4 {
			r, size := utf8.DecodeRune(b[i:])
			if r != utf8.RuneError || size > 1 {
				if d.mode == mode1252 {
					d.MixedUTF8++
					d.noteMixed(pass + len(t))
				}
				t = append(t, b[i:i+size]...)
				i += size
				continue
			}
			if !d.eof && !utf8.FullRune(b[i:]) {
				d.nin = copy(d.carry[:], b[i:])
				break
			}
			if d.mode == modeUTF8 {
				d.Mixed++
				d.noteMixed(pass + len(t))
			}
		}
		t = append(t, cp1252[c-0x80]...)
		i++
	}
	d.trans = t
	return pass, t
}

// noteMixed records where the first mixed character goes in the output:
// at offset off of the current chunk's.
func (d *textDecoder) noteMixed(off int) {
	if d.FirstMixed < 0 {
		d.FirstMixed = d.produced + int64(off)
	}
}

// asciiPrefix returns the length of the ASCII prefix of b, eight bytes at a
// time.
func asciiPrefix(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
			break
		}
	}
	for ; i < len(b); i++ {
		if b[i] >= utf8.RuneSelf {
			return i
		}
	}
	return i
}

// FixText returns s as UTF-8: bytes that are not valid UTF-8 are read as
// Windows-1252, as the list reader reads a file that mixes the two (a
// result saved by Excel on Windows and opened where it is).
func FixText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 {
			if c := s[i]; c >= 0x80 {
				b = append(b, cp1252[c-0x80]...)
			} else {
				b = append(b, c)
			}
			i++
			continue
		}
		b = append(b, s[i:i+n]...)
		i += n
	}
	return string(b)
}
