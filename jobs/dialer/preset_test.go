package dialer

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func builtin(t *testing.T) []*Preset {
	t.Helper()
	ps, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

func preset(t *testing.T, id string) *Preset {
	t.Helper()
	p, ok := Find(builtin(t), id)
	if !ok {
		t.Fatalf("no preset %q", id)
	}
	return p
}

// numbered is "Phone 1" … "Phone n" for a documented family of columns.
func numbered(format string, n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf(format, i))
	}
	return out
}

// documented are the column lists of the vendors' import pages, written by
// hand from the page each preset file cites.
var documented = map[string]struct {
	columns     []string // the names the vendor documents
	required    []string // those the preset must have
	format      string
	layout      string
	maxRows     int
	maxPhones   int      // the vendor's limit of phone columns per row (0: none said)
	phoneValues []string // the phone types the vendor maps (nil: any)
}{
	"gohighlevel": {
		columns:  []string{"First Name", "Last Name", "Email", "Phone", "Company", "Tags", "Status", "Created Date", "Additional Phone"},
		required: []string{"First Name", "Last Name", "Phone", "Tags"}, format: E164, layout: PerOwner,
	},
	"mojo": {
		columns:  []string{"First Name", "Last Name", "Full Name", "Phone Number", "Email", "Address", "City", "State", "Country", "Postal Code", "Tags", "Source", "Notes"},
		required: []string{"Phone Number", "First Name", "Last Name"}, format: TenDigits, layout: PerPhone,
	},
	"calltools": {
		columns:  []string{"first name", "last name", "address", "city", "state", "zip", "phone"},
		required: []string{"phone", "first name", "last name"}, format: TenDigits, layout: PerPhone, maxRows: 300000,
	},
	"readymode": {
		columns: []string{"Primary Phone Number"}, required: []string{"Primary Phone Number"}, format: TenDigits, layout: PerPhone,
	},
	"podio":           {format: TenDigits, layout: PerOwner},
	"smarter-contact": {columns: []string{"First Name"}, required: []string{"First Name"}, format: TenDigits, layout: PerOwner, maxPhones: 10},
	"reisift": {
		columns:  slices.Concat([]string{"First Name", "Last Name"}, numbered("Phone %d", 30), numbered("Phone Type %d", 30), numbered("Phone Status %d", 30), numbered("Phone Tag %d", 30)),
		required: []string{"First Name", "Last Name", "Phone 1", "Phone Type 1"}, format: TenDigits, layout: PerOwner, maxPhones: 10,
		phoneValues: []string{"Unknown", "Landline", "Mobile", "VoIP"},
	},
	"generic-wide": {format: TenDigits, layout: PerOwner},
	"people":       {format: TenDigits, layout: PerOwner},
	"generic-long": {format: TenDigits, layout: PerPhone},
}

// TestPresetsAgainstDocumentedColumns: every column a preset does not mark
// custom is spelled as its vendor documents it, every column it marks custom
// is one the vendor does not document, the columns the vendor needs are
// there, and the format, layout and limits are the documented ones.
func TestPresetsAgainstDocumentedColumns(t *testing.T) {
	ps := builtin(t)
	if len(ps) != len(documented) {
		t.Errorf("%d presets shipped, %d documented here", len(ps), len(documented))
	}
	for _, p := range ps {
		doc, ok := documented[p.ID]
		if !ok {
			t.Errorf("preset %s has no documented list in this test", p.ID)
			continue
		}
		for _, c := range p.Columns {
			for _, e := range p.expand(c) {
				if in := slices.Contains(doc.columns, e.Header); in == e.Custom {
					t.Errorf("%s: column %q documented = %v but custom = %v", p.ID, e.Header, in, e.Custom)
				}
			}
		}
		header := p.Header()
		for _, r := range doc.required {
			if !slices.Contains(header, r) {
				t.Errorf("%s: no %q column", p.ID, r)
			}
		}
		if p.PhoneFormat != doc.format || p.Layout != doc.layout || p.MaxRows != doc.maxRows {
			t.Errorf("%s: %s %s max %d, want %s %s max %d", p.ID, p.PhoneFormat, p.Layout, p.MaxRows, doc.format, doc.layout, doc.maxRows)
		}
		if doc.maxPhones > 0 && p.Phones > doc.maxPhones {
			t.Errorf("%s: %d phone columns, the vendor takes %d", p.ID, p.Phones, doc.maxPhones)
		}
		for _, v := range p.PhoneTypes {
			if doc.phoneValues != nil && !slices.Contains(doc.phoneValues, v) {
				t.Errorf("%s: phone type %q is not one the vendor maps", p.ID, v)
			}
		}
		if raw, _ := builtinFS.ReadFile("presets/" + p.ID + ".toml"); !strings.HasPrefix(string(raw), "# ") {
			t.Errorf("%s: the file does not open with its comment citing the vendor's page", p.ID)
		}
	}
}

