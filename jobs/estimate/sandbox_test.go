package estimate

import (
	"context"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/xuri/excelize/v2"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/prepare"
)

// startSandbox runs the provider sandbox with distinct rates (so that a tier
// billed at the wrong rate shows) and near-instant processing.
func startSandbox(t *testing.T, billing string) (*client.Client, *sandbox.Server) {
	t.Helper()
	cfg := sandbox.DefaultConfig()
	cfg.Rates = sandbox.Rates{Normal: 2, Enhanced: 7, LLC: 3, DNC: 1}
	cfg.Processing = sandbox.Processing{MinSeconds: 0.05}
	// Every row matches: completed jobs refund nothing, so balances read
	// while earlier jobs finish stay comparable.
	cfg.MatchRate = 1
	cfg.Keys[0].Credits = 1_000_000
	cfg.Keys[0].BillingMode = billing
	srv, err := sandbox.Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c, err := client.New(srv.URL(), sandbox.DemoKey)
	if err != nil {
		t.Fatal(err)
	}
	return c, srv
}

// ownerList generates an ugly owner list: people, companies in either name
// column, look-alikes that are not companies, blank last names, accents,
// duplicates and fully blank records.
func ownerList(n int, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 1))
	firsts := []string{"John", "Mary", "José", "Zoë", "Ann-Marie", "D'Angelo", "Bo", "", "Cobb", "Inc"}
	lasts := []string{"Smith", "Núñez", "O'Brien", "", "Cobb", "Trustman", "Company Stores", "Holdings LLC", "Family Trust", "L.L.C.", "& Co.", "Properties"}
	var b strings.Builder
	b.WriteString("Owner First,Owner Last,Situs Address,Situs City,Situs State,Situs Zip,Mail Address,Mail City,Mail State,Mail Zip,Notes\r\n")
	var prev string
	for i := 0; i < n; i++ {
		var row string
		switch {
		case i%37 == 5:
			row = ",,,,,,,,,," // blank record: not a row
		case i%23 == 7 && prev != "":
			row = prev // duplicate
		default:
			f, l := firsts[rng.IntN(len(firsts))], lasts[rng.IntN(len(lasts))]
			if rng.IntN(10) == 0 {
				f = "ACME " + []string{"Corp", "Inc.", "LP", "Bank", "Group"}[rng.IntN(5)]
			}
			row = fmt.Sprintf("%s,\"%s\",%d Elm St,Austin,TX,787%02d,PO Box %d,Waco,TX,767%02d,\"note, %d\"",
				f, l, rng.IntN(900)+1, rng.IntN(100), rng.IntN(99), rng.IntN(100), i)
			prev = row
		}
		b.WriteString(row + "\r\n")
	}
	return b.String()
}

