package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// The spec has three error body shapes; docs/sandbox.md says which is used
// where.

// plainError is {error, code}: auth, 402, 404, 405, 409, 413, 422, 429, 5xx.
type plainError struct {
	Error string `json:"error"`
	Code  string `json:"code,omitempty"`
}

// FieldError is one entry of the general shape's details.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// generalError is {error: {code, message, details}}: VALIDATION_ERROR.
type generalError struct {
	Error struct {
		Code    string       `json:"code"`
		Message string       `json:"message"`
		Details []FieldError `json:"details,omitempty"`
	} `json:"error"`
}

// mappingError is {error, details: [strings]}: the column_mapping checks of
// POST /traces.
type mappingError struct {
	Error   string   `json:"error"`
	Details []string `json:"details"`
}

// apiError is an error a handler returns to be written in one of the shapes.
type apiError struct {
	status  int
	code    string
	message string
	fields  []FieldError // general shape when non-nil or code == VALIDATION_ERROR
	mapping []string     // mapping shape when non-nil
}

func (e *apiError) Error() string { return e.message }

func plainErr(status int, code, msg string) *apiError {
	return &apiError{status: status, code: code, message: msg}
}

func validationErr(fields ...FieldError) *apiError {
	msg := "the request is invalid"
	if len(fields) == 1 {
		msg = fields[0].Field + ": " + fields[0].Message
	}
	return &apiError{status: http.StatusBadRequest, code: "VALIDATION_ERROR", message: msg, fields: fields}
}

func writeAPIError(w http.ResponseWriter, e *apiError) {
	switch {
	case e.mapping != nil:
		writeJSON(w, e.status, mappingError{Error: e.message, Details: e.mapping})
	case e.code == "VALIDATION_ERROR":
		var g generalError
		g.Error.Code = e.code
		g.Error.Message = e.message
		g.Error.Details = e.fields
		writeJSON(w, e.status, g)
	default:
		writePlain(w, e.status, e.message, e.code)
	}
}

func writePlain(w http.ResponseWriter, status int, msg, code string) {
	writeJSON(w, status, plainError{Error: msg, Code: code})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":"internal server error","code":"INTERNAL_ERROR"}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
