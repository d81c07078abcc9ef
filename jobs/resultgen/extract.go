package resultgen

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Reading back what an export wrote: every number written anywhere in a
// .csv or in any cell of any sheet of an .xlsx, however it is formatted.

// NumbersIn are the distinct 10-digit NANP numbers written anywhere in the
// .csv or .xlsx at path, sorted.
func NumbersIn(path string) ([]string, error) {
	seen := map[string]bool{}
	add := func(n string) { seen[n] = true }
	var err error
	if strings.EqualFold(filepath.Ext(path), ".xlsx") {
		err = xlsxNumbers(path, add)
	} else {
		err = csvNumbers(path, add)
	}
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	slices.Sort(out)
	return out, nil
}

func xlsxNumbers(path string, add func(string)) error {
	x, err := excelize.OpenFile(path)
	if err != nil {
		return fmt.Errorf("resultgen: reading back %s: %w", path, err)
	}
	defer x.Close()
	for _, sheet := range x.GetSheetList() {
		// Raw values: a phone kept as a number reads as its digits
		// whatever its number format.
		rows, err := x.GetRows(sheet, excelize.Options{RawCellValue: true})
		if err != nil {
			return fmt.Errorf("resultgen: reading back %s, sheet %s: %w", path, sheet, err)
		}
		for _, row := range rows {
			for _, cell := range row {
				NumbersInText(cell, add)
			}
		}
	}
	return nil
}

func csvNumbers(path string, add func(string)) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("resultgen: reading back %s: %w", path, err)
	}
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord, r.LazyQuotes = -1, true
	rows, err := r.ReadAll()
	if err != nil {
		// Whatever could not be parsed is still read: every line as text.
		rows = [][]string{strings.Split(string(b), "\n")}
	}
	for _, row := range rows {
		for _, cell := range row {
			NumbersInText(cell, add)
		}
	}
	return nil
}

// phoneShapes are the lengths of the digit groups a written phone number
// is made of: 5125550101, 15125550101, 512-555-0101, 1-512-555-0101,
// +1 5125550101, 512 5550101. Other digit runs (dates, times, zip codes)
// are not read as numbers.
var phoneShapes = [][]int{{10}, {11}, {3, 3, 4}, {1, 3, 3, 4}, {1, 10}, {3, 7}}

// NumbersInText calls add with each 10-digit NANP number written in s. A
// number stands apart from letters (a run of digits inside a hash or an
// id is not one), save an extension's "x" after it.
func NumbersInText(s string, add func(string)) {
	type group struct{ start, end int }
	var gs []group
	for i := 0; i < len(s); {
		if !isDigit(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		if i > 0 && isLetter(s[i-1]) || j < len(s) && isLetter(s[j]) && s[j] != 'x' && s[j] != 'X' {
			gs = append(gs, group{-1, -1}) // breaks any number across it
		} else {
			gs = append(gs, group{i, j})
		}
		i = j
	}
	for i := range gs {
		var lens []int
		var digits strings.Builder
		for j := i; j < len(gs) && j < i+4; j++ {
			if gs[j].start < 0 || j > i && !phoneGap(s[gs[j-1].end:gs[j].start]) {
				break
			}
			lens = append(lens, gs[j].end-gs[j].start)
			digits.WriteString(s[gs[j].start:gs[j].end])
			if n, ok := nanp(digits.String()); ok && slices.ContainsFunc(phoneShapes, func(sh []int) bool { return slices.Equal(sh, lens) }) {
				add(n)
			}
		}
	}
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// phoneGap reports what may stand between the digit groups of one phone
// number: up to three of space ( ) - . +
func phoneGap(g string) bool {
	if g == "" || len(g) > 3 {
		return false
	}
	return strings.Trim(g, " ()-.+") == ""
}

// nanp is d as a NANP number: 10 digits (or 11 with a leading 1) whose
// area code and exchange start with 2-9.
func nanp(d string) (string, bool) {
	if len(d) == 11 && d[0] == '1' {
		d = d[1:]
	}
	if len(d) != 10 || d[0] < '2' || d[3] < '2' {
		return "", false
	}
	return d, true
}
