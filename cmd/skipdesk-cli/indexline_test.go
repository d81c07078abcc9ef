package main

import (
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// A round of indexing is said once it has run a second, on one line
// written over, ended with the round; a round that ends sooner says
// nothing, and the next round counts its second afresh.
func TestIndexLine(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	clock := time.Unix(0, 0)
	line := newIndexLine(&out, func(p workflow.IndexProgress) string { return "indexing the library: " + p.Step() }, func() time.Time { return clock })
	at := func(d time.Duration, p workflow.IndexProgress) {
		clock = time.Unix(0, 0).Add(d)
		line.event(workflow.Event{Kind: workflow.EventIndex, Index: &p})
	}
	at(0, workflow.IndexProgress{Files: 3, Bytes: 300})
	at(500*time.Millisecond, workflow.IndexProgress{Files: 3, FilesDone: 1, Bytes: 300, BytesDone: 100})
	at(900*time.Millisecond, workflow.IndexProgress{Files: 3, FilesDone: 3, Done: true})
	if out.Len() != 0 {
		t.Fatalf("a round under a second said %q", out.String())
	}
	at(2*time.Second, workflow.IndexProgress{Files: 3, Bytes: 300})
	at(2500*time.Millisecond, workflow.IndexProgress{Files: 3, FilesDone: 1, Bytes: 300, BytesDone: 150})
	at(3100*time.Millisecond, workflow.IndexProgress{Files: 3, FilesDone: 1, Bytes: 300, BytesDone: 150})
	at(3200*time.Millisecond, workflow.IndexProgress{Files: 3, FilesDone: 2, Bytes: 300, BytesDone: 270})
	line.end() // the price came before the round's last word
	at(3300*time.Millisecond, workflow.IndexProgress{Files: 3, FilesDone: 3, Done: true})
	want := "\rindexing the library: 2 of 3 results (50%)\rindexing the library: 3 of 3 results (90%)\n"
	if out.String() != want {
		t.Fatalf("said %q, want %q", out.String(), want)
	}
}
