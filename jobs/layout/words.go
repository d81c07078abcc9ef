package layout

import (
	"slices"
	"strings"
)

// Words for what a result says, as a person reads them: the window's
// people view and its exports, and the library's hits, share them. A
// phone's state is read from its Block alone (Judge decides it): a phone
// no scrub answered is "not scrubbed", never "OK to call".

// Tone is how a phone's state reads.
type Tone int

// Tones, from quiet to a refusal.
const (
	ToneQuiet   Tone = iota // not known: no scrub answered
	ToneGood                // may be called
	ToneCaution             // not known well enough to call (an answer missing, old or unsure)
	ToneStop                // may not be called
)

// StateWords says whether p may be called, or why not: "OK to call",
// "invalid number", "on your do-not-call list", "not scrubbed", or the
// lists and reasons its Block names.
func (p *Phone) StateWords() (string, Tone) {
	scrubbed := p.Flags.Has.AnswersRegistry() || p.Flags.Has.AnswersLitigator() || p.Flags.Has.AnswersState()
	switch {
	case p.Callable():
		return "OK to call", ToneGood
	case p.Block&BlockInvalid != 0:
		return "invalid number", ToneStop
	case p.Block&BlockCompany != 0:
		return "on your do-not-call list", ToneStop
	case !scrubbed:
		return "not scrubbed", ToneQuiet
	case p.Block&^(UnknownBlocks|DateBlocks|BlockUnsure) == 0:
		return p.Block.String(), ToneCaution
	}
	return p.Block.String(), ToneStop
}

// TypeWords is a phone type as a person reads it: "Mobile", "VoIP", "" when
// not known.
func TypeWords(t PhoneType) string {
	switch t {
	case VoIP:
		return "VoIP"
	case "":
		return ""
	}
	return strings.ToUpper(string(t[:1])) + string(t[1:])
}

// MatchWords is whether the service found the owner: "Found", "Not found",
// "" when the file does not say.
func MatchWords(m Match) string {
	switch m {
	case Matched:
		return "Found"
	case NotMatched:
		return "Not found"
	}
	return ""
}

// Names are the row's people, each once ("Ann Lee; Bo Lee"): an owner the
// file also names as a contact is named once.
func Names(row *Row) string {
	var names []string
	for _, n := range row.People {
		s := n.String()
		if s != "" && !slices.ContainsFunc(names, func(x string) bool { return strings.EqualFold(x, s) }) {
			names = append(names, s)
		}
	}
	return strings.Join(names, "; ")
}
