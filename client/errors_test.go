package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestDecodeError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		status      int
		ctype, body string
		code, msg   string
		details     []FieldError
		problems    []string
	}{
		{"general shape", 400, "application/json",
			`{"error":{"code":"VALIDATION_ERROR","message":"the request is invalid","details":[{"field":"zip","message":"is required"},{"field":"state","message":"2 letters"}]}}`,
			"VALIDATION_ERROR", "the request is invalid", []FieldError{{"zip", "is required"}, {"state", "2 letters"}}, nil},
		{"general shape without details", 403, "", `{"error":{"code":"BANNED","message":"account banned"}}`, "BANNED", "account banned", nil, nil},
		{"mapping shape", 400, "", `{"error":"column mapping is invalid","details":["first_name is not mapped","unknown key \"frist_name\": did you mean \"first_name\"?"]}`,
			"", "column mapping is invalid", nil, []string{"first_name is not mapped", `unknown key "frist_name": did you mean "first_name"?`}},
		{"plain shape with code", 402, "", `{"error":"insufficient credits: need 50, have 10","code":"INSUFFICIENT_CREDITS"}`, "INSUFFICIENT_CREDITS", "insufficient credits: need 50, have 10", nil, nil},
		{"plain shape without code", 404, "", `{"error":"trace not found"}`, "", "trace not found", nil, nil},
		{"numeric code", 422, "", `{"error":"too many rows","code":4221}`, "4221", "too many rows", nil, nil},
		{"message member", 500, "", `{"message":"boom"}`, "", "boom", nil, nil},
		{"details mixing shapes", 400, "", `{"error":{"code":"X","message":"m","details":["s",{"field":"f","message":"g"},7,{}]}}`, "X", "m", []FieldError{{"f", "g"}}, []string{"s"}},
		{"error is a number", 400, "", `{"error":42}`, "", `{"error":42}`, nil, nil},
		{"JSON array", 500, "", `[1,2]`, "", "[1,2]", nil, nil},
		{"truncated JSON", 502, "application/json", `{"error":{"code":"X","mess`, "", `{"error":{"code":"X","mess`, nil, nil},
		{"HTML with title", 502, "text/html", "<!DOCTYPE html><html><head><title>502 Bad\n Gateway</title></head><body><h1>nginx</h1></body></html>",
			"", "the server answered with an HTML page: 502 Bad Gateway", nil, nil},
		{"HTML without title", 503, "", "<html><body><p>Service <b>down</b></p></body></html>", "", "the server answered with an HTML page: Service down", nil, nil},
		{"empty HTML", 503, "text/html", "<html></html>", "", "the server answered with an HTML page", nil, nil},
		{"empty body", 500, "", "", "", "Internal Server Error", nil, nil},
		{"spaces only", 429, "", " \r\n ", "", "Too Many Requests", nil, nil},
		{"unknown status, empty body", 599, "", "", "", "HTTP status 599", nil, nil},
		{"plain text", 504, "text/plain", "upstream timed out\n", "", "upstream timed out", nil, nil},
		{"control characters", 500, "", "bad\x00\x1b[31mthing\tnow", "", "badthing now", nil, nil},
		{"invalid UTF-8", 500, "", "caf\xe9 \xff", "", "caf\ufffd \ufffd", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := decodeError(tt.status, tt.ctype, []byte(tt.body), testKey)
			if e.StatusCode != tt.status || e.Code != tt.code || e.Message != tt.msg {
				t.Errorf("got status %d code %q message %q; want %d %q %q", e.StatusCode, e.Code, e.Message, tt.status, tt.code, tt.msg)
			}
			if len(e.Details) != len(tt.details) || len(e.Problems) != len(tt.problems) {
				t.Fatalf("details %v problems %v", e.Details, e.Problems)
			}
			for i := range tt.details {
				if e.Details[i] != tt.details[i] {
					t.Errorf("detail %d = %v", i, e.Details[i])
				}
			}
			for i := range tt.problems {
				if e.Problems[i] != tt.problems[i] {
					t.Errorf("problem %d = %q", i, e.Problems[i])
				}
			}
			if !utf8.ValidString(e.Error()) {
				t.Errorf("Error() not UTF-8: %q", e.Error())
			}
		})
	}
}

func TestAPIErrorText(t *testing.T) {
	t.Parallel()
	e := decodeError(400, "", []byte(`{"error":"mapping invalid","details":["a","b"]}`), "")
	e.Op = "POST /traces"
	if got := e.Error(); got != "POST /traces: 400 Bad Request: mapping invalid; a; b" {
		t.Errorf("Error() = %q", got)
	}
	e = decodeError(400, "", []byte(`{"error":{"code":"VALIDATION_ERROR","message":"bad","details":[{"field":"zip","message":"required"},{"message":"other"}]}}`), "")
	if got := e.Error(); got != "400 Bad Request (VALIDATION_ERROR): bad; zip: required; other" {
		t.Errorf("Error() = %q", got)
	}
	e = decodeError(503, "", nil, "")
	e.outcomeUnknown = true
	if !strings.Contains(e.Error(), "unknown whether it was charged") || !errors.Is(e, ErrOutcomeUnknown) {
		t.Errorf("Error() = %q", e.Error())
	}
}

