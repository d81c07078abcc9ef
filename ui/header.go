package ui

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// header shows the account: balance or metered usage, billing mode, the
// subscription bar, the rates, and a refresh button.
type header struct {
	sh *shell
	be AccountReader
	// refreshNow asks for every job and the account now (the Refresh
	// button); reload reloads what the window shows (the server back).
	refreshNow, reload func()
	// quit ends watch (the header is replaced or the window closed).
	quit chan struct{}

	account    *widget.Label
	billing    *widget.Label
	pastDue    *widget.Label
	subBar     *usageBar
	subText    *widget.Label
	subBox     *fyne.Container
	rates      *widget.Label
	refreshBtn *widget.Button

	// offline says the server is away: since when, the figures' time, and
	// that the window tries again by itself (with a button to try now).
	offline    *widget.Label
	offlineBox *fyne.Container
	retry      *time.Timer // the next try while offline (UI thread only)
	lastGood   time.Time   // the last refresh the server answered

	content fyne.CanvasObject

	// last loaded values (UI thread only)
	acct    *client.Account
	pricing *client.Pricing

	// answers keeps a late answer (a slow reload started before the server
	// went away) from replacing a newer one.
	answers latest
}

func newHeader(sh *shell, be AccountReader, refreshNow, reload func()) *header {
	h := &header{sh: sh, be: be, refreshNow: refreshNow, reload: reload, quit: make(chan struct{})}
	h.account = widget.NewLabelWithStyle("Loading the account…", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	h.account.Truncation = fyne.TextTruncateEllipsis
	h.billing = widget.NewLabel("")
	h.billing.Truncation = fyne.TextTruncateEllipsis
	h.pastDue = widget.NewLabel("")
	h.pastDue.Importance = widget.DangerImportance
	h.pastDue.TextStyle = fyne.TextStyle{Bold: true}
	h.pastDue.Wrapping = fyne.TextWrapWord
	h.pastDue.Hide()
	h.subBar = newUsageBar()
	h.subText = widget.NewLabel("")
	// The centre takes what the account and the rates leave: at narrow
	// widths the plan line is cut, never drawn over the rates.
	h.subText.Truncation = fyne.TextTruncateEllipsis
	h.subBox = container.NewVBox(h.subText, h.subBar)
	h.subBox.Hide()
	h.rates = widget.NewLabel("")
	h.refreshBtn = widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), h.onRefresh)
	h.offline = widget.NewLabel("")
	h.offline.Importance = widget.DangerImportance
	h.offline.TextStyle = fyne.TextStyle{Bold: true}
	h.offline.Wrapping = fyne.TextWrapWord
	h.offlineBox = container.NewBorder(nil, nil, nil, widget.NewButtonWithIcon("Try now", theme.ViewRefreshIcon(), h.onRefresh), h.offline)
	h.offlineBox.Hide()

	// A long e-mail or billing line is cut rather than pushing the
	// window wider than the screen.
	left := container.NewVBox(capWidth(h.account, maxAccountWidth), capWidth(h.billing, maxAccountWidth))
	right := container.NewVBox(h.rates, container.NewHBox(layoutSpacer(), h.refreshBtn))
	h.content = container.NewBorder(h.offlineBox, h.pastDue, left, right, container.NewPadded(h.subBox))
	return h
}

// maxAccountWidth is the most the account's lines take of the header.
const maxAccountWidth = 340

// capWidth holds a truncating label to its text's width, or to most when
// the text is wider (a truncating label alone asks for almost no width).
func capWidth(l *widget.Label, most float32) fyne.CanvasObject {
	return container.New(&capLayout{label: l, most: most}, l)
}

type capLayout struct {
	label *widget.Label
	most  float32
}

