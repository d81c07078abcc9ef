package input

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf16"
)

func utf16LE(s string) string {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

func utf16BE(s string) string {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u>>8), byte(u))
	}
	return string(b)
}

// decodeAll decodes raw, the source giving one byte per read or many, and
// the decoder read with buffers of readSize bytes (small ones go through
// its own buffer, large ones are converted in place).
func decodeAll(t *testing.T, raw []byte, oneByte bool, readSize int) (string, *textDecoder) {
	t.Helper()
	var src io.Reader = bytes.NewReader(raw)
	if oneByte {
		src = iotest.OneByteReader(src)
	}
	d, bad := detect(raw)
	if bad != "" {
		t.Fatalf("detect: %s", bad)
	}
	text, td := newTextReader(bufio.NewReaderSize(src, 16), d)
	var out []byte
	buf := make([]byte, readSize)
	for {
		n, err := text.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return string(out), td
}

func TestTextDecoder(t *testing.T) {
	long := strings.Repeat("plain ascii line,\n", 10000) // past the first chunks
	tests := []struct {
		name  string
		raw   string
		want  string
		enc   string
		mixed int64
	}{
		{"ascii", "a,b\n", "a,b\n", EncUTF8, 0},
		{"utf8", "Jos\xc3\xa9\n", "José\n", EncUTF8, 0},
		{"1252", "Jos\xe9 Pe\xf1a \x80\n", "José Peña €\n", EncCP1252, 0},
		{"1252 after 180 KB of ASCII", long + "Jos\xe9\n", long + "José\n", EncCP1252, 0},
		{"utf8 after 180 KB of ASCII", long + "Jos\xc3\xa9\n", long + "José\n", EncUTF8, 0},
		{"1252 bytes in a UTF-8 file", "Jos\xc3\xa9 Pe\xf1a\n", "José Peña\n", EncUTF8, 1},
		{"truncated sequence at the end", "ab\xc3", "abÃ", EncCP1252, 0},
		{"4-byte sequence", "x\xf0\x9f\x98\x80y", "x😀y", EncUTF8, 0},
		{"sequences across reads", strings.Repeat("é€😀", 3000), strings.Repeat("é€😀", 3000), EncUTF8, 0},
		{"1252 across reads", strings.Repeat("caf\xe9 ", 3000), strings.Repeat("café ", 3000), EncCP1252, 0},
		{"mixed across reads", strings.Repeat("é\xe9", 3000), strings.Repeat("éé", 3000), EncUTF8, 3000},
	}
	for _, tt := range tests {
		for _, c := range []struct {
			oneByte  bool
			readSize int
		}{{false, 7}, {true, 7}, {false, directRead}, {true, directRead}, {false, 70000}, {false, directRead + 3}} {
			got, td := decodeAll(t, []byte(tt.raw), c.oneByte, c.readSize)
			if got != tt.want {
				t.Errorf("%s (%+v): got %q, want %q", tt.name, c, shorten(got), shorten(tt.want))
			}
			if td.Encoding() != tt.enc || td.Mixed != tt.mixed {
				t.Errorf("%s: encoding %s mixed %d, want %s %d", tt.name, td.Encoding(), td.Mixed, tt.enc, tt.mixed)
			}
		}
	}
}

// TestTextDecoderMixedFiles: a file pasted together from a Windows-1252
// part and a UTF-8 part reads right whichever comes first, and the decoder
// says where in its output the first character of the other encoding is.
func TestTextDecoderMixedFiles(t *testing.T) {
	long := strings.Repeat("plain ascii line,\n", 10000)
	tests := []struct {
		name       string
		raw, want  string
		enc        string
		mixed      int64 // bytes read as 1252 in a UTF-8 file
		mixedUTF8  int64 // characters read as UTF-8 in a 1252 file
		firstMixed int64
	}{
		{"1252 then UTF-8", "Zo\xeb\nJos\xc3\xa9 Pe\xc3\xb1a\n", "Zoë\nJosé Peña\n", EncCP1252, 0, 2, len64("Zoë\nJos")},
		{"UTF-8 then 1252", "Jos\xc3\xa9\nZo\xeb\n", "José\nZoë\n", EncUTF8, 1, 0, len64("José\nZo")},
		{"1252 then UTF-8 far down", "Zo\xeb\n" + long + "\xe2\x82\xac\xf0\x9f\x98\x80", "Zoë\n" + long + "€😀", EncCP1252, 0, 2, len64("Zoë\n" + long)},
		{"UTF-8 across reads in a 1252 file", "\xe9" + strings.Repeat("a\xc3\xa9", 3000), "é" + strings.Repeat("aé", 3000), EncCP1252, 0, 3000, len64("éa")},
		{"1252 lead bytes that are not UTF-8", "\xc9t\xe9 \xc3 \xd1\n", "Été Ã Ñ\n", EncCP1252, 0, 0, -1},
	}
	for _, tt := range tests {
		for _, c := range []struct {
			oneByte  bool
			readSize int
		}{{false, 7}, {true, 7}, {false, directRead}, {true, directRead}, {false, 70000}} {
			got, td := decodeAll(t, []byte(tt.raw), c.oneByte, c.readSize)
			if got != tt.want {
				t.Errorf("%s (%+v): got %q, want %q", tt.name, c, shorten(got), shorten(tt.want))
			}
			if td.Encoding() != tt.enc || td.Mixed != tt.mixed || td.MixedUTF8 != tt.mixedUTF8 || td.FirstMixed != tt.firstMixed {
				t.Errorf("%s (%+v): encoding %s mixed %d/%d at %d, want %s %d/%d at %d", tt.name, c,
					td.Encoding(), td.Mixed, td.MixedUTF8, td.FirstMixed, tt.enc, tt.mixed, tt.mixedUTF8, tt.firstMixed)
			}
		}
	}
}

func len64(s string) int64 { return int64(len(s)) }

func shorten(s string) string {
	if len(s) > 60 {
		return "…" + s[len(s)-40:]
	}
	return s
}

func TestDetect(t *testing.T) {
	tests := []struct {
		raw, enc, bad string
	}{
		{"a,b\n", EncUTF8, ""},
		{"\xef\xbb\xbfa", EncUTF8BOM, ""},
		{"\xff\xfea\x00", EncUTF16LE, ""},
		{"\xfe\xff\x00a", EncUTF16BE, ""},
		{"a\x00,\x00b\x00\n\x00", EncUTF16LE, ""},
		{"\x00a\x00,\x00b\x00\n", EncUTF16BE, ""},
		{"", "", "the file is empty"},
		{"\x1f\x8b\x08", "", "gzip"},
		{"a,b\n1,\x002\n", EncUTF8, ""}, // a lone NUL is reported per line, not as binary
		{strings.Repeat("\x00\x01\x02\x03", 50), "", "not a text file"},
		// UTF-16 without a mark, of text with few zero bytes (CJK).
		{utf16LE("名,姓\n太郎,山田\n花子,佐藤\n"), EncUTF16LE, ""},
		{utf16BE("名,姓\n太郎,山田\n花子,佐藤\n"), EncUTF16BE, ""},
		{utf16LE("名前,電話"), EncUTF16LE, ""},                       // one line, the whole file
		{utf16LE("名前,電話\n") + "\x00\xd8", EncUTF8, ""},           // a lone surrogate: not UTF-16
		{utf16LE("名前,電話\n") + "\x07\x00", "", "not a text file"}, // a control character
		{"a,b\n\x00\n1,2\n\x00\n", EncUTF8, ""},                  // NULs in UTF-8 text
	}
	for _, tt := range tests {
		d, bad := detect([]byte(tt.raw))
		if d.enc != tt.enc || !strings.Contains(bad, tt.bad) || (tt.bad == "") != (bad == "") {
			t.Errorf("detect(%q) = %q, %q; want %q, %q", tt.raw, d.enc, bad, tt.enc, tt.bad)
		}
	}
}

func TestSniffDelimiter(t *testing.T) {
	tests := []struct {
		text string
		want byte
	}{
		{"a,b,c\n1,2,3\n", ','},
		{"a;b;c\n1;2,5;3\n4;5;6\n", ';'},
		{"a\tb\n\"x\ty\"\t2\n", '\t'},
		{"Name|Address\nSmith, John|1 Main, Apt 2\nDoe, Jane|2 Oak, Apt 3\n", '|'},
		{"Phone\n2125550147\n", ','},
		{"title line\n\na,b,c\n1,2,3\n4,5,6\n", ','},
		{"a,b\r1,2\r", ','},
		// A one-column list, now and then two numbers in a cell: not split
		// at the ';' of a few lines.
		{"Mobile\n5125550101\n5125550102; 5125550103\n5125550104\n", ','},
		{"Phone;Name\n5125550101;Ann\n5125550102;\n", ';'},
		// A title of more lines than its rows: from the header on, ';'.
		{"Report\nExported today\nBy the portal\nFor the owner\n\nPhone;Name\n5125550101;Ann\n5125550102;Bob\n", ';'},
		{"a;b;c\n", ';'},
	}
	for _, tt := range tests {
		if got := sniffDelimiter([]byte(tt.text), true); got != tt.want {
			t.Errorf("sniffDelimiter(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestGuessColumns(t *testing.T) {
	tests := []struct {
		headers []string
		want    []int
	}{
		{[]string{"Owner 1 First Name", "Owner 1 Last Name", "Owner 2 First Name", "Mail Address"}, []int{0, 1}},
		{[]string{"Phone", "FirstName", "LastName"}, []int{1, 2}},
		{[]string{"Owner Name", "Owner Mailing Address", "Owner Occupied"}, []int{0}},
		{[]string{"Full Name", "Property Address"}, []int{0}},
		{[]string{"Company", "Zip"}, []int{0}},
		{[]string{"Phone", "Zip"}, nil},
		{[]string{"first_name", "last_name", "Owner Name"}, []int{0, 1}},
	}
	for _, tt := range tests {
		if got := guessNameColumns(tt.headers); !equalInts(got, tt.want) {
			t.Errorf("guessNameColumns(%q) = %v, want %v", tt.headers, got, tt.want)
		}
	}
	for h, want := range map[string]bool{"Zip": true, "Mail Zip": true, "ZIP Code": true, "zipcode": true,
		"Postal Code": true, "Zip5": true, "Zipper": false, "Site City": false} {
		if isZipHeader(h) != want {
			t.Errorf("isZipHeader(%q) = %v", h, !want)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestIsSci(t *testing.T) {
	for s, want := range map[string]bool{"1.23E+10": true, "2.01555E+09": true, "1E+10": true, "1.2e10": true,
		"6.02E-05": true, "2125550147": false, "E+10": false, "1.E+10": false, "1.23E+": false, "12 Elm": false,
		"1234 East St": false, "3E": false} {
		b := []byte(s)
		if got := maybeSci(b) && isSci(b); got != want {
			t.Errorf("isSci(%q) = %v", s, got)
		}
	}
}

func TestDistinctHeaders(t *testing.T) {
	got := distinctHeaders([]string{" Phone ", "Phone", "", "Phone (2)", "  ", "phone"})
	want := []string{"Phone", "Phone (3)", "Column 3", "Phone (2)", "Column 5", "phone (4)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestDupCounterMatchesMap(t *testing.T) {
	var d dupCounter
	seen := map[uint64]bool{}
	dups, first := 0, 0
	x := uint64(1)
	for line := 1; line <= 200000; line++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		h := x % 50000 * 0x9e3779b97f4a7c15 // many repeats, spread over all parts
		if seen[h] {
			dups++
			if first == 0 {
				first = line
			}
		}
		seen[h] = true
		d.add(h, line)
	}
	d.flush()
	if d.dups != dups || d.firstLine != first || d.distinct() != len(seen) {
		t.Errorf("dupCounter: %d dups (first %d), %d distinct; map: %d (first %d), %d", d.dups, d.firstLine, d.distinct(), dups, first, len(seen))
	}
}

func TestSplitLineMatchesBytesSplit(t *testing.T) {
	alphabet := []byte{',', ';', 'a', 'Z', ' ', '\t', '|', 0x80, 0xff, '"', 0, '\r', 0x7f, 0x01}
	x := uint64(12345)
	for n := range 3000 {
		line := make([]byte, n%40)
		for i := range line {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			line[i] = alphabet[x%uint64(len(alphabet))]
		}
		for _, d := range delimiters {
			got, special := splitLine(nil, line, d, '\r')
			wantSpecial := bytes.IndexByte(line, '"') >= 0 || bytes.IndexByte(line, 0) >= 0 || bytes.IndexByte(line, '\r') >= 0
			if special != wantSpecial {
				t.Fatalf("splitLine(%q, %q): special %v", line, d, special)
			}
			if special {
				continue
			}
			want := bytes.Split(line, []byte{d})
			if len(got) != len(want) {
				t.Fatalf("splitLine(%q, %q) = %q, want %q", line, d, got, want)
			}
			for i := range got {
				if !bytes.Equal(got[i], want[i]) {
					t.Fatalf("splitLine(%q, %q) = %q, want %q", line, d, got, want)
				}
			}
		}
	}
}
