package workflow

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/export"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
	"github.com/skipdesk/skipdesk/jobs/tracker"
)

// Problem is an error put in words for the people using SkipDesk: what
// happened, and what to do about it. The window shows it in a dialog; the
// command line prints it. Both get the same sentences from Explain.
type Problem struct {
	Title string // a few words: "Not enough credits"
	What  string // what happened, in the user's terms
	Do    string // what to do next
	// MayBeCharged: a charged request may have reached the provider and
	// its outcome is not known yet. The command line's exit code follows
	// it (4) whatever else went wrong with the error.
	MayBeCharged bool
}

func (p Problem) String() string {
	if p.Do == "" {
		return p.What
	}
	return p.What + "\n\n" + p.Do
}

// CreditsError is a 402 on a charged request, with what it needed and what
// the account had (when known), so the message can name both.
type CreditsError struct {
	Needed  int64 // credits the request costs; 0 when unknown
	Balance int64
	Metered bool // a metered account (402 means past due)
	PastDue bool
	Err     error
}

func (e *CreditsError) Error() string {
	switch {
	case e.Metered || e.PastDue:
		return "the account is past due: " + e.Err.Error()
	case e.Needed > 0 && e.Needed <= e.Balance:
		return fmt.Sprintf("payment refused although the balance covers the job (needed %d, balance %d): %v", e.Needed, e.Balance, e.Err)
	}
	return fmt.Sprintf("not enough credits (needed %d, balance %d): %v", e.Needed, e.Balance, e.Err)
}

func (e *CreditsError) Unwrap() error { return e.Err }

// WebhookError: the settings were saved, but the webhook receiver could not
// start as they ask.
type WebhookError struct {
	NoSecret bool   // no webhook secret is stored
	NotSaved bool   // the secret could not be stored (no keyring); nothing was saved
	Addr     string // the address it could not listen on
	Err      error
}

func (e *WebhookError) Error() string {
	if e.NotSaved {
		return fmt.Sprintf("the webhook secret was not saved: %v", e.Err)
	}
	if e.NoSecret {
		return "webhooks: store the webhook secret (from the provider's dashboard, Keys page) first"
	}
	return fmt.Sprintf("webhooks: cannot listen on %s: %v", e.Addr, e.Err)
}

func (e *WebhookError) Unwrap() error { return e.Err }

// NotTrackedError: a job this computer's ledger does not know.
type NotTrackedError struct{ JobID string }

func (e *NotTrackedError) Error() string {
	return fmt.Sprintf("job %s is not in this computer's job records", e.JobID)
}

// WaitLimitError: waiting for a job gave up after the time allowed; the job
// is still followed.
type WaitLimitError struct {
	JobID string
	Limit time.Duration
}

func (e *WaitLimitError) Error() string {
	return fmt.Sprintf("job %s has not finished after %s", e.JobID, e.Limit.Round(time.Second))
}

// StoppedWaitingError: the person stopped waiting (Ctrl+C); the job goes on.
type StoppedWaitingError struct {
	JobID string // "" when waiting for every job
	Err   error
}

func (e *StoppedWaitingError) Error() string {
	if e.JobID == "" {
		return "stopped waiting: " + e.Err.Error()
	}
	return fmt.Sprintf("stopped waiting for job %s: %v", e.JobID, e.Err)
}

func (e *StoppedWaitingError) Unwrap() error { return e.Err }

// StuckError: the only jobs left cannot progress now — jobs the key cannot
// see, results that keep failing to download or cannot be written. They
// are tried again later.
type StuckError struct {
	Jobs map[string]string // job id → why
	// Local: every stuck job is stuck on this computer (its result cannot
	// be written into the library), not on the service.
	Local bool
	Err   error
}

func (e *StuckError) Error() string { return e.Err.Error() }
func (e *StuckError) Unwrap() error { return e.Err }

// stuck turns the tracker's stuck error into the layer's; others pass.
func stuck(err error) error {
	var se *tracker.StuckError
	if errors.As(err, &se) {
		return &StuckError{Jobs: se.Jobs, Local: se.Local(), Err: err}
	}
	return err
}

