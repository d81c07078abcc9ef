package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRunServesUntilStopped(t *testing.T) {
	pr, pw := io.Pipe()
	stop := make(chan os.Signal, 1)
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"--addr", "127.0.0.1:0"}, pw, io.Discard, stop)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	if !sc.Scan() {
		t.Fatal("no output")
	}
	first := sc.Text()
	m := regexp.MustCompile(`^listening on (http://127\.0\.0\.1:\d+/v1)$`).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("first line %q", first)
	}
	if !sc.Scan() || !strings.Contains(sc.Text(), "sk_sandbox_demo") {
		t.Fatalf("second line %q should print the demo key", sc.Text())
	}
	go io.Copy(io.Discard, pr)
	req, _ := http.NewRequest("GET", m[1]+"/account", nil)
	req.Header.Set("Authorization", "Bearer sk_sandbox_demo")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("GET /account: %d", res.StatusCode)
	}
	stop <- syscall.SIGTERM
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("did not stop on SIGTERM")
	}
}

func TestRunBadArguments(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"match_rate": 7}`), 0o600)
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(`{"keys":[{"key":"sk_x"}]}`), 0o600)
	for _, args := range [][]string{
		{"--config", bad}, {"--config", filepath.Join(dir, "none.json")}, {"--nope"}, {"extra"},
		{"--addr", "127.0.0.1:99999", "--config", good},
	} {
		var errb strings.Builder
		if code := run(args, io.Discard, &errb, nil); code == 0 || errb.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}
