package layout

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs"
)

// class is what a word of a header name says about its column.
type class uint8

const (
	cNone       class = iota // a word with no meaning here (kept as a qualifier)
	cPhone                   // phone, telephone, tel
	cTypeWord                // mobile, cell, wireless, landline, home, voip, work: a kind of phone
	cType                    // type, kind: the column holds a phone's kind
	cDNC                     // dnc, do not call
	cFederal                 // federal, national
	cState                   // state: an address part, or with dnc the state list
	cLitigator               // litigator, tcpa, blacklist
	cInternal                // internal, project, company (with dnc: the caller's own list)
	cCallable                // callable, ok to call: a verdict whose "yes" means clean
	cCode                    // code, result, status, disposition: a verdict column
	cMatch                   // match, matched, hit, found
	cFirst                   // first name
	cLast                    // last name, surname
	cMiddle                  // middle name
	cName                    // name, full name
	cGroup                   // owner, contact, person: whose phones and names
	cEmail                   // email
	cStreet                  // street, address line
	cAddress                 // address
	cCity                    // city
	cZip                     // zip, postal code
	cFull                    // full (a whole address on one line)
	cProperty                // property, site, situs: the property address
	cMailing                 // mailing: the owner's mailing address
	cEntity                  // entity, corporate: a company owner
	cNormalized              // normalized, formatted, e164: a cleaned copy of a phone
	cValid                   // valid, connected, active: the number's own status
	cInvalid                 // invalid, disconnected
	cNotFlag                 // date, score, count, reason...: about a flag, not the flag
	cInput                   // input, original: the person's own data echoed
	cResult                  // result: the provider's column (result_phone_1)
	cNot                     // not, non: negates a flag
	cPrimary                 // primary, main, best
	cAlt                     // alternate, other, additional, secondary
	cIndustry                // dma, industry: a list that is not a registry
	cRestrict                // do not disturb, opted out, unsubscribed: a restriction the CRM keeps
	cPass                    // clean, clear, safe, passed: with a list, its "yes" means not on it
)

