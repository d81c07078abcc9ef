package client

import (
	"context"
	"net/http"
	"testing"
	"time"
)

func TestServerClockOffsetFromDate(t *testing.T) {
	t.Parallel()
	ahead := 20 * time.Minute
	s := newScripted(t,
		reply(200, map[string]string{"Date": "garbage"}, `{"credits": 1}`),
		func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Date", time.Now().Add(ahead).UTC().Format(http.TimeFormat))
			reply(200, nil, `{"credits": 1}`)(w, r)
		})
	c := s.client(t)
	if _, ok := c.ServerClockOffset(); ok {
		t.Fatal("an offset is known before any answer")
	}
	if _, err := c.Account(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.ServerClockOffset(); ok {
		t.Fatal("an unreadable Date header gave an offset")
	}
	if _, err := c.Account(context.Background()); err != nil {
		t.Fatal(err)
	}
	off, ok := c.ServerClockOffset()
	if !ok || (off-ahead).Abs() > 1500*time.Millisecond {
		t.Fatalf("offset %v (known %v); the server is %v ahead", off, ok, ahead)
	}
}
