package resultgen

import (
	"slices"
	"testing"
	"time"
)

// Hand-built files whose truth is known, one rule each.

func phoneCol(h, slot string) Column { return Column{Header: h, Role: RolePhone, Slot: slot} }

func listColumn(h, slot, list string) Column {
	return Column{Header: h, Role: RoleList, Slot: slot, Reports: []string{list}}
}

func phoneCell(d string) Cell { return Cell{Text: d, M: &Meaning{Phone: d}} }

func answer(text, list string, v Value) Cell {
	return Cell{Text: text, M: &Meaning{Answers: []Answer{{list, v}}}}
}

func dated(age int) Cell {
	return Cell{Text: "date", M: &Meaning{Date: &DateFact{Age: age, Known: true}}}
}

func restrict(text string) Cell { return Cell{Text: text, M: &Meaning{Restrict: text}} }

func days(n int) *int { return &n }

// scrubbed is a long DNC result of one phone, clean on the registry and
// the litigator list, dated by a date column age days old.
func scrubbed(name, number string, age int) *File {
	return &File{Name: name, Kind: DNCResult,
		Cols: []Column{phoneCol("Phone", ""), listColumn("Federal DNC", "", "federal"), listColumn("Litigator", "", "litigator"),
			{Header: "Scrub Date", Role: RoleDate}},
		Rows: [][]Cell{{phoneCell(number), answer("N", "federal", Clean), answer("N", "litigator", Clean), dated(age)}}}
}

const (
	n1 = "5125550101"
	n2 = "3125550100"
)

