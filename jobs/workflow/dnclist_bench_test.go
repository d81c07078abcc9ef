package workflow

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/sqldb/pgtest"
)

// The company's do-not-call list at a million numbers, through the
// application layer as the window and `dnc-list import` use it (issue: an
// import took 235 s and 545 MB, every callable export 21.5 s more).
// bench/dnclist.sh runs these with the ledger's benchmarks and prints
// medians. Each has a sub-benchmark per store: a computer's own SQLite
// ledger, and a team's PostgreSQL database (a throwaway server).

// millionNumbers is how many numbers the list benchmarks import.
const millionNumbers = 1_000_000

// numbersFile writes a CSV of n rows, a name and a distinct valid phone
// number each, formatted as list vendors do, and returns its path.
func numbersFile(b *testing.B, n int) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "numbers.csv")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("Name,Phone\r\n")
	for i := range n {
		fmt.Fprintf(w, "Owner %d,(%03d) 555-%04d\r\n", i, 212+i/10_000, i%10_000)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// listStores are the stores the list benchmarks run on: a Config for a
// fresh one of each.
func listStores() map[string]func(b *testing.B) Config {
	return map[string]func(b *testing.B) Config{
		"sqlite": func(b *testing.B) Config {
			return Config{Secrets: secrets.Memory(), Home: b.TempDir(), Computer: "bench"}
		},
		"postgres": func(b *testing.B) Config {
			return Config{Secrets: secrets.Memory(), Home: b.TempDir(), Computer: "bench", DatabaseURL: pgtest.URL(b)}
		},
	}
}

// BenchmarkInternalImport1M imports a file of a million numbers onto an
// empty list: the file read twice (its columns counted, then its numbers
// taken), the numbers written ten thousand a transaction.
func BenchmarkInternalImport1M(b *testing.B) {
	path := numbersFile(b, millionNumbers)
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				d := benchDesk(b, listStores()[name](b))
				b.StartTimer()
				rep, err := d.Compliance().ImportInternal(context.Background(), ListImport{Path: path, Reason: "bench"}, nil)
				if err != nil || rep.Added != millionNumbers {
					b.Fatalf("added %d: %v", rep.Added, err)
				}
			}
		})
	}
}

// BenchmarkInternalKeys1M is what a list of a million numbers adds to a
// callable export: the list read as the set the flag index checks. With
// a session open (the window, and the command line's commands that
// connect) the ledger is open already; "sqlite-cli" is a command without
// one, which opens the ledger read-only and checks its pages first.
func BenchmarkInternalKeys1M(b *testing.B) {
	path := numbersFile(b, millionNumbers)
	for _, name := range []string{"sqlite", "postgres", "sqlite-cli"} {
		b.Run(name, func(b *testing.B) {
			cfg := listStores()[strings.TrimSuffix(name, "-cli")](b)
			if !strings.HasSuffix(name, "-cli") {
				cfg.BaseURL, cfg.APIKey = benchSandbox(b), sandbox.DemoKey
			}
			d := benchDesk(b, cfg)
			if cfg.APIKey != "" {
				if _, err := d.Sessions().Resume(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			if _, err := d.Compliance().ImportInternal(context.Background(), ListImport{Path: path}, nil); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for range b.N {
				keys, err := d.internalKeys(context.Background())
				if err != nil || keys.Len() != millionNumbers {
					b.Fatalf("%d numbers: %v", keys.Len(), err)
				}
			}
		})
	}
}

// benchSandbox starts a sandbox for a session to open on, and returns its
// address.
func benchSandbox(b *testing.B) string {
	b.Helper()
	return clienttest.StartSandbox(b, sandbox.DefaultConfig()).URL()
}

func benchDesk(b *testing.B, cfg Config) *Service {
	b.Helper()
	d, err := Open(cfg)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Close() })
	return d
}
