package tracker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// stuckAfter is how many failed downloads make a job count as stuck for
// WaitIdle (the tracker keeps trying). A result that cannot be written into
// the library counts as stuck at once: downloading it again will not help
// until the folder is fixed.
const stuckAfter = 3

// DefaultDownloadRetry is the wait before downloading a result again
// after a failed attempt; it doubles with each failure.
const DefaultDownloadRetry = 5 * time.Second

// stuckReason is why a job cannot progress now.
type stuckReason struct {
	why   string
	local bool // the library folder cannot be written: not the service's doing
}

// LibraryError is a result that could not be written into the library
// folder (no permission, a read-only disk, a full disk): a problem of this
// computer, not of the service. The job is done and recorded; the tracker
// downloads the result again later.
type LibraryError struct {
	JobID string
	Dir   string // the library folder
	Err   error
}

func (e *LibraryError) Error() string {
	return fmt.Sprintf("cannot write the result of %s into %s: %v (the job is done and recorded; the result downloads once the folder can be written)",
		e.JobID, e.Dir, e.Cause())
}

// Cause is what the system said: "permission denied", "no space left on
// device"…
func (e *LibraryError) Cause() error {
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	switch {
	case errors.As(e.Err, &pe):
		return pe.Err
	case errors.As(e.Err, &le):
		return le.Err
	case errors.As(e.Err, &se):
		return se.Err
	}
	return e.Err
}

func (e *LibraryError) Unwrap() error { return e.Err }

// localWrite wraps err in a *LibraryError when it comes from the file
// system (the client wraps a failed create, write, sync or rename of the
// download as such); other errors (network, the service) are returned as
// they are.
func (t *Tracker) localWrite(jobID string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	var se *os.SyscallError
	if errors.As(err, &pe) || errors.As(err, &le) || errors.As(err, &se) {
		return &LibraryError{JobID: jobID, Dir: t.lib.Dir(), Err: err}
	}
	return err
}

// enqueue queues a job's result for download unless it is queued already.
func (t *Tracker) enqueue(jobID string) {
	t.mu.Lock()
	if t.queued[jobID] {
		t.mu.Unlock()
		return
	}
	t.queued[jobID] = true
	t.fetchDone[jobID] = t.work.Add()
	t.mu.Unlock()
	select {
	case t.dlq <- jobID:
	default:
		// The queue is full: forget it; the next reload queues it again.
		t.mu.Lock()
		delete(t.queued, jobID)
		t.mu.Unlock()
		t.attempted(jobID)
	}
}

// attempted ends the count of a queued download once it was tried.
func (t *Tracker) attempted(jobID string) {
	t.mu.Lock()
	done := t.fetchDone[jobID]
	delete(t.fetchDone, jobID)
	t.mu.Unlock()
	if done != nil {
		done()
	}
}

func (t *Tracker) downloader(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case id := <-t.dlq:
			err := t.fetch(ctx, id, nil)
			t.attempted(id)
			if ctx.Err() != nil {
				return
			}
			t.mu.Lock()
			if err != nil {
				t.retries[id]++
				n := t.retries[id]
				var le *LibraryError
				switch {
				case errors.As(err, &le):
					t.stuck[id] = stuckReason{why: fmt.Sprintf("cannot write its result into %s: %v", le.Dir, le.Cause()), local: true}
				case n >= stuckAfter:
					t.stuck[id] = stuckReason{why: fmt.Sprintf("its result failed to download %d times: %v", n, err)}
				}
				t.mu.Unlock()
				t.emitErr(id, err)
				// Try again later, backing off: 5 s, 10 s, 20 s … 5 min.
				d := min(t.opts.DownloadRetry<<min(n-1, 6), 5*time.Minute)
				time.AfterFunc(d, func() {
					t.mu.Lock()
					delete(t.queued, id)
					t.mu.Unlock()
					if ctx.Err() == nil {
						t.enqueue(id)
					}
				})
				continue
			}
			delete(t.retries, id)
			delete(t.queued, id)
			delete(t.stuck, id)
			t.mu.Unlock()
		}
	}
}

