package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/settings"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

var themeLabels = []string{"System", "Light", "Dark"}
var themeValues = []string{settings.ThemeSystem, settings.ThemeLight, settings.ThemeDark}

// settingsForm is the settings dialog's content.
type settingsForm struct {
	sh *shell
	be SettingsBackend
	// applyTheme shows the window in a theme; signOut signs out.
	applyTheme    func(name string)
	doSignOut     func()
	webhookOn     *widget.Check
	webhookAddr   *widget.Entry
	webhookSecret *widget.Entry
	outputDir     *widget.Entry
	theme         *widget.RadioGroup
	notifications *widget.Check
	signOut       *widget.Button
	team          *teamSection
	saveBtn       *widget.Button
	problem       *widget.Label     // why the last save failed, in the dialog
	advanced      *widget.Accordion // the webhooks
	body          *container.Scroll // the settings, above the buttons
	buttons       *fyne.Container
	dialog        dialog.Dialog
	// onSaved is called on the UI thread after a save (tests wait on it).
	onSaved func(error)
}

// showSettings opens the settings dialog (Ctrl+,).
func (a *App) showSettings() { a.newSettingsForm().dialog.Show() }

func (a *App) newSettingsForm() *settingsForm {
	return newSettingsForm(a.shell, a.svc.Sessions, a.svc.Team, a.applyTheme, a.signOut, a.reloadJobs)
}

// newSettingsForm is the settings dialog over be, with the team's section
// over team; changed is called when the records the window shows changed
// (sharing started or stopped).
func newSettingsForm(a *shell, be SettingsBackend, team TeamBackend, applyTheme func(string), signOut func(), changed func()) *settingsForm {
	s := be.Settings()
	f := &settingsForm{sh: a, be: be, applyTheme: applyTheme, doSignOut: signOut}
	f.webhookOn = widget.NewCheck("Receive webhooks (jobs finish sooner in the list)", nil)
	f.webhookOn.SetChecked(s.WebhookEnabled)
	f.webhookAddr = widget.NewEntry()
	f.webhookAddr.SetText(s.WebhookAddr)
	f.webhookSecret = widget.NewPasswordEntry()
	f.webhookSecret.SetPlaceHolder("unchanged (kept in the system keyring)")
	f.outputDir = widget.NewEntry()
	f.outputDir.SetText(s.OutputDir)
	f.outputDir.SetPlaceHolder(defaultOutputDir())
	browse := widget.NewButton("Choose…", func() {
		dialog.ShowFolderOpen(func(u fyne.ListableURI, err error) {
			if err == nil && u != nil {
				f.outputDir.SetText(u.Path())
			}
		}, a.win)
	})
	f.theme = widget.NewRadioGroup(themeLabels, nil)
	f.theme.Horizontal = true
	f.theme.SetSelected(themeLabels[0])
	for i, v := range themeValues {
		if v == s.Theme {
			f.theme.SetSelected(themeLabels[i])
		}
	}
	f.notifications = widget.NewCheck("Notify me when a job completes or fails", nil)
	f.notifications.SetChecked(s.Notifications)
	f.signOut = widget.NewButton("Sign out (removes the API key from this computer)", f.onSignOut)
	if a.session.BaseURL == "" || a.session.FromEnv {
		f.signOut.Disable() // an environment variable is not signed out of here
	}
	var bottom fyne.CanvasObject = container.NewVBox(widget.NewSeparator(), f.signOut)
	if a.session.Sandbox {
		bottom = layout.NewSpacer() // the connection line says it all
	}

	// The person's own settings first; the webhooks under Advanced.
	form := widget.NewForm(
		widget.NewFormItem("Export folder", container.NewBorder(nil, nil, nil, browse, f.outputDir)),
		widget.NewFormItem("Theme", f.theme),
		widget.NewFormItem("Notifications", f.notifications),
	)
	f.team = newTeamSection(a, team, changed)
	form.Append("Team", f.team.box)
	advanced := widget.NewForm(
		widget.NewFormItem("Webhooks", f.webhookOn),
		widget.NewFormItem("Listen on", f.webhookAddr),
		widget.NewFormItem("Webhook secret", f.webhookSecret),
	)
	f.advanced = widget.NewAccordion(widget.NewAccordionItem("Advanced: webhooks", advanced))
	if s.WebhookEnabled {
		f.advanced.Open(0) // what is on is shown
	}
	f.problem = widget.NewLabel("")
	f.problem.Wrapping = fyne.TextWrapWord
	f.problem.Importance = widget.DangerImportance
	f.problem.Hide()

	// The dialog stays open until the settings are saved: a mistake is
	// shown in it, next to what the user typed. The buttons stay below the
	// settings, which scroll when the window is small.
	var d *dialog.CustomDialog
	cancel := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() { d.Hide() })
	f.saveBtn = &widget.Button{Text: "Save", Icon: theme.ConfirmIcon(), Importance: widget.HighImportance, OnTapped: f.save}
	f.body = container.NewVScroll(container.NewVBox(form, f.advanced, f.problem, bottom))
	f.buttons = container.NewHBox(layout.NewSpacer(), cancel, f.saveBtn, layout.NewSpacer())
	f.team.relayout = func() {
		f.body.Content.Refresh()
		f.body.Refresh()
	}
	content := container.NewBorder(connectionLine(a.session), f.buttons, nil, nil, f.body)
	d = dialog.NewCustomWithoutButtons("Settings", content, a.win)
	f.fit(d)
	keys.Track(a.win, d, f.save, nil) // Enter saves, Escape closes
	f.dialog = d
	return f
}

