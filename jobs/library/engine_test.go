package library

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/calltime"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// The engine's answers are checked against a plain scan: every row read
// with encoding/csv, each filter's rule applied cell by cell, each sort a
// stable sort with a comparison of the values themselves.

// engineHeaders are the columns of a generated result with every kind of
// value the viewer reads: accents and punctuation in names, numbers with
// thousands separators and decimals, dates in two ways, phones in every
// format with types and DNC flags, a row-level litigator flag and a match
// status.
var engineHeaders = []string{"First Name", "Last Name", "Property Address", "City", "Zip", "Est. Value", "Sale Date",
	"Phone 1", "Phone 1 Type", "Phone 1 DNC", "Phone 2", "Phone 2 Type", "Phone 2 DNC", "Phone 3", "Phone 3 Type", "Phone 3 DNC",
	"Email 1", "Litigator", "match_status"}

var (
	engineFirsts  = []string{"JOHN", "José", "MARÍA", "Zoë", "Łukasz", "ANN-MARIE", "Bob", "ÅSA"}
	engineLasts   = []string{"SMITH", "O'Neil", "Müller", "GARCÍA", "de la Cruz", "NGUYEN", "Smith-Jones"}
	engineStreets = []string{"MAIN ST", "Oak  Ave.", "Élan Blvd", "PINE RD #4"}
	engineCities  = []string{"Austin", "São Paulo", "SPRINGFIELD", "Coeur d'Alene"}
	engineTypes   = []string{"Mobile", "Landline", "VoIP", "Wireless", ""}
	engineFlags   = []string{"Yes", "No", "No", "", "?"}
)

// enginePhone writes number n (a fictional 555-01xx line) in one of the
// ways files write phones; some are not valid numbers.
func enginePhone(rnd *rand.Rand) string {
	area, line := 200+rnd.IntN(20), rnd.IntN(100)
	switch rnd.IntN(7) {
	case 0:
		return fmt.Sprintf("(%d) 555-01%02d", area, line)
	case 1:
		return fmt.Sprintf("%d.555.01%02d", area, line)
	case 2:
		return fmt.Sprintf("+1 %d 555 01%02d", area, line)
	case 3:
		return fmt.Sprintf("555-01%02d", line) // no area code: not valid
	case 4:
		return ""
	}
	return fmt.Sprintf("%d55501%02d", area, line)
}

func engineRow(rnd *rand.Rand, i int) []string {
	pick := func(s []string) string { return s[rnd.IntN(len(s))] }
	value := []string{"1,250,000", "350000", "-12.5", "", "99.99", strconv.Itoa(rnd.IntN(900000))}[rnd.IntN(6)]
	date := ""
	switch d := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, rnd.IntN(1500)); rnd.IntN(3) {
	case 0:
		date = d.Format("1/2/2006")
	case 1:
		date = d.Format("2006-01-02")
	}
	last := pick(engineLasts)
	rec := []string{pick(engineFirsts), last, fmt.Sprintf("%d %s", 1+rnd.IntN(99), pick(engineStreets)), pick(engineCities),
		fmt.Sprintf("%05d", rnd.IntN(3000)), value, date}
	for range 3 {
		rec = append(rec, enginePhone(rnd), pick(engineTypes), pick(engineFlags))
	}
	email := ""
	if rnd.IntN(2) == 0 {
		email = fmt.Sprintf("%s%d@example.com", strings.ToLower(strings.ReplaceAll(last, " ", "")), i%50)
	}
	status := "matched"
	if rnd.IntN(6) == 0 {
		status = "no_match"
	}
	rec = append(rec, email, pick(engineFlags), status)
	switch {
	case i%89 == 5:
		rec[3] = strings.Repeat("Ville-Marie Québec ", 20) // a cell longer than 255 bytes
	case i%97 == 7:
		rec = rec[:len(rec)-4] // a short row: no e-mail, litigator, status
	}
	return rec
}

