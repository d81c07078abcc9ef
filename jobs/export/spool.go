package export

import (
	"archive/zip"
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/klauspost/compress/flate"

	"github.com/skipdesk/skipdesk/jobs/input"
)

// A source whose rows are only known as they are read (a callable list:
// each row judged, many left out) is written to an .xlsx in one reading:
// its rows become sheet XML at once, deflated on a second core into a
// spool beside the export (one segment per results sheet). The workbook
// needs the row count before its sheets (the sheet split, the autofilter
// ranges, the Summary and Compliance sheets), so it is built once the rows
// are counted, and each segment is copied into its sheet's zip entry as it
// is: no second reading, no second compression, memory flat.

// spoolSegment is one results sheet's rows in the spool: where its deflate
// stream lies, and the CRC-32 and length of the XML it holds.
type spoolSegment struct {
	off, size int64
	crc       uint32
	raw       int64
}

// sheetSpool writes rows as sheet XML into a deflated spool file.
type sheetSpool struct {
	f      *os.File
	bw     *bufio.Writer
	cw     input.CountWriter
	fw     *flate.Writer
	segs   []spoolSegment
	aw     *asyncWriter
	buf    []byte
	rw     *rowWriter
	rows   int        // data rows written
	sample [][]string // the first widthSample rows, for the column widths
}

// segmentWriter takes the XML of the current segment: its CRC and length
// are counted before it is deflated.
type segmentWriter struct{ s *sheetSpool }

func (w segmentWriter) Write(b []byte) (int, error) {
	seg := &w.s.segs[len(w.s.segs)-1]
	seg.crc = crc32.Update(seg.crc, crc32.IEEETable, b)
	seg.raw += int64(len(b))
	return w.s.fw.Write(b)
}

func newSheetSpool(dst string, rw *rowWriter) (*sheetSpool, error) {
	f, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*.rows.tmp")
	if err != nil {
		return nil, writeError(dst, err)
	}
	s := &sheetSpool{f: f, rw: rw}
	s.bw = bufio.NewWriterSize(f, 1<<20)
	s.cw.W = s.bw
	s.fw, _ = flate.NewWriter(&s.cw, flate.BestSpeed)
	return s, nil
}

// close removes the spool.
func (s *sheetSpool) close() {
	if s.aw != nil {
		s.aw.close()
		s.aw = nil
	}
	s.f.Close()
	os.Remove(s.f.Name())
}

// add appends a data row (srcRow: its 1-based row in the source, for
// errors), starting a segment at each results sheet's first row.
func (s *sheetSpool) add(rec []string, srcRow int) error {
	per := maxSheetRows - 1
	if s.rows%per == 0 {
		if err := s.startSegment(); err != nil {
			return err
		}
	}
	if len(s.sample) < widthSample {
		s.sample = append(s.sample, slices.Clone(rec))
	}
	var err error
	if s.buf, err = s.rw.appendRow(s.buf, 2+s.rows%per, rec, srcRow); err != nil {
		return err
	}
	s.rows++
	if len(s.buf) >= asyncChunk {
		if err := s.aw.put(s.buf); err != nil {
			return err
		}
		s.buf = s.aw.get()
	}
	return nil
}

// startSegment ends the segment being written and opens the next.
func (s *sheetSpool) startSegment() error {
	if err := s.endSegment(); err != nil {
		return err
	}
	s.fw.Reset(&s.cw)
	s.segs = append(s.segs, spoolSegment{off: s.cw.N})
	s.aw = newAsyncWriter(segmentWriter{s})
	s.buf = s.aw.get()
	return nil
}

// endSegment writes out the segment being written, its deflate stream
// flushed to a byte boundary and left open: the sheet's end follows it in
// the zip entry.
func (s *sheetSpool) endSegment() error {
	if s.aw == nil {
		return nil
	}
	err := s.aw.put(s.buf)
	if cerr := s.aw.close(); err == nil {
		err = cerr
	}
	s.aw, s.buf = nil, nil
	if err == nil {
		err = s.fw.Flush()
	}
	seg := &s.segs[len(s.segs)-1]
	seg.size = s.cw.N - seg.off
	return err
}

// finish writes out the last segment and the spool file.
func (s *sheetSpool) finish() error {
	err := s.endSegment()
	if err == nil {
		err = s.bw.Flush()
	}
	return err
}

