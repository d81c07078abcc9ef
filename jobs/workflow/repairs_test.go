package workflow

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
)

// TestRepairsBeforePaying: rows left out before paying leave the quote's
// count and price, the upload says what was repaired, and the same file
// sent with other repairs is another submission (not refused as a repeat),
// while the same repairs again are a repeat.
func TestRepairsBeforePaying(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	dir := t.TempDir()
	owners := filepath.Join(dir, "owners.csv")
	os.WriteFile(owners, []byte("First,Last,Street,City,State,Zip\n"+
		"Ann,Lee,1 Elm St,Hoboken,NJ,7030\n"+
		"Bo,Wu,,Newark,NJ,7102\n"+
		"Cy,Ng,3 Oak Ave,Austin,TX,78701\n"+
		"Ed,Ma,5 Pine Rd,Boston,MA,2108\n"), 0o600)
	m := mapping.Mapping{mapping.FirstName: "First", mapping.LastName: "Last", mapping.PropertyStreet: "Street",
		mapping.PropertyCity: "City", mapping.PropertyState: "State", mapping.PropertyZip: "Zip"}
	p := Plan{Kind: jobs.KindTrace, Path: owners, Mapping: m, Mode: jobs.ModeNormal}
	ins, err := d.Quotes().Inspect(ctx, owners, p.Input)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := d.Quotes().Quote(ctx, p, ins)
	if err != nil {
		t.Fatal(err)
	}
	c, err := d.Quotes().Count(ctx, p, ins)
	if err != nil {
		t.Fatal(err)
	}
	p.PadZips, p.LeaveOutNoAddress = true, true
	if c.Fits(p) {
		t.Error("counts made without the repairs fit a plan with them")
	}
	fixed, err := d.Quotes().Quote(ctx, p, ins)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Rows != 4 || fixed.Rows != 3 || fixed.Credits >= plain.Credits {
		t.Errorf("rows %d → %d, credits %d → %d", plain.Rows, fixed.Rows, plain.Credits, fixed.Credits)
	}
	if u := fixed.Upload; !u.Written || u.PaddedZips != 2 || u.LeftOutNoAddress != 1 {
		t.Errorf("quoted upload %+v", u)
	}
	res, err := d.Submissions().Submit(ctx, p, ins, SubmitOptions{Quote: fixed})
	if err != nil {
		t.Fatal(err)
	}
	if res.Upload.Rows != 3 || res.Upload.PaddedZips != 2 || res.Upload.LeftOutNoAddress != 1 {
		t.Errorf("submitted upload %+v", res.Upload)
	}
	// The job's record names the person's file, not the copy prepared
	// from it (the export's Summary sheet shows it).
	sess, _ := d.current()
	if sub, err := sess.led.Submissions().Submission(ctx, res.Submission); err != nil || sub.FilePath != owners {
		t.Errorf("the submission's file: %v %q, want %q", err, sub.FilePath, owners)
	}
	if _, err := d.Submissions().Submit(ctx, p, ins, SubmitOptions{}); !errors.Is(err, ErrDuplicate) {
		t.Errorf("the same file with the same repairs again: %v", err)
	}
	p.LeaveOutNoAddress = false
	if _, err := d.Submissions().Submit(ctx, p, ins, SubmitOptions{}); err != nil {
		t.Errorf("the same file with other repairs: %v", err)
	}

}

// TestLeaveOutInvalidBeforePaying: a scrub's invalid numbers left out are
// neither charged nor refunded.
func TestLeaveOutInvalidBeforePaying(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	dir := t.TempDir()
	phones := filepath.Join(dir, "phones.csv")
	os.WriteFile(phones, []byte("Cell\n(212) 555-0147\n555-1234\n3055550101\ncall me\n"), 0o600)
	sp := Plan{Kind: jobs.KindDNC, Path: phones, Mapping: mapping.Mapping{mapping.Phone: "Cell"}}
	pins, err := d.Quotes().Inspect(ctx, phones, sp.Input)
	if err != nil {
		t.Fatal(err)
	}
	all, err := d.Quotes().Quote(ctx, sp, pins)
	if err != nil {
		t.Fatal(err)
	}
	sp.LeaveOutInvalid = true
	valid, err := d.Quotes().Quote(ctx, sp, pins)
	if err != nil {
		t.Fatal(err)
	}
	if all.Rows != 4 || valid.Rows != 2 || valid.DNC.Refund != 0 || valid.Upload.LeftOutInvalid != 2 || !valid.Upload.Written ||
		!strings.Contains(strings.Join(valid.Upload.Reasons, "; "), "invalid phone numbers are left out") {
		t.Errorf("scrub rows %d → %d, refund %d, upload %+v", all.Rows, valid.Rows, valid.DNC.Refund, valid.Upload)
	}
	res, err := d.Submissions().Submit(ctx, sp, pins, SubmitOptions{Quote: valid})
	if err != nil || res.Upload.Rows != 2 || res.Upload.LeftOutInvalid != 2 {
		t.Errorf("scrub submitted: %v %+v", err, res)
	}
}

// TestRepairable: the offer counts the short ZIP codes of the mapped ZIP
// columns only, shows one repaired, and counts the rows without a street.
func TestRepairable(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "owners.csv")
	os.WriteFile(p, []byte("First,Last,Street,City,State,Zip,Other Zip\n"+
		"Ann,Lee,1 Elm St,Hoboken,NJ,7030,1234\n"+
		"Bo,Wu,,Newark,NJ,7102,\n"+
		"Cy,Ng,3 Oak Ave,Austin,TX,78701,\n"), 0o600)
	ins, err := input.Inspect(t.Context(), p, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := mapping.Mapping{mapping.FirstName: "First", mapping.LastName: "Last", mapping.PropertyStreet: "Street",
		mapping.PropertyCity: "City", mapping.PropertyState: "State", mapping.PropertyZip: "Zip"}
	o := Repairable(ins, Plan{Kind: jobs.KindTrace, Mapping: m})
	if o.ShortZips != 2 || o.ZipExample != "7030" || o.ZipFixed != "07030" || o.NoAddress != 1 || o.StreetColumn != "Street" {
		t.Errorf("offer %+v", o)
	}
	if o := Repairable(ins, Plan{Kind: jobs.KindDNC, Mapping: mapping.Mapping{mapping.Phone: "Zip"}}); o != (RepairOffer{}) {
		t.Errorf("a scrub offered %+v", o)
	}
}
