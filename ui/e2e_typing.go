//go:build harness

package ui

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

func init() { e2e.Register("viewer-typing", runViewerTyping) }

// typingRows is the size of the result typed into: the size the viewer's
// speed targets are set for.
const typingRows = 400_000

// runViewerTyping opens a generated 400k-row trace result and types a name
// into the viewer's filter key by key, as a person does, then clicks a
// header twice: each time from the key (or click) to the answer in the
// table, taken from the viewer's own signal that its query is done and
// the table refreshed with it (onQueried), is logged, with the time to the
// first page and to the whole file read.
func runViewerTyping(h *e2e.Harness) error {
	a, dir, done, err := shellAndDir(h)
	if err != nil {
		return err
	}
	defer done()
	path := filepath.Join(dir, "owners 400k result.csv")
	if err := libtest.WriteTraceFile(path, typingRows, 24); err != nil {
		return err
	}
	h.Do(func() { a.win.Resize(fyne.NewSize(1280, 760)) })
	v, err := openTimed(h, a, path)
	if err != nil {
		return err
	}
	if err := h.Shot("typing-01-opened"); err != nil {
		return err
	}
	answers := make(chan typedAnswer, 16)
	h.Do(func() {
		v.onQueried = func(err error) { answers <- typedAnswer{at: time.Now(), err: err, count: v.count.Text} }
	})
	var times []time.Duration
	for _, r := range "smith" {
		d, count, err := keyTimed(h, answers, func() { v.filter.TypedRune(r) })
		if err != nil {
			return err
		}
		times = append(times, d)
		h.Figuref("key %q: %s to the answer drawn (%s)", r, ms(d), count)
	}
	if err := h.Shot("typing-02-smith"); err != nil {
		return err
	}
	d, count, err := keyTimed(h, answers, func() { v.filter.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace}) })
	if err != nil {
		return err
	}
	h.Figuref("backspace: %s to the answer drawn (%s)", ms(d), count)
	col := slices.Index(v.headers, "property_address")
	if col < 0 {
		return errors.New("the generated result has no property_address column")
	}
	for _, click := range []string{"sort by property address", "reverse"} {
		d, count, err := keyTimed(h, answers, func() { v.onHeaderTapped(col) })
		if err != nil {
			return err
		}
		h.Figuref("%s: %s to the answer drawn (%s)", click, ms(d), count)
	}
	slices.Sort(times)
	h.Figuref("typing %q into %d rows: median %s, slowest %s a key", "smith", typingRows, ms(times[len(times)/2]), ms(times[len(times)-1]))
	return h.Shot("typing-03-sorted")
}

// typedAnswer is the viewer's signal that a query's answer is shown.
type typedAnswer struct {
	at    time.Time
	err   error
	count string
}

// keyTimed does key on the UI thread and waits for the viewer's answer:
// the time between them and the row count shown.
func keyTimed(h *e2e.Harness, answers <-chan typedAnswer, key func()) (time.Duration, string, error) {
	var start time.Time
	h.Do(func() {
		start = time.Now()
		key()
	})
	select {
	case ans := <-answers:
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
func openTimed(h *e2e.Harness, a *App, path string) (*viewer, error) {
	shown, indexed := make(chan time.Time, 1), make(chan time.Time, 1)
	var start time.Time
	h.Do(func() {
		prev := a.hook
		a.hook = func(p string) {
			switch p {
			case "viewer":
				shown <- time.Now()
			case "indexed":
				indexed <- time.Now()
				a.hook = prev
			}
			if prev != nil {
				prev(p)
			}
		}
		start = time.Now()
		a.openViewer(path, "")
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
			return nil, fmt.Errorf("no %s within a minute", w.what)
		}
	}
	var v *viewer
	var count string
	h.Do(func() {
		v = a.viewers[a.tabs.Selected()]
		if v != nil {
			count = v.count.Text
		}
	})
	if v == nil || !strings.HasPrefix(count, "400,000") {
		return nil, fmt.Errorf("the viewer shows %q", count)
	}
	h.Figuref("opened %d rows: first page in %s, the whole file read in %s", typingRows, ms(first.Sub(start)), ms(all.Sub(start)))
	return v, nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