func TestLongBodiesAreCapped(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", 10000)
	e := decodeError(500, "", []byte(long), "")
	if len(e.Message) > maxMessage+10 || !strings.HasSuffix(e.Message, "…") || !utf8.ValidString(e.Message) {
		t.Errorf("message of %d bytes", len(e.Message))
	}
	// A megabyte error body: read up to the cap, decoded as text.
	s := newScripted(t, reply(500, nil, `{"error":"`+strings.Repeat("x", 1<<20)+`"}`))
	_, err := s.client(t, WithRetryPolicy(RetryPolicy{MaxRetries: -1})).Account(context.Background())
	var ae *APIError
	if !errors.As(err, &ae) || len(ae.Message) > maxMessage+10 {
		t.Fatalf("err %v", err)
	}
}

// A server that echoes the Authorization header into its error body, in
// every shape, must not get the key into an error text.
func TestKeyNeverInErrors(t *testing.T) {
	t.Parallel()
	echo := func(shape string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			auth := r.Header.Get("Authorization")
			w.WriteHeader(401)
			switch shape {
			case "general":
				w.Write([]byte(`{"error":{"code":"` + auth + `","message":"bad key ` + auth + `","details":[{"field":"` + auth + `","message":"` + auth + `"}]}}`))
			case "mapping":
				w.Write([]byte(`{"error":"` + auth + `","details":["` + auth + `"]}`))
			case "plain":
				w.Write([]byte(`{"error":"invalid key: ` + auth + `","code":"` + auth + `"}`))
			case "html":
				w.Write([]byte(`<html><title>key ` + auth + `</title></html>`))
			case "text":
				w.Write([]byte(auth))
			case "split":
				// The key broken by control characters the cleaner removes.
				k := strings.TrimPrefix(auth, "Bearer ")
				w.Write([]byte(k[:6] + "\x00" + k[6:]))
			case "cut":
				// The key straddling the truncation point.
				w.Write([]byte(strings.Repeat("a", maxMessage-5) + auth))
			}
		}
	}
	for _, shape := range []string{"general", "mapping", "plain", "html", "text", "split", "cut"} {
		s := newScripted(t, echo(shape))
		_, err := s.client(t).Account(context.Background())
		if err == nil {
			t.Fatal("no error")
		}
		msg := err.Error()
		if strings.Contains(msg, testKey) || strings.Contains(msg, testKey[:8]) {
			t.Errorf("%s: key in error: %q", shape, msg)
		}
		if !errors.Is(err, ErrUnauthorized) {
			t.Errorf("%s: %v", shape, err)
		}
	}
}

func FuzzDecodeError(f *testing.F) {
	for _, s := range []string{
		`{"error":{"code":"VALIDATION_ERROR","message":"m","details":[{"field":"f","message":"x"}]}}`,
		`{"error":"summary","details":["a","b"]}`,
		`{"error":"plain","code":"C"}`,
		`<html><title>x</title></html>`,
		``, `{"error":`, `{"error":null,"details":null}`, `Bearer sk_live_SECRET0123456789`,
		`sk_live_sk_live_SECRET0123456789`, `{"error":"sk_live_SECR\u0000ET0123456789 and 0123456789"}`,
	} {
		f.Add(500, s)
	}
	f.Fuzz(func(t *testing.T, status int, body string) {
		e := decodeError(status, "", []byte(body), testKey)
		msg := e.Error()
		if e.Message == "" {
			t.Fatal("empty message")
		}
		if strings.Contains(msg, testKey) {
			t.Fatalf("key in %q", msg)
		}
		if !utf8.ValidString(msg) {
			t.Fatalf("invalid UTF-8 in %q", msg)
		}
		// Not even a part of the key: no run of minFragment bytes of it.
		for i := 0; i+minFragment <= len(msg); i++ {
			if strings.Contains(testKey, msg[i:i+minFragment]) {
				t.Fatalf("a part of the key (%q) in %q", msg[i:i+minFragment], msg)
			}
		}
	})
}

func TestMaskKeyFragments(t *testing.T) {
	t.Parallel()
	const key = "sk_live_SECRET0123456789"
	tests := []struct{ in, want string }{
		{"nothing here", "nothing here"},
		{"sk_live_" + key, "[redacted][redacted]"}, // the lone prefix, then the key
		{"prefix sk_live_ then text", "prefix [redacted] then text"},
		{"part SECRET0123 end", "part [redacted] end"},
		{"short sk_live end", "short sk_live end"}, // 7 bytes: not masked
		{"é" + "0123456789" + "é", "é[redacted]é"},
	}
	for _, tt := range tests {
		if got := maskKeyFragments(tt.in, key); got != tt.want {
			t.Errorf("maskKeyFragments(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := maskKeyFragments("abcdefghij", "short"); got != "abcdefghij" {
		t.Errorf("short key: %q", got)
	}
	// Through the decoder: a body echoing the key behind its own prefix.
	e := decodeError(500, "", []byte("sk_live_"+testKey), testKey)
	if strings.Contains(e.Error(), "sk_live_") {
		t.Errorf("Error() = %q", e.Error())
	}
}
