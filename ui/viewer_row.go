package ui

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// showRow shows the file's data row row (1-based; 0 does nothing)
// selected in the table. A filtered or sorted view is put back in the
// file's order first, so that the row is where the file has it.
func (v *viewer) showRow(row int) {
	if row > v.res.Len() && !v.indexed {
		v.pendingRow = row // shown once the file is read
		return
	}
	if row <= 0 || row > v.res.Len() {
		return
	}
	if v.view.Len() != v.res.Len() || v.q.SortCol >= 0 || v.q.Text != "" || len(v.q.Quick) > 0 {
		v.resetView(func() { v.scrollTo(row) })
		return
	}
	v.scrollTo(row)
}

// scrollTo scrolls to a row of the view and selects it; a tab just opened
// has no size yet, so that waits until it is laid out.
func (v *viewer) scrollTo(row int) {
	id := widget.TableCellID{Row: row - 1, Col: 0}
	if v.table.Size().Height > 0 {
		v.table.ScrollTo(id)
		v.table.Select(id)
		v.sh.fire(fmt.Sprintf("row %d shown", row))
		return
	}
	v.sh.spawn(func() {
		for i := 0; i < 100; i++ {
			shown := false
			if !v.sh.doWait(func() {
				if shown = v.table.Size().Height > 0; shown {
					v.table.Refresh()
					v.table.ScrollTo(id)
					v.table.Select(id)
					v.sh.fire(fmt.Sprintf("row %d shown", row))
				}
			}) || shown {
				return // shown, or the window is gone
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// resetView drops the filter, the quick filters and the sort, reads the
// file's order back and then calls then (UI thread).
func (v *viewer) resetView(then func()) {
	onChanged := v.filter.OnChanged
	v.filter.OnChanged = nil
	v.filter.SetText("")
	v.filter.OnChanged = onChanged
	for _, c := range v.quick {
		if c.Checked {
			c.Checked = false
			c.Refresh()
		}
	}
	v.q = workflow.Query{SortCol: -1}
	v.query(then)
}
