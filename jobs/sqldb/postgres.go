package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// ErrUnreachable is matched (errors.Is) by the error of any call made while
// the team's database server cannot be reached: not running, no network,
// the connection dropped, no answer in time. Nothing that call meant to
// record was recorded.
var ErrUnreachable = errors.New("the team database cannot be reached")

// ErrRefused is matched by the error of a connection the server refused:
// a wrong user name or password, an unknown database, no permission.
var ErrRefused = errors.New("the team database refused the connection")

// ErrBadConnString is matched by the error of a connection string that
// cannot be read.
var ErrBadConnString = errors.New("the team database's connection string cannot be read")

// ConnectTimeout bounds a connection attempt to the team's database.
var ConnectTimeout = 10 * time.Second

// PostgresOptions tune OpenPostgres.
type PostgresOptions struct {
	// MaxConns bounds the connections kept open (default 4).
	MaxConns int
	// AppName is sent as application_name (the computer's name: a server
	// administrator sees who is connected).
	AppName string
}

// OpenPostgres connects to the PostgreSQL database of connString (a URL,
// postgres://user:password@host:5432/name, or key=value words). The
// string is never put in an error: errors name the server and the
// database only.
func OpenPostgres(ctx context.Context, connString string, o PostgresOptions) (*DB, error) {
	connString = strings.TrimSpace(connString)
	red := func(s string) string { return Redact(s, connString) }
	if connString == "" {
		return nil, fmt.Errorf("%w: it is empty", ErrBadConnString)
	}
	cfg, err := pgx.ParseConfig(connString)
	if err != nil {
		return nil, &BadConnStringError{Why: red(parseReason(err))}
	}
	if cfg.ConnectTimeout == 0 || cfg.ConnectTimeout > ConnectTimeout {
		cfg.ConnectTimeout = ConnectTimeout
	}
	if o.AppName != "" {
		cfg.RuntimeParams["application_name"] = o.AppName
	}
	desc := describe(cfg)
	raw := stdlib.OpenDB(*cfg)
	raw.SetMaxOpenConns(max(o.MaxConns, 4))
	raw.SetMaxIdleConns(max(o.MaxConns, 4))
	raw.SetConnMaxIdleTime(5 * time.Minute)
	d := &DB{raw: raw, engine: Postgres, redact: red, desc: desc}
	if err := d.SyncClock(ctx); err != nil {
		raw.Close()
		return nil, err
	}
	return d, nil
}

// describe names a database by its server and name.
func describe(cfg *pgx.ConnConfig) string {
	host := cfg.Host
	if strings.HasPrefix(host, "/") {
		host = "the local server"
	} else if cfg.Port != 0 && cfg.Port != 5432 {
		host = net.JoinHostPort(host, fmt.Sprint(cfg.Port))
	}
	return fmt.Sprintf("the team database %q on %s", cfg.Database, host)
}

// parseReason is why pgx could not read a connection string, without the
// string (pgx quotes it, with the password masked; SkipDesk says nothing of
// it).
func parseReason(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 {
		s = s[i+2:]
	}
	return s
}

// BadConnStringError says why a connection string cannot be used.
type BadConnStringError struct{ Why string }

func (e *BadConnStringError) Error() string {
	return fmt.Sprintf("%v (%s): it looks like postgres://user:password@server:5432/database", ErrBadConnString, e.Why)
}

// Is makes errors.Is(err, ErrBadConnString) true.
func (e *BadConnStringError) Is(target error) bool { return target == ErrBadConnString }

// AwayError is an error of the team's database: unreachable or refused.
type AwayError struct {
	Desc   string // the database, by server and name
	Reason string // what happened, redacted
	kind   error  // ErrUnreachable or ErrRefused
}

func (e *AwayError) Error() string {
	if e.kind == ErrRefused {
		return fmt.Sprintf("%s refused the connection (%s): check the user name, the password and the database name", e.Desc, e.Reason)
	}
	return fmt.Sprintf("%s cannot be reached (%s); nothing was recorded", e.Desc, e.Reason)
}

// Is makes errors.Is(err, ErrUnreachable) (or ErrRefused) true.
func (e *AwayError) Is(target error) bool { return target == e.kind }

// RedactedError is an error whose text had a password taken out; it keeps
// errors.Is working for the conflicts the stores look for, and says when
// the server asks for the transaction to be tried again (retry.go).
type RedactedError struct {
	msg      string
	conflict bool
	retry    retryReason
}

func (e *RedactedError) Error() string { return e.msg }

