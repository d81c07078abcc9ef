package ui

import "testing"

func TestFileURLWindows(t *testing.T) {
	for path, want := range map[string]string{
		`C:\Users\Ann Lee\AppData\Roaming\SkipDesk\results\owners 2026-11-22 7B6C5D.csv`: "file:///C:/Users/Ann%20Lee/AppData/Roaming/SkipDesk/results/owners%202026-11-22%207B6C5D.csv",
		`d:\lists`:                      "file:///d:/lists",
		`C:/Users/me/x.csv`:             "file:///C:/Users/me/x.csv",
		`\\nas\share\SkipDesk\a#1.csv`:  "file://nas/share/SkipDesk/a%231.csv",
		`\\?\C:\very\long\path.csv`:     "file:///C:/very/long/path.csv",
		`\\?\UNC\nas\share\long\x.xlsx`: "file://nas/share/long/x.xlsx",
	} {
		if got := fileURLFor(path, true).String(); got != want {
			t.Errorf("fileURLFor(%q) = %s, want %s", path, got, want)
		}
	}
}

func TestFileURLUnix(t *testing.T) {
	got := fileURLFor("/home/ann/.config/SkipDesk/results/a b.csv", false).String()
	if want := "file:///home/ann/.config/SkipDesk/results/a%20b.csv"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