func TestEstimateMatchesSandboxCost(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the sandbox")
	}
	c, _ := startSandbox(t, client.BillingPrepaid)
	ctx := context.Background()
	dir := t.TempDir()
	utf8File := filepath.Join(dir, "owners.csv")
	os.WriteFile(utf8File, []byte(ownerList(400, 1)), 0o600)
	// The same kind of list as Excel on Windows saves it: Windows-1252,
	// semicolons, a title line: it goes through prepare before upload.
	latin := strings.NewReplacer("é", "\xe9", "ë", "\xeb", "ú", "\xfa", "ñ", "\xf1").Replace(
		"County export 2026\r\n" + strings.ReplaceAll(ownerList(250, 2), ",", ";"))
	cp1252File := filepath.Join(dir, "county.csv")
	os.WriteFile(cp1252File, []byte(latin), 0o600)

	// UTF-16 with a BOM and tabs, and an Excel workbook.
	u16 := []byte{0xFF, 0xFE}
	for _, r := range utf16.Encode([]rune(strings.ReplaceAll(ownerList(200, 4), ",", "\t"))) {
		u16 = append(u16, byte(r), byte(r>>8))
	}
	utf16File := filepath.Join(dir, "export.txt")
	os.WriteFile(utf16File, u16, 0o600)
	xlsxFile := filepath.Join(dir, "owners.xlsx")
	writeXLSX(t, xlsxFile, ownerList(150, 5))
	// Lines of two files pasted together: CR LF, LF and bare CR ends.
	mixed := strings.Split(ownerList(300, 6), "\r\n")
	var mb strings.Builder
	for i, line := range mixed {
		mb.WriteString(line + []string{"\r\n", "\n", "\r"}[i%3])
	}
	mixedFile := filepath.Join(dir, "pasted.csv")
	os.WriteFile(mixedFile, []byte(mb.String()), 0o600)
	crlfFile := filepath.Join(dir, "crlf.csv")
	os.WriteFile(crlfFile, []byte(ownerList(300, 6)), 0o600)
	for _, p := range []string{mixedFile, crlfFile} {
		ins, err := input.Inspect(ctx, p, input.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if want := 300 - 8; ins.Rows != want || ins.RaggedRows != 0 { // 8 blank records (i%37 == 5)
			t.Fatalf("%s: %d rows (%d ragged), want %d", filepath.Base(p), ins.Rows, ins.RaggedRows, want)
		}
	}

	prop := mapping.Mapping{mapping.PropertyStreet: "Situs Address", mapping.PropertyCity: "Situs City", mapping.PropertyState: "Situs State", mapping.PropertyZip: "Situs Zip"}
	full := prop.Clone()
	full[mapping.FirstName], full[mapping.LastName] = "Owner First", "Owner Last"
	mail := mapping.Mapping{mapping.MailingStreet: "Mail Address", mapping.MailingCity: "Mail City", mapping.MailingState: "Mail State", mapping.MailingZip: "Mail Zip",
		mapping.FirstName: "Owner First", mapping.LastName: "Owner Last"}
	lastOnly := prop.Clone()
	lastOnly[mapping.LastName] = "Owner Last"

	type fileCase struct {
		name string
		path string
		m    mapping.Mapping
		mode []jobs.Mode
	}
	cases := []fileCase{
		{"utf-8, both groups' names", utf8File, full, []jobs.Mode{jobs.ModeNormal, jobs.ModeEnhanced}},
		{"utf-8, mailing group", utf8File, mail, []jobs.Mode{jobs.ModeNormal, jobs.ModeEnhanced}},
		{"windows-1252 prepared", cp1252File, full, []jobs.Mode{jobs.ModeNormal, jobs.ModeEnhanced}},
		{"utf-16 prepared", utf16File, full, []jobs.Mode{jobs.ModeNormal, jobs.ModeEnhanced}},
		{"xlsx prepared", xlsxFile, mail, []jobs.Mode{jobs.ModeNormal, jobs.ModeEnhanced}},
		{"mixed line ends prepared", mixedFile, full, []jobs.Mode{jobs.ModeNormal, jobs.ModeEnhanced}},
		{"enhanced, no names", utf8File, prop, []jobs.Mode{jobs.ModeEnhanced}},
		{"enhanced, last name only", utf8File, lastOnly, []jobs.Mode{jobs.ModeEnhanced}},
	}
	for _, fc := range cases {
		for _, mode := range fc.mode {
			for _, llcs := range []bool{false, true} {
				t.Run(fmt.Sprintf("%s/%s/llcs=%v", fc.name, mode, llcs), func(t *testing.T) {
					ins, err := input.Inspect(ctx, fc.path, Options(input.Options{}, fc.m))
					if err != nil {
						t.Fatal(err)
					}
					up, err := prepare.Prepare(ctx, fc.path, ins, prepare.Plan{Mapping: fc.m})
					if err != nil {
						t.Fatal(err)
					}
					defer up.Remove()
					pr, err := c.Pricing(ctx)
					if err != nil {
						t.Fatal(err)
					}
					acct, err := c.Account(ctx)
					if err != nil {
						t.Fatal(err)
					}
					est := Estimate(ins, fc.m, mode, llcs, pr, acct)
					if est.Stale || !est.CanPay {
						t.Fatalf("estimate %+v", est)
					}
					got, err := c.Traces.Create(ctx, &client.TraceUpload{Path: up.Path, FileName: up.FileName, Mode: string(mode), ColumnMapping: up.Mapping, IncludeLLCs: llcs})
					if err != nil {
						t.Fatal(err)
					}
					if got.Cost != est.Credits || got.CreditsCharged != est.Credits {
						t.Errorf("sandbox cost %d (charged %d), estimate %d (%+v)", got.Cost, got.CreditsCharged, est.Credits, est)
					}
					if got.TotalRows != est.TotalRows || got.EntityRows != est.EntityRows || up.Rows != est.TotalRows {
						t.Errorf("sandbox rows %d entity %d; estimate rows %d entity %d; upload rows %d", got.TotalRows, got.EntityRows, est.TotalRows, est.EntityRows, up.Rows)
					}
					after, err := c.Account(ctx)
					if err != nil {
						t.Fatal(err)
					}
					if after.Credits != est.BalanceAfter {
						t.Errorf("balance after %d, estimated %d", after.Credits, est.BalanceAfter)
					}
					if fc.m[mapping.FirstName] != "" && est.EntityRows == 0 {
						t.Error("the generated list must hold company rows")
					}
				})
			}
		}
	}
}

func TestEstimateDuplicatesDroppedMatchesSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the sandbox")
	}
	c, _ := startSandbox(t, client.BillingPrepaid)
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "owners.csv")
	os.WriteFile(p, []byte(ownerList(300, 3)), 0o600)
	m := mapping.Mapping{mapping.FirstName: "Owner First", mapping.LastName: "Owner Last",
		mapping.PropertyStreet: "Situs Address", mapping.PropertyCity: "Situs City", mapping.PropertyState: "Situs State", mapping.PropertyZip: "Situs Zip"}
	ins, err := input.Inspect(ctx, p, Options(input.Options{}, m))
	if err != nil {
		t.Fatal(err)
	}
	up, err := prepare.Prepare(ctx, p, ins, prepare.Plan{Mapping: m, DropDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	defer up.Remove()
	if up.DroppedDuplicates != ins.DuplicateRows || up.DroppedDuplicates == 0 {
		t.Fatalf("dropped %d, inspection counted %d", up.DroppedDuplicates, ins.DuplicateRows)
	}
	pr, _ := c.Pricing(ctx)
	full := Estimate(ins, m, "normal", false, pr, nil)
	ins2, err := input.Inspect(ctx, up.Path, Options(input.Options{}, up.Mapping))
	if err != nil {
		t.Fatal(err)
	}
	est := Estimate(ins2, up.Mapping, "normal", false, pr, nil)
	got, err := c.Traces.Create(ctx, &client.TraceUpload{Path: up.Path, Mode: "normal", ColumnMapping: up.Mapping})
	if err != nil {
		t.Fatal(err)
	}
	if got.Cost != est.Credits {
		t.Errorf("sandbox cost %d, estimate %d", got.Cost, est.Credits)
	}
	// Counting the plan without writing gives the same estimate.
	counts, err := prepare.Count(ctx, p, ins, prepare.Plan{Mapping: m, DropDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	if counted := Estimate(WithCounts(ins, counts), counts.Mapping, "normal", false, pr, nil); counted.Credits != got.Cost || counted.Stale || counts.DroppedDuplicates != up.DroppedDuplicates {
		t.Errorf("counted estimate %d (stale %v), sandbox %d", counted.Credits, counted.Stale, got.Cost)
	}
	// The saving before preparing is an approximation (duplicates spread
	// like all rows); it stays within what the duplicates could cost.
	saved := full.Credits - est.Credits
	if saved < 0 || full.DuplicateSavings > int64(full.DuplicateRows)*pr.Rates.Normal || saved > int64(full.DuplicateRows)*pr.Rates.Normal {
		t.Errorf("saved %d, approximated %d, %d duplicates", saved, full.DuplicateSavings, full.DuplicateRows)
	}
	t.Logf("dropping %d duplicates saved %d credits (approximated before preparing: %d)", full.DuplicateRows, saved, full.DuplicateSavings)
}

func TestEstimateDNCMatchesSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the sandbox")
	}
	for _, billing := range []string{client.BillingPrepaid, client.BillingMetered} {
		t.Run(billing, func(t *testing.T) {
			c, srv := startSandbox(t, billing)
			ctx := context.Background()
			values := []string{"(212) 555-0147", "2125550147", "+1 305.555.0101", "1-404-555-0199 ext. 12", "713-555-0100 x7",
				"", "1.23E+10", "555-0147", "0125550147", "2120550147", "22125550147", "tel 972 555 0123", "512-555-0111#3", "n/a",
				"212555014777", "602 555 0100"}
			var b strings.Builder
			b.WriteString("Name,Cell\n")
			for i := 0; i < 120; i++ {
				fmt.Fprintf(&b, "Person %d,\"%s\"\n", i, values[i%len(values)])
				if i%40 == 0 {
					b.WriteString(",\n") // blank record
				}
			}
			p := filepath.Join(t.TempDir(), "phones.csv")
			os.WriteFile(p, []byte(b.String()), 0o600)
			scan, err := phone.ScanColumn(ctx, p, "Cell", phone.ScanOptions{})
			if err != nil {
				t.Fatal(err)
			}
			pr, _ := c.Pricing(ctx)
			acct, _ := c.Account(ctx)
			est := EstimateDNC(scan, pr, acct)
			if !est.CanPay {
				t.Fatalf("%+v", est)
			}
			got, err := c.DNC.Create(ctx, &client.DNCUpload{Path: p, PhoneColumn: "Cell"})
			if err != nil {
				t.Fatal(err)
			}
			if got.CreditsCharged != est.Credits || got.TotalRows != est.Rows || got.Rate != est.Rate {
				t.Errorf("sandbox charged %d for %d rows at %d; estimate %d for %d at %d", got.CreditsCharged, got.TotalRows, got.Rate, est.Credits, est.Rows, est.Rate)
			}
			job := finishDNC(t, c, srv, got.ID)
			if job.ErrorCount != est.InvalidRows || job.CreditsRefunded != est.Refund {
				t.Errorf("sandbox errors %d refunded %d; estimate invalid %d refund %d", job.ErrorCount, job.CreditsRefunded, est.InvalidRows, est.Refund)
			}
		})
	}
}

// writeXLSX writes a CSV text as a one-sheet workbook of text cells.
func writeXLSX(t *testing.T, path, csvText string) {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(csvText)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	f := excelize.NewFile()
	defer f.Close()
	for i, rec := range recs {
		row := make([]any, len(rec))
		for j, v := range rec {
			row[j] = v
		}
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &row); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}

func finishDNC(t *testing.T, c *client.Client, srv *sandbox.Server, id string) *client.DNCJob {
	t.Helper()
	srv.FinishPending() // the scrub completes now, not after its processing time
	j, err := c.DNC.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !j.Status.Final() {
		t.Fatalf("DNC job %s still %s", id, j.Status)
	}
	return j
}

// TestEstimateWithSplitsMatchesSandbox: a file with full names and one-line
// addresses, estimated before preparing (Options with the splits) and
// compared with the prepared upload's cost at the sandbox.
func TestEstimateWithSplitsMatchesSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the sandbox")
	}
	c, _ := startSandbox(t, client.BillingPrepaid)
	ctx := context.Background()
	var b strings.Builder
	b.WriteString("Owner Name,Property Address\r\n")
	owners := []string{"SMITH JOHN A", "GARCIA MARIA", "ACME HOLDINGS LLC", "JONES FAMILY TRUST", "COBB DAVID", "LEE ANN & BO", "BANK OF TEXAS"}
	for i := 0; i < 70; i++ {
		fmt.Fprintf(&b, "%s,\"%d Main St, Springfield, IL 627%02d\"\r\n", owners[i%len(owners)], i+1, i)
	}
	p := filepath.Join(t.TempDir(), "full.csv")
	os.WriteFile(p, []byte(b.String()), 0o600)
	ins0, err := input.Inspect(ctx, p, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sug := mapping.AutoMap(ins0.Headers, ins0.Sample, jobs.KindTrace)
	if len(sug.Splits) != 2 {
		t.Fatalf("splits %+v", sug.Splits)
	}
	m := sug.WithSplits(ins0.Headers)
	ins, err := Reinspect(ctx, ins0, m, sug.Splits...)
	if err != nil {
		t.Fatal(err)
	}
	up, err := prepare.Prepare(ctx, p, ins, prepare.Plan{Mapping: m, Splits: sug.Splits})
	if err != nil {
		t.Fatal(err)
	}
	defer up.Remove()
	pr, _ := c.Pricing(ctx)
	counts, err := prepare.Count(ctx, p, ins, prepare.Plan{Mapping: m, Splits: sug.Splits, DropDuplicates: true})
	if err != nil {
		t.Fatal(err)
	}
	if counts.DroppedDuplicates != 0 || counts.Rows != 70 || counts.EntityRows != 30 {
		t.Errorf("counts %+v", counts)
	}
	for _, mode := range []jobs.Mode{jobs.ModeNormal, jobs.ModeEnhanced} {
		for _, llcs := range []bool{false, true} {
			if e := Estimate(WithCounts(ins, counts), counts.Mapping, mode, llcs, pr, nil); e.Stale || e.EntityRows != 30 {
				t.Errorf("estimate from counts %+v", e)
			}
			est := Estimate(ins, m, mode, llcs, pr, nil, sug.Splits...)
			if est.Stale || est.EntityRows != 30 {
				t.Fatalf("estimate %+v", est)
			}
			got, err := c.Traces.Create(ctx, &client.TraceUpload{Path: up.Path, Mode: string(mode), ColumnMapping: up.Mapping, IncludeLLCs: llcs})
			if err != nil {
				t.Fatal(err)
			}
			if got.Cost != est.Credits || got.EntityRows != est.EntityRows || got.TotalRows != est.TotalRows {
				t.Errorf("%s/%v: sandbox cost %d entity %d; estimate %d entity %d", mode, llcs, got.Cost, got.EntityRows, est.Credits, est.EntityRows)
			}
		}
	}
}