var owner = Owner{
	FirstName: "Ada", LastName: "Lovelace", Emails: []string{"ada@example.com"},
	Property: Address{"1 Main St", "Pensacola", "FL", "32501"},
	Mailing:  Address{"9 Elm Rd", "Atlanta", "GA", "30301"},
	Phones: []Phone{
		{Number: "8504325555", Type: "mobile", TimeZone: "CT", CallFrom: "08:00", CallUntil: "20:00"},
		{Number: "4045550100", Type: "landline", Flags: []string{"litigator"}, TimeZone: "ET", CallFrom: "09:00", CallUntil: "20:00"},
		{Number: "3055550100", Type: "voip", TimeZone: "ET", CallFrom: "08:00", CallUntil: "20:00"},
	},
	ScrubDate: "2026-11-20", ValidUntil: "2026-12-21",
}

func TestShapeGoHighLevel(t *testing.T) {
	rows, err := preset(t, "gohighlevel").Shape(owner)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"Ada", "Lovelace", "ada@example.com", "+18504325555", "+14045550100", "skipdesk, litigator", "1 Main St", "Pensacola", "FL", "32501",
			"Scrubbed 2026-11-20; valid until 2026-12-21. Call windows: +18504325555 08:00–20:00 CT; +14045550100 09:00–20:00 ET"},
		{"Ada", "Lovelace", "ada@example.com", "+13055550100", "", "skipdesk, clean", "1 Main St", "Pensacola", "FL", "32501",
			"Scrubbed 2026-11-20; valid until 2026-12-21. Call windows: +13055550100 08:00–20:00 ET"},
	}
	if !slices.EqualFunc(rows, want, slices.Equal) {
		t.Errorf("rows\n%q\nwant\n%q", rows, want)
	}
}

func TestShapePerPhone(t *testing.T) {
	p := preset(t, "calltools")
	rows, err := p.Shape(owner)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 {
		t.Fatalf("%d rows for 3 phones", len(rows))
	}
	want := []string{"Ada", "Lovelace", "1 Main St", "Pensacola", "FL", "32501", "4045550100", "ET", "09:00", "20:00",
		"Scrubbed 2026-11-20; valid until 2026-12-21; litigator; call 09:00–20:00 ET"}
	if !slices.Equal(rows[1], want) {
		t.Errorf("row 2 %q\nwant %q", rows[1], want)
	}
	if len(rows[0]) != len(p.Header()) {
		t.Errorf("row of %d cells under a header of %d", len(rows[0]), len(p.Header()))
	}
}