// ErrNeedScrub: a trace's callable list needs a DNC scrub of its phones
// first ("Scrub these phones").
var ErrNeedScrub = errors.New("the trace's phones have not been scrubbed against the DNC and litigator lists yet")

// Explain turns err into a Problem. host names the server for connection
// errors ("api.example.com"); it may be empty.
func Explain(err error, host string) Problem {
	if err == nil {
		return Problem{}
	}
	if p, ok := ExplainKnown(err, host); ok {
		return p
	}
	return Problem{Title: "Something went wrong", What: capitalise(err.Error()) + ".", Do: "Try again; if it keeps happening, note the message above."}
}

// Explain is Explain with the open session's server named.
func (s *Service) Explain(err error) Problem {
	return Explain(err, HostOf(s.sessions().Current().BaseURL))
}

// explainers are tried in order; the first that knows err words it. The
// state of the money comes first: an error that may follow a charge is
// worded as an unknown outcome whatever else went wrong with it (the team's
// database away, a cancelled wait, a file), then the refusals of a charge,
// then everything else.
var explainers = []func(err error, host string) (Problem, bool){
	explainOutcome,
	explainMoney,
	explainLocal,
	explainCallable,
	explainSubmission,
	explainSetup,
	explainDisk,
	explainAPI,
	explainFiles,
	explainBusy,
}

// explainBusy words a change the database refused each time it was tried
// (others' made at the same moment); last, so that what the money's state
// says comes first.
func explainBusy(err error, _ string) (Problem, bool) {
	var be *sqldb.BusyError
	if !errors.As(err, &be) {
		return Problem{}, false
	}
	return Problem{Title: "Database busy", What: capitalise(be.Error()) + "."}, true
}

// explainOutcome: a charged request that may have reached the provider.
// Whatever else the error carries is only why the outcome is not known.
func explainOutcome(err error, _ string) (Problem, bool) {
	if !errors.Is(err, client.ErrOutcomeUnknown) {
		return Problem{}, false
	}
	what := "The connection failed after the request was sent, so the job may have been created and charged."
	switch {
	case errors.Is(err, ErrTeamUnreachable):
		what = "The request was sent, then the team's database stopped answering before its outcome was recorded: the job may have been created and charged."
	case errors.Is(err, context.Canceled):
		what = "The request was sent before it was cancelled, so the job may have been created and charged."
	case localFault(err) != "":
		what = "The request was sent, but its outcome could not be recorded on this computer (" + localFault(err) + "): the job may have been created and charged."
	}
	return Problem{Title: "Submission outcome unknown", What: what, MayBeCharged: true,
		Do: "It is listed as \"unknown — may be charged\" and settled by Reconcile (`skipdesk-cli jobs reconcile`) once the connection is back. Do not submit the file again."}, true
}

