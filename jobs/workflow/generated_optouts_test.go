package workflow

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs/optout"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/resultgen"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// The adversary of the opt-outs import: SMS tools' and dialers' exports
// (resultgen.OptOuts: a number or a From and a To, a direction or none,
// notes, several sheets), each with its truth. Every person who asked not
// to be contacted goes on the company's list, or the row is named as not
// read; a row whose way is said puts nothing else on it.

var (
	optOutCases = flag.Int("optout.cases", 0, "how many generated exports TestGeneratedOptOutsMissNone imports (0: 300; 40 under -race or with -short)")
	optOutFirst = flag.Int64("optout.seed", 1, "the first seed TestGeneratedOptOutsMissNone imports")
)

func TestGeneratedOptOutsMissNone(t *testing.T) {
	t.Parallel()
	testlists.RunSeeds(t, "generated opt-outs", *optOutFirst, casesOr(*optOutCases, 300, 40), checkOptOuts)
}

// checkOptOuts imports the export of seed: the case and how it broke the
// promise.
func checkOptOuts(t *testing.T, seed int64) (string, []string) {
	c := resultgen.OptOuts(seed)
	return fmt.Sprintf("%s, %d sheets, %q", c.Name(), len(c.Sheets), c.Sheets[0].Header), importOptOuts(t, c)
}

// importOptOuts imports the case's export into a company list of its own
// and says how the import broke the promise.
func importOptOuts(t *testing.T, c *resultgen.OptOutCase) []string {
	path, err := c.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := offline(t)
	res, err := d.Compliance().ImportOptOuts(t.Context(), path, time.UTC)
	if err != nil {
		return []string{fmt.Sprintf("refused: %v", err)}
	}
	entries, err := d.Compliance().InternalList(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	on := map[uint64]bool{}
	for _, e := range entries {
		on[phone.Key(e.Number)] = true
	}
	at := map[string][]uint64{} // "sheet, line" → numbers entered from it
	made := map[string]time.Time{}
	for _, e := range res.Entries {
		at[optout.At(e.Sheet, e.Line)] = append(at[optout.At(e.Sheet, e.Line)], phone.Key(e.Number))
		made[optout.At(e.Sheet, e.Line)] = e.Made
	}
	named := map[string]bool{}
	for _, p := range res.Problems {
		named[strings.SplitN(p, ": ", 2)[0]] = true
	}
	var problems []string
	for si := range c.Sheets {
		s := &c.Sheets[si]
		sheet := ""
		if len(c.Sheets) > 1 {
			sheet = s.Name
		}
		for j, row := range c.Rows[si] {
			where := optout.At(sheet, c.FirstLine(s)+j)
			var cells []string
			for _, cell := range s.Rows[j] {
				cells = append(cells, cell.Text)
			}
			where += fmt.Sprintf(" %q", cells)
			line := optout.At(sheet, c.FirstLine(s)+j)
			problems = append(problems, optOutRowBroken(row, where, at[line], on, named[line])...)
			if m := made[line]; !m.IsZero() && !row.When.IsZero() && m.UTC().Format(time.DateOnly) < row.When.Format(time.DateOnly) {
				problems = append(problems, fmt.Sprintf("%s: dated %s, before the day the person asked (%s)", where,
					m.Format(time.DateOnly), row.When.Format(time.DateOnly)))
			}
		}
	}
	if len(problems) > 8 {
		problems = append(problems[:8], fmt.Sprintf("and %d more", len(problems)-8))
	}
	return problems
}

// optOutRowBroken says how the entries made from a row (entered) and the
// list (on) break the row's truth.
func optOutRowBroken(row resultgen.OptOutRow, where string, entered []uint64, on map[uint64]bool, named bool) []string {
	var problems []string
	switch {
	case row.Stop && row.Bad && !named:
		problems = append(problems, where+": an opt-out whose number cannot be read is not named")
	case row.Stop:
		for _, k := range row.Person {
			if !slices.Contains(entered, k) || !on[k] {
				problems = append(problems, fmt.Sprintf("%s: %d opted out and is not on the list", where, k))
			}
		}
	}
	for _, k := range entered {
		switch {
		case slices.Contains(row.Person, k) && row.Stop:
		case row.Known && !row.Stop:
			problems = append(problems, fmt.Sprintf("%s: %d put on the list from a row that is not an opt-out", where, k))
		case row.Known:
			problems = append(problems, fmt.Sprintf("%s: %d put on the list in place of the person's", where, k))
		case k != row.Ours && !slices.Contains(row.Person, k):
			problems = append(problems, fmt.Sprintf("%s: %d put on the list, which the row does not hold", where, k))
		}
	}
	return problems
}

// FuzzGeneratedOptOuts holds the invariant over random seeds: `make fuzz`
// runs it with the other fuzz targets (scripts/fuzz.sh).
func FuzzGeneratedOptOuts(f *testing.F) { testlists.FuzzSeeds(f, checkOptOuts) }
