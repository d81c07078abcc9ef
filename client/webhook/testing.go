package webhook

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
)

// TestDelivery builds a delivery as the service sends it: the body
// {"event": event, "data": data} and the headers, signed with secret. For
// tests of receivers.
func TestDelivery(event string, data any, secret, deliveryID string, attempt int) ([]byte, http.Header, error) {
	body, err := json.Marshal(struct {
		Event string `json:"event"`
		Data  any    `json:"data"`
	}{event, data})
	if err != nil {
		return nil, nil, err
	}
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set(HeaderEvent, event)
	h.Set(HeaderSignature, Sign(body, secret))
	h.Set(HeaderDeliveryID, deliveryID)
	h.Set(HeaderAttempt, strconv.Itoa(attempt))
	return body, h, nil
}

// NewTestRequest is TestDelivery as an *http.Request POSTed to target.
func NewTestRequest(target, event string, data any, secret, deliveryID string, attempt int) (*http.Request, error) {
	body, h, err := TestDelivery(event, data, secret, deliveryID, attempt)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequest(http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header = h
	return req, nil
}
