package sandbox

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"
)

// ResultLayouts choose the columns of the result files (the spec does not
// show them): the sandbox answers in SkipDesk's own layout by default, or in
// layouts modelled on other services' exports, with the same synthetic data
// (docs/sandbox.md, "Result layouts").
type ResultLayouts struct {
	Trace string `json:"trace"` // see TraceLayouts; "" is "skipdesk"
	DNC   string `json:"dnc"`   // see DNCLayouts; "" is "skipdesk"
}

// Names of the result layouts.
var (
	TraceLayouts = []string{"skipdesk", "propstream", "dealmachine", "tracerfy", "batchdata"}
	DNCLayouts   = []string{"skipdesk", "vendor-yn", "vendor-10", "vendor-codes"}
)

func (l ResultLayouts) validate() error {
	if l.Trace != "" && !slices.Contains(TraceLayouts, l.Trace) {
		return fmt.Errorf("result_layouts.trace %q: must be one of %s", l.Trace, strings.Join(TraceLayouts, ", "))
	}
	if l.DNC != "" && !slices.Contains(DNCLayouts, l.DNC) {
		return fmt.Errorf("result_layouts.dnc %q: must be one of %s", l.DNC, strings.Join(DNCLayouts, ", "))
	}
	return nil
}

func (l ResultLayouts) normalized() ResultLayouts {
	if l.Trace == "" {
		l.Trace = "skipdesk"
	}
	if l.DNC == "" {
		l.DNC = "skipdesk"
	}
	return l
}

