package ui

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/optout"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/workflow"
	"github.com/skipdesk/skipdesk/ui/keys"
)

// The opt-outs people made where SkipDesk does not see them: an SMS tool's
// replies, a dialer's dispositions, a CRM's contacts marked "DNC". The
// export is read first and shown (an entry stays on the list for years);
// what the person confirms goes on the list.

// onImportOptOuts asks for an export of opt-outs and shows what it holds.
func (v *internalView) onImportOptOuts() {
	v.sh.pickFile([]string{".csv", ".txt", ".xlsx"}, v.readOptOuts)
}

// readOptOuts reads the export at path, then offers its opt-outs.
func (v *internalView) readOptOuts(path string) {
	withProgressOf(v.sh, "Reading the opt-outs in "+filepath.Base(path), func(ctx context.Context, _ func(int64, int64)) (*optout.Import, error) {
		return v.be.ReadOptOuts(ctx, path, nil)
	}, orShowError(v.sh, v.askOptOuts))
}

// askOptOuts shows what an export holds and, where it holds opt-outs,
// asks to put them on the list.
func (v *internalView) askOptOuts(imp *optout.Import) {
	a := v.sh
	name := filepath.Base(imp.File)
	numbers := map[string]bool{}
	for _, e := range imp.Entries {
		numbers[e.Number] = true
	}
	msg := widget.NewLabel(optOutsText(imp, len(numbers)))
	msg.Wrapping = fyne.TextWrapWord
	scroll := container.NewVScroll(msg)
	scroll.SetMinSize(fyne.NewSize(600, 320))
	if len(numbers) == 0 {
		d := dialog.NewCustom("Opt-outs in "+name, "OK", scroll, a.win)
		keys.Track(a.win, d, d.Hide, nil)
		d.Show()
		a.fire("optouts-read")
		return
	}
	add := "Add " + jobs.Plural(int64(len(numbers)), "number", "numbers")
	d := dialog.NewCustomConfirm("Opt-outs in "+name, add, "Cancel", scroll, func(ok bool) {
		if ok {
			v.addOptOuts(imp)
		}
	}, a.win)
	d.Show()
	a.fire("optouts-read")
}

// optOutsText says what an export holds: how it was read, the opt-outs
// that go on the list (the first of them), what was passed over and why.
func optOutsText(imp *optout.Import, numbers int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, read as %s (%s): %s.", filepath.Base(imp.File), imp.Layout, imp.ColumnsRead(), jobs.Plural(int64(imp.Rows), "row", "rows"))
	maybe := 0
	for _, e := range imp.Entries {
		if e.Class == optout.Maybe {
			maybe++
		}
	}
	if numbers == 0 {
		b.WriteString("\n\nNo opt-out was found: nothing goes on your do-not-call list.")
	} else {
		fmt.Fprintf(&b, "\n\n%s go on your do-not-call list. Each opt-out stays on as long as the law asks and cannot be removed before.",
			jobs.Plural(int64(numbers), "number", "numbers"))
		if maybe > 0 {
			fmt.Fprintf(&b, " %s only may be an opt-out: it goes on too, marked for a person to read, who may remove it with a reason.",
				jobs.Plural(int64(maybe), "reply or disposition", "replies or dispositions"))
		}
		b.WriteString("\n")
		for _, e := range imp.Entries[:min(len(imp.Entries), 12)] {
			fmt.Fprintf(&b, "\n  %s  %q  %s", phone.Format(e.Number), e.Said, e.Made.Format(time.DateOnly))
			if e.Class == optout.Maybe {
				b.WriteString("  (may be an opt-out)")
			}
		}
		if n := len(imp.Entries) - 12; n > 0 {
			fmt.Fprintf(&b, "\n  and %d more", n)
		}
	}
	fmt.Fprintf(&b, "\n\n%s", jobs.Plural(int64(imp.NotOptOut), "row is not an opt-out", "rows are not opt-outs"))
	if imp.Outbound > 0 {
		fmt.Fprintf(&b, "; %s the tool sent passed over", jobs.Plural(int64(imp.Outbound), "message", "messages"))
	}
	b.WriteString(".")
	for _, d := range slices.Sorted(maps.Keys(imp.Unrecognised)) {
		fmt.Fprintf(&b, "\nNot recognised, not taken as an opt-out (%s): %q: check it.", jobs.Plural(int64(imp.Unrecognised[d]), "row", "rows"), d)
	}
	listed("Not imported", imp.Problems, &b)
	listed("Read with a doubt, on the safe side", imp.Notes, &b)
	return b.String()
}

// listed writes the first of lines under a title.
func listed(title string, lines []string, b *strings.Builder) {
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(b, "\n\n%s (%d):", title, len(lines))
	for _, l := range lines[:min(len(lines), 20)] {
		fmt.Fprintf(b, "\n  %s", l)
	}
	if n := len(lines) - 20; n > 0 {
		fmt.Fprintf(b, "\n  and %d more (skipdesk-cli dnc-list opt-outs lists every one)", n)
	}
}

// addOptOuts puts the opt-outs read on the list and says what it did.
func (v *internalView) addOptOuts(imp *optout.Import) {
	a := v.sh
	background(a, a.ctx, func(ctx context.Context) (*workflow.OptOutImport, error) { return v.be.AddOptOuts(ctx, imp) },
		func(res *workflow.OptOutImport, err error) {
			if err != nil {
				a.showError(err)
				return
			}
			v.changed()
			v.load()
			msg := fmt.Sprintf("%s added to your do-not-call list from %s.", jobs.Plural(int64(res.Added), "number", "numbers"), filepath.Base(imp.File))
			if res.Already > 0 {
				msg += fmt.Sprintf(" %s already on it.", jobs.Plural(int64(res.Already), "was", "were"))
			}
			a.showMessage("Do-not-call list", msg)
			a.fire("optouts-added")
		})
}
