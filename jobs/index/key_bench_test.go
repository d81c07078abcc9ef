package index

import (
	"fmt"
	"testing"
)

// ownerRows are owner list rows as a county export writes them: a first
// and a last name, a street, city, state and ZIP.
func ownerRows(n int) [][6]string {
	firsts := []string{"James", "LINDA", "Mary Ann", "Robert J.", "Jessica", "O'Neil", "José", "Smith Family Trust"}
	lasts := []string{"Harris", "Ramirez", "LEE", "Gonzalez", "Smith Jr", "", "Nguyen", "Holdings LLC"}
	streets := []string{"9138 Maple Dr", "8208 Park Ave.", "1277 ELM STREET", "PO Box 5446", "55 N Main St Apt 4B", "1063 Oak Avenue #12"}
	rows := make([][6]string, n)
	for i := range rows {
		rows[i] = [6]string{firsts[i%len(firsts)], lasts[i/7%len(lasts)], fmt.Sprintf("%d %s", i%9973, streets[i%len(streets)][5:]),
			"Hartford", "CT", fmt.Sprintf("%05d", 6103+i%900)}
	}
	return rows
}

// BenchmarkOwnerKey is the owner key of a list row, as the quote's look-up
// of the rows traced before reads every row of a list.
func BenchmarkOwnerKey(b *testing.B) {
	rows := ownerRows(4096)
	var k Keyer
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r := &rows[i%len(rows)]
		k.Key(r[0], r[1], "", Address{Street: r[2], City: r[3], State: r[4], Zip: r[5]})
		i++
	}
}
