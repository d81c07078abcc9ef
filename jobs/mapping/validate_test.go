package mapping

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

var fileHeaders = []string{"First Name", "Last Name", "Property Address", "Property City", "Property State", "Property Zip",
	"Mail Address", "Mail City", "Mail State", "Mail Zip", "Phone 1"}

func fullMapping() Mapping {
	return Mapping{
		FirstName: "First Name", LastName: "Last Name",
		PropertyStreet: "Property Address", PropertyCity: "Property City", PropertyState: "Property State", PropertyZip: "Property Zip",
	}
}

func with(m Mapping, kv ...string) Mapping {
	m = m.Clone()
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "-" {
			delete(m, kv[i])
		} else {
			m[kv[i]] = kv[i+1]
		}
	}
	return m
}

func codes(r Result) []string {
	var out []string
	for _, p := range r.Problems {
		out = append(out, p.Code)
	}
	return out
}

func TestValidateCases(t *testing.T) {
	propOnly := Mapping{PropertyStreet: "Property Address", PropertyCity: "Property City", PropertyState: "Property State", PropertyZip: "Property Zip"}
	tests := []struct {
		name  string
		m     Mapping
		mode  jobs.Mode
		codes []string
		keys  [][]string // Keys of each problem
		says  [][]string // words each message must contain
	}{
		{"complete normal", fullMapping(), "normal", nil, nil, nil},
		{"complete mailing group only", with(fullMapping(), PropertyStreet, "-", PropertyCity, "-", PropertyState, "-", PropertyZip, "-",
			MailingStreet, "Mail Address", MailingCity, "Mail City", MailingState, "Mail State", MailingZip, "Mail Zip"), "normal", nil, nil, nil},
		{"default mode is normal", with(fullMapping(), LastName, "-"), "", []string{CodeMissingNames}, [][]string{{LastName}}, [][]string{{"Normal mode", "Owner last name", "Enhanced mode"}}},
		{"enhanced without names", propOnly, "enhanced", nil, nil, nil},
		{"missing both names", propOnly, "normal", []string{CodeMissingNames},
			[][]string{{FirstName, LastName}}, [][]string{{"choose the columns of Owner first name and Owner last name", "or choose Enhanced mode"}}},
		{"missing last name", with(fullMapping(), LastName, "-"), "normal", []string{CodeMissingNames},
			[][]string{{LastName}}, [][]string{{"choose the column of Owner last name"}}},
		{"empty value counts as unmapped", with(fullMapping(), FirstName, ""), "normal", []string{CodeMissingNames},
			[][]string{{FirstName}}, [][]string{{"choose the column of Owner first name"}}},
		{"no address group", Mapping{FirstName: "First Name", LastName: "Last Name"}, "normal", []string{CodeNoAddressGroup},
			[][]string{append(append([]string{}, propertyKeys...), mailingKeys...)}, [][]string{{"one whole address", "property's street address, city, state and ZIP code", "mailing address"}}},
		{"unknown key", with(fullMapping(), "frist_name", "First Name"), "normal", []string{CodeUnknownKey},
			[][]string{{"frist_name"}}, [][]string{{`"frist_name"`, `did you mean Owner first name ("first_name")`}}},
		{"unknown key read as header", with(fullMapping(), "zipcode", "Property Zip"), "normal", []string{CodeUnknownKey},
			[][]string{{"zipcode"}}, [][]string{{`did you mean Property ZIP code ("property_zip")`}}},
		{"unknown key mailing", with(fullMapping(), "mailing_adress", "Mail Address"), "normal", []string{CodeUnknownKey},
			[][]string{{"mailing_adress"}}, [][]string{{`("mailing_street")`}}},
		{"incomplete property group with mailing complete", with(fullMapping(), PropertyZip, "-",
			MailingStreet, "Mail Address", MailingCity, "Mail City", MailingState, "Mail State", MailingZip, "Mail Zip"), "normal",
			[]string{CodeIncompleteGroup}, [][]string{{PropertyStreet, PropertyCity, PropertyState, PropertyZip}},
			[][]string{{"property address needs all four parts or none", "Property street address, Property city and Property state are chosen", "Property ZIP code is not", "Choose the missing column"}}},
		{"incomplete only group", with(fullMapping(), PropertyCity, "-", PropertyState, "-"), "normal",
			[]string{CodeNoAddressGroup, CodeIncompleteGroup}, nil,
			[][]string{{"one whole address"}, {"all four parts or none", "Property street address and Property ZIP code are chosen", "Property city and Property state are not", "missing columns"}}},
		{"column absent", with(fullMapping(), PropertyZip, "ZIP"), "normal", []string{CodeColumnAbsent},
			[][]string{{PropertyZip}}, [][]string{{`"ZIP"`, "chosen for Property ZIP code", "not in this file", `"First Name", "Last Name"`, `"Phone 1"`}}},
		{"column absent with near header", with(fullMapping(), PropertyZip, "property zip"), "normal", []string{CodeColumnAbsent},
			[][]string{{PropertyZip}}, [][]string{{`did you mean "Property Zip"`}}},
		{"invalid mode", fullMapping(), "deep", []string{CodeInvalidMode}, [][]string{nil}, [][]string{{`"deep"`}}},
		{"all five at once", Mapping{FirstName: "Nom", "stret": "Property Address", PropertyCity: "Property City"}, "normal",
			[]string{CodeMissingNames, CodeNoAddressGroup, CodeUnknownKey, CodeIncompleteGroup, CodeColumnAbsent},
			[][]string{{LastName}, nil, {"stret"}, {PropertyCity, PropertyStreet, PropertyState, PropertyZip}, {FirstName}},
			[][]string{{"Owner last name"}, {"one whole address"}, {`did you mean Property street address ("property_street")`}, {"Property city is chosen", "Property street address, Property state and Property ZIP code are not"}, {`"Nom"`, "Owner first name"}}},
		{"two absent columns each reported", with(fullMapping(), FirstName, "A", LastName, "B"), "normal",
			[]string{CodeColumnAbsent, CodeColumnAbsent}, [][]string{{FirstName}, {LastName}}, [][]string{{`"A"`}, {`"B"`}}},
		// Warnings.
		{"names ignored in enhanced mode", fullMapping(), "enhanced", []string{CodeNamesIgnored},
			[][]string{{FirstName, LastName}}, [][]string{{"Enhanced mode searches by address only", "Owner first name and Owner last name"}}},
		{"same header twice", with(fullMapping(), MailingStreet, "Property Address", MailingCity, "Property City", MailingState, "Property State", MailingZip, "Property Zip"), "normal",
			[]string{CodeDuplicateColumn, CodeDuplicateColumn, CodeDuplicateColumn, CodeDuplicateColumn},
			[][]string{{PropertyStreet, MailingStreet}, {PropertyCity, MailingCity}, {PropertyState, MailingState}, {PropertyZip, MailingZip}},
			[][]string{{`"Property Address" is chosen for both Property street address and Mailing street address`}, nil, nil, nil}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Validate(fileHeaders, tt.m, tt.mode)
			if got := codes(r); !reflect.DeepEqual(got, tt.codes) {
				t.Fatalf("codes = %v, want %v\n%v", got, tt.codes, r.Problems)
			}
			wantOK := true
			for _, p := range r.Problems {
				if p.Severity == Error {
					wantOK = false
				}
			}
			if r.OK() != wantOK {
				t.Errorf("OK() = %v", r.OK())
			}
			for i, p := range r.Problems {
				if k := keyIn(p.Message); k != "" && p.Code != CodeUnknownKey {
					t.Errorf("problem %d %q names the service's key %q", i, p.Message, k)
				}
				if tt.keys != nil && tt.keys[i] != nil && !reflect.DeepEqual(p.Keys, tt.keys[i]) {
					t.Errorf("problem %d keys = %v, want %v", i, p.Keys, tt.keys[i])
				}
				if tt.says != nil {
					for _, w := range tt.says[i] {
						if !strings.Contains(p.Message, w) {
							t.Errorf("problem %d %q does not say %q", i, p.Message, w)
						}
					}
				}
			}
		})
	}
}

