package desk

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/skipdesk/skipdesk/client"
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
	if e.Metered {
		return "the account is past due: " + e.Err.Error()
	}
	return fmt.Sprintf("not enough credits (needed %d, balance %d): %v", e.Needed, e.Balance, e.Err)
}

func (e *CreditsError) Unwrap() error { return e.Err }

// Explain turns err into a Problem. host names the server for connection
// errors ("api.example.com"); it may be empty.
func Explain(err error, host string) Problem {
	if host == "" {
		host = "the server"
	}
	var ce *CreditsError
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
	case errors.As(err, &ce) && ce.Needed > 0:
		return Problem{Title: "Not enough credits",
			What: fmt.Sprintf("This job needs %s credits; the balance is %s (%s short).",
				Count(ce.Needed), Count(ce.Balance), Count(max(ce.Needed-ce.Balance, 0))),
			Do: "Top up or lower the rows (for example leave out company rows or drop duplicates)."}
	case errors.Is(err, client.ErrInsufficientCredits):
		return Problem{Title: "Not enough credits",
			What: "The server refused the job: the account does not have enough credits, or a metered account is past due.",
			Do:   "Top up or lower the rows, then try again."}
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
	case unreachable(err):
		return Problem{Title: "Can't reach the server",
			What: fmt.Sprintf("Can't reach %s.", host),
			Do:   "Check your connection (and the base URL in Settings), then try again."}
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

// unreachable: no answer at all (DNS, refused, reset, timeout).
func unreachable(err error) bool {
	var te *client.TransportError
	var ne net.Error
	var ue *url.Error
	var oe *net.OpError
	var de *net.DNSError
	return errors.As(err, &te) || errors.As(err, &ne) || errors.As(err, &ue) ||
		errors.As(err, &oe) || errors.As(err, &de) || errors.Is(err, context.DeadlineExceeded)
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
