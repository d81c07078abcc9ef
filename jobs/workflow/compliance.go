package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/assets"
	"github.com/skipdesk/skipdesk/jobs/export"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// The company's own do-not-call list, and what proves a callable list was
// made by the rules: the three lists (the registries, the litigator list,
// the company's own) and the age of every scrub. The list lives in the
// ledger; it applies to every view of a result and every callable export.

// InternalEntry is a number on the internal do-not-call list.
type InternalEntry = ledger.InternalEntry

// InternalChange is an addition to or a removal from the list.
type InternalChange = ledger.InternalChange

// InternalAdded says what an addition to the list did.
type InternalAdded struct {
	Added   int      // numbers put on the list
	Already int      // numbers that were on it already
	Invalid []string // what was given that is not a valid number, as given
}

// ErrNotOnList: the number to remove is not on the internal list.
var ErrNotOnList = ledger.ErrNotOnList

// StaleError: a callable export would call numbers on a scrub more than 31
// days old (see export.StaleError); nothing was written.
type StaleError = export.StaleError

// QuestionError: a callable export would rest on columns SkipDesk is not
// sure how to read (see layout.QuestionError); nothing was written.
type QuestionError = layout.QuestionError

// NothingCallableError: a callable export would hold no phone (see
// export.NothingCallableError); nothing was written.
type NothingCallableError = export.NothingCallableError

// internalLedger is the ledger that holds the list: the session's, or the
// data folder's when no session is open (the command line's list commands
// need no key). done closes what was opened here.
func (s *Service) internalLedger(write bool) (led *ledger.Ledger, done func(), err error) {
	dir := s.cfg.Home
	if sess, err := s.current(); err == nil {
		led, err := s.openLedger(sess)
		if err == nil {
			return led, func() {}, nil
		}
		if write || !errors.Is(err, ledger.ErrLocked) {
			return nil, nil, err
		}
		// The desktop app holds the ledger: the list is read beside it.
		dir = sess.ledDir
	}
	b, err := s.openBooks(context.Background(), dir, false, !write)
	if errors.Is(err, ledger.ErrNoLedger) {
		return nil, func() {}, nil // no ledger yet: an empty list
	}
	if err != nil {
		return nil, nil, err
	}
	return b.led, func() { b.close() }, nil
}

// computer names this computer in what it records.
func computer() string {
	h, _ := os.Hostname()
	return h
}

// InternalList is the internal do-not-call list, the most recently added
// first.
func (s *Service) InternalList(ctx context.Context) ([]InternalEntry, error) {
	led, done, err := s.internalLedger(false)
	if err != nil || led == nil {
		return nil, err
	}
	defer done()
	return led.InternalList(ctx)
}

// InternalLog is the list's history (of one number, or all with "").
func (s *Service) InternalLog(ctx context.Context, number string) ([]InternalChange, error) {
	led, done, err := s.internalLedger(false)
	if err != nil || led == nil {
		return nil, err
	}
	defer done()
	if number != "" {
		n := phone.Normalize(number)
		if !n.Valid {
			return nil, fmt.Errorf("%q is not a valid phone number: %s", number, n.Reason)
		}
		number = n.Digits
	}
	return led.InternalLog(ctx, number)
}

// AddInternal puts numbers on the internal list with a reason and where
// they come from ("by hand", "pasted", "result x.csv, row 12"). Each number
// may be written in any format; what is not a valid number is returned,
// and nothing is added when nothing is valid.
func (s *Service) AddInternal(ctx context.Context, numbers []string, reason, source string) (InternalAdded, error) {
	var res InternalAdded
	seen := map[string]bool{}
	var entries []ledger.InternalEntry
	by := s.Computer()
	for _, raw := range numbers {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		n := phone.Normalize(raw)
		if !n.Valid {
			res.Invalid = append(res.Invalid, strings.TrimSpace(raw))
			continue
		}
		if !seen[n.Digits] {
			seen[n.Digits] = true
			entries = append(entries, ledger.InternalEntry{Number: n.Digits, Reason: reason, Source: source, By: by})
		}
	}
	if len(entries) == 0 {
		return res, nil
	}
	led, done, err := s.internalLedger(true)
	if err != nil {
		return res, err
	}
	defer done()
	added, err := led.AddInternal(ctx, entries)
	if err != nil {
		return res, err
	}
	res.Added, res.Already = added, len(entries)-added
	return res, nil
}