func explainLocal(err error, _ string) (Problem, bool) {
	var st *tracker.StillTrackedError
	if errors.As(err, &st) {
		return Problem{Title: "Status not known",
			What: fmt.Sprintf("Job %s has been %q for %s, a status SkipDesk does not know; it is still followed, and its result is downloaded if it completes.",
				st.JobID, client.CleanText(string(st.Status)), st.For.Round(time.Second)),
			Do: "Look again later in the Jobs list, or with `skipdesk-cli jobs wait " + st.JobID + "`."}, true
	}
	var wl *WaitLimitError
	var sw *StoppedWaitingError
	var nt *NotTrackedError
	var se *StuckError
	var sr *StopRefusedError
	switch {
	case errors.As(err, &sw):
		what := "Stopped waiting."
		if sw.JobID != "" {
			what = fmt.Sprintf("Stopped waiting for job %s; it goes on at the provider.", sw.JobID)
		}
		return Problem{Title: "Stopped waiting", What: what,
			Do: "The job is recorded: the app (or `skipdesk-cli jobs wait`) follows it and downloads its result."}, true
	case errors.Is(err, context.Canceled):
		return Problem{Title: "Cancelled", What: "The operation was cancelled."}, true
	case errors.As(err, &sr):
		return Problem{Title: "Sharing stays on",
			What: "This computer could not copy back from the team's database what it needs on its own (the company's do-not-call list, " +
				"its jobs, the duplicate guard's records), so it still works on the team's database and nothing changed: " + sr.Err.Error() + ".",
			Do: "Try again when the team's database answers."}, true
	case errors.Is(err, ErrTeamUnreachable):
		return Problem{Title: "Team database away",
			What: "The team's database cannot be reached: nothing was sent to the provider or charged, and what SkipDesk shows is read-only until it answers.",
			Do:   "Check the network, or ask whoever runs the team's database; SkipDesk tries again by itself."}, true
	case errors.As(err, &wl):
		return Problem{Title: "Still running",
			What: fmt.Sprintf("Job %s has not finished after %s; it is still running at the provider and stays recorded.", wl.JobID, wl.Limit.Round(time.Second)),
			Do:   "Follow it later: the app's Jobs list, or `skipdesk-cli jobs wait " + wl.JobID + "`."}, true
	case errors.As(err, &nt):
		return Problem{Title: "Unknown job", What: fmt.Sprintf("Job %s is not in this computer's job records.", nt.JobID),
			Do: "See the jobs this computer knows in the Jobs list (or `skipdesk-cli jobs`); the provider's lists show the others."}, true
	case errors.As(err, &se) && se.Local:
		return Problem{Title: "Result not saved", What: capitalise(se.Err.Error()) + ".",
			Do: "Make the results folder writable (or free some space); the result is downloaded again then."}, true
	case errors.As(err, &se):
		return Problem{Title: "Jobs stuck", What: capitalise(se.Err.Error()) + ".",
			Do: "They are tried again later; check the provider's dashboard if it lasts."}, true
	}
	return Problem{}, false
}

func explainMoney(err error, _ string) (Problem, bool) {
	var ce *CreditsError
	switch {
	case errors.As(err, &ce) && ce.Metered:
		return Problem{Title: "Payment past due",
			What: "The account's card payment is past due, so new jobs are refused.",
			Do:   "Update the card on file in the provider's dashboard, then try again."}, true
	case errors.As(err, &ce) && ce.PastDue:
		what := "A payment on the account is past due, so new jobs are refused"
		if msg := apiMessage(err); msg != "" {
			what += " (the server says: " + msg + ")"
		}
		return Problem{Title: "Payment past due", What: what + ".",
			Do: "Settle the account's billing in the provider's dashboard, then try again."}, true
	case errors.As(err, &ce) && ce.Needed > 0 && ce.Needed <= ce.Balance:
		// The balance covers the job, so the refusal is about something
		// else: the server's own words say what.
		what := fmt.Sprintf("The server refused the charge although the balance (%s) covers this job (%s)", jobs.Credits(ce.Balance), jobs.Credits(ce.Needed))
		if msg := apiMessage(err); msg != "" {
			what += ": " + msg
		}
		return Problem{Title: "Payment refused", What: what + ".",
			Do: "Check the account's billing in the provider's dashboard (a payment may be past due), then try again."}, true
	case errors.As(err, &ce) && ce.Needed > 0:
		return Problem{Title: "Not enough credits",
			What: fmt.Sprintf("This needs %s; the balance is %s (%s short).",
				jobs.Credits(ce.Needed), jobs.Thousands(ce.Balance), jobs.Thousands(max(ce.Needed-ce.Balance, 0))),
			Do: "Top up or lower the rows (for example leave out company rows or drop duplicates)."}, true
	case errors.Is(err, client.ErrInsufficientCredits):
		what := "The server refused the charge: the account does not have enough credits, or a payment is past due."
		if msg := apiMessage(err); msg != "" {
			what = "The server refused the charge: " + msg + "."
		}
		return Problem{Title: "Not enough credits", What: what,
			Do: "Top up, or check the account's billing in the provider's dashboard, then try again."}, true
	}
	return Problem{}, false
}

