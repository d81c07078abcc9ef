package estimate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

var pricing = &client.Pricing{Rates: client.Rates{Normal: 2, Enhanced: 5, LLC: 3, DNC: 1}}

func prepaid(credits int64) *client.Account {
	return &client.Account{BillingMode: client.BillingPrepaid, Credits: credits}
}

var names = mapping.Mapping{mapping.FirstName: "First", mapping.LastName: "Last",
	mapping.PropertyStreet: "Addr", mapping.PropertyCity: "City", mapping.PropertyState: "ST", mapping.PropertyZip: "Zip"}

func TestEstimateTiers(t *testing.T) {
	// 100 rows, 10 of them companies, 4 duplicates.
	ins := &input.Inspection{Rows: 100, EntityRows: 10, DuplicateRows: 4, NameColumns: []string{"First", "Last"}}
	tests := []struct {
		mode                   jobs.Mode
		llcs                   bool
		indRate, coRate        int64
		coBilled               bool
		skipped                int
		credits                int64
		savings                int64
		companyNoteMentions    string
		individualNoteMentions string
	}{
		// Savings: credits × 4 duplicates / 100 rows, rounded.
		{"normal", false, 2, 0, false, 10, 90 * 2, 7, "skipped", "normal"},
		{"normal", true, 2, 3, true, 0, 90*2 + 10*3, 8, "LLC rate", "normal"},
		{"enhanced", false, 5, 0, false, 10, 90 * 5, 18, "skipped", "enhanced"},
		{"enhanced", true, 5, 5, true, 0, 100 * 5, 4 * 5, "folded", "enhanced"},
		{"", false, 2, 0, false, 10, 90 * 2, 7, "skipped", "normal"},
	}
	for _, tt := range tests {
		r := Estimate(ins, names, tt.mode, tt.llcs, pricing, prepaid(10000))
		if r.TotalRows != 100 || r.EntityRows != 10 || r.Individuals.Rows != 90 || r.Companies.Rows != 10 {
			t.Errorf("%s/%v rows: %+v", tt.mode, tt.llcs, r)
		}
		if r.Individuals.Rate != tt.indRate || r.Companies.Rate != tt.coRate || r.Companies.Billed != tt.coBilled || r.SkippedRows != tt.skipped {
			t.Errorf("%s/%v tiers: ind %+v co %+v skipped %d", tt.mode, tt.llcs, r.Individuals, r.Companies, r.SkippedRows)
		}
		if r.Credits != tt.credits || r.Individuals.Credits+r.Companies.Credits != r.Credits {
			t.Errorf("%s/%v credits = %d, want %d", tt.mode, tt.llcs, r.Credits, tt.credits)
		}
		if r.DuplicateSavings != tt.savings {
			t.Errorf("%s/%v savings = %d, want %d", tt.mode, tt.llcs, r.DuplicateSavings, tt.savings)
		}
		if !strings.Contains(r.Companies.Note, tt.companyNoteMentions) || !strings.Contains(r.Individuals.Note, tt.individualNoteMentions) {
			t.Errorf("%s/%v notes: %q / %q", tt.mode, tt.llcs, r.Individuals.Note, r.Companies.Note)
		}
		if !r.CanPay || r.BalanceAfter != 10000-tt.credits || r.Stale {
			t.Errorf("%s/%v payment: %+v", tt.mode, tt.llcs, r.Payment)
		}
	}
}

func TestEstimateNoNameColumns(t *testing.T) {
	// Enhanced mode without names: no row can be a company row, whatever
	// the inspection guessed.
	ins := &input.Inspection{Rows: 50, EntityRows: 7, NameColumns: []string{"Owner"}}
	m := mapping.Mapping{mapping.PropertyStreet: "Addr", mapping.PropertyCity: "City", mapping.PropertyState: "ST", mapping.PropertyZip: "Zip"}
	r := Estimate(ins, m, "enhanced", false, pricing, prepaid(1000))
	if r.EntityRows != 0 || r.Individuals.Rows != 50 || r.Credits != 250 || r.Stale {
		t.Errorf("%+v", r)
	}
}

func TestEstimateStale(t *testing.T) {
	ins := &input.Inspection{Rows: 50, EntityRows: 7, NameColumns: []string{"Owner"}}
	r := Estimate(ins, names, "normal", false, pricing, prepaid(1000))
	if !r.Stale || len(r.Warnings) == 0 {
		t.Errorf("an inspection made for other name columns must be flagged: %+v", r)
	}
	if !Fits(&input.Inspection{NameColumns: []string{"Last", "First"}}, names) {
		t.Error("name column order must not matter")
	}
}

