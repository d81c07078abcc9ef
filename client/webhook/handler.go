package webhook

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// Dedupe remembers what was already handled. The job ledger implements it
// to keep the memory across restarts; the default is in memory.
type Dedupe interface {
	// Seen records key and reports whether it had been recorded before. On
	// error the event is delivered (deliveries are hints; a duplicate is
	// harmless, a lost one is not).
	Seen(key string) (bool, error)
}

// Options tune Handler. The zero value is usable.
type Options struct {
	MaxBodyBytes int64       // body size cap; default 1 MiB
	Dedupe       Dedupe      // default NewMemoryDedupe(10000)
	OnError      func(error) // optional: rejected deliveries and dedupe failures
	// Secrets, when set, is asked for the current secrets on every delivery
	// instead of the fixed list, so a rotated secret applies at once.
	Secrets func() []string
	// Go starts the goroutine that hands a new delivery to onEvent (default
	// the go statement); it is called before the delivery is answered, so
	// that a caller that counts its work counts the delivery from the start.
	Go func(f func())
}

// DefaultMaxBodyBytes caps a delivery body.
const DefaultMaxBodyBytes = 1 << 20

// Handler returns an http.Handler that receives deliveries: POST only (405
// otherwise), body read raw with a size cap (413), signature checked
// against secrets (401), JSON parsed (400). A valid delivery is answered
// 200 {"received":true} at once, duplicates included; a new one (not seen
// by X-Service-Delivery-Id nor by data.id+status) is then handed to onEvent
// on another goroutine, one event at a time.
func Handler(secrets []string, onEvent func(Event), opts *Options) http.Handler {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.Dedupe == nil {
		o.Dedupe = NewMemoryDedupe(10000)
	}
	h := &handler{secrets: append([]string(nil), secrets...), onEvent: onEvent, o: o}
	return h
}

type handler struct {
	secrets []string
	onEvent func(Event)
	o       Options
	mu      sync.Mutex // serialises onEvent
}

func (h *handler) fail(w http.ResponseWriter, status int, msg string, err error) {
	if h.o.OnError != nil {
		h.o.OnError(err)
	}
	http.Error(w, msg, status)
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.fail(w, http.StatusMethodNotAllowed, "method not allowed", errors.New("webhook: "+r.Method+" request refused"))
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.o.MaxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			h.fail(w, http.StatusRequestEntityTooLarge, "body too large", errors.New("webhook: body over the size cap"))
			return
		}
		h.fail(w, http.StatusBadRequest, "cannot read body", err)
		return
	}
	secrets := h.secrets
	if h.o.Secrets != nil {
		secrets = h.o.Secrets()
	}
	if err := Verify(body, r.Header.Get(HeaderSignature), secrets...); err != nil {
		h.fail(w, http.StatusUnauthorized, "bad signature", err)
		return
	}
	ev, err := Parse(body, r.Header.Get(HeaderEvent))
	if err != nil {
		h.fail(w, http.StatusBadRequest, "bad event", err)
		return
	}
	ev.Delivery = strings.TrimSpace(r.Header.Get(HeaderDeliveryID))
	ev.Attempt, _ = strconv.Atoi(strings.TrimSpace(r.Header.Get(HeaderAttempt)))

	if dup := h.seen(ev); !dup && h.onEvent != nil {
		h.start(func() {
			h.mu.Lock()
			defer h.mu.Unlock()
			h.onEvent(*ev)
		})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	json.NewEncoder(w).Encode(map[string]bool{"received": true})
}

// start runs f on a goroutine of its own (Options.Go).
func (h *handler) start(f func()) {
	if h.o.Go != nil {
		h.o.Go(f)
		return
	}
	go f()
}

// seen checks both dedupe keys (and records them).
func (h *handler) seen(ev *Event) bool {
	dup := false
	check := func(key string) {
		s, err := h.o.Dedupe.Seen(key)
		if err != nil && h.o.OnError != nil {
			h.o.OnError(err)
		}
		if s {
			dup = true
		}
	}
	if ev.Delivery != "" {
		check("delivery:" + ev.Delivery)
	}
	if id := ev.ID(); id != "" {
		check("job:" + ev.Name + ":" + id + ":" + string(ev.Status()))
	}
	return dup
}

// MemoryDedupe is an in-memory Dedupe that forgets the oldest keys beyond
// its capacity.
type MemoryDedupe struct {
	mu    sync.Mutex
	cap   int
	keys  map[string]struct{}
	order []string
}

// NewMemoryDedupe keeps up to capacity keys.
func NewMemoryDedupe(capacity int) *MemoryDedupe {
	if capacity < 1 {
		capacity = 1
	}
	return &MemoryDedupe{cap: capacity, keys: map[string]struct{}{}}
}

// Seen implements Dedupe.
func (m *MemoryDedupe) Seen(key string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.keys[key]; ok {
		return true, nil
	}
	m.keys[key] = struct{}{}
	m.order = append(m.order, key)
	if len(m.order) > m.cap {
		delete(m.keys, m.order[0])
		m.order = m.order[1:]
	}
	return false, nil
}
