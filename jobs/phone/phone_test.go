package phone

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs/testlists"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		in     string
		digits string
		ext    string
		valid  bool
		reason string
	}{
		{"2125550147", "2125550147", "", true, ""},
		{"(212) 555-0147", "2125550147", "", true, ""},
		{"212.555.0147", "2125550147", "", true, ""},
		{"+1 212-555-0147", "2125550147", "", true, ""},
		{"1 (212) 555 0147", "2125550147", "", true, ""},
		{"12125550147", "2125550147", "", true, ""},
		{"212-555-0147 x123", "2125550147", "123", true, ""},
		{"212-555-0147 X 9", "2125550147", "9", true, ""},
		{"212-555-0147 ext 45", "2125550147", "45", true, ""},
		{"212-555-0147 Ext. 45", "2125550147", "45", true, ""},
		{"212-555-0147 EXT45", "2125550147", "45", true, ""},
		{"212-555-0147#7", "2125550147", "7", true, ""},
		{"1-212-555-0147 ext. 2", "2125550147", "2", true, ""},
		{"  2125550147  ", "2125550147", "", true, ""},
		{"tel: 212 555 0147", "2125550147", "", true, ""},
		// Letters are dropped, not translated from a keypad.
		{"1-800-FLOWERS", "1800", "", false, ReasonTooShort},
		{"212-555-CALL", "212555", "", false, ReasonTooShort},
		// Excel's damage.
		{"2.12555E+09", "21255509", "", false, ReasonSci},
		{"1.23E+10", "12310", "", false, ReasonSci},
		{"2.125550147E+9", "21255501479", "", false, ReasonSci},
		{"2.12555014E+9", "2125550149", "", false, ReasonSci}, // 10 digits, still lost
		{"2125550147.0", "21255501470", "", false, ReasonNotNANP11},
		// Length.
		{"", "", "", false, ReasonBlank},
		{"   ", "", "", false, ReasonBlank},
		{"n/a", "", "", false, ReasonNoNumber},
		{"555-0147", "5550147", "", false, ReasonTooShort},
		{"212555014", "212555014", "", false, ReasonTooShort},
		{"212555014777", "212555014777", "", false, ReasonTooLong},
		{"22125550147", "22125550147", "", false, ReasonNotNANP11},
		{"+44 20 7946 0958", "442079460958", "", false, ReasonTooLong},
		// NANP rules.
		{"0125550147", "0125550147", "", false, ReasonAreaCode},
		{"1125550147", "1125550147", "", false, ReasonAreaCode},
		{"2120550147", "2120550147", "", false, ReasonExchange},
		{"2121550147", "2121550147", "", false, ReasonExchange},
		{"11125550147", "1125550147", "", false, ReasonAreaCode},
	}
	for _, tt := range tests {
		n := Normalize(tt.in)
		if n.Digits != tt.digits || n.Ext != tt.ext || n.Valid != tt.valid || n.Reason != tt.reason {
			t.Errorf("Normalize(%q) = %+v, want digits %q ext %q valid %v reason %q", tt.in, n, tt.digits, tt.ext, tt.valid, tt.reason)
		}
	}
}

