package workflow

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs/index/indextest"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// heldSandbox is a sandbox behind a handler that can hold a result's
// download half-way and the job lists' polls, each until the client gives
// up: work in flight at the moment the app closes.
type heldSandbox struct {
	url                  string
	holdDownloads        atomic.Bool
	holdPolls            atomic.Bool
	downloading, polling chan struct{}
}

func startHeldSandbox(t *testing.T) *heldSandbox {
	t.Helper()
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 0.2, RowsPerSecond: 100000}
	srv := clienttest.StartSandbox(t, cfg)
	hb := &heldSandbox{downloading: make(chan struct{}, 1), polling: make(chan struct{}, 1)}
	h := srv.Handler()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(p, "/download") && hb.holdDownloads.Load():
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			body := rec.Body.Bytes()
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
			w.WriteHeader(rec.Code)
			w.Write(body[:len(body)/2])
			w.(http.Flusher).Flush()
			signal(hb.downloading)
			<-r.Context().Done()
			return
		case r.Method == http.MethodGet && (strings.Contains(p, "/traces") || strings.Contains(p, "/dnc")) && hb.holdPolls.Load():
			signal(hb.polling)
			<-r.Context().Done()
			return
		}
		h.ServeHTTP(w, r)
	}))
	hb.url = hs.URL + "/v1"
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	return hb
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// busyBuild keeps the machine busy with a build of the module from a cold
// cache until stop; without a go command the machine is not loaded, and the
// test says so.
func busyBuild(t *testing.T) (stop func()) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Logf("the machine is not kept busy: no go command (%v)", err)
		return func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, goBin, "build", "-a", "-o", os.DevNull, "./jobs/...", "./client/...")
	cmd.Dir = filepath.Join("..", "..")
	cmd.Env = append(os.Environ(), "GOCACHE="+t.TempDir(), "CGO_ENABLED=0")
	if err := cmd.Start(); err != nil {
		t.Logf("the machine is not kept busy: %v", err)
		cancel()
		return func() {}
	}
	return func() { cancel(); cmd.Wait() }
}

// The window is closed while a result downloads, the library is indexed
// and the tracker polls the job lists, on a machine kept busy by a build:
// closing ends (how long it took is logged), and nothing is lost — opened
// again, the job is in the ledger, its result downloads whole with no
// temporary file left, and the index is brought up to date and answers.
func TestCloseUnderLoad(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("generates a library and builds the module to load the machine; skipped with -short")
	}
	home := t.TempDir()
	more := t.TempDir()
	if _, err := indextest.WriteLibrary(more, 4, 5000); err != nil {
		t.Fatal(err)
	}
	hb := startHeldSandbox(t)
	hb.holdDownloads.Store(true)
	cfg := Config{Secrets: secrets.Memory(), Home: home, BaseURL: hb.url, APIKey: sandbox.DemoKey, Track: true, Tracker: pollEvery(100 * time.Millisecond)}
	// A hang's limit, not a speed: under the race detector on a busy
	// machine the whole test takes minutes.
	ctx, cancel := context.WithTimeout(t.Context(), 8*time.Minute)
	defer cancel()
	d := openResumed(ctx, t, cfg)
	id := submitted(ctx, t, d, samplePlan(ctx, t, d))
	waitSignal(ctx, t, hb.downloading, "the result's download")
	// A second job in flight: the tracker polls for it.
	hb.holdPolls.Store(true)
	submitted(ctx, t, d, ownerPlan(t, t.TempDir(), "Second", 3))
	waitSignal(ctx, t, hb.polling, "the tracker's poll")
	indexing := startIndexing(ctx, t, d, more)

	stopBuild := busyBuild(t)
	select {
	case <-indexing:
		t.Log("the index build ended before closing began: closing was not tried against it")
	default:
	}
	start := time.Now()
	closed := make(chan error, 1)
	go func() { closed <- d.Close() }()
	select {
	case err := <-closed:
		t.Logf("closed in %s with a download, an index build and a poll in flight", time.Since(start).Round(time.Millisecond))
		if err != nil {
			t.Errorf("close: %v", err)
		}
	case <-ctx.Done():
		t.Fatal("closing did not finish")
	}
	stopBuild()
	<-indexing
	hb.holdDownloads.Store(false)
	hb.holdPolls.Store(false)
	nothingLost(ctx, t, cfg, id)
}

func waitSignal(ctx context.Context, t *testing.T, c chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-ctx.Done():
		t.Fatalf("%s did not start", what)
	}
}

// startIndexing moves the results of dir into d's library and indexes it
// in the background; it returns once the index is reading them, and the
// channel is closed when indexing ends.
func startIndexing(ctx context.Context, t *testing.T, d *Service, dir string) chan struct{} {
	t.Helper()
	lib := libDir(d)
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if err := os.Rename(filepath.Join(dir, de.Name()), filepath.Join(lib, de.Name())); err != nil {
			t.Fatal(err)
		}
	}
	reading := make(chan struct{}, 1)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		d.Library().IndexLibrary(ctx, "", func(p IndexProgress) {
			if p.BytesDone > 0 && !p.Done {
				signal(reading)
			}
		})
	}()
	waitSignal(ctx, t, reading, "indexing")
	return ended
}

// nothingLost opens cfg's data folder again: job id is recorded, its result
// downloads whole (no temporary file left), and the index answers.
func nothingLost(ctx context.Context, t *testing.T, cfg Config, id string) {
	t.Helper()
	cfg.Track = false
	d := openResumed(ctx, t, cfg)
	defer d.Close()
	o, err := d.Jobs().Wait(ctx, id, time.Minute)
	if err != nil {
		t.Fatalf("the job after closing: %v", err)
	}
	if recs := testlists.ReadCSV(t, o.ResultPath); len(recs) != o.Job.Rows+1 {
		t.Errorf("the result holds %d records, want %d rows and the header", len(recs), o.Job.Rows)
	}
	if parts, _ := filepath.Glob(filepath.Join(libDir(d), ".*.part")); len(parts) != 0 {
		t.Errorf("temporary files left: %v", parts)
	}
	rep, err := d.Library().IndexLibrary(ctx, "", nil)
	if err != nil {
		t.Fatalf("indexing after closing: %v (%+v)", err, rep)
	}
	recs := testlists.ReadCSV(t, o.ResultPath)
	phone := ""
	for _, r := range recs[1:] {
		if phone = r[col(t, recs[0], "phone_1")]; phone != "" {
			break
		}
	}
	hits, err := d.Library().SearchRows(ctx, "", phone, 10)
	if err != nil || len(hits) == 0 {
		t.Errorf("the index after closing: a search for %q: %v, %v", phone, hits, err)
	}
}
