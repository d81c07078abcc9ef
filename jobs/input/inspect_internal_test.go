package input

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// normalizeDef is the definition normalize implements.
func normalizeDef(f []byte) []byte {
	var out []byte
	for _, r := range string(f) {
		switch {
		case r >= 'a' && r <= 'z':
			out = append(out, byte(r-32))
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
			out = append(out, byte(r))
		case r >= 0xC0 && r <= 0xFF:
			out = append(out, latinFold[r-0xC0]...)
		case r >= 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			out = utf8.AppendRune(out, unicode.ToUpper(r))
		}
	}
	return out
}

func TestNormalizeFoldsAccents(t *testing.T) {
	var a, b [keyBufSize]byte
	for _, pair := range [][2]string{{"José Peña", "JOSE PENA"}, {"Müller", "mueller"[:1] + "uller"}, {"Ærø", "AERO"}, {"Straße", "STRASSE"}, {"Ωmega", "ωMEGA"}} {
		ka := normalize(&a, 0, []byte(pair[0]), &normTab)
		kb := normalize(&b, 0, []byte(pair[1]), &normTab)
		if !bytes.Equal(a[:ka], b[:kb]) {
			t.Errorf("%q → %q, %q → %q: want equal", pair[0], a[:ka], pair[1], b[:kb])
		}
	}
}

func TestNormalizeMatchesDefinition(t *testing.T) {
	inputs := []string{"", "a", "Smith, John.", "  Smith,  John. ", "abcdefgh", "ABCDEFGHijklmnop123",
		"8208 Park Ave", "james881@example.com", "Zoë Müller-Peña", "日本語 ×÷ ẞ \xff\xfe bad utf8 \xc3", "`{@[/:", "azAZ09azAZ09az`{@[/:azAZ",
		"\x7f\x00\x01abcdefgh\xffabcdefghij"}
	for c := 0; c < 256; c++ { // every byte inside an 8-byte block
		inputs = append(inputs, "abc"+string([]byte{byte(c)})+"defghij")
	}
	for _, in := range inputs {
		var b [keyBufSize]byte
		k := normalize(&b, 3, []byte(in), &normTab)
		if got, want := b[3:k], normalizeDef([]byte(in)); !bytes.Equal(got, want) {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// Rows of thousands of columns: a batch is handed over once its spans
// reach batchSpans, whatever the bytes of its data (empty fields have
// none), so that batches in flight stay small.
func TestRowWorkerBatchesOfWideRows(t *testing.T) {
	const width = 20000
	idx := make([]int, width)
	for i := range idx {
		idx[i] = i
	}
	w := newRowWorker(width, idx, nil, 0, 0)
	defer w.finish()
	row := make([][]byte, width)
	row[0] = []byte("x")
	for n := range 200 {
		w.add(row, nil, false, n+2)
		if len(w.cur.spans) >= batchSpans {
			t.Fatalf("after %d rows the batch holds %d spans", n+1, len(w.cur.spans))
		}
	}
}

// The sample of a very wide file holds fewer rows.
func TestSampleOfWideRows(t *testing.T) {
	var b bytes.Buffer
	for r := range 30 {
		for c := range MaxFields {
			if c > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%c%d", 'a'+r%26, c)
		}
		b.WriteByte('\n')
	}
	ins, err := Inspect(context.Background(), writeFile(t, "wide.csv", b.Bytes()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ins.Rows != 29 || len(ins.Sample) != maxSampleCells/MaxFields {
		t.Errorf("%d rows, %d in the sample; want 29, %d", ins.Rows, len(ins.Sample), maxSampleCells/MaxFields)
	}
}

// InspectWith hands its tap every data row once the sample is read, the
// sample's first, in file order: with a sample shorter than the file,
// longer, or none.
func TestInspectWithTapsEveryRow(t *testing.T) {
	var b strings.Builder
	b.WriteString("First,Last,Zip\n")
	var want []string
	wantLine := map[string]int{}
	line := 1
	for i := range 45 {
		line++
		if i == 12 { // a quoted field over two lines: the row's line is its first
			fmt.Fprintf(&b, "F%d,\"L%d\nsecond line\",%05d\n", i, i, i)
			wantLine[fmt.Sprintf("F%d", i)] = line
			line++
		} else {
			fmt.Fprintf(&b, "F%d,L%d,%05d\n", i, i, i)
			wantLine[fmt.Sprintf("F%d", i)] = line
		}
		if i == 7 {
			b.WriteString(",,\n") // blank: not a row
			line++
		}
		want = append(want, fmt.Sprintf("F%d", i))
	}
	p := filepath.Join(t.TempDir(), "list.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	sum, _, err := HashFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, sample := range []int{20, 100, -1} {
		var got []string
		var atStart int
		ins, err := InspectWith(context.Background(), p, Options{SampleRows: sample, Hash: true}, func(ins *Inspection) (Tap, error) {
			atStart = len(ins.Sample)
			return func(row []string, line int) error {
				if want := wantLine[row[0]]; line != want {
					return fmt.Errorf("%s: line %d, want %d", row[0], line, want)
				}
				got = append(got, row[0])
				return nil
			}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) || ins.Rows != len(want) {
			t.Errorf("sample %d: tapped %v (%d rows inspected)", sample, got, ins.Rows)
		}
		if ins.SHA256 != sum {
			t.Errorf("sample %d: the inspection's hash %q, the file's %q", sample, ins.SHA256, sum)
		}
		if wantStart := max(min(sample, len(want)), 0); atStart != wantStart {
			t.Errorf("sample %d: started with %d sample rows, want %d", sample, atStart, wantStart)
		}
	}
}

// A tap's error stops the reading and is InspectWith's, whether the tap
// fails on a sample row (on the reading goroutine) or on a later one (on
// the row worker's); the rows are handed in file order across batches.
func TestInspectWithTapError(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("First,Last,Zip\n")
	const rows = 3*batchRows + 17
	for i := range rows {
		if i%3 == 0 { // a quoted field: read field by field, not as a whole line
			fmt.Fprintf(&b, "F%d,\"L%d\",%05d\n", i, i, i)
		} else {
			fmt.Fprintf(&b, "F%d,L%d,%05d\n", i, i, i)
		}
	}
	p := filepath.Join(t.TempDir(), "list.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop here")
	for _, at := range []int{3, batchRows + 5, rows - 1, -1} {
		n := 0
		_, err := InspectWith(context.Background(), p, Options{}, func(*Inspection) (Tap, error) {
			return func(row []string, _ int) error {
				if want := fmt.Sprintf("F%d", n); row[0] != want || row[1] != fmt.Sprintf("L%d", n) {
					return fmt.Errorf("row %d: %v, want %s first", n, row, want)
				}
				if n == at {
					return stop
				}
				n++
				return nil
			}, nil
		})
		switch {
		case at >= 0 && !errors.Is(err, stop):
			t.Errorf("failing at row %d: %v", at, err)
		case at < 0 && (err != nil || n != rows):
			t.Errorf("%d rows tapped of %d: %v", n, rows, err)
		}
	}
}