func TestFormat(t *testing.T) {
	for in, want := range map[string]string{
		"2125550147":           "(212) 555-0147",
		"1-212-555-0147 ext 9": "(212) 555-0147 x9",
		"555-0147":             "",
	} {
		if got := Format(in); got != want {
			t.Errorf("Format(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Normalize("0125550147").String(); !strings.Contains(got, "area code") {
		t.Errorf("String of invalid = %q", got)
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{"2125550147", "+1 (212) 555-0147 ext. 12", "1.23E+10", "x", "#", "ext", "", "1-800-FLOWERS", "2125550147.0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		if want, ok := ruleRestated(s); ok != n.Valid || ok && want != n.Digits {
			t.Fatalf("Normalize(%q) = %+v; the rule restated says %q valid %v", s, n, want, ok)
		}
		if n.Valid {
			if len(n.Digits) != 10 || n.Digits[0] < '2' || n.Digits[3] < '2' || n.Reason != "" {
				t.Fatalf("Normalize(%q) = %+v: not a valid NANP number", s, n)
			}
			// Normalising the result gives the same number.
			if m := Normalize(n.Digits); !m.Valid || m.Digits != n.Digits {
				t.Fatalf("not idempotent: %q → %+v → %+v", s, n, m)
			}
			if m := Normalize(n.Format()); !m.Valid || m.Digits != n.Digits || m.Ext != n.Ext {
				t.Fatalf("Format does not round-trip: %q → %q → %+v", s, n.Format(), m)
			}
		} else if n.Reason == "" {
			t.Fatalf("Normalize(%q) invalid without a reason", s)
		}
		for _, c := range n.Digits + n.Ext {
			if c < '0' || c > '9' {
				t.Fatalf("non-digit in %+v", n)
			}
		}
		if !utf8.ValidString(n.Format()) {
			t.Fatal("Format gave invalid UTF-8")
		}
	})
}

// ruleRestated is the provider's rule written again, independently: a
// value in Excel's scientific form is invalid; the value is cut at its
// first "x" or "#" (and at the "e" of an "ex" before it); of the digits
// left, 11 starting with 1 lose it; 10 digits whose area code and
// exchange start with 2-9 are a number.
func ruleRestated(s string) (string, bool) {
	if sciForm.MatchString(strings.TrimSpace(s)) {
		return "", false
	}
	low := strings.ToLower(s)
	if i := strings.IndexAny(low, "x#"); i >= 0 {
		low = strings.TrimSuffix(low[:i], "e")
	}
	var d []byte
	for _, c := range []byte(low) {
		if c >= '0' && c <= '9' {
			d = append(d, c)
		}
	}
	if len(d) == 11 && d[0] == '1' {
		d = d[1:]
	}
	if len(d) != 10 || d[0] < '2' || d[3] < '2' {
		return "", false
	}
	return string(d), true
}

var sciForm = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?[eE][+-]?[0-9]+$`)

func TestScanColumn(t *testing.T) {
	p := testlists.WriteFile(t, "phones.csv", "Name,Cell\r\n"+
		"Ann,(212) 555-0147\r\n"+
		"Bo,2125550147\r\n"+ // duplicate of line 2
		",\r\n"+ // blank record: not a row
		"Cy,\r\n"+ // blank phone
		"Di,1.23E+10\r\n"+
		"Ed,1-305-555-0101 x12\r\n"+
		"Fa,555-0199\r\n")
	s, err := ScanColumn(context.Background(), p, "Cell", ScanOptions{Examples: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := Scan{Rows: 6, Valid: 3, Invalid: 3, Blank: 1, Unique: 2, Duplicates: 1, Reformatted: 2, Extensions: 1}
	if s.Rows != want.Rows || s.Valid != want.Valid || s.Invalid != want.Invalid || s.Blank != want.Blank ||
		s.Unique != want.Unique || s.Duplicates != want.Duplicates || s.Reformatted != want.Reformatted || s.Extensions != want.Extensions {
		t.Errorf("scan = %+v", s)
	}
	if s.Reasons[ReasonSci] != 1 || s.Reasons[ReasonBlank] != 1 || s.Reasons[ReasonTooShort] != 1 {
		t.Errorf("reasons = %v", s.Reasons)
	}
	if len(s.Examples) != 2 || s.Examples[0].String() != `"(212) 555-0147" -> 2125550147` || s.Examples[1].Normalized != "3055550101" {
		t.Errorf("examples = %v", s.Examples)
	}
	if len(s.InvalidExamples) != 2 || s.InvalidExamples[0].Line != 5 || s.InvalidExamples[1].Reason != ReasonSci {
		t.Errorf("invalid examples = %+v", s.InvalidExamples)
	}
	if len(s.InvalidRows) != 0 {
		t.Errorf("invalid rows listed unasked: %+v", s.InvalidRows)
	}
	// Every invalid row listed, in file order, up to the number asked.
	for _, tt := range []struct{ list, want int }{{10, 3}, {2, 2}} {
		s, err := ScanColumn(context.Background(), p, "Cell", ScanOptions{Examples: 1, ListInvalid: tt.list})
		if err != nil {
			t.Fatal(err)
		}
		want := []Example{{Line: 5, Raw: "", Reason: ReasonBlank}, {Line: 6, Raw: "1.23E+10", Reason: ReasonSci}, {Line: 8, Raw: "555-0199", Reason: ReasonTooShort}}
		if !reflect.DeepEqual(s.InvalidRows, want[:tt.want]) || len(s.InvalidExamples) != 1 {
			t.Errorf("list %d: invalid rows %+v", tt.list, s.InvalidRows)
		}
	}
}

func TestScanColumnErrors(t *testing.T) {
	p := testlists.WriteFile(t, "phones.csv", "Name,Cell\nAnn,2125550147\n")
	if _, err := ScanColumn(context.Background(), p, "Phone", ScanOptions{}); err == nil || !strings.Contains(err.Error(), "Phone") || !strings.Contains(err.Error(), "phones.csv") {
		t.Errorf("missing column: %v", err)
	}
	if _, err := ScanColumn(context.Background(), filepath.Join(t.TempDir(), "none.csv"), "Cell", ScanOptions{}); err == nil {
		t.Error("missing file: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ScanColumn(ctx, p, "Cell", ScanOptions{}); err == nil {
		t.Error("cancelled context: no error")
	}
}

// TestNumberSetMatchesMap: the compact set agrees with a map on random
// numbers with repeats, across the growth of its tables.
func TestNumberSetMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var s numberSet
	m := map[uint64]bool{}
	for i := 0; i < 300_000; i++ {
		n := 2_000_000_000 + rng.Uint64N(8_000_000_000)
		if i%3 == 0 {
			n = 2_125_550_000 + rng.Uint64N(2_000) // many repeats
		}
		if s.add(n) != !m[n] {
			t.Fatalf("add(%d) after %d numbers disagrees with the map", n, i)
		}
		m[n] = true
	}
	if s.len() != len(m) {
		t.Errorf("len %d, map %d", s.len(), len(m))
	}
	for _, n := range []uint64{0, 1023, 1024, 9_999_999_999} {
		if !s.add(n) || s.add(n) {
			t.Errorf("%d: first add must be new, the second not", n)
		}
	}
}

// Key agrees with Normalize on every input: the same numbers are valid, with
// the same 10 digits.
func TestKeyMatchesNormalize(t *testing.T) {
	alphabet := []byte("0123456789012345678901 ()-.+xX#eEtT1\u00a0")
	rnd := rand.New(rand.NewPCG(3, 4))
	inputs := []string{"", " ", "2125550147", "12125550147", "1-212-555-0147 ext. 9", "02125550147",
		"1.23E+10", "212-155-0147", "112-555-0147", "121255501470", "(212) 555-0147#3", "\u00a02125550147\u00a0"}
	for range 200000 {
		b := make([]byte, rnd.IntN(18))
		for i := range b {
			b[i] = alphabet[rnd.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		n, k := Normalize(in), Key(in)
		if n.Valid != (k != 0) || n.Valid && KeyDigits(k) != n.Digits {
			t.Fatalf("%q: Normalize %+v, Key %d", in, n, k)
		}
		if plain := (Number{Digits: n.Digits, Valid: n.Valid}); n.Valid && FormatKey(k) != plain.Format() {
			t.Fatalf("%q: FormatKey %q, Format %q", in, FormatKey(k), plain.Format())
		}
	}
}

func BenchmarkKey(b *testing.B) {
	in := []string{"(212) 555-0147", "+1 305.555.0101 ext. 12", "2125550147", "1.23E+10", "555-0147"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Key(in[i%len(in)])
	}
}

// A whole number written as a float is read for a list; anything else is
// left to the provider's rule.
func TestForList(t *testing.T) {
	for in, want := range map[string]string{
		"5125550101.0": "5125550101", " 15125550101.00 ": "15125550101", "5125550101": "5125550101",
		"5125550101.5": "5125550101.5", "512.555.0101": "512.555.0101", "5125550101.": "5125550101.",
		"512555010.0": "512555010.0", "(512) 555-0101.0": "(512) 555-0101.0", "512555010100.0": "512555010100.0",
	} {
		if got := ForList(in); got != want {
			t.Errorf("ForList(%q) = %q, want %q", in, got, want)
		}
	}
	if Key(ForList("5125550101.0")) != 5125550101 || Key("5125550101.0") != 0 {
		t.Error("a float's number is read for a list alone")
	}
}

// A cell of several numbers is not one number, and says why.
func TestNormalizeSeveral(t *testing.T) {
	for _, v := range []string{"512-555-0101; 512-555-0102", "5125550101 / 5125550102"} {
		if n := Normalize(v); n.Valid || n.Reason != ReasonSeveral {
			t.Errorf("Normalize(%q) = %+v", v, n)
		}
	}
	if n := Normalize("51255501015125550102"); n.Reason != ReasonTooLong {
		t.Errorf("twenty digits: %+v", n)
	}
}
