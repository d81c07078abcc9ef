package layout

import (
	"strings"
	"unicode"
)

// Restrictions stated in words. Any column whose values say a phone or its
// owner must not be called — a CRM's status, a tag, a dialer's disposition,
// notes, a reason — is read as a restriction source, whatever its header
// calls it: a value that mentions a restriction makes the phone flagged, or
// unknown when it also holds a negation ("not DNC", "DNC: no", "cleared
// from the litigator list"), never clean. A value that mentions none states
// no restriction.

// restrictTerms are the words and phrases that state a restriction, as
// written in CRM statuses and tags (GoHighLevel, Podio, REsimpli), dialer
// dispositions (Mojo, CallTools, ReadyMode), SMS replies (the FCC's opt-out
// words), scrub services' reasons and litigator services' categories
// (complainers, trolls), and a person who complained or threatened to go
// to the regulators. Each is a run of words as textWords
// splits them ("don't" is "don t").
var restrictTerms = [][]string{
	{"dnc"}, {"do", "not", "call"}, {"don", "t", "call"}, {"dont", "call"}, {"no", "call"}, {"no", "calls"},
	{"do", "not", "contact"}, {"do", "not", "text"}, {"do", "not", "disturb"}, {"dnd"}, {"donotcall"},
	{"litigator"}, {"litigators"}, {"litigation"}, {"litigious"}, {"tcpa"}, {"attorney"}, {"lawyer"},
	{"lawsuit"}, {"sued"}, {"plaintiff"}, {"blacklist"}, {"blacklisted"},
	{"opt", "out"}, {"opted", "out"}, {"optout"}, {"optedout"}, {"opt", "outs"}, {"unsubscribe"},
	{"unsubscribed"}, {"stop"}, {"stopped"}, {"revoke"}, {"revoked"}, {"remove"}, {"removed"}, {"restricted"},
	{"restriction"}, {"prohibited"}, {"suppressed"}, {"suppress"}, {"do", "not", "dial"}, {"not", "callable"},
	{"non", "callable"}, {"uncallable"}, {"not", "dialable"}, {"undialable"},
	{"wrong"}, {"wrong", "number"}, {"wrong", "num"}, {"wrong", "no"}, {"wrong", "person"}, {"wrong", "party"},
	{"no", "llamar"}, {"equivocado"}, {"número", "equivocado"}, {"numero", "equivocado"}, {"litigante"}, {"abogado"},
	{"demanda"}, {"baja"}, {"desconectado"},
	{"disconnected"}, {"disconnect"}, {"dead"}, {"deceased"}, {"blocked"}, {"block"}, {"invalid"},
	{"bad", "number"}, {"not", "in", "service"}, {"out", "of", "service"}, {"complaint"}, {"harassment"},
	{"registry"}, {"listed"}, {"registered"}, {"flagged"}, {"on", "dnc"},
	{"cease"}, {"desist"}, {"suing"}, {"no", "solicitation"}, {"no", "soliciting"}, {"no", "solicit"},
	{"complainer"}, {"complainers"}, {"complainant"}, {"complained"}, {"complaints"}, {"troll"}, {"trolls"},
	{"litigant"}, {"litigants"}, {"fcc"}, {"ftc"}, {"harassed"}, {"harassing"}, {"threatened"},
	// Written short, with dots or run together; a removal asked for.
	{"d", "n", "c"}, {"dncl"}, {"nocall"}, {"nocalls"}, {"removal"}, {"no", "contact", "requested"},
	{"requested", "no", "contact"}, {"do", "not", "txt"}, {"dont", "txt"}, {"don", "t", "txt"}, {"blocking"},
	{"lose", "this", "number"}, {"lose", "my", "number"},
	// Refusals in a CRM's or an agent's words.
	{"do", "not", "solicit"}, {"never", "call"}, {"never", "contact"}, {"never", "text"}, {"don", "t", "contact"},
	{"dont", "contact"}, {"don", "t", "text"}, {"dont", "text"}, {"take", "off"}, {"take", "me", "off"},
	{"no", "more", "calls"}, {"no", "more", "texts"}, {"no", "more", "contact"}, {"no", "texts"}, {"no", "text"},
	{"unsub"}, {"leave", "me", "alone"}, {"no", "further", "contact"}, {"not", "to", "be", "called"},
	{"not", "to", "be", "contacted"}, {"represented", "by", "counsel"}, {"hostile"}, {"quit"},
	// Marketing and consent withdrawn, suppression, spam reports, bans.
	{"do", "not", "market"}, {"dnm"}, {"no", "marketing"}, {"suppression"}, {"excluded"}, {"do", "not", "use"},
	{"no", "consent"}, {"withdrew", "consent"}, {"consent", "withdrawn"}, {"withdrawn", "consent"},
	{"reported", "as", "spam"}, {"marked", "as", "spam"}, {"spam", "complaint"}, {"legal", "hold"},
	{"scrubbed", "out"}, {"black", "list"}, {"blocklist"}, {"blocklisted"}, {"banned"}, {"no", "callbacks"},
	// Spanish (and a few words of other languages owners write in).
	{"no", "contactar"}, {"no", "molestar"}, {"no", "llame"}, {"no", "llamen"}, {"no", "me", "llame"},
	{"no", "me", "llamen"}, {"no", "me", "llames"}, {"no", "quiere", "llamadas"}, {"no", "enviar"}, {"no", "textos"},
	{"no", "mensajes"}, {"borrar"}, {"quitar", "de", "la", "lista"}, {"lista", "negra"}, {"não", "ligar"},
	{"nao", "ligar"}, {"ne", "pas", "appeler"}, {"nicht", "anrufen"},
	// A number reassigned to someone else (the FCC's database); a trap set
	// for callers.
	{"reassigned"}, {"rnd"}, {"honeypot"}, {"spam", "trap"},
}

