package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

const prepOwners = "Owner 1 First Name,Owner 1 Last Name,Situs Address,Situs City,Situs State,Situs Zip,Mail Address,Mail City,Mail State,Mail Zip\r\n" +
	"Ann,Lee,1 Elm St,Austin,TX,78701,PO Box 1,Waco,TX,76701\r\n" +
	"ACME HOLDINGS LLC,,2 Oak Ave,Waco,TX,76701,PO Box 2,Waco,TX,76701\r\n" +
	"Bo,Ray,3 Pine Rd,Waco,TX,76702,PO Box 3,Waco,TX,76701\r\n" +
	"Ann,Lee,1 Elm St,Austin,TX,78701,PO Box 1,Waco,TX,76701\r\n"

func TestValidateAutoMap(t *testing.T) {
	p := testlists.WriteFile(t, "owners.csv", prepOwners)
	out := runOK(t, "validate", p)
	wantLines(t, "output", out, "mapping from auto", `first_name`, `"Owner 1 First Name"`, "confidence 0.94", `"Mail Zip"`, "mapping OK")
}

func TestValidateEveryProblemOnStderr(t *testing.T) {
	p := testlists.WriteFile(t, "owners.csv", prepOwners)
	code, _, errs := runCLI(t, "validate", p, "--map", "first_name=Owner 1 First Name", "--map", "frist=x",
		"--map", "property_zip=Zip", "--map", "property_city=Situs City")
	if code != exitUsage {
		t.Fatalf("exit %d, want %d", code, exitUsage)
	}
	wantLines(t, "stderr", errs,
		"error: Normal mode searches by the owner's name: choose the column of Owner last name, or choose Enhanced mode, which searches by the address alone. (keys: last_name)",
		"Choose the columns of one whole address",
		`"frist" is not a field of the service; did you mean Owner first name ("first_name")?`,
		"The property address needs all four parts or none: Property city and Property ZIP code are chosen, Property street address and Property state are not.",
		`Column "Zip", chosen for Property ZIP code, is not in this file. Its columns are "Owner 1 First Name"`,
		"(keys: property_zip)",
		"the mapping has 5 problems",
	)
}

