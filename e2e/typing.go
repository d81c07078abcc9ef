//go:build harness

package e2e

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/jobs/library/libtest"
	"github.com/skipdesk/skipdesk/ui/e2e"
)

// A generated 400k-row trace result opened, a name typed into the viewer's
// filter key by key, as a person does, then a header clicked twice: each
// time from the key (or click) to the answer in the table, taken from the
// viewer's own signal that its query is done and the table refreshed with
// it, is logged as a figure, with the time to the first page and to the
// whole file read.
func init() {
	s := &typing{}
	e2e.Suite("viewer-typing",
		e2e.T("a 400,000-row result opens: its first page, then the whole file", s.open),
		e2e.T("typing a name filters the rows key by key", s.typeName),
		e2e.T("Backspace widens the filter again", s.backspace),
		e2e.T("a header clicked sorts, and clicked again reverses", s.sortTwice),
	)
}

// typingRows is the size of the result typed into: the size the viewer's
// speed targets are set for.
const typingRows = 400_000

type typing struct {
	answers chan typedAnswer
	times   []time.Duration
}

// typedAnswer is the viewer's signal that a query's answer is shown.
type typedAnswer struct {
	at    time.Time
	err   error
	count string
}

func (s *typing) open(h *e2e.Harness) error {
	dir, err := tempDir(h, "typing")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "owners 400k result.csv")
	if err := libtest.WriteTraceFile(path, typingRows, 24); err != nil {
		return err
	}
	h.Resize(fyne.NewSize(1280, 760))
	if err := openTimed(h, path); err != nil {
		return err
	}
	if err := h.Shot("typing-01-opened"); err != nil {
		return err
	}
	s.answers = make(chan typedAnswer, 16)
	h.Do(func() {
		h.D.Viewer().OnQueried(func(count string, err error) {
			s.answers <- typedAnswer{at: time.Now(), err: err, count: count}
		})
	})
	return nil
}

func (s *typing) typeName(h *e2e.Harness) error {
	for _, r := range "smith" {
		d, count, err := s.keyTimed(h, func() { h.D.Viewer().TypeFilter(r) })
		if err != nil {
			return err
		}
		s.times = append(s.times, d)
		h.Figuref("key %q: %s to the answer drawn (%s)", r, ms(d), count)
	}
	return h.Shot("typing-02-smith")
}

func (s *typing) backspace(h *e2e.Harness) error {
	d, count, err := s.keyTimed(h, h.D.Viewer().FilterBackspace)
	if err != nil {
		return err
	}
	h.Figuref("backspace: %s to the answer drawn (%s)", ms(d), count)
	return nil
}

func (s *typing) sortTwice(h *e2e.Harness) error {
	for _, click := range []string{"sort by property address", "reverse"} {
		var tapped bool
		d, count, err := s.keyTimed(h, func() { tapped = h.D.Viewer().TapHeader("property_address") })
		if !tapped {
			return errors.New("the generated result has no property_address column")
		}
		if err != nil {
			return err
		}
		h.Figuref("%s: %s to the answer drawn (%s)", click, ms(d), count)
	}
	slices.Sort(s.times)
	h.Figuref("typing %q into %d rows: median %s, slowest %s a key", "smith", typingRows, ms(s.times[len(s.times)/2]), ms(s.times[len(s.times)-1]))
	return h.Shot("typing-03-sorted")
}

// keyTimed does key on the UI thread and waits for the viewer's answer:
// the time between them and the row count shown.
func (s *typing) keyTimed(h *e2e.Harness, key func()) (time.Duration, string, error) {
	var start time.Time
	h.Do(func() {
		start = time.Now()
		key()
	})
	select {
	case ans := <-s.answers:
		if ans.err != nil {
			return 0, "", ans.err
		}
		return ans.at.Sub(start), ans.count, nil
	case <-time.After(30 * time.Second):
		return 0, "", errors.New("the viewer gave no answer within 30 s")
	}
}

// openTimed opens path in a viewer tab and logs the time to its first
// page and to the whole file read (from the viewer's signals).
func openTimed(h *e2e.Harness, path string) error {
	shown, indexed := make(chan time.Time, 1), make(chan time.Time, 1)
	var start time.Time
	h.Do(func() {
		h.D.Viewer().OnOpen(func(stage string) {
			ch := shown
			if stage == "indexed" {
				ch = indexed
			}
			select {
			case ch <- time.Now():
			default: // a later viewer's: not measured
			}
		})
		start = time.Now()
		h.D.Viewer().Open(path, "")
	})
	var first, all time.Time
	for _, w := range []struct {
		at   *time.Time
		ch   chan time.Time
		what string
	}{{&first, shown, "the first page"}, {&all, indexed, "the whole file read"}} {
		select {
		case *w.at = <-w.ch:
		case <-time.After(time.Minute):
			return fmt.Errorf("no %s within a minute", w.what)
		}
	}
	var st e2e.ViewerState
	var ok bool
	h.Do(func() { st, ok = h.D.Viewer().Selected() })
	if !ok || !strings.HasPrefix(st.Count, "400,000") {
		return fmt.Errorf("the viewer shows %q", st.Count)
	}
	h.Figuref("opened %d rows: first page in %s, the whole file read in %s", typingRows, ms(first.Sub(start)), ms(all.Sub(start)))
	return nil
}
