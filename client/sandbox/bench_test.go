package sandbox

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// ownerList is a generated owner list of n rows, some of them companies.
func ownerList(n int) []byte {
	var b bytes.Buffer
	b.WriteString("First,Last,Street,City,State,Zip,Phone,Note\r\n")
	for i := range n {
		first := fmt.Sprintf("Owner%d", i)
		if i%7 == 0 {
			first = fmt.Sprintf("\"Acme %d Holdings, LLC\"", i)
		}
		fmt.Fprintf(&b, "%s,Smith,%d Main Street,Springfield,IL,62701,555-0100,note %d\r\n", first, i, i)
	}
	return b.Bytes()
}

// The sandbox's scanner against encoding/csv alone counting records (the
// peer of TARGETS.md); both read the same bytes from memory.
func BenchmarkCSVScanner(b *testing.B) {
	data := ownerList(100_000)
	b.Run("scanner", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			sc := newCSVScanner(bytes.NewReader(data))
			n := 0
			for sc.Next() {
				if !sc.Blank() && isEntityName(sc.Field(0), sc.Field(1)) {
					n++
				}
			}
			if sc.Err() != nil || n == 0 {
				b.Fatal(sc.Err(), n)
			}
		}
	})
	b.Run("encoding_csv", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			r := csv.NewReader(bytes.NewReader(data))
			r.ReuseRecord = true
			r.FieldsPerRecord = -1
			for {
				_, err := r.Read()
				if err == io.EOF {
					break
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// Producing the result file of a 100k-row trace at completion.
func BenchmarkFinalize100k(b *testing.B) {
	data := ownerList(100_000)
	cfg := testConfig()
	cfg.Processing.MinSeconds = 3600
	cfg.Keys[0].Credits = 1 << 40
	s, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	h := s.Handler()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		body, ct := multipartBody(b, part{name: "file", filename: "big.csv", body: string(data)},
			part{name: "column_mapping", body: ownersMapping}, part{name: "include_llcs", body: "true"})
		req := httptest.NewRequest("POST", "/v1/traces", body)
		req.Header.Set("Authorization", "Bearer "+DemoKey)
		req.Header.Set("Content-Type", ct)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 201 {
			b.Fatal(rec.Code, rec.Body)
		}
		b.StartTimer()
		s.FinishPending()
	}
	b.StopTimer()
	matches, _ := filepath.Glob(filepath.Join(s.dir, "result-*.csv"))
	if len(matches) == 0 {
		b.Fatal("no result file")
	}
	st, _ := os.Stat(matches[0])
	b.ReportMetric(float64(st.Size())/float64(len(data)), "out/in")
}
