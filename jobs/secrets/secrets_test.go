package secrets

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

func TestRoundTripWithMockKeyring(t *testing.T) {
	keyring.MockInit()
	ctx := context.Background()
	if _, err := OS().Get(ctx, APIKey); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get before Set: err = %v, want ErrNotFound", err)
	}
	if err := OS().Set(ctx, APIKey, "sk_test_1"); err != nil {
		t.Fatal(err)
	}
	if v, err := OS().Get(ctx, APIKey); err != nil || v != "sk_test_1" {
		t.Fatalf("Get = %q, %v", v, err)
	}
	if err := OS().Delete(ctx, APIKey); err != nil {
		t.Fatal(err)
	}
	if err := OS().Delete(ctx, APIKey); err != nil {
		t.Fatalf("second Delete: %v", err)
	}
	if !OS().Available(ctx) {
		t.Fatal("mock keyring reported unavailable")
	}
}

func TestBrokenKeyringIsUnavailable(t *testing.T) {
	keyring.MockInitWithError(errors.New("org.freedesktop.secrets was not provided"))
	defer keyring.MockInit()
	_, err := OS().Get(context.Background(), APIKey)
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if OS().Available(context.Background()) {
		t.Fatal("broken keyring reported available")
	}
}

func TestHungKeyringTimesOut(t *testing.T) {
	old := Timeout
	Timeout = 50 * time.Millisecond
	defer func() { Timeout = old }()
	start := time.Now()
	hung := make(chan struct{}) // the keyring answers only once the test is over
	defer close(hung)
	err := run(context.Background(), func() error { <-hung; return nil })
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrUnavailable", err)
	}
	if time.Since(start) > 20*time.Second {
		t.Fatal("run did not give up at the timeout")
	}
}

// Windows' Credential Manager holds 2,560 bytes per credential: a longer value
// is refused on every system, before the keyring is called, and the error
// gives the lengths but never the value.
func TestSetRefusesWhatCredentialManagerCannotHold(t *testing.T) {
	keyring.MockInit()
	ctx := context.Background()
	fits := strings.Repeat("k", MaxBytes)
	if err := OS().Set(ctx, APIKey, fits); err != nil {
		t.Fatalf("a %d-byte key: %v", len(fits), err)
	}

	keyring.MockInitWithError(errors.New("the keyring was called"))
	defer keyring.MockInit()
	long := "sk_live_" + strings.Repeat("x", MaxBytes)
	err := OS().Set(ctx, APIKey, long)
	if !errors.Is(err, ErrTooLong) || errors.Is(err, ErrUnavailable) {
		t.Fatalf("a %d-byte key: err = %v, want ErrTooLong without calling the keyring", len(long), err)
	}
	msg := err.Error()
	if strings.Contains(msg, "xxxxxxxx") || !strings.Contains(msg, "API key") || !strings.Contains(msg, "2560") {
		t.Fatalf("message: %q", msg)
	}
}

// The keyring's own "too big" (macOS counts its whole command line) is the
// same error, not "no keyring": the person is not offered a session-only key
// for a value that is wrong.
func TestKeyringTooBigIsTooLong(t *testing.T) {
	err := run(context.Background(), func() error { return keyring.ErrSetDataTooBig })
	if !errors.Is(err, ErrTooLong) || errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v, want ErrTooLong", err)
	}
}

func TestMemoryStoresAreTheirOwn(t *testing.T) {
	ctx := context.Background()
	a, b := Memory(), Memory()
	if _, err := a.Get(ctx, APIKey); !errors.Is(err, ErrNotFound) {
		t.Fatalf("an empty store: %v", err)
	}
	if err := a.Set(ctx, APIKey, "sk_test_a"); err != nil {
		t.Fatal(err)
	}
	if v, err := a.Get(ctx, APIKey); err != nil || v != "sk_test_a" {
		t.Fatalf("%q, %v", v, err)
	}
	if _, err := b.Get(ctx, APIKey); !errors.Is(err, ErrNotFound) {
		t.Fatalf("one store saw another's secret: %v", err)
	}
	if err := a.Set(ctx, DatabaseURL, strings.Repeat("x", MaxBytes+1)); !errors.Is(err, ErrTooLong) {
		t.Fatalf("too long: %v", err)
	}
	if err := a.Delete(ctx, APIKey); err != nil {
		t.Fatal(err)
	}
	if err := a.Delete(ctx, APIKey); err != nil {
		t.Fatalf("deleting what is not there: %v", err)
	}
	if !a.Available(ctx) {
		t.Fatal("a memory store is always available")
	}
}
