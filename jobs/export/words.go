package export

import (
	"fmt"
	"strconv"

	"github.com/xuri/excelize/v2"
)

// The columns a callable export adds after each phone (its flags in words,
// the verdict, the time zone and the calling window) repeat a few values
// over every row. In an .xlsx they are written once, in the workbook's
// shared strings, and each cell refers to its value by number: the sheet
// XML, and the time spent compressing it, shrink by the text of those
// cells. A value is shared only where the cell would otherwise be an
// inline string needing no escape and no preserved spacing: the cells read
// back exactly as before.

// maxSharedWords bounds the shared values: past it, new values are written
// in their cells.
const maxSharedWords = 1 << 14

// maxSharedLen bounds the length of a shared value.
const maxSharedLen = 512

// sharedColumner is a source whose columns of repeated words it names
// (true: the column's values may be shared strings).
type sharedColumner interface {
	SharedColumns() []bool
}

// sharedWords numbers the shared values in the order they are first met.
type sharedWords struct {
	index map[string]int
	list  []string
}

// of is v's number, adding it; false when v is not to be shared.
func (s *sharedWords) of(v string) (int, bool) {
	if i, ok := s.index[v]; ok {
		return i, true
	}
	if len(s.list) >= maxSharedWords || !shareable(v) {
		return 0, false
	}
	if s.index == nil {
		s.index = map[string]int{}
	}
	s.index[v] = len(s.list)
	s.list = append(s.list, v)
	return len(s.list) - 1, true
}

// shareable reports a value written the same as a shared string and as an
// inline one: not empty, not long, plain text (nothing escaped, no
// underscore an OOXML reader could decode) and no spacing at its ends.
func shareable(v string) bool {
	if v == "" || len(v) > maxSharedLen || v[0] == ' ' || v[len(v)-1] == ' ' {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c < 0x20 || c == '&' || c == '<' || c == '>' || c == '_' || c >= 0x80 {
			return false
		}
	}
	return true
}

// appendShared appends cell ref (column letters and row number) referring
// to shared string i.
func appendShared(buf, col, rn []byte, i int) []byte {
	buf = append(buf, `<c r="`...)
	buf = append(buf, col...)
	buf = append(buf, rn...)
	buf = append(buf, `" t="s"><v>`...)
	buf = strconv.AppendInt(buf, int64(i), 10)
	return append(buf, `</v></c>`...)
}

// addSharedWords puts words first in the workbook's shared strings, word i
// at index i, as the sheet XML refers to them; it must run before any other
// string is set. They are set in a sheet made for the purpose and removed
// (the strings stay).
func addSharedWords(f *excelize.File, words []string) error {
	if len(words) == 0 {
		return nil
	}
	const scratch = "SkipDesk shared words"
	if _, err := f.NewSheet(scratch); err != nil {
		return fmt.Errorf("export: shared strings: %w", err)
	}
	for _, w := range words {
		if err := f.SetCellStr(scratch, "A1", w); err != nil {
			return fmt.Errorf("export: shared strings: %w", err)
		}
	}
	if err := f.DeleteSheet(scratch); err != nil {
		return fmt.Errorf("export: shared strings: %w", err)
	}
	sst := f.SharedStrings
	if sst == nil || len(sst.SI) < len(words) {
		return fmt.Errorf("export: shared strings: the workbook does not hold the %d written", len(words))
	}
	for i, w := range words {
		if t := sst.SI[i].T; t == nil || t.Val != w {
			return fmt.Errorf("export: shared strings: string %d is not %q", i, w)
		}
	}
	return nil
}
