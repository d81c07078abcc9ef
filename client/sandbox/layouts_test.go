package sandbox

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// traceResult runs ownersCSV as a trace with the layouts given and returns
// the result's records.
func layoutResult(t *testing.T, l ResultLayouts, dnc bool) [][]string {
	t.Helper()
	cfg := testConfig()
	cfg.MatchRate = 1
	cfg.ResultLayouts = l
	s := startT(t, cfg)
	var r resp
	path := "/traces/"
	if dnc {
		var b strings.Builder
		b.WriteString("Name,Phone\r\n")
		for i := range 60 {
			fmt.Fprintf(&b, "P%d,(212) 555-01%02d\r\n", i, i)
		}
		b.WriteString("Bad,555-0100\r\n")
		r = postForm(t, s, DemoKey, "/dnc", part{name: "column_mapping", body: `{"phone":"Phone"}`},
			part{name: "file", filename: "phones.csv", body: b.String()})
		path = "/dnc/"
	} else {
		r = postForm(t, s, DemoKey, "/traces", traceParts(ownersCSV, "owners.csv", ownersMapping)...)
	}
	if r.status != 201 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	id := r.json(t)["id"].(string)
	if j := waitFinal(t, s, DemoKey, path+id); j["status"] != "completed" {
		t.Fatalf("job %v", j)
	}
	d := get(t, s, DemoKey, path+id+"/download")
	recs, err := csv.NewReader(bytes.NewReader(d.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// digitsOf keeps the digits of a value.
func digitsOf(v string) string {
	var b strings.Builder
	for _, c := range v {
		if c >= '0' && c <= '9' {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// The same synthetic people and phones, whatever the trace layout.
func TestTraceLayouts(t *testing.T) {
	want := map[string][]string{
		"skipdesk": traceResultColumns,
		"propstream": {"Owner 1 First Name", "Owner 1 Last Name", "Phone 1", "Phone 1 Type", "Phone 1 DNC", "Phone 2",
			"Phone 2 Type", "Phone 2 DNC", "Phone 3", "Phone 3 Type", "Phone 3 DNC", "Email 1", "Email 2", "Litigator"},
		"dealmachine": {"contact_1_name", "contact_1_flags", "contact_1_phone1", "contact_1_phone1_type", "contact_1_phone2",
			"contact_1_phone2_type", "contact_1_phone3", "contact_1_phone3_type", "contact_1_email1", "contact_1_email2"},
		"tracerfy": {"First Name", "Last Name", "Primary Phone", "Mobile 1", "Mobile 2", "Mobile 3", "Landline 1", "Landline 2",
			"Landline 3", "VoIP 1", "VoIP 2", "VoIP 3", "Email 1", "Email 2"},
		"batchdata": {"Input Data: First Name", "Input Data: Last Name", "Input Data: Property Address",
			"Input Data: Property City", "Input Data: Property State", "Input Data: Property Zip", "First Name", "Last Name",
			"Phone 1", "Phone 1 Type", "Phone 1 DNC", "Phone 1 TCPA", "Phone 2", "Phone 2 Type", "Phone 2 DNC",
			"Phone 2 TCPA", "Phone 3", "Phone 3 Type", "Phone 3 DNC", "Phone 3 TCPA", "Email 1", "Email 2"},
	}
	base := layoutResult(t, ResultLayouts{}, false)
	phonesOf := func(rec []string, header []string) []string {
		var out []string
		for i, h := range header[6:] {
			v := rec[6+i]
			if d := digitsOf(v); len(d) == 10 && strings.Contains(strings.ToLower(h), "phone") || len(d) == 10 &&
				(strings.HasPrefix(h, "Mobile") || strings.HasPrefix(h, "Landline") || strings.HasPrefix(h, "VoIP")) {
				if !slices.Contains(out, d) {
					out = append(out, d)
				}
			}
		}
		slices.Sort(out)
		return out
	}
	for _, name := range TraceLayouts {
		recs := layoutResult(t, ResultLayouts{Trace: name}, false)
		if got := recs[0][6:]; !slices.Equal(got, want[name]) {
			t.Errorf("%s: columns %q", name, got)
		}
		if len(recs) != len(base) {
			t.Fatalf("%s: %d rows, want %d", name, len(recs), len(base))
		}
		for i := 1; i < len(recs); i++ {
			if !slices.Equal(recs[i][:6], base[i][:6]) {
				t.Errorf("%s row %d: input %q", name, i, recs[i][:6])
			}
			if got, w := phonesOf(recs[i], recs[0]), phonesOf(base[i], base[0]); !slices.Equal(got, w) {
				t.Errorf("%s row %d: phones %q, want %q", name, i, got, w)
			}
		}
	}
	// PropStream's flags say what the DNC scrub says of the same numbers.
	ps := layoutResult(t, ResultLayouts{Trace: "propstream"}, false)
	for _, rec := range ps[1:] {
		anyLit := false
		for k := 0; k < 3; k++ {
			num := digitsOf(rec[6+2+3*k])
			if num == "" {
				continue
			}
			dnc, lit, _ := dncFlags(num)
			anyLit = anyLit || lit
			if rec[6+4+3*k] != yesNo(dnc, "Yes", "No") {
				t.Errorf("PropStream DNC of %s: %q", num, rec[6+4+3*k])
			}
		}
		if rec[1] != "" && rec[len(rec)-1] != "" && rec[len(rec)-1] != yesNo(anyLit, "Yes", "No") {
			t.Errorf("PropStream litigator: %q", rec)
		}
	}
}

// DNC layouts spell the same answers: Y/N, 1/0, result codes; unknowns as
// "?" or blanks.
func TestDNCLayouts(t *testing.T) {
	base := layoutResult(t, ResultLayouts{}, true)
	unknowns := 0
	for _, name := range DNCLayouts[1:] {
		recs := layoutResult(t, ResultLayouts{DNC: name}, true)
		if len(recs) != len(base) || !slices.Equal(recs[0][:2], []string{"Name", "Phone"}) {
			t.Fatalf("%s: %d rows, header %q", name, len(recs), recs[0])
		}
		for i, rec := range recs[1:] {
			num := base[i+1][2]
			out := rec[2:]
			if num == "" {
				if out[0] != "" {
					t.Errorf("%s: invalid %q normalised to %q", name, rec[1], out[0])
				}
				continue
			}
			dnc, lit, _ := dncFlags(num)
			st, mark := stateDNC(num), unknownMark(num)
			if out[0] != num {
				t.Errorf("%s: %s written %q", name, num, out[0])
			}
			switch name {
			case "vendor-yn", "vendor-10":
				yes, no := "Y", "N"
				if name == "vendor-10" {
					yes, no = "1", "0"
				}
				w := []string{yesNo(dnc, yes, no), yesNo(st, yes, no), yesNo(lit, yes, no)}
				if mark > 0 {
					if out[1+mark] == w[mark-1] {
						t.Errorf("%s: %s: no unknown where mark %d", name, num, mark)
					}
					unknowns++
					w[mark-1] = out[1+mark]
				}
				if !slices.Equal(out[2:], w) {
					t.Errorf("%s: %s flags %q, want %q", name, num, out[2:], w)
				}
			case "vendor-codes":
				clean := !dnc && !lit && !st
				switch {
				case mark > 0 && out[1] != "?":
					t.Errorf("codes: %s: %q, want ?", num, out[1])
				case mark == 0 && clean != slices.Contains([]string{"C", "W", "Y"}, out[1]):
					t.Errorf("codes: %s (dnc %v lit %v state %v): %q", num, dnc, lit, st, out[1])
				}
			}
		}
	}
	if unknowns == 0 {
		t.Error("no unknown answers in 60 numbers")
	}
}

func TestResultLayoutsConfig(t *testing.T) {
	cfg, err := ParseConfig([]byte(`{"result_layouts": {"trace": "propstream", "dnc": "vendor-codes"}}`))
	if err != nil || cfg.ResultLayouts != (ResultLayouts{Trace: "propstream", DNC: "vendor-codes"}) {
		t.Errorf("%+v, %v", cfg.ResultLayouts, err)
	}
	if _, err := ParseConfig([]byte(`{"result_layouts": {"trace": "propsteam"}}`)); err == nil || !strings.Contains(err.Error(), "result_layouts.trace") {
		t.Errorf("unknown layout: %v", err)
	}
	s := startT(t, testConfig())
	if err := s.SetResultLayouts(ResultLayouts{DNC: "vendor-9"}); err == nil {
		t.Error("unknown DNC layout accepted")
	}
}
