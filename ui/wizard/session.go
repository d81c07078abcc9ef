package wizard

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/busy"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// session is what the trace wizard and the DNC scrub share while open: the
// window and its dialog, the list being read and priced, and the
// background work that reads it. Each screen embeds one and keeps its own
// steps and widgets.
type session struct {
	win    fyne.Window
	be     DNCBackend // reads, counts, prices and submits the list
	env    Env
	onDone func(jobID string)

	ctx    context.Context
	cancel context.CancelFunc
	dlg    *dialog.CustomDialog
	stage
	bg *busy.Tracker // background work in flight (tests wait for it to end)

	path string
	opts input.Options
	// sheet is the sheet of path's workbook chosen ("": the first holding
	// cells); sheets are the workbook's sheets holding cells, when more
	// than one.
	sheet      string
	sheets     []string
	sheetSel   *keys.Select // the choice of sheet (nil: none offered)
	ins        *input.Inspection
	counts     *workflow.Counts // what the upload holds (nil until counted)
	rates      *workflow.Rates
	rateErr    error
	retryRates func() bool // stops the next reading while the server is away

	tabs      *container.AppTabs
	review    *reviewPanel // the review step's words
	submitBtn *widget.Button
	payBtn    *keys.Button // the last confirmation's Pay button

	// indexing is the library index's round under way (nil: none), which
	// a count waits for before it looks up what the library holds.
	indexing  *workflow.IndexProgress
	stopIndex func()
}

func newSession(win fyne.Window, b DNCBackend, env Env, onDone func(string)) session {
	s := session{win: win, be: b, env: env, onDone: onDone, bg: env.tracker(), stage: newStage()}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	return s
}

// goBG runs f off the UI thread; f comes back to it through env.Do.
func (s *session) goBG(f func()) { s.bg.Go(f) }

// background runs work off the UI thread, then done on the UI thread
// unless ctx has ended by then (the screen closed, or the work was
// replaced).
func background[T any](s *session, ctx context.Context, work func(context.Context) (T, error), done func(T, error)) {
	s.goBG(func() {
		v, err := work(ctx)
		s.env.Do(func() {
			if ctx.Err() != nil {
				return
			}
			done(v, err)
		})
	})
}

// show puts the screen in a dialog titled title that takes share of the
// window's width and height, and no more: a dialog larger than the window
// makes the window grow past the screen.
func (s *session) show(title string, share float32) {
	s.dlg = dialog.NewCustomWithoutButtons(title, s.root, s.win)
	s.dlg.SetOnClosed(s.cancel)
	keys.Track(s.win, s.dlg, nil, s.close) // Escape closes the screen
	keys.Steps(s.win, s.dlg, s.nextStep, s.prevStep)
	sz := s.win.Canvas().Size()
	s.dlg.Resize(fyne.NewSize(sz.Width*share, sz.Height*share))
	s.dlg.Show()
}

func (s *session) close() {
	s.cancel()
	if s.dlg != nil {
		s.dlg.Hide()
	}
}

// nextStep moves to the screen's next step (Next, Ctrl+Tab); prevStep to
// the one before (Ctrl+Shift+Tab).
func (s *session) nextStep() { stepTabs(s.tabs, 1) }
func (s *session) prevStep() { stepTabs(s.tabs, -1) }

// inspect reads path in the background, then hands the inspection to
// loaded, or the reason it cannot be read to failed. start, when not nil,
// makes the plan the screen opens with from the file's start (its headers
// and first rows): the same reading counts that plan's upload, and loaded
// gets the counts too (nil where the plan's rows cannot be counted;
// Counts.Fits tells whether they are still the screen's).
func (s *session) inspect(path string, start func(head *input.Inspection) workflow.Plan, loaded func(*input.Inspection, *workflow.Counts), failed func(error)) {
	s.opts = s.inputFor(path)
	if path != s.path {
		s.sheet, s.sheets = "", nil
	}
	s.path = path
	s.showLoading(fmt.Sprintf("Reading %s…", filepath.Base(path)), s.close)
	opts := s.opts
	background(s, s.ctx, func(ctx context.Context) (readList, error) {
		if start == nil {
			ins, err := s.be.Inspect(ctx, path, opts)
			return readList{ins: ins}, err
		}
		ins, _, c, err := s.be.Read(ctx, path, opts, func(head *input.Inspection) (workflow.Plan, error) { return start(head), nil })
		return readList{ins, c}, err
	}, func(r readList, err error) {
		if err != nil {
			failed(err)
			return
		}
		if len(r.ins.OtherSheets) > 0 {
			s.sheets = append([]string{r.ins.Sheet}, r.ins.OtherSheets...)
		}
		loaded(r.ins, r.counts)
	})
}

// inputFor is how the file at path is read: from the sheet chosen, when
// it is the workbook open.
func (s *session) inputFor(path string) input.Options {
	if path != s.path {
		return input.Options{}
	}
	return input.Options{Sheet: s.sheet}
}