// keyIn is the first service key a message names ("" none): a person
// reads the fields' labels, never their keys.
func keyIn(msg string) string {
	for _, k := range append(Keys(jobs.KindTrace), Phone) {
		if strings.Contains(msg, k) {
			return k
		}
	}
	return ""
}

// TestValidateBlankEverywhere: a column blank on every row fills nothing,
// so the mapping is not complete; a last name blank on a list of
// companies only is allowed (a company's name goes whole in the first
// name).
func TestValidateBlankEverywhere(t *testing.T) {
	tests := []struct {
		name      string
		blanks    map[string]int
		companies int
		mode      jobs.Mode
		mailing   bool // the mailing address mapped too
		codes     []string
		says      string
	}{
		{"zip blank everywhere", map[string]int{"Property Zip": 100}, 0, "normal", false, []string{CodeBlankColumn},
			`Column "Property Zip", chosen for Property ZIP code, is blank on every row: choose the column that holds the property ZIP codes.`},
		{"last name blank everywhere", map[string]int{"Last Name": 100}, 40, "normal", false, []string{CodeBlankColumn}, "the owners' last names"},
		{"last name blank on a list of companies", map[string]int{"Last Name": 100}, 100, "normal", false, []string{CodeMostlyBlank}, "every row is a company"},
		{"blank on all but one row", map[string]int{"Last Name": 99}, 0, "normal", false, []string{CodeMostlyBlank}, "blank on 99 of 100 rows"},
		{"a second address blank everywhere", map[string]int{"Mail City": 100}, 0, "normal", true, []string{CodeMostlyBlank}, "it adds nothing"},
		{"the only whole address has a blank part", map[string]int{"Property City": 100}, 0, "normal", true, []string{CodeMostlyBlank}, "Property city"},
		{"both addresses have a blank part", map[string]int{"Property City": 100, "Mail City": 100}, 0, "normal", true,
			[]string{CodeBlankColumn, CodeBlankColumn}, "the property cities"},
		{"a name blank in enhanced mode", map[string]int{"Last Name": 100}, 0, "enhanced", false, []string{CodeNamesIgnored, CodeMostlyBlank}, "Enhanced mode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := fullMapping()
			if tt.mailing {
				m = with(m, MailingStreet, "Mail Address", MailingCity, "Mail City", MailingState, "Mail State", MailingZip, "Mail Zip")
			}
			r := Validate(fileHeaders, m, tt.mode, WithStats(Stats{Rows: 100, Blanks: tt.blanks, Companies: tt.companies}))
			if got := codes(r); !reflect.DeepEqual(got, tt.codes) {
				t.Fatalf("codes %v, want %v: %v", got, tt.codes, r.Problems)
			}
			if !strings.Contains(r.Problems[0].Message, tt.says) {
				t.Errorf("%q does not say %q", r.Problems[0].Message, tt.says)
			}
			if r.OK() != !slices.Contains(tt.codes, CodeBlankColumn) {
				t.Errorf("OK() = %v", r.OK())
			}
		})
	}
	if r := ValidateDNC([]string{"Phone"}, Mapping{Phone: "Phone"}, WithStats(Stats{Rows: 5, Blanks: map[string]int{"Phone": 5}})); r.OK() {
		t.Errorf("a phone column blank on every row passes: %v", r.Problems)
	}
}

