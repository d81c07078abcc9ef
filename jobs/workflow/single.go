package workflow

import (
	"fmt"
	"strings"

	"github.com/skipdesk/skipdesk/client"
)

// SingleProblems is what keeps a single lookup from being sent, in words:
// fields missing, a state that is not a 2-letter code, a mailing address
// started but not finished. The lookup form shows them next to their
// fields; the command line prints them.
type SingleProblems struct {
	Missing      []string // required fields left blank
	State        string   // the property state's problem
	MailingState string
	Mailing      string // the mailing group's problem
}

// OK reports whether the request can be sent.
func (p SingleProblems) OK() bool {
	return len(p.Missing) == 0 && p.State == "" && p.MailingState == "" && p.Mailing == ""
}

// All lists every problem, one sentence each.
func (p SingleProblems) All() []string {
	var out []string
	if len(p.Missing) > 0 {
		out = append(out, "Fill in: "+strings.Join(p.Missing, ", ")+".")
	}
	for _, s := range []string{p.State, p.Mailing, p.MailingState} {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// CheckSingle applies the spec's rules for POST /traces/single to a
// request whose fields are trimmed.
func CheckSingle(r client.SingleTraceRequest) SingleProblems {
	var p SingleProblems
	for _, f := range []struct{ v, name string }{
		{r.FirstName, "first name"}, {r.Address, "street"}, {r.City, "city"}, {r.State, "state"}, {r.Zip, "ZIP code"},
	} {
		if strings.TrimSpace(f.v) == "" {
			p.Missing = append(p.Missing, f.name)
		}
	}
	p.State = stateProblem(r.State, "State")
	mail := []struct{ v, name string }{
		{r.MailingAddress, "street"}, {r.MailingCity, "city"}, {r.MailingState, "state"}, {r.MailingZip, "ZIP code"},
	}
	var have, lack []string
	for _, f := range mail {
		if strings.TrimSpace(f.v) == "" {
			lack = append(lack, f.name)
		} else {
			have = append(have, f.name)
		}
	}
	if len(have) > 0 && len(lack) > 0 {
		p.Mailing = fmt.Sprintf("The mailing address is all or nothing: %s given, %s missing.", strings.Join(have, ", "), strings.Join(lack, ", "))
	}
	p.MailingState = stateProblem(r.MailingState, "Mailing state")
	return p
}

func stateProblem(v, what string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	if len(v) != 2 || !isLetter(v[0]) || !isLetter(v[1]) {
		return fmt.Sprintf("%s must be a 2-letter code such as TX, not %q.", what, v)
	}
	if !usStates[strings.ToUpper(v)] {
		return fmt.Sprintf("%s %q is not a US state or territory code.", what, strings.ToUpper(v))
	}
	return ""
}

func isLetter(c byte) bool { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') }

// usStates are the USPS codes of the states, DC, territories and military
// post offices.
var usStates = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range strings.Fields(`AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO
		MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY
		AS GU MP PR VI UM FM MH PW AA AE AP`) {
		m[c] = true
	}
	return m
}()
