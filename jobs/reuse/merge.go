package reuse

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/index"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// localID names a merged result that needed no job.
func localID() string {
	var b [4]byte
	rand.Read(b[:])
	return "reuse-" + hex.EncodeToString(b[:])
}

// Merge writes the merged result of a reuse folder into the library
// with its job record: every row of the list in its order, each from the
// new result (raw, "" when no job was needed) or reused from its pin, with
// the source columns; a row found in neither is kept with the list's
// values and marked missing. It returns the merged result's path.
func Merge(ctx context.Context, lib *library.Library, dir string, st State, raw string) (string, error) {
	lf, err := os.Open(filepath.Join(dir, "list.csv"))
	if err != nil {
		return "", err
	}
	defer lf.Close()
	list, err := library.NewRowReader(lf)
	if err != nil {
		return "", fmt.Errorf("the list: %w", err)
	}
	pins, err := openPins(filepath.Join(dir, "pins.jsonl"))
	if err != nil {
		return "", err
	}
	defer pins.close()
	mr := &mergeRun{list: list, pins: pins, job: st.JobID, info: &library.Merged{Sources: st.Sources}}
	var rawMeta library.Meta
	var rawHeader []string
	if raw != "" {
		rf, err := os.Open(raw)
		if err != nil {
			return "", err
		}
		defer rf.Close()
		if mr.fresh, err = library.NewRowReader(rf); err != nil {
			return "", fmt.Errorf("%s: %w", filepath.Base(raw), err)
		}
		rawHeader = mr.fresh.Headers()
		rawMeta, _ = library.ReadRecord(library.RecordPath(raw))
		mr.info.Raw, mr.rawName = filepath.Base(raw), filepath.Base(raw)
	}
	meta := mergedMeta(st, raw, rawMeta)
	mr.date = meta.CompletedAt.UTC().Format(time.DateOnly)
	mr.m = &merger{header: mergedHeader(list.Headers(), rawHeader, pins.headers), listIdx: colIndex(list.Headers()), rawIdx: colIndex(rawHeader)}
	pathMeta := meta
	if pathMeta.JobID == "" {
		pathMeta.JobID = localID()
	}
	dest := lib.PathFor(pathMeta)
	if err := library.WriteAtomic(dest, func(w *bufio.Writer) error { return mr.write(ctx, w) }); err != nil {
		return "", err
	}
	meta.TotalRows, meta.Merged = mr.rows, mr.info
	if err := lib.Record(meta, dest); err != nil {
		return "", err
	}
	mb, _ := json.Marshal(mergedInfo{Path: dest})
	if err := library.WriteFileAtomic(filepath.Join(dir, "merged.json"), mb); err != nil {
		return "", err
	}
	os.Remove(filepath.Join(dir, "list.csv"))
	os.Remove(filepath.Join(dir, "pins.jsonl"))
	return dest, nil
}

// mergedMeta is the merged result's job record: the new job's (it is the
// one charged), named as merged, with the plan's facts.
func mergedMeta(st State, raw string, rawMeta library.Meta) library.Meta {
	meta := rawMeta
	if raw == "" {
		meta = library.Meta{Kind: st.Kind, Mode: st.Mode, IncludeLLCs: st.IncludeLLCs, Status: jobs.StatusCompleted,
			CompletedAt: time.Now().UTC()}
	}
	meta.Kind, meta.JobID = st.Kind, st.JobID
	meta.Name = strings.TrimSuffix(st.Name, filepath.Ext(st.Name)) + " (merged).csv"
	meta.CreatedAt = time.Now().UTC() // when the merged result was made: it is newer than the job's own
	if meta.CompletedAt.IsZero() {
		meta.CompletedAt = meta.CreatedAt
	}
	meta.SourceFile, meta.Mapping = st.Source, st.Mapping
	if meta.ParentTraceID == "" {
		meta.ParentTraceID = st.Parent
	}
	return meta
}

// mergeRun writes one merged result.
type mergeRun struct {
	list    *library.RowReader
	pins    *pinReader
	fresh   *library.RowReader // the new result's rows; nil without a job
	rawName string
	m       *merger
	job     string
	date    string // the new job's, YYYY-MM-DD
	info    *library.Merged
	rows    int
	pending []string // a new row read ahead that matched no list row yet
	line    []byte
}

func (mr *mergeRun) put(w *bufio.Writer, rec []string) error {
	mr.line = input.AppendRecord(mr.line[:0], rec)
	mr.rows++
	_, err := w.Write(mr.line)
	return err
}

// write writes the header, a row for each list row, then the new rows no
// list row matched.
func (mr *mergeRun) write(ctx context.Context, w *bufio.Writer) error {
	if err := mr.put(w, mr.m.header); err != nil {
		return err
	}
	mr.rows = 0
	for i := 0; ; i++ {
		if i&4095 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		rec, err := mr.list.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("the list: %w", err)
		}
		out, err := mr.row(i, rec)
		if err != nil {
			return err
		}
		if err := mr.put(w, out); err != nil {
			return err
		}
	}
	for mr.fresh != nil {
		r, err := mr.nextFresh()
		if err != nil || r == nil {
			return err
		}
		mr.pending = nil
		mr.info.NewRows++
		if err := mr.put(w, mr.m.fresh(r, mr.job, mr.date)); err != nil {
			return err
		}
	}
	return nil
}