func explainSubmission(err error, _ string) (Problem, bool) {
	var nb *NothingBillableError
	switch {
	case errors.As(err, &nb):
		do := "Check the mapping and the options (\"Include LLCs and companies\" traces company rows), or pick another list."
		if nb.Kind == jobs.KindDNC {
			do = "Check that the phone column is the right one, or pick another list."
		}
		return Problem{Title: "Nothing to charge for", What: fmt.Sprintf("%s was not sent: %s. Nothing was charged.", nb.File, nb.Why), Do: do}, true
	case errors.Is(err, ErrDuplicate):
		what := "This file was already submitted with the same settings; submitting it again starts a new job and is charged again."
		if d, ok := DuplicateOf(err); ok {
			from := ""
			if d.By != "" {
				from = " from " + d.By
			}
			what = fmt.Sprintf("%s was submitted%s with the same mapping and options at %s", d.FileName, from, d.At.Local().Format("2006-01-02 15:04"))
			if d.JobID != "" {
				what += " (job " + d.JobID + ")."
			} else {
				what += " (its outcome is unknown: it may have been charged)."
			}
		}
		return Problem{Title: "Already submitted", What: what,
			Do: "Follow the earlier job instead; submit again only if you mean to pay twice (`--again` on the command line)."}, true
	case errors.Is(err, ErrNeedScrub):
		return Problem{Title: "Phones not scrubbed yet",
			What: "The trace's phones have not been scrubbed against the DNC and litigator lists yet, so no number can be called.",
			Do:   "Scrub the trace's phones first (Scrub phones), then export the callable list."}, true
	case errors.Is(err, client.ErrNotResult):
		return Problem{Title: "Not a result file",
			What: "The server's answer to the download was not a result file (a web page or a message instead); nothing was kept.",
			Do:   "It is tried again later; if it lasts, check the provider's status page or the API address."}, true
	case isDownloadTimeout(err):
		return Problem{Title: "Download too slow",
			What: "The result's download did not finish in time; nothing was kept.",
			Do:   "It is tried again later. Check the internet connection if it keeps happening."}, true
	case errors.Is(err, ErrTooLarge):
		return Problem{Title: "File too large", What: capitalise(err.Error()) + ".",
			Do: "Split the list into smaller files and submit each."}, true
	}
	return Problem{}, false
}

func explainAPI(err error, host string) (Problem, bool) {
	var apiErr *client.APIError
	switch {
	case errors.Is(err, client.ErrUnauthorized):
		return Problem{Title: "API key refused",
			What: "The server did not accept the API key.",
			Do:   "Check the key in the provider's dashboard (API section, Keys page) and enter it again (or set SKIPDESK_API_KEY)."}, true
	case errors.Is(err, client.ErrForbidden):
		return Problem{Title: "Not allowed",
			What: "The key is not allowed to do this" + apiSuffix(err) + ".",
			Do:   "Check the account's status in the provider's dashboard."}, true
	case errors.Is(err, client.ErrNotFound) && !aboutAJob(err):
		return Problem{Title: "Not found",
			What: fmt.Sprintf("%s does not answer %s: the provider's address may be wrong.", theServer(host), apiOp(err)),
			Do:   "Check the API address in Settings (or SKIPDESK_BASE_URL, --base-url): it ends in /v1."}, true
	case errors.Is(err, client.ErrNotFound):
		return Problem{Title: "Not found",
			What: "The server does not know this job (it may belong to another key).",
			Do:   "Refresh the jobs list; ids are used exactly as the lists give them."}, true
	case errors.Is(err, client.ErrTooLarge):
		return Problem{Title: "File too large",
			What: "The file is over the 50 MB upload limit.",
			Do:   "Split the list into smaller files and submit each."}, true
	case errors.Is(err, client.ErrRateLimited):
		what := "The server asked to slow down."
		if errors.As(err, &apiErr) && apiErr.RetryAfter > 0 {
			what = fmt.Sprintf("The server asked to slow down for %s.", apiErr.RetryAfter.Round(time.Second))
		}
		return Problem{Title: "Too many requests", What: what, Do: "Wait a minute and try again."}, true
	case errors.Is(err, client.ErrServer):
		return Problem{Title: "Server error",
			What: "The server had a problem" + apiSuffix(err) + ".",
			Do:   "Try again in a few minutes."}, true
	case errors.As(err, &apiErr):
		return Problem{Title: "Request refused",
			What: "The server refused the request: " + strings.TrimRight(apiDetail(apiErr), ". ") + ".",
			Do:   "Correct what it names and try again."}, true
	case unreachable(err):
		return Problem{Title: "Can't reach the server",
			What: fmt.Sprintf("Can't reach %s.", host),
			Do:   "Check your internet connection and the API's base URL, then try again."}, true
	}
	return Problem{}, false
}

