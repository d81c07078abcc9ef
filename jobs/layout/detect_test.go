package layout

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// slotText writes a slot as "Label=number[raw]|type|flag:kind,flag:kind".
func slotText(l *Layout, s Slot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s=%s", s.Label, l.Headers[s.Number])
	if s.Raw >= 0 {
		fmt.Fprintf(&b, "[%s]", l.Headers[s.Raw])
	}
	b.WriteString("|")
	if s.Type >= 0 {
		b.WriteString(l.Headers[s.Type])
	} else if s.Implied != "" {
		b.WriteString("~" + string(s.Implied))
	}
	b.WriteString("|")
	for i, f := range s.Flags {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, "%s:%s", l.Headers[f], l.Columns[f].Kind)
	}
	return b.String()
}

func headerOr(l *Layout, i int) string {
	if i < 0 {
		return "-"
	}
	return l.Headers[i]
}

func peopleText(l *Layout) []string {
	var out []string
	for _, p := range l.People {
		out = append(out, fmt.Sprintf("%s:%s/%s/%s", p.Group, headerOr(l, p.First), headerOr(l, p.Last), headerOr(l, p.Full)))
	}
	return out
}

func TestDetectExamples(t *testing.T) {
	tests := []struct {
		file    string
		kind    FileKind
		slots   []string
		match   string
		people  []string
		emails  int
		input   []string
		street  string
		mailing string
		reports []FlagKind
		asks    []string // topics of the questions
	}{
		{
			file: "skipdesk_trace.csv", kind: KindTrace,
			slots:  []string{"Phone 1=phone_1|phone_1_type|", "Phone 2=phone_2|phone_2_type|", "Phone 3=phone_3|phone_3_type|"},
			match:  "match_status",
			people: []string{":owner_first_name/owner_last_name/-"}, emails: 2,
			street: "Property Address", mailing: "Mailing Address",
		},
		{
			file: "skipdesk_dnc.csv", kind: KindDNC,
			slots:   []string{"Phone=phone_normalized[phone]|line_type|dnc:dnc,litigator:litigator,status:number"},
			match:   "-",
			people:  []string{":-/-/name"},
			reports: []FlagKind{Litigator, Number, DNC},
		},
		{
			file: "propstream.csv", kind: KindTrace,
			slots: []string{
				"Phone 1=Phone 1|Phone 1 Type|Phone 1 DNC:dnc,Litigator:litigator",
				"Phone 2=Phone 2|Phone 2 Type|Phone 2 DNC:dnc,Litigator:litigator",
				"Phone 3=Phone 3|Phone 3 Type|Phone 3 DNC:dnc,Litigator:litigator",
				"Phone 4=Phone 4|Phone 4 Type|Phone 4 DNC:dnc,Litigator:litigator",
				"Phone 5=Phone 5|Phone 5 Type|Phone 5 DNC:dnc,Litigator:litigator",
			},
			match:  "-",
			people: []string{":Owner 1 First Name/Owner 1 Last Name/-", "owner 2:Owner 2 First Name/Owner 2 Last Name/-"},
			emails: 2, street: "Address", mailing: "Mailing Address",
			reports: []FlagKind{Litigator, DNC},
		},
		{
			file: "dealmachine.csv", kind: KindTrace,
			slots: []string{
				"Contact 1 phone 1=contact_1_phone1|contact_1_phone1_type|",
				"Contact 1 phone 2=contact_1_phone2|contact_1_phone2_type|",
				"Contact 1 phone 3=contact_1_phone3|contact_1_phone3_type|",
				"Contact 2 phone 1=contact_2_phone1|contact_2_phone1_type|",
			},
			match: "-",
			people: []string{":owner_1_firstname/owner_1_lastname/owner_1_name", "contact 1:-/-/contact_1_name",
				"contact 2:-/-/contact_2_name"},
			emails: 3, street: "property_address_line_1", mailing: "owner_address_line_1",
		},
		{
			file: "tracerfy.csv", kind: KindTrace,
			slots: []string{"Primary phone=Primary Phone||", "Mobile 1=Mobile 1|~mobile|", "Mobile 2=Mobile 2|~mobile|",
				"Mobile 3=Mobile 3|~mobile|", "Mobile 4=Mobile 4|~mobile|", "Mobile 5=Mobile 5|~mobile|",
				"Landline 1=Landline 1|~landline|", "Landline 2=Landline 2|~landline|", "Landline 3=Landline 3|~landline|"},
			match: "-", people: []string{":First Name/Last Name/-"}, emails: 5, street: "Address", mailing: "Mailing Address",
		},
		{
			file: "batchdata.csv", kind: KindTrace,
			slots: []string{
				"Phone 1=Phone 1|Phone 1 Type|Phone 1 DNC:dnc,Phone 1 TCPA:litigator",
				"Phone 2=Phone 2|Phone 2 Type|Phone 2 DNC:dnc,Phone 2 TCPA:litigator",
				"Phone 3=Phone 3|Phone 3 Type|Phone 3 DNC:dnc,Phone 3 TCPA:litigator",
			},
			match: "-", people: []string{":First Name/Last Name/Owner"}, emails: 2,
			input: []string{"Internal_Ref_ID", "Owner", "Address", "City", "State", "Zip", "Phone", "Notes",
				"Input Data: Property Address", "Input Data: Property City", "Input Data: Property State",
				"Input Data: Property Zip", "Input Data: First Name", "Input Data: Last Name"},
			street: "Property Address", mailing: "Mailing Address", reports: []FlagKind{Litigator, DNC},
		},
		{
			file: "dnc_vendor_yn.csv", kind: KindDNC,
			slots: []string{"Phone=PHONE|LINE_TYPE|DNC_FEDERAL:federal,DNC_STATE:state,LITIGATOR:litigator"},
			match: "-", reports: []FlagKind{Federal, State, Litigator},
		},
		{
			file: "dnc_vendor_codes.csv", kind: KindDNC,
			// The Reason column names restrictions ("Litigator"): the
			// file's own words count, beside the code.
			slots: []string{"Phone=Phone|LineType|ResultCode:combined,Reason:restriction"},
			match: "-", reports: []FlagKind{Combined, Restriction},
		},
		{
			file: "input_list.csv", kind: KindInput, match: "-",
			people: []string{":First Name/Last Name/-"}, street: "Property Address", mailing: "Mailing Address",
		},
		// Layouts no rule was written for: camel-case names with fused
		// numbers and a row-level blacklist; and a scrub with state codes,
		// a "(Y/N)" header and a litigator column of marks.
		{
			file: "invented_camel.csv", kind: KindTrace,
			slots: []string{
				"Mobile 1=Cell1|~mobile|Cell1DoNotCall:dnc,TCPABlacklisted:litigator",
				"Mobile 2=Cell2|~mobile|Cell2DoNotCall:dnc,TCPABlacklisted:litigator",
				"Landline=HomePhone|~landline|HomePhoneDoNotCall:dnc,TCPABlacklisted:litigator",
			},
			match: "MatchFound", people: []string{":OwnerFirst/OwnerLast/-"}, emails: 1, street: "SiteAddress",
			reports: []FlagKind{Litigator, DNC},
		},
		// A vendor that sorts a row's phones by list: the numbers on the
		// DNC and litigator lists in columns of their own, more numbers
		// two to a cell.
		{
			file: "sorted_vendor.csv", kind: KindTrace,
			slots: []string{
				"Mobile 1=Mobile 1|~mobile|Mobile 1 DNC:dnc,Mobile 1 Litigator:litigator",
				"Landline 1=Landline 1|~landline|Landline 1 DNC:dnc,Landline 1 Litigator:litigator",
				"DNC mobile 1=DNC Mobile 1|~mobile|DNC Mobile 1:dnc",
				"Litigator phone 1=Litigator Phone 1||Litigator Phone 1:litigator",
				"Other Phones 1=Other Phones||", "Other Phones 2=Other Phones||",
			},
			match: "-", people: []string{":First Name/Last Name/-"}, street: "Property Address",
			reports: []FlagKind{Litigator, DNC},
		},
		{
			file: "invented_scrub.csv", kind: KindDNC,
			slots: []string{"Phone=Telephone #|Carrier Type|National DNC (Y/N):federal,State DNC List:state,Known Litigator:litigator"},
			match: "-", reports: []FlagKind{Federal, State, Litigator}, asks: []string{"marks"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			l, _, _ := detectFixture(t, tt.file, Options{})
			if l.Kind != tt.kind {
				t.Errorf("kind %q, want %q", l.Kind, tt.kind)
			}
			var slots []string
			for _, s := range l.Slots {
				slots = append(slots, slotText(l, s))
			}
			if !slices.Equal(slots, tt.slots) {
				t.Errorf("slots:\n %s\nwant\n %s", strings.Join(slots, "\n "), strings.Join(tt.slots, "\n "))
			}
			if got := headerOr(l, l.Match); got != tt.match {
				t.Errorf("match %q, want %q", got, tt.match)
			}
			if got := peopleText(l); !slices.Equal(got, tt.people) {
				t.Errorf("people %q, want %q", got, tt.people)
			}
			if len(l.Emails) != tt.emails {
				t.Errorf("%d e-mail columns, want %d", len(l.Emails), tt.emails)
			}
			var input []string
			for _, c := range l.Columns {
				if c.Input {
					input = append(input, c.Header)
				}
			}
			if !slices.Equal(input, tt.input) {
				t.Errorf("input columns %q, want %q", input, tt.input)
			}
			if tt.street != "" && headerOr(l, l.Property.Street) != tt.street {
				t.Errorf("property street %q, want %q", headerOr(l, l.Property.Street), tt.street)
			}
			if tt.mailing != "" && headerOr(l, l.Mailing.Street) != tt.mailing {
				t.Errorf("mailing street %q, want %q", headerOr(l, l.Mailing.Street), tt.mailing)
			}
			if got := l.Reports.List(); !slices.Equal(got, tt.reports) {
				t.Errorf("reports %v, want %v", got, tt.reports)
			}
			var asks []string
			for _, q := range l.Questions {
				asks = append(asks, q.Topic)
			}
			if !slices.Equal(asks, tt.asks) || l.Sure() != (len(tt.asks) == 0) {
				t.Errorf("questions %+v, want topics %q", l.Questions, tt.asks)
			}
		})
	}
}

