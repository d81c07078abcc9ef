package workflow

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/export"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// A charged request whose outcome is unknown is worded as such whatever
// else the error carries: the team's database away, a cancel, a full disk,
// the ledger unwritable. "Nothing was sent or charged" is never said of it.
func TestExplainMoneyFirst(t *testing.T) {
	t.Parallel()
	recorded := func(cause error) error {
		return &submit.UnknownError{SubmissionID: 7, Err: fmt.Errorf("job trc_1 was created but could not be recorded: %w", cause)}
	}
	cases := []struct {
		name  string
		err   error
		cause string // words the sentence names as the reason
	}{
		{"team database away", recorded(fmt.Errorf("ledger: %w", ErrTeamUnreachable)), "team's database"},
		{"cancelled", recorded(context.Canceled), "cancelled"},
		{"disk full", recorded(&os.PathError{Op: "write", Path: "ledger.db", Err: syscall.ENOSPC}), "the disk is full"},
		{"ledger unwritable", recorded(fmt.Errorf("%w: %w", ledger.ErrNotWritable, syscall.EROFS)), "read-only"},
		{"connection", fmt.Errorf("%w: connection reset", client.ErrOutcomeUnknown), "connection failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := Explain(c.err, "")
			if p.Title != "Submission outcome unknown" || !p.MayBeCharged || !strings.Contains(p.What, "may have been created and charged") {
				t.Fatalf("wording: %+v", p)
			}
			if !strings.Contains(p.What, c.cause) {
				t.Errorf("the cause %q is not named: %q", c.cause, p.What)
			}
			if strings.Contains(p.What, "nothing was sent") || strings.Contains(p.What, "Nothing was sent") {
				t.Errorf("says nothing was sent: %q", p.What)
			}
		})
	}
	// The team's database away before anything was sent keeps its own
	// words, and nothing may be charged.
	if p := Explain(fmt.Errorf("submit: %w", ErrTeamUnreachable), ""); p.Title != "Team database away" || p.MayBeCharged {
		t.Fatalf("team away before sending: %+v", p)
	}
}

// A full, read-only or forbidden disk is named by what it is, with the
// file; never "Can't reach the server" (a system call's error number
// satisfies net.Error).
func TestExplainDiskFaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, title, words string
		err                error
	}{
		{"export on a full disk", "Disk full", "the disk is full",
			&export.WriteError{Path: "/out/owners.xlsx", Err: syscall.ENOSPC}},
		{"rename on a read-only folder", "Folder is read-only", "the folder is read-only",
			fmt.Errorf("library: %w", &os.LinkError{Op: "rename", Old: "/out/.x.tmp", New: "/out/owners.xlsx", Err: syscall.EROFS})},
		{"quota", "Disk quota used up", "quota",
			&os.PathError{Op: "write", Path: "/out/owners.xlsx", Err: syscall.EDQUOT}},
		{"forbidden folder", "Not allowed to write", "permission denied",
			&export.WriteError{Path: "/out/owners.xlsx", Err: syscall.EACCES}},
		{"a bare sync error", "Disk full", "the disk is full",
			fmt.Errorf("proof: %w", os.NewSyscallError("fsync", syscall.ENOSPC))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := Explain(c.err, "api.example.com")
			if p.Title != c.title || !strings.Contains(p.What, c.words) || strings.Contains(p.What, "reach") {
				t.Fatalf("wording: %+v", p)
			}
			if path := faultPath(c.err); path != "" && !strings.Contains(p.What, "/out/owners.xlsx") {
				t.Errorf("the file is not named: %q", p.What)
			}
			if Unreachable(c.err) {
				t.Error("a disk fault counts as the server away")
			}
		})
	}
	// Reading a file one may not read is a file problem, not a write.
	p := Explain(&os.PathError{Op: "open", Path: "/in/owners.csv", Err: syscall.EACCES}, "")
	if p.Title != "File not available" || !strings.Contains(p.What, "permission denied") {
		t.Fatalf("a file that may not be read: %+v", p)
	}
}

// A 404 to a request of one job says the job is not known; to any other
// request (the account, the prices) the address is the likely fault, and
// the message says where to change it.
func TestExplainNotFound(t *testing.T) {
	job := &client.APIError{StatusCode: 404, Message: "not found", Op: "GET /traces/trc_1"}
	if p := Explain(job, "api.example.com"); !strings.Contains(p.What, "does not know this job") {
		t.Errorf("a job's 404: %q", p.What)
	}
	addr := &client.APIError{StatusCode: 404, Message: "not found", Op: "GET /pricing"}
	p := Explain(addr, "api.example.com")
	if p.What != "The server at api.example.com does not answer GET /pricing: the provider's address may be wrong." ||
		!strings.Contains(p.Do, "ends in /v1") {
		t.Errorf("the address's 404: %q / %q", p.What, p.Do)
	}
}
