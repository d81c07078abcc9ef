package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// A list page is read item by item: one job the client cannot read (a
// created_at that is not a date, a number where a name should be) does not
// hide the others. It is reported in the page's Invalid, by its id when
// that could be read, so that a caller tracking it can ask for it alone
// (GET /traces/:id, GET /dnc/:id).

// ListItemError is one item of a list page that could not be read.
type ListItemError struct {
	Index  int    // its place in the page, from 0
	ID     string // its id, when that could be read; "" otherwise
	Reason string // what is wrong with it
}

func (e *ListItemError) Error() string {
	if e.ID != "" {
		return fmt.Sprintf("client: job %s (item %d of the list page) cannot be read: %s", e.ID, e.Index+1, e.Reason)
	}
	return fmt.Sprintf("client: item %d of the list page cannot be read: %s", e.Index+1, e.Reason)
}

// UnmarshalJSON reads the page item by item (see Invalid).
func (l *TraceList) UnmarshalJSON(b []byte) error {
	var raw struct {
		Metadata Metadata          `json:"_metadata"`
		Traces   []json.RawMessage `json:"traces"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*l = TraceList{Metadata: raw.Metadata}
	l.Traces, l.Invalid = decodeItems(raw.Traces, func(t *Trace) *string { return &t.ID })
	return nil
}

// UnmarshalJSON reads the page item by item (see Invalid).
func (l *DNCList) UnmarshalJSON(b []byte) error {
	var raw struct {
		Metadata Metadata          `json:"_metadata"`
		Jobs     []json.RawMessage `json:"jobs"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*l = DNCList{Metadata: raw.Metadata}
	l.Jobs, l.Invalid = decodeItems(raw.Jobs, func(j *DNCJob) *string { return &j.ID })
	return nil
}

// decodeItems reads a page's items one by one: the ones that can be read,
// in order, and an error for each other. id points into an item at its id.
func decodeItems[T any, P interface {
	*T
	json.Unmarshaler
}](raw []json.RawMessage, id func(*T) *string) ([]T, []*ListItemError) {
	items := make([]T, 0, len(raw))
	var invalid []*ListItemError
	for i, r := range raw {
		var v T
		if err := decodeItem(r, P(&v), id(&v)); err != nil {
			invalid = append(invalid, itemError(i, r, err))
			continue
		}
		items = append(items, v)
	}
	return items, invalid
}

// decodeItem decodes one list item into v, which must be an object with an
// id (which v's decoding puts in *id).
func decodeItem(raw json.RawMessage, v json.Unmarshaler, id *string) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return fmt.Errorf("not a JSON object")
	}
	// raw was checked as JSON with the page: straight to the decoder.
	if err := v.UnmarshalJSON(raw); err != nil {
		return err
	}
	if *id == "" {
		return fmt.Errorf("it has no id")
	}
	return nil
}

func itemError(i int, raw json.RawMessage, err error) *ListItemError {
	e := &ListItemError{Index: i, Reason: CleanText(err.Error())}
	var id struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(raw, &id) == nil && len(id.ID) > 0 {
		var s string
		if json.Unmarshal(id.ID, &s) == nil {
			e.ID = CleanText(s)
		} else if n, err := strconv.ParseFloat(string(id.ID), 64); err == nil {
			e.ID = strconv.FormatFloat(n, 'f', -1, 64)
		}
	}
	return e
}
