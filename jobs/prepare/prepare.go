// Package prepare writes the file that is actually uploaded: the plain UTF-8
// comma CSV the provider accepts (from an .xlsx, a UTF-16 or Windows-1252
// file, a file with title lines above its header…), with the columns derived
// from accepted splits and, if asked, without duplicate rows. When nothing
// needs changing the original file is uploaded as it is. Either way the
// upload's SHA-256 is computed, for the ledger.
package prepare

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"hash/maphash"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/entity"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Plan says what the upload must be.
type Plan struct {
	// Mapping is the column mapping in terms of the inspected headers. The
	// keys an accepted split derives may point anywhere: they are set to the
	// derived columns.
	Mapping mapping.Mapping
	// Splits are the accepted splits; their derived columns are appended to
	// every row.
	Splits []mapping.Split
	// DropDuplicates drops each row whose duplicate key repeats an earlier
	// row's (the earlier row is kept).
	DropDuplicates bool
	// Kind is the kind of submission. For a DNC scrub, duplicates are rows
	// whose phone normalises to a number already seen (what phone.Scan
	// counts as Duplicates); invalid phones are never dropped.
	Kind jobs.Kind
	// KeyColumns form the duplicate key; nil means DefaultKeyColumns (the
	// mapped columns, the key estimate.Options gives the inspection, so that
	// the rows dropped are the ones Inspection.DuplicateRows counted). Values
	// compare as the inspection compares them: case, spaces and punctuation
	// ignored. Columns not in the file are ignored; with none left, whole
	// rows are compared.
	KeyColumns []string
	// Input says how to read the file; HeaderLine and Sheet default to the
	// inspection's.
	Input input.Options
	// Dir receives the written file; "" makes a new temporary folder.
	Dir string
	// Keep, when set, sees each row the upload would hold (splits
	// applied, duplicates dropped) and says whether it stays in; the rows
	// it leaves out are counted in Upload.LeftOut. A plan with Keep always
	// writes a prepared copy.
	Keep func(rec []string) bool
	// KeepReason says in words why Keep leaves rows out (Describe).
	KeepReason string

	// Repairs the person chose before paying (see Repairs).
	Repairs
}

// Repairs mend a list before it is paid for: ZIP codes that lost their
// leading zero in Excel get it back, and rows that cannot be searched
// (no address, an invalid phone) or whose answer would mean nothing (a
// number outside the US) are left out, so they are not charged.
type Repairs struct {
	// PadZips are columns whose 4-digit ZIP codes (and 4-digit ZIP+4,
	// "2134-5678") get back the zero Excel dropped.
	PadZips []string `json:"pad_zips,omitempty"`
	// LeaveOutBlank: rows blank in any of these columns are left out.
	LeaveOutBlank []string `json:"leave_out_blank,omitempty"`
	// LeaveOutInvalid: a phone list's rows whose phone is not a valid
	// number (what a scrub would refund) are left out.
	LeaveOutInvalid bool `json:"leave_out_invalid,omitempty"`
	// LeaveOutAbroad: a phone list's rows whose phone is a valid number
	// outside the US (phone.Abroad), which a US scrub charges for and
	// cannot answer, are left out.
	LeaveOutAbroad bool `json:"leave_out_abroad,omitempty"`
}

// Any reports whether any repair is chosen.
func (r Repairs) Any() bool {
	return len(r.PadZips) > 0 || len(r.LeaveOutBlank) > 0 || r.LeaveOutInvalid || r.LeaveOutAbroad
}

// Repaired counts what the repairs did to an upload.
type Repaired struct {
	PaddedZips     int `json:"padded_zips,omitempty"`      // values given their zero back
	LeftOutBlank   int `json:"left_out_blank,omitempty"`   // rows left out for a blank column
	LeftOutInvalid int `json:"left_out_invalid,omitempty"` // rows left out for an invalid phone
	LeftOutAbroad  int `json:"left_out_abroad,omitempty"`  // rows left out for a number outside the US
}

// Upload is the file to send.
type Upload struct {
	Path     string          `json:"path"`      // the file to upload
	FileName string          `json:"file_name"` // the name to send (the job's name)
	Mapping  mapping.Mapping `json:"mapping"`   // the column_mapping to send
	Rows     int             `json:"rows"`      // data rows in the upload
	Size     int64           `json:"size"`
	SHA256   string          `json:"sha256"` // hex digest of the uploaded bytes
	// Written is false when Path is the original file.
	Written bool `json:"written"`
	// Reasons say why a new file was written, in words.
	Reasons []string `json:"reasons,omitempty"`
	// DroppedDuplicates counts rows left out as duplicates.
	DroppedDuplicates int `json:"dropped_duplicates"`
	// SplitFailures counts, per split column, non-blank values that could
	// not be split (kept whole in the first derived column).
	SplitFailures map[string]int `json:"split_failures,omitempty"`
	// LeftOut counts the rows Plan.Keep left out.
	LeftOut int `json:"left_out,omitempty"`
	// Repaired counts what the plan's repairs did.
	Repaired
	tempDir string
	// dups count what the repairs and splits did to the duplicate rows a
	// count marks (streamRows) rather than leaves out.
	dups struct {
		Repaired
		splitFails map[string]int
	}
}