func TestSplitWords(t *testing.T) {
	for in, want := range map[string]string{
		"contact_1_phone1_type":    "contact 1 phone 1 type",
		"Owner 1 First Name":       "owner 1 first name",
		"HomePhoneDoNotCall":       "home phone do not call",
		"TCPABlacklisted":          "tcpa blacklisted",
		"DNCStatus":                "dnc status",
		"National DNC (Y/N)":       "national dnc y n",
		"Input Data: Property Zip": "input data property zip",
		"phone_normalized":         "phone normalized",
		"E-Mail 2":                 "e mail 2",
		"ResultCode":               "result code",
		"Teléfono 1":               "teléfono 1",
	} {
		if got := strings.Join(splitWords(in), " "); got != want {
			t.Errorf("splitWords(%q) = %q, want %q", in, got, want)
		}
	}
}

// Headers that look like phones or flags but are not.
func TestDetectDoesNotMistake(t *testing.T) {
	// A "DNC Date" dated in every row is the rows' scrub date; one blank in
	// some rows of a file with no other registry answer may be when the
	// numbers were listed, and is asked about (TestRegistrationDates).
	headers := []string{"Home Value", "House Number", "Business Name", "contact_1_flags", "DNC Date", "Litigator Score",
		"Lender Name", "Phone 1", "Phone 1 Carrier", "Phone Count", "DNC Scrubbed", "State", "Property Type"}
	sample := [][]string{
		{"350000", "123", "Acme LLC", "Likely Owner, Wireless", "2003-06-01", "0", "Big Bank", "5125550101", "Verizon", "1", "Yes", "TX", "Single Family"},
		{"410000", "7", "", "Resident", "2003-06-02", "1", "", "5125550102", "AT&T", "2", "No", "FL", "Condo"},
	}
	l := Detect(headers, sample, Options{})
	want := map[string]Role{"Home Value": RoleOther, "House Number": RoleOther, "contact_1_flags": RoleOther,
		"DNC Date": RoleScrubDate, "Litigator Score": RoleOther, "Lender Name": RoleOther, "Phone 1": RolePhone,
		"Phone 1 Carrier": RolePhoneDetail, "Phone Count": RoleOther, "DNC Scrubbed": RoleScope, "State": RoleState,
		"Property Type": RoleOther}
	for _, c := range l.Columns {
		if w, ok := want[c.Header]; ok && c.Role != w {
			t.Errorf("%q: role %q, want %q", c.Header, c.Role, w)
		}
	}
	if l.Reports != 0 || len(l.Slots) != 1 {
		t.Errorf("reports %v, %d slots", l.Reports.List(), len(l.Slots))
	}
	if !slices.Contains(l.Slots[0].Columns, slices.Index(headers, "Phone 1 Carrier")) {
		t.Errorf("the carrier of phone 1 is not one of its columns: %v", l.Slots[0].Columns)
	}
}

