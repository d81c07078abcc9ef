package ui

import (
	"testing"

	"github.com/skipdesk/skipdesk/jobs/layout"
)

// Every list a column can be read as has its own words in the correction
// dialog: a column shown under another list's words would be saved as that
// list when the person saves the dialog without touching it.
func TestEveryColumnKindHasItsWords(t *testing.T) {
	t.Parallel()
	for _, k := range layout.WordsOrder {
		if k == layout.Company {
			continue // SkipDesk's own list, never a column of a file
		}
		if got := kindOf(wordsOfKind(k)); got != k {
			t.Errorf("a %s column is shown as %q, saved as %s", k, wordsOfKind(k), got)
		}
	}
}
