package workflow

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// explainCallable words the refusals of a callable list: columns SkipDesk
// is not sure how to read, and a list that would hold no phone.
func explainCallable(err error, _ string) (Problem, bool) {
	var open *QuestionError
	var none *NothingCallableError
	switch {
	case errors.As(err, &open):
		var lines []string
		for _, f := range open.Files {
			for _, q := range f.Questions {
				lines = append(lines, filepath.Base(f.File)+": "+q.Message)
			}
		}
		return Problem{Title: "Not sure how to read some columns",
			What: "The callable list depends on columns SkipDesk is not sure how to read, so nothing was written. " +
				strings.Join(lines, "; ") + ".",
			Do: "Say what they mean in Check the columns (the answer is kept for every file with these columns), or export again leaving out the phones they decide."}, true
	case errors.As(err, &none):
		return Problem{Title: "No phone to call",
			What: fmt.Sprintf("%s.", capitalise(none.Error())),
			Do:   "Scrub the phones (or scrub them again if the scrub is too old), then export the callable list again."}, true
	}
	return Problem{}, false
}