func TestDetectQuestions(t *testing.T) {
	t.Run("no phone", func(t *testing.T) {
		l := Detect([]string{"Name", "DNC", "Litigator"}, [][]string{{"A", "Y", "N"}}, Options{})
		if l.Sure() || l.Questions[0].Topic != "phone" {
			t.Errorf("questions %+v", l.Questions)
		}
	})
	t.Run("phone values that are not phones", func(t *testing.T) {
		l := Detect([]string{"Phone", "Name"}, [][]string{{"n/a", "A"}, {"call later", "B"}}, Options{})
		if l.Sure() || l.Questions[0].Columns[0] != "Phone" {
			t.Errorf("questions %+v", l.Questions)
		}
	})
	t.Run("flag values mostly not understood", func(t *testing.T) {
		l := Detect([]string{"Phone", "DNC", "Litigator"},
			[][]string{{"5125550101", "maybe", "N"}, {"5125550102", "perhaps", "N"}, {"5125550103", "Y", "N"}}, Options{})
		if l.Sure() || l.Questions[0].Topic != "flag" || l.Questions[0].Columns[0] != "DNC" {
			t.Errorf("questions %+v", l.Questions)
		}
	})
	t.Run("two match status columns", func(t *testing.T) {
		l := Detect([]string{"Phone 1", "Match", "Matched"}, [][]string{{"5125550101", "Y", "yes"}}, Options{})
		if l.Sure() || l.Questions[0].Topic != "match_status" || l.Headers[l.Match] != "Matched" {
			t.Errorf("match %d, questions %+v", l.Match, l.Questions)
		}
	})
	t.Run("flag of a phone not in the file", func(t *testing.T) {
		l := Detect([]string{"Phone 1", "Phone 2 DNC", "Litigator"}, [][]string{{"5125550101", "N", "N"}}, Options{})
		if l.Sure() || l.Questions[0].Columns[0] != "Phone 2 DNC" || l.Reports.Has(Federal) {
			t.Errorf("reports %v, questions %+v", l.Reports.List(), l.Questions)
		}
	})
}