// TestEstimateBlankLikeRowsMatchSandbox: records that look like rows but are
// blank to the provider (no-break spaces, quoted line breaks, values only
// beyond the header's columns, a far-away cell in a sheet) are neither
// counted nor billed, in a file uploaded as it is and in a prepared one.
func TestEstimateBlankLikeRowsMatchSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the sandbox")
	}
	c, _ := startSandbox(t, client.BillingPrepaid)
	ctx := context.Background()
	dir := t.TempDir()
	header := "First,Last,Street,City,State,Zip\r\n"
	rows := "Ann,Lee,1 Elm St,Austin,TX,78701\r\n" +
		"\u00a0,\u00a0,\u00a0,\u00a0,\u00a0,\u00a0\r\n" +
		"\"\r\n\",,,,,\r\n" +
		"\v,\f, ,\t,,\u0085\r\n" +
		",Oak Holdings LLC,2 Oak Ave,Waco,TX,76701\r\n"
	asIs := filepath.Join(dir, "as-is.csv")
	os.WriteFile(asIs, []byte(header+rows), 0o600)
	beyond := filepath.Join(dir, "beyond.csv")
	os.WriteFile(beyond, []byte(header+rows+",,,,,,stray note\r\n"), 0o600)
	sheet := filepath.Join(dir, "far.xlsx")
	// (A workbook cannot hold \v or \f: excelize writes U+FFFD instead.)
	writeXLSX(t, sheet, header+strings.Replace(rows, "\v,\f, ,\t,,\u0085\r\n", "", 1))
	func() {
		f, err := excelize.OpenFile(sheet)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		f.SetCellValue("Sheet1", "Z40", "far away")
		if err := f.Save(); err != nil {
			t.Fatal(err)
		}
	}()
	m := mapping.Mapping{mapping.FirstName: "First", mapping.LastName: "Last", mapping.PropertyStreet: "Street",
		mapping.PropertyCity: "City", mapping.PropertyState: "State", mapping.PropertyZip: "Zip"}
	pr, err := c.Pricing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path    string
		written bool
	}{{asIs, false}, {beyond, true}, {sheet, true}} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			ins, err := input.Inspect(ctx, tc.path, Options(input.Options{}, m))
			if err != nil {
				t.Fatal(err)
			}
			up, err := prepare.Prepare(ctx, tc.path, ins, prepare.Plan{Mapping: m})
			if err != nil {
				t.Fatal(err)
			}
			defer up.Remove()
			if up.Written != tc.written {
				t.Errorf("written %v (%q), want %v", up.Written, up.Reasons, tc.written)
			}
			est := Estimate(ins, m, "normal", true, pr, nil)
			got, err := c.Traces.Create(ctx, &client.TraceUpload{Path: up.Path, FileName: up.FileName, Mode: "normal", ColumnMapping: up.Mapping, IncludeLLCs: true})
			if err != nil {
				t.Fatal(err)
			}
			if got.TotalRows != 2 || est.TotalRows != 2 || up.Rows != 2 || got.EntityRows != est.EntityRows || got.Cost != est.Credits {
				t.Errorf("sandbox rows %d entity %d cost %d; estimate rows %d entity %d cost %d; upload rows %d",
					got.TotalRows, got.EntityRows, got.Cost, est.TotalRows, est.EntityRows, est.Credits, up.Rows)
			}
		})
	}
}
