package workflow

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs"
)

// MaxQuery is the most characters a library search looks for. A name, an
// address, a phone or an e-mail fit in far fewer; a longer text (a page
// pasted by mistake) is refused with a *QueryTooLongError rather than
// searched word by word.
const MaxQuery = 1000

// QueryTooLongError: a search text longer than MaxQuery characters.
type QueryTooLongError struct{ Length int }

func (e *QueryTooLongError) Error() string {
	return fmt.Sprintf("the search text is %s characters long; at most %s are searched",
		jobs.Thousands(int64(e.Length)), jobs.Thousands(MaxQuery))
}

// checkQuery refuses a search text longer than MaxQuery characters.
func checkQuery(q string) error {
	if len(q) <= MaxQuery {
		return nil
	}
	if n := utf8.RuneCountInString(q); n > MaxQuery {
		return &QueryTooLongError{Length: n}
	}
	return nil
}

// echoLimit is how much of a search text is repeated back to the person.
const echoLimit = 60

// EchoQuery is a search text as the window and the command line repeat it
// back ("no result holds …"): whole when short, else its start and "…".
func EchoQuery(q string) string {
	q = strings.TrimSpace(q)
	if utf8.RuneCountInString(q) <= echoLimit {
		return q
	}
	n := 0
	for i := range q {
		if n == echoLimit {
			return strings.TrimSpace(q[:i]) + "…"
		}
		n++
	}
	return q
}
