package workflow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/estimate"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
)

// sandboxDesk is a service with the sandbox's session open.
func sandboxDesk(t *testing.T) (*Service, context.Context) {
	t.Helper()
	d := openDesk(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute) // a hang's limit
	t.Cleanup(cancel)
	if _, err := d.Sessions().StartSandbox(ctx); err != nil {
		t.Fatal(err)
	}
	return d, ctx
}

// eventsOf is d's events from now until the test ends.
func eventsOf(t *testing.T, d *Service) <-chan Event {
	events := make(chan Event, 200)
	t.Cleanup(d.Jobs().Subscribe(func(ev Event) { events <- ev }))
	return events
}

// reviewed inspects path, prices plan p and returns its review.
func reviewed(t *testing.T, ctx context.Context, d *Service, p Plan) (Review, *Quote, *input.Inspection) {
	t.Helper()
	q, ins := quoted(t, ctx, d, p)
	return ReviewOf(p, *q, Validate(ins, p)), q, ins
}

var ownersMapping = mapping.Mapping{mapping.FirstName: "First", mapping.LastName: "Last", mapping.PropertyStreet: "Street",
	mapping.PropertyCity: "City", mapping.PropertyState: "State", mapping.PropertyZip: "Zip"}

// TestReviewDefaults: the savings and repairs that only save money and
// lose nothing are on by default, each saying what it changes, and the
// pay question's lines restate them; duplicates stay until asked.
func TestReviewDefaults(t *testing.T) {
	t.Parallel()
	trace := Plan{Kind: jobs.KindTrace}.WithDefaults()
	if !trace.Reuse || trace.ReuseWithin != 90*24*time.Hour || !trace.PadZips || !trace.LeaveOutNoAddress || trace.DropDuplicates || trace.IncludeLLCs {
		t.Errorf("a trace's defaults: %+v", trace)
	}
	scrub := Plan{Kind: jobs.KindDNC}.WithDefaults()
	if !scrub.Reuse || !scrub.LeaveOutInvalid || scrub.DropDuplicates || scrub.PadZips {
		t.Errorf("a scrub's defaults: %+v", scrub)
	}
	if p := (Plan{Kind: jobs.KindTrace, ReuseWithin: time.Hour}).WithDefaults(); p.ReuseWithin != time.Hour {
		t.Errorf("a chosen age is kept: %v", p.ReuseWithin)
	}

	d, ctx := sandboxDesk(t)
	owners := writeNumbers(t, "owners.csv", "First,Last,Street,City,State,Zip\n"+
		"Ann,Lee,1 Elm St,Hoboken,NJ,7030\n"+
		"Bo,Wu,,Newark,NJ,7102\n"+
		"Cy,Ng,3 Oak Ave,Austin,TX,78701\n"+
		"Cy,Ng,3 Oak Ave,Austin,TX,78701\n")
	p := Plan{Kind: jobs.KindTrace, Path: owners, Mapping: ownersMapping, Mode: jobs.ModeNormal}.WithDefaults()
	r, q, _ := reviewed(t, ctx, d, p)
	checkDefaultChoices(t, r, q)
	checkReviewWords(t, r)
	// Turned off, a repair says what it would save.
	p.LeaveOutNoAddress = false
	r, _, _ = reviewed(t, ctx, d, p)
	if c := choice(r.Repairs, ChoiceLeaveOutNoAddress); c.On || !strings.Contains(c.Words(), "would save up to") {
		t.Errorf("off: %+v %q", c, c.Words())
	}
	if r.Sent != 4 {
		t.Errorf("with the no-address row: %d rows sent", r.Sent)
	}
}

