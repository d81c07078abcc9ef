package input

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestPadZip(t *testing.T) {
	for in, want := range map[string]string{"2134": "02134", " 2134 ": "02134", "2134-5678": "02134-5678", "02134": "02134",
		"78701": "78701", "213": "213", "21a4": "21a4", "": ""} {
		got, ok := PadZip(in)
		if wantOK := want != in; got != want || ok != wantOK {
			t.Errorf("PadZip(%q) = %q, %v; want %q, %v", in, got, ok, want, wantOK)
		}
	}
}

func TestInspectCountsShortZipsPerColumn(t *testing.T) {
	p := filepath.Join(t.TempDir(), "zips.csv")
	os.WriteFile(p, []byte("Name,Zip,Mail Zip\nAnn,2134,78701\nBo,7030,7030-1234\nCy,10001,\n"), 0o600)
	ins, err := Inspect(context.Background(), p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ins.ShortZipsIn, []int{0, 2, 1}) || ins.ShortZips != 3 {
		t.Errorf("short zips %d, per column %v", ins.ShortZips, ins.ShortZipsIn)
	}
}

// A delimiter reads as the words after "fields separated by"; an unusual
// one is shown quoted.
func TestDelimiterName(t *testing.T) {
	for d, want := range map[rune]string{',': "commas", ';': "semicolons", '\t': "tabs", '|': "pipes", ':': "':'"} {
		if got := DelimiterName(d); got != want {
			t.Errorf("DelimiterName(%q) = %q, want %q", d, got, want)
		}
	}
}
