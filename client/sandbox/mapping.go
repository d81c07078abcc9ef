package sandbox

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

var (
	nameKeys     = []string{"first_name", "last_name"}
	propertyKeys = []string{"property_street", "property_city", "property_state", "property_zip"}
	mailingKeys  = []string{"mailing_street", "mailing_city", "mailing_state", "mailing_zip"}
	allKeys      = append(append(append([]string{}, nameKeys...), propertyKeys...), mailingKeys...)
)

// validateMapping checks a trace column mapping against the CSV headers and
// returns every problem at once (the five cases of the spec), in this order:
// unknown keys, missing names, incomplete groups, no complete group, columns
// absent from the CSV.
func validateMapping(mode string, m map[string]string, headers []string) []string {
	var out []string
	valid := map[string]bool{}
	for _, k := range allKeys {
		valid[k] = true
	}
	keys := slices.Sorted(maps.Keys(m))

	for _, k := range keys {
		if !valid[k] {
			out = append(out, fmt.Sprintf("unknown key %q in column_mapping; did you mean %q?", k, closestKey(k)))
		}
	}
	if mode == "normal" {
		var missing []string
		for _, k := range nameKeys {
			if _, ok := m[k]; !ok {
				missing = append(missing, k)
			}
		}
		if len(missing) > 0 {
			out = append(out, fmt.Sprintf("normal mode requires first_name and last_name to be mapped; missing: %s", strings.Join(missing, ", ")))
		}
	}
	complete := 0
	for _, g := range []struct {
		name string
		keys []string
	}{{"property", propertyKeys}, {"mailing", mailingKeys}} {
		var mapped, missing []string
		for _, k := range g.keys {
			if _, ok := m[k]; ok {
				mapped = append(mapped, k)
			} else {
				missing = append(missing, k)
			}
		}
		switch {
		case len(missing) == 0:
			complete++
		case len(mapped) > 0:
			out = append(out, fmt.Sprintf("the %s address group is all-or-nothing: mapped %s; missing %s",
				g.name, strings.Join(mapped, ", "), strings.Join(missing, ", ")))
		}
	}
	if complete == 0 {
		out = append(out, "at least one complete address group must be mapped: property ("+
			strings.Join(propertyKeys, ", ")+") or mailing ("+strings.Join(mailingKeys, ", ")+")")
	}
	have := map[string]bool{}
	for _, h := range headers {
		have[h] = true
	}
	for _, k := range keys {
		if v := m[k]; valid[k] && !have[v] {
			out = append(out, fmt.Sprintf("column %q (mapped to %s) is not in the CSV; available headers: %s", v, k, quoteList(headers)))
		}
	}
	return out
}

// quoteList quotes the headers, at most 50 of them.
func quoteList(hs []string) string {
	const most = 50
	q := make([]string, 0, min(len(hs), most)+1)
	for i, h := range hs {
		if i == most {
			q = append(q, fmt.Sprintf("… and %d more", len(hs)-most))
			break
		}
		q = append(q, fmt.Sprintf("%q", h))
	}
	if len(q) == 0 {
		return "(none)"
	}
	return strings.Join(q, ", ")
}

// closestKey is the valid key at the smallest edit distance from k
// (case-insensitive; ties go to the earlier key in the spec's order).
func closestKey(k string) string {
	best, bestD := allKeys[0], -1
	lk := strings.ToLower(k)
	for _, v := range allKeys {
		d := editDistance(lk, v)
		if bestD < 0 || d < bestD {
			best, bestD = v, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance over runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