// checkDefaultChoices: the repairs that lose nothing are on by default,
// each saying what it changes; duplicates are offered, off.
func checkDefaultChoices(t *testing.T, r Review, q *Quote) {
	t.Helper()
	if r.Sent != 3 || r.Billed != 3 || r.Credits != q.Credits || r.Nothing != "" {
		t.Errorf("review %+v", r)
	}
	zips, addr := choice(r.Repairs, ChoicePadZips), choice(r.Repairs, ChoiceLeaveOutNoAddress)
	if !zips.On || !zips.Default || zips.Rows != 2 || !strings.Contains(zips.Changes, `"7030" is sent as "07030"`) {
		t.Errorf("ZIP repair %+v", zips)
	}
	if !addr.On || !addr.Default || addr.Rows != 1 || addr.Saves <= 0 || !strings.Contains(addr.Changes, "not charged") {
		t.Errorf("no-address repair %+v", addr)
	}
	if dup := choice(r.Savings, ChoiceDropDuplicates); dup.On || dup.Default || dup.Rows != 1 {
		t.Errorf("duplicates are offered, off: %+v", dup)
	}
}

// checkReviewWords: the pay question's lines restate what is on, and the
// review says what is sent, left out, on and off.
func checkReviewWords(t *testing.T, r Review) {
	t.Helper()
	applied := strings.Join(r.Applied(), "\n")
	for _, w := range []string{"Give 2 ZIP codes back the leading zero", "Leave out 1 row with no street address"} {
		if !strings.Contains(applied, w) {
			t.Errorf("the pay question's lines %q lack %q", applied, w)
		}
	}
	if strings.Contains(applied, "repeat") {
		t.Errorf("a saving that is off is restated: %q", applied)
	}
	said := strings.Join(r.Sentences(), "\n")
	for _, w := range []string{"owners.csv: 3 rows sent", "Left out: 1 row — no street address", "On: give 2 ZIP codes", "Off: leave out 1 row that repeats an earlier row"} {
		if !strings.Contains(said, w) {
			t.Errorf("the review %q lacks %q", said, w)
		}
	}

}

func choice(cs []Choice, key string) Choice {
	i := slices.IndexFunc(cs, func(c Choice) bool { return c.Key == key })
	if i < 0 {
		return Choice{Key: "(not offered) " + key}
	}
	return cs[i]
}