func explainSetup(err error, _ string) (Problem, bool) {
	var we *WebhookError
	var be *BaseURLError
	var se *SettingsError
	switch {
	case errors.Is(err, ErrNoKey):
		return Problem{Title: "No API key",
			What: "No API key is stored on this computer.",
			Do:   "Enter it in SkipDesk (Use my API key…), or set SKIPDESK_API_KEY for the command line."}, true
	case errors.Is(err, ErrNoBaseURL):
		return Problem{Title: "No API address",
			What: "SkipDesk has a key but no API address to use it with.",
			Do:   "Give the base URL your provider gave you (it ends in /v1): in SkipDesk, or with --base-url or SKIPDESK_BASE_URL."}, true
	case errors.As(err, &be):
		return Problem{Title: "API address not usable",
			What: fmt.Sprintf("The API address %q cannot be used: %v.", be.URL, be.Err),
			Do:   "Give the base URL your provider gave you: https, ending in /v1 (plain http only on this computer)."}, true
	case errors.As(err, &se):
		return Problem{Title: "Settings reset", What: capitalise(se.Error()) + ".",
			Do: "Check the settings (theme, notifications, webhooks, export folder) and save them again."}, true
	case errors.Is(err, ErrKeyringUnavailable) || errors.Is(err, secrets.ErrUnavailable):
		return Problem{Title: "No keyring",
			What: "The system keyring is not available, so the key cannot be stored safely.",
			Do:   "Use the key for this session only, or set SKIPDESK_API_KEY in the environment."}, true
	case errors.As(err, &we) && we.NotSaved:
		return Problem{Title: "Webhook secret not saved",
			What: "This computer has no keyring to keep the webhook secret safely, so the settings were not saved.",
			Do:   "Leave webhooks off and save again: jobs are still followed by polling."}, true
	case errors.As(err, &we) && we.NoSecret && errors.Is(err, secrets.ErrUnavailable):
		return Problem{Title: "Webhooks are not on",
			What: "The settings are saved, but the keyring that holds the webhook secret does not answer.",
			Do:   "Turn webhooks off, or try again once the keyring is unlocked. Jobs are still followed by polling."}, true
	case errors.As(err, &we) && we.NoSecret:
		return Problem{Title: "Webhooks are not on",
			What: "The settings are saved, but webhooks need the webhook secret, and none is stored.",
			Do:   "Copy the webhook secret from the provider's dashboard (Keys page) into Settings, or turn webhooks off. Jobs are still followed by polling."}, true
	case errors.As(err, &we):
		return Problem{Title: "Webhooks are not on",
			What: fmt.Sprintf("The settings are saved, but SkipDesk cannot listen on %s (%v).", we.Addr, we.Err),
			Do:   "Choose another address in Settings (for example 127.0.0.1:8791). Jobs are still followed by polling."}, true
	case errors.Is(err, ledger.ErrLocked):
		return Problem{Title: "SkipDesk is already running",
			What: "Another SkipDesk window (or a skipdesk-cli command tracking jobs) is using this account's job records.",
			Do:   "Switch to that window, or close it and try again. Two copies never track the same jobs at once, so nothing is charged or downloaded twice. Reading commands such as `skipdesk-cli jobs` still work."}, true
	case errors.Is(err, ledger.ErrNotWritable):
		return Problem{Title: "Job records can't be written",
			What: capitalise(err.Error()) + ".",
			Do:   "Free some disk space or fix the folder's permissions, then start SkipDesk again. Results already downloaded stay in the library and open as usual."}, true
	case errors.Is(err, ledger.ErrDamaged):
		// The error itself says what to keep and what to move.
		return Problem{Title: "Job records damaged", What: capitalise(err.Error()) + "."}, true
	}
	return Problem{}, false
}

