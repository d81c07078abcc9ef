package mapping

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// TestValidateAgreesWithSandbox sends random mappings to the sandbox (an
// independent reading of the spec) and checks that Validate accepts exactly
// the mappings it accepts, with as many problems as it lists.
func TestValidateAgreesWithSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the sandbox")
	}
	cfg := sandbox.DefaultConfig()
	cfg.RateLimits = sandbox.RateLimits{ReadPerMinute: -1, WritePerMinute: -1}
	cfg.Keys[0].Credits = 1_000_000
	cfg.Processing = sandbox.Processing{MinSeconds: 0.01}
	_, c := clienttest.Sandbox(t, cfg)
	p := testlists.WriteFile(t, "owners.csv", strings.Join(fileHeaders, ",")+"\r\nAnn,Lee,1 Elm St,Austin,TX,78701,PO Box 1,Waco,TX,76701,2125550147\r\n")

	keys := append(Keys(jobs.KindTrace), "frist_name", "zip", "phone", "mailing_adress")
	values := append(append([]string{}, fileHeaders...), "Nope", "first name")
	rng := rand.New(rand.NewPCG(4, 2))
	agreed := map[bool]int{}
	for i := 0; i < 150; i++ {
		m := Mapping{}
		switch i % 3 {
		case 0: // mostly right: a complete mapping with one or two changes
			m = with(fullMapping(), MailingStreet, "Mail Address", MailingCity, "Mail City", MailingState, "Mail State", MailingZip, "Mail Zip")
			for j := 0; j <= rng.IntN(2); j++ {
				k := keys[rng.IntN(len(keys))]
				if rng.IntN(2) == 0 {
					delete(m, k)
				} else {
					m[k] = values[rng.IntN(len(values))]
				}
			}
		default:
			for j := rng.IntN(10); j >= 0; j-- {
				m[keys[rng.IntN(len(keys))]] = values[rng.IntN(len(values))]
			}
		}
		mode := []jobs.Mode{jobs.ModeNormal, jobs.ModeEnhanced}[rng.IntN(2)]
		mine := Validate(fileHeaders, m, mode)
		_, err := c.Traces.Create(context.Background(), &client.TraceUpload{Path: p, Mode: string(mode), ColumnMapping: m})
		var ae *client.APIError
		switch {
		case err == nil:
			if !mine.OK() {
				t.Errorf("%s %v: sandbox accepted, Validate says %v", mode, m, mine.Errors())
			}
		case errors.As(err, &ae) && ae.StatusCode == 400 && len(ae.Problems) > 0:
			if mine.OK() {
				t.Errorf("%s %v: sandbox refused (%q), Validate accepts", mode, m, ae.Problems)
			} else if len(mine.Errors()) != len(ae.Problems) {
				t.Errorf("%s %v: sandbox lists %d problems %q, Validate %d %v", mode, m, len(ae.Problems), ae.Problems, len(mine.Errors()), mine.Errors())
			}
		default:
			t.Fatalf("%v: %v", m, err)
		}
		agreed[mine.OK()]++
	}
	if agreed[true] < 10 || agreed[false] < 10 {
		t.Errorf("the random mappings should include both outcomes: %v", agreed)
	}
}