func (c *capLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	// Rounded up, with a pixel to spare: the window rounds sizes to pixels,
	// and a label given a hair less than its text cuts it.
	w := float32(math.Ceil(float64(fyne.MeasureText(c.label.Text, theme.TextSize(), c.label.TextStyle).Width))) + 2*theme.InnerPadding() + 1
	return fyne.NewSize(min(w, c.most), c.label.MinSize().Height)
}

func (c *capLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.Position{})
		o.Resize(size)
	}
}

func (h *header) onRefresh() { h.refreshNow() }

// refresh reloads the account and the pricing off the UI thread; done (if
// any) is called from a goroutine when both are back.
func (h *header) refresh(done func()) {
	a := h.sh
	type both struct {
		acct *client.Account
		pr   *client.Pricing
	}
	n := h.answers.ask()
	a.spawn(func() {
		var wg sync.WaitGroup
		var r both
		var errA, errP error
		wg.Add(2)
		go func() { defer wg.Done(); r.acct, errA = h.be.Account(a.ctx) }()
		go func() { defer wg.Done(); r.pr, errP = h.be.Pricing(a.ctx) }()
		wg.Wait()
		a.do(func() {
			if !h.answers.fresh(n) {
				return // a newer refresh answered first
			}
			switch {
			case workflow.Unreachable(errA):
				h.goOffline()
			case errA != nil:
				h.account.SetText("Account not loaded")
				h.billing.SetText(workflow.Explain(errA, workflow.HostOf(a.session.BaseURL)).What)
			default:
				h.backOnline()
				h.show(r.acct)
			}
			if errP == nil {
				h.showRates(r.pr)
			}
		})
		if done != nil {
			done()
		}
	})
}

// show fills the header from an account.
func (h *header) show(acc *client.Account) {
	h.acct = acc
	who := acc.Email
	if who == "" {
		who = "Account " + acc.ID
	}
	h.account.SetText(who)
	pastDue := false
	switch acc.BillingMode {
	case client.BillingMetered:
		if m := acc.Metered; m != nil {
			s := fmt.Sprintf("Metered billing · %s of %s credits not yet billed", jobs.Thousands(m.UnbilledUsage), jobs.Thousands(m.Threshold))
			if m.CardLast4 != "" {
				s += " · card •••• " + m.CardLast4
			}
			pastDue = m.PastDue
			h.billing.SetText(s)
		} else {
			h.billing.SetText("Metered billing · usage is charged to the card on file")
		}
	default:
		mode := "Prepaid"
		if acc.BillingMode != "" && acc.BillingMode != client.BillingPrepaid {
			mode = strings.ToUpper(acc.BillingMode[:1]) + acc.BillingMode[1:]
		}
		h.billing.SetText(mode + " · " + jobs.Thousands(acc.Credits) + " credits")
	}
	if pastDue {
		h.pastDue.SetText("PAYMENT PAST DUE: new jobs are refused until the card on file is updated in the provider's dashboard.")
		h.pastDue.Show()
	} else {
		h.pastDue.Hide()
	}
	if s := acc.Subscription; s != nil && s.CreditsLimit > 0 {
		// The bar says how much is used (an empty bar alone reads as full
		// in the dark theme); the line above names the plan and its period.
		used := fmt.Sprintf("%s of %s credits used", jobs.Thousands(s.CreditsUsed), jobs.Thousands(s.CreditsLimit))
		h.subBar.set(s.CreditsUsed, s.CreditsLimit, used)
		end := ""
		if !s.CurrentPeriodEnd.IsZero() {
			end = " · period ends " + s.CurrentPeriodEnd.Local().Format("Jan 2, 2006")
		}
		name := s.PlanName
		if name == "" {
			name = s.PlanID
		}
		h.subText.SetText(fmt.Sprintf("%s plan%s", name, end))
		h.subBox.Show()
	} else {
		h.subBox.Hide()
	}
	// The account's lines changed width: lay the header out again (a
	// truncating label's own size does not change with its text).
	h.content.Refresh()
}

