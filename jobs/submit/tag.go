package submit

import (
	"crypto/rand"
	"path/filepath"
	"regexp"
	"strings"
)

// A submission is made recognisable on the server by a short tag in the
// name of the uploaded file, which the job's name echoes (spec: name is the
// job's label; the sandbox names a job after the uploaded file):
// "owners.csv" is sent as "owners [sd-7f3k2].csv". The tag is recorded with
// the intent, before anything is sent, and Reconcile adopts only a job
// whose name carries it: another computer's upload of the same file (same
// name, same rows, different tag or none) is never taken for ours.

// tagAlphabet has no 0/o, 1/l/i: a tag is read aloud or typed.
const tagAlphabet = "23456789abcdefghjkmnpqrstuvwxyz"

// tagPattern finds a tag as TagName writes it, or as a server that tidies
// names might leave it (another case, no brackets, an underscore).
var tagPattern = regexp.MustCompile(`(?i)\[?\bsd[-_ ]?[2-9a-z]{5}\b\]?`)

// NewTag returns a new tag, "sd-" and five characters.
func NewTag() string {
	b := make([]byte, 5)
	rand.Read(b)
	for i := range b {
		b[i] = tagAlphabet[int(b[i])%len(tagAlphabet)]
	}
	return "sd-" + string(b)
}

// TagName puts tag in a file name, before its extension: "owners.csv" →
// "owners [sd-7f3k2].csv". A tag already in the name is replaced.
func TagName(name, tag string) string {
	base, _ := Untag(name)
	ext := filepath.Ext(base)
	if len(ext) > 6 || strings.ContainsAny(ext, " []") {
		ext = ""
	}
	stem := strings.TrimSpace(strings.TrimSuffix(base, ext))
	if stem == "" {
		stem = "upload"
	}
	return stem + " [" + tag + "]" + ext
}

// Untag splits a name into the person's file name and the tag in it (""
// when none): "owners [sd-7f3k2].csv" → "owners.csv", "sd-7f3k2".
func Untag(name string) (base, tag string) {
	loc := tagPattern.FindStringIndex(name)
	if loc == nil {
		return name, ""
	}
	t := strings.Trim(name[loc[0]:loc[1]], "[]")
	tag = "sd-" + strings.ToLower(t[len(t)-5:])
	base = strings.TrimRight(name[:loc[0]], " _-") + name[loc[1]:]
	return strings.TrimSpace(base), tag
}

// PlainName is a job's or a file's name as the person named it: without
// the submission's tag, which stays in the uploaded file's name only.
func PlainName(name string) string {
	base, _ := Untag(name)
	return base
}

// carriesTag reports whether a job's name holds tag, compared by letters
// and digits only, so that a server that tidies names (spaces, brackets,
// case) still shows it.
func carriesTag(jobName, tag string) bool {
	return tag != "" && strings.Contains(nameKey(jobName), nameKey(tag))
}