// fit sizes the dialog to the window: as wide as the settings read well,
// as tall as the window allows; what does not fit scrolls.
func (f *settingsForm) fit(d dialog.Dialog) {
	win := f.sh.win.Canvas().Size()
	d.Resize(fyne.NewSize(min(660, win.Width-40), min(640, win.Height-60)))
}

// connectionLine says which account the window works with and where its
// key is kept.
func connectionLine(s workflow.Session) fyne.CanvasObject {
	var text string
	switch {
	case s.Sandbox:
		text = "Connected to the sandbox on this computer: a practice account, no API key stored. Each time SkipDesk starts, " +
			"the sandbox starts afresh: its practice jobs and credits are cleared, and the practice results already downloaded " +
			"stay in your Library. Use \"Use my API key…\" to connect your own account."
	case s.BaseURL == "":
		text = "Not connected."
	case s.FromEnv:
		text = "Connected to " + workflow.HostOf(s.BaseURL) + ". The API key comes from the SKIPDESK_API_KEY environment variable and is not stored by SkipDesk."
	case s.SessionOnly:
		text = "Connected to " + workflow.HostOf(s.BaseURL) + ". The API key is kept for this session only (this computer has no keyring)."
	default:
		text = "Connected to " + workflow.HostOf(s.BaseURL) + ". The API key is kept in this computer's keyring."
	}
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// fail shows why the settings were not (all) saved, in the dialog.
func (f *settingsForm) fail(p workflow.Problem) {
	f.problem.SetText(p.String())
	f.problem.Show()
	f.fit(f.dialog)
}

func (f *settingsForm) values() settings.Settings {
	s := f.be.Settings()
	s.WebhookEnabled = f.webhookOn.Checked
	s.WebhookAddr = f.webhookAddr.Text
	s.OutputDir = f.outputDir.Text
	for i, l := range themeLabels {
		if l == f.theme.Selected {
			s.Theme = themeValues[i]
		}
	}
	s.Notifications = f.notifications.Checked
	return s
}

// save validates and stores the settings, and the webhook secret in the
// keyring when one was typed; off the UI thread.
func (f *settingsForm) save() {
	a := f.sh
	s := f.values()
	secret := f.webhookSecret.Text
	if err := s.Validate(); err != nil {
		f.fail(workflow.Problem{What: capitalise(err.Error()) + "."})
		if f.onSaved != nil {
			f.onSaved(err)
		}
		return
	}
	f.saveBtn.Disable()
	background(a, a.ctx, func(ctx context.Context) (bool, error) {
		if secret != "" {
			if err := f.be.SetWebhookSecret(ctx, secret); err != nil {
				return false, err
			}
		}
		err := f.be.SaveSettings(ctx, s)
		var we *workflow.WebhookError
		return err == nil || errors.As(err, &we), err
	}, func(saved bool, err error) {
		f.saveBtn.Enable()
		if saved {
			f.applyTheme(s.Theme)
		}
		if err != nil {
			f.fail(workflow.Explain(err, workflow.HostOf(a.session.BaseURL)))
		} else {
			f.dialog.Hide()
		}
		if f.onSaved != nil {
			f.onSaved(err)
		}
	})
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (f *settingsForm) onSignOut() {
	a := f.sh
	dialog.ShowConfirm("Sign out?", "The API key is removed from this computer's keyring. Your downloaded results stay.", func(ok bool) {
		if ok {
			f.dialog.Hide()
			f.doSignOut()
		}
	}, a.win)
}

// outOfPlace says what is out of place in the open settings dialog, ""
// when nothing is: Save over the settings or off the window, the settings
// squeezed, another setting than the export folder first. The tests and
// the end-to-end run at each size ask it.
func (f *settingsForm) outOfPlace() string {
	d := fyne.CurrentApp().Driver()
	win := f.sh.win.Canvas().Size()
	body, bodyAt := f.body.Size(), d.AbsolutePositionForObject(f.body)
	btnAt := d.AbsolutePositionForObject(f.saveBtn)
	switch {
	case btnAt.Y < bodyAt.Y+body.Height:
		return fmt.Sprintf("Save at y=%v, over the settings (down to y=%v)", btnAt.Y, bodyAt.Y+body.Height)
	case btnAt.Y+f.saveBtn.Size().Height > win.Height || bodyAt.Y < 0:
		return fmt.Sprintf("the dialog runs off the window (Save at y=%v of %v)", btnAt.Y, win.Height)
	case body.Height < 120:
		return fmt.Sprintf("the settings have %v points of height", body.Height)
	}
	form := f.body.Content.(*fyne.Container).Objects[0].(*widget.Form)
	if form.Items[0].Text != "Export folder" {
		return fmt.Sprintf("the first setting is %q", form.Items[0].Text)
	}
	return ""
}
