//go:build harness

package e2e

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/ui/e2e"
)

// Results written by other services (the files of jobs/layout/testdata,
// named by SKIPDESK_E2E_FIXTURES) imported into the library as a person
// would: the people-and-phones view of two of them, the callable phones of
// one and when they may be called, a layout the person corrects; then
// Help's calling rules.
func init() {
	s := &foreign{}
	e2e.Suite("foreign-results",
		e2e.T("a PropStream result imported shows its people and phones", s.propstream),
		e2e.T("Callable shows only the phones that may be called", s.callable),
		e2e.T("Callable now follows the clock of the phones' time zone", s.callableNow),
		e2e.T("the callable list offers a dialer's columns and right now", s.callableChoices),
		e2e.T("at 9:30 p.m. no phone is callable now", s.notCallableLate),
		e2e.T("a DealMachine result imported shows its people and phones", s.dealmachine),
		e2e.T("a vendor's phones sorted into columns by list: the listed numbers are never callable", s.sortedVendor),
		e2e.T("a vendor's report with a title, a header of two rows and notes beside numbers", s.groupedReport),
		e2e.T("a flag between two phones is asked about; the person says whose it is", s.unevenGroups),
		e2e.T("a date between two phones dates the first; the person says it is every phone's", s.amidDate),
		e2e.T("a scrub read unsure is corrected by the person", s.correctUnsure),
		e2e.T("Help shows the calling rules", helpRules),
	)
}

type foreign struct {
	dir string
	// now is the viewer's clock in the calling-time tests.
	now time.Time
}

// e2eNow is the window's clock in the screenshots of calling times: a
// Tuesday, 8:30 p.m. in Texas (its phones may be called until 9).
var e2eNow = time.Date(2026, 12, 1, 20, 30, 0, 0, time.FixedZone("CST", -6*3600))

func (s *foreign) propstream(h *e2e.Harness) error {
	if s.dir = os.Getenv("SKIPDESK_E2E_FIXTURES"); s.dir == "" {
		return errors.New("SKIPDESK_E2E_FIXTURES is not set: it names the folder jobs/layout/testdata")
	}
	h.Resize(fyne.NewSize(1280, 760))
	if err := importShown(h, filepath.Join(s.dir, "propstream.csv"), 4); err != nil {
		return err
	}
	return h.Shot("layouts-01-propstream")
}

// countIs waits until the selected viewer's count line reads want.
func countIs(h *e2e.Harness, what, want string) error {
	var got string
	if err := h.Wait(what, 10*time.Second, func() bool {
		st, _ := h.D.Viewer().Selected()
		got = st.Count
		return got == want
	}); err != nil {
		return fmt.Errorf("%w (%s)", err, got)
	}
	return nil
}

func (s *foreign) callable(h *e2e.Harness) error {
	h.Do(func() { h.D.Viewer().Quick(jobs.QuickCallable, true) })
	if err := countIs(h, "callable only", "2 of 4 rows"); err != nil {
		return err
	}
	return h.Shot("layouts-02-propstream-callable")
}

func (s *foreign) callableNow(h *e2e.Harness) error {
	s.now = e2eNow
	v := h.D.Viewer()
	h.Do(func() {
		v.SetClock(func() time.Time { return s.now })
		v.Quick(jobs.QuickCallable, false)
		v.Quick(jobs.QuickCallableNow, true)
	})
	if err := countIs(h, "callable now", "2 of 4 rows callable now"); err != nil {
		return err
	}
	return h.Shot("layouts-02b-propstream-callable-now")
}

// callableChoices opens the choices of the callable list of the view
// shown (Export .xlsx with "Callable now"), picks a dialer's columns and
// "right now", takes its screenshot and closes it without exporting.
func (s *foreign) callableChoices(h *e2e.Harness) error {
	ex := h.D.Exports()
	h.Do(func() { h.D.Viewer().Export(".xlsx") })
	if err := h.Wait("the callable list's choices and its dialers", 20*time.Second, func() bool {
		shown, layouts := ex.CallableChoices()
		return shown && len(layouts) > 0
	}); err != nil {
		return err
	}
	h.Do(func() { ex.ChooseCallable("REISift", true) })
	if err := h.Shot("layouts-02d-propstream-callable-choices"); err != nil {
		return err
	}
	h.Do(ex.CloseCallable)
	return nil
}

