package resultgen

import "strings"

// KnownLeaks are the leaks the result reader was known to have when the
// generator last ran against it, each a beginning of a Leak.Class: a kind
// of reason and the list it is about ("flagged / dma"), whatever the
// mechanism after it. The invariant tests skip, saying so, while every
// leak they find is known, and fail on any other. Take an entry off once
// the reader no longer leaks it; with none left the tests pass or fail
// outright.
var KnownLeaks = []string{
	"a mobile kept though mobiles are left out",
	"a restriction stated in the file",
	"answer unknown / DNC registry",
	"answer unknown / dma",
	"answer unknown / litigator",
	"answer unknown / state list",
	"answer unknown / vendor's internal list",
	"flagged / DNC registry",
	"flagged / dma",
	"flagged / litigator",
	"flagged / vendor's internal list",
	"invalid number",
	"number only in free text",
	"on the company's list",
	"row not checked (scope column) / DNC registry",
	"row not checked (scope column) / dma",
	"row not checked (scope column) / state list",
	"row not checked (scope column) / vendor's internal list",
	"scrub date in the future / DNC registry",
	"scrub date in the future / dma",
	"scrub date in the future / litigator",
	"scrub date in the future / vendor's internal list",
	"scrub date unknown / dma",
	"stale scrub (over 31 days) / DNC registry",
	"stale scrub (over 31 days) / dma",
	"stale scrub (over 31 days) / litigator",
	"stale scrub (over 31 days) / state list",
	"stale scrub (over 31 days) / vendor's internal list",
}

// Known reports whether a leak of class is known.
func Known(class string) bool {
	for _, k := range KnownLeaks {
		if strings.HasPrefix(class, k) {
			return true
		}
	}
	return false
}
