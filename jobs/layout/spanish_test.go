package layout

import (
	"fmt"
	"slices"
	"testing"
)

// A Spanish vendor's national registry column ("Registro Nacional": Sí /
// No) answers the registry in its own words; "Desconocido" is unknown.
func TestSpanishRegistry(t *testing.T) {
	h := []string{"Teléfono", "Registro Nacional", "Litigante", "Fecha"}
	var rows [][]string
	for i, registry := range []string{"SI", "No", "Desconocido", "sí"} {
		rows = append(rows, []string{fmt.Sprintf("51255501%02d", i+1), registry, "No", "2025-05-01"})
	}
	l := Detect(h, rows, Options{})
	wantSlots(t, l, "Phone=Teléfono||Registro Nacional:federal,Litigante:litigator")
	got := readAll(t, l, rows, nil)
	want := []string{"(512) 555-0101 ? federal DNC", "(512) 555-0102 ? callable", "(512) 555-0103 ? DNC unknown",
		"(512) 555-0104 ? federal DNC"}
	for i := range want {
		if !slices.Equal(got[i], want[i:i+1]) {
			t.Errorf("row %d: %q, want %q", i+1, got[i], want[i])
		}
	}
}
