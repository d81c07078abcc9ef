package input

import (
	"cmp"
	"context"
	"fmt"
	"hash/maphash"
	"io"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// uploadLimit is MaxUploadBytes; tests lower it.
var uploadLimit int64 = MaxUploadBytes

// maxSampleCells bounds the cells of Inspection.Sample (16 bytes each and
// their text): 20 rows of 13,107 columns.
const maxSampleCells = 1 << 18

// Inspect reads path once and reports what a submission needs to know. It
// fails on files that cannot be read as a list (empty, binary, no data
// rows); everything else is a Warning. ctx cancels a long read.
func Inspect(ctx context.Context, path string, opts Options) (*Inspection, error) {
	return InspectWith(ctx, path, opts, nil)
}

// Tap is handed data rows of a file as strings of their own (the slice is
// reused between calls; the strings may be cut from a string of many rows:
// copy one to keep it long), each with its physical line (sheet row), in
// file order: the rows read before it was returned on the reading
// goroutine, the rest on the inspection's second one, beside the reading.
// An error stops the reading.
type Tap func(row []string, line int) error

// InspectWith is Inspect, calling start once the header and the sample are
// read (ins holds what the file's start says: its format, headers and
// Sample; its counts are not made yet): the Tap it returns (nil: none) is
// handed every data row, the sample's first, in the same pass. What
// depends on the sample (the mapping settled from it, and so the rows the
// upload will hold) is read without a second pass over the file.
func InspectWith(ctx context.Context, path string, opts Options, start func(ins *Inspection) (Tap, error)) (*Inspection, error) {
	r, err := Open(path, opts)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	ins := &Inspection{
		Path:        path,
		Size:        r.Size(),
		Format:      r.Format(),
		Sheet:       r.Sheet(),
		OtherSheets: r.OtherSheets(),
		Delimiter:   r.Delimiter(),
		HeaderLine:  r.HeaderLine(),
		Headers:     r.Headers(),
		RawHeaders:  r.RawHeaders(),
		Blanks:      make([]int, len(r.Headers())),
		Sample:      [][]string{},
	}
	sampleRows := sampleRowLimit(opts.SampleRows, len(r.Headers()))
	headers := r.Headers()
	nameIdx, names := columnsFor(headers, opts.NameColumns, guessNameColumns)
	keyIdx, keys := columnsFor(headers, opts.KeyColumns, func([]string) []int { return allColumns(len(headers)) })
	ins.NameColumns, ins.KeyColumns = names, keys
	warns := missingColumnWarnings(headers, opts)
	dm := newDamage(ins)
	var delim byte
	if r.csv != nil {
		delim = r.csv.sc.delim
	}
	w := newRowWorker(len(headers), keyIdx, nameIdx, r.estimateRows(), delim)
	tp := &tapping{strs: make([]string, len(headers)), w: w}
	defer w.finish()
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
		inSample := len(ins.Sample) < sampleRows
		if inSample {
			ins.Sample = append(ins.Sample, toStrings(row))
			tp.lines = append(tp.lines, r.Line())
		}
		w.add(row, r.span, r.plain, r.Line())
		if start != nil {
			if err := tp.row(ins, row, r.Line(), inSample, len(ins.Sample) < sampleRows, start); err != nil {
				return nil, err
			}
		}
		dm.row(row, r.Line())
	}
	w.finish()
	if w.tapErr != nil {
		return nil, w.tapErr
	}
	if start != nil && !tp.started { // fewer rows than the sample holds
		if err := tp.begin(ins, start); err != nil {
			return nil, err
		}
	}
	ins.EntityRows = w.entityRows
	ins.DuplicateRows = w.seen.dups
	if ins.ShortZips > 0 {
		ins.ShortZipsIn = dm.shortZipCols
	}
	ins.SHA256 = r.SHA256()
	ins.BlankRows = r.blankRows
	ins.RaggedRows = r.ragged
	ins.Encoding = r.Encoding()
	if ins.Rows == 0 {
		return nil, noRowsError(path, ins, r)
	}
	warns = append(warns, r.Warnings()...)
	warns = append(warns, duplicateWarnings(ins, opts, w)...)
	warns = append(warns, columnWarnings(headers, dm.shortZipCols, dm.shortZipLine, func(n int) string {
		return plural(n, "zip has", "zips have") + " 4 digits: Excel dropped a leading zero (1234 should be 01234)"
	})...)
	warns = append(warns, columnWarnings(headers, dm.sciCols, dm.sciLine, func(n int) string {
		return plural(n, "value is", "values are") + " in scientific notation (like 1.23E+10): Excel damaged these numbers and the digits are lost"
	})...)
	ins.TooLarge = ins.Size > uploadLimit
	if ins.TooLarge {
		warns = append(warns, tooLargeWarning(ins))
	}
	ins.ConversionReasons = conversionReasons(ins, r)
	ins.NeedsConversion = len(ins.ConversionReasons) > 0
	// In file order; warnings about the whole file last.
	slices.SortStableFunc(warns, func(a, b Warning) int {
		return cmp.Compare(lineOrLast(a.Line), lineOrLast(b.Line))
	})
	ins.Warnings = warns
	return ins, nil
}

