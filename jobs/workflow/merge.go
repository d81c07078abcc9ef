package workflow

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/index"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// A submission that reuses rows keeps, in its own folder under reuse/ (see
// reuseDir), what the merge needs, written before anything is sent:
//
//	state.json  the plan's facts (kind, name, mapping, rows, the job once created)
//	list.csv    every row of the upload as it would have been without reuse, in order
//	pins.jsonl  the reused rows' earlier data, read from the library then, in list order
//
// so that the merge does not depend on the earlier results still being in
// the library when the new job completes. The folder is named ".new-…"
// while it is written, "up-<sha256 of the upload>" once the upload is
// known (an upload whose outcome is unknown is found again by its hash)
// and "<job id>" once the job is created. After the merge only merged.json
// (the merged result's path) stays.

// reuseState is state.json.
type reuseState struct {
	Kind        jobs.Kind             `json:"kind"`
	Name        string                `json:"name"` // the job's name
	Source      string                `json:"source_file"`
	Mode        jobs.Mode             `json:"mode,omitempty"`
	IncludeLLCs bool                  `json:"include_llcs,omitempty"`
	Mapping     map[string]string     `json:"mapping"`
	Parent      string                `json:"parent_trace_id,omitempty"`
	Rows        int                   `json:"rows"`   // of the list
	Reused      int                   `json:"reused"` // rows reused
	JobID       string                `json:"job_id,omitempty"`
	CreatedAt   time.Time             `json:"created_at"`
	Sources     []library.MergeSource `json:"sources"`
}

// pinLine is a line of pins.jsonl: a header of an earlier result (Header
// set), or a reused row.
type pinLine struct {
	Header []string `json:"header,omitempty"`
	H      int      `json:"h"`             // the header the row's cells follow
	Row    int      `json:"row,omitempty"` // the list row (0-based)
	Job    string   `json:"job,omitempty"`
	Date   string   `json:"date,omitempty"` // YYYY-MM-DD
	File   string   `json:"file,omitempty"`
	Cells  []string `json:"cells,omitempty"`
}

// reuseJob is a submission that reuses rows, from its preparation to its
// hand-over to the job.
type reuseJob struct {
	dir    string
	state  reuseState
	reused []bool // by upload row (without reuse), in order
	k      int    // rows Keep has seen
}

// keep is prepare.Plan.Keep: the rows not reused stay in the upload.
func (rj *reuseJob) keep([]string) bool {
	k := rj.k
	rj.k++
	return k >= len(rj.reused) || !rj.reused[k]
}

func (rj *reuseJob) allReused() bool { return rj.state.Rows > 0 && rj.state.Reused == rj.state.Rows }

// prepareReuse reads the plan's upload, finds its rows in the library
// (fresh: the index is brought up to date first), reads the reused rows'
// earlier data and writes the submission's reuse folder. The reused count
// must be the quote's: otherwise a *QuoteChangedError and nothing is kept.
func (s *Service) prepareReuse(ctx context.Context, sess *session, p Plan, ins *input.Inspection, quote *Quote) (*reuseJob, error) {
	if sess.libErr != nil {
		return nil, sess.libErr
	}
	x, _, err := s.syncedIndex(ctx, sess.lib.Dir(), nil)
	if err != nil || x == nil {
		return nil, fmt.Errorf("the library cannot be read to reuse earlier results: %w", err)
	}
	root := reuseDir(sess.lib)
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(root, ".new-")
	if err != nil {
		return nil, err
	}
	rj := &reuseJob{dir: tmp}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	now := time.Now()
	rj.state = reuseState{Kind: p.Kind, Name: p.name(true), Source: p.Path, Mode: p.mode(), IncludeLLCs: p.IncludeLLCs && p.Kind == jobs.KindTrace,
		Mapping: p.Mapping.Clean(), Parent: p.ParentTraceID, CreatedAt: now.UTC()}
	rows, err := writeList(ctx, filepath.Join(tmp, "list.csv"), p, ins)
	if err != nil {
		return nil, err
	}
	rj.state.Rows = len(rows)
	e, err := s.lookupHere(ctx, x, p.Kind, rows, now)
	if err != nil {
		return nil, err
	}
	if err := rj.pin(ctx, x, p, rows, e, now); err != nil {
		return nil, err
	}
	if q := quote; q != nil && q.Reuse != nil && q.Reuse.Skipped && q.Reuse.Rows != rj.state.Reused {
		return nil, &QuoteChangedError{Quoted: q.Reuse.Rows, Now: rj.state.Reused, Kind: p.Kind}
	}
	if err := rj.save(); err != nil {
		return nil, err
	}
	ok = true
	return rj, nil
}

