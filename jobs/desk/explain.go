package desk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/secrets"
)

// Problem is an error put in words for the people using the app: what
// happened, and what to do about it. The window shows it in a dialog; the
// CLI can print it.
type Problem struct {
	Title string // a few words: "Not enough credits"
	What  string // what happened, in the user's terms
	Do    string // what to do next
}

func (p Problem) String() string {
	if p.Do == "" {
		return p.What
	}
	return p.What + "\n\n" + p.Do
}

// CreditsError is a 402 on a submission, with what the job needed and what
// the account had (when known), so the message can name both.
type CreditsError struct {
	Needed  int64 // credits the job costs; 0 when unknown
	Balance int64
	Metered bool // a metered account (402 means past due)
	PastDue bool
	Err     error
}

func (e *CreditsError) Error() string {
	switch {
	case e.Metered:
		return "the account is past due: " + e.Err.Error()
	case e.Needed > 0 && e.Needed <= e.Balance:
		return fmt.Sprintf("payment refused although the balance covers the job (needed %d, balance %d): %v", e.Needed, e.Balance, e.Err)
	}
	return fmt.Sprintf("not enough credits (needed %d, balance %d): %v", e.Needed, e.Balance, e.Err)
}

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

func (e *CreditsError) Unwrap() error { return e.Err }