// The helpers below hold Inspect's setup and its report, so that Inspect
// itself is the read loop (the hot path) and what frames it.

// damage counts, column by column, the blanks and what Excel did to the
// values: ZIP codes that lost their leading zero, numbers in scientific
// notation (with the first line of each).
type damage struct {
	ins                   *Inspection
	zipCol                []bool
	shortZipLine, sciLine []int
	shortZipCols, sciCols []int
}

func newDamage(ins *Inspection) *damage {
	n := len(ins.Headers)
	d := &damage{ins: ins, zipCol: make([]bool, n), shortZipLine: make([]int, n), sciLine: make([]int, n),
		shortZipCols: make([]int, n), sciCols: make([]int, n)}
	for i, h := range ins.Headers {
		d.zipCol[i] = isZipHeader(h)
	}
	return d
}

// row looks at the fields of a row found at line.
func (d *damage) row(row [][]byte, line int) {
	ins := d.ins
	for i, f := range row {
		if len(f) == 0 || f[0] <= ' ' || f[0] == 0xC2 || f[len(f)-1] <= ' ' {
			if blankField(f) {
				ins.Blanks[i]++
				continue
			}
			f = trimSpace(f)
		}
		if f[0] > '9' || f[0] < '0' {
			continue // short zips and 1.23E+10 start with a digit
		}
		if d.zipCol[i] && isShortZip(f) {
			ins.ShortZips++
			d.shortZipCols[i]++
			if d.shortZipLine[i] == 0 {
				d.shortZipLine[i] = line
			}
		}
		if maybeSci(f) && isSci(f) {
			ins.SciNumbers++
			d.sciCols[i]++
			if d.sciLine[i] == 0 {
				d.sciLine[i] = line
			}
		}
	}
}

// tapping hands an inspection's rows to the Tap its start returns: the
// rows read until then itself, the rest through the row worker.
type tapping struct {
	started bool
	tap     Tap
	strs    []string
	lines   []int // the sample's lines
	w       *rowWorker
}

// row starts the tap once the sample is complete (the sample first); row,
// found at line and already handed to the worker, is the sample's last
// when inSample, and more of the sample is to come when waiting. Once
// started, it says the tap's error, if any.
func (t *tapping) row(ins *Inspection, row [][]byte, line int, inSample, waiting bool, start func(*Inspection) (Tap, error)) error {
	if t.started {
		if t.w.failed.Load() {
			return t.w.tapErr
		}
		return nil
	}
	if waiting {
		return nil
	}
	if err := t.begin(ins, start); err != nil || t.tap == nil {
		return err
	}
	if !inSample {
		if err := t.tap(rowStrings(row, t.strs), line); err != nil {
			return err
		}
	}
	t.w.setTap(t.tap)
	return nil
}

// begin asks start for the tap and hands it the rows read so far: the
// sample (every row, when the sample holds every row read).
func (t *tapping) begin(ins *Inspection, start func(*Inspection) (Tap, error)) error {
	t.started = true
	tap, err := start(ins)
	if err != nil || tap == nil {
		return err
	}
	t.tap = tap
	for i, rec := range ins.Sample {
		if err := tap(rec, t.lines[i]); err != nil {
			return err
		}
	}
	return nil
}

// sampleRowLimit is how many rows Inspection.Sample keeps: asked (0 for the
// default), fewer for a file so wide that they would pass maxSampleCells.
func sampleRowLimit(asked, width int) int {
	n := asked
	if n == 0 {
		n = DefaultSampleRows
	}
	if n > 1 && n*width > maxSampleCells {
		n = max(1, maxSampleCells/width)
	}
	return n
}

// missingColumnWarnings names the name and duplicate-key columns asked for
// that the file does not have.
func missingColumnWarnings(headers []string, opts Options) []Warning {
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
	return warns
}

// noRowsError says why a file with a header has no data rows.
func noRowsError(path string, ins *Inspection, r *Reader) error {
	if r.beyond > 0 {
		return &FileError{Path: path, Line: ins.HeaderLine, Msg: fmt.Sprintf("no data rows: %s values only beyond the header's %d columns (is the header on another line?)", plural(r.beyond, "row has", "rows have"), r.width)}
	}
	return &FileError{Path: path, Line: ins.HeaderLine, Msg: "no data rows: the file has a header and nothing else"}
}