// Remove deletes the written file (and the temporary folder Prepare made);
// it never touches an original file.
func (u *Upload) Remove() error {
	if !u.Written || u.Path == "" {
		return nil
	}
	if u.tempDir != "" {
		return os.RemoveAll(u.tempDir)
	}
	return os.Remove(u.Path)
}

// ErrTooLarge is returned (wrapped) when the upload would exceed the
// provider's 50 MB limit.
var ErrTooLarge = errors.New("over the 50 MB upload limit")

// Prepare decides what to upload for the file src inspected as ins and
// writes it when the original will not do.
func Prepare(ctx context.Context, src string, ins *input.Inspection, plan Plan) (*Upload, error) {
	if ins == nil {
		return nil, errors.New("prepare: no inspection")
	}
	m, derived, err := layout(src, ins, plan)
	if err != nil {
		return nil, err
	}
	headers := ins.Headers
	u := &Upload{Mapping: m, FileName: filepath.Base(src)}

	written, why := Describe(ins, plan)
	if !written {
		return asIs(src, ins, u)
	}
	u.Reasons = why
	u.FileName = UploadName(src, true)

	dir := plan.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "skipdesk-upload-*")
		if err != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
		dir, u.tempDir = d, d
	}
	u.Path = filepath.Join(dir, u.FileName)
	for n := 2; ; n++ { // never overwrite: the name sent stays FileName
		if _, err := os.Lstat(u.Path); errors.Is(err, os.ErrNotExist) {
			break
		}
		u.Path = filepath.Join(dir, fmt.Sprintf("%s-%d.csv", strings.TrimSuffix(u.FileName, ".csv"), n))
	}
	u.Written = true
	if err := write(ctx, src, ins, plan, headers, derived, u); err != nil {
		u.Remove()
		return nil, err
	}
	if u.Size > input.MaxUploadBytes {
		u.Remove()
		return nil, fmt.Errorf("prepare: the file to upload would be %.1f MB: %w; split the list", mb(u.Size), ErrTooLarge)
	}
	return u, nil
}

// asIs is u uploading the picked file src as it is.
func asIs(src string, ins *input.Inspection, u *Upload) (*Upload, error) {
	if ins.TooLarge || ins.Size > input.MaxUploadBytes {
		return nil, fmt.Errorf("prepare: %s is %.1f MB: %w; split the list", filepath.Base(src), mb(ins.Size), ErrTooLarge)
	}
	sum, n := ins.SHA256, ins.Size // taken as the file was inspected
	if st, err := os.Stat(src); err != nil || st.Size() != n {
		sum = "" // changed since: read it again
	}
	if sum == "" {
		var err error
		if sum, n, err = input.HashFile(src); err != nil {
			return nil, err
		}
	}
	u.Path, u.Rows, u.Size, u.SHA256 = src, ins.Rows, n, sum
	return u, nil
}

func mb(n int64) float64 { return float64(n) / (1 << 20) }

// UploadName is the name an upload of src is sent under (the job's name):
// the file's own, with a .csv extension when a prepared copy is sent.
func UploadName(src string, written bool) string {
	name := filepath.Base(src)
	if ext := filepath.Ext(name); written && !strings.EqualFold(ext, ".csv") {
		name = strings.TrimSuffix(name, ext) + ".csv"
	}
	return name
}

// Describe says, without reading the file, whether the plan uploads a
// prepared copy of the inspected file rather than the file itself, and
// why, in words. A repair that finds nothing to mend in the file (no
// shortened ZIP code, no blank street) is no reason.
func Describe(ins *input.Inspection, plan Plan) (written bool, reasons []string) {
	reasons = append(reasons, ins.ConversionReasons...)
	if len(plan.Splits) > 0 {
		reasons = append(reasons, "split columns are added")
	}
	if plan.DropDuplicates {
		reasons = append(reasons, "duplicate rows are left out")
	}
	if plan.Keep != nil {
		reasons = append(reasons, plan.KeepReason)
	}
	if padsZips(ins, plan.PadZips) {
		reasons = append(reasons, "ZIP codes get back the leading zero Excel dropped")
	}
	if blankIn(ins, plan.LeaveOutBlank) {
		reasons = append(reasons, "rows without an address are left out")
	}
	if plan.LeaveOutInvalid {
		reasons = append(reasons, "invalid phone numbers are left out")
	}
	if plan.LeaveOutAbroad {
		reasons = append(reasons, "phone numbers outside the US are left out")
	}
	if len(reasons) == 0 && ins.Format == "csv" {
		return false, nil
	}
	if ins.Format != "csv" && len(ins.ConversionReasons) == 0 {
		reasons = append(reasons, "the file is converted to CSV")
	}
	return true, reasons
}

