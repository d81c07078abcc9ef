package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// Sentinels for errors.Is. An *APIError matches the one of its status code.
var (
	ErrBadRequest          = errors.New("bad request")            // 400
	ErrUnauthorized        = errors.New("unauthorized")           // 401
	ErrInsufficientCredits = errors.New("insufficient credits")   // 402
	ErrForbidden           = errors.New("forbidden")              // 403
	ErrNotFound            = errors.New("not found")              // 404
	ErrTooLarge            = errors.New("payload too large")      // 413
	ErrUnprocessable       = errors.New("unprocessable")          // 422
	ErrRateLimited         = errors.New("rate limited")           // 429
	ErrServer              = errors.New("server error")           // 5xx
	ErrOutcomeUnknown      = errors.New("outcome unknown")        // a charged POST that may have reached the server
	errUnexpectedStatus    = errors.New("unexpected HTTP status") // other codes
)

// maxErrorBody caps how much of an error body is read.
const maxErrorBody = 64 << 10

// maxMessage caps the message kept from a non-JSON body.
const maxMessage = 300

// FieldError is one item of a general-shape validation error's details.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// APIError is any non-2xx answer of the API, decoded from whichever of the
// spec's three body shapes arrived (or from an HTML, plain or empty body).
type APIError struct {
	StatusCode int
	Code       string       // e.g. "VALIDATION_ERROR"; empty when the body had none
	Message    string       // human-readable summary (never empty)
	Details    []FieldError // general shape: field-level problems
	Problems   []string     // mapping validation of POST /traces: every problem
	RetryAfter time.Duration
	Op         string // "POST /traces"

	outcomeUnknown bool // a 5xx to a charged POST
}

