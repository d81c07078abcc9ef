package sandbox

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
)

// generalBody decodes the general error shape.
type generalBody struct {
	Error struct {
		Code    string       `json:"code"`
		Message string       `json:"message"`
		Details []FieldError `json:"details"`
	} `json:"error"`
}

func assertValidation(t *testing.T, r resp, field, sub string) {
	t.Helper()
	if r.status != 400 {
		t.Fatalf("status %d, want 400: %s", r.status, r.body)
	}
	var g generalBody
	if err := json.Unmarshal(r.body, &g); err != nil || g.Error.Code != "VALIDATION_ERROR" || g.Error.Message == "" {
		t.Fatalf("want the general shape with VALIDATION_ERROR: %s", r.body)
	}
	for _, d := range g.Error.Details {
		if d.Field == field && strings.Contains(d.Message, sub) {
			return
		}
	}
	t.Errorf("no detail {field %q, message containing %q} in %s", field, sub, r.body)
}

func TestTraceBadInput(t *testing.T) {
	s := startT(t, testConfig())
	ok := ownersMapping
	cases := []struct {
		name         string
		parts        []part
		field, inMsg string
	}{
		{"missing file", []part{{name: "column_mapping", body: ok}}, "file", "required"},
		{"missing mapping", []part{{name: "file", filename: "o.csv", body: ownersCSV}}, "column_mapping", "required"},
		{"mapping not JSON", traceParts(ownersCSV, "o.csv", `{"first_name":`), "column_mapping", "not valid JSON"},
		{"mapping trailing data", traceParts(ownersCSV, "o.csv", ok+`{}`), "column_mapping", "not valid JSON"},
		{"mapping is an array", traceParts(ownersCSV, "o.csv", `["First"]`), "column_mapping", "must be a JSON object, not an array"},
		{"mapping is a string", traceParts(ownersCSV, "o.csv", `"First"`), "column_mapping", "not a string"},
		{"mapping is null", traceParts(ownersCSV, "o.csv", `null`), "column_mapping", "not null"},
		{"mapping value not a string", traceParts(ownersCSV, "o.csv", `{"first_name":1,"last_name":"Last"}`), "column_mapping.first_name", "must be a string"},
		{"mapping value an object", traceParts(ownersCSV, "o.csv", `{"first_name":{"x":1}}`), "column_mapping.first_name", "not an object"},
		{"bad mode", traceParts(ownersCSV, "o.csv", ok, part{name: "mode", body: "turbo"}), "mode", "normal"},
		{"bad include_llcs", traceParts(ownersCSV, "o.csv", ok, part{name: "include_llcs", body: "maybe"}), "include_llcs", "true or false"},
		{"empty file", traceParts("", "o.csv", ok), "file", "empty"},
		{"header only", traceParts("First,Last,Street,City,State,Zip\r\n", "o.csv", ok), "file", "no data rows"},
		{"header and blank rows only", traceParts("First,Last,Street,City,State,Zip\r\n,,,,,\r\n  ,\r\n", "o.csv", ok), "file", "no data rows"},
		{"blank lines only", traceParts("\r\n\r\n , \r\n", "o.csv", ok), "file", "no header row"},
		{"xlsx", traceParts("PK\x03\x04\x14\x00binary", "o.xlsx", ok), "file", "Excel"},
		{"not UTF-8", traceParts("First,Last,Street,City,State,Zip\r\nJos\xe9,A,1,B,TX,1\r\n", "o.csv", ok), "file", "line 2: the text is not valid UTF-8"},
		{"NUL bytes", traceParts("First,Last,Street,City,State,Zip\r\nA\x00,B,1,B,TX,1\r\n", "o.csv", ok), "file", "NUL"},
		{"unterminated quote", traceParts("First,Last,Street,City,State,Zip\r\nA,B,1,B,TX,1\r\n\"C,D,2,B,TX,1\r\n", "o.csv", ok), "file", "line 3: a quoted field is never closed"},
		{"two files", append(traceParts(ownersCSV, "o.csv", ok), part{name: "file", filename: "p.csv", body: ownersCSV}), "file", "only one file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := postForm(t, s, DemoKey, "/traces", c.parts...)
			assertValidation(t, r, c.field, c.inMsg)
		})
	}
	t.Run("not multipart", func(t *testing.T) {
		r := do(t, "POST", s.URL()+"/traces", DemoKey, strings.NewReader(`{"file":"x"}`), "application/json")
		assertValidation(t, r, "Content-Type", "multipart/form-data")
	})
	t.Run("no content type", func(t *testing.T) {
		r := do(t, "POST", s.URL()+"/traces", DemoKey, strings.NewReader(`x`), "")
		assertValidation(t, r, "Content-Type", "multipart/form-data")
	})
	t.Run("malformed multipart", func(t *testing.T) {
		r := do(t, "POST", s.URL()+"/traces", DemoKey, strings.NewReader("this is not multipart at all"), "multipart/form-data; boundary=XYZ")
		assertValidation(t, r, "body", "malformed multipart")
	})
	t.Run("truncated multipart", func(t *testing.T) {
		body, ct := multipartBody(t, traceParts(ownersCSV, "o.csv", ok)...)
		b, _ := readAllString(body)
		r := do(t, "POST", s.URL()+"/traces", DemoKey, strings.NewReader(b[:len(b)-40]), ct)
		if r.status != 400 {
			t.Fatalf("truncated body: %d %s", r.status, r.body)
		}
	})
	t.Run("several problems at once", func(t *testing.T) {
		r := postForm(t, s, DemoKey, "/traces", part{name: "mode", body: "x"}, part{name: "include_llcs", body: "y"})
		var g generalBody
		json.Unmarshal(r.body, &g)
		if r.status != 400 || len(g.Error.Details) != 4 {
			t.Errorf("want mode, include_llcs, column_mapping and file together: %s", r.body)
		}
	})
	if a, _ := s.Account(DemoKey); a.Credits != 25000 {
		t.Errorf("refused uploads charged credits: %d", a.Credits)
	}
}

