package sandbox

import (
	"bytes"
	"encoding/csv"
	"net/http/httptest"
	"strings"
	"testing"
)

func FuzzCSVScanner(f *testing.F) {
	for _, s := range []string{"a,b\nc,d\n", "\xEF\xBB\xBFa,\"b\"\"c\"\r\n1,2", "\"open", "a\rb", ",,\n\n,", "x\"y\",z\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sc := newCSVScanner(bytes.NewReader(data))
		var got [][]string
		for sc.Next() {
			if sc.Len() == 0 {
				t.Fatal("a record has at least one field")
			}
			rec := make([]string, sc.Len())
			for i := range rec {
				rec[i] = string(sc.Field(i))
			}
			if sc.Field(sc.Len()) != nil || sc.Field(-1) != nil {
				t.Fatal("out-of-range fields are empty")
			}
			got = append(got, rec)
		}
		// Without quotes, CR or a BOM the format is plain: compare with encoding/csv
		// (which skips empty lines; the scanner returns them as one empty field).
		if sc.Err() != nil || bytes.ContainsAny(data, "\"\r") || bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) {
			return
		}
		r := csv.NewReader(bytes.NewReader(data))
		r.FieldsPerRecord = -1
		want, err := r.ReadAll()
		if err != nil {
			return
		}
		var nonEmpty [][]string
		for _, rec := range got {
			if len(rec) == 1 && rec[0] == "" {
				continue
			}
			nonEmpty = append(nonEmpty, rec)
		}
		if len(nonEmpty) != len(want) {
			t.Fatalf("%d records, encoding/csv %d", len(nonEmpty), len(want))
		}
		for i := range want {
			if strings.Join(nonEmpty[i], "\x00") != strings.Join(want[i], "\x00") {
				t.Fatalf("record %d: %q, encoding/csv %q", i, nonEmpty[i], want[i])
			}
		}
	})
}

// Whatever the file and the mapping, POST /traces answers 201 or a 4xx,
// never a 5xx or a panic.
func FuzzCreateTrace(f *testing.F) {
	f.Add([]byte(ownersCSV), ownersMapping, "normal", "true")
	f.Add([]byte("a,b\n\"x"), `{"first_name":1}`, "enhanced", "0")
	f.Add([]byte{}, `[]`, "", "")
	f.Add([]byte("\xEF\xBB\xBFFirst\n"), `{"first_name":"First","property_zip":"Zip"}`, "normal", "false")
	s := fuzzServer(f)
	f.Fuzz(func(t *testing.T, file []byte, mapping, mode, llcs string) {
		body, ct := multipartBody(t, part{name: "file", filename: "f.csv", body: string(file)},
			part{name: "column_mapping", body: mapping}, part{name: "mode", body: mode}, part{name: "include_llcs", body: llcs})
		req := httptest.NewRequest("POST", "/v1/traces", body)
		rec := serveFuzz(t, s, req, ct)
		if rec.Code >= 500 || (rec.Code != 201 && rec.Code/100 != 4) {
			t.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	})
}