func TestValidateJSON(t *testing.T) {
	p := testlists.WriteFile(t, "owners.csv", prepOwners)
	code, out, errs := runCLI(t, "validate", p, "--mode", "enhanced", "--map", "first_name=Owner 1 First Name", "--json")
	if code != exitUsage || !strings.Contains(errs, "one whole address") || !strings.Contains(errs, "warning: Enhanced mode searches by address only") {
		t.Fatalf("exit %d, stderr %s", code, errs)
	}
	var v struct {
		OK         bool
		Mode       string
		Mapping    map[string]string
		Validation struct{ Problems []mapping.Problem }
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if v.OK || v.Mode != "enhanced" || v.Mapping["first_name"] != "Owner 1 First Name" || len(v.Validation.Problems) != 2 ||
		v.Validation.Problems[0].Code != mapping.CodeNoAddressGroup || v.Validation.Problems[1].Severity != mapping.Warning {
		t.Errorf("json = %+v", v)
	}
}

func TestValidateSplitsAndDNC(t *testing.T) {
	p := testlists.WriteFile(t, "full.csv", "Owner Name,Property Address\nSMITH JOHN,\"123 Main St, Springfield, IL 62704\"\n")
	code, out, _ := runCLI(t, "validate", p)
	if code != exitUsage || !strings.Contains(out, `suggestion: split "Owner Name" into first_name, last_name ("SMITH JOHN" → "JOHN" | "SMITH")`) {
		t.Errorf("exit %d:\n%s", code, out)
	}
	if code, out, errs := runCLI(t, "validate", p, "--accept-splits"); code != 0 || !strings.Contains(out, `split from "Property Address"`) {
		t.Errorf("accept splits: exit %d:\n%s%s", code, out, errs)
	}
	ph := testlists.WriteFile(t, "phones.csv", "Name,Phone 2,Cell Phone\nAnn,,2125550147\n")
	if code, out, errs := runCLI(t, "validate", ph, "--dnc"); code != 0 || !strings.Contains(out, `"Cell Phone"`) {
		t.Errorf("dnc: exit %d:\n%s%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "validate", ph, "--map", "phone=Phone"); code != exitUsage || !strings.Contains(errs, `Column "Phone", chosen for Phone number, is not in this file`) {
		t.Errorf("dnc absent column: exit %d: %s", code, errs)
	}
}

func TestValidatePreset(t *testing.T) {
	p := testlists.WriteFile(t, "owners.csv", prepOwners)
	store := filepath.Join(t.TempDir(), "presets.json")
	hs := strings.Split(strings.SplitN(prepOwners, "\r\n", 2)[0], ",")
	m := mapping.Mapping{mapping.FirstName: "Owner 1 First Name", mapping.LastName: "Owner 1 Last Name",
		mapping.MailingStreet: "Mail Address", mapping.MailingCity: "Mail City", mapping.MailingState: "Mail State", mapping.MailingZip: "Mail Zip"}
	if err := mapping.NewFileStore(store).SavePreset(mapping.NewPreset("county", hs, jobs.KindTrace, m, "enhanced", false)); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "validate", p, "--presets", store)
	if code != 0 || !strings.Contains(out, "mapping from preset county, enhanced mode") || strings.Contains(out, `"Situs Zip"`) {
		t.Errorf("exit %d:\n%s%s", code, out, errs)
	}
	// An explicit --mode wins over the preset's: names are then required,
	// and the preset maps them.
	if code, out, _ := runCLI(t, "validate", p, "--presets", store, "--mode", "normal"); code != 0 || !strings.Contains(out, "preset county, normal mode") {
		t.Errorf("--mode normal with an enhanced preset: exit %d\n%s", code, out)
	}
	// Save the mapping given by flags under a newer name: it wins next time.
	code, _, errs = runCLI(t, "validate", p, "--presets", store, "--save-preset", "situs",
		"--map", "first_name=Owner 1 First Name", "--map", "last_name=Owner 1 Last Name", "--map", "property_street=Situs Address",
		"--map", "property_city=Situs City", "--map", "property_state=Situs State", "--map", "property_zip=Situs Zip")
	if code != 0 || !strings.Contains(errs, `saved preset "situs"`) {
		t.Fatalf("save: exit %d: %s", code, errs)
	}
	if code, out, _ := runCLI(t, "validate", p, "--presets", store); code != 0 || !strings.Contains(out, "mapping from preset situs, normal mode") {
		t.Errorf("after save: exit %d:\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "validate", p, "--save-preset", "x"); code != exitUsage {
		t.Errorf("--save-preset without --presets: exit %d", code)
	}
}

func TestPrepUsageErrors(t *testing.T) {
	p := testlists.WriteFile(t, "owners.csv", prepOwners)
	for _, args := range [][]string{
		{"validate"},
		{"validate", p, p},
		{"validate", p, "--map", "nokey"},
		{"validate", p, "--mode", "deep"},
		{"estimate"},
	} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%q: exit %d, want %d", args, code, exitUsage)
		}
	}
	if code, _, errs := runCLI(t, "validate", filepath.Join(t.TempDir(), "none.csv")); code != exitFailure || !strings.Contains(errs, "none.csv") {
		t.Errorf("missing file: exit %d %s", code, errs)
	}
}

func startPrepSandbox(t *testing.T) {
	t.Helper()
	cfg := sandbox.DefaultConfig()
	cfg.Rates = sandbox.Rates{Normal: 2, Enhanced: 7, LLC: 3, DNC: 1}
	srv := clienttest.StartSandbox(t, cfg)
	t.Setenv("SKIPDESK_BASE_URL", srv.URL())
	t.Setenv("SKIPDESK_API_KEY", sandbox.DemoKey)
}

