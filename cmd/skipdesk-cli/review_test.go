package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// reviewOut is the review the command line's JSON carries.
type reviewOut struct {
	Sent    int    `json:"rows_sent"`
	Credits int64  `json:"credits"`
	Nothing string `json:"nothing_billable"`
	LeftOut []struct {
		Rows int    `json:"rows"`
		Why  string `json:"why"`
	} `json:"left_out"`
	Repairs []struct {
		Key     string `json:"key"`
		On      bool   `json:"on"`
		Default bool   `json:"default"`
		Rows    int    `json:"rows"`
	} `json:"repairs"`
}

// traces submit prints the review before sending — the repairs that lose
// nothing on by default, each with the flag that turns it off — and its
// JSON carries it; =false turns a repair off.
func TestSubmitPrintsTheReview(t *testing.T) {
	sb := startSubmitSandbox(t, 0.2)
	submitEnv(t, sb)
	p := filepath.Join(t.TempDir(), "owners.csv")
	os.WriteFile(p, []byte("First,Last,Street,City,State,Zip\r\n"+
		"Ann,Lee,1 Main St,Hoboken,NJ,7030\r\n"+
		"Bob,Ray,,Austin,TX,78702\r\n"+
		"Cal,Poe,3 Elm Rd,Austin,TX,78703\r\n"), 0o644)
	code, out, errs := runCLI(t, append([]string{"--json", "traces", "submit", "--file", p}, submitMaps...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	for _, w := range []string{"owners.csv: 2 rows sent", "Left out: 1 row — no street address",
		`On: give 1 ZIP code back the leading zero Excel dropped. "7030" is sent as "07030"`, "(--pad-zips=false turns it off)",
		"(--leave-out-no-address=false turns it off)"} {
		if !strings.Contains(errs, w) {
			t.Errorf("the review printed lacks %q:\n%s", w, errs)
		}
	}
	var v struct {
		JobID  string    `json:"job_id"`
		Review reviewOut `json:"review"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.JobID == "" {
		t.Fatalf("JSON %s: %v", out, err)
	}
	if v.Review.Sent != 2 || len(v.Review.Repairs) != 2 {
		t.Fatalf("review %+v", v.Review)
	}
	for _, r := range v.Review.Repairs {
		if !r.On || !r.Default || r.Rows != 1 {
			t.Errorf("repair %+v: want on by default", r)
		}
	}

	// Turned off, the row is sent and the ZIP code kept (another
	// submission: its options differ).
	code, out, errs = runCLI(t, append(append([]string{"--json", "traces", "submit", "--file", p}, submitMaps...),
		"--pad-zips=false", "--leave-out-no-address=false")...)
	if err := json.Unmarshal([]byte(out), &v); code != 0 || err != nil || v.Review.Sent != 3 {
		t.Fatalf("repairs off: exit %d %v %+v\n%s", code, err, v.Review, errs)
	}
	if !strings.Contains(errs, "Off: give 1 ZIP code back") || !strings.Contains(errs, "(--pad-zips turns it on)") {
		t.Errorf("repairs off, the review says:\n%s", errs)
	}
}

// A phone list whose numbers are all invalid is refused before any
// charge from the command line, whether its invalid numbers are left out
// (the default: nothing is left) or sent (each would be charged, then
// refunded): exit 2, the review says why, no job reaches the server and
// the balance stays.
func TestSubmitRefusesNothingBillable(t *testing.T) {
	sb := startSubmitSandbox(t, 0.2)
	submitEnv(t, sb)
	var b strings.Builder
	b.WriteString("Name,Cell\r\n")
	for i := range 60 {
		fmt.Fprintf(&b, "Lead %d,555-01%02d\r\n", i, i) // seven digits: invalid
	}
	p := filepath.Join(t.TempDir(), "leads.csv")
	os.WriteFile(p, []byte(b.String()), 0o644)
	balance := func() string {
		code, out, errs := runCLI(t, "account", "--json")
		if code != 0 {
			t.Fatalf("account: %d %s", code, errs)
		}
		var a struct{ Credits int64 }
		json.Unmarshal([]byte(out), &a)
		return fmt.Sprint(a.Credits)
	}
	before := balance()
	for _, tc := range []struct {
		args []string
		why  string
	}{
		{nil, "no phone number is left to scrub"},
		{[]string{"--leave-out-invalid=false"}, "none of its phone numbers is a valid US number"},
	} {
		args := append([]string{"dnc", "submit", "--file", p, "--phone-column", "Cell"}, tc.args...)
		code, _, errs := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(errs, "Nothing to charge for: "+tc.why) || !strings.Contains(errs, "Nothing was charged") ||
			strings.Contains(errs, "prepared copy") {
			t.Errorf("%q: exit %d\n%s", tc.args, code, errs)
		}
		code, out, _ := runCLI(t, append([]string{"--json"}, args...)...)
		var v struct {
			Submitted *bool     `json:"submitted"`
			Review    reviewOut `json:"review"`
		}
		if err := json.Unmarshal([]byte(out), &v); code != exitUsage || err != nil || v.Submitted == nil || *v.Submitted || !strings.HasPrefix(v.Review.Nothing, tc.why) {
			t.Errorf("%q --json: exit %d %v %s", tc.args, code, err, out)
		}
	}
	if n, _ := sb.jobs(t); n != 0 {
		t.Errorf("%d jobs reached the server", n)
	}
	if after := balance(); after != before {
		t.Errorf("balance %s → %s", before, after)
	}
}