func (s *foreign) notCallableLate(h *e2e.Harness) error {
	v := h.D.Viewer()
	h.Do(func() {
		s.now = e2eNow.Add(time.Hour)
		v.Tick()
	})
	if err := countIs(h, "callable at 9:30 p.m.", "0 of 4 rows callable now"); err != nil {
		return err
	}
	if err := h.Shot("layouts-02c-propstream-not-callable-now"); err != nil {
		return err
	}
	h.Do(func() {
		v.Quick(jobs.QuickCallableNow, false)
		v.SetClock(nil)
	})
	return nil
}

func (s *foreign) dealmachine(h *e2e.Harness) error {
	if err := importShown(h, filepath.Join(s.dir, "dealmachine.csv"), 3); err != nil {
		return err
	}
	return h.Shot("layouts-03-dealmachine")
}

// sortedVendor imports a result whose vendor wrote the numbers on the DNC
// and litigator lists in columns of their own and more numbers two to a
// cell: two of its three rows have a callable phone, from the plain
// columns only.
func (s *foreign) sortedVendor(h *e2e.Harness) error {
	return importCallable(h, filepath.Join(s.dir, "sorted_vendor.csv"), 3, "2 of 3 rows", "layouts-03b-sorted-vendor")
}

// groupedReport imports a vendor's report that starts with a title line
// and writes its header in two rows, each phone's name over its Number,
// Type, DNC and Litigator columns, with notes beside some numbers ("(DNC)",
// "*", "DNC: …"): three of its six rows have a callable phone (John
// Smith's first, both of Tom Reed's, Sue Park's second).
func (s *foreign) groupedReport(h *e2e.Harness) error {
	return importCallable(h, filepath.Join(s.dir, "grouped_report.csv"), 6, "3 of 6 rows", "layouts-03d-grouped-report")
}

// unevenGroups imports a result whose header of two rows gives Phone 1
// its DNC and Litigator columns and Phone 2 none: whose the two flags are
// is asked, and no phone is callable on them; the person says they are
// Phone 1's, and two of the three rows have a callable phone (John
// Smith's and Ann Lee's first; every second phone not scrubbed).
func (s *foreign) unevenGroups(h *e2e.Harness) error {
	if err := importShown(h, filepath.Join(s.dir, "uneven_groups.csv"), 3); err != nil {
		return err
	}
	shots := [3]string{"layouts-03e-uneven-groups", "layouts-03f-uneven-groups-about", "layouts-03g-uneven-groups-callable"}
	return answered(h, "uneven_groups.csv", "0 of 3 rows", "2 of 3 rows", shots, func(v e2e.ViewerDriver) error {
		if err := v.About("DNC", "Phone 1"); err != nil {
			return err
		}
		return v.About("Litigator", "Phone 1")
	})
}

// answered checks that the result shown (file) is read unsure and shows
// before callable rows, shows it (shots[0], "" none), gives the person's
// answer in the correction dialog (shots[1]), and checks that it then shows
// after callable rows (shots[2]).
func answered(h *e2e.Harness, file, before, after string, shots [3]string, answer func(e2e.ViewerDriver) error) error {
	v := h.D.Viewer()
	if st, _ := v.Selected(); st.Sure {
		return fmt.Errorf("%s read as sure: want a column asked about", file)
	}
	h.Do(func() { v.Quick(jobs.QuickCallable, true) })
	if err := countIs(h, file+"'s callable rows before the answer", before); err != nil {
		return err
	}
	if shots[0] != "" {
		if err := h.Shot(shots[0]); err != nil {
			return err
		}
	}
	if err := correctColumns(h, shots[1], answer); err != nil {
		return err
	}
	if err := countIs(h, file+"'s callable rows", after); err != nil {
		return err
	}
	if err := h.Shot(shots[2]); err != nil {
		return err
	}
	h.Do(func() { v.Quick(jobs.QuickCallable, false) })
	return nil
}

// amidDate imports a result whose "Checked On" stands between its two
// phones' columns, with no scrub date given at the import: it dates Phone
// 1 alone and is asked about, so only first phones are callable (John
// Smith's and Tom Reed's); the person says it is every phone's, and Ann
// Lee's second phone is callable too (Dana Cruz's two phones are listed).
func (s *foreign) amidDate(h *e2e.Harness) error {
	dir, err := os.MkdirTemp("", "amid")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	day := time.Now().AddDate(0, 0, -2).Format(time.DateOnly)
	path := filepath.Join(dir, "amid_date.csv")
	body := "Owner,Phone 1,Phone 1 DNC,Phone 1 Litigator,Checked On,Phone 2,Phone 2 DNC,Phone 2 Litigator\n" +
		"John Smith,5125550101,N,N," + day + ",5125550102,N,N\n" +
		"Ann Lee,5125550103,Y,N," + day + ",5125550104,N,N\n" +
		"Tom Reed,5125550105,N,N," + day + ",5125550106,Y,N\n" +
		"Dana Cruz,5125550107,Y,N," + day + ",5125550108,N,Y\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		return err
	}
	if err := importScrubbed(h, path, 4, ""); err != nil {
		return err
	}
	shots := [3]string{"", "layouts-03h-amid-date-about", "layouts-03i-amid-date-callable"}
	return answered(h, "amid_date.csv", "2 of 4 rows", "3 of 4 rows", shots, func(v e2e.ViewerDriver) error {
		return v.About("Checked On", "Every phone of the row")
	})
}

