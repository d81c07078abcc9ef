package resultgen

import (
	"fmt"
	"slices"
	"strings"
)

// Judging an export: which numbers it wrote that it must not have.

// Leak is a number a callable export wrote that may not be called.
type Leak struct {
	Number string
	Class  string
	// Truth is the number's truth; nil when it is in no input file.
	Truth *Truth
}

func (l Leak) String() string {
	if l.Truth == nil {
		return fmt.Sprintf("%s: %s", l.Number, l.Class)
	}
	var rs []string
	for _, r := range l.Truth.Reasons {
		rs = append(rs, r.String())
	}
	return fmt.Sprintf("%s (type %s): %s", l.Number, l.Truth.Type, strings.Join(rs, "; "))
}

// Leak classes that are not reasons of the truth.
const (
	ClassNoInput     = "a number in no input file"
	ClassNotExported = "a number of a DNC result that is not in the exported file"
	ClassMobile      = "a mobile kept though mobiles are left out"
	ClassTypeUnknown = "a phone of unknown line type kept though mobiles are left out"
)

// Leaks are the numbers of written that may not be on a callable list:
// not callable by truth, in no input, not a phone of the exported file,
// or, with leaveOutMobiles, not known to be other than a mobile.
func Leaks(truth map[string]*Truth, written []string, leaveOutMobiles bool) []Leak {
	var out []Leak
	for _, n := range written {
		t := truth[n]
		switch {
		case t == nil:
			out = append(out, Leak{n, ClassNoInput, nil})
		case !t.Callable:
			out = append(out, Leak{n, t.Reasons[0].Class(), t})
		case !t.Exported:
			out = append(out, Leak{n, ClassNotExported, t})
		case leaveOutMobiles && t.Type == TypeMobile:
			out = append(out, Leak{n, ClassMobile, t})
		case leaveOutMobiles && !t.NotMobile():
			out = append(out, Leak{n, ClassTypeUnknown, t})
		}
	}
	return out
}

// Stats count what a case holds.
type Stats struct {
	// Phones are the distinct numbers of the exported file; Callable
	// those truly callable; NotMobile those callable and known not to be
	// mobiles.
	Phones, Callable, NotMobile int
}

// Count counts the exported file's numbers by their truth.
func Count(truth map[string]*Truth) Stats {
	var s Stats
	for _, t := range truth {
		if !t.Exported {
			continue
		}
		s.Phones++
		if t.Callable {
			s.Callable++
			if t.NotMobile() {
				s.NotMobile++
			}
		}
	}
	return s
}

// ClassesOf are the distinct classes of leaks, sorted.
func ClassesOf(leaks []Leak) []string {
	var out []string
	for _, l := range leaks {
		if !slices.Contains(out, l.Class) {
			out = append(out, l.Class)
		}
	}
	slices.Sort(out)
	return out
}