func TestValidateSeverities(t *testing.T) {
	r := Validate(fileHeaders, with(fullMapping(), MailingStreet, "Property Address"), "enhanced")
	for _, p := range r.Problems {
		if p.Code == CodeIncompleteGroup {
			if p.Severity != Error {
				t.Error("incomplete group must be an error")
			}
		}
		if p.Code == CodeNamesIgnored || p.Code == CodeDuplicateColumn {
			if p.Severity != Warning {
				t.Errorf("%s must be a warning", p.Code)
			}
		}
	}
	if r.OK() {
		t.Error("an incomplete mailing group must fail")
	}
	if len(r.Errors())+len(r.Warnings()) != len(r.Problems) {
		t.Error("Errors and Warnings must partition Problems")
	}
	if got := r.ForKey(MailingStreet); len(got) != 2 {
		t.Errorf("ForKey(mailing_street) = %v, want the incomplete group and the duplicate column", got)
	}
	warnOnly := Validate(fileHeaders, fullMapping(), "enhanced")
	if !warnOnly.OK() || len(warnOnly.Warnings()) != 1 {
		t.Errorf("warnings alone must pass: %v", warnOnly.Problems)
	}
}

func TestValidateMostlyBlank(t *testing.T) {
	tests := []struct {
		name   string
		blanks map[string]int
		want   []string
	}{
		{"none blank", map[string]int{"Last Name": 0}, nil},
		{"some blank", map[string]int{"Last Name": 30}, nil},
		{"mostly blank", map[string]int{"Last Name": 80}, []string{"blank on 80 of 100 rows"}},
		{"unmapped blank column ignored", map[string]int{"Phone 1": 100}, nil},
		{"two columns", map[string]int{"Last Name": 51, "Property City": 90}, []string{"Owner last name", "Property city"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Validate(fileHeaders, fullMapping(), "normal", WithStats(Stats{Rows: 100, Blanks: tt.blanks}))
			ws := r.Warnings()
			if len(ws) != len(tt.want) {
				t.Fatalf("warnings %v, want %d", ws, len(tt.want))
			}
			for i, w := range ws {
				if w.Code != CodeMostlyBlank || !strings.Contains(w.Message, tt.want[i]) {
					t.Errorf("warning %q, want %s containing %q", w.Message, CodeMostlyBlank, tt.want[i])
				}
			}
			if !r.OK() {
				t.Error("blank columns are warnings, not errors")
			}
		})
	}
	st := StatsFrom([]string{"First Name", "Last Name", "Extra"}, 100, []int{0, 30})
	if st.Rows != 100 || st.Blanks["Last Name"] != 30 || len(st.Blanks) != 2 {
		t.Errorf("StatsFrom = %+v", st)
	}
	r := Validate(fileHeaders, fullMapping(), "normal", WithStats(st), WithBlankThreshold(0.25))
	if len(r.Warnings()) != 1 {
		t.Errorf("threshold 0.25: %v", r.Problems)
	}
}

