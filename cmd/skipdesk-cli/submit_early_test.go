package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// earlyOwners needs a prepared copy (ZIP codes Excel shortened, among the
// first rows): its upload starts while the list is read.
const earlyOwners = "First,Last,Street,City,State,Zip\r\n" +
	"Ann,Lee,1 Main St,Hoboken,NJ,7030\r\n" +
	"Bob,Ray,2 Oak Ave,Austin,TX,78702\r\n" +
	"Cal,Poe,3 Elm Rd,Boston,MA,2108\r\n"

// The upload started while the list is read is the job: the rows sent,
// the repairs made, charged once.
func TestTracesSubmitSentAsItIsRead(t *testing.T) {
	sb := startSubmitSandbox(t, 0.3)
	submitEnv(t, sb)
	file := testlists.WriteFile(t, "owners.csv", earlyOwners)
	code, out, errs := runCLI(t, append([]string{"traces", "submit", "--file", file}, submitMaps...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	n, traces := sb.jobs(t)
	if n != 1 || strings.TrimSpace(out) != traces[0].ID || traces[0].TotalRows != 3 || traces[0].CreditsCharged != 3 {
		t.Fatalf("stdout %q; %d jobs %+v", out, n, traces)
	}
	if !strings.Contains(errs, "uploading a prepared copy: ZIP codes get back the leading zero") {
		t.Fatalf("stderr %q", errs)
	}
}

// A submission that stops after the list is read — its mapping wrong, the
// library unwritable — sends nothing whole: no job.
func TestTracesSubmitStoppedAfterTheReadSendsNothing(t *testing.T) {
	cases := map[string]func(t *testing.T, home string) []string{
		"the mapping is wrong": func(t *testing.T, _ string) []string {
			return []string{"--map", "first_name=First", "--map", "last_name=Last", "--map", "property_street=Street",
				"--map", "property_city=City", "--map", "property_state=State", "--map", "property_zip=Zipcode"}
		},
		"the library cannot be written": func(t *testing.T, home string) []string {
			if err := os.WriteFile(filepath.Join(home, "results"), []byte("in the way"), 0o644); err != nil {
				t.Fatal(err)
			}
			return append(append([]string{}, submitMaps...), "--wait")
		},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			sb := startSubmitSandbox(t, 0.3)
			home := submitEnv(t, sb)
			file := testlists.WriteFile(t, "owners.csv", earlyOwners)
			code, _, errs := runCLI(t, append([]string{"traces", "submit", "--file", file}, args(t, home)...)...)
			if code == 0 {
				t.Fatalf("exit 0: %s", errs)
			}
			if n, _ := sb.jobs(t); n != 0 {
				t.Fatalf("%d jobs submitted (%s)", n, errs)
			}
		})
	}
}