// padsZips reports whether the inspection found ZIP codes Excel shortened
// in one of cols: only then does their repair change the upload.
func padsZips(ins *input.Inspection, cols []string) bool {
	for _, c := range cols {
		if i := slices.Index(ins.Headers, c); i >= 0 && i < len(ins.ShortZipsIn) && ins.ShortZipsIn[i] > 0 {
			return true
		}
	}
	return false
}

// blankIn reports whether the inspection found blank values in one of
// cols, or did not count them: leaving such rows out may change the
// upload.
func blankIn(ins *input.Inspection, cols []string) bool {
	for _, c := range cols {
		i := slices.Index(ins.Headers, c)
		if i < 0 || i >= len(ins.Blanks) || ins.Blanks[i] > 0 {
			return true
		}
	}
	return false
}

// layout returns the mapping to send and the derived column names.
func layout(src string, ins *input.Inspection, plan Plan) (mapping.Mapping, []string, error) {
	m := plan.Mapping.Clean()
	headers := ins.Headers
	var derived []string
	for _, sp := range plan.Splits {
		if !slices.Contains(headers, sp.Column) {
			return nil, nil, &input.FileError{Path: src, Column: sp.Column, Msg: "the column to split is not in the file"}
		}
		cols := sp.Columns(append(slices.Clone(headers), derived...))
		for i, c := range cols {
			m[sp.Keys[i]] = c
		}
		derived = append(derived, cols...)
	}
	return m, derived, nil
}

// UploadMapping is the mapping the plan's upload is sent with (the keys of
// accepted splits pointing to their derived columns), in terms of its
// header: the file's headers, then the derived columns.
func UploadMapping(src string, ins *input.Inspection, plan Plan) (mapping.Mapping, error) {
	m, _, err := layout(src, ins, plan)
	return m, err
}

// Counts are what an upload will hold, found without writing it.
type Counts struct {
	Rows              int             `json:"rows"`        // data rows of the upload
	EntityRows        int             `json:"entity_rows"` // company rows by the mapped names (CONTRACT §2)
	DroppedDuplicates int             `json:"dropped_duplicates"`
	NameColumns       []string        `json:"name_columns"` // the upload's name columns (derived ones included)
	Mapping           mapping.Mapping `json:"mapping"`      // the mapping that will be sent
	// SplitFailures counts, per split column, values that could not be
	// split (kept whole in the first derived column).
	SplitFailures map[string]int `json:"split_failures,omitempty"`
	// Repaired counts what the plan's repairs did.
	Repaired
}

// Count runs the plan without writing anything and counts the rows and
// company rows of the upload it would produce: what the provider will
// bill, exactly, with duplicates dropped and splits applied (use it with
// estimate.WithCounts).
func Count(ctx context.Context, src string, ins *input.Inspection, plan Plan) (*Counts, error) {
	t, err := CountBoth(ctx, src, ins, plan, nil)
	if err != nil {
		return nil, err
	}
	if plan.DropDuplicates {
		return &t.Without, nil
	}
	return &t.With, nil
}

// Tally is what a plan's upload holds with its duplicate rows and without
// them, counted in one reading of the file.
type Tally struct {
	// With: every row (DroppedDuplicates 0). Without: the rows repeating an
	// earlier one left out (DroppedDuplicates says how many).
	With, Without Counts
}

// CountBoth counts the plan's upload as Count does, with its duplicates
// and without them, in one reading of the file (the plan's DropDuplicates
// aside), and hands each (when not nil) the upload's header, then every
// row of the upload with them (splits applied, repairs made) and whether
// it repeats an earlier row.
func CountBoth(ctx context.Context, src string, ins *input.Inspection, plan Plan, each func(rec []string, header, dup bool) error) (*Tally, error) {
	c, err := NewCounter(src, ins, plan, each)
	if err != nil {
		return nil, err
	}
	return c.Read(ctx, src, ins, plan)
}

// Read reads src's data rows (ins and plan the counter's) into the count,
// and says what was counted.
func (c *Counter) Read(ctx context.Context, src string, ins *input.Inspection, plan Plan) (*Tally, error) {
	if err := eachRow(ctx, src, ins, plan, c.rs.headers, c.Row); err != nil {
		return nil, err
	}
	return c.Tally(), nil
}

