package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// scanner is one row to read: a *sql.Row or the current row of *sql.Rows.
type scanner interface{ Scan(...any) error }

// queryer runs a query: the database or a transaction.
type queryer interface {
	QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error)
}

// queryAll runs q on db and reads every row it returns with scan, in
// order. An error is returned as it is; the caller says what was read.
func queryAll[T any](ctx context.Context, db queryer, scan func(scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// listAll is queryAll for a list a method returns: an error names what
// was listed ("ledger: <what>: …").
func listAll[T any](ctx context.Context, db queryer, what string, scan func(scanner) (T, error), q string, args ...any) ([]T, error) {
	out, err := queryAll(ctx, db, scan, q, args...)
	if err != nil {
		return nil, fmt.Errorf("ledger: %s: %w", what, err)
	}
	return out, nil
}

// rowErr wraps err, met reading the one row that format and args name, as
// ErrNotFound where there is no such row.
func rowErr(err error, format string, args ...any) error {
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return fmt.Errorf("ledger: "+format+": %w", append(args, err)...)
}
