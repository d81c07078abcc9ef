package wizard

import (
	"fmt"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
	"github.com/skipdesk/skipdesk/jobs"
)

// progress is the upload dialog: a bar, the bytes sent, and Cancel.
type progress struct {
	do    func(func())
	dlg   *dialog.CustomDialog
	bar   *widget.ProgressBar
	label *widget.Label

	mu   sync.Mutex
	last time.Time
}

// progressEvery limits the UI updates from a fast upload.
const progressEvery = 80 * time.Millisecond

func newProgress(win fyne.Window, env Env, title string, cancel func()) *progress {
	p := &progress{do: env.Do, bar: widget.NewProgressBar(), label: widget.NewLabel("Preparing the file…")}
	stop := widget.NewButton("Cancel", func() {
		p.label.SetText("Cancelling…")
		cancel()
	})
	content := container.NewVBox(p.label, p.bar, container.NewCenter(stop))
	p.dlg = dialog.NewCustomWithoutButtons(title, content, win)
	p.dlg.Resize(fyne.NewSize(420, content.MinSize().Height+60))
	p.dlg.Show()
	return p
}

// update is the upload's progress callback: called from the upload goroutine.
func (p *progress) update(sent, total int64) {
	p.mu.Lock()
	now := time.Now()
	if sent < total && now.Sub(p.last) < progressEvery {
		p.mu.Unlock()
		return
	}
	p.last = now
	p.mu.Unlock()
	p.do(func() {
		if total > 0 {
			p.bar.SetValue(float64(sent) / float64(total))
		}
		p.label.SetText(fmt.Sprintf("Uploading: %s of %s", jobs.Bytes(sent), jobs.Bytes(total)))
	})
}

func (p *progress) done() { p.dlg.Hide() }
