package workflow

import (
	"fmt"
	"strings"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/input"
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
	// Zip and MailingZip: a ZIP code that is not 5 digits (or ZIP+4).
	Zip, MailingZip string
}

// OK reports whether the request can be sent.
func (p SingleProblems) OK() bool {
	return len(p.Missing) == 0 && p.State == "" && p.MailingState == "" && p.Mailing == "" && p.Zip == "" && p.MailingZip == ""
}

// All lists every problem, one sentence each.
func (p SingleProblems) All() []string {
	var out []string
	if len(p.Missing) > 0 {
		out = append(out, "Fill in: "+strings.Join(p.Missing, ", ")+".")
	}
	for _, s := range []string{p.State, p.Zip, p.Mailing, p.MailingState, p.MailingZip} {
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
	p.Zip, p.MailingZip = zipProblem(r.Zip, "ZIP code"), zipProblem(r.MailingZip, "Mailing ZIP code")
	return p
}

// zipProblem: a ZIP code is 5 digits, or 5 and 4 ("78701-1234"). A 4-digit
// one lost its leading zero (Excel): say which it likely is.
func zipProblem(v, what string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	five, four, plus := strings.Cut(v, "-")
	if len(five) == 5 && allDigits(five) && (!plus || (len(four) == 4 && allDigits(four))) {
		return ""
	}
	if padded, ok := input.PadZip(v); ok {
		return fmt.Sprintf("%s %q has 4 digits: it is likely %s (Excel drops the leading zero).", what, v, padded)
	}
	return fmt.Sprintf("%s must have 5 digits, such as 78701, not %q.", what, v)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
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
