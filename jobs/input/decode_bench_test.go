package input

import (
	"strings"
	"testing"
)

// BenchmarkUTF16Units is the check for UTF-16 without a byte-order mark on
// the 8 KB head of a CJK owner list, which reads every unit in both byte
// orders (the most it ever does for one file).
func BenchmarkUTF16Units(b *testing.B) {
	text := "名,姓,电话\r\n" + strings.Repeat("太郎,山田,2125550147\r\n花子,佐藤,\r\n", 200)
	head := []byte(utf16LE(text))[:8192]
	b.SetBytes(int64(len(head)))
	for b.Loop() {
		if utf16Units(head, false) != EncUTF16LE {
			b.Fatal("not read as UTF-16LE")
		}
	}
}
