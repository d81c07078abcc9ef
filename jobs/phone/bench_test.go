package phone

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func BenchmarkNormalize(b *testing.B) {
	in := []string{"(212) 555-0147", "+1 305.555.0101 ext. 12", "2125550147", "1.23E+10", "555-0147"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Normalize(in[i%len(in)])
	}
}

func BenchmarkScanColumn(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("Name,Cell,Email\n")
	for i := 0; sb.Len() < 8<<20; i++ {
		fmt.Fprintf(&sb, "Owner %d,(%d) 555-%04d,o%d@example.com\n", i, 200+i%800, i%10000, i)
	}
	p := filepath.Join(b.TempDir(), "phones.csv")
	if err := os.WriteFile(p, []byte(sb.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(sb.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ScanColumn(context.Background(), p, "Cell", ScanOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