// row is the merged row of list row i.
func (mr *mergeRun) row(i int, rec []string) ([]string, error) {
	pin, err := mr.pins.at(i)
	if err != nil {
		return nil, err
	}
	if pin != nil {
		mr.info.ReusedRows++
		return mr.m.reused(rec, pin, mr.pins.headers[pin.H]), nil
	}
	r, err := mr.nextFresh()
	if err != nil {
		return nil, err
	}
	if r != nil && mr.m.sameRow(rec, r) {
		mr.pending = nil
		mr.info.NewRows++
		return mr.m.fresh(r, mr.job, mr.date), nil
	}
	mr.info.MissingRows++
	return mr.m.missing(rec), nil
}

// nextFresh is the next row of the new result not yet written (read
// ahead, kept until a list row matches it); nil at the end.
func (mr *mergeRun) nextFresh() ([]string, error) {
	if mr.pending != nil || mr.fresh == nil {
		return mr.pending, nil
	}
	r, err := mr.fresh.Next()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", mr.rawName, err)
	}
	mr.pending = slices.Clone(r)
	return mr.pending, nil
}

// mergedHeader is the merged result's header: the new result's (else the
// list's), then the columns of the earlier results it lacks (not the
// person's own: those come from the list), then the source columns.
func mergedHeader(list, raw []string, earlier [][]string) []string {
	base := raw
	if len(base) == 0 {
		base = list
	}
	h := make([]string, 0, len(base)+len(library.SourceColumns))
	seen := map[string]bool{}
	isSource := func(c string) bool { return slices.Contains(library.SourceColumns, strings.TrimSpace(c)) }
	add := func(c string) {
		k := strings.TrimSpace(c)
		if !seen[k] && !isSource(c) {
			seen[k] = true
			h = append(h, c)
		}
	}
	for _, c := range base {
		add(c)
	}
	for _, c := range list {
		seen[strings.TrimSpace(c)] = true
	}
	for _, eh := range earlier {
		for _, c := range eh {
			add(c)
		}
	}
	return append(h, library.SourceColumns...)
}

func colIndex(header []string) map[string]int {
	m := map[string]int{}
	for i, h := range header {
		k := strings.TrimSpace(h)
		if _, ok := m[k]; !ok {
			m[k] = i
		}
	}
	return m
}

// merger makes the merged result's rows.
type merger struct {
	header          []string
	listIdx, rawIdx map[string]int
}

func cellAt(rec []string, m map[string]int, col string) (string, bool) {
	i, ok := m[strings.TrimSpace(col)]
	if !ok || i >= len(rec) {
		return "", ok
	}
	return rec[i], true
}

// reused is a list row with an earlier row's data: the person's own
// columns from the list, the others from the earlier row.
func (m *merger) reused(list []string, p *pinLine, eh []string) []string {
	eIdx := colIndex(eh)
	out := make([]string, 0, len(m.header))
	for _, c := range m.header[:len(m.header)-len(library.SourceColumns)] {
		if v, ok := cellAt(list, m.listIdx, c); ok {
			out = append(out, v)
			continue
		}
		v, _ := cellAt(p.Cells, eIdx, c)
		out = append(out, v)
	}
	return append(out, library.SourceReused, p.Job, p.Date)
}

// fresh is a row of the new result.
func (m *merger) fresh(r []string, job, date string) []string {
	out := make([]string, 0, len(m.header))
	for _, c := range m.header[:len(m.header)-len(library.SourceColumns)] {
		v, _ := cellAt(r, m.rawIdx, c)
		out = append(out, v)
	}
	return append(out, library.SourceNew, job, date)
}

// missing is a list row whose data was found nowhere.
func (m *merger) missing(list []string) []string {
	out := make([]string, 0, len(m.header))
	for _, c := range m.header[:len(m.header)-len(library.SourceColumns)] {
		v, _ := cellAt(list, m.listIdx, c)
		out = append(out, v)
	}
	return append(out, library.SourceMissing, "", "")
}

// sameRow reports whether a row of the new result is the list row: the
// person's columns it echoes read the same (case, spaces and punctuation
// aside). A result that echoes none is taken in order.
func (m *merger) sameRow(list, r []string) bool {
	for col, i := range m.listIdx {
		j, ok := m.rawIdx[col]
		if !ok || i >= len(list) || j >= len(r) {
			continue
		}
		if strings.Join(index.Words(list[i]), " ") != strings.Join(index.Words(r[j]), " ") {
			return false
		}
	}
	return true
}

// pinReader reads pins.jsonl in list order.
type pinReader struct {
	f       *os.File
	dec     *json.Decoder
	headers [][]string
	next    *pinLine
	done    bool
}

// openPins reads every header line first (they come before the rows that
// follow them), then serves rows in order.
func openPins(path string) (*pinReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	pr := &pinReader{f: f}
	// The headers, all of them, for the merged header.
	dec := json.NewDecoder(bufio.NewReader(f))
	for {
		var l pinLine
		if err := dec.Decode(&l); err == io.EOF {
			break
		} else if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if l.Header != nil {
			pr.headers = append(pr.headers, l.Header)
		}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	pr.dec = json.NewDecoder(bufio.NewReaderSize(f, 256<<10))
	return pr, nil
}

// at is the pin of list row i, nil when the row is not reused.
func (pr *pinReader) at(i int) (*pinLine, error) {
	for !pr.done && (pr.next == nil || pr.next.Row < i) {
		var l pinLine
		if err := pr.dec.Decode(&l); err == io.EOF {
			pr.done, pr.next = true, nil
			break
		} else if err != nil {
			return nil, err
		}
		if l.Header == nil {
			pr.next = &l
		}
	}
	if pr.next != nil && pr.next.Row == i {
		p := pr.next
		pr.next = nil
		return p, nil
	}
	return nil, nil
}

func (pr *pinReader) close() { pr.f.Close() }