func TestValidateDNC(t *testing.T) {
	hs := []string{"Name", "Cell Phone"}
	tests := []struct {
		m     Mapping
		codes []string
	}{
		{Mapping{Phone: "Cell Phone"}, nil},
		{Mapping{}, []string{CodeMissingPhone}},
		{Mapping{Phone: "Phone"}, []string{CodeColumnAbsent}},
		{Mapping{Phone: "Cell Phone", "phone2": "Name"}, []string{CodeUnknownKey}},
	}
	for _, tt := range tests {
		if got := codes(ValidateDNC(hs, tt.m)); !reflect.DeepEqual(got, tt.codes) {
			t.Errorf("ValidateDNC(%v) = %v, want %v", tt.m, got, tt.codes)
		}
	}
}

// A file with hundreds of columns: the absent-column message lists the
// first 50 headers and counts the others.
func TestValidateAbsentColumnListsFiftyHeaders(t *testing.T) {
	hs := headers200()
	r := Validate(hs, with(fullMapping(), PropertyZip, "ZIP"), jobs.ModeNormal)
	if len(r.Problems) != 1 || r.Problems[0].Code != CodeColumnAbsent {
		t.Fatalf("problems %v", r.Problems)
	}
	msg := r.Problems[0].Message
	if !strings.Contains(msg, `"Column 0", "Column 1"`) || !strings.Contains(msg, `"Column 49", … and 150 more`) || strings.Contains(msg, `"Column 50"`) {
		t.Errorf("message %q", msg)
	}
}