// words gives the class of a lower-case header word. Words not listed are
// cNone; filler words are dropped before this table is read.
var words = map[string]class{
	"phone": cPhone, "phones": cPhone, "telephone": cPhone, "tel": cPhone, "ph": cPhone, "phn": cPhone,
	"phonenumber": cPhone, "telno": cPhone, "telefono": cPhone, "teléfono": cPhone, "numero": cPhone,
	"número": cPhone,

	"mobile": cTypeWord, "cell": cTypeWord, "cellular": cTypeWord, "cellphone": cTypeWord, "wireless": cTypeWord,
	"mob": cTypeWord, "movil": cTypeWord, "móvil": cTypeWord, "celular": cTypeWord, "fijo": cTypeWord,
	"landline": cTypeWord, "residential": cTypeWord, "home": cTypeWord, "house": cTypeWord,
	"wireline": cTypeWord, "voip": cTypeWord, "work": cTypeWord, "business": cTypeWord, "office": cTypeWord,

	"type": cType, "kind": cType, "linetype": cType, "phonetype": cType,

	"dnc": cDNC, "donotcall": cDNC, "dncl": cDNC, "suppression": cDNC, "suppressed": cDNC, "suppress": cDNC,
	"dma": cIndustry, "industry": cIndustry, "dmachoice": cIndustry, "tps": cIndustry,
	"dnd": cRestrict, "optout": cRestrict, "optedout": cRestrict, "unsubscribed": cRestrict, "unsubscribe": cRestrict,
	"federal": cFederal, "national": cFederal, "fed": cFederal, "ftc": cFederal, "natl": cFederal,
	"state":     cState,
	"litigator": cLitigator, "litigators": cLitigator, "litigation": cLitigator, "tcpa": cLitigator,
	"blacklist": cLitigator, "blacklisted": cLitigator, "plaintiff": cLitigator, "litigante": cLitigator,
	"internal": cInternal, "project": cInternal, "company": cInternal, "idnc": cInternal, "vendor": cInternal,
	"client":   cInternal,
	"callable": cCallable, "dialable": cCallable, "okcall": cCallable,
	"code": cCode, "result": cCode, "status": cCode, "disposition": cCode, "verdict": cCode, "outcome": cCode,
	"resultcode": cCode, "scrub": cCode, "estatus": cCode,
	"match": cMatch, "matched": cMatch, "hit": cMatch, "found": cMatch,

	"nombre": cName, "apellido": cLast, "apellidos": cLast, "correo": cEmail,
	"first": cFirst, "fname": cFirst, "firstname": cFirst, "given": cFirst, "forename": cFirst,
	"last": cLast, "lname": cLast, "lastname": cLast, "surname": cLast,
	"middle": cMiddle, "mname": cMiddle, "middlename": cMiddle,
	"name": cName, "fullname": cName,
	"owner": cGroup, "contact": cGroup, "person": cGroup, "propietario": cGroup, "dueño": cGroup, "dueno": cGroup,
	"titular": cGroup, "relative": cGroup, "resident": cGroup,
	"associate": cGroup, "individual": cGroup,
	"email": cEmail, "emails": cEmail, "emailaddress": cEmail,
	"street": cStreet, "line": cStreet, "addr": cAddress, "address": cAddress, "address1": cStreet,
	"city": cCity, "town": cCity,
	"zip": cZip, "zipcode": cZip, "postal": cZip, "postcode": cZip, "zip5": cZip,
	"full":     cFull,
	"property": cProperty, "prop": cProperty, "site": cProperty, "situs": cProperty, "subject": cProperty,
	"physical": cProperty,
	"mailing":  cMailing, "mail": cMailing,
	"entity": cEntity, "corporate": cEntity,
	"normalized": cNormalized, "normalised": cNormalized, "formatted": cNormalized, "e164": cNormalized,
	"standardized": cNormalized, "standardised": cNormalized, "digits": cNormalized,
	"valid": cValid, "connected": cValid, "active": cValid, "reachable": cValid,
	"invalid": cInvalid, "disconnected": cInvalid, "bad": cInvalid,
	"date": cNotFlag, "dated": cNotFlag, "time": cNotFlag, "score": cNotFlag, "count": cNotFlag,
	"reason": cNotFlag, "source": cNotFlag, "scrubbed": cNotFlag, "checked": cNotFlag, "expiry": cNotFlag,
	"expires": cNotFlag, "updated": cNotFlag, "case": cNotFlag, "cases": cNotFlag, "risk": cNotFlag,
	"confidence": cNotFlag, "since": cNotFlag, "seen": cNotFlag, "carrier": cNotFlag, "rank": cNotFlag,
	"total": cNotFlag, "description": cNotFlag, "desc": cNotFlag, "notes": cNotFlag, "note": cNotFlag,
	"processed": cNotFlag, "covered": cNotFlag, "coverage": cNotFlag, "timestamp": cNotFlag, "asof": cNotFlag,
	"fecha": cNotFlag,
	"input": cInput, "original": cInput, "orig": cInput, "uploaded": cInput,
	"not": cNot, "non": cNot,
	"clean": cPass, "clear": cPass, "cleared": cPass, "safe": cPass, "pass": cPass, "passed": cPass,
	"passes": cPass, "free": cPass, "approved": cPass, "eligible": cPass, "allowed": cPass, "permitted": cPass,
	"compliant": cPass, "contactable": cPass, "ok": cPass, "okay": cPass, "good": cPass, "exempt": cPass,
	"primary": cPrimary, "main": cPrimary, "best": cPrimary,
	"alternate": cAlt, "alt": cAlt, "other": cAlt, "additional": cAlt, "secondary": cAlt,
}

// filler words say nothing about a column.
var filler = map[string]bool{
	"is": true, "has": true, "the": true, "of": true, "on": true, "to": true, "a": true, "an": true,
	"flag": true, "flagged": true, "indicator": true, "ind": true, "list": true, "registry": true,
	"registered": true, "number": true, "num": true, "no": true, "nbr": true, "data": true, "y": true,
	"n": true, "yn": true, "or": true, "and": true, "info": true, "value": true, "field": true,
	// How sure or how often, never which way: "Known Litigator", "Serial
	// Litigator", "Possible DNC", "Any DNC" (a list's yes still means on it).
	"known": true, "possible": true, "potential": true, "suspected": true, "serial": true, "confirmed": true,
	"any": true, "all": true,
}

