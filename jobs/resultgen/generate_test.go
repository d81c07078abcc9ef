package resultgen

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// Over the seeds the invariant test runs, the generator covers every
// dimension it claims: a change that loses one fails here.
func TestGeneratorCoversItsDimensions(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 5, 10, 15, 4, 5, 0, time.UTC)
	want := generatorDimensions()
	seen := map[string]int{}
	// With -short the seeds stop once every dimension is seen: the same
	// verdict, without the counts.
	for seed := int64(1); seed <= 2000 && !(testing.Short() && seesAll(seen, want)); seed++ {
		c := GenerateAt(seed, now)
		for _, d := range dimensionsOf(c) {
			seen[d]++
		}
	}
	var missing []string
	for _, w := range want {
		if seen[w] == 0 {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		t.Errorf("2,000 seeds never give: %s", strings.Join(missing, "; "))
	}
	var counts []string
	for _, w := range want {
		counts = append(counts, fmt.Sprintf("%s: %d", w, seen[w]))
	}
	t.Logf("cases with each dimension: %s", strings.Join(counts, ", "))
}

// generatorDimensions are what the generator's cases must cover.
func generatorDimensions() []string {
	var want []string
	for _, f := range families {
		want = append(want, "family "+f.name)
	}
	for _, f := range []Format{CSVComma, CSVSemicolon, TSV, XLSX} {
		want = append(want, "format "+f.String())
	}
	for _, c := range append(listConventions, xBlank, spanishYesNo, verdicts, callables) {
		want = append(want, "convention "+c.name)
	}
	for _, s := range []caseStyle{styleSnake, styleCamel, styleCaps, styleLower} {
		want = append(want, "headers "+s.String())
	}
	return append(want, "wide", "long", "several owners with their own flag columns", "a state code that is an English word",
		"a value outside the column's convention late in the file", "a day-first date", "Excel dates", "phones kept as numbers",
		"a scope column", "a row not checked", "a job record of ours", "imported", "imported with the person's date",
		"over 1,000 rows", "damaged phones", "a number in a note", "a restriction in a note", "a restriction in a status",
		"DNC.com codes", "litigator codes", "a trace and two DNC results", "a DNC result alone", "a stale scrub", "a date in the future",
		"the company's list", "Spanish headers", "Windows-1252", "a byte order mark", "per-state columns", "state codes",
		"a CRM opt-out flag", "a dialer disposition", "a typed slot")
}

// seesAll reports whether every dimension in want was seen.
func seesAll(seen map[string]int, want []string) bool {
	for _, w := range want {
		if seen[w] == 0 {
			return false
		}
	}
	return true
}

// dimensionsOf names what a case holds, from its files and their cells.
func dimensionsOf(c *Case) []string {
	var out []string
	add := func(s string) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if len(c.Files) == 3 {
		add("a trace and two DNC results")
	}
	if c.Files[0].Kind == DNCResult {
		add("a DNC result alone")
	}
	if len(c.Company) > 0 {
		add("the company's list")
	}
	for _, f := range c.Files {
		fileDimensions(f, add)
	}
	return out
}

func fileDimensions(f *File, add func(string)) {
	add("family " + f.Family)
	add("format " + f.Format.String())
	if f.Record != nil {
		add("a job record of ours")
		ageDimensions(*f.Record, add)
	}
	if f.Import {
		add("imported")
	}
	if f.Stated != nil {
		add("imported with the person's date")
	}
	if f.NativeDates {
		add("Excel dates")
	}
	if f.NumericPhones {
		add("phones kept as numbers")
	}
	if len(f.Rows) > 1000 {
		add("over 1,000 rows")
	}
	switch f.Encoding {
	case "cp1252":
		add("Windows-1252")
	case "bom":
		add("a byte order mark")
	}
	add("headers " + f.Headers)
	columnDimensions(f, add)
	for _, row := range f.Rows {
		for j, cell := range row {
			cellDimensions(f.Cols[j], cell, add)
		}
	}
}

func columnDimensions(f *File, add func(string)) {
	phones, slots := 0, map[string]bool{}
	for _, col := range f.Cols {
		if col.Conv != "" {
			add("convention " + col.Conv)
		}
		if d := roleDimension(col); d != "" {
			add(d)
		}
		switch {
		case col.Role == RolePhone:
			phones++
		case col.Role == RoleList && col.Slot != "":
			slots[col.Slot[:2]] = true
		}
		if strings.Contains(strings.ToLower(col.Header), "teléfono") || strings.Contains(col.Header, "Propietario") {
			add("Spanish headers")
		}
	}
	if phones > 1 {
		add("wide")
	} else {
		add("long")
	}
	if len(slots) > 1 {
		add("several owners with their own flag columns")
	}
}

