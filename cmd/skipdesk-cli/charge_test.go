package main

import (
	"encoding/json"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// The estimate `skipdesk-cli estimate` prints is what `traces submit` is
// charged, over varied lists and every choice of mode, companies and
// duplicates.
func TestCLIEstimateIsTheCharge(t *testing.T) {
	apiSandbox(t)
	dir := t.TempDir()
	for _, l := range testlists.Lists() {
		path, err := l.Write(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range testlists.Choices {
			t.Run(l.Name+"/"+c.String(), func(t *testing.T) {
				args := []string{"--mode", c.Mode}
				for k, h := range testlists.Mapping {
					args = append(args, "--map", k+"="+h)
				}
				if c.IncludeLLCs {
					args = append(args, "--include-llcs")
				}
				if c.DropDuplicates {
					args = append(args, "--drop-duplicates")
				}
				code, out, errs := runCLI(t, append([]string{"estimate", path, "--json"}, args...)...)
				if code != 0 {
					t.Fatalf("estimate: exit %d: %s", code, errs)
				}
				var est struct{ Credits int64 }
				if err := json.Unmarshal([]byte(out), &est); err != nil || est.Credits == 0 {
					t.Fatalf("estimate: %v %s", err, out)
				}
				code, out, errs = runCLI(t, append([]string{"--json", "traces", "submit", "--file", path}, args...)...)
				if code != 0 {
					t.Fatalf("submit: exit %d: %s", code, errs)
				}
				var sub struct {
					Charged int64 `json:"credits_charged"`
				}
				if err := json.Unmarshal([]byte(out), &sub); err != nil {
					t.Fatalf("submit: %v %s", err, out)
				}
				if sub.Charged != est.Credits {
					t.Fatalf("estimated %d credits, charged %d", est.Credits, sub.Charged)
				}
			})
		}
	}
}