// duplicateWarnings reports the duplicate rows the worker found, and where
// it stopped counting them.
func duplicateWarnings(ins *Inspection, opts Options, w *rowWorker) []Warning {
	var warns []Warning
	if w.capLine > 0 {
		warns = append(warns, Warning{Line: w.capLine,
			Message: fmt.Sprintf("duplicates are counted among the first %s rows only, to keep memory bounded", thousands(maxKeyedRows))})
	}
	if ins.DuplicateRows > 0 {
		warns = append(warns, Warning{Line: w.seen.firstLine, Count: ins.DuplicateRows,
			Message: fmt.Sprintf("%s the same %s as an earlier row (billed again if sent)", plural(ins.DuplicateRows, "row has", "rows have"), keyWords(opts.KeyColumns == nil, ins.KeyColumns))})
	}
	return warns
}

// columnWarnings reports a kind of damage counted per column while reading:
// count and first line of each column, say the words for a count.
func columnWarnings(headers []string, count, line []int, say func(n int) string) []Warning {
	var warns []Warning
	for i, n := range count {
		if n > 0 {
			warns = append(warns, Warning{Line: line[i], Column: headers[i], Count: n, Message: say(n)})
		}
	}
	return warns
}

// tooLargeWarning says the file is over the upload limit and what to do.
func tooLargeWarning(ins *Inspection) Warning {
	advice := "split it"
	if ins.Encoding == EncUTF16LE || ins.Encoding == EncUTF16BE {
		advice = "converted to UTF-8 it will be about half as large"
	}
	return Warning{Message: fmt.Sprintf("the file is %.1f MB; the upload limit is 50 MB: %s", float64(ins.Size)/(1<<20), advice)}
}

func lineOrLast(line int) int {
	if line <= 0 {
		return math.MaxInt
	}
	return line
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
		why = append(why, fmt.Sprintf("fields are separated by %s, not commas", DelimiterName(ins.Delimiter)))
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
	if td := r.csv.td; td != nil && td.Mixed > 0 {
		why = append(why, "some bytes are not valid UTF-8")
	}
	if ins.RaggedRows > 0 || r.beyond > 0 {
		why = append(why, "rows with more or fewer fields than the header")
	}
	if r.csv.sc.crOnly {
		why = append(why, "lines end with a bare CR")
	}
	if r.csv.sc.otherEnds > 0 {
		why = append(why, "lines end with a mix of CR and LF")
	}
	return why
}

// DelimiterName is a delimiter as the words "fields separated by …" end
// with: "commas", "semicolons", "tabs", "pipes", else the character quoted.
func DelimiterName(d rune) string {
	switch d {
	case ',':
		return "commas"
	case ';':
		return "semicolons"
	case '\t':
		return "tabs"
	case '|':
		return "pipes"
	}
	return fmt.Sprintf("%q", d)
}