// writeList writes the plan's upload rows (as they would be sent without
// reuse) to path and returns each row's key.
func writeList(ctx context.Context, path string, p Plan, ins *input.Inspection) ([]listRow, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 256<<10)
	var rows []listRow
	var line []byte
	first := true
	err = readList(ctx, p, ins, p.DropDuplicates, p.Mapping.Clean(), func(rec, header []string, r listRow) error {
		if first {
			first = false
			if _, err := w.Write(input.AppendRecord(nil, header)); err != nil {
				return err
			}
		}
		line = input.AppendRecord(line[:0], rec)
		rows = append(rows, r)
		_, err := w.Write(line)
		return err
	})
	if err == nil && first {
		err = errors.New("the list has no rows")
	}
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	return rows, err
}

// pin chooses the earlier row each list row reuses (the newest allowed),
// confirms it against the row itself, and writes pins.jsonl in list order.
func (rj *reuseJob) pin(ctx context.Context, x *index.Index, p Plan, rows []listRow, e earlierOf, now time.Time) error {
	from := cutoff(p, now)
	enhanced := p.mode() == jobs.ModeEnhanced
	type choice struct {
		row int
		e   index.Earlier
	}
	var chosen []choice
	for i, r := range rows {
		if r.phone != 0 {
			if sc, ok := e.scrubbed[r.phone]; ok && sc.Date.Unix() >= from {
				chosen = append(chosen, choice{i, sc.Earlier})
			}
			continue
		}
		for _, c := range e.traced[r.key] {
			if c.Date.Unix() < from {
				break // newest first: the rest are older
			}
			if enhanced && c.Mode != jobs.ModeEnhanced {
				continue
			}
			chosen = append(chosen, choice{i, c})
			break
		}
	}
	rj.reused = make([]bool, len(rows))
	f, err := os.Create(filepath.Join(rj.dir, "pins.jsonl"))
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 256<<10)
	enc := json.NewEncoder(w)
	headers := map[string]int{}
	sources := map[string]*library.MergeSource{}
	const chunk = 4096
	for start := 0; start < len(chosen); start += chunk {
		part := chosen[start:min(start+chunk, len(chosen))]
		refs := make([]index.Ref, len(part))
		for i, c := range part {
			refs[i] = c.e.Ref
		}
		err := x.Rows(ctx, refs, func(i int, r index.Row) error {
			c := part[i]
			lr := rows[c.row]
			if lr.key != "" && r.OwnerKey != lr.key {
				return nil // another owner with the same hash: traced again
			}
			if lr.phone != 0 && !holdsPhone(r.Cells, lr.phone) {
				return nil
			}
			hk := strings.Join(r.Header, "\x00")
			h, ok := headers[hk]
			if !ok {
				h = len(headers)
				headers[hk] = h
				if err := enc.Encode(pinLine{Header: r.Header, H: h}); err != nil {
					return err
				}
			}
			job, date := sourceOf(r.Header, r.Cells, c.e)
			if err := enc.Encode(pinLine{H: h, Row: c.row, Job: job, Date: date.UTC().Format(time.DateOnly), File: c.e.File, Cells: r.Cells}); err != nil {
				return err
			}
			rj.reused[c.row] = true
			rj.state.Reused++
			src := sources[job]
			if src == nil {
				src = &library.MergeSource{JobID: job, Name: c.e.JobName, Date: date.UTC()}
				sources[job] = src
			}
			src.Rows++
			return nil
		})
		if errors.Is(err, index.ErrChanged) {
			return fmt.Errorf("a result of the library changed while its rows were read; try again: %w", err)
		}
		if err != nil {
			return err
		}
	}
	for _, src := range sources {
		rj.state.Sources = append(rj.state.Sources, *src)
	}
	slices.SortFunc(rj.state.Sources, func(a, b library.MergeSource) int { return b.Date.Compare(a.Date) })
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Sync()
}

// holdsPhone reports whether a row has the number in one of its cells.
func holdsPhone(cells []string, key uint64) bool {
	for _, c := range cells {
		if phone.Key(c) == key {
			return true
		}
	}
	return false
}

func (rj *reuseJob) save() error {
	b, err := json.MarshalIndent(rj.state, "", "  ")
	if err != nil {
		return err
	}
	return library.WriteFileAtomic(filepath.Join(rj.dir, "state.json"), append(b, '\n'))
}

