package optout

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs/resultgen"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// The adversary of the call-log reader: dialers' call logs
// (resultgen.CallLogs: a number or a From and a To, a direction or none,
// a date and a time in one column or two, written in UTC or a US zone the
// file may not say), each with its truth. Read in this computer's zone (a
// guess), no number shows fewer calls in the 24 hours before the instant
// than it had; read in the zone the log is written in, exactly as many.

var (
	callLogCases = flag.Int("calllog.cases", 0, "how many generated call logs TestGeneratedCallLogsCountEveryCall reads (0: 300; 40 with -short)")
	callLogFirst = flag.Int64("calllog.seed", 1, "the first seed TestGeneratedCallLogsCountEveryCall reads")
)

// computerZones are the zones the computer reading a log may be in.
var computerZones = []string{"America/New_York", "America/Chicago", "America/Los_Angeles", "Pacific/Honolulu"}

func TestGeneratedCallLogsCountEveryCall(t *testing.T) {
	t.Parallel()
	n := *callLogCases
	if n == 0 {
		n = 300
		if testing.Short() {
			n = 40
		}
	}
	testlists.RunSeeds(t, "generated call logs", *callLogFirst, n, checkCallLog)
}

// checkCallLog reads the call log of seed, in one of the computer zones
// by the seed: the case and how it broke the promise.
func checkCallLog(t *testing.T, seed int64) (string, []string) {
	c := resultgen.CallLogs(seed)
	return fmt.Sprintf("%s, %q, written in %s", c.Name(), c.Sheets[0].Header, c.Zone),
		countCalls(t, c, computerZones[uint64(seed)%uint64(len(computerZones))])
}

// countCalls reads the case's log in the computer's zone (guessed) and in
// its own, and says how the counts broke the promise.
func countCalls(t *testing.T, c *resultgen.CallLogCase, computer string) []string {
	path, err := c.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	here, err := time.LoadLocation(computer)
	if err != nil {
		t.Fatal(err)
	}
	truth := map[string]int{}
	var problems []string
	for _, call := range c.Calls[0] {
		if call.Person != 0 && call.At.After(c.At.Add(-24*time.Hour)) && !call.At.After(c.At) {
			truth[fmt.Sprintf("%010d", call.Person)]++
		}
	}
	for _, read := range []struct {
		opt   Options
		exact bool
	}{{Options{Location: here, Guessed: true}, false}, {Options{Location: c.Zone}, true}} {
		log, err := ReadCallLog(context.Background(), path, read.opt)
		if err != nil {
			return []string{fmt.Sprintf("refused: %v", err)}
		}
		got := log.Recent(c.At)
		for n, want := range truth {
			if got[n] < want || read.exact && got[n] != want {
				problems = append(problems, fmt.Sprintf("read in %s (guessed %v): %s shows %d calls in the 24 hours, had %d",
					read.opt.Location, read.opt.Guessed, n, got[n], want))
			}
		}
		for j, call := range c.Calls[0] {
			if line := c.FirstLine(&c.Sheets[0]) + j; call.Person == 0 && !named(log.Problems, line) {
				problems = append(problems, fmt.Sprintf("line %d: a call whose number cannot be read is not named", line))
			}
		}
	}
	return problems
}

// named reports a problem naming the line.
func named(problems []string, line int) bool {
	for _, p := range problems {
		if strings.HasPrefix(p, fmt.Sprintf("line %d: ", line)) {
			return true
		}
	}
	return false
}

// FuzzGeneratedCallLogs holds the promise over random seeds: `make fuzz`
// runs it with the other fuzz targets (scripts/fuzz.sh).
func FuzzGeneratedCallLogs(f *testing.F) { testlists.FuzzSeeds(f, checkCallLog) }