// The upload's header, when known, marks the echoed columns: a phone of the
// person's list is not a phone of the result.
func TestInputHeaders(t *testing.T) {
	headers := []string{"Name", "Phone", "owner_first_name", "phone_1", "phone_1_type", "match_status"}
	sample := [][]string{{"A", "5125559999", "A", "5125550101", "mobile", "matched"}}
	if l := Detect(headers, sample, Options{}); len(l.Slots) != 2 {
		t.Fatalf("without the upload's header: %d slots, want 2", len(l.Slots))
	}
	l := Detect(headers, sample, Options{InputHeaders: []string{"Name", "Phone"}})
	if len(l.Slots) != 1 || l.Headers[l.Slots[0].Number] != "phone_1" || !l.Columns[1].Input {
		t.Errorf("slots %+v", l.Slots)
	}
	// result_phone_1 beside an input phone_1.
	l = Detect([]string{"phone_1", "result_phone_1", "match_status"}, [][]string{{"5125559999", "5125550101", "matched"}}, Options{})
	if len(l.Slots) != 1 || l.Headers[l.Slots[0].Number] != "result_phone_1" || !l.Columns[0].Input {
		t.Errorf("result_ twin: slots %+v", l.Slots)
	}
}

func TestSignature(t *testing.T) {
	a := Signature([]string{"\ufeffPhone 1", "Phone  1 DNC", " Litigator "})
	b := Signature([]string{"phone 1", "phone 1 dnc", "LITIGATOR"})
	c := Signature([]string{"phone 1", "litigator", "phone 1 dnc"})
	if a != b || a == c || len(a) != 24 {
		t.Errorf("signatures %q %q %q", a, b, c)
	}
}

