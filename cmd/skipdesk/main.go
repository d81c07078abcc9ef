// Command skipdesk is the SkipDesk desktop app.
package main

import (
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/skipdesk/skipdesk/assets"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui"
)

func main() {
	pinXInput()
	a := app.NewWithID("com.skipdesk.app")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	// The environment is read here, once; everything below gets it.
	cfg, err := workflow.ConfigFromEnv(os.Getenv)
	if err != nil {
		os.Exit(ui.Run(a, nil, err))
	}
	cfg.Track, cfg.UserAgent = true, "skipdesk/1"
	forTests(&cfg)
	svc, err := workflow.Open(cfg)
	if svc == nil {
		os.Exit(ui.Run(a, nil, err))
	}
	services := ui.FromWorkflow(svc)
	code := ui.Run(a, &services, err) // err: damaged settings, replaced by the defaults
	svc.Close()
	os.Exit(code)
}
