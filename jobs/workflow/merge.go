package workflow

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/reuse"
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

// prepareReuse reads the plan's upload, finds its rows in the library
// (fresh: the index is brought up to date first), reads the reused rows'
// earlier data and writes the submission's reuse folder. The reused count
// must be the quote's: otherwise a *QuoteChangedError and nothing is kept.
// Nil, and the list not read, when the library holds no result a row
// could be found in.
func (s *core) prepareReuse(ctx context.Context, sess *session, p Plan, ins *input.Inspection, quote *Quote) (*reuse.Folder, error) {
	if sess.libErr != nil {
		return nil, sess.libErr
	}
	x, _, err := s.syncedIndex(ctx, sess.lib.Dir(), nil)
	if err != nil || x == nil {
		return nil, fmt.Errorf("the library cannot be read to reuse earlier results: %w", err)
	}
	now := time.Now()
	holds, err := holdsReusable(ctx, x, p.Kind, now)
	if err != nil {
		return nil, fmt.Errorf("the library cannot be read to reuse earlier results: %w", err)
	}
	if !holds {
		return nil, quoteChanged(quote, 0, p.Kind)
	}
	rj, err := reuse.Create(reuse.Root(sess.lib))
	if err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			rj.Discard()
		}
	}()
	rj.State = reuse.State{Kind: p.Kind, Name: p.name(true), Source: p.Path, Mode: p.mode(), IncludeLLCs: p.IncludeLLCs && p.Kind == jobs.KindTrace,
		Mapping: p.Mapping.Clean(), Parent: p.ParentTraceID, CreatedAt: now.UTC()}
	rows, err := writeList(ctx, filepath.Join(rj.Dir(), "list.csv"), p, ins)
	if err != nil {
		return nil, err
	}
	rj.State.Rows = len(rows)
	e, err := s.lookupHere(ctx, x, p.Kind, rows, now)
	if err != nil {
		return nil, err
	}
	if err := rj.Pin(ctx, x, rows, e, cutoff(p, now), p.mode() == jobs.ModeEnhanced); err != nil {
		return nil, err
	}
	if err := quoteChanged(quote, rj.State.Reused, p.Kind); err != nil {
		return nil, err
	}
	if err := rj.Save(); err != nil {
		return nil, err
	}
	ok = true
	return rj, nil
}

// quoteChanged is the error of a submission that would reuse reused rows
// where the quote the person saw skipped another number (nil: the same,
// or the quote skipped none).
func quoteChanged(q *Quote, reused int, kind jobs.Kind) error {
	if q != nil && q.Reuse != nil && q.Reuse.Skipped && q.Reuse.Rows != reused {
		return &QuoteChangedError{Quoted: q.Reuse.Rows, Now: reused, Kind: kind}
	}
	return nil
}

