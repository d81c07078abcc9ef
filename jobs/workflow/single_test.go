package workflow

import (
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/client"
)

func TestCheckSingleZip(t *testing.T) {
	t.Parallel()
	for zip, want := range map[string]string{"78701": "", "78701-1234": "", " 02134 ": "",
		"2134": `ZIP code "2134" has 4 digits: it is likely 02134`, "787": "ZIP code must have 5 digits", "7870A": "must have 5 digits",
		"78701-12": "must have 5 digits"} {
		p := zipProblem(zip, "ZIP code")
		if (want == "") != (p == "") || !strings.Contains(p, want) {
			t.Errorf("zip %q: %q, want %q", zip, p, want)
		}
	}
	if p := CheckSingle(client.SingleTraceRequest{FirstName: "A", Address: "1 Main", City: "X", State: "TX", Zip: "787"}); p.OK() {
		t.Error("a 3-digit ZIP code is OK")
	}
}