func TestClosestKey(t *testing.T) {
	for in, want := range map[string]string{
		"firstname": FirstName, "first": FirstName, "lastnme": LastName, "last_nam": LastName, "property_stret": PropertyStreet,
		"property_zipcode": PropertyZip, "mail_zip": MailingZip, "mailing_st": MailingState, "street": PropertyStreet,
		"city": PropertyCity, "mailing_addr": MailingStreet, "frist": FirstName, "lsat": LastName, "stat": PropertyState,
	} {
		if got := closestKey(in, jobs.KindTrace); got != want {
			t.Errorf("closestKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func headers200() []string {
	hs := make([]string, 200)
	for i := range hs {
		hs[i] = fmt.Sprintf("Column %d", i)
	}
	copy(hs[150:], fileHeaders)
	return hs
}

func BenchmarkValidate200(b *testing.B) {
	hs := headers200()
	bad := Mapping{FirstName: "Nom", "stret": "Property Address", PropertyCity: "Property City", MailingZip: "Mail Zip"}
	good := fullMapping()
	st := WithStats(Stats{Rows: 1000, Blanks: map[string]int{"Last Name": 900}})
	b.Run("valid", func(b *testing.B) {
		for b.Loop() {
			Validate(hs, good, "normal", st)
		}
	})
	b.Run("every problem", func(b *testing.B) {
		for b.Loop() {
			Validate(hs, bad, "normal", st)
		}
	})
}

// FuzzValidate checks that Validate never panics and that its verdict agrees
// with the provider's rules restated independently.
func FuzzValidate(f *testing.F) {
	f.Add("First Name|Last Name|Address|City|State|Zip", "first_name=First Name;last_name=Last Name;property_street=Address", "normal")
	f.Add("", "", "")
	f.Add("a|a|b", "frist=a;mailing_zip=b;mailing_city=b", "enhanced")
	f.Fuzz(func(t *testing.T, hs, ms, mode string) {
		headers := strings.Split(hs, "|")
		m := Mapping{}
		for _, kv := range strings.Split(ms, ";") {
			if k, v, ok := strings.Cut(kv, "="); ok {
				m[k] = v
			}
		}
		r := Validate(headers, m, jobs.Mode(mode))
		for _, p := range r.Problems {
			if p.Message == "" {
				t.Fatalf("problem without message: %+v", p)
			}
		}
		set := map[string]bool{}
		for _, h := range headers {
			set[h] = true
		}
		ok := mode == "" || mode == "normal" || mode == "enhanced"
		if mode != "enhanced" && (m[FirstName] == "" || m[LastName] == "") {
			ok = false
		}
		full := func(ks []string) bool {
			for _, k := range ks {
				if m[k] == "" {
					return false
				}
			}
			return true
		}
		some := func(ks []string) bool {
			for _, k := range ks {
				if m[k] != "" {
					return true
				}
			}
			return false
		}
		if !full(propertyKeys) && !full(mailingKeys) {
			ok = false
		}
		if (some(propertyKeys) && !full(propertyKeys)) || (some(mailingKeys) && !full(mailingKeys)) {
			ok = false
		}
		for k, v := range m {
			if v == "" {
				continue
			}
			if !isTraceKey(k) || !set[v] {
				ok = false
			}
		}
		if r.OK() != ok {
			t.Fatalf("Validate(%q, %v, %q).OK() = %v, rules say %v: %v", headers, m, mode, r.OK(), ok, r.Problems)
		}
	})
}