func TestTruthRule(t *testing.T) {
	for _, tc := range []struct {
		name     string
		files    func() []*File
		company  []string
		callable map[string]bool
		kind     map[string]Kind2 // the first reason of a number not callable
	}{
		{name: "clean on every list with a fresh date", files: func() []*File { return []*File{scrubbed("a.csv", n1, 3)} },
			callable: map[string]bool{n1: true}},
		{name: "stale", files: func() []*File { return []*File{scrubbed("a.csv", n1, 40)} },
			kind: map[string]Kind2{n1: Stale}},
		{name: "in the future", files: func() []*File { return []*File{scrubbed("a.csv", n1, -5)} },
			kind: map[string]Kind2{n1: FutureDate}},
		{name: "no date at all", files: func() []*File {
			f := scrubbed("a.csv", n1, 3)
			f.dropColumn(3)
			return []*File{f}
		}, kind: map[string]Kind2{n1: NoDate}},
		{name: "a job record of ours dates it", files: func() []*File {
			f := scrubbed("a.csv", n1, 3)
			f.dropColumn(3)
			f.Record = days(10)
			return []*File{f}
		}, callable: map[string]bool{n1: true}},
		{name: "a row's own older date beats the record (a reused answer)", files: func() []*File {
			f := scrubbed("a.csv", n1, 50)
			f.Record = days(2)
			return []*File{f}
		}, kind: map[string]Kind2{n1: Stale}},
		{name: "the person's date at import dates rows without their own", files: func() []*File {
			f := scrubbed("a.csv", n1, 3)
			f.dropColumn(3)
			f.Stated = days(5)
			return []*File{f}
		}, callable: map[string]bool{n1: true}},
		{name: "a row's own date beats the person's", files: func() []*File {
			f := scrubbed("a.csv", n1, 60)
			f.Stated = days(1)
			return []*File{f}
		}, kind: map[string]Kind2{n1: Stale}},
		{name: "no litigator answer", files: func() []*File {
			f := scrubbed("a.csv", n1, 3)
			f.dropColumn(2)
			return []*File{f}
		}, kind: map[string]Kind2{n1: UnknownOn}},
		{name: "unknown on the registry", files: func() []*File {
			f := scrubbed("a.csv", n1, 3)
			f.Rows[0][1] = answer("", "federal", Unknown)
			return []*File{f}
		}, kind: map[string]Kind2{n1: UnknownOn}},
		{name: "the company's list", files: func() []*File { return []*File{scrubbed("a.csv", n1, 3)} }, company: []string{n1},
			kind: map[string]Kind2{n1: OnCompanyList}},
		{name: "a note on the row", files: func() []*File {
			f := scrubbed("a.csv", n1, 3)
			f.Cols = append(f.Cols, Column{Header: "Notes", Role: RoleNotes})
			f.Rows[0] = append(f.Rows[0], restrict("said STOP"))
			return []*File{f}
		}, kind: map[string]Kind2{n1: Restricted}},
		{name: "a row not checked", files: func() []*File {
			f := scrubbed("a.csv", n1, 3)
			f.Cols = append(f.Cols, Column{Header: "Scrubbed", Role: RoleScope})
			f.Rows[0] = append(f.Rows[0], Cell{Text: "N", M: &Meaning{NotChecked: true}})
			return []*File{f}
		}, kind: map[string]Kind2{n1: RowNotChecked}},
		{name: "a list a file reports is required of the phones in it", files: func() []*File {
			f := scrubbed("a.csv", n1, 3)
			g := scrubbed("b.csv", n2, 3)
			g.Cols = append(g.Cols, listColumn("DMA", "", "dma"))
			g.Rows[0] = append(g.Rows[0], answer("N", "dma", Clean))
			h := scrubbed("c.csv", n1, 3)
			h.Cols = append(h.Cols, listColumn("DMA", "", "dma"))
			h.Rows[0] = append(h.Rows[0], answer("", "dma", Unknown))
			return []*File{f, g, h}
		}, callable: map[string]bool{n2: true}, kind: map[string]Kind2{n1: UnknownOn}},
		{name: "a list a file reports is not required of the phones it does not hold", files: func() []*File {
			g := scrubbed("b.csv", n2, 3)
			g.Cols = append(g.Cols, listColumn("DMA", "", "dma"))
			g.Rows[0] = append(g.Rows[0], answer("N", "dma", Clean))
			return []*File{scrubbed("a.csv", n1, 3), g}
		}, callable: map[string]bool{n1: true, n2: true}},
		{name: "a DNC result answers what the trace left unknown", files: func() []*File {
			f := scrubbed("trace.csv", n1, 3)
			f.Rows[0][1] = answer("?", "federal", Unknown)
			return []*File{f, scrubbed("dnc.csv", n1, 2)}
		}, callable: map[string]bool{n1: true}},
		{name: "a flag from any source wins", files: func() []*File {
			f := scrubbed("trace.csv", n1, 3)
			f.Rows[0][1] = answer("Y", "federal", Flagged)
			return []*File{f, scrubbed("dnc.csv", n1, 2)}
		}, kind: map[string]Kind2{n1: FlaggedOn}},
		{name: "one state unknown is not answered by another state's clean", files: func() []*File {
			f := scrubbed("a.csv", n1, 3)
			f.Cols = append(f.Cols, listColumn("TX DNC", "", "state:TX"), listColumn("FL DNC", "", "state:FL"))
			f.Rows[0] = append(f.Rows[0], answer("", "state:TX", Unknown), answer("N", "state:FL", Clean))
			return []*File{f}
		}, kind: map[string]Kind2{n1: UnknownOn}},
		{name: "a clean answer over all states answers each", files: func() []*File {
			f := scrubbed("a.csv", n1, 3)
			f.Cols = append(f.Cols, listColumn("TX DNC", "", "state:TX"), listColumn("State DNC", "", "state:*"))
			f.Rows[0] = append(f.Rows[0], answer("", "state:TX", Unknown), answer("None", "state:*", Clean))
			return []*File{f}
		}, callable: map[string]bool{n1: true}},
		{name: "an owner's flag answers for that owner's phone only", files: func() []*File {
			f := &File{Name: "t.csv", Record: days(1),
				Cols: []Column{phoneCol("Phone 1", "o1p1"), listColumn("Phone 1 DNC", "o1p1", "federal"),
					listColumn("Phone 1 Litigator", "o1p1", "litigator"), phoneCol("Owner 2 Phone 1", "o2p1"),
					listColumn("Owner 2 Phone 1 DNC", "o2p1", "federal")},
				Rows: [][]Cell{{phoneCell(n1), answer("N", "federal", Clean), answer("N", "litigator", Clean), phoneCell(n2),
					answer("Y", "federal", Flagged)}}}
			return []*File{f}
		}, callable: map[string]bool{n1: true}, kind: map[string]Kind2{n2: FlaggedOn}},
		{name: "a row's restriction reaches every owner's phone", files: func() []*File {
			f := &File{Name: "t.csv", Record: days(1),
				Cols: []Column{phoneCol("Phone 1", "o1p1"), listColumn("Phone 1 DNC", "o1p1", "federal"),
					listColumn("Phone 1 Litigator", "o1p1", "litigator"), phoneCol("Owner 2 Phone 1", "o2p1"),
					{Header: "Lead Status", Role: RoleStatus}},
				Rows: [][]Cell{{phoneCell(n1), answer("N", "federal", Clean), answer("N", "litigator", Clean), phoneCell(n2),
					restrict("Do Not Contact")}}}
			return []*File{f}
		}, kind: map[string]Kind2{n1: Restricted, n2: Restricted}},
		{name: "a number written only in a note", files: func() []*File {
			f := scrubbed("a.csv", n1, 3)
			f.Cols = append(f.Cols, Column{Header: "Notes", Role: RoleNotes})
			f.Rows[0] = append(f.Rows[0], Cell{Text: "alt # " + n2, M: &Meaning{Mentions: []string{n2}}})
			return []*File{f}
		}, callable: map[string]bool{n1: true}, kind: map[string]Kind2{n2: OnlyInText}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Case{Files: tc.files(), Company: tc.company}
			truth := c.Truth()
			for n, want := range tc.callable {
				if got := truth[n]; got == nil || got.Callable != want {
					t.Errorf("%s: callable %v, want %v: %+v", n, got != nil && got.Callable, want, got)
				}
			}
			for n, want := range tc.kind {
				got := truth[n]
				if got == nil || got.Callable || got.Reasons[0].Kind != want {
					t.Errorf("%s: %+v, want not callable for %s", n, got, want)
				}
			}
		})
	}
}

