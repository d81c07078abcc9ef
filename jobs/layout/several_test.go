package layout

import (
	"strings"
	"testing"
)

// A column of several numbers a cell is not read (one number a cell), and
// says so in words a person can act on; a phone column of other text keeps
// the general question.
func TestSeveralPhonesInACell(t *testing.T) {
	for _, tc := range []struct {
		vals []string
		want string
	}{
		{[]string{"5125550101, 5125550102; (512) 555-0103", "2145550107 | 2145550108", "214-555-0109 / 214-555-0110"},
			`"Other Phones" holds several phone numbers in a cell: SkipDesk reads one number a cell`},
		{[]string{"call after 5", "ask for Bob", "none"}, `"Other Phones" is named like a phone column but its values do not look like phone numbers`},
	} {
		rows := make([][]string, len(tc.vals))
		for i, v := range tc.vals {
			rows[i] = []string{"5125550199", "N", "N", v}
		}
		l := Detect([]string{"Phone 1", "Phone 1 DNC", "Phone 1 Litigator", "Other Phones"}, rows, Options{})
		found := false
		for _, q := range l.Questions {
			found = found || len(q.Columns) == 1 && q.Columns[0] == "Other Phones" && strings.HasPrefix(q.Message, tc.want) && !q.Blocks
		}
		if !found || len(l.Slots) != 1 {
			t.Errorf("%q: %d slots, questions %+v; want one slot and a question starting %q", tc.vals, len(l.Slots), l.Questions, tc.want)
		}
	}
}