func readAllString(r interface{ Read([]byte) (int, error) }) (string, error) {
	var b bytes.Buffer
	_, err := b.ReadFrom(r)
	return b.String(), err
}

// A BOM, ragged rows, CR-only quirks, quoted newlines and form fields in any
// order are accepted; short rows are padded and long rows cut to the header.
func TestTraceTolerantInput(t *testing.T) {
	cfg := testConfig()
	cfg.MatchRate = 1
	s := startT(t, cfg)
	file := "\xEF\xBB\xBF First ,Last,Street,City,State,Zip\n" +
		"John,Smith,1 Main,Austin,TX\n" + // short
		"Jane,Doe,2 Main,Austin,TX,78701,extra,more\n" + // long
		"\"Ann \"\"Q\"\"\",\"Lee\nJr\",3 Main,Austin,TX,78701\n" + // quotes and a newline
		"Bo\"b,Ray,4 Main,Austin,TX,78701" // stray quote, no final newline
	r := postForm(t, s, DemoKey, "/traces",
		part{name: "include_llcs", body: "1"},
		part{name: "column_mapping", body: ownersMapping},
		part{name: "file", filename: "ragged.csv", body: file},
		part{name: "unknown_field", body: "ignored"},
		part{name: "mode", body: "NORMAL"})
	if r.status != 201 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	c := r.json(t)
	if num(c, "total_rows") != 4 {
		t.Errorf("total_rows = %v", c["total_rows"])
	}
	s.FinishPending()
	d := get(t, s, DemoKey, "/traces/"+c["id"].(string)+"/download")
	recs, err := csv.NewReader(bytes.NewReader(d.body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	width := 6 + len(traceResultColumns)
	for i, rec := range recs {
		if len(rec) != width {
			t.Errorf("row %d has %d fields, want %d: %q", i, len(rec), width, rec)
		}
	}
	if recs[0][0] != "First" {
		t.Errorf("BOM and spaces not stripped from the header: %q", recs[0][0])
	}
	if recs[1][5] != "" || recs[2][5] != "78701" || recs[3][0] != `Ann "Q"` || recs[3][1] != "Lee\nJr" || recs[4][0] != `Bo"b` {
		t.Errorf("rows = %q", recs[1:])
	}
}

func TestSingleBadInput(t *testing.T) {
	s := startT(t, testConfig())
	cases := []struct{ name, body, field, sub string }{
		{"not JSON", `{"first_name":`, "body", "JSON object"},
		{"array", `[1,2]`, "body", "JSON object"},
		{"null", `null`, "body", "JSON object"},
		{"number name", `{"first_name":5,"address":"1 A","city":"B","state":"TX","zip":"1"}`, "first_name", "must be a string"},
		{"missing address", `{"first_name":"A","city":"B","state":"TX","zip":"1"}`, "address", "required"},
		{"bad state", `{"first_name":"A","address":"1 A","city":"B","state":"Texas","zip":"1"}`, "state", "2-letter"},
		{"mailing incomplete", `{"first_name":"A","address":"1 A","city":"B","state":"TX","zip":"1","mailing_address":"PO Box 1"}`, "mailing_city", "required when mailing_address"},
		{"is_entity not bool", `{"first_name":"A","address":"1 A","city":"B","state":"TX","zip":"1","is_entity":"yes"}`, "is_entity", "boolean"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assertValidation(t, postJSON(t, s, DemoKey, "/traces/single", c.body), c.field, c.sub)
		})
	}
	big := `{"first_name":"` + strings.Repeat("a", 70<<10) + `"}`
	if r := postJSON(t, s, DemoKey, "/traces/single", big); r.status != 413 {
		t.Errorf("70 KB body: %d", r.status)
	}
}

func TestDNCBadInput(t *testing.T) {
	s := startT(t, testConfig())
	file := "Name,Phone\nA,2125550147\n"
	cases := []struct {
		name, mapping, field, sub string
	}{
		{"missing phone key", `{}`, "column_mapping.phone", "required"},
		{"unknown key", `{"phone":"Phone","fone":"Phone"}`, "column_mapping.fone", `only key is "phone"`},
		{"absent column", `{"phone":"Mobile"}`, "column_mapping.phone", `available headers: "Name", "Phone"`},
		{"not an object", `["Phone"]`, "column_mapping", "JSON object"},
		{"value not a string", `{"phone":7}`, "column_mapping.phone", "must be a string"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := postForm(t, s, DemoKey, "/dnc", part{name: "file", filename: "p.csv", body: file}, part{name: "column_mapping", body: c.mapping})
			assertValidation(t, r, c.field, c.sub)
		})
	}
	assertValidation(t, postForm(t, s, DemoKey, "/dnc", part{name: "file", filename: "p.csv", body: ""}, part{name: "column_mapping", body: `{"phone":"Phone"}`}), "file", "empty")
	assertValidation(t, postForm(t, s, DemoKey, "/dnc", part{name: "file", filename: "p.csv", body: "Phone\n"}, part{name: "column_mapping", body: `{"phone":"Phone"}`}), "file", "no data rows")
	assertValidation(t, postForm(t, s, DemoKey, "/dnc", part{name: "column_mapping", body: `{"phone":"Phone"}`}), "file", "required")
}