// phrases are runs of words read as one.
var phrases = []struct {
	words []string
	as    string
}{
	{[]string{"do", "not", "call"}, "dnc"},
	{[]string{"dont", "call"}, "dnc"},
	{[]string{"dma", "choice"}, "dma"},
	{[]string{"dm", "achoice"}, "dma"},
	{[]string{"ndnc"}, "national dnc"},
	{[]string{"national", "registry"}, "national dnc"},
	{[]string{"federal", "registry"}, "federal dnc"},
	{[]string{"state", "registry"}, "state dnc"},
	{[]string{"fdnc"}, "federal dnc"},
	{[]string{"sdnc"}, "state dnc"},
	{[]string{"scrubdate"}, "scrub date"},
	{[]string{"scrubbeddate"}, "scrubbed date"},
	{[]string{"checkdate"}, "check date"},
	{[]string{"checkedon"}, "checked on"},
	{[]string{"scrubbedon"}, "scrubbed on"},
	{[]string{"lastchecked"}, "last checked"},
	{[]string{"lastscrubbed"}, "last scrubbed"},
	{[]string{"dncdate"}, "dnc date"},
	{[]string{"do", "not", "disturb"}, "dnd"},
	{[]string{"do", "not", "contact"}, "dnd"},
	{[]string{"do", "not", "text"}, "dnd"},
	{[]string{"do", "not", "email"}, "dnd"},
	{[]string{"opt", "out"}, "optout"},
	{[]string{"opted", "out"}, "optedout"},
	{[]string{"ok", "to", "call"}, "callable"},
	{[]string{"okay", "to", "call"}, "callable"},
	{[]string{"safe", "to", "call"}, "callable"},
	{[]string{"can", "call"}, "callable"},
	{[]string{"e", "mail"}, "email"},
	{[]string{"vo", "ip"}, "voip"},
	{[]string{"land", "line"}, "landline"},
	{[]string{"line", "type"}, "type"},
	{[]string{"zip", "code"}, "zip"},
	{[]string{"post", "code"}, "zip"},
	{[]string{"postal", "code"}, "zip"},
	{[]string{"first", "name"}, "first"},
	{[]string{"given", "name"}, "first"},
	{[]string{"last", "name"}, "last"},
	{[]string{"family", "name"}, "last"},
	{[]string{"middle", "name"}, "middle"},
	{[]string{"full", "name"}, "name"},
	{[]string{"phone", "number"}, "phone"},
	{[]string{"no", "llamar"}, "dnc"},
	{[]string{"registro", "nacional"}, "national dnc"},
	{[]string{"registro", "federal"}, "federal dnc"},
	{[]string{"as", "of"}, "asof"},
	{[]string{"e", "164"}, "e164"},
	{[]string{"in", "house"}, "internal"},
	{[]string{"house", "dnc"}, "internal dnc"},
	{[]string{"house", "list"}, "internal dnc"},
	{[]string{"known", "litigator"}, "litigator"},
	{[]string{"serial", "litigator"}, "litigator"},
	{[]string{"result", "code"}, "resultcode"},
	{[]string{"last", "seen"}, "seen"},
	{[]string{"zip", "4"}, "plus4"},
	{[]string{"zip", "plus", "4"}, "plus4"},
	{[]string{"plus", "4"}, "plus4"},
}

// token is one word or number of a header name.
type token struct {
	word string
	cls  class
	num  int // the value of a number token; -1 for a word
}

// header is a column name read into what it says.
type header struct {
	raw    string
	toks   []token
	has    uint64 // bit c set when a word of class c is present
	input  bool   // "Input Data: …", "Original …": the person's own column
	result bool   // "result_…": the provider's column of that name

	group    string // "owner 1", "contact 2"; "" for the main person
	idx      int    // the number after a phone, kind or e-mail word; -1 none
	line     int    // the number after an address word (address line 2); -1 none
	qual     string // "mobile", "primary"...: what distinguishes a phone slot besides its number
	implied  PhoneType
	unknowns int // words of no class

	dated  bool // a word of a date: date, dated, on, as of, timestamp
	scope  bool // a word of a scrub's coverage: scrubbed, checked, processed, covered, scrub
	source bool // "source" (a merged result's source_date)
	since  bool // a word of a number's entry on a list: registered, added, listed, since
	// aboutNumber: the header speaks of the number itself ("Number
	// Status", "Line Status").
	aboutNumber bool
}