// SplitNumbers splits pasted text into the numbers it holds: one per line,
// or separated by commas, semicolons or tabs.
func SplitNumbers(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' || r == ',' || r == ';' || r == '\t' })
}

// ImportInternal adds the phone numbers of a file (CSV in any encoding, or
// XLSX) to the internal list: the columns the layout reads as phones, else
// every column whose values are mostly phone numbers. The file's name is
// each number's source.
func (s *Service) ImportInternal(ctx context.Context, path, reason string) (InternalAdded, error) {
	r, err := input.Open(path, input.Options{SampleRows: -1})
	if err != nil {
		return InternalAdded{}, err
	}
	defer r.Close()
	headers := r.Headers()
	var rows [][]string
	for n := 0; ; n++ {
		if n%8192 == 0 && ctx.Err() != nil {
			return InternalAdded{}, ctx.Err()
		}
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return InternalAdded{}, fmt.Errorf("%s: %w", filepath.Base(path), err)
		}
		rows = append(rows, append([]string(nil), rec...))
	}
	cols := phoneColumns(headers, rows)
	if len(cols) == 0 {
		return InternalAdded{}, fmt.Errorf("%s: no column of phone numbers found", filepath.Base(path))
	}
	var numbers []string
	for _, c := range cols {
		// A file without a header: its first line is a number too.
		if c < len(headers) && phone.Normalize(headers[c]).Valid {
			numbers = append(numbers, headers[c])
		}
		for _, rec := range rows {
			if c < len(rec) {
				numbers = append(numbers, rec[c])
			}
		}
	}
	return s.AddInternal(ctx, numbers, reason, "file "+filepath.Base(path))
}

// phoneColumns are the columns holding phone numbers: the layout's phone
// columns, else those whose non-blank values are mostly valid numbers.
func phoneColumns(headers []string, rows [][]string) []int {
	sample := rows[:min(len(rows), library.LayoutSample)]
	if l := layout.Detect(headers, sample, layout.Options{}); len(l.Slots) > 0 {
		var cols []int
		for _, sl := range l.Slots {
			cols = append(cols, sl.Number)
		}
		return cols
	}
	var cols []int
	for c := range headers {
		valid, filled := 0, 0
		if phone.Normalize(headers[c]).Valid {
			valid, filled = 1, 1
		}
		for _, rec := range sample {
			if c < len(rec) && strings.TrimSpace(rec[c]) != "" {
				filled++
				if phone.Normalize(rec[c]).Valid {
					valid++
				}
			}
		}
		if filled > 0 && valid*2 >= filled {
			cols = append(cols, c)
		}
	}
	return cols
}

// ExportInternal writes the list to dest as CSV: the number, formatted and
// as digits, when and why it was added, from where and by which computer.
func (s *Service) ExportInternal(ctx context.Context, dest string) (int, error) {
	list, err := s.InternalList(ctx)
	if err != nil {
		return 0, err
	}
	b := input.AppendRecord(nil, []string{"Phone", "Number", "Added", "Reason", "Source", "Added by"})
	for _, e := range list {
		b = input.AppendRecord(b, []string{phone.Format(e.Number), e.Number, e.AddedAt.Local().Format("2006-01-02 15:04"),
			e.Reason, e.Source, e.By})
	}
	if err := library.WriteFileAtomic(dest, b); err != nil {
		return 0, err
	}
	return len(list), nil
}

// RemoveInternal takes a number off the list; the reason is kept in its
// history.
func (s *Service) RemoveInternal(ctx context.Context, number, reason string) error {
	n := phone.Normalize(number)
	if !n.Valid {
		return fmt.Errorf("%q is not a valid phone number: %s", number, n.Reason)
	}
	if strings.TrimSpace(reason) == "" {
		return errors.New("say why the number comes off the internal do-not-call list: the reason is kept")
	}
	led, done, err := s.internalLedger(true)
	if err != nil {
		return err
	}
	defer done()
	return led.RemoveInternal(ctx, n.Digits, reason, s.Computer())
}

// internalKeys are the list's numbers as phone keys (empty, never nil:
// the list always applies).
func (s *Service) internalKeys(ctx context.Context) (phone.KeySet, error) {
	list, err := s.InternalList(ctx)
	if err != nil {
		return phone.KeySet{}, fmt.Errorf("the internal do-not-call list cannot be read: %w", err)
	}
	keys := make([]uint64, 0, len(list))
	for _, e := range list {
		keys = append(keys, phone.Key(e.Number))
	}
	return phone.NewKeySet(keys), nil
}