// fetch puts a completed job's result into the library, once: a result
// already recorded (and still on disk with its checksum) or already renamed
// into place by an interrupted run is not downloaded again.
func (t *Tracker) fetch(ctx context.Context, jobID string, onProgress func(done, total int64)) error {
	// Downloaded leaves after the job's lock is released (a subscriber may
	// Fetch the job in its callback).
	var done *Event
	defer func() {
		if done != nil {
			t.emit(*done)
		}
	}()
	// One download of a job at a time: a queued one and a Fetch never both run.
	unlock := t.lockJob(jobID)
	defer unlock()
	job, err := t.led.Jobs().Job(ctx, jobID)
	if err != nil {
		return err
	}
	if job.Status != jobs.StatusCompleted || t.downloadedWhole(ctx, jobID) {
		return nil
	}
	var sub *ledger.Submission
	if s, err := t.led.Submissions().SubmissionForJob(ctx, jobID); err == nil {
		sub = s
	}
	meta := MetaFor(job, sub)
	sp, _ := t.led.Jobs().JobSpend(ctx, jobID)
	if sp.Charged > 0 || sp.Refunded > 0 {
		meta.CreditsCharged, meta.CreditsRefunded = sp.Charged, sp.Refunded
	}
	path := t.lib.PathFor(meta)

	if _, err := os.Stat(path); err != nil {
		if err := t.download(ctx, job, path, onProgress); err != nil {
			return err
		}
	}
	// The file at path is complete: downloads are renamed into place only
	// once whole.
	sum, size, rows, err := hashResult(path)
	if err != nil {
		return fmt.Errorf("tracker: result of %s: %w", jobID, err)
	}
	if err := t.lib.Record(meta, path); err != nil {
		return t.localWrite(jobID, err)
	}
	t.step("recorded", jobID)
	d := ledger.Download{JobID: jobID, Path: path, Size: size, SHA256: sum, Rows: rows}
	if err := t.led.Jobs().RecordDownload(context.WithoutCancel(ctx), d); err != nil {
		return err
	}
	done = &Event{Type: Downloaded, JobID: jobID, Kind: job.Kind, Status: job.Status, Job: job, Spend: sp, Path: path}
	return nil
}

// downloadedWhole reports whether the job's result was downloaded and is
// still whole where the ledger says it is.
func (t *Tracker) downloadedWhole(ctx context.Context, jobID string) bool {
	d, err := t.led.Jobs().JobDownload(ctx, jobID)
	if err != nil {
		return false
	}
	sum, size, _, err := hashResult(d.Path)
	return err == nil && sum == d.SHA256 && size == d.Size
}

// download fetches the job's result into path (the leftovers of a download
// interrupted go first), within the download budget, with its progress
// as events and to onProgress.
func (t *Tracker) download(ctx context.Context, job *ledger.Job, path string, onProgress func(done, total int64)) error {
	jobID := job.ID
	removeParts(path)
	if err := t.dlBudget.take(ctx); err != nil {
		return err
	}
	var started atomic.Bool
	var lastEmit time.Time
	progress := func(done, total int64) {
		// "download": bytes of the result are in the temporary file,
		// which is not yet complete, synced or renamed.
		if (done > 0 || done == total) && started.CompareAndSwap(false, true) {
			t.step("download", jobID)
		}
		if now := time.Now(); now.Sub(lastEmit) >= 200*time.Millisecond || done == total {
			lastEmit = now
			t.emit(Event{Type: DownloadProgress, JobID: jobID, Kind: job.Kind, Status: job.Status, Done: done, Total: total})
		}
		if onProgress != nil {
			onProgress(done, total)
		}
	}
	var err error
	if job.Kind == jobs.KindDNC {
		_, err = t.api.DNC.Download(ctx, jobID, path, progress)
	} else {
		_, err = t.api.Traces.Download(ctx, jobID, path, progress)
	}
	if err != nil {
		if le := t.localWrite(jobID, err); le != err {
			return le
		}
		return fmt.Errorf("tracker: downloading the result of %s: %w", jobID, err)
	}
	t.step("downloaded", jobID)
	return nil
}

// lockJob serialises the downloads of one job.
func (t *Tracker) lockJob(jobID string) (unlock func()) {
	t.mu.Lock()
	m := t.jobLocks[jobID]
	if m == nil {
		m = &sync.Mutex{}
		t.jobLocks[jobID] = m
	}
	t.mu.Unlock()
	m.Lock()
	return m.Unlock
}