// keyWords names the duplicate key in a warning.
func keyWords(all bool, keys []string) string {
	if all {
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

// PadZip gives a ZIP code that lost its leading zero (see isShortZip) its
// zero back: "2134" is "02134", "2134-5678" is "02134-5678". ok is false,
// and v comes back as it is, for any other value.
func PadZip(v string) (padded string, ok bool) {
	t := strings.TrimSpace(v)
	if !isShortZip([]byte(t)) {
		return v, false
	}
	return "0" + t, true
}

// isShortZip: 4 digits, or 4 digits and a ZIP+4 ("2134-5678"): a zip that
// lost its leading zero.
func isShortZip(f []byte) bool {
	switch len(f) {
	case 4:
		return allDigits(f)
	case 9:
		return f[4] == '-' && allDigits(f[:4]) && allDigits(f[5:])
	}
	return false
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// maybeSci is a quick filter for isSci: a digit first and an E among the
// last four bytes ("…E+09", "…E+9", "…E10").
func maybeSci(b []byte) bool {
	n := len(b)
	if n < 3 || b[0] < '0' || b[0] > '9' {
		return false
	}
	for i := max(1, n-4); i < n-1; i++ {
		if b[i]|0x20 == 'e' {
			return true
		}
	}
	return false
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

// normTab defines the duplicate-key form of an ASCII byte: the low byte
// is what to write, the high byte 1 to keep it, 0 to drop it. Letters are
// uppercased, digits kept, spaces and punctuation dropped.
var normTab [256]uint16

func init() {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 'a' && c <= 'z':
			normTab[c] = 1<<8 | uint16(c-'a'+'A')
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			normTab[c] = 1<<8 | uint16(c)
		}
	}
}

// keyBuf builds the duplicate key of a row and hashes it. The key of each
// field is its normalised form followed by 0x1f: "  Smith,  John. " →
// "SMITHJOHN\x1f", "Peña" → "PENA\x1f". Removing spaces rather than collapsing them also equates
// "St.Clair" with "St. Clair"; it is branch-free, which matters on half a
// million rows. A key longer than the buffer is hashed in pieces (maphash
// gives the same result for the same bytes either way).
const keyBufSize = 1 << 14

type keyBuf struct {
	b    [keyBufSize]byte
	k    int
	seed maphash.Seed
	h    maphash.Hash
	long bool // part of the key is already in h
}

func newKeyBuf() *keyBuf {
	kb := &keyBuf{seed: maphash.MakeSeed()}
	kb.h.SetSeed(kb.seed)
	return kb
}

func (kb *keyBuf) reset() {
	kb.k = 0
	if kb.long {
		kb.h.Reset()
		kb.long = false
	}
}

func (kb *keyBuf) add(f []byte) { kb.addWith(f, &normTab) }

// addWith is add with another byte table (lineTab, which turns the
// delimiter of a whole record into the field separator).
//
// The normalised form can be longer than the text: uppercasing turns some
// 2-byte letters into 3 bytes ("ɐ" → "Ɐ"), so a piece of the field is only
// written where twice its length fits. Pieces end on a character boundary,
// so that a field keyed alone and the same field inside a whole line give
// the same key.
func (kb *keyBuf) addWith(f []byte, tab *[256]uint16) {
	const maxPart = (keyBufSize - 8) / 2
	for len(f) > 0 {
		n := len(f)
		if n > maxPart {
			n = maxPart
			for n > maxPart-utf8.UTFMax && !utf8.RuneStart(f[n]) {
				n--
			}
		}
		kb.room(2*n + 8)
		kb.k = normalize(&kb.b, kb.k, f[:n], tab)
		f = f[n:]
	}
	kb.room(1) // thousands of empty fields are a key of separators
	kb.b[kb.k] = 0x1f
	kb.k++
}

// room makes room for n more bytes, hashing what the buffer holds if need
// be.
func (kb *keyBuf) room(n int) {
	if kb.k+n > len(kb.b) {
		kb.h.Write(kb.b[:kb.k])
		kb.k = 0
		kb.long = true
	}
}

// normalize writes the normalised form of f into b from k on and returns
// the new end; b has room for len(f) more bytes after k. ASCII, the common
// case, costs one table load, one store and one add per byte, with no
// data-dependent branch (the index mask lets the compiler drop the bounds
// check); a field with other characters is then redone by normalizeSlow.
func normalize(b *[keyBufSize]byte, k int, f []byte, tab *[256]uint16) int {
	k0 := k
	var high byte
	for _, c := range f {
		e := tab[c]
		b[k&(keyBufSize-1)] = byte(e)
		k += int(e >> 8)
		high |= c
	}
	if high < utf8.RuneSelf {
		return k
	}
	return normalizeSlow(b, k0, f, tab)
}

func normalizeSlow(b *[keyBufSize]byte, k int, f []byte, tab *[256]uint16) int {
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c >= utf8.RuneSelf {
			var size int
			k, size = foldRune(b, k, f[i:])
			i += size - 1
			continue
		}
		e := tab[c]
		b[k&(keyBufSize-1)] = byte(e)
		k += int(e >> 8)
	}
	return k
}

// foldRune writes the normalised form of the character at the start of f
// and returns the new end and the bytes read: Latin letters lose their
// accents ("Peña" and "PENA" are the same owner, as vendors often drop
// accents), other letters are uppercased, other characters dropped.
func foldRune(b *[keyBufSize]byte, k int, f []byte) (int, int) {
	r, size := utf8.DecodeRune(f)
	if r >= 0xC0 && r <= 0xFF {
		for _, c := range latinFold[r-0xC0] {
			b[k&(keyBufSize-1)] = byte(c)
			k++
		}
		return k, size
	}
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return k, size
	}
	var enc [utf8.UTFMax]byte
	n := utf8.EncodeRune(enc[:], unicode.ToUpper(r))
	for _, c := range enc[:n] {
		b[k&(keyBufSize-1)] = c
		k++
	}
	return k, size
}

// latinFold maps U+00C0–U+00FF to uppercase ASCII ("" for × and ÷).
var latinFold = [64]string{
	"A", "A", "A", "A", "A", "A", "AE", "C", "E", "E", "E", "E", "I", "I", "I", "I",
	"D", "N", "O", "O", "O", "O", "O", "", "O", "U", "U", "U", "U", "Y", "TH", "SS",
	"A", "A", "A", "A", "A", "A", "AE", "C", "E", "E", "E", "E", "I", "I", "I", "I",
	"D", "N", "O", "O", "O", "O", "O", "", "O", "U", "U", "U", "U", "Y", "TH", "Y",
}

func (kb *keyBuf) sum() uint64 {
	if !kb.long {
		return maphash.Bytes(kb.seed, kb.b[:kb.k])
	}
	kb.h.Write(kb.b[:kb.k])
	return kb.h.Sum64()
}