// entry writes results sheet rr as a stored deflate stream: head and tail
// deflated here, the segment's rows copied from the spool as they are, the
// CRC-32 of the whole made from the three's.
func (s *sheetSpool) entry(zw *zip.Writer, name string, head, tail []byte, rr rowRange) error {
	var seg spoolSegment
	if k := rr.sheet(); rr.to > rr.from && k < len(s.segs) {
		seg = s.segs[k]
	}
	dh, err := deflated(head, false)
	if err != nil {
		return err
	}
	dt, err := deflated(tail, true)
	if err != nil {
		return err
	}
	crc := crc32Combine(crc32.ChecksumIEEE(head), seg.crc, seg.raw)
	crc = crc32Combine(crc, crc32.ChecksumIEEE(tail), int64(len(tail)))
	w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc,
		CompressedSize64:   uint64(len(dh)) + uint64(seg.size) + uint64(len(dt)),
		UncompressedSize64: uint64(len(head)) + uint64(seg.raw) + uint64(len(tail))})
	if err == nil {
		_, err = w.Write(dh)
	}
	if err == nil && seg.size > 0 {
		_, err = io.Copy(w, io.NewSectionReader(s.f, seg.off, seg.size))
	}
	if err == nil {
		_, err = w.Write(dt)
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// deflated is b as a deflate stream: ended (final) or flushed to a byte
// boundary for another stream to follow.
func deflated(b []byte, final bool) ([]byte, error) {
	var out bytes.Buffer
	fw, _ := flate.NewWriter(&out, flate.BestSpeed)
	_, err := fw.Write(b)
	if err == nil && final {
		err = fw.Close()
	} else if err == nil {
		err = fw.Flush()
	}
	return out.Bytes(), err
}

// writeStreamXLSX writes a source's rows to an .xlsx at dst in one reading
// of it (see sheetSpool), total the rows progress counts towards (-1 not
// known); before the workbook is written, ready is called
// with the rows counted and may fail the export (nothing is written then)
// or fill in what the Summary and Compliance sheets show. The report's sum
// is the SHA-256 of the file written; the damage met in the source is the
// caller's to report (s.Warnings).
func writeStreamXLSX(ctx context.Context, s source, dst string, total int, opts Options, ready func(rows int) error) (*Report, error) {
	rep := &Report{Path: dst}
	headers := capHeaders(s.Headers(), rep)
	sp, err := newSheetSpool(dst, newRowWriter(dst, headers, opts.TruncateLongCells, rep))
	if err != nil {
		return nil, err
	}
	defer sp.close()
	if err := spoolRows(ctx, s, sp, total, opts.Progress); err != nil {
		return nil, err
	}
	if ready != nil {
		if err := ready(sp.rows); err != nil {
			return nil, err
		}
	}
	widths := columnWidths(headers, sp.sample)
	rep.sum, err = writeAtomicSum(dst, func(w io.Writer) error {
		return buffered(w, func(bw *bufio.Writer) error {
			return writeWorkbook(bw, headers, widths, sp.rows, opts, rep, sp.entry)
		})
	})
	if err != nil {
		return nil, err
	}
	if opts.Progress != nil {
		opts.Progress(rep.Rows, rep.Rows)
	}
	return rep, nil
}

// spoolRows reads every row of s into the spool: the rows are read (a
// callable list's judged) on a goroutine of their own while this one
// writes the XML of those read before and a third deflates it.
func spoolRows(ctx context.Context, s source, sp *sheetSpool, total int, progress func(done, total int)) error {
	ra := readAhead(s)
	defer ra.stop()
	for {
		b := ra.next()
		for i := range b.ends {
			if err := sp.add(b.row(i), b.src[i]); err != nil {
				return err
			}
			if sp.rows%ctxEvery == 0 {
				if err := cancelled(ctx); err != nil {
					return err
				}
				if progress != nil && sp.rows%(16*ctxEvery) == 0 {
					progress(sp.rows, max(total, sp.rows))
				}
			}
		}
		err := b.err
		ra.done(b)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	if err := sp.finish(); err != nil {
		return writeError(sp.f.Name(), err)
	}
	return nil
}

// aheadRows is how many rows one batch of the read-ahead holds.
const aheadRows = 512

// rowBatch is rows read ahead: their cells one after another (a row's
// strings are its own: the source reuses only the slice), where each row
// ends, its row in the source, and the error that ended the reading.
type rowBatch struct {
	cells []string
	ends  []int
	src   []int
	err   error
}

func (b *rowBatch) start(i int) int {
	if i == 0 {
		return 0
	}
	return b.ends[i-1]
}

// row is the batch's row i.
func (b *rowBatch) row(i int) []string { return b.cells[b.start(i):b.ends[i]:b.ends[i]] }

// reset empties the batch.
func (b *rowBatch) reset() { b.cells, b.ends, b.src, b.err = b.cells[:0], b.ends[:0], b.src[:0], nil }

// add appends a row read as row n of the source.
func (b *rowBatch) add(rec []string, n int) {
	b.cells = append(b.cells, rec...)
	b.ends = append(b.ends, len(b.cells))
	b.src = append(b.src, n)
}

// fill empties the batch and reads into it up to limit rows of s, each
// given to each (when not nil) as it is read, or the error that ends the
// reading; false when quit is closed first.
func (b *rowBatch) fill(s source, limit int, quit <-chan struct{}, each func(rec []string)) bool {
	b.reset()
	for len(b.ends) < limit {
		if len(b.ends)%64 == 63 {
			select {
			case <-quit:
				return false
			default:
			}
		}
		rec, n, err := s.Next()
		if err != nil {
			b.err = err
			break
		}
		if each != nil {
			each(rec)
		}
		b.add(rec, n)
	}
	return true
}

// rowsAhead reads a source's rows on a goroutine of its own, a few batches
// ahead of the one taking them.
type rowsAhead struct {
	full, free chan *rowBatch
	quit       chan struct{}
	ended      chan struct{}
}

func readAhead(s source) *rowsAhead {
	const batches = 3
	ra := &rowsAhead{full: make(chan *rowBatch, batches), free: make(chan *rowBatch, batches),
		quit: make(chan struct{}), ended: make(chan struct{})}
	for range batches {
		ra.free <- &rowBatch{}
	}
	go func() {
		defer close(ra.ended)
		for {
			b, ok := take(ra.free, ra.quit)
			if !ok || !b.fill(s, aheadRows, ra.quit, nil) || !give(ra.full, b, ra.quit) {
				return // the export stopped: read no further
			}
			if b.err != nil {
				return // the last batch
			}
		}
	}()
	return ra
}

// take is the next batch free, or false once quit is closed.
func take[B any](free <-chan B, quit <-chan struct{}) (B, bool) {
	select {
	case b := <-free:
		return b, true
	case <-quit:
		var none B
		return none, false
	}
}

// give hands batch b on to to, or reports false once quit is closed.
func give[B any](to chan<- B, b B, quit <-chan struct{}) bool {
	select {
	case to <- b:
		return true
	case <-quit:
		return false
	}
}

// next is the next batch; the last one read has an error (io.EOF at the end).
func (ra *rowsAhead) next() *rowBatch { return <-ra.full }

// done gives a batch taken back for reuse.
func (ra *rowsAhead) done(b *rowBatch) { ra.free <- b }

// stop ends the reading and waits for it: the source is the caller's again.
func (ra *rowsAhead) stop() {
	close(ra.quit)
	<-ra.ended
}

// crc32Combine is the CRC-32 (IEEE) of two byte strings one after the
// other, from the CRC of each and the second's length (zlib's
// crc32_combine: the first CRC carried over len2 zero bytes by squaring
// the matrix of one zero bit).
func crc32Combine(crc1, crc2 uint32, len2 int64) uint32 {
	if len2 <= 0 {
		return crc1
	}
	var even, odd [32]uint32
	odd[0] = 0xedb88320 // the reversed polynomial: one zero bit
	row := uint32(1)
	for n := 1; n < 32; n++ {
		odd[n] = row
		row <<= 1
	}
	gf2Square(&even, &odd) // two zero bits
	gf2Square(&odd, &even) // four
	for {
		gf2Square(&even, &odd)
		if len2&1 != 0 {
			crc1 = gf2Times(&even, crc1)
		}
		if len2 >>= 1; len2 == 0 {
			break
		}
		gf2Square(&odd, &even)
		if len2&1 != 0 {
			crc1 = gf2Times(&odd, crc1)
		}
		if len2 >>= 1; len2 == 0 {
			break
		}
	}
	return crc1 ^ crc2
}

func gf2Times(mat *[32]uint32, vec uint32) uint32 {
	var sum uint32
	for i := 0; vec != 0; i, vec = i+1, vec>>1 {
		if vec&1 != 0 {
			sum ^= mat[i]
		}
	}
	return sum
}

func gf2Square(square, mat *[32]uint32) {
	for n := range mat {
		square[n] = gf2Times(mat, mat[n])
	}
}
