//go:build unix

package index

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// writeLongLine writes a "result" whose first line is n bytes without a
// line end.
func writeLongLine(t *testing.T, path string, n int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := []byte(strings.Repeat("x", 1<<20))
	for n > 0 {
		k := min(n, len(chunk))
		if _, err := f.Write(chunk[:k]); err != nil {
			t.Fatal(err)
		}
		n -= k
	}
	f.WriteString("\nann,lee\n")
}

// A named pipe (a job record too) and a result whose first line is 64 MB
// long are in the results folder: indexing never opens the pipe, notes the
// long file as unreadable with the reason, holds far less than the line in
// memory, and the other results are indexed and found.
func TestIndexSkipsSpecialAndOversizedFiles(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		l.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
		for _, p := range []string{filepath.Join(l.dir, "pipe.csv"), filepath.Join(l.dir, "owners 2026-11-02 abc123.job.json")} {
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		writeLongLine(t, filepath.Join(l.dir, "long.csv"), 64<<20)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		rep := l.sync()
		runtime.ReadMemStats(&after)
		if !slices.Equal(rep.Unreadable, []string{"long.csv"}) || rep.Indexed != 1 {
			t.Fatalf("report: %+v", rep)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
			t.Errorf("indexing a 64 MB line allocated %d MB", grew>>20)
		}
		if got := hitRows(l.search("john smith")); !slices.Equal(got, []string{"owners 2026-11-02 abc123.csv:1"}) {
			t.Errorf("search: %v", got)
		}
		var skipped string
		if err := l.x.db.QueryRowContext(context.Background(), "SELECT skipped FROM files WHERE name = 'long.csv'").Scan(&skipped); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(skipped, "line 1 is longer than 1 MB") {
			t.Errorf("the reason noted: %q", skipped)
		}
	})
}

// Every reader of a file SkipDesk did not write refuses a named pipe at
// once (it would wait for a writer for ever) and a line past the import's
// limit, naming it.
func TestReadersRefuseSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe.csv")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(dir, "long.csv")
	writeLongLine(t, long, 1<<20+10) // past input.MaxRecordBytes
	wide := filepath.Join(dir, "wide.csv")
	os.WriteFile(wide, []byte(strings.Repeat("a,", 16384+1)+"\n1\n"), 0o644)
	readers := map[string]func(path string) error{
		"layout": func(p string) error { _, err := library.DetectLayout(p, layout.Options{}); return err },
		"layout summary": func(p string) error {
			_, err := library.ReadLayout(context.Background(), p, layout.Options{})
			return err
		},
		"import": func(p string) error {
			r, err := input.Open(p, input.Options{})
			if err == nil {
				r.Close()
			}
			return err
		},
		"hash": func(p string) error { _, _, err := input.HashFile(p); return err },
	}
	for name, read := range readers {
		t.Run(name, func(t *testing.T) {
			if err := read(pipe); err == nil || !strings.Contains(err.Error(), "named pipe") {
				t.Errorf("a named pipe: %v", err)
			}
			if name == "hash" {
				return
			}
			if err := read(long); err == nil || !strings.Contains(err.Error(), "line 1") {
				t.Errorf("a long first line: %v", err)
			}
			if err := read(wide); err == nil || !strings.Contains(err.Error(), "16,384") {
				t.Errorf("too many fields: %v", err)
			}
		})
	}
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := lib.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if filepath.Base(e.Path) == "pipe.csv" {
			t.Error("the library lists a named pipe")
		}
	}
	if _, err := lib.Search(context.Background(), "ann", 10); err != nil {
		t.Errorf("search over a long and a wide file: %v", err)
	}
}
