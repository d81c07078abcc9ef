// Package optout reads the opt-outs people made where SkipDesk does not see
// them: the replies an SMS tool exports and the dispositions a dialer
// exports (a number, the reply or disposition, and its date), and the call
// logs that count calls per number. A reply a person would read as "stop"
// is an opt-out; one that may be is kept too, marked for a person to read
// (fail closed). The deadlines come from the rules table (package
// calltime): honour within 10 business days, and keep as long as the
// strictest state asks.
package optout

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/skipdesk/skipdesk/jobs/layout"
)

// Class is how a reply or disposition reads.
type Class int

// Classes, from weakest to strongest.
const (
	None  Class = iota // not an opt-out ("yes", "how much?", "no answer")
	Maybe              // could be read as stop ("not interested", "wrong number"): kept, for a person to read
	Stop               // an opt-out
)

func (c Class) String() string {
	return [...]string{"not an opt-out", "may be an opt-out", "opt-out"}[c]
}

// stopPhrases say stop wherever they stand in a reply.
var stopPhrases = []string{
	"opt out", "optout", "opt-out", "unsubscribe", "unsub", "revoke", "stopall", "stop all", "remove me",
	"take me off", "delete my number", "lose my number", "do not text", "dont text", "don't text",
	"do not call", "dont call", "don't call", "no more texts", "no more calls", "leave me alone",
	"stop texting", "stop calling", "stop messaging", "dnc", "no mas", "no más", "s t o p",
	// Spanish: don't call, write or send me; leave me alone; take me off.
	"no me llames", "no me llame", "no me llamen", "no me escribas", "no me escriba", "no me escriban",
	"no me mandes", "no me mande", "no me contactes", "no me contacte", "no me molestes", "no me moleste",
	"dejame en paz", "déjame en paz", "no molestar", "borra mi numero", "borra mi número", "borren mi numero",
	"borren mi número", "quitame de la lista", "quítame de la lista", "sacame de la lista", "sácame de la lista",
	"darme de baja", "dar de baja",
	// Losing or blocking the number; a do-not-call list's name.
	"lose this number", "lose my info", "blocking you", "blocked you", "block you", "block your number",
	"blocking your number", "i'm blocking", "dncl",
}

// refusalRE finds a refusal said in words of one's own (a revocation "by
// any reasonable means", 47 CFR § 64.1200(a)(10)): a negation, at most two
// words, a way of reaching the person ("please don't contact me again",
// "never message this number", "asked not to call"); or a demand to be
// taken off ("remove my number", "delete this number from your list").
// Read too widely ("don't call before 5"), it keeps a number from being
// called: the safe side.
var refusalRE = regexp.MustCompile(`(^| )(don't|dont|do not|never|no more|not to|stop|quit|cease)( [a-z']+){0,2} ` +
	`(call|calls|called|calling|ring|text|texts|texted|texting|contact|contacted|contacting|message|messages|messaged|` +
	`messaging|msg|sms|txt|txts|txting|dial|dialing|reach|reached|bother|bothering|email|emails|emailed|emailing|mail|send|sending)( |$)|` +
	`(^| )(remove|delete|erase|lose)( [a-z']+){0,2} (number|numbers|me|info|information|details|data|contact)( |$)|` +
	`(^| )off (your|the|ur) (list|lists|database)( |$)`)

// saysStop reports a stop phrase or a refusal in t (normalised), with the
// words that decided.
func saysStop(t string, phrases []string) (string, bool) {
	if p, ok := findPhrase(t, phrases); ok {
		return p, true
	}
	if m := refusalRE.FindString(t); m != "" {
		return strings.TrimSpace(m), true
	}
	return "", false
}

// stopKeywords are the words the FCC names (47 CFR § 64.1200(a)(12)) and
// their kin: a reply of a few words, or one opening with them, is a stop;
// inside a longer message ("stop by on Friday") they may be one.
var stopKeywords = []string{
	"stop", "quit", "end", "cancel", "remove", "alto", "parar", "para", "basta", "detener", "cancelar",
	"stp", "stopp", "stahp", "rmv", "baja", "unsubscribed", "no more", "block", "blocked",
}

// shortReply is the most words a reply may have for a keyword anywhere in
// it to count as a stop.
const shortReply = 3