func explainFiles(err error, _ string) (Problem, bool) {
	var pe *fs.PathError
	var fe *input.FileError
	var ee *ExistsError
	var ql *QueryTooLongError
	switch {
	case errors.As(err, &ql):
		return Problem{Title: "Search too long", What: capitalise(ql.Error()) + ".",
			Do: "Search for a name, an address, a phone or an e-mail."}, true
	case errors.As(err, &ee):
		return Problem{Title: "File already there",
			What: fmt.Sprintf("%s already exists; nothing was written, nothing replaced.", strings.Join(ee.Paths, " and ")),
			Do:   "Choose another name, or say to replace it (`--force` on the command line)."}, true
	case errors.As(err, &fe):
		return Problem{Title: "The file can't be read", What: strings.TrimRight(err.Error(), ". ") + ".",
			Do: "Fix the file at the place named (or export it again from its program), then try again."}, true
	case errors.As(err, &pe):
		return Problem{Title: "File not available",
			What: fmt.Sprintf("SkipDesk could not %s %s: %s.", pe.Op, pe.Path, describeErrno(pe.Err)),
			Do:   "Check that the file or folder exists and that you may use it, then try again."}, true
	}
	return Problem{}, false
}

// diskFault is a local file error a person can act on, named by what it is
// (the system's error number), never by the operation that met it.
type diskFault struct {
	errno syscall.Errno
	// writes: the fault is a refusal to write only when the step wrote
	// (a file that may not be read is explainFiles').
	writes bool
	title  string
	words  string // "the disk is full": what follows "could not write X:"
	do     string
}

var diskFaults = []diskFault{
	{syscall.ENOSPC, false, "Disk full", "the disk is full", "Free some space on that disk (or choose a folder on another one), then try again."},
	{syscall.EDQUOT, false, "Disk quota used up", "the disk quota is used up", "Free some space (or ask for a larger quota, or choose another folder), then try again."},
	{syscall.EROFS, false, "Folder is read-only", "the folder is read-only", "Choose a folder you can write to (or make this one writable), then try again."},
	{syscall.EACCES, true, "Not allowed to write", "permission denied", "Choose a folder you may write to (or change its permissions), then try again."},
	{syscall.EPERM, true, "Not allowed to write", "the operation is not permitted", "Choose a folder you may write to (or change its permissions), then try again."},
}

// faultOf is the disk fault err carries, if any.
func faultOf(err error) (diskFault, bool) {
	for _, f := range diskFaults {
		if errors.Is(err, f.errno) && (!f.writes || writing(err)) {
			return f, true
		}
	}
	return diskFault{}, false
}

// writing: err comes from writing a file (an export, a rename, a write, a
// new file or folder), not from reading one.
func writing(err error) bool {
	var we *export.WriteError
	var le *os.LinkError
	var pe *fs.PathError
	switch {
	case errors.As(err, &we), errors.As(err, &le):
		return true
	case errors.As(err, &pe):
		switch pe.Op {
		case "write", "sync", "close", "createtemp", "mkdir", "mkdirall", "remove", "truncate", "chmod":
			return true
		}
	}
	return false
}

// localFault words a disk fault err carries ("the disk is full"); "" when
// it carries none.
func localFault(err error) string {
	f, _ := faultOf(err)
	return f.words
}

// faultPath is the file or folder a local error names: the export's
// destination before its temporary file, the new name of a rename.
func faultPath(err error) string {
	var we *export.WriteError
	var le *os.LinkError
	var pe *fs.PathError
	switch {
	case errors.As(err, &we):
		return we.Path
	case errors.As(err, &le):
		return le.New
	case errors.As(err, &pe):
		return pe.Path
	}
	return ""
}

// explainDisk: a full, read-only or forbidden disk, whichever step met it
// (an export, a download, a merge, the index).
func explainDisk(err error, _ string) (Problem, bool) {
	f, ok := faultOf(err)
	if !ok {
		return Problem{}, false
	}
	what := "SkipDesk could not write to the disk: " + f.words + "."
	if path := faultPath(err); path != "" {
		what = fmt.Sprintf("SkipDesk could not write %s: %s.", path, f.words)
	}
	var we *export.WriteError
	if errors.As(err, &we) {
		what += " Nothing was written there; a file of that name already there is as it was."
	}
	return Problem{Title: f.title, What: what, Do: f.do}, true
}