// SetResultLayouts sets the layouts of the results of jobs created from now
// on (a job keeps the layouts it was created with).
func (s *Server) SetResultLayouts(l ResultLayouts) error {
	if err := l.validate(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cfg.ResultLayouts = l.normalized()
	return nil
}

// outSkipped is a company row not traced (written, never tallied).
const outSkipped = 3

// mappedCol is a key of a trace's column_mapping and its column.
type mappedCol struct {
	key string
	col int
}

// mappingKeys are the spec's keys in its order, with the label of each in
// BatchData-style "Input Data: …" columns.
var mappingKeys = []struct{ key, label string }{
	{"first_name", "First Name"}, {"last_name", "Last Name"},
	{"property_street", "Property Address"}, {"property_city", "Property City"},
	{"property_state", "Property State"}, {"property_zip", "Property Zip"},
	{"mailing_street", "Mailing Address"}, {"mailing_city", "Mailing City"},
	{"mailing_state", "Mailing State"}, {"mailing_zip", "Mailing Zip"},
}

// mappedColumns lists the mapped keys in the spec's order with their column.
func mappedColumns(mapping map[string]string, col func(string) int) []mappedCol {
	var out []mappedCol
	for _, k := range mappingKeys {
		if v, ok := mapping[k.key]; ok {
			out = append(out, mappedCol{key: k.key, col: col(v)})
		}
	}
	return out
}

// singleMapped is the mapping of a single trace's one-row result, whose
// columns are singleFields.
var singleMapped = []mappedCol{
	{"first_name", 0}, {"last_name", 1}, {"property_street", 2}, {"property_city", 3}, {"property_state", 4},
	{"property_zip", 5}, {"mailing_street", 6}, {"mailing_city", 7}, {"mailing_state", 8}, {"mailing_zip", 9},
}

func mappingLabel(key string) string {
	for _, k := range mappingKeys {
		if k.key == key {
			return k.label
		}
	}
	return key
}

// traceColumns are the columns a trace result adds after the input's.
func traceColumns(j *job) []string {
	switch j.layouts.Trace {
	case "propstream":
		cols := []string{"Owner 1 First Name", "Owner 1 Last Name"}
		for i := 1; i <= 3; i++ {
			n := strconv.Itoa(i)
			cols = append(cols, "Phone "+n, "Phone "+n+" Type", "Phone "+n+" DNC")
		}
		return append(cols, "Email 1", "Email 2", "Litigator")
	case "dealmachine":
		cols := []string{"contact_1_name", "contact_1_flags"}
		for i := 1; i <= 3; i++ {
			n := strconv.Itoa(i)
			cols = append(cols, "contact_1_phone"+n, "contact_1_phone"+n+"_type")
		}
		return append(cols, "contact_1_email1", "contact_1_email2")
	case "tracerfy":
		return []string{"First Name", "Last Name", "Primary Phone", "Mobile 1", "Mobile 2", "Mobile 3",
			"Landline 1", "Landline 2", "Landline 3", "VoIP 1", "VoIP 2", "VoIP 3", "Email 1", "Email 2"}
	case "batchdata":
		var cols []string
		for _, m := range j.mapped {
			cols = append(cols, "Input Data: "+mappingLabel(m.key))
		}
		cols = append(cols, "First Name", "Last Name")
		for i := 1; i <= 3; i++ {
			n := strconv.Itoa(i)
			cols = append(cols, "Phone "+n, "Phone "+n+" Type", "Phone "+n+" DNC", "Phone "+n+" TCPA")
		}
		return append(cols, "Email 1", "Email 2")
	}
	return traceResultColumns
}

// appendTrace appends the result columns of one row of a trace (rec holds
// its input fields) in the job's layout.
func appendTrace(j *job, rec []string, out int, h uint32, first, last string, entity bool) []string {
	var c *contact
	if out == outMatched {
		cc := synthContact(h, first, last, entity)
		c = &cc
	}
	n := len(traceColumns(j))
	switch j.layouts.Trace {
	case "propstream":
		return appendPropStream(rec, c, n)
	case "dealmachine":
		return appendDealMachine(rec, c, n)
	case "tracerfy":
		return appendTracerfy(rec, c, n)
	case "batchdata":
		return appendBatchData(j, rec, c, n)
	}
	ent := strconv.FormatBool(entity)
	switch out {
	case outNoMatch:
		return append(append(rec, make([]string, 10)...), ent, "no_match")
	case outError:
		return append(append(rec, make([]string, 10)...), ent, "error")
	case outSkipped:
		return append(append(rec, make([]string, 10)...), ent, "skipped")
	}
	rec = append(rec, c.first, c.last)
	for i := range 3 {
		if i < len(c.phones) {
			rec = append(rec, c.phones[i][0], c.phones[i][1])
		} else {
			rec = append(rec, "", "")
		}
	}
	for i := range 2 {
		rec = append(rec, nth(c.emails, i))
	}
	return append(rec, ent, "matched")
}

func nth(s []string, i int) string {
	if i < len(s) {
		return s[i]
	}
	return ""
}

// formatPhone writes 10 digits as (212) 555-0101.
func formatPhone(d string) string { return "(" + d[:3] + ") " + d[3:6] + "-" + d[6:] }

func dashPhone(d string) string { return d[:3] + "-" + d[3:6] + "-" + d[6:] }

func yesNo(b bool, yes, no string) string {
	if b {
		return yes
	}
	return no
}

func appendPropStream(rec []string, c *contact, n int) []string {
	if c == nil {
		return append(rec, make([]string, n)...)
	}
	rec = append(rec, c.first, c.last)
	lit := false
	for i := range 3 {
		if i >= len(c.phones) {
			rec = append(rec, "", "", "")
			continue
		}
		num, typ := c.phones[i][0], c.phones[i][1]
		dnc, l, _ := dncFlags(num)
		lit = lit || l
		rec = append(rec, formatPhone(num), map[string]string{"mobile": "Mobile", "landline": "Landline", "voip": "VoIP"}[typ],
			yesNo(dnc, "Yes", "No"))
	}
	return append(rec, nth(c.emails, 0), nth(c.emails, 1), yesNo(lit, "Yes", "No"))
}

func appendDealMachine(rec []string, c *contact, n int) []string {
	if c == nil {
		return append(rec, make([]string, n)...)
	}
	rec = append(rec, strings.TrimSpace(c.first+" "+c.last), "Likely Owner")
	for i := range 3 {
		if i >= len(c.phones) {
			rec = append(rec, "", "")
			continue
		}
		rec = append(rec, dashPhone(c.phones[i][0]),
			map[string]string{"mobile": "Mobile", "landline": "Home", "voip": "Other"}[c.phones[i][1]])
	}
	return append(rec, nth(c.emails, 0), nth(c.emails, 1))
}

func appendTracerfy(rec []string, c *contact, n int) []string {
	if c == nil {
		return append(rec, make([]string, n)...)
	}
	var mobiles, lands, voips []string
	for _, p := range c.phones {
		switch p[1] {
		case "mobile":
			mobiles = append(mobiles, p[0])
		case "landline":
			lands = append(lands, p[0])
		default:
			voips = append(voips, p[0])
		}
	}
	rec = append(rec, c.first, c.last, c.phones[0][0])
	for i := range 3 {
		rec = append(rec, nth(mobiles, i))
	}
	for i := range 3 {
		rec = append(rec, nth(lands, i))
	}
	for i := range 3 {
		rec = append(rec, nth(voips, i))
	}
	return append(rec, nth(c.emails, 0), nth(c.emails, 1))
}

func appendBatchData(j *job, rec []string, c *contact, n int) []string {
	width := len(rec)
	for _, m := range j.mapped {
		v := ""
		if m.col >= 0 && m.col < width {
			v = rec[m.col]
		}
		rec = append(rec, v)
	}
	if c == nil {
		return append(rec, make([]string, n-len(j.mapped))...)
	}
	rec = append(rec, c.first, c.last)
	for i := range 3 {
		if i >= len(c.phones) {
			rec = append(rec, "", "", "", "")
			continue
		}
		num, typ := c.phones[i][0], c.phones[i][1]
		dnc, lit, _ := dncFlags(num)
		rec = append(rec, num, map[string]string{"mobile": "Mobile", "landline": "Land Line", "voip": "VoIP"}[typ],
			strconv.FormatBool(dnc), strconv.FormatBool(lit))
	}
	return append(rec, nth(c.emails, 0), nth(c.emails, 1))
}

// dncColumns are the columns a DNC result adds after the input's.
func dncColumns(j *job) []string {
	switch j.layouts.DNC {
	case "vendor-yn":
		return []string{"PHONE", "LINE_TYPE", "DNC_FEDERAL", "DNC_STATE", "LITIGATOR"}
	case "vendor-10":
		return []string{"Phone Number", "Carrier Type", "National DNC", "State DNC", "TCPA Litigator"}
	case "vendor-codes":
		return []string{"Phone", "ResultCode", "Reason", "LineType"}
	}
	return dncResultColumns
}

// stateDNC decides the state-list result of a valid number (about 5%), and
// unknownMark which of a vendor layout's answers it leaves unknown (about
// 7.5%: 1 federal, 2 state, 3 litigator; 0 none). SkipDesk's own layout has
// neither.
func stateDNC(number string) bool { return numberHash(number)/375%20 == 0 }

func unknownMark(number string) int {
	if m := numberHash(number) / 7500 % 40; m >= 1 && m <= 3 {
		return int(m)
	}
	return 0
}

func numberHash(number string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(number))
	return h.Sum32()
}

