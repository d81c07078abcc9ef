// Package reuse is the engine of "don't pay twice": the rows of a list
// looked up in the library index (a trace's by owner key, a scrub's by
// phone, answers of the last 31 days), the reused rows' earlier data pinned
// in a folder of the submission's own before anything is sent, and the
// merged result written once the new job's result is in — every row of the
// list in its order, each saying where its data came from. The application
// layer (jobs/workflow) decides when each step runs; this package knows how.
//
// A submission that reuses rows keeps, in its own folder under Root:
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
package reuse

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// State is state.json.
type State struct {
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

// Folder is a submission that reuses rows, from its preparation to its
// hand-over to the job.
type Folder struct {
	dir    string
	State  State
	reused []bool // by upload row (without reuse), in order
	k      int    // rows Keep has seen
}

// Keep is prepare.Plan.Keep: the rows not reused stay in the upload.
func (rj *Folder) Keep([]string) bool {
	k := rj.k
	rj.k++
	return k >= len(rj.reused) || !rj.reused[k]
}

// AllReused: every row of the list is reused; no job is needed.
func (rj *Folder) AllReused() bool { return rj.State.Rows > 0 && rj.State.Reused == rj.State.Rows }

// Save writes state.json.
func (rj *Folder) Save() error {
	b, err := json.MarshalIndent(rj.State, "", "  ")
	if err != nil {
		return err
	}
	return library.WriteFileAtomic(filepath.Join(rj.dir, "state.json"), append(b, '\n'))
}

// MoveTo renames the folder. A merge that found it first (the job done
// before the submission returned) has renamed it already.
func (rj *Folder) MoveTo(name string) {
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

// Discard removes the folder: nothing was sent, or nothing was charged.
func (rj *Folder) Discard() {
	if rj != nil {
		os.RemoveAll(rj.dir)
	}
}

// mergedInfo is merged.json.
type mergedInfo struct {
	Path string `json:"path"`
}

// MergeOf says where the merge of a job's reused rows stands, from its
// reuse folder under root: merged is the merged result once written;
// pending, that the folder waits for it (the step was cut short: a crash,
// the app closed). Neither for a job that reused nothing.
func MergeOf(root, jobID string) (merged string, pending bool) {
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

// Create makes a new submission's folder under root.
func Create(root string) (*Folder, error) {
	if err := os.MkdirAll(root, 0o700); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(root, ".new-")
	if err != nil {
		return nil, err
	}
	return &Folder{dir: tmp}, nil
}

// Dir is the folder.
func (rj *Folder) Dir() string { return rj.dir }

// ReadState reads a folder's state.json.
func ReadState(dir string) (State, error) {
	var st State
	b, err := os.ReadFile(filepath.Join(dir, "state.json"))
	if err == nil {
		err = json.Unmarshal(b, &st)
	}
	return st, err
}
