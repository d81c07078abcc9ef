// Package secrets keeps the API key and the webhook secret in the OS keyring.
//
// Every call runs the keyring off the caller's goroutine and gives up after a
// timeout: on some desktops an unlock prompt or a dead Secret Service would
// otherwise hang the caller (and, from the UI thread, the whole window).
// Nothing here ever writes a secret to a file or a log.
package secrets

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/zalando/go-keyring"
)

// Service is the keyring service name the secrets are filed under.
const Service = "SkipDesk"

// Names of the secrets SkipDesk keeps.
const (
	APIKey        = "api-key"
	WebhookSecret = "webhook-secret"
)

// Timeout bounds each keyring call when the context has no earlier deadline.
var Timeout = 5 * time.Second

var (
	// ErrNotFound: the keyring works but holds no such secret.
	ErrNotFound = errors.New("secrets: not stored in the keyring")
	// ErrUnavailable: no usable keyring (headless Linux without a Secret
	// Service, a locked keyring that never answered, ...). The caller should
	// offer an environment variable or a session-only key.
	ErrUnavailable = errors.New("secrets: the system keyring is not available")
)

// Get reads a secret.
func Get(ctx context.Context, name string) (string, error) {
	var v string
	err := run(ctx, func() error {
		var err error
		v, err = keyring.Get(Service, name)
		return err
	})
	return v, err
}

// Set stores a secret, replacing any earlier value.
func Set(ctx context.Context, name, value string) error {
	return run(ctx, func() error { return keyring.Set(Service, name, value) })
}

// Delete removes a secret. Deleting one that is not there is not an error.
func Delete(ctx context.Context, name string) error {
	err := run(ctx, func() error { return keyring.Delete(Service, name) })
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// Available reports whether a keyring answers at all, by reading a name that
// is never stored.
func Available(ctx context.Context) bool {
	_, err := Get(ctx, "probe")
	return err == nil || errors.Is(err, ErrNotFound)
}

func run(ctx context.Context, f func() error) error {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		switch {
		case err == nil:
			return nil
		case errors.Is(err, keyring.ErrNotFound):
			return ErrNotFound
		default:
			// The underlying text may name the D-Bus service but never holds
			// the secret itself.
			return fmt.Errorf("%w (%v)", ErrUnavailable, err)
		}
	case <-ctx.Done():
		return fmt.Errorf("%w: no answer within %s", ErrUnavailable, Timeout)
	}
}
