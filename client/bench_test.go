package client

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/client/sandbox"
)

// benchFile writes an owner list of just under 50 MB (or uses
// SKIPDESK_BENCH_FILE).
func benchFile(b *testing.B) (string, int64) {
	b.Helper()
	if p := os.Getenv("SKIPDESK_BENCH_FILE"); p != "" {
		st, err := os.Stat(p)
		if err != nil {
			b.Fatal(err)
		}
		return p, st.Size()
	}
	p := filepath.Join(b.TempDir(), "owners-50mb.csv")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	k, _ := fmt.Fprint(w, "First,Last,Street,City,State,Zip\n")
	n += int64(k)
	for i := 0; ; i++ {
		line := fmt.Sprintf("John%d,Smith%d,%d Main St,Austin,TX,%05d\n", i, i%977, i%9999, 10000+i%89999)
		if n+int64(len(line)) > MaxUploadBytes-1024 {
			break
		}
		w.WriteString(line)
		n += int64(len(line))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return p, n
}

// BenchmarkUpload50MB uploads a 50 MB list with POST /traces to the sandbox:
// an external one at SKIPDESK_BENCH_URL (then B/op is the client's alone;
// bench/upload.sh does this), else one in this process (B/op then includes
// the sandbox's own allocations).
func BenchmarkUpload50MB(b *testing.B) {
	url := os.Getenv("SKIPDESK_BENCH_URL")
	if url == "" {
		cfg := sandbox.DefaultConfig()
		cfg.Keys[0].Credits = 1 << 40
		cfg.RecordLimit = 100_000_000
		cfg.RateLimits = sandbox.RateLimits{ReadPerMinute: -1, WritePerMinute: -1}
		cfg.Processing = sandbox.Processing{MinSeconds: 3600} // jobs stay processing: no result files written
		srv, err := sandbox.Start(cfg, "127.0.0.1:0")
		if err != nil {
			b.Fatal(err)
		}
		defer srv.Close()
		url = srv.URL()
	}
	benchUpload(b, url)
}

// BenchmarkUpload50MBDiscard uploads to a server that discards the body:
// the client's cost alone, in one process.
func BenchmarkUpload50MBDiscard(b *testing.B) {
	url := newLoopbackServer(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(201)
		io.WriteString(w, `{"success":true,"id":"trc_1","status":"processing"}`)
	})) + "/v1"
	benchUpload(b, url)
}

func benchUpload(b *testing.B, url string) {
	path, size := benchFile(b)
	c, err := New(url, sandbox.DemoKey)
	if err != nil {
		b.Fatal(err)
	}
	up := &TraceUpload{Path: path, ColumnMapping: ownersMapping}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Traces.Create(context.Background(), up); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeListPage100 is the client's share of one tracker poll: a
// page of 100 traces decoded item by item, its text cleaned and the key
// redacted.
func BenchmarkDecodeListPage100(b *testing.B) {
	var page strings.Builder
	page.WriteString(`{"_metadata":{"page":1,"per_page":100,"page_count":3,"total_count":250},"traces":[`)
	for i := range 100 {
		if i > 0 {
			page.WriteByte(',')
		}
		fmt.Fprintf(&page, `{"id":"trc_%020d","type":"bulk","status":"processing","mode":"normal","include_llcs":true,"total_rows":40000,`+
			`"entity_rows":1200,"credits_charged":41200,"credits_refunded":0,"name":"county owners %d [sd-7f3k2].csv","download_url":null,`+
			`"created_at":"2026-11-24T10:00:00.000Z","error_message":null}`, i, i)
	}
	page.WriteString(`]}`)
	data := []byte(page.String())
	c, err := New("https://api.example.com/v1", "sk_live_"+strings.Repeat("k7Qx", 8))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		var l TraceList
		if err := json.Unmarshal(data, &l); err != nil || len(l.Traces) != 100 {
			b.Fatal(err)
		}
		sanitize(&l, c.text, c.red.redact)
	}
}
