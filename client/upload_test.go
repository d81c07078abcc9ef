package client

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// formEcho parses the multipart upload and reports what it found.
type formSeen struct {
	contentLength int64
	chunked       bool
	fields        map[string]string
	fileName      string
	fileType      string
	file          string
}

func formServer(t *testing.T, seen *formSeen, answer string) *scripted {
	return newScripted(t, func(w http.ResponseWriter, r *http.Request) {
		seen.contentLength = r.ContentLength
		seen.chunked = len(r.TransferEncoding) > 0
		seen.fields = map[string]string{}
		_, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		mr := multipart.NewReader(r.Body, params["boundary"])
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			if err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			b, _ := io.ReadAll(p)
			if p.FormName() == "file" {
				seen.fileName, seen.fileType, seen.file = p.FileName(), p.Header.Get("Content-Type"), string(b)
			} else {
				seen.fields[p.FormName()] = string(b)
			}
		}
		w.WriteHeader(201)
		io.WriteString(w, answer)
	})
}

func TestTraceUploadForm(t *testing.T) {
	t.Parallel()
	var seen formSeen
	s := formServer(t, &seen, `{"success":true,"id":"trc_9","status":"processing","cost":4,"credits_charged":4,"columns":{"first_name":"First"},"queue_position":3}`)
	dir := t.TempDir()
	path := writeFile(t, dir, "owners.csv", ownersCSV)
	var sent, total int64
	created, err := s.client(t).Traces.Create(context.Background(), &TraceUpload{Path: path, FileName: `my "list".csv`, Mode: ModeEnhanced,
		ColumnMapping: ownersMapping, IncludeLLCs: true, Progress: func(s, tot int64) {
			if s < sent || s > tot {
				t.Errorf("progress %d of %d after %d", s, tot, sent)
			}
			sent, total = s, tot
		}})
	if err != nil {
		t.Fatal(err)
	}
	if created.ID != "trc_9" || created.Cost != 4 || string(created.Extra["queue_position"]) != "3" {
		t.Fatalf("created %+v", created)
	}
	if seen.chunked || seen.contentLength != total || sent != total {
		t.Fatalf("Content-Length %d (chunked %v), progress %d of %d", seen.contentLength, seen.chunked, sent, total)
	}
	if seen.file != ownersCSV || seen.fileName != `my "list".csv` || seen.fileType != "text/csv" {
		t.Fatalf("file part %q %q %d bytes", seen.fileName, seen.fileType, len(seen.file))
	}
	var m map[string]string
	if err := json.Unmarshal([]byte(seen.fields["column_mapping"]), &m); err != nil || m["property_zip"] != "Zip" || len(m) != 6 {
		t.Fatalf("column_mapping %q", seen.fields["column_mapping"])
	}
	if seen.fields["mode"] != "enhanced" || seen.fields["include_llcs"] != "true" {
		t.Fatalf("fields %v", seen.fields)
	}
}

func TestDNCUploadForm(t *testing.T) {
	t.Parallel()
	var seen formSeen
	s := formServer(t, &seen, `{"id":"dnc_1","name":"phones.csv","status":"processing","total_rows":1,"rate":1,"credits_charged":1}`)
	path := writeFile(t, t.TempDir(), "phones.csv", "Cell Phone\n2125550147\n")
	created, err := s.client(t).DNC.Create(context.Background(), &DNCUpload{Path: path, PhoneColumn: "Cell Phone"})
	if err != nil || created.ID != "dnc_1" {
		t.Fatalf("%+v %v", created, err)
	}
	if seen.fields["column_mapping"] != `{"phone":"Cell Phone"}` || seen.fileName != "phones.csv" || len(seen.fields) != 1 {
		t.Fatalf("form %+v", seen)
	}
}

func TestUploadRefusedLocally(t *testing.T) {
	t.Parallel()
	s := newScripted(t, reply(201, nil, `{}`))
	c := s.client(t)
	ctx := context.Background()
	dir := t.TempDir()
	big := filepath.Join(dir, "big.csv")
	f, _ := os.Create(big)
	f.Truncate(MaxUploadBytes + 1) // sparse: no 50 MB written
	f.Close()
	exact := filepath.Join(dir, "exact.csv")
	f, _ = os.Create(exact)
	f.Truncate(MaxUploadBytes)
	f.Close()
	ok := writeFile(t, dir, "ok.csv", "a\n1\n")

	_, err := c.Traces.Create(ctx, &TraceUpload{Path: big, ColumnMapping: ownersMapping})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "big.csv") || !strings.Contains(err.Error(), "50.0 MB") {
		t.Fatalf("too large: %v", err)
	}
	if _, err := c.DNC.Create(ctx, &DNCUpload{Path: big, PhoneColumn: "a"}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("dnc too large: %v", err)
	}
	if _, err := newMultipartFile(exact, "exact.csv", nil, nil); err != nil {
		t.Fatalf("exactly 50 MB refused: %v", err)
	}
	for name, call := range map[string]func() error{
		"missing file": func() error {
			_, err := c.Traces.Create(ctx, &TraceUpload{Path: filepath.Join(dir, "nope.csv"), ColumnMapping: ownersMapping})
			return err
		},
		"folder":  func() error { _, err := c.DNC.Create(ctx, &DNCUpload{Path: dir, PhoneColumn: "a"}); return err },
		"no path": func() error { _, err := c.DNC.Create(ctx, &DNCUpload{PhoneColumn: "a"}); return err },
		"no mapping": func() error {
			_, err := c.Traces.Create(ctx, &TraceUpload{Path: ok})
			return err
		},
		"no phone column": func() error { _, err := c.DNC.Create(ctx, &DNCUpload{Path: ok}); return err },
		"nil trace":       func() error { _, err := c.Traces.Create(ctx, nil); return err },
		"nil dnc":         func() error { _, err := c.DNC.Create(ctx, nil); return err },
		"nil single":      func() error { _, err := c.Traces.Single(ctx, nil); return err },
	} {
		if err := call(); err == nil || errors.Is(err, ErrOutcomeUnknown) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if s.hits.Load() != 0 {
		t.Fatalf("%d requests sent for refused uploads", s.hits.Load())
	}
}

func TestUploadFileChangedBetweenAttempts(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := writeFile(t, dir, "p.csv", "Phone\n2125550147\n")
	mp, err := newMultipartFile(path, "p.csv", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte("Phone\n"), 0o644)
	if _, _, err := mp.open(); err == nil || !strings.Contains(err.Error(), "changed size") {
		t.Fatalf("open after change: %v", err)
	}
	os.Remove(path)
	if _, _, err := mp.open(); err == nil || !strings.Contains(err.Error(), "p.csv") {
		t.Fatalf("open after removal: %v", err)
	}
	// The file shrinks while it is being read.
	path = writeFile(t, dir, "q.csv", strings.Repeat("x", 1000))
	mp, _ = newMultipartFile(path, "q.csv", nil, nil)
	body, n, err := mp.open()
	if err != nil || n != mp.length() {
		t.Fatal(err)
	}
	os.Truncate(path, 10)
	_, err = io.ReadAll(body)
	body.Close()
	if err == nil || !strings.Contains(err.Error(), "shrank") {
		t.Fatalf("read of a shrinking file: %v", err)
	}
}