// Is makes errors.Is(err, ErrConflict) true for a broken unique constraint.
func (e *RedactedError) Is(target error) bool { return e.conflict && target == ErrConflict }

// classify turns a pgx error into an *AwayError (the server cannot be
// reached, or refused us) or a *RedactedError.
func classify(err error, desc string, red func(string) string) error {
	if err == nil || errors.Is(err, sql.ErrNoRows) || errors.Is(err, context.Canceled) {
		return err
	}
	if red == nil {
		red = func(s string) string { return s }
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "23505":
			return &RedactedError{msg: red(err.Error()), conflict: true}
		case pe.Code == "40P01":
			return &RedactedError{msg: red(err.Error()), retry: whyDeadlock}
		case pe.Code == "40001":
			return &RedactedError{msg: red(err.Error()), retry: whySerialize}
		case strings.HasPrefix(pe.Code, "28"), pe.Code == "3D000", pe.Code == "42501" && strings.Contains(pe.Message, "database"):
			return &AwayError{Desc: desc, Reason: red(pe.Message), kind: ErrRefused}
		case strings.HasPrefix(pe.Code, "08"), pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03":
			return &AwayError{Desc: desc, Reason: red(pe.Message), kind: ErrUnreachable}
		}
		return &RedactedError{msg: red(err.Error())}
	}
	if unreachable(err) {
		return &AwayError{Desc: desc, Reason: red(shortReason(err)), kind: ErrUnreachable}
	}
	return &RedactedError{msg: red(err.Error())}
}

// unreachable reports whether err means the server did not answer.
func unreachable(err error) bool {
	var ce *pgconn.ConnectError
	var ne net.Error
	var oe *net.OpError
	switch {
	case errors.As(err, &ce), errors.As(err, &oe), errors.As(err, &ne):
		return true
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		errors.Is(err, sql.ErrConnDone), errors.Is(err, net.ErrClosed), pgconn.Timeout(err):
		return true
	}
	s := err.Error()
	return strings.Contains(s, "conn closed") || strings.Contains(s, "connection refused") ||
		strings.Contains(s, "broken pipe") || strings.Contains(s, "unexpected EOF")
}

// shortReason is the last part of a network error's text ("connection
// refused", "i/o timeout").
func shortReason(err error) string {
	s := err.Error()
	if i := strings.LastIndex(s, ": "); i >= 0 && i+2 < len(s) {
		return s[i+2:]
	}
	return s
}

// Redact takes connString's password, and connString itself, out of text.
func Redact(text, connString string) string {
	connString = strings.TrimSpace(connString)
	if connString == "" || text == "" {
		return text
	}
	if strings.Contains(text, connString) {
		text = strings.ReplaceAll(text, connString, RedactConnString(connString))
	}
	if pw := password(connString); pw != "" {
		text = strings.ReplaceAll(text, pw, "xxxxx")
		if esc := url.QueryEscape(pw); esc != pw {
			text = strings.ReplaceAll(text, esc, "xxxxx")
		}
		if esc := url.PathEscape(pw); esc != pw {
			text = strings.ReplaceAll(text, esc, "xxxxx")
		}
	}
	return text
}

// RedactConnString is connString with its password replaced by xxxxx: what
// may be shown of it.
func RedactConnString(connString string) string {
	connString = strings.TrimSpace(connString)
	if u, err := url.Parse(connString); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		q := u.Query()
		if q.Has("password") {
			q.Set("password", "xxxxx")
			u.RawQuery = q.Encode()
		}
		return u.Redacted()
	}
	pw := password(connString)
	if pw == "" {
		return connString
	}
	return strings.ReplaceAll(connString, pw, "xxxxx")
}

// password is connString's password ("" when it has none).
func password(connString string) string {
	if cfg, err := pgconn.ParseConfig(connString); err == nil && cfg.Password != "" {
		return cfg.Password
	}
	if u, err := url.Parse(connString); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok {
			return pw
		}
	}
	// key=value words: password=secret or password='se cret'.
	i := strings.Index(connString, "password")
	for i >= 0 {
		rest := strings.TrimLeft(connString[i+len("password"):], " ")
		if v, ok := strings.CutPrefix(rest, "="); ok {
			v = strings.TrimLeft(v, " ")
			if strings.HasPrefix(v, "'") {
				if j := strings.Index(v[1:], "'"); j >= 0 {
					return v[1 : j+1]
				}
				return v[1:]
			}
			if j := strings.IndexByte(v, ' '); j >= 0 {
				return v[:j]
			}
			return v
		}
		j := strings.Index(connString[i+1:], "password")
		if j < 0 {
			break
		}
		i += j + 1
	}
	return ""
}