// Counter is CountBoth for rows handed to it one by one (Row, the file's
// rows in order as input reads them): so that a reading of the file made
// for something else (an inspection) counts the upload too. ins needs its
// header (Headers, HeaderLine, Sheet) only.
type Counter struct {
	rs      *rowStream
	t       Tally
	nameIdx []int
	name    []byte
	each    func(rec []string, header, dup bool) error
	// hand and dup are NewCounterHanding's; handed counts the rows handed.
	hand   func(rec []string, header, company bool) error
	dup    func(row int)
	handed int
	// later finds the duplicate rows after the rows are read (see
	// laterSet); nil when each must be told row by row.
	later *laterSet
}

// NewCounter starts counting plan's upload; each is as CountBoth's (it
// is handed the header now).
func NewCounter(src string, ins *input.Inspection, plan Plan, each func(rec []string, header, dup bool) error) (*Counter, error) {
	return newCounter(src, ins, plan, &Counter{each: each})
}

// NewCounterHanding is NewCounter handing hand the upload's header (header
// true), then each row of the upload as it counts it (splits applied,
// repairs made; company: a company row by the upload's name columns), the
// rows repeating an earlier one too; dup is told the
// place (0 the first) among the rows handed of each row repeating an
// earlier one: as it is handed, or, when the count finds its duplicate
// rows after the pass, by Tally, in no order.
func NewCounterHanding(src string, ins *input.Inspection, plan Plan, hand func(rec []string, header, company bool) error, dup func(row int)) (*Counter, error) {
	return newCounter(src, ins, plan, &Counter{hand: hand, dup: dup})
}

func newCounter(src string, ins *input.Inspection, plan Plan, c *Counter) (*Counter, error) {
	if ins == nil {
		return nil, errors.New("prepare: no inspection")
	}
	m, derived, err := layout(src, ins, plan)
	if err != nil {
		return nil, err
	}
	for _, cs := range []*Counts{&c.t.With, &c.t.Without} {
		cs.NameColumns, cs.Mapping = m.NameColumns(), m
	}
	plan.DropDuplicates = true // found, and marked
	c.rs, err = newRowStream(src, ins, plan, ins.Headers, derived, &Upload{}, true, c.emit)
	if err != nil {
		return nil, err
	}
	if c.each == nil && len(plan.Splits) <= maxLaterSplits && len(c.rs.sh.fix.zips) <= effPadMax {
		c.later = newLaterSet(ExpectRows(ins), c.dropLater)
	}
	return c, nil
}

// Row counts the file's next data row (as wide as its header).
func (c *Counter) Row(row []string) error {
	if c.later != nil {
		return c.rowLater(row)
	}
	return c.rs.row(row)
}

// rowLater is rowStream.row for a counter that finds the duplicate rows
// after the pass: every row is counted as if it repeated none, and what it
// added goes with its key to the later set, which takes a row found
// repeated back out of the counts without duplicates (dropLater).
func (c *Counter) rowLater(row []string) error {
	rs := c.rs
	sh, u := rs.sh, rs.u
	if sh.fix.leaveOut(row, &u.Repaired) {
		return nil
	}
	k, keyed := sh.key(row)
	padded := u.PaddedZips
	var failed uint64
	rs.out, failed = sh.shape(rs.out[:0], row, &u.Repaired, rs.splitFails)
	eff := rowEffect(u.PaddedZips-padded)<<effPadShift | rowEffect(failed)<<effSplit0
	if keep := sh.plan.Keep; keep != nil && !keep(rs.out) {
		u.LeftOut++
	} else {
		eff |= effHanded
		company := c.company(rs.out)
		if company {
			eff |= effCompany
		}
		c.t.With.add(company)
		c.t.Without.add(company)
	}
	if keyed {
		c.later.add(k, eff, uint32(c.handed))
	}
	if eff&effHanded == 0 || c.hand == nil {
		return nil
	}
	c.handed++
	return c.hand(rs.out, false, eff&effCompany != 0)
}

// dropLater takes a row found repeating an earlier one out of the counts
// without duplicates (what rowStream.row counts for a duplicate row), and
// tells dup its place among the rows handed.
func (c *Counter) dropLater(e rowEffect, row uint32) {
	rs := c.rs
	u := rs.u
	u.DroppedDuplicates++
	if e&effHanded != 0 {
		c.t.Without.Rows--
		if e&effCompany != 0 {
			c.t.Without.EntityRows--
		}
		if c.dup != nil {
			c.dup(int(row))
		}
	}
	n := e.padded()
	u.PaddedZips -= n
	u.dups.PaddedZips += n
	e.failed(func(i int) {
		col := rs.sh.plan.Splits[i].Column
		if rs.splitFails[col]--; rs.splitFails[col] == 0 {
			delete(rs.splitFails, col)
		}
		u.dups.splitFails[col]++
	})
}

