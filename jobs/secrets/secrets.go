// Package secrets keeps the API key, the webhook secret and the team
// database's connection string in the OS keyring.
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
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// Service is the keyring service name the secrets are filed under.
const Service = "SkipDesk"

// Names of the secrets SkipDesk keeps.
const (
	APIKey        = "api-key"
	WebhookSecret = "webhook-secret"
	// DatabaseURL is the team database's connection string (it holds a
	// password).
	DatabaseURL = "database-url"
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
	// ErrTooLong: the value is longer than every keyring can hold.
	ErrTooLong = errors.New("secrets: too long for the system keyring")
)

// MaxBytes is the longest secret that is stored: Windows' Credential Manager
// holds at most 2,560 bytes per credential (CRED_MAX_CREDENTIAL_BLOB_SIZE,
// 5*512), the smallest limit of the three keyrings. Set refuses a longer
// value on every system, before the keyring is called, so that a value that
// works on one computer works on all of them.
const MaxBytes = 2560

// Backend is where a Store keeps its secrets: the OS keyring's three calls
// (go-keyring's), or a test's own.
type Backend interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

// osKeyring is the OS keyring through go-keyring.
type osKeyring struct{}

func (osKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }
func (osKeyring) Set(service, user, pw string) error       { return keyring.Set(service, user, pw) }
func (osKeyring) Delete(service, user string) error        { return keyring.Delete(service, user) }

// A Store reads and writes SkipDesk's secrets through a Backend, off the
// caller's goroutine and within Timeout. The zero Store, and OS(), use the
// OS keyring.
type Store struct {
	b Backend
}

// OS is the store in the OS keyring.
func OS() *Store { return &Store{b: osKeyring{}} }

// NewStore is a store over b (tests: Memory, or a backend that fails).
func NewStore(b Backend) *Store { return &Store{b: b} }

// Memory is a store in this process's memory alone, empty at first: each
// test its own keyring.
func Memory() *Store { return &Store{b: &memory{m: map[string]string{}}} }

type memory struct {
	mu sync.Mutex
	m  map[string]string
}

func (k *memory) Get(service, user string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.m[service+"\x00"+user]
	if !ok {
		return "", keyring.ErrNotFound
	}
	return v, nil
}

func (k *memory) Set(service, user, pw string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.m[service+"\x00"+user] = pw
	return nil
}

func (k *memory) Delete(service, user string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.m[service+"\x00"+user]; !ok {
		return keyring.ErrNotFound
	}
	delete(k.m, service+"\x00"+user)
	return nil
}

func (s *Store) backend() Backend {
	if s == nil || s.b == nil {
		return osKeyring{}
	}
	return s.b
}

// Get reads a secret.
func (s *Store) Get(ctx context.Context, name string) (string, error) {
	var v string
	err := run(ctx, func() error {
		var err error
		v, err = s.backend().Get(Service, name)
		return err
	})
	return v, err
}

// Set stores a secret, replacing any earlier value. A value longer than
// MaxBytes is refused with ErrTooLong and the keyring is not called.
func (s *Store) Set(ctx context.Context, name, value string) error {
	if err := CheckLength(name, value); err != nil {
		return err
	}
	return run(ctx, func() error { return s.backend().Set(Service, name, value) })
}

// Delete removes a secret. Deleting one that is not there is not an error.
func (s *Store) Delete(ctx context.Context, name string) error {
	err := run(ctx, func() error { return s.backend().Delete(Service, name) })
	if errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// Available reports whether the store answers at all, by reading a name
// that is never stored.
func (s *Store) Available(ctx context.Context) bool {
	_, err := s.Get(ctx, "probe")
	return err == nil || errors.Is(err, ErrNotFound)
}

// CheckLength is Set's length rule on its own: nil when value fits in every
// keyring, else an error that matches ErrTooLong and gives both lengths
// (never the value).
func CheckLength(name, value string) error {
	if len(value) > MaxBytes {
		return fmt.Errorf("%w: the %s is %d bytes and the keyring holds at most %d (Windows Credential Manager's limit); check that it was copied whole and nothing else with it",
			ErrTooLong, words(name), len(value), MaxBytes)
	}
	return nil
}

// words names a secret in an error message.
func words(name string) string {
	switch name {
	case APIKey:
		return "API key"
	case WebhookSecret:
		return "webhook secret"
	case DatabaseURL:
		return "team database's connection string"
	}
	return "secret " + name
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
		case errors.Is(err, keyring.ErrSetDataTooBig):
			// The keyring works; the value does not fit (macOS counts the
			// whole command line it sends to the keychain).
			return fmt.Errorf("%w (%v)", ErrTooLong, err)
		default:
			// The underlying text may name the D-Bus service but never holds
			// the secret itself.
			return fmt.Errorf("%w (%v)", ErrUnavailable, err)
		}
	case <-ctx.Done():
		return fmt.Errorf("%w: no answer within %s", ErrUnavailable, Timeout)
	}
}