// maybeWords read as a refusal a person should look at.
var maybeWords = []string{
	"not interested", "no thanks", "no thank you", "wrong number", "wrong person", "not me",
	"not selling", "never", "go away", "harassment", "harassing", "lawyer", "attorney", "sue", "report you",
	"scam", "f off", "fuck off", "fuck", "stfu", "not for sale", "no solicitors", "no solicitation",
	"reported you", "reporting you", "ftc", "fcc", "attorney general", "cease and desist", "spam", "spammer",
	"no gracias", "reported", "deceased", "passed away", "died", "enough",
}

// stopDispositions are the dispositions that mean do not call again.
var stopDispositions = []string{
	"dnc", "do not call", "do-not-call", "donotcall", "internal dnc", "dnc request", "remove", "removed",
	"opt out", "opted out", "optout", "opt-out", "opted-out", "stop", "revoked", "litigator", "attorney", "lawyer",
	"legal threat", "never call", "take off list", "unsubscribed", "cease and desist", "requested no contact", "threatened to sue",
	"dncl", "nocall", "no call", "no calls", "do not dial", "removal", "no contact requested",
}

var maybeDispositions = []string{
	"not interested", "wrong number", "wrong party", "hostile", "angry", "rude", "hung up angry",
	"disconnected", "bad number", "deceased", "not owner", "sue", "complaint", "complained", "threat",
	"threatening", "harassment", "legal", "police",
}

// ClassifyReply reads an SMS reply: the class and the words that decided.
func ClassifyReply(text string) (Class, string) {
	t := normalise(text)
	if w, ok := findPhrase(t, stopKeywords); ok {
		words := strings.Fields(t)
		if len(words) <= shortReply || words[0] == w {
			return Stop, w
		}
		if p, ok := saysStop(t, stopPhrases); ok {
			return Stop, p
		}
		return Maybe, w
	}
	return classify(text, stopPhrases, maybeWords)
}

// ClassifyDisposition reads a dialer's disposition: its own words (a stop,
// or one a person should read), then the words that make a result's
// disposition column state a restriction
// (layout.StatesRestriction: "Litigious", "TCPA", "Blocked"), so that the
// two never disagree.
func ClassifyDisposition(text string) (Class, string) {
	c, w := classify(text, stopDispositions, maybeDispositions)
	if c != None {
		return c, w
	}
	switch stated, unclear := layout.StatesRestriction(text); {
	case stated:
		return Stop, strings.TrimSpace(text)
	case unclear:
		return Maybe, strings.TrimSpace(text)
	}
	return c, w
}

func classify(text string, stop, maybe []string) (Class, string) {
	if onlySymbols(text, "🛑✋⛔🚫") {
		return Stop, strings.TrimSpace(text)
	}
	t := normalise(text)
	if w, ok := saysStop(t, stop); ok {
		return Stop, w
	}
	if w, ok := findPhrase(t, maybe); ok {
		return Maybe, w
	}
	return None, ""
}

var spaceRE = regexp.MustCompile(`\s+`)

// letterDigitRE finds a word run into a number.
var letterDigitRE = regexp.MustCompile(`([A-Za-z])([0-9])`)

// abbrRE finds letters written with dots ("D.N.C."), read as the word.
var abbrRE = regexp.MustCompile(`\b(?:[A-Za-z]\.)+[A-Za-z]\b\.?`)

// normalise lower-cases, reads "D.N.C." as "dnc" and "#" as "number" ("wrong #"), turns
// punctuation other than apostrophes and hyphens into spaces and collapses
// spaces: " STOP!!! " is "stop".
func normalise(s string) string {
	s = abbrRE.ReplaceAllStringFunc(s, func(a string) string { return strings.ReplaceAll(a, ".", "") })
	s = letterDigitRE.ReplaceAllString(s, "$1 $2") // "STOP2" is "STOP 2"
	s = strings.ReplaceAll(s, "#", " number ")
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '-' || r == '’':
			if r == '’' {
				return '\''
			}
			return unicode.ToLower(r)
		}
		return ' '
	}, s)
	return strings.TrimSpace(spaceRE.ReplaceAllString(s, " "))
}

// findPhrase finds the first phrase present as whole words.
func findPhrase(t string, phrases []string) (string, bool) {
	padded := " " + t + " "
	for _, p := range phrases {
		if strings.Contains(padded, " "+p+" ") {
			return p, true
		}
	}
	return "", false
}

func onlySymbols(s, set string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune(set, r) && !unicode.IsSpace(r) && r != '\ufe0f' {
			return false
		}
	}
	return true
}
