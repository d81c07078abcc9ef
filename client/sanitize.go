package client

import (
	"bytes"
	"encoding/json"
	"reflect"
	"time"
)

// Server text enters the program through the types of this package: every
// string they decode (names, statuses, error messages, members the spec
// does not name) passes through CleanText as it is decoded, and the Client
// also removes its API key from them before handing an answer over. Ids are
// left as they came (they are sent back exactly as returned), except that
// the key is removed from them too.

// idFields are the fields holding identifiers.
var idFields = map[string]bool{"ID": true, "EncodedID": true, "DeliveryID": true}

var (
	timeType  = reflect.TypeFor[time.Time]()
	extraType = reflect.TypeFor[Extra]()
)

// sanitize applies text to every string reachable from v (a pointer) and
// id to the identifier fields.
func sanitize(v any, text, id func(string) string) {
	sanitizeValue(reflect.ValueOf(v), text, id)
}

func sanitizeValue(v reflect.Value, text, id func(string) string) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			sanitizeValue(v.Elem(), text, id)
		}
	case reflect.Struct:
		sanitizeStruct(v, text, id)
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return // raw bytes (json.RawMessage)
		}
		for i := range v.Len() {
			sanitizeValue(v.Index(i), text, id)
		}
	case reflect.Map:
		sanitizeMap(v, text)
	case reflect.String:
		if v.CanSet() {
			v.SetString(text(v.String()))
		}
	}
}

// sanitizeStruct cleans a struct's exported fields; the id fields go
// through id (times are left as they are).
func sanitizeStruct(v reflect.Value, text, id func(string) string) {
	if v.Type() == timeType {
		return
	}
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		fv := v.Field(i)
		if idFields[f.Name] && fv.Kind() == reflect.String {
			if id != nil && fv.CanSet() {
				fv.SetString(id(fv.String()))
			}
			continue
		}
		sanitizeValue(fv, text, id)
	}
}

// sanitizeMap cleans an Extra, or the keys and values of a map of strings.
func sanitizeMap(v reflect.Value, text func(string) string) {
	if v.IsNil() {
		return
	}
	if v.Type() == extraType {
		if v.CanSet() {
			v.Set(reflect.ValueOf(sanitizeExtra(v.Interface().(Extra), text)))
		}
		return
	}
	if v.Type().Key().Kind() == reflect.String && v.Type().Elem().Kind() == reflect.String && v.CanSet() {
		m := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			k := reflect.ValueOf(text(it.Key().String())).Convert(v.Type().Key())
			m.SetMapIndex(k, reflect.ValueOf(text(it.Value().String())).Convert(v.Type().Elem()))
		}
		v.Set(m)
	}
}

// sanitizeExtra applies text to every string (and member name) inside the
// members the spec does not name.
func sanitizeExtra(e Extra, text func(string) string) Extra {
	if len(e) == 0 {
		return e
	}
	out := make(Extra, len(e))
	for k, raw := range e {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			continue // not JSON: nothing to keep
		}
		b, err := json.Marshal(sanitizeJSON(v, text))
		if err != nil {
			continue
		}
		out[text(k)] = b
	}
	return out
}

func sanitizeJSON(v any, text func(string) string) any {
	switch x := v.(type) {
	case string:
		return text(x)
	case []any:
		for i := range x {
			x[i] = sanitizeJSON(x[i], text)
		}
		return x
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[text(k)] = sanitizeJSON(e, text)
		}
		return m
	}
	return v
}