// roleDimension names the dimension a column's role makes ("" none).
func roleDimension(col Column) string {
	switch {
	case col.Role == RoleScope:
		return "a scope column"
	case col.Role == RoleStates:
		return "state codes"
	case col.Role == RoleList && strings.HasPrefix(col.Reports[0], "state:") && col.Reports[0] != "state:*":
		return "per-state columns"
	case col.Role == RoleCode && col.Conv == dncCom.name:
		return "DNC.com codes"
	case col.Role == RoleCode:
		return "litigator codes"
	case slices.Contains(dispWords, col.Header):
		return "a dialer disposition"
	case slices.ContainsFunc(crmFlags, func(fl struct{ header, set, unset string }) bool { return fl.header == col.Header }):
		return "a CRM opt-out flag"
	}
	return ""
}

func cellDimensions(col Column, cell Cell, add func(string)) {
	m := cell.M
	if m == nil {
		return
	}
	switch {
	case m.Damaged:
		add("damaged phones")
	case len(m.Mentions) > 0:
		add("a number in a note")
	case m.NotChecked:
		add("a row not checked")
	case m.Restrict != "" && col.Role == RoleNotes:
		add("a restriction in a note")
	case m.Restrict != "" && col.Role == RoleStatus:
		add("a restriction in a status")
	case m.Phone != "" && m.Type != TypeUnknown:
		add("a typed slot")
	}
	switch m.How {
	case "a state code that is an English word", "a day-first date":
		add(m.How)
	}
	if strings.Contains(m.How, "outside the column's convention") {
		add("a value outside the column's convention late in the file")
	}
	if m.Date != nil && m.Date.Known {
		ageDimensions(m.Date.Age, add)
	}
}

func ageDimensions(age int, add func(string)) {
	switch {
	case age < 0:
		add("a date in the future")
	case age > maxAge:
		add("a stale scrub")
	}
}

// Shrinking keeps what the failure needs and drops the rest.
func TestShrink(t *testing.T) {
	now := time.Date(2026, 5, 10, 15, 4, 5, 0, time.UTC)
	var c *Case
	var number string
	// A case with a phone in a row with a note: the "failure" is that
	// row and its note column.
	for seed := int64(1); number == "" && seed < 500; seed++ {
		c = GenerateAt(seed, now)
		number = notedPhone(c.Files[0])
	}
	if number == "" {
		t.Fatal("no case has a phone with a note")
	}
	still := func(sc *Case) bool {
		f := sc.Files[0]
		notes := slices.IndexFunc(f.Cols, func(col Column) bool { return col.Role == RoleNotes })
		return notes >= 0 && slices.ContainsFunc(f.Rows, func(r []Cell) bool { return holds(r, number) && r[notes].Text != "" })
	}
	if !still(c) {
		t.Fatal("the case does not fail to begin with")
	}
	small := Shrink(c, number, 1000, still)
	if !still(small) {
		t.Fatal("the shrunk case no longer fails")
	}
	f := small.Files[0]
	if len(small.Files) != 1 || len(f.Rows) != 1 || len(f.Cols) != 2 {
		t.Errorf("shrunk to %d files, %d rows, %d columns, want 1, 1, 2 (the phone and its note):\n%s",
			len(small.Files), len(f.Rows), len(f.Cols), small.Report())
	}
	if len(c.Files[0].Rows) == len(f.Rows) {
		t.Error("the original case was changed")
	}
}

// notedPhone is a phone of f on a row whose note is not blank.
func notedPhone(f *File) string {
	notes := slices.IndexFunc(f.Cols, func(col Column) bool { return col.Role == RoleNotes })
	if notes < 0 || len(f.Rows) < 5 {
		return ""
	}
	for _, r := range f.Rows {
		for _, cell := range r {
			if cell.M != nil && cell.M.Phone != "" && r[notes].Text != "" {
				return cell.M.Phone
			}
		}
	}
	return ""
}

// Whatever the day a case is made on, a date column's dates fall on the
// days of the month its seed chose, and stay fresh, stale or in the future.
func TestDatesDoNotDependOnTheDay(t *testing.T) {
	start := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for d := range 366 {
		now := start.AddDate(0, 0, d)
		for _, age := range []int{0, 7, 29, 33, 90, 240, -2, -45} {
			for _, low := range []bool{true, false} {
				got := onDay(now, age, low)
				if ageKind(got) != ageKind(age) || (now.AddDate(0, 0, -got).Day() <= 12) != low {
					t.Fatalf("now %s, age %d, low %v: %d", now.Format(time.DateOnly), age, low, got)
				}
			}
		}
	}
}