// importCallable imports the result at path (rows rows), shows it (shot)
// and its callable rows (shot+"-callable"), whose count line must read
// want, and takes the quick filter off again.
func importCallable(h *e2e.Harness, path string, rows int, want, shot string) error {
	if err := importShown(h, path, rows); err != nil {
		return err
	}
	if err := h.Shot(shot); err != nil {
		return err
	}
	v := h.D.Viewer()
	h.Do(func() { v.Quick(jobs.QuickCallable, true) })
	if err := countIs(h, filepath.Base(path)+"'s callable rows", want); err != nil {
		return err
	}
	if err := h.Shot(shot + "-callable"); err != nil {
		return err
	}
	h.Do(func() { v.Quick(jobs.QuickCallable, false) })
	return nil
}

// correctUnsure imports a scrub SkipDesk is not sure how to read, and the
// person says how: a blank "Known Litigator" is not on the list.
func (s *foreign) correctUnsure(h *e2e.Harness) error {
	if err := importShown(h, filepath.Join(s.dir, "invented_scrub.csv"), 5); err != nil {
		return err
	}
	if err := h.Shot("layouts-04-unsure"); err != nil {
		return err
	}
	err := correctColumns(h, "layouts-05-correction", func(v e2e.ViewerDriver) error {
		return v.Correct("Known Litigator", "", "Not on the list")
	})
	if err != nil {
		return err
	}
	return h.Shot("layouts-06-corrected")
}

// correctColumns opens the viewer's correction dialog, gives the person's
// answers (answer), shows them (shot) and saves them, then waits until the
// result is read again, sure of every column.
func correctColumns(h *e2e.Harness, shot string, answer func(e2e.ViewerDriver) error) error {
	v := h.D.Viewer()
	h.Do(v.CheckColumns)
	if err := h.Wait("the correction dialog", 20*time.Second, func() bool { st, _ := v.Selected(); return st.Correcting }); err != nil {
		return err
	}
	var err error
	h.Do(func() { err = answer(v) })
	if err != nil {
		return err
	}
	if err := h.Shot(shot); err != nil {
		return err
	}
	h.Do(v.ConfirmCorrections)
	return h.Wait("read again", 20*time.Second, func() bool {
		st, _ := v.Selected()
		return !st.Correcting && st.Sure && strings.HasSuffix(st.Count, "rows")
	})
}

// importShown imports path into the library, its answers scrubbed
// yesterday as the person says, and waits for its viewer with rows rows.
func importShown(h *e2e.Harness, path string, rows int) error {
	return importScrubbed(h, path, rows, time.Now().AddDate(0, 0, -1).Format(time.DateOnly))
}

// importScrubbed is importShown with the scrub date the person gives
// ("": not known).
func importScrubbed(h *e2e.Harness, path string, rows int, scrubbed string) error {
	name := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	lib := h.D.Library()
	h.Do(func() { lib.Import(path) })
	if err := h.Wait("the scrub date question", 20*time.Second, lib.ScrubDateAsked); err != nil {
		return err
	}
	h.Do(func() { lib.AnswerScrubDate(scrubbed) })
	if err := h.Wait("the viewer of "+name, 20*time.Second, func() bool {
		st, ok := h.D.Viewer().Selected()
		return ok && strings.Contains(st.Name, name) && st.Indexed && st.Rows == rows
	}); err != nil {
		return err
	}
	// The table lays its rows out once it has a size.
	h.Do(h.D.Viewer().RefreshTable)
	return h.Settle()
}

// helpRules opens Help's calling rules from the window's menu.
func helpRules(h *e2e.Harness) error {
	if err := h.Menu("Help", "Calling rules"); err != nil {
		return err
	}
	return h.Shot("help-01-calling-rules")
}