// moveTo renames the folder. A merge that found it first (the job done
// before the submission returned) has renamed it already.
func (rj *reuseJob) moveTo(name string) {
	if rj == nil {
		return
	}
	dst := filepath.Join(filepath.Dir(rj.dir), name)
	if dst == rj.dir {
		return
	}
	if strings.HasPrefix(name, "up-") {
		os.RemoveAll(dst) // a leftover of an earlier attempt with the same upload
	}
	if err := os.Rename(rj.dir, dst); err == nil || fileExists(dst) {
		rj.dir = dst
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// discard removes the folder: nothing was sent, or nothing was charged.
func (rj *reuseJob) discard() {
	if rj != nil {
		os.RemoveAll(rj.dir)
	}
}

// reuseFor prepares a submission's reuse (Plan.Reuse): nil when the plan
// reuses nothing; done when every row was reused and the merged result is
// written without a job.
func (s *Service) reuseFor(ctx context.Context, sess *session, p Plan, ins *input.Inspection, q *Quote) (*reuseJob, *Submitted, error) {
	if !p.Reuse {
		return nil, nil, nil
	}
	rj, err := s.prepareReuse(ctx, sess, p, ins, q)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case rj.state.Reused == 0:
		rj.discard()
		return nil, nil, nil
	case !rj.allReused():
		return rj, nil, nil
	}
	mergeMu.Lock()
	path, err := mergeResult(ctx, sess.lib, rj.dir, rj.state, "")
	mergeMu.Unlock()
	rj.discard()
	if err != nil {
		return nil, nil, err
	}
	s.indexInBackground(sess.lib.Dir())
	return nil, &Submitted{Reused: rj.state.Reused, ResultPath: path, Upload: UploadInfo{FileName: p.name(true)}}, nil
}

// mergeMu makes merges one at a time (a job's merge happens once).
var mergeMu sync.Mutex

// mergedInfo is merged.json.
type mergedInfo struct {
	Path string `json:"path"`
}

// reuseFolder finds the reuse folder of a job: by its id, or by the hash
// of its upload (an upload whose outcome was unknown when it was sent).
func (s *Service) reuseFolder(sess *session, jobID string) string {
	if sess.libErr != nil || jobID == "" {
		return ""
	}
	root := reuseDir(sess.lib)
	dir := filepath.Join(root, library.SanitizeName(jobID))
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	if sess.led == nil {
		return ""
	}
	sub, err := sess.led.SubmissionForJob(context.Background(), jobID)
	if err != nil || sub.FileHash == "" {
		return ""
	}
	up := filepath.Join(root, "up-"+sub.FileHash)
	if _, err := os.Stat(up); err != nil {
		return ""
	}
	if err := os.Rename(up, dir); err != nil {
		return up
	}
	return dir
}

// reuseRoot is the folder of the reuse folders: the session's library's,
// else the configured library's (a command reading the ledger with no
// session).
func (s *Service) reuseRoot(sess *session) string {
	if sess != nil && sess.libErr == nil {
		return reuseDir(sess.lib)
	}
	return filepath.Join(filepath.Dir(s.cfg.ResultsDir()), "reuse")
}

// mergedFor is the merged result of a job, when one was written.
func (s *Service) mergedFor(sess *session, jobID string) string {
	merged, _ := mergeOf(s.reuseRoot(sess), jobID)
	return merged
}

// mergeOf says where the merge of a job's reused rows stands, from its
// reuse folder under root: merged is the merged result once written;
// pending, that the folder waits for it (the step was cut short: a crash,
// the app closed). Neither for a job that reused nothing.
func mergeOf(root, jobID string) (merged string, pending bool) {
	if jobID == "" {
		return "", false
	}
	dir := filepath.Join(root, library.SanitizeName(jobID))
	b, err := os.ReadFile(filepath.Join(dir, "merged.json"))
	if err != nil {
		return "", fileExists(filepath.Join(dir, "state.json"))
	}
	var mi mergedInfo
	if json.Unmarshal(b, &mi) != nil || mi.Path == "" || !fileExists(mi.Path) {
		return "", true
	}
	return mi.Path, false
}

// finishMerges writes every merge of reused rows still owed: a job whose
// own result the ledger records as downloaded here, and whose reuse folder
// has no merged result yet. The merge is a recorded step (the folder, from
// before the upload), so one cut short by a crash or by closing the app is
// finished here: when the window starts following jobs, by every `jobs
// wait`, and by the jobs list. Each merge written is announced as its
// job's Downloaded event.
func (s *Service) finishMerges(ctx context.Context, sess *session) error {
	ids, unnamed := s.owedMerges(sess)
	if len(ids) == 0 && !unnamed {
		return nil
	}
	entries, err := sess.led.Entries(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if e.Download == nil || !fileExists(e.Download.Path) || s.mergedFor(sess, e.ID) != "" {
			continue
		}
		if !ids[library.SanitizeName(e.ID)] && (!unnamed || s.reuseFolder(sess, e.ID) == "") {
			continue
		}
		path, _, err := s.finishReuse(ctx, sess, e.ID, e.Download.Path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		j := fromLedger(&e.Job, e.Spend)
		j.ResultPath = path
		s.emit(Event{Kind: EventDownloaded, Job: j})
	}
	return errors.Join(errs...)
}

// owedMerges lists the reuse folders named by a job whose merge is not
// written; unnamed says whether a folder is still named by its upload (an
// outcome that was unknown), found by its job through the ledger.
func (s *Service) owedMerges(sess *session) (ids map[string]bool, unnamed bool) {
	if sess.libErr != nil || sess.led == nil {
		return nil, false
	}
	root := reuseDir(sess.lib)
	des, err := os.ReadDir(root)
	if err != nil {
		return nil, false
	}
	ids = map[string]bool{}
	for _, de := range des {
		name := de.Name()
		switch {
		case !de.IsDir() || strings.HasPrefix(name, "."):
		case strings.HasPrefix(name, "up-"):
			unnamed = true
		default:
			if _, pending := mergeOf(root, name); pending {
				ids[name] = true
			}
		}
	}
	return ids, unnamed
}

// finishReuse writes the merged result of a job that reused rows, once its
// own result (raw) is in the library; ok is false for a job that reused
// nothing. Done twice, it returns the first merge's result.
func (s *Service) finishReuse(ctx context.Context, sess *session, jobID, raw string) (path string, ok bool, err error) {
	dir := s.reuseFolder(sess, jobID)
	if dir == "" {
		return "", false, nil
	}
	mergeMu.Lock()
	defer mergeMu.Unlock()
	if p := s.mergedFor(sess, jobID); p != "" {
		return p, true, nil
	}
	var st reuseState
	b, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	if err != nil {
		return "", true, fmt.Errorf("the reuse of earlier results for %s: %w", jobID, err)
	}
	st.JobID = jobID
	s.cfg.step("merge")
	path, err = mergeResult(ctx, sess.lib, dir, st, raw)
	if err != nil {
		return "", true, fmt.Errorf("merging the earlier results into %s: %w", jobID, err)
	}
	s.indexInBackground(sess.lib.Dir())
	return path, true, nil
}

// afterDownload runs when the tracker has put a job's result into the
// library. A job that reused rows gets its merged result now, off the
// tracker's goroutine; the Downloaded event then names it (true: that
// event follows). Either way the index takes the new result in.
func (s *Service) afterDownload(sess *session, j *Job) bool {
	if s.reuseFolder(sess, j.ID) == "" {
		if sess.libErr == nil {
			s.indexInBackground(sess.lib.Dir())
		}
		return false
	}
	job := *j
	sess.bg.Go(func() {
		p, _, err := s.finishReuse(sess.bgCtx, sess, job.ID, job.ResultPath)
		if sess.bgCtx.Err() != nil {
			return // the session closed: the merge is owed, finished next time
		}
		if err != nil {
			s.emit(Event{Kind: EventWarning, Job: Job{ID: job.ID, Key: job.ID}, Err: err})
		} else {
			job.ResultPath = p
		}
		s.emit(Event{Kind: EventDownloaded, Job: job})
	})
	return true
}

// localID names a merged result that needed no job.
func localID() string {
	var b [4]byte
	rand.Read(b[:])
	return "reuse-" + hex.EncodeToString(b[:])
}

// mergeResult writes the merged result of a reuse folder into the library
// with its job record: every row of the list in its order, each from the
// new result (raw, "" when no job was needed) or reused from its pin, with
// the source columns; a row found in neither is kept with the list's
// values and marked missing. It returns the merged result's path.
func mergeResult(ctx context.Context, lib *library.Library, dir string, st reuseState, raw string) (string, error) {
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
func mergedMeta(st reuseState, raw string, rawMeta library.Meta) library.Meta {
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

// sessionNow is the open session, nil when none.
func (s *Service) sessionNow() *session {
	sess, _ := s.current()
	return sess
}

// recordMu serialises the rewrites of a downloaded result's job record
// (noteDownload runs from the tracker's event and from Wait).
var recordMu sync.Mutex

// noteDownload completes a downloaded result's job record: the trace a
// scrub's phones came from, the mapping its upload was sent with. Done
// twice, the second finds it done.
func (s *Service) noteDownload(sess *session, jobID, path string) {
	recordMu.Lock()
	defer recordMu.Unlock()
	s.linkParent(sess, jobID, path)
	s.recordMapping(sess, jobID, path)
}

// recordMapping notes in a downloaded result's job record the column
// mapping its upload was sent with (from the ledger's submission): the
// index then reads the owner's name and property address from exactly
// those columns, whatever they are called.
func (s *Service) recordMapping(sess *session, jobID, path string) {
	if sess.libErr != nil || sess.led == nil || path == "" {
		return
	}
	sub, err := sess.led.SubmissionForJob(context.Background(), jobID)
	if err != nil || len(sub.Mapping) == 0 {
		return
	}
	m, err := library.ReadRecord(library.RecordPath(path))
	if err != nil || len(m.Mapping) > 0 {
		return
	}
	m.Mapping = sub.Mapping
	_ = sess.lib.Record(m, path)
}