// Explain turns err into a Problem. host names the server for connection
// errors ("api.example.com"); it may be empty.
func Explain(err error, host string) Problem {
	if host == "" {
		host = "the server"
	}
	var ce *CreditsError
	var we *WebhookError
	var pe *fs.PathError
	var apiErr *client.APIError
	switch {
	case err == nil:
		return Problem{}
	case errors.Is(err, context.Canceled):
		return Problem{Title: "Cancelled", What: "The operation was cancelled."}
	case errors.As(err, &ce) && (ce.Metered || ce.PastDue):
		return Problem{Title: "Payment past due",
			What: "The account's card payment is past due, so new jobs are refused.",
			Do:   "Update the card on file in the provider's dashboard, then try again."}
	case errors.As(err, &ce) && ce.Needed > 0 && ce.Needed <= ce.Balance:
		// The balance covers the job, so the refusal is about something
		// else: the server's own words say what.
		what := fmt.Sprintf("The server refused the charge although the balance (%s) covers this job (%s)", credits(ce.Balance), credits(ce.Needed))
		if msg := apiMessage(err); msg != "" {
			what += ": " + msg
		}
		return Problem{Title: "Payment refused", What: what + ".",
			Do: "Check the account's billing in the provider's dashboard (a payment may be past due), then try again."}
	case errors.As(err, &ce) && ce.Needed > 0:
		return Problem{Title: "Not enough credits",
			What: fmt.Sprintf("This job needs %s; the balance is %s (%s short).",
				credits(ce.Needed), Count(ce.Balance), Count(max(ce.Needed-ce.Balance, 0))),
			Do: "Top up or lower the rows (for example leave out company rows or drop duplicates)."}
	case errors.Is(err, client.ErrInsufficientCredits):
		what := "The server refused the charge: the account does not have enough credits, or a payment is past due."
		if msg := apiMessage(err); msg != "" {
			what = "The server refused the charge: " + msg + "."
		}
		return Problem{Title: "Not enough credits", What: what,
			Do: "Top up, or check the account's billing in the provider's dashboard, then try again."}
	case errors.Is(err, client.ErrOutcomeUnknown):
		return Problem{Title: "Submission outcome unknown",
			What: "The connection failed after the file was sent, so the job may have been created and charged.",
			Do:   "It is listed as \"unknown — may be charged\". Use Reconcile on it once the connection is back; do not submit the file again."}
	case errors.Is(err, client.ErrUnauthorized):
		return Problem{Title: "API key refused",
			What: "The server did not accept the API key.",
			Do:   "Check the key in the provider's dashboard (API section, Keys page) and enter it again."}
	case errors.Is(err, client.ErrForbidden):
		return Problem{Title: "Not allowed",
			What: "The key is not allowed to do this" + apiSuffix(err) + ".",
			Do:   "Check the account's status in the provider's dashboard."}
	case errors.Is(err, client.ErrNotFound):
		return Problem{Title: "Not found",
			What: "The server does not know this job (it may belong to another key).",
			Do:   "Refresh the jobs list."}
	case errors.Is(err, client.ErrTooLarge):
		return Problem{Title: "File too large",
			What: "The file is over the 50 MB upload limit.",
			Do:   "Split the list into smaller files and submit each."}
	case errors.Is(err, client.ErrRateLimited):
		return Problem{Title: "Too many requests",
			What: "The server asked to slow down.",
			Do:   "Wait a minute and try again."}
	case errors.Is(err, client.ErrServer):
		return Problem{Title: "Server error",
			What: "The server had a problem" + apiSuffix(err) + ".",
			Do:   "Try again in a few minutes."}
	case errors.As(err, &apiErr):
		return Problem{Title: "Request refused",
			What: "The server refused the request: " + apiErr.Message + ".",
			Do:   "Correct what it names and try again."}
	case errors.Is(err, ErrKeyringUnavailable) || errors.Is(err, secrets.ErrUnavailable):
		return Problem{Title: "No keyring",
			What: "The system keyring is not available, so the key cannot be stored safely.",
			Do:   "Use the key for this session only, or set SKIPDESK_API_KEY in the environment."}
	case errors.As(err, &we) && we.NotSaved:
		return Problem{Title: "Webhook secret not saved",
			What: "This computer has no keyring to keep the webhook secret safely, so the settings were not saved.",
			Do:   "Leave webhooks off and save again: jobs are still followed by polling."}
	case errors.As(err, &we) && we.NoSecret && errors.Is(err, secrets.ErrUnavailable):
		return Problem{Title: "Webhooks are not on",
			What: "The settings are saved, but the keyring that holds the webhook secret does not answer.",
			Do:   "Turn webhooks off, or try again once the keyring is unlocked. Jobs are still followed by polling."}
	case errors.As(err, &we) && we.NoSecret:
		return Problem{Title: "Webhooks are not on",
			What: "The settings are saved, but webhooks need the webhook secret, and none is stored.",
			Do:   "Copy the webhook secret from the provider's dashboard (Keys page) into Settings, or turn webhooks off. Jobs are still followed by polling."}
	case errors.As(err, &we):
		return Problem{Title: "Webhooks are not on",
			What: fmt.Sprintf("The settings are saved, but SkipDesk cannot listen on %s (%v).", we.Addr, we.Err),
			Do:   "Choose another address in Settings (for example 127.0.0.1:8791). Jobs are still followed by polling."}
	case errors.Is(err, ledger.ErrLocked):
		return Problem{Title: "SkipDesk is already running",
			What: "Another SkipDesk window (or a skipdesk-cli command tracking jobs) is using this account's job records.",
			Do:   "Switch to that window, or close it and try again. Two copies never track the same jobs at once, so nothing is charged or downloaded twice."}
	case errors.Is(err, ledger.ErrNotWritable):
		return Problem{Title: "Job records can't be written",
			What: capitalise(err.Error()) + ".",
			Do:   "Free some disk space or fix the folder's permissions, then start SkipDesk again. Results already downloaded stay in the library and open as usual."}
	case errors.Is(err, ledger.ErrDamaged):
		// The error itself says what to keep and what to move.
		return Problem{Title: "Job records damaged", What: capitalise(err.Error()) + "."}
	case unreachable(err):
		return Problem{Title: "Can't reach the server",
			What: fmt.Sprintf("Can't reach %s.", host),
			Do:   "Check your internet connection and the API's base URL, then try again."}
	case errors.As(err, &pe):
		return Problem{Title: "File not available",
			What: fmt.Sprintf("SkipDesk could not %s %s: %s.", pe.Op, pe.Path, describeErrno(pe.Err)),
			Do:   "Check that the file or folder exists and that you may use it, then try again."}
	}
	return Problem{Title: "Something went wrong", What: capitalise(err.Error()) + ".", Do: "Try again; if it keeps happening, note the message above."}
}

func apiSuffix(err error) string {
	var apiErr *client.APIError
	if errors.As(err, &apiErr) && apiErr.Message != "" {
		return " (" + apiErr.Message + ")"
	}
	return ""
}

// apiMessage is the server's own message in err, if any.
func apiMessage(err error) string {
	var apiErr *client.APIError
	if errors.As(err, &apiErr) && apiErr.Message != "" && apiErr.Message != http.StatusText(apiErr.StatusCode) {
		return strings.TrimRight(apiErr.Message, ". ")
	}
	return ""
}

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
	// A file's error satisfies net.Error too (it has Timeout and
	// Temporary): a missing file is not a network problem.
	var pe *fs.PathError
	if errors.As(err, &pe) {
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

// Count writes n with thousands separators: 25000 → "25,000".
func Count(n int64) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// credits is "1 credit" or "25,000 credits".
func credits(n int64) string {
	if n == 1 {
		return "1 credit"
	}
	return Count(n) + " credits"
}