func (h *header) showRates(p *client.Pricing) {
	h.pricing = p
	r := p.Rates
	h.rates.SetText(fmt.Sprintf("Credits per row: normal %d · enhanced %d · LLC %d · DNC %d", r.Normal, r.Enhanced, r.LLC, r.DNC))
}

// The sandbox banner's colours: white on a dark orange, 4.5:1 or more
// (theme_test.go measures them).
var (
	sandboxFill = color.NRGBA{R: 0xA8, G: 0x4E, B: 0x00, A: 0xFF}
	sandboxText = color.White
)

// sandboxBadge is the bar shown on every screen while in the sandbox.
func sandboxBadge(onConnect func()) fyne.CanvasObject {
	bg := canvas.NewRectangle(sandboxFill)
	txt := canvas.NewText("SANDBOX — practice: nothing is charged, data is made up, jobs and credits reset at each start", sandboxText)
	txt.TextStyle = fyne.TextStyle{Bold: true}
	var right fyne.CanvasObject
	if onConnect != nil {
		right = container.NewPadded(widget.NewButton("Use my API key…", onConnect))
	}
	return container.NewStack(bg, container.NewBorder(nil, nil, container.NewPadded(txt), right))
}

// SandboxBadge is the SANDBOX bar for other windows (the wizard's).
func SandboxBadge() fyne.CanvasObject { return sandboxBadge(nil) }

func layoutSpacer() fyne.CanvasObject {
	r := canvas.NewRectangle(color.Transparent)
	return r
}

// goOffline says at once that the server is away, keeps the figures last
// loaded (their time named), and tries again by itself every
// Options.OfflineRetry until the server answers.
func (h *header) goOffline() {
	a := h.sh
	msg := fmt.Sprintf("Offline: can't reach %s.", workflow.HostOf(a.session.BaseURL))
	if h.lastGood.IsZero() {
		h.account.SetText("Account not loaded")
		h.billing.SetText("Nothing loaded yet")
	} else {
		msg += " The figures shown are from " + h.lastGood.Local().Format("15:04") + ", the last time it answered."
	}
	msg += " Trying again by itself; the library and downloaded results work meanwhile."
	h.offline.SetText(msg)
	if !h.offlineBox.Visible() {
		h.offlineBox.Show()
		h.content.Refresh()
		a.fire("offline")
	}
	if h.retry == nil && a.ctx.Err() == nil {
		h.retry = time.AfterFunc(a.opts.OfflineRetry, func() {
			a.do(func() {
				h.retry = nil
				if a.ctx.Err() == nil && h.offlineBox.Visible() {
					h.reload()
				}
			})
		})
	}
}

// backOnline: the server answered.
func (h *header) backOnline() {
	h.lastGood = time.Now()
	if h.retry != nil {
		h.retry.Stop()
		h.retry = nil
	}
	if h.offlineBox.Visible() {
		h.offlineBox.Hide()
		h.content.Refresh()
		h.sh.fire("online")
	}
}

// stop ends the header's watch and its retry: another header replaces it
// (UI thread).
func (h *header) stop() {
	close(h.quit)
	if h.retry != nil {
		h.retry.Stop()
		h.retry = nil
	}
}

// Offline is the offline banner's text; "" when the server answered last.
func (h *header) Offline() string {
	if !h.offlineBox.Visible() {
		return ""
	}
	return h.offline.Text
}

// watch reloads the account every Options.AccountEvery while the server
// answers and this header is the window's (while it is away, goOffline's
// retry does it).
func (h *header) watch() {
	a := h.sh
	if a.opts.AccountEvery <= 0 {
		return
	}
	t := time.NewTicker(a.opts.AccountEvery)
	go func() {
		defer t.Stop()
		for {
			select {
			case <-t.C:
				a.do(func() {
					if !h.offlineBox.Visible() && a.ctx.Err() == nil {
						h.refresh(nil)
					}
				})
			case <-h.quit:
				return
			case <-a.ctx.Done():
				return
			}
		}
	}()
}
