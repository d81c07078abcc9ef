package workflow

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/resultgen"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// The adversary of the company-list import: files of numbers written as
// CRMs, dialers, SMS tools and hand-kept sheets write them
// (resultgen.List), each with its truth. Every number of a phone column
// goes on the list or its cell is named (line and column) as not read;
// nothing else is added.

var (
	listCases = flag.Int("list.cases", 0, "how many generated files TestGeneratedListsLoseNoNumber imports (0: 300; 40 under -race or with -short)")
	listFirst = flag.Int64("list.seed", 1, "the first seed TestGeneratedListsLoseNoNumber imports")
)

func TestGeneratedListsLoseNoNumber(t *testing.T) {
	t.Parallel()
	testlists.RunSeeds(t, "generated lists", *listFirst, casesOr(*listCases, 300, 40), checkList)
}

// checkList imports the list of seed: the case and how it broke the promise.
func checkList(t *testing.T, seed int64) (string, []string) {
	c := resultgen.List(seed)
	return fmt.Sprintf("%s, %d sheets", c.Name(), len(c.Sheets)), importList(t, c)
}

// importList imports the case's file into a company list of its own and
// says how the import broke the promise.
func importList(t *testing.T, c *resultgen.ListCase) []string {
	ctx := context.Background()
	path, err := c.Write(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	d := offline(t)
	rep, err := d.Compliance().ImportInternal(ctx, ListImport{Path: path, Reason: "generated"}, nil)
	if err != nil {
		if c.Readable() == 0 {
			return nil // nothing to read: refused with why
		}
		return []string{fmt.Sprintf("refused: %v", err)}
	}
	entries, err := d.Compliance().InternalList(ctx)
	if err != nil {
		t.Fatal(err)
	}
	on := map[uint64]bool{}
	for _, e := range entries {
		on[phone.Key(e.Number)] = true
	}
	var problems []string
	written := map[uint64]bool{}
	for _, k := range c.Written {
		written[k] = true
	}
	for k := range on {
		if !written[k] {
			problems = append(problems, fmt.Sprintf("added %d, which the file does not hold", k))
		}
	}
	// A cell not read is named by its line and value (its column's name
	// is the header SkipDesk found: a one-column file's title may stand
	// for it).
	reported := map[string]bool{}
	for _, inv := range rep.Invalid {
		reported[strconv.Itoa(inv.Line)+" "+inv.Value] = true
	}
	several := len(c.Sheets) > 1
	for si := range c.Sheets {
		s := &c.Sheets[si]
		for j, row := range s.Rows {
			line := c.FirstLine(s) + j
			for ci, cell := range row {
				if !s.Phone[ci] {
					continue
				}
				label := s.Name + " › "
				if !several {
					label = ""
				}
				if s.Header != nil {
					label += s.Header[ci]
				}
				where := fmt.Sprintf("line %d, column %q", line, label)
				said := reported[strconv.Itoa(line)+" "+strings.TrimSpace(cell.Text)]
				if cell.Bad && !said {
					problems = append(problems, fmt.Sprintf("%s: %q not read and not named", where, cell.Text))
				}
				for _, k := range cell.Numbers {
					if !on[k] && !said {
						problems = append(problems, fmt.Sprintf("%s: %q: %d left off the list without a word", where, cell.Text, k))
					}
				}
			}
		}
	}
	if len(problems) > 8 {
		problems = append(problems[:8], fmt.Sprintf("and %d more", len(problems)-8))
	}
	return problems
}

// FuzzGeneratedLists holds the invariant over random seeds: `make fuzz`
// runs it with the other fuzz targets (scripts/fuzz.sh).
func FuzzGeneratedLists(f *testing.F) { testlists.FuzzSeeds(f, checkList) }