// sheetRow offers the sheets of a workbook holding rows on several (nil
// for any other file): choosing one reads the list again from it (reopen
// is the screen's open).
func (s *session) sheetRow(reopen func(path string)) fyne.CanvasObject {
	if s.sheetSel = nil; len(s.sheets) < 2 {
		return nil
	}
	sel := keys.NewSelect(s.sheets, nil)
	sel.SetSelected(s.ins.Sheet)
	s.sheetSel = sel
	sel.OnChanged = func(sheet string) {
		if sheet != s.ins.Sheet {
			s.sheet = sheet
			reopen(s.path)
		}
	}
	note := widget.NewLabel(fmt.Sprintf("%d sheets of this workbook hold rows: each is a list of its own.", len(s.sheets)))
	note.Importance = widget.LowImportance
	return container.NewHBox(widget.NewLabelWithStyle("Sheet", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		container.NewGridWrap(fyne.NewSize(240, sel.MinSize().Height), sel), note)
}

// watchIndex follows the library index's rounds (Env.Indexing) until the
// screen closes, running refresh at each step.
func (s *session) watchIndex(refresh func()) {
	if s.stopIndex != nil || s.env.Indexing == nil {
		return
	}
	stop := s.env.Indexing.Subscribe(func(p workflow.IndexProgress) {
		if s.ctx.Err() != nil {
			return
		}
		s.indexing = nil
		if p.Running() {
			s.indexing = &p
		}
		refresh()
	})
	s.stopIndex = stop
	context.AfterFunc(s.ctx, stop)
}

// indexNote says, while a count waits for the library's index, how far
// it is; "" otherwise.
func (s *session) indexNote() string {
	if s.indexing == nil {
		return ""
	}
	c := s.indexing.Checking()
	return strings.ToUpper(c[:1]) + c[1:] + "…"
}

// readList is what one reading of a list gives a screen.
type readList struct {
	ins    *input.Inspection
	counts *workflow.Counts
}

// readRates reads GET /pricing and GET /account off the UI thread, then
// runs then; while the server is away, again by itself.
func (s *session) readRates(then func()) {
	ctx := s.ctx
	background(s, ctx, s.be.Rates, func(r workflow.Rates, err error) {
		s.rateErr = err
		if err == nil {
			s.rates = &r
		}
		if workflow.Unreachable(err) {
			s.retryRates = retryLater(s.env, ctx, s.retryRates, func() { s.readRates(then) })
		}
		then()
	})
}

// showFailure replaces the screen with why the file cannot be done (what:
// "traced", "scrubbed") and a way to choose another, which reopen reads.
func (s *session) showFailure(what string, err error, reopen func(path string)) {
	msg := wrapping("This file cannot be "+what+":\n"+workflow.Explain(err, "").String(), widget.DangerImportance)
	other := keys.NewButton("Choose another file…", func() { pickFile(s.win, reopen) })
	other.Importance = widget.HighImportance
	s.setRoot(container.NewBorder(nil, container.NewHBox(other, widget.NewButton("Close", s.close)), nil, nil, msg))
}

// price is what p costs, once its counts and the rates are in.
func (s *session) price(p workflow.Plan) (workflow.Quote, bool) {
	if s.rates == nil || !s.counts.Fits(p) {
		return workflow.Quote{}, false
	}
	return workflow.Price(s.counts, p, *s.rates), true
}

// confirm leads to the review step from any other; on the review, with a
// quote q that is ready to pay, it asks once before paying for the job
// (the total with each saving and repair, and the balance after), then
// runs send. Nothing charged: it sends at once. refresh shows the submit
// state again when the person declines.
func (s *session) confirm(reviewStep int, job string, q workflow.Quote, ready bool, send, refresh func()) {
	s.payBtn = nil
	if s.tabs.SelectedIndex() != reviewStep {
		s.tabs.SelectIndex(reviewStep)
		return
	}
	if !ready {
		return
	}
	if q.Credits == 0 { // every row reused: nothing is charged
		send()
		return
	}
	s.payBtn = confirmPay(s.win, job, q, s.review.review, send, refresh)
}

// afterSubmit is what a screen does with the answers a submission can get.
type afterSubmit struct {
	what      string                    // what was submitted, for the duplicate question ("file")
	resend    func()                    // submits again past the duplicate check
	refresh   func()                    // shows the submit state again
	recount   func()                    // counts again: the library changed since the price
	cancelled func()                    // the upload was cancelled
	allReused func(*workflow.Submitted) // nothing was sent: every row was reused
}

// cancelledNote says what a cancelled upload leaves behind.
const cancelledNote = "Upload cancelled. If any bytes reached the service, the job list shows it as \"unknown — may be charged\" until it is reconciled."

// upload submits p, priced q, with a progress dialog; again resubmits a
// recent duplicate. The answer goes to a's handlers.
func (s *session) upload(p workflow.Plan, q workflow.Quote, again bool, a afterSubmit) {
	s.submitBtn.Disable()
	ctx, cancel := context.WithCancel(s.ctx)
	pr := newProgress(s.win, s.env, "Uploading "+filepath.Base(s.path), cancel)
	ins := s.ins
	opts := workflow.SubmitOptions{Again: again, Quote: &q, Progress: pr.update}
	s.goBG(func() {
		res, err := s.be.Submit(ctx, p, ins, opts)
		s.env.Do(func() {
			pr.done()
			cancel()
			s.submitted(res, err, a)
		})
	})
}

func (s *session) submitted(res *workflow.Submitted, err error, a afterSubmit) {
	switch {
	case err == nil && res != nil && res.JobID == "" && res.ResultPath != "":
		s.close()
		a.allReused(res)
	case err == nil:
		s.close()
		if s.onDone != nil {
			id := ""
			if res != nil {
				id = res.JobID
			}
			s.onDone(id)
		}
	case isDuplicate(err):
		confirmAgain(s.win, a.what, err, a.resend, a.refresh)
	case errors.Is(err, workflow.ErrQuoteChanged):
		showProblem(s.win, err)
		a.recount()
	case errors.Is(err, context.Canceled):
		a.cancelled()
	default:
		showProblem(s.win, err)
		a.refresh()
	}
}