func TestEstimateCommand(t *testing.T) {
	startPrepSandbox(t)
	p := testlists.WriteFile(t, "owners.csv", prepOwners)
	tests := []struct {
		args    []string
		credits int64
		entity  int
		rows    int
	}{
		{nil, 3 * 2, 1, 4},
		{[]string{"--include-llcs"}, 3*2 + 3, 1, 4},
		{[]string{"--mode", "enhanced", "--include-llcs"}, 4 * 7, 1, 4},
		{[]string{"--drop-duplicates"}, 2 * 2, 1, 3},
	}
	for _, tt := range tests {
		code, out, errs := runCLI(t, append([]string{"estimate", p, "--json"}, tt.args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", tt.args, code, errs)
		}
		var v struct {
			Estimate struct {
				Credits      int64
				TotalRows    int   `json:"total_rows"`
				EntityRows   int   `json:"entity_rows"`
				CanPay       bool  `json:"can_pay"`
				BalanceAfter int64 `json:"balance_after"`
			}
			Upload struct{ Written bool }
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if v.Estimate.Credits != tt.credits || v.Estimate.TotalRows != tt.rows || v.Estimate.EntityRows != tt.entity || !v.Estimate.CanPay || v.Estimate.BalanceAfter != 25000-tt.credits {
			t.Errorf("%q: %+v\n%s", tt.args, v, out)
		}
	}
	out := runOK(t, "estimate", p, "--include-llcs")
	wantLines(t, "output", out, "uploaded as it is", "4 rows, 1 company; normal mode, include LLCs: yes", "individuals", "cost: 9 credits up front",
		"Off: leave out 1 row that repeats an earlier row — would save 2 credits", "(--drop-duplicates turns it on)",
		"balance: 25000 → 24991 credits (prepaid)", "the account can pay")
}

// A phone list's numbers outside the US are listed with their country and
// left out before paying unless --leave-out-abroad=false sends them.
func TestEstimateCommandLeavesOutNumbersAbroad(t *testing.T) {
	startPrepSandbox(t)
	ph := testlists.WriteFile(t, "phones.csv", "Name,Cell\nAnn,(416) 555-0147\nBo,(212) 555-0147\nCy,1-876-555-0102\n")
	out := runOK(t, "estimate", ph, "--dnc")
	wantLines(t, "output", out, "phone numbers outside the US are left out", "2 numbers are outside the US",
		"line 2: (416) 555-0147 (Canada)", "line 4: 1-876-555-0102 (Jamaica)", "cost: 1 row × 1 = 1 credit up front",
		"On: leave out 2 numbers outside the US — saves 2 credits", "(--leave-out-abroad=false turns it off)")
	out = runOK(t, "estimate", ph, "--dnc", "--leave-out-abroad=false")
	wantLines(t, "output", out, "cost: 3 rows × 1 = 3 credits up front", "Off: leave out 2 numbers outside the US — would save 2 credits",
		"(--leave-out-abroad turns it on)")
}

func TestEstimateCommandDNCAndRefusals(t *testing.T) {
	startPrepSandbox(t)
	ph := testlists.WriteFile(t, "phones.csv", "Name;Cell\nAnn;(212) 555-0147\nBo;1.23E+10\nCy;2125550147\n")
	out := runOK(t, "estimate", ph, "--dnc", "--leave-out-invalid=false")
	wantLines(t, "output", out, "prepared copy", "3 phone rows: 2 valid (1 distinct), 1 invalid, 1 repeated", `"(212) 555-0147" -> 2125550147`,
		"cost: 3 rows × 1 = 3 credits up front; 1 refunded for the invalid numbers: 2 net",
		"Off: leave out 1 invalid number — would save 1 credit", "(--leave-out-invalid turns it on)")
	code, out, errs := runCLI(t, "estimate", ph, "--dnc", "--drop-duplicates", "--leave-out-invalid=false", "--json")
	var v struct {
		Upload struct {
			DroppedDuplicates int `json:"dropped_duplicates"`
		}
		DNCEstimate struct{ Credits int64 } `json:"dnc_estimate"`
		Phones      struct {
			InvalidRows []struct {
				Line   int
				Raw    string
				Reason string
			} `json:"invalid_rows"`
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 || v.Upload.DroppedDuplicates != 1 || v.DNCEstimate.Credits != 2 {
		t.Errorf("drop duplicate phones: exit %d %v %+v %s", code, err, v, errs)
	}
	if r := v.Phones.InvalidRows; len(r) != 1 || r[0].Line != 3 || r[0].Raw != "1.23E+10" || !strings.Contains(r[0].Reason, "scientific") {
		t.Errorf("invalid rows listed: %+v", r)
	}
	// An invalid mapping is said, and nothing priced (the session opened
	// while the file is read changes nothing).
	p := testlists.WriteFile(t, "owners.csv", prepOwners)
	if code, _, errs := runCLI(t, "estimate", p, "--map", "first_name=Nope"); code != exitUsage || !strings.Contains(errs, `Column "Nope"`) {
		t.Errorf("invalid mapping: exit %d: %s", code, errs)
	}
}

func TestValidateWarnsMostlyBlank(t *testing.T) {
	p := testlists.WriteFile(t, "owners.csv", "First,Last,Address,City,State,Zip\n"+
		"Ann,,1 Elm St,Austin,TX,78701\nBo,,2 Oak Ave,Waco,TX,76701\nACME LLC,,3 Pine Rd,Waco,TX,76702\nCy,Ray,4 Elm St,Waco,TX,76702\n")
	code, out, errs := runCLI(t, "validate", p)
	if code != 0 || !strings.Contains(out, "mapping OK") || !strings.Contains(errs, `warning: Column "Last", chosen for Owner last name, is blank on 3 of 4 rows (75%): those rows are unlikely to match. (keys: last_name)`) {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}

func TestEstimateExactDuplicateSaving(t *testing.T) {
	startPrepSandbox(t)
	// The repeated row is a company: skipped without --include-llcs, so
	// dropping it saves nothing; with it, the llc rate.
	p := testlists.WriteFile(t, "owners.csv", "First,Last,Address,City,State,Zip\n"+
		"Ann,Lee,1 Elm St,Austin,TX,78701\nACME LLC,,2 Oak Ave,Waco,TX,76701\nAcme LLC,,2 Oak Ave.,Waco,TX,76701\n")
	for _, tt := range []struct {
		args  []string
		saved int64
	}{{nil, 0}, {[]string{"--include-llcs"}, 3}, {[]string{"--mode", "enhanced", "--include-llcs"}, 7}} {
		code, out, errs := runCLI(t, append([]string{"estimate", p, "--json"}, tt.args...)...)
		var v struct {
			Estimate struct {
				DuplicateRows    int   `json:"duplicate_rows"`
				DuplicateSavings int64 `json:"duplicate_savings"`
			}
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil || code != 0 {
			t.Fatalf("exit %d %v %s", code, err, errs)
		}
		if v.Estimate.DuplicateRows != 1 || v.Estimate.DuplicateSavings != tt.saved {
			t.Errorf("%q: %+v, want saving %d", tt.args, v.Estimate, tt.saved)
		}
	}
}

// TestEstimateRepairs: the estimate's review names the repairs a list can
// have, on by default, each with the flag that turns it off; turned off,
// the rows come back into the price; a scrub's invalid numbers are left
// out by default, with nothing to refund.
func TestEstimateRepairs(t *testing.T) {
	startPrepSandbox(t)
	p := testlists.WriteFile(t, "owners.csv", "First Name,Last Name,Property Address,Property City,Property State,Property Zip\n"+
		"Ann,Lee,1 Elm St,Hoboken,NJ,7030\nBo,Wu,,Newark,NJ,7102\nCy,Ng,3 Oak Ave,Austin,TX,78701\n")
	out := runOK(t, "estimate", p)
	wantLines(t, "output", out, `On: give 2 ZIP codes back the leading zero Excel dropped. "7030" is sent as "07030"`, "(--pad-zips=false turns it off)",
		`On: leave out 1 row with no street address in "Property Address" — saves up to 2 credits.`, "(--leave-out-no-address=false turns it off)",
		"Left out: 1 row — no street address: they cannot be searched.", "cost: 4 credits up front")
	out = runOK(t, "estimate", p, "--pad-zips=false", "--leave-out-no-address=false")
	wantLines(t, "without the repairs, output", out, "Off: give 2 ZIP codes back", "(--pad-zips turns it on)", "Off: leave out 1 row with no street address", "cost: 6 credits up front")
	ph := testlists.WriteFile(t, "phones.csv", "Cell\n(212) 555-0147\n555-1234\n3055550101\n")
	out = runOK(t, "estimate", ph, "--dnc")
	wantLines(t, "scrub output", out, "Left out: 1 row — invalid numbers: not sent, not charged.", "On: leave out 1 invalid number — saves 1 credit", "cost: 2 rows × 1 = 2 credits up front\n")
}