// apiDetail is the server's message with every detail it listed.
func apiDetail(e *client.APIError) string {
	var b strings.Builder
	b.WriteString(e.Message)
	for _, d := range e.Details {
		b.WriteString("; ")
		if d.Field != "" {
			b.WriteString(d.Field + ": ")
		}
		b.WriteString(d.Message)
	}
	for _, p := range e.Problems {
		b.WriteString("; " + p)
	}
	return b.String()
}

func apiSuffix(err error) string {
	var apiErr *client.APIError
	if errors.As(err, &apiErr) && apiErr.Message != "" {
		return " (" + apiErr.Message + ")"
	}
	return ""
}

// theServer names the server at the start of a sentence: "The server at
// api.example.com", or "The server" when its host is not known.
func theServer(host string) string {
	if host == "" || host == "the server" {
		return "The server"
	}
	return "The server at " + host
}

// apiOp is the request err answers ("GET /account"), or "the request".
func apiOp(err error) string {
	var apiErr *client.APIError
	if errors.As(err, &apiErr) && apiErr.Op != "" {
		return apiErr.Op
	}
	return "the request"
}

// aboutAJob reports a request of one job ("GET /traces/trc_1"): its 404
// is the job's, not the address's. A request not known counts as one.
func aboutAJob(err error) bool {
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || apiErr.Op == "" {
		return true
	}
	_, path, _ := strings.Cut(apiErr.Op, " ")
	return strings.Count(strings.Trim(path, "/"), "/") >= 1
}

// apiMessage is the server's own message in err, if any.
func apiMessage(err error) string {
	var apiErr *client.APIError
	if errors.As(err, &apiErr) && apiErr.Message != "" && apiErr.Message != http.StatusText(apiErr.StatusCode) {
		return strings.TrimRight(apiErr.Message, ". ")
	}
	return ""
}

// Unreachable reports whether err means the server did not answer at all
// (no connection, DNS, reset, timeout): the server is away, not refusing.
// Screens then say they are offline and try again by themselves.
func Unreachable(err error) bool { return err != nil && unreachable(err) }

// unreachable: no answer at all (DNS, refused, reset, timeout).
func unreachable(err error) bool {
	var te *client.TransportError
	var ue *url.Error
	var oe *net.OpError
	var de *net.DNSError
	if errors.As(err, &te) || errors.As(err, &ue) || errors.As(err, &oe) || errors.As(err, &de) ||
		errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	// A system call's error number satisfies net.Error too (it has
	// Timeout and Temporary), inside a file's error or a rename's or on its
	// own: outside a network operation (matched above) it is this
	// computer's trouble, not the server's.
	var pe *fs.PathError
	var errno syscall.Errno
	if errors.As(err, &pe) || errors.As(err, &errno) {
		return false
	}
	var ne net.Error
	return errors.As(err, &ne)
}

// describeErrno puts the common file errors in words.
func describeErrno(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "it does not exist"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	}
	return err.Error()
}

// HostOf is the host of a base URL, for messages.
func HostOf(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" {
		return baseURL
	}
	return u.Host
}

func capitalise(s string) string {
	s = strings.TrimRight(s, ". ")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// StuckJobs lists a stuck error's jobs, sorted, "id: why" each.
func StuckJobs(se *StuckError) []string {
	out := make([]string, 0, len(se.Jobs))
	for id, why := range se.Jobs {
		out = append(out, id+": "+why)
	}
	sort.Strings(out)
	return out
}

// ExplainKnown is Explain for the errors SkipDesk knows how to put in
// words; ok is false for any other error (the caller shows it as it is).
func ExplainKnown(err error, host string) (p Problem, ok bool) {
	if err == nil {
		return Problem{}, false
	}
	if host == "" {
		host = "the server"
	}
	for _, f := range explainers {
		if p, ok := f(err, host); ok {
			return p, true
		}
	}
	return Problem{}, false
}

func isDownloadTimeout(err error) bool {
	var dt *client.DownloadTimeoutError
	return errors.As(err, &dt)
}