// negations turn a mention into an unclear statement.
var negations = set("not", "no", "non", "never", "isn", "isnt", "wasn", "wasnt", "cleared", "clear", "clean",
	"false", "n", "off", "none", "un", "negative")

// textWords splits v into lower-case words and numbers (dst reused) and
// reports whether they mention a restriction. An underscore joins: an
// identifier such as "dnc_7f3k2" is one word, not a mention.
func textWords(dst []string, v string) ([]string, bool) {
	dst = dst[:0]
	start := -1
	for i, r := range v {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
		switch {
		case alnum && start < 0:
			start = i
		case !alnum && start >= 0:
			dst = append(dst, strings.ToLower(v[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		dst = append(dst, strings.ToLower(v[start:]))
	}
	return dst, findTerm(dst, 0) >= 0
}

// termStarts are the first words of the restriction terms; termsFrom the
// terms by their first word.
var termStarts, termsFrom = func() (map[string]bool, map[string][][]string) {
	m, by := map[string]bool{}, map[string][][]string{}
	for _, t := range restrictTerms {
		m[t[0]] = true
		by[t[0]] = append(by[t[0]], t)
	}
	return m, by
}()

// mayMention is a fast look at v: false when no word of it begins a
// restriction term (most values: numbers, dates, names), without
// allocating; true when textWords must look closer.
func mayMention(v string) bool {
	var buf [24]byte
	n := 0
	check := func() bool {
		ok := n > 0 && n <= len(buf) && termStarts[string(buf[:n])]
		n = 0
		return ok
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 0x80:
			return true // not ASCII: the careful reading
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
			fallthrough
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			if n < len(buf) {
				buf[n] = c
			}
			n++
		default:
			if check() {
				return true
			}
		}
	}
	return check()
}

// findTerm is the index in ws (from `from`) where a restriction term
// starts, or -1; with the term's length in words via termAt.
func findTerm(ws []string, from int) int {
	for i := from; i < len(ws); i++ {
		if termAt(ws, i) > 0 {
			return i
		}
	}
	return -1
}

// termAt is the length in words of the restriction term at ws[i], 0 for
// none (the longest wins).
func termAt(ws []string, i int) int {
	best := 0
	for _, t := range termsFrom[ws[i]] {
		if len(t) > best && i+len(t) <= len(ws) && equalWords(ws[i:i+len(t)], t) {
			best = len(t)
		}
	}
	return best
}

// readText reads a value of a restriction source: flagged when it mentions
// a restriction, unknown when it mentions one with a negation or says it is
// not known, clean when it states none.
func readText(v string) valueReading {
	if blank(v) {
		return valueReading{flag: Clean, known: true, meaning: "no restriction stated"}
	}
	if f := fold(v); unknown[f] {
		return valueReading{known: true}
	} else if truthy[f] || f == "x" {
		// "Yes" in a column that elsewhere states restrictions says one
		// holds without naming it (a DNC column whose header was lost, a
		// "Status: Yes"): never clean.
		return valueReading{known: true, meaning: "says yes without naming what: not clear"}
	}
	ws, terms := textWords(nil, v)
	if !terms {
		return valueReading{flag: Clean, known: true, meaning: "no restriction stated"}
	}
	for i := 0; i < len(ws); {
		if n := termAt(ws, i); n > 0 {
			i += n
			continue
		}
		if negations[ws[i]] {
			return valueReading{known: true, meaning: "mentions a restriction with a negation: not clear"}
		}
		i++
	}
	return valueReading{flag: Flagged, known: true, meaning: "states a restriction"}
}

// StatesRestriction reads v as a status, tag, disposition or note of a
// result is read (readText): stated when it mentions a restriction ("DNC",
// "Litigious", "Opted Out"), unclear when it does so with a negation ("not
// DNC") or says yes without naming what. A dialer's dispositions exported
// on their own are read by the same words (package optout).
func StatesRestriction(v string) (stated, unclear bool) {
	r := readText(v)
	return r.flag == Flagged, r.known && r.flag == Unknown && !blank(v)
}

// readReason reads a value of a column of reasons: flagged when it states
// one in words (a word of three letters or more), clean when it is blank, a
// bare code (";;;W") or a word that says clean ("Clean", "Not listed").
func readReason(v string) valueReading {
	if r := readText(v); r.flag != Clean {
		return r
	}
	if cleanWords[fold(v)] {
		return valueReading{flag: Clean, known: true, meaning: "no reason stated"} // "Clean", "Not listed"
	}
	ws, _ := textWords(nil, v)
	for _, w := range ws {
		if len(w) >= 3 && !unicode.IsDigit(rune(w[0])) {
			return valueReading{flag: Flagged, known: true, meaning: "a reason stated"}
		}
	}
	return valueReading{flag: Clean, known: true, meaning: "no reason stated"}
}

// mentionsRestriction reports whether any of a column's values mentions a
// restriction.
func mentionsRestriction(vals []ValueN) bool {
	var ws []string
	for _, v := range vals {
		var terms bool
		if ws, terms = textWords(ws, v.V); terms {
			return true
		}
	}
	return false
}