// plainRows are a file's rows as encoding/csv reads them, and their cells
// folded (made once for the plain scans).
type plainRows struct {
	raw, folded [][]string
	read        map[readKey][]layout.Row // the rows read through a layout
	kinds       map[int][2]bool          // a column's values: all numbers, all dates
}

type readKey struct {
	l    *layout.Layout
	join *layout.FlagIndex
}

// through are the rows read through layout l with join (phones only).
func (pr *plainRows) through(l *layout.Layout, join *layout.FlagIndex) []layout.Row {
	k := readKey{l, join}
	if rows, ok := pr.read[k]; ok {
		return rows
	}
	rd := l.NewReader(join)
	rows := make([]layout.Row, len(pr.raw))
	for i, rec := range pr.raw {
		rd.Read(rec, &rows[i])
		rows[i].Phones = slices.Clone(rows[i].Phones)
	}
	pr.read[k] = rows
	return rows
}

// writeEngineResult writes rows generated rows and returns the path and
// the rows.
func writeEngineResult(t *testing.T, rows int, seed uint64) (string, *plainRows) {
	t.Helper()
	rnd := rand.New(rand.NewPCG(seed, 3))
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(engineHeaders)
	for i := range rows {
		w.Write(engineRow(rnd, i))
	}
	w.Flush()
	p := filepath.Join(t.TempDir(), "generated.csv")
	if err := os.WriteFile(p, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	cr := csv.NewReader(bytes.NewReader(buf.Bytes()))
	cr.FieldsPerRecord = -1
	all, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	pr := &plainRows{raw: all[1:], read: map[readKey][]layout.Row{}, kinds: map[int][2]bool{}}
	for i, rec := range pr.raw {
		for len(rec) < len(engineHeaders) {
			rec = append(rec, "") // a short row's missing cells read as blank
		}
		pr.raw[i] = rec
		f := make([]string, len(rec))
		for i, c := range rec {
			f[i] = fold(c)
		}
		pr.folded = append(pr.folded, f)
	}
	return p, pr
}

// plainScan applies f to rows one by one, as the rules say.
func plainScan(r *Result, rows *plainRows, f Filter) []int {
	l, join := r.Layout(), r.Join()
	read := rows.through(l, join)
	q := newQuery(f.Text)
	words := strings.Fields(fold(f.Text))
	// A number a flag filter leaves out in one row is left out of every
	// row (layout.FlaggedNumbers): every row is looked at first.
	flagged := layout.NewFlaggedNumbers()
	for i := range read {
		for k := range read[i].Phones {
			flagged.Note(&read[i].Phones[k], jobs.QuickFilters, layout.Passes)
		}
	}
	out := []int{}
	for i, rec := range rows.raw {
		row := read[i]
		if q != nil && !plainMatch(l, &row, rec, rows.folded[i], q, words) {
			continue
		}
		if len(f.Quick) > 0 {
			row.Phones = slices.Clone(row.Phones) // Keep drops phones in place
			if !flagged.Keep(&row, f.Quick) {
				continue
			}
			if slices.Contains(f.Quick, jobs.QuickCallableNow) && !callableAt(&row, f.At) {
				continue
			}
		}
		out = append(out, i)
	}
	return out
}

// testRules are the calling rules the engine's tests read "callable-now"
// by; engineAt is the instant they read it at: a Tuesday, 10 a.m. in the
// East, 7 a.m. in the West.
var (
	testRules = func() *calltime.Engine {
		e, err := calltime.New(nil)
		if err != nil {
			panic(err)
		}
		return e
	}()
	engineAt = time.Date(2026, 11, 24, 15, 0, 0, 0, time.UTC)
)

// callableAt leaves in row.Phones those the rules let be called at at,
// each asked of the engine itself with what its DNC vendor said; false
// when none is left.
func callableAt(row *layout.Row, at time.Time) bool {
	addrs := calltime.RowAddresses(row)
	kept := row.Phones[:0]
	for _, p := range row.Phones {
		if testRules.Decide(testRules.Locate(p.Digits(), addrs[:]), at, calltime.VendorNarrowing(p.Vendor)).Callable {
			kept = append(kept, p)
		}
	}
	row.Phones = kept
	return len(kept) > 0
}

func plainMatch(l *layout.Layout, row *layout.Row, rec, folded []string, q *query, words []string) bool {
	if q.digits != "" {
		if len(l.Slots) == 0 {
			return slices.ContainsFunc(rec, func(c string) bool { return strings.Contains(asciiDigits(c), q.digits) })
		}
		return slices.ContainsFunc(row.Phones, func(p layout.Phone) bool {
			d := asciiDigits(p.Raw)
			if p.Key != 0 {
				d = phone.KeyDigits(p.Key)
			}
			return len(d) <= 17 && strings.Contains(d, q.digits)
		})
	}
	for _, w := range words {
		if !slices.ContainsFunc(folded, func(c string) bool { return strings.Contains(c, w) }) {
			return false
		}
	}
	return true
}

func asciiDigits(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b = append(b, s[i])
		}
	}
	return string(b)
}

