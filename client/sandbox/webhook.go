package sandbox

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Delivery is one webhook delivery: up to max_attempts attempts of the same
// body, each with its own whd_ id. ID is the id of the first attempt (the
// delivery_id retry-webhook returns).
type Delivery struct {
	ID       string
	JobID    string
	Event    string
	URL      string
	Status   string // pending, delivered, failed (attempts exhausted), cancelled (server closed)
	Attempts []Attempt
}

// Attempt is one POST of a delivery.
type Attempt struct {
	ID         string // X-Service-Delivery-Id
	Number     int    // X-Service-Attempt
	At         time.Time
	StatusCode int    // 0 when no reply
	Err        string // transport error or timeout
}

// DeliveriesChanged is closed at the next change of a delivery — a new
// one, an attempt, its status — so that a test watches Deliveries without
// polling it.
func (s *Server) DeliveriesChanged() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.changed == nil {
		s.changed = make(chan struct{})
	}
	return s.changed
}

// deliveriesChanged wakes DeliveriesChanged's watchers (under s.mu).
func (s *Server) deliveriesChanged() {
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
}

// Deliveries returns a copy of every webhook delivery so far, oldest first.
func (s *Server) Deliveries() []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Delivery, len(s.deliveries))
	for i, d := range s.deliveries {
		out[i] = *d
		out[i].Attempts = append([]Attempt(nil), d.Attempts...)
	}
	return out
}

func eventName(j *job) string {
	prefix := "trace."
	if j.kind == kindDNC {
		prefix = "dnc."
	}
	return prefix + j.status
}

// queueWebhook starts a delivery of the job's event to its key's webhook URL
// and returns it (nil when the key has none); the caller holds s.mu.
func (s *Server) queueWebhook(j *job) *Delivery {
	a := j.owner
	if a.webhookURL == "" || s.closed || j.traceType == "single" {
		return nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	event := eventName(j)
	if err := enc.Encode(struct {
		Event string `json:"event"`
		Data  any    `json:"data"`
	}{event, j.view()}); err != nil {
		s.logger.Printf("sandbox: webhook body of %s: %v", j.id, err)
		return nil
	}
	body := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	mac := hmac.New(sha256.New, []byte(a.webhookSecret))
	mac.Write(body)
	d := &Delivery{
		ID:     "whd_" + newToken(12),
		JobID:  j.id,
		Event:  event,
		URL:    a.webhookURL,
		Status: "pending",
	}
	s.deliveries = append(s.deliveries, d)
	s.deliveriesChanged()
	s.bg.Add(1)
	go s.deliver(d, body, hex.EncodeToString(mac.Sum(nil)), s.cfg.Webhook)
	return d
}

// deliver makes the attempts of one delivery; it never blocks a request.
func (s *Server) deliver(d *Delivery, body []byte, sig string, wc WebhookConfig) {
	defer s.bg.Done()
	client := &http.Client{
		Timeout: seconds(wc.TimeoutSeconds),
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse // a redirect is not a 2xx
		},
	}
	for n := 1; n <= wc.MaxAttempts; n++ {
		if n > 1 {
			delay := 0.0
			if len(wc.RetryDelaysSeconds) > 0 {
				delay = wc.RetryDelaysSeconds[min(n-2, len(wc.RetryDelaysSeconds)-1)]
			}
			t := time.NewTimer(seconds(delay))
			select {
			case <-t.C:
			case <-s.ctx.Done():
				t.Stop()
				s.setDelivery(d, "cancelled", nil)
				return
			}
		}
		id := d.ID
		if n > 1 {
			id = "whd_" + newToken(12)
		}
		at := Attempt{ID: id, Number: n, At: s.clock()}
		code, err := s.post(client, d, body, sig, id, n)
		at.StatusCode = code
		if err != nil {
			at.Err = err.Error()
		}
		if err == nil && code >= 200 && code < 300 {
			s.setDelivery(d, "delivered", &at)
			return
		}
		s.setDelivery(d, "pending", &at)
	}
	s.setDelivery(d, "failed", nil)
}

func (s *Server) post(client *http.Client, d *Delivery, body []byte, sig, id string, n int) (int, error) {
	req, err := http.NewRequestWithContext(s.ctx, http.MethodPost, d.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "skipdesk-sandbox-webhooks/1")
	req.Header.Set("X-Service-Event", d.Event)
	req.Header.Set("X-Service-Signature", sig)
	req.Header.Set("X-Service-Delivery-Id", id)
	req.Header.Set("X-Service-Attempt", strconv.Itoa(n))
	res, err := client.Do(req)
	if err != nil {
		if ctxErr := context.Cause(s.ctx); ctxErr != nil {
			return 0, ctxErr
		}
		return 0, err
	}
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
	return res.StatusCode, nil
}

func (s *Server) setDelivery(d *Delivery, status string, at *Attempt) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d.Status = status
	if at != nil {
		d.Attempts = append(d.Attempts, *at)
	}
	s.deliveriesChanged()
}

func (s *Server) retryWebhookHandler(kind string) func(http.ResponseWriter, *http.Request, *account, string) {
	return func(w http.ResponseWriter, r *http.Request, a *account, id string) {
		s.mu.Lock()
		j := s.lookup(kind, a, id)
		var ae *apiError
		var d *Delivery
		switch {
		case j == nil:
			ae = notFound(kind, id)
		case j.status == statusProcessing || j.finalizing && j.status == statusProcessing:
			ae = plainErr(http.StatusConflict, "JOB_NOT_FINISHED", "the job is still processing: a webhook can be re-sent only for a completed or failed job")
		case j.traceType == "single":
			ae = plainErr(http.StatusUnprocessableEntity, "NO_WEBHOOK", "single traces never fire webhooks")
		case a.webhookURL == "":
			ae = plainErr(http.StatusUnprocessableEntity, "WEBHOOK_NOT_CONFIGURED", "no webhook URL is configured on this API key")
		default:
			d = s.queueWebhook(j)
			if d == nil {
				ae = plainErr(http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE", "the delivery could not be queued")
			}
		}
		s.mu.Unlock()
		if ae != nil {
			writeAPIError(w, ae)
			return
		}
		writeJSON(w, http.StatusAccepted, map[string]any{"delivery_id": d.ID, "attempt": 1, "status": "pending"})
	}
}
