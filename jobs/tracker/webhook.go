package tracker

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/skipdesk/skipdesk/client/webhook"
	"github.com/skipdesk/skipdesk/jobs/ledger"
)

// Receiver is a running webhook receiver.
type Receiver struct {
	srv *http.Server
	ln  net.Listener
}

// Addr is the address the receiver listens on.
func (r *Receiver) Addr() string { return r.ln.Addr().String() }

// Close stops the receiver, letting deliveries under way finish briefly.
func (r *Receiver) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	return r.srv.Shutdown(ctx)
}

// StartWebhookReceiver listens on addr for the provider's webhook deliveries,
// signed with one of secrets. Each verified delivery not seen before (the
// ledger remembers deliveries across restarts) updates its job from the
// payload and makes the tracker look at it at once.
func (t *Tracker) StartWebhookReceiver(addr string, secrets ...string) (*Receiver, error) {
	if len(secrets) == 0 || secrets[0] == "" {
		return nil, errors.New("tracker: the webhook receiver needs the webhook secret")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	h := webhook.Handler(secrets, t.onWebhook, &webhook.Options{
		Dedupe:  ledger.DeliveryDedupe{L: t.led},
		OnError: func(err error) { t.emitErr("", err) },
	})
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return &Receiver{srv: srv, ln: ln}, nil
}

// onWebhook takes a verified, new delivery.
func (t *Tracker) onWebhook(ev webhook.Event) {
	var it item
	switch {
	case ev.Trace != nil:
		it.trace = ev.Trace
	case ev.DNC != nil:
		it.dnc = ev.DNC
	default:
		return
	}
	ctx := context.Background()
	known, err := t.led.Jobs().Job(ctx, it.id())
	if err != nil && it.encodedID() != "" {
		known, err = t.led.Jobs().Job(ctx, it.encodedID())
	}
	if err != nil {
		return // not a job of this ledger
	}
	j, sp := it.job()
	j.ID, j.Kind = known.ID, known.Kind
	cur := t.record(ctx, []ledger.JobState{{Job: j, Spend: sp}})[0]
	t.mu.Lock()
	if tr := t.jobs[known.ID]; tr != nil && cur != nil {
		tr.job = cur
		if cur.Status.Final() {
			delete(t.jobs, known.ID)
		}
	}
	t.mu.Unlock()
	t.Hint(known.ID)
}
