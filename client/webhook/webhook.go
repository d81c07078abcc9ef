// Package webhook verifies and receives the provider's webhook deliveries
// (spec/api.md, Events): HMAC-SHA256 of the raw body, hex-encoded in
// X-Service-Signature, keyed with the webhook secret.
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/skipdesk/skipdesk/client"
)

// Header names of a delivery.
const (
	HeaderEvent      = "X-Service-Event"
	HeaderSignature  = "X-Service-Signature"
	HeaderDeliveryID = "X-Service-Delivery-Id"
	HeaderAttempt    = "X-Service-Attempt"
)

// Event names.
const (
	TraceCompleted = "trace.completed"
	TraceFailed    = "trace.failed"
	DNCCompleted   = "dnc.completed"
	DNCFailed      = "dnc.failed"
)

var (
	// ErrNoSecret: Verify was given no secret (or only empty ones).
	ErrNoSecret = errors.New("webhook: no secret configured")
	// ErrBadSignature: the signature is missing, not hex, or matches no secret.
	ErrBadSignature = errors.New("webhook: signature does not match")
)

// Sign returns the hex HMAC-SHA256 of body keyed with secret: the value of
// X-Service-Signature.
func Sign(body []byte, secret string) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Verify checks signatureHex (hex, either case, surrounding spaces ignored,
// an optional "sha256=" prefix accepted) against the raw body with each
// secret in turn, so that a secret can be rotated without losing
// deliveries. Comparison is in constant time.
func Verify(body []byte, signatureHex string, secrets ...string) error {
	sig := strings.TrimSpace(signatureHex)
	sig = strings.TrimPrefix(sig, "sha256=")
	got, err := hex.DecodeString(sig)
	if err != nil || len(got) != sha256.Size {
		return ErrBadSignature
	}
	any := false
	ok := false
	for _, s := range secrets {
		if s == "" {
			continue
		}
		any = true
		m := hmac.New(sha256.New, []byte(s))
		m.Write(body)
		// Check every secret, so timing does not tell which one matched.
		if hmac.Equal(m.Sum(nil), got) {
			ok = true
		}
	}
	if !any {
		return ErrNoSecret
	}
	if !ok {
		return ErrBadSignature
	}
	return nil
}

// Event is one verified delivery.
type Event struct {
	Name     string          // "trace.completed", ...; any other name is kept as sent
	Delivery string          // X-Service-Delivery-Id
	Attempt  int             // X-Service-Attempt (0 when absent)
	Trace    *client.Trace   // for trace.* events
	DNC      *client.DNCJob  // for dnc.* events
	Raw      json.RawMessage // the whole body, as received
}

// ID returns the job id the event is about ("" when none).
func (e *Event) ID() string {
	id, _ := e.job()
	return id
}

// Status returns the job status the event carries ("" when none).
func (e *Event) Status() client.Status {
	_, status := e.job()
	return status
}

// job is the id and status of the trace or DNC job the event carries.
func (e *Event) job() (string, client.Status) {
	switch {
	case e.Trace != nil:
		return e.Trace.ID, e.Trace.Status
	case e.DNC != nil:
		return e.DNC.ID, e.DNC.Status
	}
	return "", ""
}

// Parse decodes an event body. Events other than the four known names keep
// their data in Raw only (Trace and DNC nil); the name is taken from the
// body, or from the header value given when the body has none.
func Parse(body []byte, headerEvent string) (*Event, error) {
	var env struct {
		Event string          `json:"event"`
		Data  json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("webhook: the body is not a JSON event: %v", err)
	}
	ev := &Event{Name: env.Event, Raw: json.RawMessage(body)}
	if ev.Name == "" {
		ev.Name = headerEvent
	}
	// The name may be shown; the job data is cleaned as it is decoded.
	ev.Name = client.CleanText(ev.Name)
	hasData := len(env.Data) > 0 && string(env.Data) != "null"
	switch {
	case strings.HasPrefix(ev.Name, "trace.") && hasData:
		ev.Trace = new(client.Trace)
		if err := json.Unmarshal(env.Data, ev.Trace); err != nil {
			return nil, fmt.Errorf("webhook: %s: data: %v", ev.Name, client.CleanText(err.Error()))
		}
	case strings.HasPrefix(ev.Name, "dnc.") && hasData:
		ev.DNC = new(client.DNCJob)
		if err := json.Unmarshal(env.Data, ev.DNC); err != nil {
			return nil, fmt.Errorf("webhook: %s: data: %v", ev.Name, client.CleanText(err.Error()))
		}
	}
	return ev, nil
}