var (
	dateWords  = set("date", "dated", "timestamp", "asof", "fecha", "time", "when", "day", "on")
	sinceWords = set("registered", "registration", "added", "listed", "enrolled", "entered", "since", "registrado")
	scopeWords = set("scrubbed", "checked", "processed", "covered", "coverage", "scrub", "verified", "check", "lookup",
		"verificacion", "verificación", "verificado", "comprobacion", "comprobación", "revisado", "revision", "revisión")
)

func (h *header) is(c class) bool { return h.has&(1<<c) != 0 }

// namesAState reports whether a word of no other meaning is a state's
// postal code ("DNC_FL", "TX DNC"): with a DNC word, that state's list.
func (h *header) namesAState() bool {
	for _, t := range h.toks {
		if t.cls == cNone && t.num < 0 && usStates[t.word] {
			return true
		}
	}
	return false
}

// inverts reports a header whose words turn a list's "yes" into "not on
// it": a negation ("Non-DNC") or a word of passing ("DNC Clear", "Passed
// DNC"), but not both ("DNC Not Clear").
func (h *header) inverts() bool { return h.is(cNot) != h.is(cPass) }

// unclearWords are the words of a header SkipDesk has no meaning for (a
// state's name aside), and "valid"/"invalid" beside a list: in a list's
// column any of them may turn what its "yes" means ("DNC Waived").
func (h *header) unclearWords() []string {
	var ws []string
	for _, t := range h.toks {
		if t.num < 0 && (t.cls == cNone && !usStates[t.word] || t.cls == cValid || t.cls == cInvalid) {
			ws = append(ws, t.word)
		}
	}
	return ws
}

func (h *header) any(cs ...class) bool {
	for _, c := range cs {
		if h.is(c) {
			return true
		}
	}
	return false
}

// readHeader splits a header name into words and numbers (at spaces,
// punctuation, underscores, lower-to-upper case changes and letter-digit
// changes), reads known phrases, drops filler words and classifies the rest.
func readHeader(raw string) header {
	r := headerReader{h: header{raw: raw, idx: -1, line: -1}, last: cNone}
	s := strings.TrimSpace(strings.TrimPrefix(raw, "\ufeff"))
	s, r.h.input = cutInputPrefix(s)
	raws := splitWords(s)
	if len(raws) > 0 && raws[0] == "result" && len(raws) > 1 {
		r.h.result = true
		raws = raws[1:]
	}
	for _, w := range joinPhrases(raws) {
		if n, ok := number(w); ok {
			r.number(w, n)
			continue
		}
		r.word(w)
	}
	return r.finish()
}

// headerReader is readHeader's state while it walks a header's words.
type headerReader struct {
	h         header
	groupWord string
	last      class
	lastWord  string
	// looses: numbers after a word that names neither a person nor a
	// phone ("SUBJECT1_PHONE_2", "propietario_1_tel_2"): the phone's index
	// when no phone word has one, else whose phone it is.
	looses []loose
}

type loose struct {
	word string
	n    int
}

// number reads a number by the word before it: an owner's, a group's, an
// address line's or a phone slot's.
func (r *headerReader) number(w string, n int) {
	h := &r.h
	h.toks = append(h.toks, token{word: w, num: n})
	switch r.last {
	case cGroup:
		if r.groupWord != "" && h.group == "" {
			h.group = r.groupWord + " " + w
		}
	case cFirst, cLast, cMiddle, cName:
		if h.group == "" {
			h.group = "owner " + w
		}
	case cStreet, cAddress, cZip:
		h.line = n
	case cPhone, cTypeWord, cDNC, cFederal, cLitigator, cInternal, cIndustry, cCallable, cEmail, cType, cValid, cInvalid:
		if h.idx < 0 {
			h.idx = n
		}
	default:
		r.looses = append(r.looses, loose{r.lastWord, n})
	}
}

// word notes what a word says of the header (a date, a scope, the number
// itself) and classifies it.
func (r *headerReader) word(w string) {
	h := &r.h
	h.dated = h.dated || dateWords[w]
	h.since = h.since || sinceWords[w]
	h.scope = h.scope || scopeWords[w]
	h.source = h.source || w == "source"
	h.aboutNumber = h.aboutNumber || w == "number" || w == "num" || w == "nbr" || w == "line"
	if filler[w] {
		return
	}
	c := words[w]
	if c == cInput && len(h.toks) == 0 {
		h.input = true
		return
	}
	h.toks = append(h.toks, token{word: w, cls: c, num: -1})
	h.has |= 1 << c
	switch c {
	case cNone:
		h.unknowns++
	case cGroup:
		r.groupWord = canonicalGroup(w)
	case cTypeWord:
		h.implyType(impliedType(w))
	case cPrimary:
		h.qual = "primary"
	case cAlt:
		if h.qual == "" {
			h.qual = "other"
		}
	}
	r.last, r.lastWord = c, w
}