func TestTruthType(t *testing.T) {
	f := scrubbed("a.csv", n1, 3)
	f.Cols = append(f.Cols, Column{Header: "Type", Role: RoleType})
	f.Rows[0] = append(f.Rows[0], Cell{Text: "Landline", M: &Meaning{Type: TypeLandline}})
	g := scrubbed("b.csv", n1, 3)
	c := &Case{Files: []*File{f, g}}
	if tr := c.Truth()[n1]; tr.Type != TypeLandline || !tr.NotMobile() {
		t.Fatalf("a landline: %+v", tr)
	}
	g.Cols = append(g.Cols, Column{Header: "Wireless", Role: RoleType})
	g.Rows[0] = append(g.Rows[0], Cell{Text: "1", M: &Meaning{Type: TypeMobile}})
	if tr := c.Truth()[n1]; tr.Type != TypeMobile || tr.NotMobile() {
		t.Fatalf("a file that calls it wireless: %+v", tr)
	}
}

func TestLeaks(t *testing.T) {
	f := scrubbed("a.csv", n1, 3)
	truth := (&Case{Files: []*File{f, scrubbed("b.csv", n2, 40)}}).Truth()
	truth[n1].Exported, truth[n2].Exported = true, true
	got := Leaks(truth, []string{n1, n2, "2125550147"}, true)
	var classes []string
	for _, l := range got {
		classes = append(classes, l.Number+" "+l.Class)
	}
	want := []string{n1 + " " + ClassTypeUnknown, n2 + " " + Reason{Kind: Stale, List: "federal"}.Class(), "2125550147 " + ClassNoInput}
	if !slices.Equal(classes, want) {
		t.Errorf("leaks %q\nwant %q", classes, want)
	}
	if l := Leaks(truth, []string{n1}, false); len(l) != 0 {
		t.Errorf("a callable number: %v", l)
	}
}

// The same seed and moment give the same case, files and truth.
func TestGenerateIsReproducible(t *testing.T) {
	now := time.Date(2026, 5, 10, 15, 4, 5, 0, time.UTC)
	for seed := int64(1); seed <= 50; seed++ {
		a, b := GenerateAt(seed, now), GenerateAt(seed, now)
		if a.Report() != b.Report() {
			t.Fatalf("seed %d gives two cases", seed)
		}
		ta, tb := a.Truth(), b.Truth()
		for n, x := range ta {
			if y := tb[n]; y == nil || x.Callable != y.Callable || x.Type != y.Type {
				t.Fatalf("seed %d: %s is %+v then %+v", seed, n, x, y)
			}
		}
	}
}
