package workflow

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
	"github.com/skipdesk/skipdesk/jobs/sqldb/pgtest"
	"github.com/skipdesk/skipdesk/jobs/tracker"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// teamSandbox is one sandbox for several computers, behind a counter of
// its answers by status.
type teamSandbox struct {
	srv    *sandbox.Server
	url    string
	mu     sync.Mutex
	status map[int]int
}

func newTeamSandbox(t *testing.T, cfg sandbox.Config) *teamSandbox {
	t.Helper()
	srv := clienttest.StartSandbox(t, cfg)
	ts := &teamSandbox{srv: srv, status: map[int]int{}}
	h := srv.Handler()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusWriter{ResponseWriter: w, code: 200}
		h.ServeHTTP(rec, r)
		ts.mu.Lock()
		ts.status[rec.code]++
		ts.mu.Unlock()
	}))
	t.Cleanup(front.Close)
	ts.url = front.URL + "/v1"
	return ts
}

func (ts *teamSandbox) count(code int) int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.status[code]
}

type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	w.code = code
	w.ResponseWriter.WriteHeader(code)
}

// testTeam is a team's database and a fast sandbox, one for each test,
// on which the test opens its computers.
type testTeam struct {
	t     *testing.T
	dbURL string
	sb    *teamSandbox
}

func newTestTeam(t *testing.T) *testTeam {
	return &testTeam{t: t, dbURL: pgtest.URL(t), sb: newTeamSandbox(t, *fastSandbox())}
}

// computer opens a SkipDesk named name on the team (see computerOn).
func (tm *testTeam) computer(name string, tune func(*Config)) *Service {
	tm.t.Helper()
	return computerOn(tm.t, tm.sb.url, tm.dbURL, name, tune)
}

// frontAndBack opens the team's front desk and back office.
func (tm *testTeam) frontAndBack() (front, back *Service) {
	tm.t.Helper()
	return tm.computer("front-desk", nil), tm.computer("back-office", nil)
}

// computerOn opens a SkipDesk named name with its own data folder on the
// team database at dbURL and the sandbox at api, its session open.
func computerOn(t *testing.T, api, dbURL, name string, tune func(*Config)) *Service {
	t.Helper()
	cfg := Config{Secrets: secrets.Memory(), Home: t.TempDir(), BaseURL: api, APIKey: sandbox.DemoKey, DatabaseURL: dbURL, Computer: name, Track: true,
		Tracker: tracker.Options{Interval: func(time.Duration) time.Duration { return 200 * time.Millisecond }, LeaseTTL: 3 * time.Second}}
	if tune != nil {
		tune(&cfg)
	}
	d, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if _, err := d.Sessions().Resume(t.Context()); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return d
}

