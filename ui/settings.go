package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/settings"
)

var themeLabels = []string{"System", "Light", "Dark"}
var themeValues = []string{settings.ThemeSystem, settings.ThemeLight, settings.ThemeDark}

// settingsForm is the settings dialog's content.
type settingsForm struct {
	app           *App
	webhookOn     *widget.Check
	webhookAddr   *widget.Entry
	webhookSecret *widget.Entry
	outputDir     *widget.Entry
	theme         *widget.RadioGroup
	notifications *widget.Check
	signOut       *widget.Button
	dialog        dialog.Dialog
	// onSaved is called on the UI thread after a save (tests wait on it).
	onSaved func(error)
}

// showSettings opens the settings dialog (Ctrl+,).
func (a *App) showSettings() { a.newSettingsForm().dialog.Show() }

func (a *App) newSettingsForm() *settingsForm {
	s := a.be.Settings()
	f := &settingsForm{app: a}
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
	if a.session.BaseURL == "" {
		f.signOut.Disable()
	}
	var bottom fyne.CanvasObject = container.NewVBox(widget.NewSeparator(), f.signOut)
	if a.session.Sandbox {
		bottom = widget.NewLabel("In the sandbox: no API key is stored. Use \"Use my API key…\" to connect your account.")
	}

	form := widget.NewForm(
		widget.NewFormItem("Webhooks", f.webhookOn),
		widget.NewFormItem("Listen on", f.webhookAddr),
		widget.NewFormItem("Webhook secret", f.webhookSecret),
		widget.NewFormItem("Export folder", container.NewBorder(nil, nil, nil, browse, f.outputDir)),
		widget.NewFormItem("Theme", f.theme),
		widget.NewFormItem("Notifications", f.notifications),
	)
	content := container.NewVBox(form, bottom)
	d := dialog.NewCustomConfirm("Settings", "Save", "Cancel", content, func(save bool) {
		if save {
			f.save()
		}
	}, a.win)
	d.Resize(fyne.NewSize(620, 440))
	f.dialog = d
	return f
}

func (f *settingsForm) values() settings.Settings {
	s := f.app.be.Settings()
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
	a := f.app
	s := f.values()
	secret := f.webhookSecret.Text
	if err := s.Validate(); err != nil {
		dialog.ShowError(err, a.win)
		if f.onSaved != nil {
			f.onSaved(err)
		}
		return
	}
	background(a.ctx, func(ctx context.Context) (struct{}, error) {
		if secret != "" {
			if err := a.be.SetWebhookSecret(ctx, secret); err != nil {
				return struct{}{}, err
			}
		}
		return struct{}{}, a.be.SaveSettings(ctx, s)
	}, func(_ struct{}, err error) {
		if err != nil {
			a.showError(err)
		} else {
			a.applyTheme(s.Theme)
		}
		if f.onSaved != nil {
			f.onSaved(err)
		}
	})
}

func (f *settingsForm) onSignOut() {
	a := f.app
	dialog.ShowConfirm("Sign out?", "The API key is removed from this computer's keyring. Your downloaded results stay.", func(ok bool) {
		if ok {
			f.dialog.Hide()
			a.signOut()
		}
	}, a.win)
}
