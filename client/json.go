package client

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// jsonRequest makes a request whose body is v encoded once as JSON.
func jsonRequest(method, path string, v any, charged bool) *request {
	data, err := json.Marshal(v)
	return &request{method: method, path: path, contentType: "application/json", charged: charged,
		body: func() (io.ReadCloser, int64, error) {
			if err != nil {
				return nil, 0, err
			}
			return io.NopCloser(bytes.NewReader(data)), int64(len(data)), nil
		}}
}

var knownCache sync.Map // reflect.Type → map[string]bool

// knownFields lists the lower-cased JSON names of a struct's fields.
func knownFields(t reflect.Type) map[string]bool {
	if v, ok := knownCache.Load(t); ok {
		return v.(map[string]bool)
	}
	m := map[string]bool{}
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[strings.ToLower(name)] = true
	}
	knownCache.Store(t, m)
	return m
}

// decodeWithExtra decodes data into v (a pointer to a method-less copy of
// the type) and keeps the members the type does not name in *extra.
func decodeWithExtra[T any](data []byte, v *T, extra *Extra) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	sanitize(v, CleanText, nil)
	known := knownFields(reflect.TypeFor[T]())
	var ex Extra
	for k, raw := range all {
		if known[strings.ToLower(k)] {
			continue
		}
		if ex == nil {
			ex = Extra{}
		}
		ex[k] = raw
	}
	*extra = sanitizeExtra(ex, CleanText)
	return nil
}

// encodeWithExtra encodes v and appends the members of extra (sorted).
func encodeWithExtra(v any, extra Extra) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil || len(extra) == 0 {
		return data, err
	}
	data = bytes.TrimRight(data, " \n")
	if len(data) < 2 || data[len(data)-1] != '}' {
		return data, nil
	}
	var b bytes.Buffer
	b.Write(data[:len(data)-1])
	first := len(data) == 2
	keys := slices.Sorted(maps.Keys(extra))
	for _, k := range keys {
		raw := extra[k]
		if !json.Valid(raw) {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		kj, _ := json.Marshal(k)
		b.Write(kj)
		b.WriteByte(':')
		b.Write(raw)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Get decodes the unknown member name into v; it reports whether it existed.
func (e Extra) Get(name string, v any) bool {
	raw, ok := e[name]
	return ok && json.Unmarshal(raw, v) == nil
}

func (a *Account) UnmarshalJSON(b []byte) error {
	type plain Account
	return decodeWithExtra(b, (*plain)(a), &a.Extra)
}
func (a Account) MarshalJSON() ([]byte, error) {
	type plain Account
	return encodeWithExtra(plain(a), a.Extra)
}

func (s *Subscription) UnmarshalJSON(b []byte) error {
	type plain Subscription
	return decodeWithExtra(b, (*plain)(s), &s.Extra)
}
func (s Subscription) MarshalJSON() ([]byte, error) {
	type plain Subscription
	return encodeWithExtra(plain(s), s.Extra)
}

func (m *Metered) UnmarshalJSON(b []byte) error {
	type plain Metered
	return decodeWithExtra(b, (*plain)(m), &m.Extra)
}
func (m Metered) MarshalJSON() ([]byte, error) {
	type plain Metered
	return encodeWithExtra(plain(m), m.Extra)
}

func (r *Rates) UnmarshalJSON(b []byte) error {
	type plain Rates
	return decodeWithExtra(b, (*plain)(r), &r.Extra)
}
func (r Rates) MarshalJSON() ([]byte, error) {
	type plain Rates
	return encodeWithExtra(plain(r), r.Extra)
}

func (t *Trace) UnmarshalJSON(b []byte) error {
	type plain Trace
	return decodeWithExtra(b, (*plain)(t), &t.Extra)
}
func (t Trace) MarshalJSON() ([]byte, error) {
	type plain Trace
	return encodeWithExtra(plain(t), t.Extra)
}

func (t *TraceCreated) UnmarshalJSON(b []byte) error {
	type plain TraceCreated
	return decodeWithExtra(b, (*plain)(t), &t.Extra)
}
func (t TraceCreated) MarshalJSON() ([]byte, error) {
	type plain TraceCreated
	return encodeWithExtra(plain(t), t.Extra)
}

func (j *DNCJob) UnmarshalJSON(b []byte) error {
	type plain DNCJob
	return decodeWithExtra(b, (*plain)(j), &j.Extra)
}
func (j DNCJob) MarshalJSON() ([]byte, error) {
	type plain DNCJob
	return encodeWithExtra(plain(j), j.Extra)
}

func (d *DNCCreated) UnmarshalJSON(b []byte) error {
	type plain DNCCreated
	return decodeWithExtra(b, (*plain)(d), &d.Extra)
}
func (d DNCCreated) MarshalJSON() ([]byte, error) {
	type plain DNCCreated
	return encodeWithExtra(plain(d), d.Extra)
}

func (r *SingleTraceResult) UnmarshalJSON(b []byte) error {
	type plain SingleTraceResult
	return decodeWithExtra(b, (*plain)(r), &r.Extra)
}
func (r SingleTraceResult) MarshalJSON() ([]byte, error) {
	type plain SingleTraceResult
	return encodeWithExtra(plain(r), r.Extra)
}

func (d *WebhookDelivery) UnmarshalJSON(b []byte) error {
	type plain WebhookDelivery
	return decodeWithExtra(b, (*plain)(d), &d.Extra)
}
func (d WebhookDelivery) MarshalJSON() ([]byte, error) {
	type plain WebhookDelivery
	return encodeWithExtra(plain(d), d.Extra)
}