// writeList writes the plan's upload rows (as they would be sent without
// reuse) to path and returns each row's key.
func writeList(ctx context.Context, path string, p Plan, ins *input.Inspection) ([]reuse.Row, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 256<<10)
	var rows []reuse.Row
	var line []byte
	first := true
	err = readList(ctx, p, ins, p.DropDuplicates, p.Mapping.Clean(), func(rec, header []string, r reuse.Row) error {
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

// reuseFor prepares a submission's reuse (Plan.Reuse): nil when the plan
// reuses nothing; done when every row was reused and the merged result is
// written without a job.
func (s *core) reuseFor(ctx context.Context, sess *session, p Plan, ins *input.Inspection, q *Quote) (*reuse.Folder, *Submitted, error) {
	if !p.Reuse {
		return nil, nil, nil
	}
	rj, err := s.prepareReuse(ctx, sess, p, ins, q)
	switch {
	case err != nil:
		return nil, nil, err
	case rj == nil:
		return nil, nil, nil
	case rj.State.Reused == 0:
		rj.Discard()
		return nil, nil, nil
	case !rj.AllReused():
		return rj, nil, nil
	}
	mergeMu.Lock()
	path, err := reuse.Merge(ctx, sess.lib, rj.Dir(), rj.State, "")
	mergeMu.Unlock()
	rj.Discard()
	if err != nil {
		return nil, nil, err
	}
	s.indexInBackground(sess.lib.Dir())
	return nil, &Submitted{Reused: rj.State.Reused, ResultPath: path, Upload: UploadInfo{FileName: p.name(true)}}, nil
}

// mergeMu makes merges one at a time (a job's merge happens once).
var mergeMu sync.Mutex

// reuseFolder finds the reuse folder of a job: by its id, or by the hash
// of its upload (an upload whose outcome was unknown when it was sent).
func (s *core) reuseFolder(sess *session, jobID string) string {
	if sess.libErr != nil || jobID == "" {
		return ""
	}
	root := reuse.Root(sess.lib)
	dir := filepath.Join(root, library.SanitizeName(jobID))
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	if sess.led == nil {
		return ""
	}
	sub, err := sess.led.Submissions().SubmissionForJob(context.Background(), jobID)
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
func (s *core) reuseRoot(sess *session) string {
	if sess != nil && sess.libErr == nil {
		return reuse.Root(sess.lib)
	}
	return filepath.Join(filepath.Dir(s.cfg.ResultsDir()), "reuse")
}

// mergedFor is the merged result of a job, when one was written.
func (s *core) mergedFor(sess *session, jobID string) string {
	merged, _ := reuse.MergeOf(s.reuseRoot(sess), jobID)
	return merged
}

// finishMerges writes every merge of reused rows still owed: a job whose
// own result the ledger records as downloaded here, and whose reuse folder
// has no merged result yet. The merge is a recorded step (the folder, from
// before the upload), so one cut short by a crash or by closing the app is
// finished here: when the window starts following jobs, by every `jobs
// wait`, and by the jobs list. Each merge written is announced as its
// job's Downloaded event.
func (s *core) finishMerges(ctx context.Context, sess *session) error {
	ids, unnamed := s.owedMerges(sess)
	if len(ids) == 0 && !unnamed {
		return nil
	}
	entries, err := sess.led.Jobs().Entries(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if e.Download == nil || !isFile(e.Download.Path) || s.mergedFor(sess, e.ID) != "" {
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
func (s *core) owedMerges(sess *session) (ids map[string]bool, unnamed bool) {
	if sess.libErr != nil || sess.led == nil {
		return nil, false
	}
	root := reuse.Root(sess.lib)
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
			if _, pending := reuse.MergeOf(root, name); pending {
				ids[name] = true
			}
		}
	}
	return ids, unnamed
}

// finishReuse writes the merged result of a job that reused rows, once its
// own result (raw) is in the library; ok is false for a job that reused
// nothing. Done twice, it returns the first merge's result.
func (s *core) finishReuse(ctx context.Context, sess *session, jobID, raw string) (path string, ok bool, err error) {
	dir := s.reuseFolder(sess, jobID)
	if dir == "" {
		return "", false, nil
	}
	mergeMu.Lock()
	defer mergeMu.Unlock()
	if p := s.mergedFor(sess, jobID); p != "" {
		return p, true, nil
	}
	st, err := reuse.ReadState(dir)
	if err != nil {
		return "", true, fmt.Errorf("the reuse of earlier results for %s: %w", jobID, err)
	}
	st.JobID = jobID
	s.cfg.step("merge")
	path, err = reuse.Merge(ctx, sess.lib, dir, st, raw)
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
func (s *core) afterDownload(sess *session, j *Job) bool {
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

// sessionNow is the open session, nil when none.
func (s *core) sessionNow() *session {
	sess, _ := s.current()
	return sess
}

// recordMu serialises the rewrites of a downloaded result's job record
// (noteDownload runs from the tracker's event and from Wait).
var recordMu sync.Mutex

// noteDownload completes a downloaded result's job record: the trace a
// scrub's phones came from, the mapping its upload was sent with. Done
// twice, the second finds it done.
func (s *core) noteDownload(sess *session, jobID, path string) {
	recordMu.Lock()
	defer recordMu.Unlock()
	s.linkParent(sess, jobID, path)
	s.recordMapping(sess, jobID, path)
}

// recordMapping notes in a downloaded result's job record the column
// mapping its upload was sent with (from the ledger's submission): the
// index then reads the owner's name and property address from exactly
// those columns, whatever they are called.
func (s *core) recordMapping(sess *session, jobID, path string) {
	if sess.libErr != nil || sess.led == nil || path == "" {
		return
	}
	sub, err := sess.led.Submissions().SubmissionForJob(context.Background(), jobID)
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

func isFile(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
