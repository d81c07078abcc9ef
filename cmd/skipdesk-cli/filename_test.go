package main

import "testing"

// An id given to `download --out FOLDER` names the file: whatever it holds,
// the name is one Windows accepts.
func TestSafeFileName(t *testing.T) {
	for in, want := range map[string]string{
		"trc_01HX":   "trc_01HX",
		"CON":        "_CON",
		`a\b/c:d*e?`: "a_b_c_d_e_",
		"x<y>|z\"":   "x_y__z_",
		"...":        "result",
		"":           "result",
	} {
		if got := safeFileName(in); got != want {
			t.Errorf("safeFileName(%q) = %q, want %q", in, got, want)
		}
	}
}