func TestShapeREISiftPhoneTypes(t *testing.T) {
	p := preset(t, "reisift")
	rows, err := p.Shape(owner)
	if err != nil {
		t.Fatal(err)
	}
	h := p.Header()
	cell := func(name string) string { return rows[0][slices.Index(h, name)] }
	if cell("Phone Type 1") != "Mobile" || cell("Phone Type 2") != "Landline" || cell("Phone Type 3") != "VoIP" || cell("Phone Type 4") != "" {
		t.Errorf("types %q %q %q %q", cell("Phone Type 1"), cell("Phone Type 2"), cell("Phone Type 3"), cell("Phone Type 4"))
	}
	if cell("Phone Tag 2") != "litigator" || cell("Phone Tag 1") != "clean" {
		t.Errorf("tags %q %q", cell("Phone Tag 1"), cell("Phone Tag 2"))
	}
}

func TestShapeRefusesBadPhones(t *testing.T) {
	o := owner
	o.Phones = []Phone{{Number: "555-0100"}}
	if _, err := preset(t, "mojo").Shape(o); err == nil || !strings.Contains(err.Error(), "555-0100") {
		t.Errorf("a 7-digit phone was shaped: %v", err)
	}
	o.Phones = nil
	if rows, err := preset(t, "mojo").Shape(o); err != nil || len(rows) != 0 {
		t.Errorf("an owner without phones: %v %v", rows, err)
	}
}

func TestParts(t *testing.T) {
	p := preset(t, "calltools")
	for n, want := range map[int]int{0: 1, 300000: 1, 300001: 2, 900000: 3} {
		if got := p.Parts(n); got != want {
			t.Errorf("Parts(%d) = %d, want %d", n, got, want)
		}
	}
}

const minimal = `name = "Mine"
format = 1
phone_format = "10digit"
rows = "per-phone"
[[columns]]
header = "Phone"
value = "phone"
`

func TestParseErrors(t *testing.T) {
	cases := []struct{ text, want string }{
		{minimal + "colour = \"red\"\n", `unknown setting "columns.colour"`},
		{"colour = \"red\"\n" + minimal, `unknown setting "colour"`},
		{strings.Replace(minimal, `format = 1`, `format = 2`, 1), "format = 2"},
		{strings.Replace(minimal, `"10digit"`, `"dashes"`, 1), `phone_format = "dashes"`},
		{strings.Replace(minimal, `value = "phone"`, `value = "phone_colour"`, 1), `value "phone_colour" is not one`},
		{strings.Replace(minimal, `value = "phone"`, `value = "first_name"`, 1), "no column holds the phone number"},
		{minimal + "[[columns]]\nheader = \"phone\"\nvalue = \"last_name\"\n", `header "phone" twice`},
		{"notes = \"{mood}\"\n" + minimal, "{mood} is not a placeholder"},
		{strings.Replace(minimal, `rows = "per-phone"`, "rows = \"per-owner\"\nphones = 2", 1), "needs a slot"},
		{"name = \"x\"\nformat = \n", "line 2"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.text), "/tmp/mine.toml")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "mine.toml: ") {
			t.Errorf("%q: error %v, want one naming mine.toml and %q", c.text, err, c.want)
		}
	}
}

// TestSaveAndLoad: a person's preset round-trips through its file; a broken
// file is reported without hiding the others; built-in names are refused.
func TestSaveAndLoad(t *testing.T) {
	dir := t.TempDir()
	ps := builtin(t)
	mine, err := Parse([]byte(minimal), "mine.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := Save(dir, mine, ps); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "broken.toml"), []byte("name = "), 0o644); err != nil {
		t.Fatal(err)
	}
	got, errs := LoadDir(dir, ps)
	if len(got) != 1 || got[0].ID != "mine" || !slices.Equal(got[0].Header(), []string{"Phone"}) {
		t.Fatalf("loaded %v", got)
	}
	if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), "broken.toml: ") {
		t.Errorf("errors %v", errs)
	}
	clash := *mine
	clash.ID = "mojo"
	if err := Save(dir, &clash, ps); err == nil {
		t.Error("a person's preset took a built-in preset's name")
	}
	if _, errs := LoadDir(filepath.Join(dir, "none"), ps); len(errs) != 0 {
		t.Errorf("a missing folder: %v", errs)
	}
}