func (c *Counter) emit(rec []string, header, dup bool) error {
	company := false
	if header {
		for _, h := range c.t.With.NameColumns {
			if i := slices.Index(rec, h); i >= 0 {
				c.nameIdx = append(c.nameIdx, i)
			}
		}
	} else {
		company = c.company(rec)
		c.t.With.add(company)
		if !dup {
			c.t.Without.add(company)
		}
	}
	if c.each != nil {
		return c.each(rec, header, dup)
	}
	return c.handRow(rec, header, dup, company)
}

// handRow hands a row counted row by row to hand, and tells dup of it.
func (c *Counter) handRow(rec []string, header, dup, company bool) error {
	if c.hand == nil {
		return nil
	}
	if !header {
		if dup && c.dup != nil {
			c.dup(c.handed)
		}
		c.handed++
	}
	return c.hand(rec, header, company)
}

// company reports whether the upload's row rec is a company row by its
// name columns.
func (c *Counter) company(rec []string) bool {
	c.name = c.name[:0]
	for j, i := range c.nameIdx {
		if j > 0 {
			c.name = append(c.name, ' ')
		}
		c.name = append(c.name, rec[i]...)
	}
	return len(c.nameIdx) > 0 && entity.IsEntityBytes(c.name)
}

// Tally is what was counted, once every row is handed.
func (c *Counter) Tally() *Tally {
	if c.later != nil {
		c.later.flush()
	}
	c.rs.done()
	t, u := c.t, c.rs.u
	t.Without.DroppedDuplicates, t.Without.SplitFailures, t.Without.Repaired = u.DroppedDuplicates, u.SplitFailures, u.Repaired
	// With them: their repairs and split failures too.
	t.With.Repaired = Repaired{PaddedZips: u.PaddedZips + u.dups.PaddedZips, LeftOutBlank: u.LeftOutBlank, LeftOutInvalid: u.LeftOutInvalid,
		LeftOutAbroad: u.LeftOutAbroad}
	fails := maps.Clone(u.dups.splitFails)
	for col, n := range u.SplitFailures {
		fails[col] += n
	}
	if len(fails) > 0 {
		t.With.SplitFailures = fails
	}
	return &t
}

func (c *Counts) add(company bool) {
	c.Rows++
	if company {
		c.EntityRows++
	}
}

func write(ctx context.Context, src string, ins *input.Inspection, plan Plan, headers, derived []string, u *Upload) error {
	f, err := os.OpenFile(u.Path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	defer f.Close()
	if err := writeTo(ctx, src, ins, plan, headers, derived, u, f, u.Path); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return writeErr(u.Path, err)
	}
	if err := f.Close(); err != nil {
		return writeErr(u.Path, err)
	}
	return nil
}

