package sandbox

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// streamUpload posts a generated CSV of about size bytes without holding it
// in memory on the client side either.
func streamUpload(tb testing.TB, url string, size int64) (int, int64) {
	row := "John,Smith,123 Main Street,Springfield,IL,62701,555-0100,extra data to widen the row\r\n"
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	written := int64(0)
	go func() {
		fw, err := mw.CreateFormFile("file", "big.csv")
		if err == nil {
			_, err = io.WriteString(fw, "First,Last,Street,City,State,Zip,Phone,Note\r\n")
		}
		chunk := []byte(strings.Repeat(row, 1000))
		for err == nil && written < size {
			var n int
			n, err = fw.Write(chunk)
			written += int64(n)
		}
		if err == nil {
			err = mw.WriteField("column_mapping", ownersMapping) // after the file: spooling makes order free
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, _ := http.NewRequest("POST", url+"/traces", pr)
	req.Header.Set("Authorization", "Bearer "+DemoKey)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res.StatusCode, written
}

func bigConfig() Config {
	cfg := testConfig()
	cfg.Processing.MinSeconds = 3600 // measure the upload, not the processing
	cfg.RecordLimit = 10_000_000
	cfg.Keys[0].Credits = 1 << 40
	cfg.RateLimits.WritePerMinute = -1
	return cfg
}

// Memory per upload does not grow with the file: the file part is spooled to
// disk and scanned without a per-row allocation.
func TestUploadMemoryIsFlat(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads 16 MB; skipped in -short mode")
	}
	s := startT(t, bigConfig())
	streamUpload(t, s.URL(), 1<<20) // warm up connections and buffers
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	status, n := streamUpload(t, s.URL(), 16<<20)
	runtime.ReadMemStats(&after)
	if status != 201 {
		t.Fatalf("status %d", status)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d MB upload: %d KB allocated (client and server)", n>>20, alloc>>10)
	if alloc > 4<<20 {
		t.Errorf("a %d MB upload allocated %d KB; want a few MB at most, whatever the size", n>>20, alloc>>10)
	}
}

func BenchmarkUpload50MB(b *testing.B) {
	s, err := Start(bigConfig(), "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	const size = 50<<20 - 64<<10
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if status, _ := streamUpload(b, s.URL(), size); status != 201 {
			b.Fatal(fmt.Sprint("status ", status))
		}
	}
}

// Files that are one enormous record (no line breaks, a delimiter other
// than the comma, a header of countless columns) are refused with a 400
// naming the line, without the record ever being held in memory.
func TestHugeRecordsRefusedWithFlatMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("uploads 3 × 24 MB; skipped in -short mode")
	}
	const size = 24 << 20
	fill := func(b byte) func(io.Writer) {
		return func(w io.Writer) {
			chunk := bytes.Repeat([]byte{b}, 64<<10)
			for n := 0; n < size; n += len(chunk) {
				w.Write(chunk)
			}
		}
	}
	cases := []struct {
		name, header string
		body         func(io.Writer)
		want         string
	}{
		{"one field of 24 MB", "First,Last,Street,City,State,Zip\n", fill('a'), "line 2: a record (row) is longer than 1 MB"},
		{"24 MB of commas", "First,Last,Street,City,State,Zip\n", fill(','), "line 2: a record (row) has more than 16384 fields"},
		{"24 MB quoted field", "First,Last,Street,City,State,Zip\n\"", fill('q'), "line 2: a record (row) is longer than 1 MB"},
		{"a header of countless names", "", func(w io.Writer) {
			buf := make([]byte, 0, 64<<10)
			for i, n := 0, 0; n < size; i++ {
				buf = strconv.AppendInt(append(buf, 'h'), int64(i), 10)
				buf = append(buf, ',')
				if len(buf) > 60<<10 {
					w.Write(buf)
					n, buf = n+len(buf), buf[:0]
				}
			}
		}, "line 1: a record (row) has more than 16384 fields"},
	}
	s := startT(t, bigConfig())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			pr, pw := io.Pipe()
			mw := multipart.NewWriter(pw)
			go func() {
				mw.WriteField("column_mapping", ownersMapping)
				fw, _ := mw.CreateFormFile("file", "huge.csv")
				io.WriteString(fw, c.header)
				c.body(fw)
				pw.CloseWithError(mw.Close())
			}()
			r := do(t, "POST", s.URL()+"/traces", DemoKey, pr, mw.FormDataContentType())
			runtime.ReadMemStats(&after)
			assertValidation(t, r, "file", c.want)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
				t.Errorf("a %d MB record allocated %d MB", size>>20, alloc>>20)
			}
		})
	}
}