func TestPayment(t *testing.T) {
	ins := &input.Inspection{Rows: 100, NameColumns: []string{"First", "Last"}}
	tests := []struct {
		name      string
		account   *client.Account
		canPay    bool
		shortfall int64
		after     int64
		blocker   string
		warning   string
		card      bool
	}{
		{"prepaid enough", prepaid(500), true, 0, 300, "", "", false},
		{"prepaid exactly", prepaid(200), true, 0, 0, "", "", false},
		{"prepaid short", prepaid(150), false, 50, -50, "50 short", "", false},
		{"metered under threshold", &client.Account{BillingMode: client.BillingMetered, Credits: 0,
			Metered: &client.Metered{Threshold: 1000, UnbilledUsage: 100}}, true, 0, 0, "", "", false},
		{"metered reaches threshold", &client.Account{BillingMode: client.BillingMetered, Credits: 7,
			Metered: &client.Metered{Threshold: 1000, UnbilledUsage: 800, CardLast4: "4242"}}, true, 0, 7, "", "ending 4242", true},
		{"metered past due", &client.Account{BillingMode: client.BillingMetered,
			Metered: &client.Metered{Threshold: 1000, PastDue: true}}, false, 0, 0, "past due", "", false},
		{"subscription over limit", &client.Account{BillingMode: client.BillingPrepaid, Credits: 1000,
			Subscription: &client.Subscription{PlanName: "Pro", CreditsLimit: 500, CreditsUsed: 400}}, true, 0, 800, "", "Pro plan", false},
		{"no account", nil, false, 0, 0, "not loaded", "", false},
	}
	for _, tt := range tests {
		r := Estimate(ins, names, "normal", false, pricing, tt.account)
		if r.Credits != 200 {
			t.Fatalf("credits %d", r.Credits)
		}
		if r.CanPay != tt.canPay || r.Shortfall != tt.shortfall || r.BalanceAfter != tt.after {
			t.Errorf("%s: %+v", tt.name, r.Payment)
		}
		if tt.blocker == "" && r.Blocker != "" || !strings.Contains(r.Blocker, tt.blocker) {
			t.Errorf("%s: blocker %q, want %q", tt.name, r.Blocker, tt.blocker)
		}
		if tt.warning != "" && !strings.Contains(strings.Join(r.Warnings, "|"), tt.warning) {
			t.Errorf("%s: warnings %q, want %q", tt.name, r.Warnings, tt.warning)
		}
		if r.Metered != nil && (r.Metered.ChargesCard != tt.card || r.Metered.UsageAfter != r.Metered.UnbilledUsage+200) {
			t.Errorf("%s: metered %+v", tt.name, r.Metered)
		}
	}
}

func TestEstimateDNC(t *testing.T) {
	scan := &phone.Scan{Rows: 40, Valid: 35, Invalid: 5, Duplicates: 3}
	r := EstimateDNC(scan, pricing, prepaid(30))
	if r.Rows != 40 || r.Rate != 1 || r.Credits != 40 || r.Refund != 5 || r.NetCredits != 35 || r.DuplicateSavings != 3 {
		t.Errorf("%+v", r)
	}
	if r.CanPay || r.Shortfall != 10 {
		t.Errorf("prepaid 30 for 40: %+v", r.Payment)
	}
	if r := EstimateDNC(scan, nil, prepaid(30)); r.Credits != 0 || len(r.Warnings) == 0 {
		t.Errorf("without pricing: %+v", r)
	}
}

func TestReinspect(t *testing.T) {
	p := filepath.Join(t.TempDir(), "owners.csv")
	body := "Owner,First,Last,Addr,City,ST,Zip\n" +
		"ACME LLC,Ann,Lee,1 Elm St,Austin,TX,78701\n" +
		"Bo Ray,Bo,Ray,2 Oak Ave,Waco,TX,76701\n" +
		"Cy Holdings,Cy,Smith TRUST,3 Pine Rd,Waco,TX,76701\n" +
		"Cy Holdings,Cy,Smith TRUST,3 Pine Rd,Waco,TX,76701\n"
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ins, err := input.Inspect(ctx, p, input.Options{NameColumns: []string{"Owner"}})
	if err != nil {
		t.Fatal(err)
	}
	if Fits(ins, names) {
		t.Fatal("an inspection by Owner does not fit a mapping of First/Last")
	}
	ins2, err := Reinspect(ctx, ins, names)
	if err != nil {
		t.Fatal(err)
	}
	if !Fits(ins2, names) || ins2.EntityRows != 2 || ins2.DuplicateRows != 1 || ins2.Rows != 4 {
		t.Errorf("reinspected: entity %d dup %d rows %d names %v", ins2.EntityRows, ins2.DuplicateRows, ins2.Rows, ins2.NameColumns)
	}
	r := Estimate(ins2, names, "normal", true, pricing, prepaid(100))
	if r.Credits != 2*2+2*3 || r.Stale {
		t.Errorf("estimate %+v", r)
	}
}