func TestVoIPColumn(t *testing.T) {
	l := Detect([]string{"Mobile 1", "VoIP 1", "Landline 1"}, [][]string{{"5125550101", "5125550102", "5125550103"}}, Options{})
	if len(l.Slots) != 3 || l.Slots[1].Implied != VoIP || l.Slots[1].Label != "VoIP 1" {
		t.Errorf("slots %+v", l.Slots)
	}
}

// A header naming only whose columns follow ("Owner", "Contact 2") holds
// that person's name where its values read as names, and nothing of the
// kind where they do not ("Y", "N": an owner-occupied mark).
func TestOwnerAloneIsAName(t *testing.T) {
	h := []string{"Owner", "Contact 2", "Phone"}
	l := Detect(h, [][]string{{"JOHN SMITH", "Mary Lee", "5125550101"}, {"Acme Holdings LLC", "", "5125550102"}}, Options{})
	if l.Columns[0].Role != RoleFullName || l.Columns[1].Role != RoleFullName || l.Columns[1].Group != "contact 2" {
		t.Errorf("roles %q (%q), %q (%q)", l.Columns[0].Role, l.Columns[0].Group, l.Columns[1].Role, l.Columns[1].Group)
	}
	l = Detect(h, [][]string{{"Y", "", "5125550101"}, {"N", "", "5125550102"}}, Options{})
	if l.Columns[0].Role == RoleFullName {
		t.Error("a column of Y and N read as a name")
	}
}

// pandas writes a yes/no column with blanks as numbers: 1.0, 0.0 and nan
// read as yes, no and unknown, and ask nothing.
func TestPandasFlags(t *testing.T) {
	h := []string{"phone", "dnc", "litigator"}
	rows := [][]string{{"5125550101", "0.0", "0.0"}, {"5125550102", "1.0", "0.0"}, {"5125550103", "nan", "0.0"}}
	l := Detect(h, rows, Options{})
	if len(l.Questions) != 0 {
		t.Errorf("questions %v", l.Questions)
	}
	rd := l.NewReader(nil)
	for i, want := range []Flag{Clean, Flagged, Unknown} {
		var row Row
		rd.Read(rows[i], &row)
		if got := row.Phones[0].Flags.Of(DNC); got != want {
			t.Errorf("%q: %v, want %v", rows[i][1], got, want)
		}
	}
	// Excel's TRUE and FALSE, as a Spanish, French or German Excel
	// writes them.
	for _, w := range [][2]string{{"VERDADERO", "FALSO"}, {"VRAI", "FAUX"}, {"WAHR", "FALSCH"}} {
		rows := [][]string{{"5125550101", w[1], w[1]}, {"5125550102", w[0], w[1]}}
		l := Detect(h, rows, Options{})
		var yes, no Row
		rd := l.NewReader(nil)
		rd.Read(rows[1], &yes)
		rd.Read(rows[0], &no)
		if len(l.Questions) != 0 || yes.Phones[0].Flags.Of(DNC) != Flagged || no.Phones[0].Flags.Of(DNC) != Clean {
			t.Errorf("%v: questions %v, read %v and %v", w, l.Questions, yes.Phones[0].Flags.Of(DNC), no.Phones[0].Flags.Of(DNC))
		}
	}
}
