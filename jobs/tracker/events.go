package tracker

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
)

// EventType says what happened.
type EventType int

const (
	// StatusChanged: a job's status differs from the last one known (the
	// first sighting of a job counts when its status changed since submit).
	StatusChanged EventType = iota + 1
	// Completed: a job completed; its result download follows.
	Completed
	// Failed: a job failed; Job.ErrorMessage says why.
	Failed
	// DownloadProgress: Done of Total bytes of a result (Total -1 when
	// unknown).
	DownloadProgress
	// Downloaded: the result is in the library at Path.
	Downloaded
	// Error: a poll or a download failed, a job in a list could not be
	// read (*client.ListItemError, reported once), a result was not a CSV
	// file (client.ErrNotResult) or took too long, or the service reported
	// figures that cannot be right (*FiguresError, a warning on the job);
	// Err says which. The tracker keeps going and tries again later.
	Error
	// Reconciled: a submission whose outcome was unknown changed state:
	// "created" (JobID and Job say which job it made), "not_created", or
	// "unknown" for one a crashed run left "sent". Reason says why.
	Reconciled
)

func (t EventType) String() string {
	switch t {
	case StatusChanged:
		return "status"
	case Completed:
		return "completed"
	case Failed:
		return "failed"
	case DownloadProgress:
		return "download-progress"
	case Downloaded:
		return "downloaded"
	case Error:
		return "error"
	case Reconciled:
		return "reconciled"
	}
	return fmt.Sprintf("event(%d)", int(t))
}

// Event is one change the tracker reports.
type Event struct {
	Type   EventType
	JobID  string      // "" for an Error not about one job
	Kind   jobs.Kind   // jobs.KindTrace or jobs.KindDNC
	Status jobs.Status // the job's status after the change
	// Job is the ledger's record after the change (nil on progress events).
	Job *ledger.Job
	// Spend is the job's credits as last reported (charged, refunded).
	Spend       ledger.Spend
	Done, Total int64  // DownloadProgress
	Path        string // Downloaded: the result file
	Err         error  // Error
	// Reconciled: the submission, its state now and why.
	Submission      int64
	SubmissionState string
	Reason          string
	At              time.Time
}

// Events delivers the tracker's events on a channel until ctx ends, then
// closes it. DownloadProgress events are dropped when the reader is behind
// by buffer events; the others wait for the reader (or ctx), so a reader
// must keep reading.
func (t *Tracker) Events(ctx context.Context, buffer int) <-chan Event {
	ch := make(chan Event, max(buffer, 1))
	var mu sync.Mutex // guards closed against sends
	closed := false
	cancel := t.Subscribe(func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		if closed {
			return
		}
		if e.Type == DownloadProgress {
			select {
			case ch <- e:
			default:
			}
			return
		}
		select {
		case ch <- e:
		case <-ctx.Done():
		}
	})
	go func() {
		<-ctx.Done()
		cancel()
		mu.Lock()
		closed = true
		close(ch)
		mu.Unlock()
	}()
	return ch
}
