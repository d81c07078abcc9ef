package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// mountTmpfs mounts a small tmpfs (flags: syscall.MS_RDONLY for a
// read-only one) for the test; without the right to mount the test is
// skipped and says why.
func mountTmpfs(t *testing.T, flags uintptr) string {
	t.Helper()
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", flags, "size=64k"); err != nil {
		t.Skipf("a full or read-only disk is not tried: mounting a tmpfs needs root (or CAP_SYS_ADMIN): %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// fill writes into dir until the disk is full.
func fill(t *testing.T, dir string) {
	t.Helper()
	f, err := os.Create(filepath.Join(dir, "filler"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return
		}
	}
}

// An export onto a full or a read-only disk says so and names the file:
// never "Can't reach the server".
func TestExportDiskFaults(t *testing.T) {
	src := writeTraceResult(t, t.TempDir())
	full := mountTmpfs(t, 0)
	fill(t, full)
	readOnly := mountTmpfs(t, syscall.MS_RDONLY)
	for _, c := range []struct {
		name, dir, words string
	}{
		{"full", full, "the disk is full"},
		{"read-only", readOnly, "the folder is read-only"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, ext := range []string{".xlsx", ".csv"} {
				out := filepath.Join(c.dir, "owners"+ext)
				code, _, stderr := runCLI(t, "export", src, "--out", out)
				if code != exitFailure || !strings.Contains(stderr, c.words) || !strings.Contains(stderr, out) || strings.Contains(stderr, "reach") {
					t.Fatalf("%s: exit %d, stderr %q", ext, code, stderr)
				}
				if _, err := os.Stat(out); err == nil {
					t.Fatalf("%s: a file was left at %s", ext, out)
				}
			}
		})
	}
}
