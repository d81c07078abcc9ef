package ui

import (
	"fmt"
	"image/color"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/desk"
)

// header shows the account: balance or metered usage, billing mode, the
// subscription bar, the rates, and a refresh button.
type header struct {
	app *App

	account    *widget.Label
	billing    *widget.Label
	subBar     *widget.ProgressBar
	subText    *widget.Label
	subBox     *fyne.Container
	rates      *widget.Label
	refreshBtn *widget.Button

	content fyne.CanvasObject

	// last loaded values (UI thread only)
	acct    *client.Account
	pricing *client.Pricing
}

func newHeader(a *App) *header {
	h := &header{app: a}
	h.account = widget.NewLabelWithStyle("Loading the account…", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	h.billing = widget.NewLabel("")
	h.subBar = widget.NewProgressBar()
	h.subBar.TextFormatter = func() string { return "" }
	h.subText = widget.NewLabel("")
	h.subBox = container.NewVBox(h.subText, h.subBar)
	h.subBox.Hide()
	h.rates = widget.NewLabel("")
	h.refreshBtn = widget.NewButtonWithIcon("Refresh", theme.ViewRefreshIcon(), h.onRefresh)

	left := container.NewVBox(h.account, h.billing)
	right := container.NewVBox(h.rates, container.NewHBox(layoutSpacer(), h.refreshBtn))
	h.content = container.NewBorder(nil, nil, left, right, container.NewPadded(h.subBox))
	return h
}

func (h *header) onRefresh() { h.app.refreshNow() }

// refresh reloads the account and the pricing off the UI thread; done (if
// any) is called from a goroutine when both are back.
func (h *header) refresh(done func()) {
	a := h.app
	type both struct {
		acct *client.Account
		pr   *client.Pricing
	}
	spawn(func() {
		var wg sync.WaitGroup
		var r both
		var errA, errP error
		wg.Add(2)
		go func() { defer wg.Done(); r.acct, errA = a.be.Account(a.ctx) }()
		go func() { defer wg.Done(); r.pr, errP = a.be.Pricing(a.ctx) }()
		wg.Wait()
		uiDo(func() {
			if errA != nil {
				h.account.SetText("Account not loaded")
				h.billing.SetText(desk.Explain(errA, desk.HostOf(a.session.BaseURL)).What)
			} else {
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
	switch acc.BillingMode {
	case client.BillingMetered:
		h.account.SetText(who + " · Metered billing")
		if m := acc.Metered; m != nil {
			s := fmt.Sprintf("Usage not yet billed: %s of %s credits", desk.Count(m.UnbilledUsage), desk.Count(m.Threshold))
			if m.CardLast4 != "" {
				s += " · card •••• " + m.CardLast4
			}
			if m.PastDue {
				s += " · PAST DUE: jobs are refused until the card is updated"
			}
			h.billing.SetText(s)
		} else {
			h.billing.SetText("Usage is charged to the card on file")
		}
	default:
		mode := "Prepaid"
		if acc.BillingMode != "" && acc.BillingMode != client.BillingPrepaid {
			mode = strings.ToUpper(acc.BillingMode[:1]) + acc.BillingMode[1:]
		}
		h.account.SetText(who + " · " + mode)
		h.billing.SetText(desk.Count(acc.Credits) + " credits")
	}
	if s := acc.Subscription; s != nil && s.CreditsLimit > 0 {
		h.subBar.Max = float64(s.CreditsLimit)
		h.subBar.SetValue(float64(min(s.CreditsUsed, s.CreditsLimit)))
		end := ""
		if !s.CurrentPeriodEnd.IsZero() {
			end = " · period ends " + s.CurrentPeriodEnd.Local().Format("Jan 2, 2006")
		}
		name := s.PlanName
		if name == "" {
			name = s.PlanID
		}
		h.subText.SetText(fmt.Sprintf("%s plan: %s of %s credits used%s", name, desk.Count(s.CreditsUsed), desk.Count(s.CreditsLimit), end))
		h.subBox.Show()
	} else {
		h.subBox.Hide()
	}
}

func (h *header) showRates(p *client.Pricing) {
	h.pricing = p
	r := p.Rates
	h.rates.SetText(fmt.Sprintf("Credits per row: normal %d · enhanced %d · LLC %d · DNC %d", r.Normal, r.Enhanced, r.LLC, r.DNC))
}

// sandboxBadge is the bar shown on every screen while in the sandbox.
func sandboxBadge(onConnect func()) fyne.CanvasObject {
	bg := canvas.NewRectangle(color.NRGBA{R: 0xE6, G: 0x7E, B: 0x00, A: 0xFF})
	txt := canvas.NewText("SANDBOX — demo account, nothing is charged, data is made up", color.White)
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
