// Package jobs holds SkipDesk's domain: its sub-packages read lists, map
// and validate them, estimate, submit through the ledger, track, download,
// read and export results. This file declares the domain's words once, for
// every package above and below it: the kinds of job, the trace modes, the
// job statuses and the quick filters of a result.
//
// It imports nothing of the project, so every package can use it.
package jobs

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Kind is what sort of job something is (or is for: a mapping of a phone
// list is for a DNC scrub).
type Kind string

// Kinds of job.
const (
	KindTrace  Kind = "trace"  // a bulk skip trace (POST /traces)
	KindSingle Kind = "single" // a single-record trace (POST /traces/single): no file, no webhook
	KindDNC    Kind = "dnc"    // a DNC + litigator scrub (POST /dnc)
)

// Mode is a trace's mode.
type Mode string

// Trace modes.
const (
	ModeNormal   Mode = "normal"   // names and an address
	ModeEnhanced Mode = "enhanced" // address only, a deeper lookup
)

// Status is a job's status: the API's (any value the server sends is kept
// as it is) or one of SkipDesk's own for a submission whose job is not
// known.
type Status string

// Statuses.
const (
	StatusProcessing Status = "processing"
	StatusCompleted  Status = "completed"
	StatusFailed     Status = "failed"
	// StatusUnknown: the upload may have reached the server and been
	// charged; reconcile settles it. Never resubmitted.
	StatusUnknown Status = "unknown"
	// StatusNotCreated: an unknown submission that turned out to have
	// created no job; nothing was charged.
	StatusNotCreated Status = "not created"
)

// Final reports whether the status is one a job never leaves on the server.
func (s Status) Final() bool { return s == StatusCompleted || s == StatusFailed }

// QuickFilter is one of the result viewer's quick filters, also the names
// of `skipdesk-cli export --filter`.
type QuickFilter string

// The quick filters. A phone filter keeps in each row only the phones that
// pass it, and drops a row left with none.
const (
	QuickMatched      QuickFilter = "matched"       // rows whose owner was found
	QuickMobile       QuickFilter = "mobile"        // mobile phones
	QuickNotDNC       QuickFilter = "not-dnc"       // phones known not to be on a DNC registry
	QuickNotLitigator QuickFilter = "not-litigator" // phones known not to belong to a litigator
	QuickCallable     QuickFilter = "callable"      // phones that may be called: valid, and clean on every list
	// QuickCallableNow: callable phones whose every calling window (of the
	// places their person may be) is open at the instant of the view.
	QuickCallableNow QuickFilter = "callable-now"
)

// QuickFilters lists the quick filters in the order they are offered.
var QuickFilters = []QuickFilter{QuickMatched, QuickMobile, QuickNotDNC, QuickNotLitigator, QuickCallable, QuickCallableNow}

// Callable reports a filter that keeps only callable phones (callable,
// callable-now): a list handed over to call.
func (f QuickFilter) Callable() bool { return f == QuickCallable || f == QuickCallableNow }

// ParseQuickFilters reads a comma-separated list of quick filter names
// ("matched, mobile"); "not_dnc" and "NOT-DNC" are read as "not-dnc".
func ParseQuickFilters(s string) ([]QuickFilter, error) {
	var out []QuickFilter
	for _, p := range strings.Split(s, ",") {
		p = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(p)), "_", "-")
		if p == "" {
			continue
		}
		f := QuickFilter(p)
		if !slices.Contains(QuickFilters, f) {
			names := make([]string, len(QuickFilters))
			for i, q := range QuickFilters {
				names[i] = string(q)
			}
			return nil, fmt.Errorf("unknown filter %q (the filters are %s)", p, strings.Join(names, ", "))
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out, nil
}

// Bytes writes a size for a person: "12 bytes", "2.0 KB", "50.0 MB". Every
// size a person reads goes through it.
func Bytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// Thousands writes n with thousands separators: 25000 → "25,000". Every
// figure a person reads goes through it.
func Thousands(n int64) string {
	neg := n < 0
	if neg {
		n = -n
	}
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Plural is "1 row" or "2,000 rows".
func Plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Thousands(n) + " " + many
}

// Credits is "1 credit" or "25,000 credits".
func Credits(n int64) string { return Plural(n, "credit", "credits") }

// CountDigits is how many ASCII digits s holds: the measure of "a number
// is in this cell" that the reading of headers and the mapping of values
// share.
func CountDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}

// HeaderWords splits a column header into lower-case words and numbers: at
// anything that is not a letter or a digit, where lower case turns to upper
// ("OwnerFirstName"), where a run of capitals gives way to a capitalised
// word ("DNCStatus"), and between letters and digits ("Owner1"). The mapping
// of lists and the reading of results split headers the same way.
func HeaderWords(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case unicode.IsLetter(r):
			if len(cur) > 0 {
				p := cur[len(cur)-1]
				switch {
				case unicode.IsDigit(p):
					flush()
				case unicode.IsLower(p) && unicode.IsUpper(r):
					flush()
				case unicode.IsUpper(p) && unicode.IsUpper(r) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
					flush()
				}
			}
			cur = append(cur, r)
		case unicode.IsDigit(r):
			if len(cur) > 0 && !unicode.IsDigit(cur[len(cur)-1]) {
				flush()
			}
			cur = append(cur, r)
		default:
			flush()
		}
	}
	flush()
	return out
}
