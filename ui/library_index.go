package ui

import (
	"fmt"

	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// indexing shows how far the library index is being brought up to date
// (results downloaded, or copied into the folder by hand); once it is,
// a search shown is run again (UI thread).
func (v *libraryView) indexing(p workflow.IndexProgress) {
	switch {
	case p.Err != nil:
		v.indexBar.SetText("The library index could not be brought up to date: " + workflow.Explain(p.Err, "").What +
			". Searches read the results themselves meanwhile.")
		v.indexBar.Show()
	case p.Done && p.Rebuilt != "":
		// An index of another version is rebuilt as a damaged one is:
		// the reason says which.
		v.indexBar.SetText("The library index was rebuilt from the results (" + p.Rebuilt + ").")
		v.indexBar.Show()
	case p.Done:
		v.indexBar.Hide()
		if v.search_.Text != "" {
			v.search()
		}
	case p.Running():
		v.indexBar.SetText("Indexing the library: " + p.Step() + "…")
		v.indexBar.Show()
	}
}

// hitsLine says what a search found: rows, in how many results.
func hitsLine(items []workflow.LibraryItem, q string) string {
	q = workflow.EchoQuery(q)
	files := map[string]bool{}
	rows := 0
	for _, it := range items {
		files[it.Path+"\x00"+it.JobID] = true
		if it.Row > 0 {
			rows++
		}
	}
	if rows == 0 {
		verb := "contain"
		if len(items) == 1 {
			verb = "contains"
		}
		return fmt.Sprintf("%s %s \"%s\". Select one to open it.", plural(len(items), "result", "results"), verb, q)
	}
	verb := "hold"
	if rows == 1 {
		verb = "holds"
	}
	return fmt.Sprintf("%s in %s %s \"%s\". Select one to open its result at that row.",
		plural(rows, "row", "rows"), plural(len(files), "result", "results"), verb, q)
}
