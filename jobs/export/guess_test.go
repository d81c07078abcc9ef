package export

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// lateConvention is a result whose first 300 rows say N in every flag
// column and whose last two say what the yes/no convention does not cover:
// the whole file reads in another layout than its first rows.
func lateConvention() string {
	var b strings.Builder
	b.WriteString("Phone,National DNC,State DNC,Litigator\r\n")
	for i := range 300 {
		fmt.Fprintf(&b, "212555%04d,N,N,N\r\n", 1000+i)
	}
	b.WriteString("2125559998,N,OK,N\r\n2125559999,Clean,N,N\r\n")
	return b.String()
}

// A callable list read with the layout of the file's first rows
// (layoutGuess) is the list read with the layout detected over the whole
// file, byte for byte, or fails as it does: where the whole file bears the
// guess out, and where it does not (the export is made again).
func TestGuessedLayoutExportsAsTheWholeFiles(t *testing.T) {
	t.Parallel()
	dnc := dated(t, testlists.WriteFile(t, "dnc.csv", callableDNC))
	cases := []struct {
		name, body, dnc string
		changes         bool // the whole file reads in another layout
	}{
		{"trace", callableTrace, dnc, false},
		{"late", lateConvention(), "", true},
	}
	choices := []CallableOptions{{OnlyCallable: true}, {OnlyCallable: true, LeaveOutUnsure: true},
		{OnlyCallable: true, LeaveOutUnsure: true, KeepUnknown: true}}
	for _, c := range cases {
		src := testlists.WriteFile(t, c.name+".csv", c.body)
		lopts := layout.Options{Now: testNow}
		whole, err := library.DetectLayout(src, lopts)
		if err != nil {
			t.Fatal(err)
		}
		g, err := guessLayout(src, lopts)
		if err != nil {
			t.Fatal(err)
		}
		if same := reflect.DeepEqual(g.guess, whole); same == c.changes {
			t.Fatalf("%s: the guess is the whole file's layout: %v, want %v", c.name, same, !c.changes)
		}
		for i, o := range choices {
			dir := t.TempDir()
			guessed, given := filepath.Join(dir, "guessed.csv"), filepath.Join(dir, "given.csv")
			_, gerr := ExportCallable(context.Background(), src, c.dnc, guessed, at(o))
			o.Layout = whole
			_, werr := ExportCallable(context.Background(), src, c.dnc, given, at(o))
			if fmt.Sprint(gerr) != fmt.Sprint(werr) {
				t.Fatalf("%s, choices %d: %v with the guess, %v with the whole file's layout", c.name, i, gerr, werr)
			}
			a, _ := os.ReadFile(guessed)
			b, _ := os.ReadFile(given)
			if string(a) != string(b) {
				t.Errorf("%s, choices %d: with the guess\n%s\nwith the whole file's layout\n%s", c.name, i, a, b)
			}
			if c.name == "late" && i == 1 && (werr != nil || strings.Contains(string(b), "9998") || !strings.Contains(string(b), "2125551000")) {
				t.Errorf("late, choices 1: the list proves nothing (%v):\n%s", werr, b)
			}
		}
	}
}
