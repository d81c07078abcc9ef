package workflow

import (
	"context"
	"errors"
	"fmt"
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
func (s *core) internalLedger(write bool) (led *ledger.Ledger, done func(), err error) {
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
func (s *ComplianceService) InternalList(ctx context.Context) ([]InternalEntry, error) {
	led, done, err := s.internalLedger(false)
	if err != nil || led == nil {
		return nil, err
	}
	defer done()
	return led.CompanyList().InternalList(ctx)
}

// InternalFound is a window onto the internal list: the newest entries a
// search picks, how many it picks and how many numbers the list holds.
type InternalFound struct {
	Entries  []InternalEntry
	Matching int
	Total    int
}

// FindInternal searches the internal list without reading it all: the
// entries whose number holds the query's digits (three or more; a whole
// number in any format is its ten digits), or whose reason or source holds
// the query, the most recently added first, at most limit of them (0:
// all). An empty query picks every entry.
func (s *ComplianceService) FindInternal(ctx context.Context, query string, limit int) (InternalFound, error) {
	led, done, err := s.internalLedger(false)
	if err != nil || led == nil {
		return InternalFound{}, err
	}
	defer done()
	q := strings.TrimSpace(query)
	f := ledger.InternalFilter{Text: q, Limit: limit}
	if n := phone.Normalize(q); n.Valid {
		f.Digits = n.Digits
	} else if d := strings.Map(keepDigit, q); len(d) >= 3 {
		f.Digits = d
	}
	var found InternalFound
	if found.Entries, found.Matching, err = led.CompanyList().FindInternal(ctx, f); err != nil {
		return found, err
	}
	found.Total = found.Matching
	if q != "" {
		_, found.Total, err = led.CompanyList().FindInternal(ctx, ledger.InternalFilter{Limit: 1})
	}
	return found, err
}

// keepDigit keeps the digits of a string (strings.Map).
func keepDigit(r rune) rune {
	if r >= '0' && r <= '9' {
		return r
	}
	return -1
}

// InternalLog is the list's history (of one number, or all with "").
func (s *ComplianceService) InternalLog(ctx context.Context, number string) ([]InternalChange, error) {
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
	return led.CompanyList().InternalLog(ctx, number)
}

// AddInternal puts numbers on the internal list with a reason and where
// they come from ("by hand", "pasted", "result x.csv, row 12"). Each number
// may be written in any format; what is not a valid number is returned,
// and nothing is added when nothing is valid.
func (s *ComplianceService) AddInternal(ctx context.Context, numbers []string, reason, source string) (InternalAdded, error) {
	var res InternalAdded
	seen := map[string]bool{}
	var entries []ledger.InternalEntry
	by := s.team().Computer()
	for _, raw := range numbers {
		if strings.TrimSpace(raw) == "" {
			continue
		}
		// "512-555-0101 / 512-555-0102", "512-555-0101 x12 | …": each.
		keys := phone.ListKeys(raw)
		if keys[0] == 0 {
			res.Invalid = append(res.Invalid, strings.TrimSpace(raw))
			continue
		}
		for _, k := range keys {
			if d := phone.KeyDigits(k); !seen[d] {
				seen[d] = true
				entries = append(entries, ledger.InternalEntry{Number: d, Reason: reason, Source: source, By: by})
			}
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
	added, err := led.CompanyList().AddInternal(ctx, entries)
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

// ExportInternal writes the list to dest as CSV: the number, formatted and
// as digits, when and why it was added, from where and by which computer.
func (s *ComplianceService) ExportInternal(ctx context.Context, dest string) (int, error) {
	list, err := s.compliance().InternalList(ctx)
	if err != nil {
		return 0, err
	}
	b := input.AppendRecord(nil, []string{"Phone", "Number", "Added", "Reason", "Source", "Added by", "Keep until"})
	for _, e := range list {
		b = input.AppendRecord(b, []string{phone.Format(e.Number), e.Number, e.AddedAt.Local().Format("2006-01-02 15:04"),
			e.Reason, e.Source, e.By, KeepUntilText(e)})
	}
	if err := library.WriteFileAtomic(dest, b); err != nil {
		return 0, err
	}
	return len(list), nil
}

// KeepUntilText is an entry's keep-until date (YYYY-MM-DD), "" when it
// may be removed at any time.
func KeepUntilText(e InternalEntry) string {
	if e.KeepUntil.IsZero() {
		return ""
	}
	return e.KeepUntil.UTC().Format(time.DateOnly)
}

// RemoveInternal takes a number off the list; the reason is kept in its
// history. An entry the law keeps (an opt-out before its keep-until date)
// is not removed: a *ledger.KeptError.
func (s *ComplianceService) RemoveInternal(ctx context.Context, number, reason string) error {
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
	return led.CompanyList().RemoveInternal(ctx, n.Digits, reason, s.team().Computer())
}

// internalKeys are the list's numbers as a set tested in bulk (empty,
// never nil: the list always applies), read from the ledger without their
// dates and reasons. A list that cannot be read is an error: a callable
// export does not go on without it.
func (s *core) internalKeys(ctx context.Context) (phone.KeySet, error) {
	led, done, err := s.internalLedger(false)
	if err == nil && led == nil {
		return phone.KeySet{}, nil // no ledger yet: an empty list
	}
	var keys phone.KeySet
	if err == nil {
		defer done()
		keys, err = led.CompanyList().InternalKeys(ctx)
	}
	if err != nil {
		return phone.KeySet{}, fmt.Errorf("the internal do-not-call list cannot be read: %w", err)
	}
	return keys, nil
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
func (s *core) checks(ctx context.Context, join *layout.FlagIndex, path string) error {
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
func (s *core) proof(ctx context.Context) *export.Proof {
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
		if a, err := s.sessions().Account(actx); err == nil {
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
func (s *ComplianceService) StalePhones(e *StaleError) (string, error) {
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
func (s *ComplianceService) OnInternalList(ctx context.Context, numbers []string) (map[string]bool, error) {
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
func (s *core) earlierAnswers(ctx context.Context, r *library.Result, l *layout.Layout, join *layout.FlagIndex) {
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
