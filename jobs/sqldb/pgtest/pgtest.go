// Package pgtest starts a throwaway PostgreSQL server for tests: initdb into
// a temporary folder, pg_ctl on a free loopback port (as the postgres user
// when the tests run as root: PostgreSQL refuses to run as root), one empty
// database per test (a finished test's, emptied and renamed, where there is
// one), and at the end the server stopped and the folder removed. A
// package that uses it calls Main from its TestMain.
//
// Where PostgreSQL's programs are not installed (Debian's postgresql
// package puts them in /usr/lib/postgresql/<version>/bin), URL skips the
// test and says so; CI installs them and sets SKIPDESK_REQUIRE_POSTGRES, so
// there the tests run (or fail).
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// RequireEnv, set in CI, makes a missing PostgreSQL a failure, not a skip.
const RequireEnv = "SKIPDESK_REQUIRE_POSTGRES"

// server is the one throwaway server of the test binary.
type server struct {
	dir, data, bin string
	port           int
	password       string
	asPostgres     bool
	admin          *sql.DB
	mu             sync.Mutex
	// spare are emptied databases that finished tests gave back.
	spare []string
}

var (
	inMain  atomic.Bool
	once    sync.Once
	srv     *server
	srvErr  error // why there is no server: a reason to skip, or a failure
	skipWhy string
	dbSeq   atomic.Int64
)

// Main runs the package's tests and stops the server if one was started.
// Call it from TestMain: os.Exit(pgtest.Main(m)).
func Main(m *testing.M) int {
	inMain.Store(true)
	code := m.Run()
	if srv != nil {
		srv.stop()
	}
	return code
}

// Available reports whether a server can be started here, and why not.
func Available() (bool, string) {
	once.Do(start)
	return srv != nil, skipWhy
}

// URL is the connection string of an empty database on the throwaway
// server, of this test alone: when the test ends its connections are cut
// and the database is emptied for a later test, under another name. It
// skips the test, saying why, where PostgreSQL is not installed, and fails
// it when the server will not start.
func URL(t testing.TB) string {
	t.Helper()
	if !inMain.Load() {
		t.Fatal("pgtest: call pgtest.Main from the package's TestMain")
	}
	once.Do(start)
	if srv == nil {
		if skipWhy != "" && os.Getenv(RequireEnv) != "" {
			t.Fatalf("PostgreSQL is required here (%s is set) but %s", RequireEnv, skipWhy)
		}
		if skipWhy != "" {
			t.Skipf("PostgreSQL part skipped: %s", skipWhy)
		}
		t.Fatalf("pgtest: %v", srvErr)
	}
	name, err := srv.database()
	if err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() { srv.giveBack(name) })
	return srv.url(name)
}

// database is an empty database for a test: one a finished test gave
// back, else a new one. CREATE DATABASE copies template1 (a quarter of a
// second on a busy machine); emptying a used one takes a tenth of that.
func (s *server) database() (string, error) {
	s.mu.Lock()
	if n := len(s.spare); n > 0 {
		name := s.spare[n-1]
		s.spare = s.spare[:n-1]
		s.mu.Unlock()
		return name, nil
	}
	s.mu.Unlock()
	name := s.newName()
	_, err := s.admin.Exec("CREATE DATABASE " + name)
	return name, err
}

func (s *server) newName() string { return fmt.Sprintf("t%d_%d", os.Getpid(), dbSeq.Add(1)) }

// giveBack empties the database a test used and keeps it for the next
// test, under a new name so that nothing the test left running can reach
// it again; one that cannot be emptied is dropped.
func (s *server) giveBack(name string) {
	spare, err := s.empty(name)
	if err != nil {
		s.admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		if spare != "" {
			s.admin.Exec("DROP DATABASE IF EXISTS " + spare + " WITH (FORCE)")
		}
		return
	}
	s.mu.Lock()
	s.spare = append(s.spare, spare)
	s.mu.Unlock()
}

// empty ends every connection to database name, renames it and drops
// everything in it (tables, sequences, the migrations' record all live in
// the public schema): it is then as CREATE DATABASE makes it.
func (s *server) empty(name string) (string, error) {
	if _, err := s.admin.Exec("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = $1", name); err != nil {
		return "", err
	}
	spare := s.newName()
	if _, err := s.admin.Exec("ALTER DATABASE " + name + " RENAME TO " + spare); err != nil {
		return "", err
	}
	db, err := sql.Open("pgx", s.url(spare))
	if err != nil {
		return spare, err
	}
	defer db.Close()
	_, err = db.Exec("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
	return spare, err
}

// Password is the password of the server's user (tests check it never shows
// in a message).
func Password() string {
	if srv == nil {
		return ""
	}
	return srv.password
}

func (s *server) url(db string) string {
	return fmt.Sprintf("postgres://skipdesk:%s@127.0.0.1:%d/%s?sslmode=disable", s.password, s.port, db)
}

// binDir finds PostgreSQL's programs: on the PATH, else Debian's folder.
func binDir() string {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p)
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "pg_ctl")); err == nil {
			return d
		}
	}
	return ""
}