// TestReviewReusesTheListTracedBefore: the same list traced again reuses
// the rows traced before by default, and the review says what it saves.
func TestReviewReusesTheListTracedBefore(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	owners := writeNumbers(t, "owners.csv", "First,Last,Street,City,State,Zip\n"+
		"Ann,Lee,1 Elm St,Hoboken,NJ,07030\n"+
		"Cy,Ng,3 Oak Ave,Austin,TX,78701\n")
	p := Plan{Kind: jobs.KindTrace, Path: owners, Mapping: ownersMapping}.WithDefaults()
	first, err := submitFile(ctx, d, p, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Jobs().Wait(ctx, first, 0); err != nil {
		t.Fatal(err)
	}
	again := writeNumbers(t, "owners again.csv", "First,Last,Street,City,State,Zip\n"+
		"Ann,Lee,1 Elm St,Hoboken,NJ,07030\n"+
		"Cy,Ng,3 Oak Ave,Austin,TX,78701\n"+
		"Di,Ray,9 Ash Ln,Waco,TX,76701\n")
	p.Path = again
	r, q, _ := reviewed(t, ctx, d, p)
	// The rows the first trace found are reused (a row it did not find
	// is traced again).
	reuse := choice(r.Savings, ChoiceReuse)
	if !reuse.On || !reuse.Default || reuse.Rows < 1 || reuse.Rows > 2 || reuse.Saves <= 0 || !strings.Contains(reuse.Label, "from the last 90 days") {
		t.Errorf("reuse %+v", reuse)
	}
	if r.Sent != 3-reuse.Rows || q.Rows != r.Sent {
		t.Errorf("sent %d, quoted %d, reused %d of 3", r.Sent, q.Rows, reuse.Rows)
	}
	if !strings.Contains(strings.Join(r.Applied(), "\n"), "traced before (from the last 90 days) (saves") {
		t.Errorf("the pay question's lines %q", r.Applied())
	}
}

// TestNothingBillableRefusedBeforeAnyCharge: a phone list whose numbers
// are all invalid, and an owner list of companies alone with companies
// not traced, are refused before anything is recorded or sent, with or
// without the quote; the balance stays.
func TestNothingBillableRefusedBeforeAnyCharge(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	before, err := d.Sessions().Account(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var phones strings.Builder
	phones.WriteString("Cell\n")
	for i := range 60 {
		phones.WriteString("555-01" + string(rune('0'+i%10)) + string(rune('0'+i/10)) + "\n")
	}
	invalid := writeNumbers(t, "phones.csv", phones.String())
	companies := writeNumbers(t, "owners.csv", "First,Last,Street,City,State,Zip\n"+
		"Acme Holdings LLC,,1 Elm St,Hoboken,NJ,07030\n"+
		"Smith Family Trust,,3 Oak Ave,Austin,TX,78701\n")
	for _, tc := range []struct {
		name string
		p    Plan
		why  string
	}{
		{"every phone invalid", Plan{Kind: jobs.KindDNC, Path: invalid, Mapping: mapping.Mapping{mapping.Phone: "Cell"}}, "none of its phone numbers is a valid US number"},
		{"every phone invalid, left out", Plan{Kind: jobs.KindDNC, Path: invalid, Mapping: mapping.Mapping{mapping.Phone: "Cell"}}.WithDefaults(), "no phone number is left"},
		{"companies not traced", Plan{Kind: jobs.KindTrace, Path: companies, Mapping: ownersMapping}.WithDefaults(), "every row left is a company's"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, q, ins := reviewed(t, ctx, d, tc.p)
			if !strings.Contains(r.Nothing, tc.why) {
				t.Errorf("review: nothing billable %q, want %q", r.Nothing, tc.why)
			}
			for _, opts := range []SubmitOptions{{Quote: q}, {}} {
				_, err := d.Submissions().Submit(ctx, tc.p, ins, opts)
				var nb *NothingBillableError
				if !errors.As(err, &nb) || !errors.Is(err, ErrNothingBillable) || !strings.Contains(nb.Why, tc.why) {
					t.Fatalf("submitted (quote given %v): %v", opts.Quote != nil, err)
				}
				if p := Explain(err, ""); p.Title != "Nothing to charge for" || !strings.Contains(p.What, "Nothing was charged") {
					t.Errorf("explained: %+v", p)
				}
			}
		})
	}
	sess, _ := d.current()
	if subs, err := sess.led.Submissions().List(ctx); err != nil || len(subs) != 0 {
		t.Errorf("the ledger holds %d submissions (%v), want none", len(subs), err)
	}
	after, err := d.Sessions().Account(ctx)
	if err != nil || after.Credits != before.Credits {
		t.Errorf("balance %d → %d (%v)", before.Credits, after.Credits, err)
	}
}

// The review lists each part of a list left out with its rows and why,
// and no part that has no rows.
func TestReviewListsOnlyWhatIsLeftOut(t *testing.T) {
	t.Parallel()
	whys := func(r Review) []string {
		var out []string
		for _, l := range r.LeftOut {
			out = append(out, fmt.Sprintf("%d %s", l.Rows, strings.SplitN(l.Why, " ", 2)[0]))
		}
		return out
	}
	var trace Review
	reviewTrace(&trace, Plan{Kind: jobs.KindTrace}, Quote{
		Trace:             &estimate.Result{Individuals: estimate.Tier{Rows: 5, Billed: true}, SkippedRows: 2},
		Reuse:             &Reuse{Rows: 0, Skipped: true},
		DroppedDuplicates: 0,
		Upload:            UploadInfo{LeftOutNoAddress: 3},
	})
	if got, want := whys(trace), []string{"2 company", "3 no"}; !slices.Equal(got, want) {
		t.Errorf("a trace's parts left out: %q, want %q", got, want)
	}
	var scrub Review
	reviewDNC(&scrub, Plan{Kind: jobs.KindDNC}, Quote{
		Reuse:             &Reuse{Rows: 4, Skipped: true},
		DroppedDuplicates: 1,
		Upload:            UploadInfo{LeftOutInvalid: 0},
	})
	if got, want := whys(scrub), []string{"4 scrubbed", "1 numbers"}; !slices.Equal(got, want) {
		t.Errorf("a scrub's parts left out: %q, want %q", got, want)
	}
}