func (e *APIError) Error() string {
	var b strings.Builder
	if e.Op != "" {
		b.WriteString(e.Op)
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.Code != "" {
		b.WriteString(" (")
		b.WriteString(e.Code)
		b.WriteString(")")
	}
	if e.Message != "" && e.Message != http.StatusText(e.StatusCode) {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	for _, d := range e.Details {
		b.WriteString("; ")
		if d.Field != "" {
			b.WriteString(d.Field)
			b.WriteString(": ")
		}
		b.WriteString(d.Message)
	}
	for _, p := range e.Problems {
		b.WriteString("; ")
		b.WriteString(p)
	}
	if e.outcomeUnknown {
		b.WriteString(" (the request reached the server, so it is unknown whether it was charged)")
	}
	return b.String()
}

// Is matches the sentinel of the status code, and ErrOutcomeUnknown for
// any answer to a charged POST other than the refusals the spec defines.
func (e *APIError) Is(target error) bool {
	if target == ErrOutcomeUnknown {
		return e.outcomeUnknown
	}
	return target == sentinelFor(e.StatusCode)
}

// refusal reports whether a status is one of the refusals the spec
// defines (Errors): an answer saying the request was not carried out, so a
// charged POST created nothing and cost nothing.
func refusal(status int) bool {
	switch status {
	case 400, 401, 402, 403, 404, 413, 422, 429:
		return true
	}
	return false
}

// Outcome is what the answer to a charged POST (POST /traces, POST /dnc,
// POST /traces/single) says about the job and its charge.
type Outcome int

const (
	// Created: the server answered 2xx with a job (or, for a single
	// trace, its result): it was charged.
	Created Outcome = iota + 1
	// Refused: the server answered with one of the refusals the spec
	// defines (400, 401, 402, 403, 404, 413, 422, 429): nothing was
	// created or charged.
	Refused
	// NotSent: the request provably never left this computer (it failed
	// before a connection, or before a byte of it was written, or it was
	// cancelled before that): nothing was created or charged.
	NotSent
	// Unknown: anything else (a redirect, 408, 409, any other 4xx, a 5xx,
	// a broken connection after sending, an unreadable or unparsable 2xx, a
	// 2xx naming no job): a job may have been created and charged.
	Unknown
)

func (o Outcome) String() string {
	switch o {
	case Created:
		return "created"
	case Refused:
		return "refused"
	case NotSent:
		return "not sent"
	case Unknown:
		return "unknown — may be charged"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// ChargedOutcome classifies what a charged POST of this client returned:
// nil is Created; an error matching ErrOutcomeUnknown is Unknown; an
// *APIError is Refused only for the spec's refusals (any other status is
// Unknown, whatever the error says); any other error is NotSent (the client
// reports every failure after the request may have reached the server as
// ErrOutcomeUnknown).
func ChargedOutcome(err error) Outcome {
	if err == nil {
		return Created
	}
	if errors.Is(err, ErrOutcomeUnknown) {
		return Unknown
	}
	var ae *APIError
	if errors.As(err, &ae) {
		if refusal(ae.StatusCode) {
			return Refused
		}
		return Unknown
	}
	return NotSent
}

func sentinelFor(status int) error {
	switch status {
	case 400:
		return ErrBadRequest
	case 401:
		return ErrUnauthorized
	case 402:
		return ErrInsufficientCredits
	case 403:
		return ErrForbidden
	case 404:
		return ErrNotFound
	case 413:
		return ErrTooLarge
	case 422:
		return ErrUnprocessable
	case 429:
		return ErrRateLimited
	}
	if status >= 500 && status < 600 {
		return ErrServer
	}
	return errUnexpectedStatus
}

// readAPIError reads (at most maxErrorBody of) the body and decodes it.
func (c *Client) readAPIError(r *request, resp *http.Response) *APIError {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
	resp.Body.Close()
	e := decodeErrorWith(resp.StatusCode, resp.Header.Get("Content-Type"), body, c.red)
	if loc := resp.Header.Get("Location"); resp.StatusCode >= 300 && resp.StatusCode < 400 && loc != "" {
		// Only a redirect of a POST, or one with nowhere to go, gets here.
		e.Message = clean("the server redirected the request to "+loc+"; it was not followed", maxMessage*2, c.red)
	}
	e.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
	e.Op = r.op()
	return e
}

var (
	htmlTitle = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)
	htmlTag   = regexp.MustCompile(`(?s)<[^>]*>`)
)

// decodeError builds an APIError from a body in any shape. Text taken from
// the body is cleaned (control characters, length) and the key is redacted.
func decodeError(status int, contentType string, body []byte, key string) *APIError {
	return decodeErrorWith(status, contentType, body, newRedactor(key))
}

func decodeErrorWith(status int, contentType string, body []byte, key *redactor) *APIError {
	e := &APIError{StatusCode: status}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		decodeJSONError(e, trimmed)
	}
	if e.Message == "" && e.Code == "" && len(e.Details) == 0 && len(e.Problems) == 0 && len(trimmed) > 0 {
		e.Message = textMessage(trimmed, contentType)
	}
	e.Code = clean(e.Code, 100, key)
	e.Message = clean(e.Message, maxMessage*4, key)
	for i := range e.Details {
		e.Details[i].Field = clean(e.Details[i].Field, 200, key)
		e.Details[i].Message = clean(e.Details[i].Message, maxMessage*2, key)
	}
	for i := range e.Problems {
		e.Problems[i] = clean(e.Problems[i], maxMessage*2, key)
	}
	if e.Message == "" {
		e.Message = http.StatusText(status)
		if e.Message == "" {
			e.Message = fmt.Sprintf("HTTP status %d", status)
		}
	}
	return e
}

func decodeJSONError(e *APIError, body []byte) {
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return // truncated or invalid: shown as text
	}
	if raw, ok := top["error"]; ok {
		var s string
		var obj struct {
			Code    json.RawMessage   `json:"code"`
			Message string            `json:"message"`
			Details []json.RawMessage `json:"details"`
		}
		switch {
		case json.Unmarshal(raw, &s) == nil: // shapes 2 and 3
			e.Message = s
		case json.Unmarshal(raw, &obj) == nil: // shape 1
			e.Code = scalarString(obj.Code)
			e.Message = obj.Message
			addDetails(e, obj.Details)
		}
	}
	if e.Code == "" {
		e.Code = scalarString(top["code"])
	}
	if e.Message == "" {
		var s string
		if json.Unmarshal(top["message"], &s) == nil {
			e.Message = s
		}
	}
	var details []json.RawMessage
	if json.Unmarshal(top["details"], &details) == nil {
		addDetails(e, details)
	}
}

// addDetails sorts details into field errors (objects) and problems (strings).
func addDetails(e *APIError, details []json.RawMessage) {
	for _, d := range details {
		var s string
		var fe FieldError
		switch {
		case json.Unmarshal(d, &s) == nil:
			e.Problems = append(e.Problems, s)
		case json.Unmarshal(d, &fe) == nil && (fe.Field != "" || fe.Message != ""):
			e.Details = append(e.Details, fe)
		}
	}
}

// scalarString renders a JSON string or number as text ("" otherwise).
func scalarString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// textMessage summarises a body that is not one of the JSON shapes.
func textMessage(body []byte, contentType string) string {
	lower := bytes.ToLower(body[:min(len(body), 512)])
	if strings.Contains(contentType, "html") || bytes.HasPrefix(lower, []byte("<!doctype html")) || bytes.Contains(lower, []byte("<html")) {
		title := ""
		if m := htmlTitle.FindSubmatch(body); m != nil {
			title = string(m[1])
		} else {
			title = string(htmlTag.ReplaceAll(body, []byte(" ")))
		}
		title = strings.Join(strings.Fields(title), " ")
		if title == "" {
			return "the server answered with an HTML page"
		}
		return "the server answered with an HTML page: " + truncate(title, maxMessage)
	}
	return truncate(strings.Join(strings.Fields(string(body)), " "), maxMessage)
}

// clean makes text from the server fit for an error (CleanText), removes
// the key in any form, and truncates to n bytes, never ending on the first
// characters of the key.
func clean(s string, n int, red *redactor) string {
	if s == "" {
		return s
	}
	s = red.redact(CleanText(s))
	if len(s) > n {
		s = truncate(s, n)
		// Never end on the first characters of the key.
		key := red.key
		body := strings.TrimSuffix(s, "…")
		for l := min(len(key)-1, len(body)); l >= 4; l-- {
			if strings.HasSuffix(body, key[:l]) {
				s = body[:len(body)-l] + "…"
				break
			}
		}
	}
	return strings.TrimSpace(s)
}

// minFragment is the shortest run of the key's bytes that is masked on its
// own: a server echoing part of the key (or the key split by text it
// inserted) must not get that part into an error either.
const minFragment = 8

// maskKeyFragments replaces every run of at least minFragment bytes that
// occurs in the key with "[redacted]".
func maskKeyFragments(s, key string) string {
	if len(key) < minFragment || len(s) < minFragment {
		return s
	}
	var b strings.Builder
	masked := false
	for i := 0; i < len(s); {
		l := 0
		for j := i + minFragment; j <= len(s) && strings.Contains(key, s[i:j]); j++ {
			l = j - i
		}
		if l == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		b.WriteString("[redacted]")
		masked = true
		i += l
	}
	if !masked {
		return s
	}
	return strings.ToValidUTF8(b.String(), "")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