func version(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func start() {
	bin := binDir()
	if bin == "" {
		skipWhy = "PostgreSQL's programs (initdb, pg_ctl) are not installed; apt-get install postgresql"
		return
	}
	s := &server{bin: bin}
	if os.Geteuid() == 0 {
		if _, err := user.Lookup("postgres"); err != nil {
			skipWhy = "running as root and there is no postgres user to run the server as"
			return
		}
		s.asPostgres = true
	}
	if err := s.start(); err != nil {
		srvErr = err
		if s.dir != "" {
			os.RemoveAll(s.dir)
		}
		return
	}
	srv = s
}

func (s *server) start() error {
	dir, err := os.MkdirTemp("", "skipdesk-pg-")
	if err != nil {
		return err
	}
	s.dir, s.data = dir, filepath.Join(dir, "data")
	if s.asPostgres {
		u, _ := user.Lookup("postgres")
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return err
		}
	}
	b := make([]byte, 12)
	rand.Read(b)
	s.password = "pw" + hex.EncodeToString(b)
	pwfile := filepath.Join(dir, "pw")
	if err := os.WriteFile(pwfile, []byte(s.password+"\n"), 0o644); err != nil {
		return err
	}
	if err := s.run("initdb", "-D", s.data, "-U", "skipdesk", "--pwfile", pwfile, "-E", "UTF8", "--locale=C",
		"--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync"); err != nil {
		return err
	}
	os.Remove(pwfile)
	if s.port, err = freePort(); err != nil {
		return err
	}
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300",
		s.port, dir)
	if err := s.run("pg_ctl", "-D", s.data, "-l", filepath.Join(dir, "log"), "-o", opts, "-w", "-t", "60", "start"); err != nil {
		return err
	}
	s.admin, err = sql.Open("pgx", s.url("postgres"))
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return s.admin.PingContext(ctx)
}

// run runs one of PostgreSQL's programs, as the postgres user when root.
func (s *server) run(prog string, args ...string) error {
	path := filepath.Join(s.bin, prog)
	var cmd *exec.Cmd
	if s.asPostgres {
		if rp, err := exec.LookPath("runuser"); err == nil {
			cmd = exec.Command(rp, append([]string{"-u", "postgres", "--", path}, args...)...)
		} else {
			quoted := make([]string, 0, len(args)+1)
			for _, a := range append([]string{path}, args...) {
				quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
			}
			cmd = exec.Command("su", "postgres", "-c", strings.Join(quoted, " "))
		}
	} else {
		cmd = exec.Command(path, args...)
	}
	cmd.Dir = s.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		log := ""
		if b, rerr := os.ReadFile(filepath.Join(s.dir, "log")); rerr == nil {
			log = string(b)
		}
		return fmt.Errorf("%s: %v: %s %s", prog, err, out, log)
	}
	return nil
}

func (s *server) stop() {
	if s.admin != nil {
		s.admin.Close()
	}
	s.run("pg_ctl", "-D", s.data, "-m", "immediate", "-w", "stop")
	os.RemoveAll(s.dir)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Proxy is a TCP relay in front of the server whose connections can be cut
// and refused, as when the network or the server goes away.
type Proxy struct {
	l      net.Listener
	target string
	mu     sync.Mutex
	down   bool
	conns  map[net.Conn]bool
	wg     sync.WaitGroup
}

// NewProxy relays to the host and port of url and returns the proxy and
// url rewritten to go through it. It is closed when the test ends.
func NewProxy(t testing.TB, url string) (*Proxy, string) {
	t.Helper()
	i := strings.Index(url, "@")
	j := strings.Index(url[i:], "/")
	target := url[i+1 : i+j]
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &Proxy{l: l, target: target, conns: map[net.Conn]bool{}}
	p.wg.Add(1)
	go p.accept()
	t.Cleanup(p.close)
	return p, url[:i+1] + l.Addr().String() + url[i+j:]
}

func (p *Proxy) accept() {
	defer p.wg.Done()
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.down {
			p.mu.Unlock()
			c.Close()
			continue
		}
		up, err := net.DialTimeout("tcp", p.target, 5*time.Second)
		if err != nil {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		go p.pipe(c, up)
		go p.pipe(up, c)
	}
}

func (p *Proxy) pipe(dst, src net.Conn) {
	io.Copy(dst, src)
	dst.Close()
	src.Close()
	p.mu.Lock()
	delete(p.conns, dst)
	delete(p.conns, src)
	p.mu.Unlock()
}

// Cut drops every connection and refuses new ones until Restore.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = true
	for c := range p.conns {
		c.Close()
	}
}

// Restore accepts connections again.
func (p *Proxy) Restore() {
	p.mu.Lock()
	p.down = false
	p.mu.Unlock()
}

func (p *Proxy) close() {
	p.Cut()
	p.l.Close()
	p.wg.Wait()
}
