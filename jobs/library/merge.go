package library

import "time"

// Merged describes a merged result: every row of the person's list, in its
// order, each from the new job (JobID, charged for only those rows) or
// reused from an earlier result in the library. The result's columns end
// with SourceColumns, saying where each row's data came from.
type Merged struct {
	// Raw is the file name of the new job's own result (only its rows),
	// kept beside the merged one; "" when no job was needed.
	Raw         string        `json:"raw,omitempty"`
	NewRows     int           `json:"new_rows"`
	ReusedRows  int           `json:"reused_rows"`
	MissingRows int           `json:"missing_rows,omitempty"` // rows whose data was found in neither
	Sources     []MergeSource `json:"sources,omitempty"`
}

// MergeSource is an earlier job whose rows a merged result reuses.
type MergeSource struct {
	JobID string    `json:"job_id"`
	Name  string    `json:"name,omitempty"`
	Rows  int       `json:"rows"`
	Date  time.Time `json:"date"` // when its job completed
}

// The columns a merged result ends with.
const (
	// SourceColumn says where the row's data came from: SourceNew,
	// SourceReused or SourceMissing.
	SourceColumn = "source"
	// SourceJobColumn is the job the row's data came from.
	SourceJobColumn = "source_job"
	// SourceDateColumn is the day that job completed (YYYY-MM-DD, UTC).
	SourceDateColumn = "source_date"
)

// Values of SourceColumn.
const (
	SourceNew     = "new"
	SourceReused  = "reused"
	SourceMissing = "missing"
)

// SourceColumns are the columns a merged result ends with, in order.
var SourceColumns = []string{SourceColumn, SourceJobColumn, SourceDateColumn}