// appendDNC appends the result columns of one DNC row: num is the
// normalised number, "" when the raw value was not a valid one.
func appendDNC(j *job, rec []string, num string) []string {
	valid := num != ""
	var dnc, lit, st bool
	var lt string
	mark := 0
	if valid {
		dnc, lit, lt = dncFlags(num)
		st, mark = stateDNC(num), unknownMark(num)
	}
	lineWord := map[string]string{"mobile": "Wireless", "landline": "Landline", "voip": "VoIP"}[lt]
	switch j.layouts.DNC {
	case "vendor-yn":
		if !valid {
			return append(rec, "", "Invalid", "", "", "")
		}
		f := []string{yesNo(dnc, "Y", "N"), yesNo(st, "Y", "N"), yesNo(lit, "Y", "N")}
		switch mark {
		case 1:
			f[0] = "?"
		case 2:
			f[1] = ""
		case 3:
			f[2] = "?"
		}
		return append(append(rec, num, lineWord), f...)
	case "vendor-10":
		if !valid {
			return append(rec, "", "", "", "", "")
		}
		f := []string{yesNo(dnc, "1", "0"), yesNo(st, "1", "0"), yesNo(lit, "1", "0")}
		if mark > 0 {
			f[mark-1] = ""
		}
		return append(append(rec, num, lineWord), f...)
	case "vendor-codes":
		if !valid {
			return append(rec, "", "I", "invalid number", "")
		}
		code, reason := "C", ""
		switch {
		case mark > 0:
			code = "?"
		case dnc:
			code, reason = "D", "National (USA)"
		case lit:
			code, reason = "D", "Litigator"
		case st:
			code, reason = "D", "State"
		case lt == "mobile":
			code = "W"
		case lt == "voip":
			code = "Y"
		}
		return append(rec, num, code, reason, map[string]string{"mobile": "Wireless", "landline": "AllOther", "voip": "VoIP"}[lt])
	}
	if !valid {
		return append(rec, "", "false", "false", "unknown", "invalid")
	}
	return append(rec, num, strconv.FormatBool(dnc), strconv.FormatBool(lit), lt, "ok")
}