// implyType records the phone type a word names; "Wireless or VoIP" may be
// a mobile, so a mobile among types wins.
func (h *header) implyType(t PhoneType) {
	if h.implied != "" && h.implied != t && (t == Mobile || h.implied == Mobile) {
		h.implied = Mobile
	} else if h.implied == "" || h.implied != Mobile {
		h.implied = t
	}
	h.qual = string(h.implied)
}

// finish places loose numbers, reads a bare "Number" as a phone column and
// names the group.
func (r *headerReader) finish() header {
	h := r.h
	switch {
	case len(r.looses) == 0:
	case h.idx < 0:
		h.idx = r.looses[0].n
	case h.group == "" && r.groupWord == "" && r.looses[0].word != "":
		h.group = r.looses[0].word + " " + strconv.Itoa(r.looses[0].n)
	}
	if h.aboutNumber && len(h.toks) == countNumbers(h.toks) {
		// "Number", "No.": a column of numbers, read as phones when its
		// values are.
		h.toks = append(h.toks, token{word: "number", cls: cPhone, num: -1})
		h.has |= 1 << cPhone
	}
	if r.groupWord != "" && h.group == "" {
		h.group = r.groupWord + " 1"
	}
	if h.group == "owner 1" {
		h.group = "" // the first owner is the row's main person
	}
	return h
}

// cutInputPrefix reads "Input Data: First Name": a prefix before a colon,
// made only of words such as input, original, data and field, marks the
// person's own column. It returns the name after the prefix, or s as it is.
func cutInputPrefix(s string) (string, bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return s, false
	}
	in, ok := false, true
	for _, w := range splitWords(s[:i]) {
		switch w {
		case "input", "original", "orig", "uploaded", "your":
			in = true
		case "data", "field", "fields", "column":
		default:
			ok = false
		}
	}
	if in && ok {
		return s[i+1:], true
	}
	return s, false
}

func countNumbers(ts []token) int {
	n := 0
	for _, t := range ts {
		if t.num >= 0 {
			n++
		}
	}
	return n
}

func canonicalGroup(w string) string {
	switch w {
	case "owner", "propietario", "dueño", "dueno", "titular":
		return "owner"
	case "contact", "person", "individual":
		return "contact"
	}
	return w
}

// impliedType is the kind of phone a header word names.
func impliedType(w string) PhoneType {
	switch w {
	case "mobile", "cell", "cellular", "cellphone", "wireless", "mob":
		return Mobile
	case "landline", "residential", "home", "house", "wireline":
		return Landline
	case "voip":
		return VoIP
	case "work", "business", "office":
		return Work
	}
	return ""
}

func number(w string) (int, bool) {
	if w == "" || len(w) > 4 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(w); i++ {
		if w[i] < '0' || w[i] > '9' {
			return 0, false
		}
		n = n*10 + int(w[i]-'0')
	}
	return n, true
}

// splitWords splits a header into words as every reader of headers does
// (jobs.HeaderWords).
func splitWords(s string) []string { return jobs.HeaderWords(s) }

func joinPhrases(ws []string) []string {
	out := ws[:0:0]
	for i := 0; i < len(ws); {
		matched := false
		for _, p := range phrases {
			if i+len(p.words) <= len(ws) && equalWords(ws[i:i+len(p.words)], p.words) {
				out = append(out, strings.Fields(p.as)...)
				i += len(p.words)
				matched = true
				break
			}
		}
		if !matched {
			out = append(out, ws[i])
			i++
		}
	}
	return out
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// normHeader is a header as the signature sees it: lower case, spaces
// trimmed and collapsed, no byte-order mark.
func normHeader(s string) string {
	s = strings.TrimPrefix(s, "\ufeff")
	if isPlainLower(s) {
		return s
	}
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

func isPlainLower(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return s == ""
	}
	prevSpace := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || c >= 'A' && c <= 'Z' || c < ' ' {
			return false
		}
		if c == ' ' && prevSpace {
			return false
		}
		prevSpace = c == ' '
	}
	return true
}