// ownerList writes a small owner list whose content is told apart by tag.
func ownerList(t *testing.T, dir, tag string, rows int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("Owner First Name,Owner Last Name,Property Address,Property City,Property State,Property Zip\r\n")
	for i := range rows {
		fmt.Fprintf(&b, "Ann%s,Lee%d,%d Oak St,Austin,TX,78701\r\n", tag, i, 100+i)
	}
	p := filepath.Join(dir, "owners-"+tag+".csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// ownerPlan is the trace of a new owner list written by ownerList.
func ownerPlan(t *testing.T, dir, tag string, rows int) Plan {
	t.Helper()
	return Plan{Kind: jobs.KindTrace, Path: ownerList(t, dir, tag, rows), Mapping: ownerMapping, Mode: jobs.ModeNormal}
}

// submitted reads and submits plan p on d, failing the test when it cannot,
// and returns the job's id.
func submitted(ctx context.Context, t *testing.T, d *Service, p Plan) string {
	t.Helper()
	id, err := submitFile(ctx, d, p, false)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

var ownerMapping = map[string]string{"first_name": "Owner First Name", "last_name": "Owner Last Name",
	"property_street": "Property Address", "property_city": "Property City", "property_state": "Property State", "property_zip": "Property Zip"}

// Two computers, each with its own data folder, on one team database and
// one API key: the same file submitted on both at the same moment makes
// one job (the other is asked, nothing sent); both lists show who
// submitted it; a number one computer puts on the internal do-not-call
// list is left out of the other's next callable export.
func TestTeamTwoComputers(t *testing.T) {
	t.Parallel()
	tm := newTestTeam(t)
	a, b := tm.frontAndBack()
	ctx, cancel := context.WithTimeout(t.Context(), 90*time.Second)
	defer cancel()

	plan := samplePlan(ctx, t, a)
	var wg sync.WaitGroup
	ids, errs := make([]string, 2), make([]error, 2)
	start := make(chan struct{})
	for i, d := range []*Service{a, b} {
		wg.Go(func() {
			<-start
			ids[i], errs[i] = submitFile(ctx, d, plan, false)
		})
	}
	close(start)
	wg.Wait()
	winner, loser := 0, 1
	if errs[0] != nil {
		winner, loser = 1, 0
	}
	if errs[winner] != nil || !errors.Is(errs[loser], ErrDuplicate) {
		t.Fatalf("simultaneous submissions: %v / %v, want one job and one asked", errs[0], errs[1])
	}
	if n := sandboxJobs(ctx, t, a); n != 1 {
		t.Fatalf("%d jobs on the server, want 1", n)
	}
	by := []string{"front-desk", "back-office"}[winner]
	for _, d := range []*Service{a, b} {
		list, _, err := d.Jobs().List(ctx, 1)
		if err != nil || len(list) != 1 || list[0].ID != ids[winner] || list[0].SubmittedBy != by {
			t.Fatalf("%s's jobs list: %+v, %v (want %s submitted by %s)", d.Team().Computer(), list, err, ids[winner], by)
		}
	}

	// The result on the front desk, scrubbed there.
	done, err := a.Jobs().Wait(ctx, ids[winner], time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	job := waitResult(ctx, t, a, done.Job.ID)
	scrubResult(ctx, t, a, job)
	callable := callableNumbers(ctx, t, a, job)
	if len(callable) == 0 {
		t.Fatal("nothing callable to start with")
	}
	// The back office hears one of them is not to be called.
	if _, err := b.Compliance().AddInternal(ctx, []string{callable[0]}, "asked not to be called", "phone"); err != nil {
		t.Fatal(err)
	}
	after := callableNumbers(ctx, t, a, job)
	for _, n := range after {
		if n == callable[0] {
			t.Fatalf("%s, put on the list on the back office, is still in the front desk's callable list", n)
		}
	}
	if len(after) != len(callable)-1 {
		t.Fatalf("callable numbers %d → %d, want one fewer", len(callable), len(after))
	}
	list, _ := a.Compliance().InternalList(ctx)
	if len(list) != 1 || list[0].By != "back-office" {
		t.Fatalf("the team's list seen on the front desk: %+v", list)
	}
	if n := tm.sb.count(http.StatusTooManyRequests); n != 0 {
		t.Fatalf("%d × 429", n)
	}
}

// sandboxJobs counts the traces the API knows (asked by a client of its
// own: d's waits for the team's budget).
func sandboxJobs(ctx context.Context, t *testing.T, d *Service) int {
	t.Helper()
	api, err := client.New(d.Sessions().Current().BaseURL, sandbox.DemoKey)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := api.Traces.List(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	return len(tl.Traces)
}

// waitResult waits until job id's result is in d's library.
func waitResult(ctx context.Context, t *testing.T, d *Service, id string) Job {
	t.Helper()
	for {
		list, err := d.Jobs().LocalJobs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range list {
			if j.ID == id && j.ResultPath != "" {
				return j
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s: no result for %s", d.Team().Computer(), id)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// callableNumbers exports job's callable list as CSV and reads its phone
// numbers.
func callableNumbers(ctx context.Context, t *testing.T, d *Service, job Job) []string {
	t.Helper()
	dest := filepath.Join(t.TempDir(), "callable.csv")
	if _, err := d.Jobs().ExportJob(ctx, job, dest, &CallableChoices{}, nil); err != nil {
		t.Fatalf("callable export: %v", err)
	}
	body, err := os.ReadFile(dest)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	head := strings.Split(strings.TrimSpace(lines[0]), ",")
	col := -1
	for i, h := range head {
		if strings.Contains(strings.ToLower(h), "phone") {
			col = i
			break
		}
	}
	if col < 0 {
		t.Fatalf("no phone column in %q", lines[0])
	}
	var out []string
	for _, l := range lines[1:] {
		f := strings.Split(strings.TrimSpace(l), ",")
		if col < len(f) && f[col] != "" {
			out = append(out, f[col])
		}
	}
	return out
}

// The computer following a job disappears (its connection to the team's
// database cut, as when it is switched off): when its lease runs out
// another computer takes the job up and records its completion, once.
// skipLeaseWaitIfShort skips, with -short, a test that waits out a job's
// lease in real time (its expiry is the database's own clock, which the
// tracker of another process reads).
func skipLeaseWaitIfShort(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out a job's lease in real time (seconds); skipped with -short, make test runs it")
	}
}

func TestTeamLeaseHandover(t *testing.T) {
	skipLeaseWaitIfShort(t)
	dbURL := pgtest.URL(t)
	proxy, viaProxy := pgtest.NewProxy(t, dbURL)
	cfg := sandbox.DefaultConfig()
	// The job runs until the test finishes it, after the handover.
	cfg.Processing = sandbox.Processing{MinSeconds: 3600}
	sb := newTeamSandbox(t, cfg)
	a := computerOn(t, sb.url, viaProxy, "laptop", nil)
	ctx, cancel := context.WithTimeout(t.Context(), 150*time.Second)
	defer cancel()
	list := ownerList(t, t.TempDir(), "lease", 20)
	id := submitted(ctx, t, a, Plan{Kind: jobs.KindTrace, Path: list, Mapping: ownerMapping, Mode: jobs.ModeNormal})
	b := computerOn(t, sb.url, dbURL, "desktop", nil)
	led := teamLedger(t, b)
	waitFollower(ctx, t, led, id, "laptop")

	proxy.Cut() // the laptop is gone
	waitFollower(ctx, t, led, id, "desktop")
	sb.srv.FinishPending()
	if _, err := b.Jobs().Wait(ctx, id, time.Minute); err != nil {
		t.Fatal(err)
	}
	j, err := led.Jobs().Job(ctx, id)
	if err != nil || j.Status != jobs.StatusCompleted {
		t.Fatalf("the job after the handover: %+v, %v", j, err)
	}
	waitResult(ctx, t, b, id)
	sp, err := led.Jobs().JobSpend(ctx, id)
	if err != nil || sp.Charged == 0 {
		t.Fatalf("the job's spend: %+v, %v", sp, err)
	}
	subs, _ := led.Submissions().List(ctx)
	if len(subs) != 1 || subs[0].Computer != "laptop" {
		t.Fatalf("submissions %+v", subs)
	}
}

// teamLedger is d's session ledger (a team's).
func teamLedger(t *testing.T, d *Service) *ledger.Ledger {
	t.Helper()
	sess, err := d.books()
	if err != nil {
		t.Fatal(err)
	}
	if !sess.led.Shared() {
		t.Fatal("not a team's ledger")
	}
	return sess.led
}

// waitFollower waits until the computer named who follows job id.
func waitFollower(ctx context.Context, t *testing.T, led *ledger.Ledger, id, who string) {
	t.Helper()
	for {
		f, err := led.Team().Followers(ctx)
		if err == nil && f[id] == who {
			return
		}
		select {
		case <-ctx.Done():
			j, jerr := led.Jobs().Job(context.Background(), id)
			t.Fatalf("%s never followed %s (followers %v, %v; the job in the ledger: %+v, %v)", who, id, f, err, j, jerr)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Four computers — four processes, each with its own data folder — follow
// fifty jobs together, each polling as often as it would alone: the team's
// budget keeps the key's requests under its per-minute limits, with no
// 429, and each result reaches the library of the computer that submitted
// it.
func TestTeamFourTrackersFiftyJobs(t *testing.T) {
	if os.Getenv(envTrackerDB) != "" {
		trackJobs(t)
		return
	}
	if testing.Short() {
		t.Skip("a minute of polling")
	}
	dbURL := pgtest.URL(t)
	cfg := sandbox.DefaultConfig()
	// Four trackers polling at will take 20 reads a second where the team's
	// bucket refills 8: its burst of 60 is gone in 5 s. Jobs in flight for
	// 8 s make sure the budget is reached, whatever the machine's speed.
	cfg.Processing = sandbox.Processing{MinSeconds: 8}
	cfg.RateLimits = sandbox.RateLimits{ReadPerMinute: teamTestReads, WritePerMinute: teamTestWrites}
	sb := newTeamSandbox(t, cfg)
	ctx, cancel := context.WithTimeout(t.Context(), 150*time.Second)
	defer cancel()
	const computers, total = 4, 50
	type computer struct {
		cmd   *exec.Cmd
		stdin io.WriteCloser
		ids   []string
		held  int64
		err   error
	}
	pcs := make([]*computer, computers)
	var wg sync.WaitGroup
	var outMu sync.Mutex
	var said bytes.Buffer
	for k := range pcs {
		n := total / computers
		if k < total%computers {
			n++
		}
		pc := &computer{cmd: exec.CommandContext(ctx, os.Args[0], "-test.run=^TestTeamFourTrackersFiftyJobs$", "-test.v")}
		pc.cmd.Env = append(os.Environ(), envTrackerAPI+"="+sb.url, envTrackerDB+"="+dbURL,
			envTrackerName+"="+fmt.Sprintf("pc-%d", k+1), envTrackerJobs+"="+fmt.Sprint(n))
		pc.cmd.Stderr = os.Stderr
		out, err := pc.cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if pc.stdin, err = pc.cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if err := pc.cmd.Start(); err != nil {
			t.Fatal(err)
		}
		pcs[k] = pc
		wg.Go(func() {
			lines := bufio.NewScanner(out)
			for lines.Scan() {
				line := lines.Text()
				outMu.Lock()
				fmt.Fprintf(&said, "pc-%d: %s\n", k+1, line)
				outMu.Unlock()
				f := strings.Fields(line)
				switch {
				case len(f) == 2 && f[0] == "submitted":
					pc.ids = append(pc.ids, f[1])
				case len(f) == 2 && f[0] == "held":
					fmt.Sscan(f[1], &pc.held)
				case len(f) == 1 && f[0] == "done":
					return
				}
			}
			pc.err = fmt.Errorf("pc-%d ended before its results were in (%v)", k+1, lines.Err())
		})
	}
	t.Cleanup(func() {
		for _, pc := range pcs {
			pc.stdin.Close() // the computers end once every one is done
			pc.cmd.Wait()
		}
		if t.Failed() {
			outMu.Lock()
			t.Logf("what the computers said:\n%s", said.String())
			outMu.Unlock()
		}
	})
	wg.Wait()
	var ids []string
	held := int64(0)
	for _, pc := range pcs {
		if pc.err != nil {
			t.Fatal(pc.err)
		}
		ids = append(ids, pc.ids...)
		held += pc.held
	}
	if len(ids) != total {
		t.Fatalf("%d jobs submitted, want %d", len(ids), total)
	}
	led := teamLedgerAt(ctx, t, dbURL)
	for _, id := range ids {
		if j, err := led.Jobs().Job(ctx, id); err != nil || j.Status != jobs.StatusCompleted {
			t.Fatalf("%s: %+v, %v", id, j, err)
		}
	}
	if n := sb.count(http.StatusTooManyRequests); n != 0 {
		t.Fatalf("%d × 429", n)
	}
	if held == 0 {
		t.Fatal("the team's budget never held a request back: the test did not reach the limits")
	}
	t.Logf("4 processes, 50 jobs: %d requests answered 200, 0 × 429, %d held back by the team's budget", sb.count(200), held)
}

// The key's limits in TestTeamFourTrackersFiftyJobs: low enough for four
// computers polling at will to reach them.
const teamTestReads, teamTestWrites = 600, 600

// Environment of a computer of TestTeamFourTrackersFiftyJobs.
const (
	envTrackerAPI  = "SKIPDESK_TEST_TRACKER_API"
	envTrackerDB   = "SKIPDESK_TEST_TRACKER_DB"
	envTrackerName = "SKIPDESK_TEST_TRACKER_NAME"
	envTrackerJobs = "SKIPDESK_TEST_TRACKER_JOBS"
)

// trackJobs is one computer of TestTeamFourTrackersFiftyJobs: it submits
// its share of the jobs, says each, follows what its leases give it until
// its own results are in its library, says how many requests the team's
// budget held back, then keeps following until its standard input closes.
func trackJobs(t *testing.T) {
	name := os.Getenv(envTrackerName)
	d := computerOn(t, os.Getenv(envTrackerAPI), os.Getenv(envTrackerDB), name, func(c *Config) {
		c.TeamLimits = TeamLimits{ReadsPerMinute: teamTestReads, WritesPerMinute: teamTestWrites}
		c.Tracker.Interval = func(time.Duration) time.Duration { return 50 * time.Millisecond }
		c.Tracker.ReadsPerMinute = 2 * teamTestReads // alone, each would take more than the key allows
	})
	d.Jobs().Subscribe(func(ev Event) {
		if ev.Err != nil {
			fmt.Printf("%s: %v\n", ev.Job.ID, ev.Err)
		}
	})
	ctx := t.Context()
	n, _ := strconv.Atoi(os.Getenv(envTrackerJobs))
	dir := t.TempDir()
	var ids []string
	for i := range n {
		id, err := submitFile(ctx, d, ownerPlan(t, dir, fmt.Sprintf("%s-%d", name, i), 5), false)
		if err != nil {
			t.Fatalf("job %d: %v", i, err)
		}
		fmt.Printf("submitted %s\n", id)
		ids = append(ids, id)
	}
	for _, id := range ids {
		waitResult(ctx, t, d, id)
	}
	sess, _ := d.current()
	fmt.Printf("held %d\n", sess.budget.Held())
	fmt.Println("done")
	io.Copy(io.Discard, os.Stdin)
}

// teamLedgerAt opens the team's ledger at dbURL as an onlooker.
func teamLedgerAt(ctx context.Context, t *testing.T, dbURL string) *ledger.Ledger {
	t.Helper()
	db, err := sqldb.OpenPostgres(ctx, dbURL, sqldb.PostgresOptions{AppName: "onlooker"})
	if err != nil {
		t.Fatal(err)
	}
	led, err := ledger.OpenShared(ctx, db, ledger.Who{ComputerID: "onlooker", Computer: "onlooker"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		led.Close()
		db.Close()
	})
	return led
}

// Share with my team: what this computer kept on its own (a job with its
// submission, the internal list, a layout correction) moves into the
// team's database, the connection string goes to the keyring only, and the
// next start works on the team's; sharing again copies nothing twice.
func TestShareWithTeam(t *testing.T) {
	t.Parallel()
	tm := newTestTeam(t)
	home := t.TempDir()
	cfg := Config{Secrets: secrets.Memory(), Home: home, BaseURL: tm.sb.url, APIKey: sandbox.DemoKey, Computer: "front-desk",
		Tracker: pollEvery(100 * time.Millisecond)}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	d := openResumed(ctx, t, cfg)
	id := keepOwnRecords(ctx, t, d, home)

	var parts []string
	rep, err := d.Team().ShareWithTeam(ctx, tm.dbURL, "Front desk", func(p ShareProgress) {
		if p.Done == 0 {
			parts = append(parts, p.Part)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Copied["jobs"] != 1 || rep.Copied["submissions"] != 1 || rep.Copied["internal"] != 1 || rep.Copied["layouts"] != 1 {
		t.Fatalf("moved %v", rep.Copied)
	}
	if len(parts) != len(ledger.MoveParts) {
		t.Fatalf("progress named %v", parts)
	}
	checkShared(ctx, t, d, home, tm.dbURL, id)
	// The library's results are in the team's index: another computer
	// finds their rows.
	if _, err := d.Library().IndexLibrary(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	teammateHit(ctx, t, tm.computer("back-office", nil), "annown lee3", id, "front-desk")
	if rep, err := d.Team().ShareWithTeam(ctx, tm.dbURL, "", nil); err != nil || rep.Copied["jobs"] != 0 || rep.Copied["layouts"] != 0 {
		t.Fatalf("sharing again: %v, %v", rep.Copied, err)
	}
	d.Close()

	// The next start: the team's database, from the keyring.
	cfg.Computer = ""
	d2, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if d2.Team().Computer() != "Front desk" {
		t.Fatalf("computer name %q", d2.Team().Computer())
	}
	on, err := d2.Compliance().InternalList(ctx)
	if err != nil || len(on) != 1 {
		t.Fatalf("the team's internal list without a session: %+v, %v", on, err)
	}
	if c := d2.layoutCorrection([]string{"x"}); c != nil {
		t.Fatalf("a correction for other headers: %+v", c)
	}
	if _, err := d2.Team().StopSharing(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := d2.cfg.Secrets.Get(ctx, secrets.DatabaseURL); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatalf("the connection string after sharing stopped: %v", err)
	}
}

// keepOwnRecords gives d's own ledger a job, a number on the internal list
// and a layout correction; it returns the job's id.
func keepOwnRecords(ctx context.Context, t *testing.T, d *Service, home string) string {
	t.Helper()
	id := submitted(ctx, t, d, ownerPlan(t, t.TempDir(), "own", 5))
	if _, err := d.Jobs().Wait(ctx, id, time.Minute); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Compliance().AddInternal(ctx, []string{"(512) 555-0142"}, "asked", "phone"); err != nil {
		t.Fatal(err)
	}
	corr, _ := json.Marshal(map[string]*layout.Correction{"owner|phone": {Signature: "owner|phone"}})
	if err := os.WriteFile(filepath.Join(home, layoutsFile), corr, 0o600); err != nil {
		t.Fatal(err)
	}

	return id
}

// checkShared: after sharing, the connection string is in the keyring and
// nowhere in the settings, the status names the team and this computer,
// and the session works on the team's ledger.
func checkShared(ctx context.Context, t *testing.T, d *Service, home, dbURL, id string) {
	t.Helper()
	if got, err := d.cfg.Secrets.Get(ctx, secrets.DatabaseURL); err != nil || got != dbURL {
		t.Fatalf("the connection string in the keyring: %v", err)
	}
	b, _ := os.ReadFile(filepath.Join(home, "settings.json"))
	if strings.Contains(string(b), pgtest.Password()) || !d.Sessions().Settings().Team {
		t.Fatalf("settings after sharing: %s", b)
	}
	st := d.Team().Status(ctx)
	if !st.On || st.Err != nil || st.Computer != "front-desk" || strings.Contains(st.Database, pgtest.Password()) {
		t.Fatalf("team status %+v", st)
	}
	list, err := d.Jobs().LocalJobs(ctx)
	if err != nil || len(list) != 1 || list[0].ID != id || list[0].SubmittedBy == "" {
		t.Fatalf("the team's jobs: %+v, %v", list, err)
	}
	if led := teamLedger(t, d); led == nil {
		t.Fatal("the session does not work on the team's ledger")
	}
}

// The team's database away: the session opens all the same, the jobs list
// is the provider's with the reason, and nothing is submitted (what cannot
// be recorded is not sent) — at start or in the middle of a session; when
// the database answers again, submitting works.
func TestTeamDatabaseAway(t *testing.T) {
	t.Parallel()
	dbURL := pgtest.URL(t)
	proxy, viaProxy := pgtest.NewProxy(t, dbURL)
	sb := newTeamSandbox(t, *fastSandbox())
	proxy.Cut()
	// The layer's clock: the test moves it past the wait before a database
	// found away is asked again.
	var later atomic.Int64
	d := computerOn(t, sb.url, viaProxy, "laptop", func(c *Config) {
		c.Now = func() time.Time { return time.Now().Add(time.Duration(later.Load())) }
	})
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	dir := t.TempDir()
	plan := func(tag string) Plan {
		return ownerPlan(t, dir, tag, 5)
	}
	if _, err := submitFile(ctx, d, plan("a"), false); !errors.Is(err, ErrTeamUnreachable) {
		t.Fatalf("submitting with the database away at start: %v", err)
	}
	if _, _, err := d.Jobs().List(ctx, 1); !errors.Is(err, ErrTeamUnreachable) {
		t.Fatalf("the jobs list with the database away: %v", err)
	}
	if p := Explain(ErrTeamUnreachable, ""); !strings.Contains(p.What, "nothing was sent") {
		t.Fatalf("explained as %+v", p)
	}
	if n := sandboxJobs(ctx, t, d); n != 0 {
		t.Fatalf("%d jobs sent while the database was away", n)
	}

	proxy.Restore()
	later.Add(int64(retryAway))
	id, err := submitFile(ctx, d, plan("a"), false)
	if err != nil {
		t.Fatalf("submitting once the database is back: %v", err)
	}
	if list, _, err := d.Jobs().List(ctx, 1); err != nil || len(list) != 1 || list[0].ID != id || list[0].SubmittedBy != "laptop" {
		t.Fatalf("the jobs list once back: %+v, %v", list, err)
	}

	job := waitResult(ctx, t, d, id)
	if _, err := d.Library().IndexLibrary(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	proxy.Cut() // in the middle of the session
	if _, err := submitFile(ctx, d, plan("b"), false); !errors.Is(err, ErrTeamUnreachable) {
		t.Fatalf("submitting with the database gone in the middle of a session: %v", err)
	}
	// The jobs list shows the team's records as last read, and says so.
	list, _, err := d.Jobs().List(ctx, 1)
	var away *TeamAwayError
	if !errors.As(err, &away) || away.CopyAt.IsZero() || !errors.Is(err, ErrTeamUnreachable) {
		t.Fatalf("the jobs list with the database gone: %v", err)
	}
	if len(list) != 1 || list[0].ID != id || list[0].SubmittedBy != "laptop" {
		t.Fatalf("the jobs list with the database gone: %+v, want %s submitted by laptop (the copy kept here)", list, id)
	}
	// The library answers from this computer's results.
	start := time.Now()
	items, err := d.Library().SearchLibrary(ctx, "anna lee1")
	if err != nil {
		t.Fatalf("searching with the database gone: %v", err)
	}
	if len(items) != 1 || items[0].Path != job.ResultPath {
		t.Fatalf("searching with the database gone: %+v, want the row of %s", items, job.ResultPath)
	}
	t.Logf("searched in %s with the database gone", time.Since(start).Round(time.Millisecond))
	if n := sandboxJobs(ctx, t, d); n != 1 {
		t.Fatalf("%d jobs on the server, want 1: one was sent that could not be recorded", n)
	}
}

// A submission whose answer was lost on one computer is settled from
// either, once: the two computers reconciling at the same moment settle
// it one time between them, as the job the server made.
func TestTeamUnknownSubmissionSettledOnce(t *testing.T) {
	t.Parallel()
	tm := newTestTeam(t)
	quiet := func(c *Config) { c.Track = false }
	a := tm.computer("laptop", quiet)
	b := tm.computer("desktop", quiet)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	tm.sb.srv.SetFaults(sandbox.Faults{DropCreateResponses: 1})
	_, err := submitFile(ctx, a, ownerPlan(t, t.TempDir(), "lost", 5), false)
	if !errors.Is(err, client.ErrOutcomeUnknown) {
		t.Fatalf("a submission whose answer was dropped: %v", err)
	}
	list, _, err := b.Jobs().List(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	unknown := 0
	for _, j := range list {
		if j.Status == jobs.StatusUnknown && j.SubmittedBy == "laptop" {
			unknown++
		}
	}
	if unknown != 1 {
		t.Fatalf("the desktop's list: %+v, want the laptop's unknown submission", list)
	}
	var wg sync.WaitGroup
	settled := make([][]Settled, 2)
	errs := make([]error, 2)
	start := make(chan struct{})
	for i, d := range []*Service{a, b} {
		wg.Go(func() {
			<-start
			settled[i], errs[i] = d.Jobs().Reconcile(ctx)
		})
	}
	close(start)
	wg.Wait()
	var jobIDs []string
	for i := range 2 {
		if errs[i] != nil {
			t.Fatalf("reconcile: %v", errs[i])
		}
		for _, s := range settled[i] {
			if s.JobID != "" {
				jobIDs = append(jobIDs, s.JobID)
			}
		}
	}
	if len(jobIDs) != 1 || sandboxJobs(ctx, t, a) != 1 {
		t.Fatalf("settled as %v between the two computers; %d jobs on the server", jobIDs, sandboxJobs(ctx, t, a))
	}
	led := teamLedger(t, a)
	subs, _ := led.Submissions().List(ctx)
	if len(subs) != 1 || subs[0].JobID != jobIDs[0] {
		t.Fatalf("the ledger's submissions: %+v", subs)
	}
	if sp, err := led.Jobs().JobSpend(ctx, jobIDs[0]); err != nil || sp.Charged == 0 {
		t.Fatalf("the settled job's spend: %+v, %v", sp, err)
	}
}

// Environment of the lease holder process (TestTeamLeaseHolderKilled).
const (
	envHolderAPI  = "SKIPDESK_TEST_HOLDER_API"
	envHolderDB   = "SKIPDESK_TEST_HOLDER_DB"
	envHolderFile = "SKIPDESK_TEST_HOLDER_FILE"
)

// The computer following a job is killed (its process, with no chance to
// let go of anything): when its lease runs out another computer takes the
// job up and records its completion.
func TestTeamLeaseHolderKilled(t *testing.T) {
	if os.Getenv(envHolderDB) != "" {
		holdLease(t)
		return
	}
	skipLeaseWaitIfShort(t)
	dbURL := pgtest.URL(t)
	cfg := sandbox.DefaultConfig()
	// The job runs until the test finishes it, after the handover.
	cfg.Processing = sandbox.Processing{MinSeconds: 3600}
	sb := newTeamSandbox(t, cfg)
	ctx, cancel := context.WithTimeout(t.Context(), 150*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestTeamLeaseHolderKilled$", "-test.v")
	cmd.Env = append(os.Environ(), envHolderAPI+"="+sb.url, envHolderDB+"="+dbURL,
		envHolderFile+"="+ownerList(t, t.TempDir(), "killed", 10))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	var id string
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if f := strings.Fields(lines.Text()); len(f) == 2 && f[0] == "submitted" {
			id = f[1]
			break
		}
	}
	if id == "" {
		t.Fatal("the holder never said what it submitted")
	}
	// What the holder says next is shown if the test fails.
	var said bytes.Buffer
	var saidMu sync.Mutex
	go func() {
		for lines.Scan() {
			saidMu.Lock()
			said.WriteString(lines.Text() + "\n")
			saidMu.Unlock()
		}
	}()
	t.Cleanup(func() {
		if t.Failed() {
			saidMu.Lock()
			t.Logf("the holder's output:\n%s", said.String())
			saidMu.Unlock()
		}
	})
	d := computerOn(t, sb.url, dbURL, "desktop", nil)
	led := teamLedger(t, d)
	waitFollower(ctx, t, led, id, "holder")
	sess, _ := d.current()
	sess.mu.Lock()
	trk := sess.trk
	sess.mu.Unlock()
	if trk.Following(id) {
		t.Fatal("two computers follow the job")
	}
	killed := time.Now()
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	waitFollower(ctx, t, led, id, "desktop")
	took := time.Since(killed)
	t.Logf("the job was handed over %s after its holder was killed (lease 3 s)", took.Round(100*time.Millisecond))
	// The lease lasts 3 s and is looked at every second; a computer's
	// session is given up only after 45 s: a handover well under that is
	// the lease's, with room for a busy machine.
	if took > 10*time.Second {
		t.Fatalf("handed over after %s: the lease lasts 3 s and is looked at every second", took)
	}
	sb.srv.FinishPending()
	if _, err := d.Jobs().Wait(ctx, id, time.Minute); err != nil {
		t.Fatal(err)
	}
	if j, err := led.Jobs().Job(ctx, id); err != nil || j.Status != jobs.StatusCompleted {
		t.Fatalf("the job was not completed by its new follower: %+v, %v", j, err)
	}
}

// holdLease is the process TestTeamLeaseHolderKilled kills: a SkipDesk
// named "holder" that submits a file, follows its job and says so.
func holdLease(t *testing.T) {
	d := computerOn(t, os.Getenv(envHolderAPI), os.Getenv(envHolderDB), "holder", nil)
	ctx := t.Context()
	id := submitted(ctx, t, d, Plan{Kind: jobs.KindTrace, Path: os.Getenv(envHolderFile), Mapping: ownerMapping, Mode: jobs.ModeNormal})
	fmt.Printf("submitted %s\n", id)
	d.Jobs().Subscribe(func(ev Event) {
		if ev.Err != nil {
			fmt.Printf("%s: %v\n", ev.Job.ID, ev.Err)
		}
	})
	for { // until killed, saying what it does (shown if the test fails)
		sess, err := d.current()
		following := false
		if err == nil {
			sess.mu.Lock()
			if sess.trk != nil {
				following = sess.trk.Following(id)
			}
			sess.mu.Unlock()
		}
		fmt.Printf("%s following %s: %v (%v)\n", time.Now().Format("15:04:05.000"), id, following, err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

// One library index for the team: a row of a result on the front desk is
// found by a search on the back office, named with the computer that has
// it, and opening it brings the result there; a list of owners the front
// desk traced is quoted on the back office as traced before, and submitted
// with reuse it costs nothing: the rows are read from the front desk's
// result, downloaded to the back office for it.
func TestTeamLibrary(t *testing.T) {
	t.Parallel()
	tm := newTestTeam(t)
	a, b := tm.frontAndBack()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()

	base := samplePlan(ctx, t, a)
	id := submitted(ctx, t, a, base)
	job := waitResult(ctx, t, a, id)
	if _, err := a.Library().IndexLibrary(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	src, list := matchedRows(t, base.Path, job.ResultPath, 5)
	last := list[0][col(t, src[0], "Owner Last Name")]

	hit := teammateHit(ctx, t, b, last, id, "front-desk")
	if _, err := os.Stat(filepath.Join(libDir(b), filepath.Base(job.ResultPath))); err == nil {
		t.Fatal("the result is on the back office before it was asked for")
	}
	// Five owners the front desk traced, quoted and submitted on the back
	// office with reuse: nothing to trace, nothing charged.
	merged := submitAllReused(ctx, t, b, base, append([][]string{src[0]}, list...))
	if merged[1][col(t, merged[0], "source")] != "reused" || merged[1][col(t, merged[0], "source_job")] != id {
		t.Fatalf("the merged result: %v", merged)
	}

	fetchTeammateResult(ctx, t, b, hit, last, id)
	mergedOnlyFromTeammate(ctx, t, a, last)
	if n := tm.sb.count(http.StatusTooManyRequests); n != 0 {
		t.Fatalf("%d × 429", n)
	}
}

// teammateHit searches d's library for q and returns the row found in job
// id's result, which must be in by's library (not d's).
func teammateHit(ctx context.Context, t *testing.T, d *Service, q, id, by string) *LibraryItem {
	t.Helper()
	items, err := d.Library().SearchLibrary(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	for i, it := range items {
		if it.JobID == id && it.Path == "" && it.Teammate == by && it.Row > 0 && it.Kind == jobs.KindTrace {
			return &items[i]
		}
	}
	t.Fatalf("%s's search for %q: %+v, want a row of %s in %s's library", d.Team().Computer(), q, items, id, by)
	return nil
}

// fetchTeammateResult brings hit, a row of job id's result in a
// teammate's library, to b: the search for last then lists it once, from
// b's copy.
func fetchTeammateResult(ctx context.Context, t *testing.T, b *Service, hit *LibraryItem, last, id string) {
	t.Helper()
	// The back office now has the result: the search shows its copy, once.
	got, err := b.Library().FetchResult(ctx, *hit, nil)
	if err != nil || got.Path == "" || got.Row != hit.Row {
		t.Fatalf("bringing the result here: %+v, %v", got, err)
	}
	// A row of a merged result: its job's download does not hold the
	// merged file's rows, so it opens at its top, not at a row that is
	// another's.
	m := *hit
	m.merged = true
	if got, err := b.Library().FetchResult(ctx, m, nil); err != nil || got.Row != 0 {
		t.Fatalf("bringing a merged result's job here: %+v, %v", got, err)
	}
	if _, err := b.Library().IndexLibrary(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	items, err := b.Library().SearchLibrary(ctx, last)
	if err != nil {
		t.Fatal(err)
	}
	here := 0
	for _, it := range items {
		switch {
		case it.JobID == id && it.Row == hit.Row && it.Path == "":
			t.Fatalf("the row is listed in the teammate's library although it is here: %+v", items)
		case it.JobID == id && it.Row == hit.Row:
			here++
		}
	}
	if here != 1 {
		t.Fatalf("the row is listed %d times from this computer's copy: %+v", here, items)
	}
}

// mergedOnlyFromTeammate: a merged result a teammate made from earlier
// results only is found by a's search for last and, with no job of its own,
// cannot be downloaded; opening it says so.
func mergedOnlyFromTeammate(ctx context.Context, t *testing.T, a *Service, last string) {
	t.Helper()
	// The back office's merged result, made from the front desk's rows
	// only, is found from the front desk too: with no job of its own, it
	// cannot be downloaded, and that is what opening it says.
	items, err := a.Library().SearchLibrary(ctx, last)
	if err != nil {
		t.Fatal(err)
	}
	var merged *LibraryItem
	for i, it := range items {
		if it.Path == "" && it.Teammate == "back-office" {
			merged = &items[i]
		}
	}
	if merged == nil || merged.JobID != "" || !strings.Contains(merged.Hits[0], "no job to download it from") {
		t.Fatalf("the front desk's search for %q: %+v, want the back office's merged result", last, items)
	}
	if _, err := a.Library().FetchResult(ctx, *merged, nil); err == nil || !strings.Contains(err.Error(), "ask them for the file") {
		t.Fatalf("opening a merged result with no job: %v", err)
	}
}
