package ui

import (
	"fmt"

	"github.com/skipdesk/skipdesk/jobs/phone"
)

// onDoNotCall puts the selected row's phones on the company's own
// do-not-call list, after the person has seen them and said why; the
// source names the result and the row.
func (v *viewer) onDoNotCall() {
	a := v.sh
	if v.selRow < 0 || v.selRow >= v.view.Len() {
		a.showMessage("Do not call", "Select the row of the person who asked not to be called, then choose Do not call… again.")
		return
	}
	row := v.view.Person(v.selRow)
	var numbers []string
	for _, p := range row.DistinctPhones() {
		if p.Valid() {
			numbers = append(numbers, phone.FormatKey(p.Key))
		}
	}
	if len(numbers) == 0 {
		a.showMessage("Do not call", "This row has no valid phone number.")
		return
	}
	source := fmt.Sprintf("result %s, row %d", v.name, v.view.RowIndex(v.selRow)+1)
	v.addInternal(numbers, source, nil)
}
