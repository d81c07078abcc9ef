package input

// AppendRecord appends a record as RFC 4180 CSV ending in CR LF, keeping
// every value's bytes: a line break inside a value is written as it is (LF,
// CR LF or a bare CR), where encoding/csv's writer with UseCRLF turns LF
// into CR LF and drops a bare CR. A value holding a comma, a quote or a line
// break, or starting with a space or a tab, is quoted; a record of one empty
// value is written "" so that it is not a blank line.
func AppendRecord(b []byte, rec []string) []byte {
	if len(rec) == 1 && rec[0] == "" {
		return append(b, '"', '"', '\r', '\n')
	}
	for i, v := range rec {
		if i > 0 {
			b = append(b, ',')
		}
		if !needsQuotes(v) {
			b = append(b, v...)
			continue
		}
		b = append(b, '"')
		for j := 0; j < len(v); j++ {
			if v[j] == '"' {
				b = append(b, '"')
			}
			b = append(b, v[j])
		}
		b = append(b, '"')
	}
	return append(b, '\r', '\n')
}

func needsQuotes(v string) bool {
	if v == "" {
		return false
	}
	if v[0] == ' ' || v[0] == '\t' {
		return true
	}
	// A table, not strings.ContainsAny (which builds its set of bytes at
	// every call) nor a switch: the prepared copy of a 50 MB list looks at
	// every byte of it here.
	for i := 0; i < len(v); i++ {
		if quoted[v[i]] {
			return true
		}
	}
	return false
}

// quoted are the bytes that make a value need quotes anywhere in it.
var quoted = [256]bool{',': true, '"': true, '\r': true, '\n': true}