// Fetch puts the result of a completed job into the library now, unless it
// is there already, and returns its record. A job the ledger does not know
// (listed by the API, submitted elsewhere) is read from the API and recorded
// first. It needs a library; it does not need Run.
func (t *Tracker) Fetch(ctx context.Context, kind jobs.Kind, jobID string, progress func(done, total int64)) (*ledger.Download, error) {
	if t.lib == nil {
		return nil, errors.New("tracker: no library to download into")
	}
	known, err := t.led.Jobs().Job(ctx, jobID)
	if err != nil && !errors.Is(err, ledger.ErrNotFound) {
		return nil, err
	}
	if known == nil || !known.Status.Final() {
		// Unknown here, or not known to be finished: ask the API.
		if known != nil {
			kind = known.Kind
		}
		it, err := t.get(ctx, kind, jobID)
		if err != nil {
			return nil, err
		}
		j, sp := it.job()
		j.ID = jobID
		if known != nil {
			j.Kind = known.Kind
		}
		if known == nil {
			if err := t.led.Jobs().RecordJobState(ctx, j, sp); err != nil {
				return nil, err
			}
		} else {
			t.record(ctx, []ledger.JobState{{Job: j, Spend: sp}})
		}
	}
	job, err := t.led.Jobs().Job(ctx, jobID)
	if err != nil {
		return nil, err
	}
	if job.Status != jobs.StatusCompleted {
		return nil, fmt.Errorf("tracker: job %s is %s; its result can be downloaded once it is completed", jobID, job.Status)
	}
	if err := t.fetch(ctx, jobID, progress); err != nil {
		return nil, err
	}
	return t.led.Jobs().JobDownload(ctx, jobID)
}

// removeParts deletes the temporary files an interrupted download of path
// left beside it.
func removeParts(path string) {
	parts, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "."+escapeGlob(filepath.Base(path))+".*.part"))
	for _, p := range parts {
		os.Remove(p)
	}
}

func escapeGlob(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`)
	return r.Replace(s)
}

// hashResult reads a result file once: its SHA-256, size and data rows,
// counted as the library's viewer counts them (library.CountRows).
func hashResult(path string) (sum string, size int64, rows int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, 0, err
	}
	defer f.Close()
	h := sha256.New()
	cr := &input.CountReader{R: f}
	tee := io.TeeReader(cr, h)
	rows, err = library.CountRows(tee)
	if err != nil {
		return "", 0, 0, err
	}
	if _, err := io.Copy(io.Discard, tee); err != nil {
		return "", 0, 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), cr.N, rows, nil
}

// MetaFor is the library's job record for a job of the ledger.
func MetaFor(j *ledger.Job, sub *ledger.Submission) library.Meta {
	// The name the person gave the list, without the submission's tag:
	// the result's file name and its record are read by people.
	m := library.Meta{JobID: j.ID, Kind: j.Kind, Name: submit.PlainName(j.Name), Status: j.Status, TotalRows: j.TotalRows,
		CreatedAt: j.CreatedAt, CompletedAt: j.CompletedAt}
	switch j.Kind {
	case jobs.KindDNC:
		var d client.DNCJob
		if json.Unmarshal(j.Last, &d) == nil && d.ID != "" {
			m.MatchCount, m.ErrorCount, m.Rate = d.MatchCount, d.ErrorCount, d.Rate
			m.CreditsCharged, m.CreditsRefunded = d.CreditsCharged, d.CreditsRefunded
		}
	default:
		var tr client.Trace
		if json.Unmarshal(j.Last, &tr) == nil && tr.ID != "" {
			m.Mode, m.IncludeLLCs, m.EntityRows = jobs.Mode(tr.Mode), tr.IncludeLLCs, tr.EntityRows
			m.MatchCount, m.NoMatchCount, m.ErrorCount = tr.MatchCount, tr.NoMatchCount, tr.ErrorCount
			m.CreditsCharged, m.CreditsRefunded = tr.CreditsCharged, tr.CreditsRefunded
			m.Breakdown = tr.Breakdown
		}
	}
	if sub != nil {
		m.SourceFile = sub.FilePath
		if m.Mode == "" {
			m.Mode = sub.Mode
		}
	}
	return m
}