// writeTo writes the upload's bytes into w (named to in errors), counting
// its rows, size and SHA-256 into u.
func writeTo(ctx context.Context, src string, ins *input.Inspection, plan Plan, headers, derived []string, u *Upload, w io.Writer, to string) error {
	cw := NewCopyWriter(w, false)
	err := stream(ctx, src, ins, plan, headers, derived, u, func(rec []string, header bool) error {
		if err := cw.Row(rec, header, false); err != nil {
			return writeErr(to, err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := cw.Flush(); err != nil {
		return writeErr(to, err)
	}
	u.Rows, u.Size, u.SHA256 = cw.Rows, cw.Size(), cw.SHA256()
	return nil
}

// CopyWriter writes the rows of an upload as its prepared copy (the
// header, then each row), counting them, its size and its SHA-256: the one
// place the copy's bytes are made, by Prepare and Stream, and by a reading
// of the file made for the quote (Counter's rows, handed to Row).
type CopyWriter struct {
	bw   *bufio.Writer
	cw   *input.CountWriter
	h    hash.Hash
	line []byte
	drop bool
	// Rows counts the data rows written.
	Rows int
}

// NewCopyWriter writes the copy into w; with dropDuplicates, rows handed
// to Row as repeating an earlier one are left out.
func NewCopyWriter(w io.Writer, dropDuplicates bool) *CopyWriter {
	h := sha256.New()
	cw := &input.CountWriter{W: io.MultiWriter(w, h)}
	return &CopyWriter{bw: bufio.NewWriterSize(cw, 256<<10), cw: cw, h: h, drop: dropDuplicates}
}

// Row writes the upload's header or its next row (dup: it repeats an
// earlier row). input.AppendRecord, not encoding/csv: a line break inside
// a value reaches the provider as the list wrote it.
func (c *CopyWriter) Row(rec []string, header, dup bool) error {
	if dup && c.drop {
		return nil
	}
	c.line = input.AppendRecord(c.line[:0], rec)
	if _, err := c.bw.Write(c.line); err != nil {
		return err
	}
	if !header {
		c.Rows++
	}
	return nil
}

// Flush writes what is buffered; Size and SHA256 are then the copy's.
func (c *CopyWriter) Flush() error { return c.bw.Flush() }

// Size is the number of bytes written (after Flush, the copy's size).
func (c *CopyWriter) Size() int64 { return c.cw.N }

// SHA256 is the hex digest of the bytes written (call it after Flush).
func (c *CopyWriter) SHA256() string { return hex.EncodeToString(c.h.Sum(nil)) }

// stream reads src and hands emit the upload's header, then each row it
// keeps (duplicates dropped, split columns appended). It counts dropped
// duplicates and split failures into u. rec is reused between calls.
func stream(ctx context.Context, src string, ins *input.Inspection, plan Plan, headers, derived []string, u *Upload, emit func(rec []string, header bool) error) error {
	return streamRows(ctx, src, ins, plan, headers, derived, u, false, func(rec []string, header, _ bool) error { return emit(rec, header) })
}

// streamRows is stream; with mark, a row repeating an earlier one (when
// the plan drops duplicates) is handed to emit with dup set rather than
// left out, counted in u.DroppedDuplicates all the same, and what the
// repairs and splits do to it is not counted into u.
func streamRows(ctx context.Context, src string, ins *input.Inspection, plan Plan, headers, derived []string, u *Upload, mark bool,
	emit func(rec []string, header, dup bool) error) error {
	rs, err := newRowStream(src, ins, plan, headers, derived, u, mark, emit)
	if err != nil {
		return err
	}
	if err := eachRow(ctx, src, ins, plan, headers, rs.row); err != nil {
		return err
	}
	rs.done()
	return nil
}

// eachRow reads src's data rows, as inspected (its headers must still be
// headers), and hands each to fn.
func eachRow(ctx context.Context, src string, ins *input.Inspection, plan Plan, headers []string, fn func(row []string) error) error {
	opts := plan.Input
	if opts.HeaderLine == 0 {
		opts.HeaderLine = ins.HeaderLine
	}
	if opts.Sheet == "" {
		opts.Sheet = ins.Sheet
	}
	opts.SampleRows = -1
	r, err := input.Open(src, opts)
	if err != nil {
		return err
	}
	defer r.Close()
	if !slices.Equal(r.Headers(), headers) {
		return &input.FileError{Path: src, Line: r.HeaderLine(), Msg: "the file changed since it was inspected: inspect it again"}
	}
	return r.Each(ctx, fn)
}

// rowStream makes the file's rows handed to it into the upload's and
// hands each to emit (see streamRows).
type rowStream struct {
	sh         *shaper
	u          *Upload
	mark       bool
	emit       func(rec []string, header, dup bool) error
	headers    []string
	out        []string
	splitFails map[string]int
}

// newRowStream sets up the stream and hands emit the upload's header.
func newRowStream(src string, ins *input.Inspection, plan Plan, headers, derived []string, u *Upload, mark bool,
	emit func(rec []string, header, dup bool) error) (*rowStream, error) {
	sh, err := newShaper(src, ins, plan, headers)
	if err != nil {
		return nil, err
	}
	rs := &rowStream{sh: sh, u: u, mark: mark, emit: emit, headers: headers, splitFails: map[string]int{}}
	u.dups.splitFails = map[string]int{}
	rs.out = append(slices.Clone(headers), derived...)
	if err := emit(rs.out, true, false); err != nil {
		return nil, err
	}
	return rs, nil
}

// row makes one row of the file the upload's (or leaves it out).
func (rs *rowStream) row(row []string) error {
	u := rs.u
	if rs.sh.fix.leaveOut(row, &u.Repaired) {
		return nil
	}
	dup := rs.sh.repeats(row)
	repaired, fails := &u.Repaired, rs.splitFails
	if dup {
		u.DroppedDuplicates++
		if !rs.mark {
			return nil
		}
		repaired, fails = &u.dups.Repaired, u.dups.splitFails // not the upload's
	}
	rs.out, _ = rs.sh.shape(rs.out[:0], row, repaired, fails)
	if keep := rs.sh.plan.Keep; keep != nil && !keep(rs.out) {
		u.LeftOut++
		return nil
	}
	return rs.emit(rs.out, false, dup)
}

// done notes what the stream counted into its upload.
func (rs *rowStream) done() {
	if len(rs.splitFails) > 0 {
		rs.u.SplitFailures = rs.splitFails
	}
}

// shaper makes a file's rows into the upload's: it tells the rows that
// repeat an earlier one (when the plan drops duplicates), makes the
// repairs and appends the split columns. Set up once, so that streamRows
// is its read loop.
type shaper struct {
	plan      Plan
	splitCols []int
	phoneCol  int   // a scrub's duplicates: the normalised phone (see duplicateKey)
	keyIdx    []int // else the normalised values of these columns
	fix       repairs
	seen      *keySet // nil: duplicates are not looked for
	s1, s2    maphash.Seed
	keyBytes  []byte
}

func newShaper(src string, ins *input.Inspection, plan Plan, headers []string) (*shaper, error) {
	sh := &shaper{plan: plan, splitCols: make([]int, len(plan.Splits)), s1: maphash.MakeSeed(), s2: maphash.MakeSeed()}
	for i, sp := range plan.Splits {
		sh.splitCols[i] = slices.Index(headers, sp.Column)
	}
	var err error
	if sh.phoneCol, sh.keyIdx, err = duplicateKey(src, plan, headers); err != nil {
		return nil, err
	}
	if sh.fix, err = repairsOf(src, plan, headers); err != nil {
		return nil, err
	}
	if plan.DropDuplicates {
		sh.seen = newKeySet(ExpectRows(ins))
	}
	return sh, nil
}

// ExpectRows is the rows ins counted, or, while it is still reading (a
// Counter fed by the inspection), a guess from the file's size: a set
// sized for them does not grow row after row.
func ExpectRows(ins *input.Inspection) int {
	if ins.Rows > len(ins.Sample) || ins.Size <= 0 {
		return ins.Rows
	}
	return int(min(ins.Size/100, 1<<22))
}

// repeats reports whether row repeats an earlier row handed to it.
func (sh *shaper) repeats(row []string) bool {
	if sh.seen == nil {
		return false
	}
	k, ok := sh.key(row)
	return ok && sh.seen.seenBefore(k)
}

// key is row's duplicate key; ok is false for a row that repeats no other
// (a scrub's row whose phone is not a valid number).
func (sh *shaper) key(row []string) (k [2]uint64, ok bool) {
	if sh.phoneCol >= 0 {
		n := phone.Normalize(row[sh.phoneCol])
		return [2]uint64{maphash.String(sh.s1, n.Digits), 0}, n.Valid
	}
	sh.keyBytes = sh.keyBytes[:0]
	for _, i := range sh.keyIdx {
		sh.keyBytes = appendNormalized(sh.keyBytes, row[i])
	}
	return [2]uint64{maphash.Bytes(sh.s1, sh.keyBytes), maphash.Bytes(sh.s2, sh.keyBytes)}, true
}

// shape appends row as the upload holds it to out: zips padded, split
// columns appended; what it did is counted into repaired and fails, and
// failed has bit i set when split i failed (the first 64).
func (sh *shaper) shape(out, row []string, repaired *Repaired, fails map[string]int) (_ []string, failed uint64) {
	out = append(out, row...)
	sh.fix.pad(out, repaired)
	for i, sp := range sh.plan.Splits {
		vals, ok := sp.Apply(row[sh.splitCols[i]])
		if !ok {
			fails[sp.Column]++
			if i < 64 {
				failed |= 1 << i
			}
		}
		out = append(out, vals...)
	}
	return out, failed
}

// keySet is a set of 128-bit row keys with open addressing, kept at most
// half full: one probe of a flat array per row where a map's is several
// (the estimate's duplicate count looks up every row of the list). The
// zero key marks an empty slot; a key of zero is stored as {1, 0}. Its
// slots are made at the first key.
type keySet struct {
	slots [][2]uint64
	n     int
	size  int // the slots made at the first key
}

// newKeySet is a set sized for about n keys.
func newKeySet(n int) *keySet {
	size := 64
	for size < 2*n {
		size *= 2
	}
	return &keySet{size: size}
}

// seenBefore reports whether k is in the set, and puts it there.
func (s *keySet) seenBefore(k [2]uint64) bool {
	if k == [2]uint64{} {
		k[0] = 1
	}
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := k[0] & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case [2]uint64{}:
			s.slots[i] = k
			s.n++
			return false
		case k:
			return true
		}
	}
}

func (s *keySet) grow() {
	old := s.slots
	s.slots, s.n = make([][2]uint64, max(s.size, 2*len(old))), 0
	for _, k := range old {
		if k != [2]uint64{} {
			s.seenBefore(k)
		}
	}
}

// repairs are a plan's Repairs as column indexes of the file.
type repairs struct {
	zips, blank []int
	phone       int // the phone column of invalidOut and abroadOut, -1 none
	invalidOut  bool
	abroadOut   bool
}

// repairsOf sets up the plan's repairs for stream, once.
func repairsOf(src string, plan Plan, headers []string) (repairs, error) {
	r := repairs{phone: -1}
	for _, list := range []struct {
		cols []string
		idx  *[]int
	}{{plan.PadZips, &r.zips}, {plan.LeaveOutBlank, &r.blank}} {
		for _, c := range list.cols {
			i := slices.Index(headers, c)
			if i < 0 {
				return r, &input.FileError{Path: src, Column: c, Msg: "the column to repair is not in the file"}
			}
			*list.idx = append(*list.idx, i)
		}
	}
	r.invalidOut, r.abroadOut = plan.LeaveOutInvalid, plan.LeaveOutAbroad
	if r.invalidOut || r.abroadOut {
		if r.phone = slices.Index(headers, plan.Mapping[mapping.Phone]); r.phone < 0 {
			return r, &input.FileError{Path: src, Column: plan.Mapping[mapping.Phone], Msg: "the phone column is not in the file"}
		}
	}
	return r, nil
}

// leaveOut reports whether the repairs leave row out, and counts it.
func (r repairs) leaveOut(row []string, n *Repaired) bool {
	for _, i := range r.blank {
		if strings.TrimSpace(row[i]) == "" {
			n.LeftOutBlank++
			return true
		}
	}
	if r.phone < 0 {
		return false
	}
	// Key: the number's 10 digits read once, 0 where Normalize finds it
	// invalid (the two agree: phone's TestKeyMatchesNormalize).
	k := phone.Key(row[r.phone])
	switch {
	case k == 0:
		if r.invalidOut {
			n.LeftOutInvalid++
			return true
		}
	case r.abroadOut && phone.Abroad(k) != "":
		n.LeftOutAbroad++
		return true
	}
	return false
}

// pad gives the ZIP codes of out their leading zero back.
func (r repairs) pad(out []string, n *Repaired) {
	for _, i := range r.zips {
		if z, ok := input.PadZip(out[i]); ok {
			out[i] = z
			n.PaddedZips++
		}
	}
}

// duplicateKey is what stream compares rows by when plan drops duplicates:
// a DNC list's normalised phone (phoneCol, -1 otherwise), or else the
// normalised values of the keyIdx columns. Set up here, once, so that
// stream's body is its row loop.
func duplicateKey(src string, plan Plan, headers []string) (phoneCol int, keyIdx []int, err error) {
	phoneCol = -1
	if plan.DropDuplicates && plan.Kind == jobs.KindDNC && plan.KeyColumns == nil {
		phoneCol = slices.Index(headers, plan.Mapping[mapping.Phone])
		if phoneCol < 0 {
			return -1, nil, &input.FileError{Path: src, Column: plan.Mapping[mapping.Phone], Msg: "the phone column is not in the file"}
		}
	} else if plan.DropDuplicates {
		keys := plan.KeyColumns
		if keys == nil {
			keys = DefaultKeyColumns(plan.Mapping, plan.Splits)
		}
		for _, k := range keys {
			if i := slices.Index(headers, k); i >= 0 && !slices.Contains(keyIdx, i) {
				keyIdx = append(keyIdx, i)
			}
		}
		if len(keyIdx) == 0 { // nothing mapped: whole rows
			for i := range headers {
				keyIdx = append(keyIdx, i)
			}
		}
	}
	return phoneCol, keyIdx, nil
}

func writeErr(path string, err error) error {
	return &input.FileError{Path: path, Msg: "cannot write: " + err.Error(), Err: err}
}

// DefaultKeyColumns is the duplicate key used when Plan.KeyColumns is nil:
// the mapped columns and the source columns of the splits (the values the
// provider looks up). estimate.Options keys the inspection the same way for
// a mapping without splits.
func DefaultKeyColumns(m mapping.Mapping, splits []mapping.Split) []string {
	cols := m.Clean().Columns()
	for _, sp := range splits {
		if !slices.Contains(cols, sp.Column) {
			cols = append(cols, sp.Column)
		}
	}
	return cols
}

// appendNormalized appends the duplicate-key form of a field, as the
// inspection computes it: ASCII letters uppercased, digits and non-ASCII
// bytes kept, spaces and ASCII punctuation removed, then a separator.
//
// Each byte is written and kept or not by a table (keyTab), without a
// branch on the text: half a million rows are keyed before a quote.
func appendNormalized(dst []byte, f string) []byte {
	n := len(dst)
	dst = slices.Grow(dst, len(f)+1)[:n+len(f)+1]
	out := dst[n:]
	k := 0
	for i := 0; i < len(f) && k < len(out); i++ {
		e := keyTab[f[i]]
		out[k] = byte(e)
		k += int(e >> 8)
	}
	out[k] = 0x1f
	return dst[:n+k+1]
}

// keyTab is appendNormalized's table: the low byte is what to write, the
// high byte 1 to keep it.
var keyTab = func() (t [256]uint16) {
	for c := range 256 {
		switch {
		case c >= 'a' && c <= 'z':
			t[c] = 1<<8 | uint16(c-'a'+'A')
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c >= 0x80:
			t[c] = 1<<8 | uint16(c)
		}
	}
	return t
}()