func TestListValidationAndRoutes(t *testing.T) {
	s := startT(t, testConfig())
	assertValidation(t, get(t, s, DemoKey, "/traces?limit=101"), "limit", "from 1 to 100")
	assertValidation(t, get(t, s, DemoKey, "/traces?limit=0"), "limit", "from 1 to 100")
	assertValidation(t, get(t, s, DemoKey, "/traces?page=0"), "page", "at least 1")
	assertValidation(t, get(t, s, DemoKey, "/traces?page=x"), "page", "integer")
	assertValidation(t, get(t, s, DemoKey, "/traces?type=batch"), "type", "bulk")
	assertValidation(t, get(t, s, DemoKey, "/dnc?limit=500"), "limit", "from 1 to 100")
	if r := get(t, s, DemoKey, "/nothing"); r.status != 404 || r.json(t)["code"] != "NOT_FOUND" {
		t.Errorf("unknown path: %d %s", r.status, r.body)
	}
	if r := get(t, s, DemoKey, "/traces/"); r.status != 404 {
		t.Errorf("trailing slash: %d", r.status)
	}
	if r := do(t, "DELETE", s.URL()+"/traces", DemoKey, nil, ""); r.status != 405 || r.header.Get("Allow") != "GET, POST" {
		t.Errorf("DELETE /traces: %d %v", r.status, r.header)
	}
	if r := postJSON(t, s, DemoKey, "/account", "{}"); r.status != 405 {
		t.Errorf("POST /account: %d", r.status)
	}
}