// ownDate is when a result's own flags were scrubbed, for its rows that do
// not say so themselves: its job's completion, or the date the person gave
// when importing it (library.Meta.ScrubbedAt); zero when not known. Never
// the file's date: a copied file looks fresh.
func ownDate(path string) time.Time {
	if m, err := library.ReadRecord(library.RecordPath(path)); err == nil {
		return m.ScrubbedAt()
	}
	return time.Time{}
}

// checks applies the internal list and the scrubs' dates to a result's
// flag index (one with no DNC result does only that).
func (s *Service) checks(ctx context.Context, join *layout.FlagIndex, path string) error {
	keys, err := s.internalKeys(ctx)
	if err != nil {
		return err
	}
	join.SetInternal(keys)
	join.SetDates(ownDate(path), time.Now())
	return nil
}

// proof starts the proof of a callable export: who exported, where to,
// with which version.
func (s *Service) proof(ctx context.Context) *export.Proof {
	p := &export.Proof{AppVersion: assets.VersionString(), Account: "not known (offline)"}
	sess, err := s.current()
	if err != nil {
		p.Provider = "no session"
		return p
	}
	p.Provider = sess.info.BaseURL
	if sess.info.Sandbox {
		p.Provider += " (the sandbox: made-up data)"
	}
	sess.mu.Lock()
	email := sess.email
	sess.mu.Unlock()
	if email == "" {
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		if a, err := s.Account(actx); err == nil {
			email = a.Email
		}
	}
	if email != "" {
		p.Account = email
	}
	return p
}

// StalePhones writes the numbers a stale scrub answered for (from a
// StaleError) as a phone list in the data folder, to scrub them again in
// one DNC job of just those; it returns the list's path.
func (s *Service) StalePhones(e *StaleError) (string, error) {
	dir := filepath.Join(s.cfg.Home, "rescrub")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	b := input.AppendRecord(nil, []string{"phone"})
	for _, n := range e.Numbers {
		b = input.AppendRecord(b, []string{n})
	}
	path := filepath.Join(dir, fmt.Sprintf("stale phones %s.csv", time.Now().Format("2006-01-02 150405")))
	if err := library.WriteFileAtomic(path, b); err != nil {
		return "", err
	}
	return path, nil
}

// OnInternalList reports which of the numbers (any format) are on the
// internal do-not-call list, by their 10 digits.
func (s *Service) OnInternalList(ctx context.Context, numbers []string) (map[string]bool, error) {
	keys, err := s.internalKeys(ctx)
	if err != nil {
		return nil, err
	}
	on := map[string]bool{}
	for _, n := range numbers {
		if k := phone.Key(n); k != 0 {
			if keys.Has(k) {
				on[phone.KeyDigits(k)] = true
			}
		}
	}
	return on, nil
}

// earlierAnswers gives join each number's answer in the library's scrub
// made before this DNC result (by the library index), so that the result
// shows which numbers are on a list now and were not then. A result
// outside the library, or an index not readable, shows no change: the
// result itself is read as ever.
func (s *Service) earlierAnswers(ctx context.Context, r *library.Result, l *layout.Layout, join *layout.FlagIndex) {
	path := r.Path()
	dir := filepath.Clean(filepath.Dir(path))
	if dir != filepath.Clean(s.cfg.ResultsDir()) && dir != filepath.Join(s.cfg.Home, "sandbox", "results") {
		return
	}
	own := ownDate(path)
	if own.IsZero() {
		return
	}
	x, err := s.openIndex(ctx, dir)
	if err != nil {
		return
	}
	keys := make([]uint64, 0, r.Len())
	rd := l.NewReader(nil)
	var row layout.Row
	const chunk = 4096
	idx := make([]int, 0, chunk)
	for a := 0; a < r.Len(); a += chunk {
		if ctx.Err() != nil {
			return
		}
		idx = idx[:0]
		for i := a; i < min(a+chunk, r.Len()); i++ {
			idx = append(idx, i)
		}
		recs, err := r.ReadRows(idx)
		if err != nil {
			return
		}
		for _, rec := range recs {
			rd.ReadPhones(rec, &row)
			for _, p := range row.Phones {
				if p.Key != 0 {
					keys = append(keys, p.Key)
				}
			}
		}
	}
	before, err := x.ScrubbedBefore(ctx, keys, own)
	if err != nil {
		return
	}
	for k, sc := range before {
		join.SetEarlier(k, sc.Flags, sc.Date)
	}
}
