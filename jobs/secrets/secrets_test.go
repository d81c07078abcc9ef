package secrets

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

func TestRoundTripWithMockKeyring(t *testing.T) {
	keyring.MockInit()
	ctx := context.Background()
	if _, err := Get(ctx, APIKey); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get before Set: err = %v, want ErrNotFound", err)
	}
	if err := Set(ctx, APIKey, "sk_test_1"); err != nil {
		t.Fatal(err)
	}
	if v, err := Get(ctx, APIKey); err != nil || v != "sk_test_1" {
		t.Fatalf("Get = %q, %v", v, err)
	}
	if err := Delete(ctx, APIKey); err != nil {
		t.Fatal(err)
	}
	if err := Delete(ctx, APIKey); err != nil {
		t.Fatalf("second Delete: %v", err)
	}
	if !Available(ctx) {
		t.Fatal("mock keyring reported unavailable")
	}
}

func TestBrokenKeyringIsUnavailable(t *testing.T) {
	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided"))
	defer keyring.MockInit()
	_, err := Get(context.Background(), APIKey)
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if Available(context.Background()) {
		t.Fatal("broken keyring reported available")
	}
}

func TestHungKeyringTimesOut(t *testing.T) {
	old := Timeout
	Timeout = 50 * time.Millisecond
	defer func() { Timeout = old }()
	start := time.Now()
	err := run(context.Background(), func() error { time.Sleep(2 * time.Second); return nil })
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if time.Since(start) > time.Second {
		t.Fatal("run did not give up at the timeout")
	}
}