// plainNum and plainDate read a value as a number and as a date.
func plainNum(v string) (float64, bool) {
	f, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", ""), 64)
	return f, err == nil && f == f
}

func plainDate(v string) (time.Time, bool) {
	for _, l := range dateLayouts {
		if d, err := time.Parse(l, v); err == nil && len(v) >= 6 {
			return d, true
		}
	}
	return time.Time{}, false
}

// kind says whether column col's values are all numbers, all dates (a
// blank column is neither).
func (pr *plainRows) kind(col int) (allNum, allDate bool) {
	if k, ok := pr.kinds[col]; ok {
		return k[0], k[1]
	}
	allNum, allDate = true, true
	any := false
	for _, rec := range pr.raw {
		if v := strings.TrimSpace(rec[col]); v != "" {
			_, n := plainNum(v)
			_, d := plainDate(v)
			allNum, allDate, any = allNum && n, allDate && d && !n, true
		}
	}
	pr.kinds[col] = [2]bool{allNum && any, allDate && any}
	return allNum && any, allDate && any
}

// plainSort sorts sel by column col as the rules say: a stable sort, blank
// cells last either way, numbers as numbers, dates as dates, other text
// folded.
func plainSort(pr *plainRows, sel []int, col int, desc bool) []int {
	val := func(i int) string { return strings.TrimSpace(pr.raw[i][col]) }
	allNum, allDate := pr.kind(col)
	nums, dates := map[int]float64{}, map[int]time.Time{}
	for _, i := range sel {
		nums[i], _ = plainNum(val(i))
		dates[i], _ = plainDate(val(i))
	}
	blank := func(i int) bool {
		if allNum || allDate {
			return val(i) == ""
		}
		return pr.folded[i][col] == ""
	}
	compare := func(a, b int) int {
		switch {
		case allNum:
			return cmp.Compare(nums[a], nums[b])
		case allDate:
			return dates[a].Compare(dates[b])
		}
		return strings.Compare(pr.folded[a][col], pr.folded[b][col])
	}
	out := slices.Clone(sel)
	slices.SortStableFunc(out, func(a, b int) int {
		switch ba, bb := blank(a), blank(b); {
		case ba || bb:
			return cmp.Compare(b2i(ba), b2i(bb))
		case desc:
			return -compare(a, b)
		}
		return compare(a, b)
	})
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// checkView compares r's view with the plain scan's answer for f sorted by
// col.
func checkView(t *testing.T, r *Result, rows *plainRows, f Filter, col int, desc bool) {
	t.Helper()
	if err := r.Query(context.Background(), f, col, desc, nil); err != nil {
		t.Fatalf("%+v by %d: %v", f, col, err)
	}
	want := plainScan(r, rows, f)
	if col >= 0 {
		want = plainSort(rows, want, col, desc)
	}
	got := r.Permutation()
	if got == nil {
		got = make([]int, r.Len())
		for i := range got {
			got[i] = i
		}
	}
	if !slices.Equal(got, want) {
		order := "in file order"
		if col >= 0 {
			order = fmt.Sprintf("sorted by %q (desc %v)", engineHeaders[col], desc)
		}
		t.Fatalf("%+v %s: %d rows, the plain scan %d; first difference at %d", f, order, len(got), len(want), firstDiff(got, want))
	}
}

func firstDiff(a, b []int) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// Every quick filter (and each pair), texts with accents and punctuation,
// phones in every format, growing and shrinking queries (which narrow
// earlier answers) and a sort of each kind, filtered and not: the engine
// answers as the plain scan does.
func TestEngineEqualsPlainScan(t *testing.T) {
	p, rows := writeEngineResult(t, 2*chunkRows+517, 11)
	defer func(n int) { searchPart = n }(searchPart)
	searchPart = 1000 // many parts on every core
	r, err := StartResult(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close() // before searchPart is put back
	r.SetCalltime(calltime.NewPlaces(testRules))
	if q := fmt.Sprint(r.QuickFilters()); q != fmt.Sprint(jobs.QuickFilters) {
		t.Fatalf("the generated result allows quick filters %s, want all of them", q)
	}
	col := func(name string) int { return slices.Index(engineHeaders, name) }
	var filters []Filter
	for i, a := range jobs.QuickFilters {
		filters = append(filters, Filter{Quick: []jobs.QuickFilter{a}, At: engineAt})
		for _, b := range jobs.QuickFilters[i+1:] {
			filters = append(filters, Filter{Quick: []jobs.QuickFilter{a, b}, At: engineAt})
		}
	}
	// "callable-now" at other instants: an evening, a Sunday.
	for _, at := range []time.Time{engineAt.Add(10 * time.Hour), engineAt.AddDate(0, 0, -2)} {
		filters = append(filters, Filter{Quick: []jobs.QuickFilter{jobs.QuickCallableNow}, At: at})
	}
	for _, text := range []string{"s", "sm", "smi", "smith", "smit", "SMITH JOSE", "josé", "jose", "o'neil", "oneil",
		"muller", "MÜLLER", "lukasz", "de la", "delacruz", "zoe", "asa", "sao paulo", "oak ave", "coeur dalene",
		"smithjones", "smith-jones", "example.com", "1,250", "1250000", "-12.5", "2021-03", "elan blvd #4",
		"(212) 555-0107", "212.555.0107", "+1 212 555 0107", "2125550107", "555-0107", "5550107", "555010", "21255501",
		"2", "21", "212", "2125", "21255", "212555", "2125550", "'", "zzz"} {
		filters = append(filters, Filter{Text: text}, Filter{Text: text, Quick: []jobs.QuickFilter{jobs.QuickMobile, jobs.QuickNotDNC}})
	}
	for _, f := range filters {
		checkView(t, r, rows, f, -1, false)
	}
	for _, name := range []string{"Last Name", "City", "Zip", "Est. Value", "Sale Date", "Phone 1", "Email 1"} {
		for _, f := range []Filter{{}, {Text: "smith"}, {Quick: []jobs.QuickFilter{jobs.QuickCallable}}} {
			checkView(t, r, rows, f, col(name), false)
			checkView(t, r, rows, f, col(name), true)
		}
	}
	// The kinds of sort the columns got.
	st := r.st
	for name, want := range map[string]keyKind{"Last Name": keyText, "Zip": keyPlain, "Est. Value": keyStored, "Sale Date": keyStored, "Phone 1": keyText} {
		if got := st.kinds[col(name)]; got != want {
			t.Errorf("%s sorts as kind %d, want %d", name, got, want)
		}
	}
}

// The quick filters are read again through a new layout: after flags of a
// DNC result are joined, "callable" keeps what the joined flags allow.
func TestEngineQuickFiltersFollowTheLayout(t *testing.T) {
	p, rows := writeEngineResult(t, chunkRows+100, 5)
	r := started(t, p)
	callable := Filter{Quick: []jobs.QuickFilter{jobs.QuickCallable}}
	checkView(t, r, rows, callable, -1, false)
	before := r.View()
	// A DNC result saying every 212 number is clean of everything.
	var b strings.Builder
	b.WriteString("phone,dnc,state_dnc,litigator\n")
	for line := range 100 {
		fmt.Fprintf(&b, "21255501%02d,false,false,false\n", line)
	}
	dir := t.TempDir()
	dnc := filepath.Join(dir, "dnc.csv")
	os.WriteFile(dnc, []byte(b.String()), 0o600)
	lib, _ := Open(dir)
	// Scrubbed yesterday: its answers are dated and fresh.
	if err := lib.Record(Meta{JobID: "dnc_1", Kind: jobs.KindDNC, CompletedAt: time.Now().Add(-24 * time.Hour)}, dnc); err != nil {
		t.Fatal(err)
	}
	x, _, err := LoadFlags(context.Background(), layout.Options{}, dnc)
	if err != nil {
		t.Fatal(err)
	}
	r.SetLayout(r.Layout(), x)
	if r.View() != r.Len() {
		t.Fatalf("SetLayout kept a filter: %d of %d rows", r.View(), r.Len())
	}
	checkView(t, r, rows, callable, -1, false)
	if r.View() == before {
		t.Errorf("callable kept %d rows before and after the join: the bitsets were not read again", before)
	}
	checkView(t, r, rows, Filter{Text: "2125550107"}, -1, false)
}

// A reversed sort is the ascending order's groups reversed, each group in
// file order: no sort again, and ties keep file order either way.
func TestSortReverseKeepsTiesInFileOrder(t *testing.T) {
	p, rows := writeEngineResult(t, 2000, 9)
	r := opened(t, p)
	last := slices.Index(engineHeaders, "Last Name")
	checkView(t, r, rows, Filter{}, last, false)
	// A cancelled context shows whether work was done: none for the reverse.
	r.mu.Lock()
	asc := r.asc
	r.mu.Unlock()
	checkView(t, r, rows, Filter{}, last, true)
	r.mu.Lock()
	same := r.asc == asc
	r.mu.Unlock()
	if !same {
		t.Error("the reverse sorted again")
	}
}

// Folding: what a person types finds what the file writes.
func TestFold(t *testing.T) {
	for in, want := range map[string]string{
		"JOSÉ":                "jose",
		"  O'Neil  ":          "oneil",
		"Müller":              "muller",
		"Łukasz Øster":        "lukasz oster",
		"Zoë\u00a0 Straße":    "zoe strasse",
		"de la   Cruz":        "de la cruz",
		"j.smith@example.com": "jsmithexamplecom",
		"(212) 555-0147":      "212 5550147",
		"1,250.50":            "125050",
		"e\u0301":             "e", // a combining accent
		"—":                   "",
		"ÅSA":                 "asa",
		"Ἀθῆναι":              "αθηναι",
	} {
		if got := fold(in); got != want {
			t.Errorf("fold(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestQuickFiltersFitAByte(t *testing.T) {
	if len(jobs.QuickFilters) > 8 {
		t.Fatalf("%d quick filters: the phone index keeps them as bits of a byte", len(jobs.QuickFilters))
	}
}

// A sink sees every row in file order, the cells of its columns set, as a
// plain reading of the file gives them: while the store is built, and
// again once it is.
func TestIndexWithSinkSeesEveryRow(t *testing.T) {
	p, rows := writeEngineResult(t, chunkRows+300, 21)
	r := started(t, p)
	cols := []int{0, 7, 18}
	for _, round := range []string{"while building", "built"} {
		var got [][]string
		sink := &RowSink{Columns: cols, Add: func(rec []string) {
			if rec[1] != "" {
				t.Fatalf("%s: a cell outside the sink's columns is set: %q", round, rec[1])
			}
			got = append(got, []string{rec[0], rec[7], rec[18]})
		}}
		if err := r.Index(context.Background(), nil, sink); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(rows.raw) {
			t.Fatalf("%s: the sink saw %d rows, the file has %d", round, len(got), len(rows.raw))
		}
		for i, rec := range rows.raw {
			if want := []string{rec[0], rec[7], rec[18]}; !slices.Equal(got[i], want) {
				t.Fatalf("%s: row %d: the sink saw %q, want %q", round, i, got[i], want)
			}
		}
	}
}

// "callable-now" keeps the callable phones whose calling windows are open
// at the view's instant, each as the rules answer it phone by phone: at
// 10 a.m. in the East (7 a.m. in the West), in the evening and on a Sunday.
func TestCallableNowFollowsTheRules(t *testing.T) {
	p, rows := writeEngineResult(t, chunkRows+100, 13)
	r := started(t, p)
	// A DNC result saying every number the rows can hold is clean,
	// scrubbed the day before; its vendor narrows some numbers' calling
	// time (a window, an offset, "do not call today", a window it wrote
	// so that it cannot be read).
	var b strings.Builder
	b.WriteString("phone,dnc,state_dnc,litigator,Calling Window,UTC Offset,Do Not Call Today\n")
	vendor := func(line int) string {
		switch {
		case line%13 == 0:
			return "whenever,,"
		case line%5 == 0:
			return "11:00 AM - 2:00 PM,,"
		case line%7 == 0:
			return ",,Y"
		case line%11 == 0:
			return ",-10,"
		}
		return ",,"
	}
	for area := 200; area < 220; area++ {
		for line := range 100 {
			fmt.Fprintf(&b, "%d55501%02d,false,false,false,%s\n", area, line, vendor(line))
		}
	}
	dir := t.TempDir()
	dnc := filepath.Join(dir, "dnc.csv")
	os.WriteFile(dnc, []byte(b.String()), 0o600)
	lib, _ := Open(dir)
	if err := lib.Record(Meta{JobID: "dnc_1", Kind: jobs.KindDNC, CompletedAt: engineAt.Add(-24 * time.Hour)}, dnc); err != nil {
		t.Fatal(err)
	}
	x, _, err := LoadFlags(context.Background(), layout.Options{Now: engineAt}, dnc)
	if err != nil {
		t.Fatal(err)
	}
	x.SetDates(time.Time{}, engineAt)
	r.SetCalltime(calltime.NewPlaces(testRules))
	r.SetLayout(r.Layout(), x)
	checkView(t, r, rows, Filter{Quick: []jobs.QuickFilter{jobs.QuickCallable}}, -1, false)
	callable := r.View()
	seen := map[int]bool{}
	for _, at := range []time.Time{engineAt, engineAt.Add(10 * time.Hour), engineAt.AddDate(0, 0, -2), engineAt.Add(-20 * time.Hour)} {
		f := Filter{Quick: []jobs.QuickFilter{jobs.QuickCallableNow}, At: at}
		checkView(t, r, rows, f, -1, false)
		checkView(t, r, rows, Filter{Text: "smith", Quick: []jobs.QuickFilter{jobs.QuickMobile, jobs.QuickCallableNow}, At: at}, -1, false)
		if err := r.Filter(f); err != nil {
			t.Fatal(err)
		}
		if r.View() >= callable {
			t.Errorf("at %s: %d rows callable now of %d callable: the time left none out", at, r.View(), callable)
		}
		seen[r.View()] = true
	}
	if callable == 0 || len(seen) < 3 {
		t.Errorf("%d callable rows; callable now at the three instants: %v (want three different answers)", callable, seen)
	}
}
