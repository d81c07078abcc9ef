package layout

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/skipdesk/skipdesk/jobs/phone"
)

// classify decides a column's role from its header and its values (over
// the whole file when profiled). The cases are tried in order (a date or a
// scope word before a flag word, a flag word before a phone word, a name
// word before an address word); the longer ones are the helpers below. A
// column left RoleOther may still be a restriction source
// (findRestrictions).
func classify(i int, h *header, vals []ValueN) (Column, *Question) {
	c := Column{Index: i, Header: h.raw, Role: RoleOther, Group: h.group, Qualifier: h.qual, SlotIndex: h.idx}
	for _, rule := range columnRules {
		if col, q, ok := rule(c, h, vals); ok {
			return col, q
		}
	}
	return detailOrOther(c, h), nil
}

// A columnRule decides a column's role when its header and values are its
// case (ok).
type columnRule func(c Column, h *header, vals []ValueN) (Column, *Question, bool)

// columnRules are tried in order: a vendor's calling-time column first
// ("Do Not Call Today" is no DNC flag), a date or a scope word before a
// flag word, a flag word before a phone word, a name word before an
// address word.
var columnRules = []columnRule{vendorTimeRule, registeredRule, scrubDateRule, scopeRule, listColumnRule, validRule, typeRule, matchRule, codeRule, emailRule,
	phoneRule, nameRule, addressRule, entityRule}

func nameish(h *header) bool {
	return h.any(cFirst, cLast, cName, cMiddle, cEmail, cStreet, cCity, cZip, cAddress, cFull)
}

// registeredRule reads a column of the dates numbers were put on a list
// ("DNC Registered Date", "Date Added to DNC", "DNC Registration": dates
// and blanks): a date says the number is on it, a blank says nothing
// (ConvSince). Read as a scrub date, it would date the other answers, and
// a number the file puts on the registry would be callable on another
// scrub's clean answer.
func registeredRule(c Column, h *header, vals []ValueN) (Column, *Question, bool) {
	// Blanks and "not checked" marks ("?", "N/A") stand beside the dates.
	vals = saying(vals)
	if !h.since || !h.any(cDNC, cLitigator, cIndustry) || h.any(cNot, cPass) || len(vals) == 0 ||
		datesShare(vals, dateOrderOf(vals)) < 0.8 {
		return c, nil, false
	}
	c.Role, c.Convention, c.DateOrder = RoleFlag, ConvSince, dateOrderOf(vals)
	c.Kind, _ = listKind(h)
	return c, nil, true
}

func scrubDateRule(c Column, h *header, vals []ValueN) (Column, *Question, bool) {
	may := mayDate(h) && len(vals) > 0
	switch {
	case (h.scope || h.source || h.dated) && scrubDates(h, vals):
		c.Role, c.DateOrder = RoleScrubDate, dateOrderOf(vals)
		return c, nil, true
	case may && datesShare(vals, dateOrderOf(vals)) >= 0.8:
		// "DNC Date": maybe when the number was registered, maybe when it
		// was scrubbed. Read as the latter where it is older than the
		// row's scrub date: never a fresher date, never a missing one.
		c.Role, c.DateOrder, c.MayDate = RoleScrubDate, dateOrderOf(vals), true
		return c, nil, true
	case (may || scrubNamed(h) && !h.is(cNot)) && unreadDates(vals):
		// Dates written in a way SkipDesk does not read: passed over,
		// the rows would be dated otherwise (by the date given at
		// import), however old the file says they are. Read as dates
		// SkipDesk cannot read, they date no answer (and are asked
		// about).
		c.Role, c.DateOrder, c.MayDate = RoleScrubDate, dateOrderOf(vals), may && !scrubNamed(h)
		return c, nil, true
	}
	return c, nil, false
}

// mayDate is a header of a date that may be a scrub's: a list's ("DNC
// Date"), or a bare date ("Date", "Phone 2 Date").
func mayDate(h *header) bool {
	return (h.dated && h.any(cDNC, cFederal, cLitigator, cInternal, cIndustry) || bareDate(h)) && !h.is(cNot)
}

// unreadDates: the values that say something (not blank, "n/a") are
// dates, read or not (dateLike).
func unreadDates(vals []ValueN) bool {
	vals = saying(vals)
	return len(vals) > 0 && share(vals, dateLike) >= 0.8
}

// saying are the values that say something: not blank, nor a mark of
// "not checked" ("?", "N/A", "Pending").
func saying(vals []ValueN) []ValueN {
	return slices.DeleteFunc(slices.Clone(vals), func(v ValueN) bool { return unknown[fold(v.V)] })
}

// scrubNamed is a header naming when rows were scrubbed (scrubDates).
func scrubNamed(h *header) bool { return h.scope || h.source || h.dated && hasWord(h, "asof") }

// bareDate is a header that is a date and nothing else ("Date", "Fecha",
// "Timestamp"), or a phone's ("Phone 2 Date", "Tel 1 Fecha"): in a
// result, maybe when the row (or that phone) was scrubbed. When a phone
// was last seen in the vendor's sources ("Phone 1 Last Seen Date") is no
// scrub's.
func bareDate(h *header) bool {
	return h.dated && h.unknowns == 0 && h.has&^(1<<cNotFlag|1<<cPhone|1<<cTypeWord|1<<cGroup) == 0 && !hasWord(h, "seen")
}

// scopeRule reads a column of a scrub's coverage ("Scrubbed", "DNC
// Coverage", "Lookup Status"): its values say whether the row was checked
// at all. A value that speaks of coverage in words SkipDesk does not know
// ("Outside Coverage") is one: it reads "not checked" (readScope).
func scopeRule(c Column, h *header, vals []ValueN) (Column, *Question, bool) {
	if !h.scope || h.dated || len(vals) == 0 || share(vals, func(v string) bool { return scopeReadable(v) || speaksOfScope(v) }) < 0.8 {
		return c, nil, false
	}
	c.Role, c.Inverted = RoleScope, h.is(cNot)
	return c, nil, true
}

func listColumnRule(c Column, h *header, vals []ValueN) (Column, *Question, bool) {
	if !h.any(cDNC, cLitigator, cCallable, cIndustry, cRestrict) || nameish(h) || h.is(cType) {
		return c, nil, false
	}
	if !h.is(cNotFlag) && len(vals) > 0 {
		numbers := share(vals, func(v string) bool { _, ok := phone.KeysIn(v); return ok }) >= 0.6
		switch {
		case numbers && (share(vals, severalPhones) > 0 || !h.any(cPhone, cTypeWord) && h.idx < 0):
			// Several numbers in a cell anywhere: never one phone a cell,
			// or the numbers after the first would go unread. Nor is a
			// row's "DNC Numbers", named for no phone: it is about the
			// row's phones.
			return listedNumbers(c, h), nil, true
		case share(vals, phoneLike) >= 0.6:
			return listedPhones(c, h), nil, true
		}
	}
	c = listFlagColumn(c, h, vals)
	return c, unclearList(c, h), true
}

// unclearList asks about a list's column whose header holds words
// SkipDesk has no meaning for ("DNC Waived": N): read as "yes, on the
// list", a word that turns it would make its numbers callable. Until the
// person says how its values read, its phones are not callable (a Guess).
func unclearList(c Column, h *header) *Question {
	ws := h.unclearWords()
	if c.Role != RoleFlag || c.Kind == Restriction || len(ws) == 0 {
		return nil
	}
	return &Question{Topic: "words", Columns: []string{c.Header}, Blocks: true, Guess: true,
		Message: fmt.Sprintf("SkipDesk does not know %s in %q, which may turn what its values mean: say what they mean; until you do, its phones are not callable",
			quoteJoin(ws), c.Header)}
}

// listedNumbers is a column named for a list whose cells hold numbers,
// several to a cell ("DNC Numbers": "5125550102; 5125550103"): a flag of
// the phones it is about (ConvNumbers), flagged where their number is in
// it. A header calling its numbers clean makes none so: it is read as
// nothing, and its numbers are never callable.
func listedNumbers(c Column, h *header) Column {
	kind, inverted := listKind(h)
	if h.inverts() {
		inverted = !inverted
	}
	if inverted {
		c.Role = RoleOther
		return c
	}
	c.Role, c.Kind, c.Convention = RoleFlag, kind, ConvNumbers
	return c
}

// listedPhones is a column named for a list whose values are phone
// numbers ("DNC Mobile 1", "Litigator Phones"): a vendor that sorts a
// row's phones by what it found writes the numbers on that list there. It
// is a phone slot of its own (its qualifier names the list, so that it
// never pairs with "Mobile 1"), flagged on that list (ConvListed). A
// header that calls its numbers clean ("Callable Phones", "Non-DNC
// Mobile 1") cannot make them so: they are numbers like any other.
func listedPhones(c Column, h *header) Column {
	kind, inverted := listKind(h)
	if h.inverts() {
		inverted = !inverted
	}
	c.Role, c.Implied, c.Normalized = RolePhone, h.implied, h.is(cNormalized)
	c.Qualifier = listedQualifier(h)
	if !inverted {
		c.Kind, c.Convention = kind, ConvListed
	}
	return c
}

// listedSiblings reads an empty column named as a listed column of
// another phone is ("DNC Listed Phone 3" beside a "DNC Listed Phone 1" of
// numbers) as listed too: a vendor names every slot's alike, and the empty
// one lists no number. Read as a flag, its blanks would leave its phone's
// answer unknown.
func (l *Layout) listedSiblings(hs []header, p *Profile, sample [][]string) {
	shapes := map[string]bool{}
	for i := range l.Columns {
		if l.Columns[i].Convention == ConvListed {
			shapes[hs[i].shape()] = true
		}
	}
	if len(shapes) == 0 {
		return
	}
	for i := range l.Columns {
		c := &l.Columns[i]
		if c.Role == RoleFlag && shapes[hs[i].shape()] && len(columnValues(p, sample, i)) == 0 {
			*c = listedPhones(Column{Index: i, Header: c.Header, Group: hs[i].group, SlotIndex: hs[i].idx, Input: c.Input}, &hs[i])
		}
	}
}

// shape is a header's words with its numbers as "#", as the header reader
// splits them: "DNC Listed Owner 2 Phone 1" and "dnc_listed_owner_1_phone_3"
// are both "dnc listed owner # phone #".
func (h *header) shape() string {
	ws := make([]string, len(h.toks))
	for i, t := range h.toks {
		ws[i] = t.word
		if t.num >= 0 {
			ws[i] = "#"
		}
	}
	return strings.Join(ws, " ")
}

// listedQualifier is the qualifier of a listed column's slot: the header's
// words that name the list, then its kind of phone ("dnc mobile",
// "nj dnc phone", "litigator phone").
func listedQualifier(h *header) string {
	var ws []string
	for _, t := range h.toks {
		switch {
		case t.num >= 0 || t.cls == cGroup || t.cls == cPhone || t.cls == cTypeWord:
		case t.cls == cNone && !usStates[t.word]:
		default:
			ws = append(ws, t.word)
		}
	}
	kind := h.qual
	if kind == "" || kind == "primary" || kind == "other" {
		kind = "phone"
	}
	return strings.Join(append(ws, kind), " ")
}

func validRule(c Column, h *header, vals []ValueN) (Column, *Question, bool) {
	if !h.any(cValid, cInvalid) || nameish(h) || h.is(cNotFlag) {
		return c, nil, false
	}
	return numberFlagColumn(c, h, vals), nil, true
}

func typeRule(c Column, h *header, vals []ValueN) (Column, *Question, bool) {
	if !h.is(cType) || h.any(cEmail, cFirst, cLast, cName) {
		return c, nil, false
	}
	if share(vals, func(v string) bool { _, ok := readType(v); return ok }) >= 0.5 {
		c.Role = RolePhoneType
		return c, nil, true
	}
	return detailOrOther(c, h), nil, true
}

func matchRule(c Column, h *header, vals []ValueN) (Column, *Question, bool) {
	if !h.is(cMatch) || nameish(h) || share(vals, func(v string) bool { _, ok := readMatch(v); return ok }) < 0.5 {
		return c, nil, false
	}
	c.Role = RoleMatch
	return c, nil, true
}

func codeRule(c Column, h *header, vals []ValueN) (Column, *Question, bool) {
	if !h.is(cCode) || nameish(h) || h.any(cPhone, cTypeWord, cNotFlag) {
		return c, nil, false
	}
	return codeColumn(c, vals, h.aboutNumber), nil, true
}

func emailRule(c Column, h *header, vals []ValueN) (Column, *Question, bool) {
	if !h.is(cEmail) {
		return c, nil, false
	}
	return emailColumn(c, h, vals), nil, true
}

func phoneRule(c Column, h *header, vals []ValueN) (Column, *Question, bool) {
	if !h.any(cPhone, cTypeWord) || nameish(h) {
		return c, nil, false
	}
	col, q := phoneColumn(c, h, vals)
	return col, q, true
}

func nameRule(c Column, h *header, vals []ValueN) (Column, *Question, bool) {
	if h.has == 1<<cGroup && h.unknowns == 0 && len(vals) > 0 && share(vals, personName) >= 0.6 {
		// A header naming only whose columns follow ("Owner", "Contact
		// 2") over names: that person's name.
		c.Role = RoleFullName
		return c, nil, true
	}
	// "Last Disposition", "Last Called On": last is not a name there.
	if !h.any(cFirst, cLast, cName) || h.any(cMiddle, cStreet, cCity, cZip, cAddress, cCode, cNotFlag, cMatch) || h.unknowns != 0 {
		return c, nil, false
	}
	c.Role = nameRole(h)
	return c, nil, true
}

// personName is a value that may be a person's or a company's name: words
// with two letters or more, no digits, and no word of a list's convention
// ("Yes", "DNC").
func personName(v string) bool {
	letters := 0
	for _, r := range v {
		switch {
		case unicode.IsDigit(r):
			return false
		case unicode.IsLetter(r):
			letters++
		}
	}
	return letters >= 2 && !listWord(v) && len(strings.Fields(v)) <= 8
}

func addressRule(c Column, h *header, _ []ValueN) (Column, *Question, bool) {
	if !h.any(cStreet, cAddress, cCity, cZip, cState) || h.unknowns != 0 || h.is(cNotFlag) {
		return c, nil, false
	}
	return addressColumn(c, h), nil, true
}

func entityRule(c Column, h *header, vals []ValueN) (Column, *Question, bool) {
	if !h.is(cEntity) {
		return c, nil, false
	}
	if share(vals, func(v string) bool { f := fold(v); return truthy[f] || falsy[f] }) >= 0.8 {
		c.Role = RoleEntity
	}
	return c, nil, true
}

// scrubDates reports a column saying when rows were scrubbed: named for a
// scrub ("Date Scrubbed", "Scrubbed On", "Last Checked") or a source's date
// ("source_date", "As Of"), holding dates. A date named for a list alone
// ("DNC Date") may be when the number was registered: it is not one.
func scrubDates(h *header, vals []ValueN) bool {
	if !scrubNamed(h) || len(vals) == 0 || h.is(cNot) {
		return false
	}
	return datesShare(vals, dateOrderOf(vals)) >= 0.8
}

func hasWord(h *header, w string) bool {
	for _, t := range h.toks {
		if t.word == w {
			return true
		}
	}
	return false
}

// Values of a scope column: whether the row was scrubbed.
var (
	scopeYes = set("done", "complete", "completed", "success", "successful", "processed", "scrubbed", "checked",
		"ok", "covered", "verified", "pass", "passed", "in coverage", "inside coverage", "within coverage")
	scopeNo = set("not scrubbed", "not checked", "not covered", "no coverage", "not processed", "incomplete", "outside coverage", "out of coverage", "no coverage area",
		"skipped", "timeout", "timed out", "error", "failed", "fail", "pending", "queued", "retry", "no data")
)

// speaksOfScope: a value that names a scrub's coverage, read or not.
func speaksOfScope(v string) bool {
	for _, w := range strings.Fields(fold(v)) {
		if scopeWords[w] || strings.HasPrefix(w, "cover") {
			return true
		}
	}
	return false
}

func scopeReadable(v string) bool {
	f := fold(v)
	return truthy[f] || falsy[f] || scopeYes[f] || scopeNo[f] || unknown[f]
}

// readScope reads a scope column's value: whether the row was scrubbed. A
// blank, an error or anything else is not.
func readScope(inverted bool, v string) bool {
	f := fold(v)
	switch {
	case truthy[f]:
		return !inverted
	case falsy[f]:
		return inverted
	}
	return scopeYes[f]
}

// listFlagColumn is a column named for a list (DNC, state DNC, litigator,
// internal, industry) or for the verdict over them ("Callable"): which
// list, whether "yes" means clean, and how its values are written over the
// whole file. A column about the flag rather than the flag itself ("DNC
// date", "litigator score") is a phone's detail or nothing.
func listFlagColumn(c Column, h *header, vals []ValueN) Column {
	if h.is(cNotFlag) && hasWord(h, "risk") {
		// "TCPA Risk": a level, not the list's answer. (A score, of no
		// stated scale, stays a detail: TestDetectDoesNotMistake.)
		c.Role, c.Kind, c.Convention = RoleFlag, Restriction, ConvRisk
		return c
	}
	if h.is(cNotFlag) {
		return detailOrOther(c, h)
	}
	c.Role = RoleFlag
	c.Kind, c.Inverted = listKind(h)
	if h.inverts() {
		c.Inverted = !c.Inverted
	}
	c.Convention = conventionOf(c.Kind, vals, h.is(cCode))
	if c.Convention == ConvCodes {
		c.Kind = Combined // a service's code is its verdict over every list it checked
	}
	c.Verdict = c.Kind == Combined
	return c
}

// listKind is the list a flag column's header names, and whether its "yes"
// means clean (a "Callable" column).
func listKind(h *header) (FlagKind, bool) {
	switch {
	case h.is(cCallable):
		return Combined, true
	case h.is(cDNC) && h.is(cLitigator):
		return Combined, false
	case h.is(cLitigator):
		return Litigator, false
	case (h.is(cState) || h.is(cDNC)) && h.namesAState():
		return StateNamed, false // "NJ State DNC", "DNC_FL": that state's own list, never the registry
	case h.is(cState):
		return State, false // "State DNC": the list of each phone's own state
	case h.is(cInternal):
		return Internal, false
	case h.is(cIndustry):
		return Industry, false
	case h.is(cFederal):
		return Federal, false
	case h.is(cRestrict) && !h.is(cDNC):
		return Restriction, false // "Do Not Disturb": Yes
	}
	return DNC, false // a DNC column that names no list is its own list
}

// numberFlagColumn is a column saying whether the number is valid (or
// invalid): a flag of the Number kind.
func numberFlagColumn(c Column, h *header, _ []ValueN) Column {
	c.Role, c.Kind, c.Inverted = RoleFlag, Number, h.is(cValid)
	if h.is(cNot) {
		c.Inverted = !c.Inverted
	}
	c.Convention = ConvFlag
	return c
}

// emailColumn is an e-mail address column when its values hold an @, and
// not a column about the address (its type, whether it is valid).
func emailColumn(c Column, h *header, vals []ValueN) Column {
	if !h.any(cType, cValid, cInvalid, cNotFlag) && share(vals, func(v string) bool { return strings.Contains(v, "@") }) >= 0.5 {
		c.Role = RoleEmail
	}
	return c
}

// nameRole is the role of a column named for a person's name.
func nameRole(h *header) Role {
	switch {
	case h.is(cFirst):
		return RoleFirstName
	case h.is(cLast):
		return RoleLastName
	}
	return RoleFullName
}

// codeColumn is a "status" or "result" column: the values tell what it is
// (a service's codes, match words, valid/invalid words, list words), or
// else nothing (and findRestrictions may still read it).
func codeColumn(c Column, vals []ValueN, aboutNumber bool) Column {
	if len(vals) == 0 {
		return c
	}
	codes := func(v string) bool { _, ok := codeIndex[fold(v)]; return ok }
	switch {
	case share(vals, codes) >= 0.8 && !yesNoOnly(vals):
		c.Role, c.Kind, c.Convention, c.Verdict = RoleFlag, Combined, ConvCodes, true
	case share(vals, func(v string) bool { _, ok := readMatch(v); return ok }) >= 0.8 &&
		someWord(vals, matchedWords, notMatchedWords):
		c.Role = RoleMatch
	case share(vals, func(v string) bool { f := fold(v); return validWords[f] || invalidWords[f] }) >= 0.8:
		c.Role, c.Kind, c.Convention = RoleFlag, Number, ConvFlag
	case share(vals, listWord) >= 0.8 && someWord(vals, cleanWords, flaggedWords):
		// A status in words only ("Clean", "DNC", "Litigator"): the
		// service's verdict (over the litigator list too where the file
		// shows the service checks it: narrowVerdicts).
		c.Role, c.Kind, c.Convention, c.Verdict = RoleFlag, Combined, ConvWords, true
	case share(vals, scopeReadable) >= 0.8 && someWord(vals, scopeYes, scopeNo):
		// "Lookup Status": Completed / Failed / Timeout: whether the row
		// was checked at all.
		c.Role = RoleScope
	case aboutNumber:
		// "Number Status": 1/0 or codes whose sense the file does not
		// say: the number's status, read only in valid/invalid words (the
		// others are unknown, and asked about).
		c.Role, c.Kind, c.Convention = RoleFlag, Number, ConvWords
	}
	return c
}

// narrowVerdicts reads a verdict over several lists — a scrub service's
// result code, a "Callable" or "OK to Call" column, a status in words — as
// the DNC registry's answer alone, unless the file shows the service also
// checks the litigator list (a value anywhere that names litigators, as
// DNC.com's Reason "Litigator" does): the litigator list is then answered
// by another column, or not at all. A column named for both ("DNC/
// Litigator") answers both. A note beside a number in a phone's cell
// ("5125550101 (Litigator)") is that phone's, no sign of what the
// service checks for every number.
func (l *Layout) narrowVerdicts(hs []header, p *Profile, sample [][]string) {
	evidence := false
	for i := range l.Columns {
		if l.Columns[i].Role != RolePhone && mentionsLitigator(columnValues(p, sample, i)) {
			evidence = true
			break
		}
	}
	if evidence {
		return
	}
	for i := range l.Columns {
		c := &l.Columns[i]
		if c.Role == RoleFlag && c.Kind == Combined && !(hs[i].is(cDNC) && hs[i].is(cLitigator)) {
			c.Kind = DNC
		}
	}
}

// mentionsLitigator reports values that name the litigator list.
func mentionsLitigator(vals []ValueN) bool {
	var ws []string
	for _, v := range vals {
		ws, _ = textWords(ws, v.V)
		for _, w := range ws {
			switch w {
			case "litigator", "litigators", "tcpa", "litigation", "litigante", "blacklist", "blacklisted":
				return true
			}
		}
	}
	return false
}

func listWord(v string) bool {
	f := fold(v)
	return cleanWords[f] || flaggedWords[f] || invalidWords[f] || unknown[f]
}

// phoneColumn is a column named for a phone or a kind of phone: a number
// when its values look like phone numbers (or it has none and says it
// holds one), a yes/no type flag ("Wireless": 1/0), else a detail of a
// phone or nothing, with a question when a plain "phone" column holds
// something else.
func phoneColumn(c Column, h *header, vals []ValueN) (Column, *Question) {
	if h.is(cNotFlag) {
		return detailOrOther(c, h), nil
	}
	explicit := h.is(cPhone) || h.idx >= 0
	if parts := partsOf(vals); parts > 0 {
		c.Role, c.Implied, c.Parts = RolePhone, h.implied, parts
		return c, nil
	}
	if numbersColumn(vals, explicit) {
		c.Role, c.Implied, c.Normalized = RolePhone, h.implied, h.is(cNormalized)
		return c, nil
	}
	if col, ok := aboutAPhone(c, h, vals); ok {
		return col, nil
	}
	if h.is(cPhone) && h.unknowns == 0 && !h.is(cPass) && h.idx < 0 {
		msg := fmt.Sprintf("%q is named like a phone column but its values do not look like phone numbers", h.raw)
		if share(vals, severalPhones) >= 0.6 {
			msg = fmt.Sprintf("%q holds several phone numbers in a cell that SkipDesk cannot tell apart, so none of them is callable "+
				"(separate them with commas or semicolons, or give each a column of its own)", h.raw)
		}
		return c, &Question{Topic: "phone", Columns: []string{h.raw}, Message: msg}
	}
	return detailOrOther(c, h), nil
}

// numbersColumn reports a column of phone numbers by its values: most
// look like numbers, or (named for a phone: explicit) are numbers with
// notes; empty, it is one only when named for a phone.
func numbersColumn(vals []ValueN, explicit bool) bool {
	switch {
	case len(vals) == 0:
		return explicit
	case share(vals, phoneLike) >= 0.6:
		return true
	}
	return explicit && share(vals, notedPhone) >= 0.6
}

// notedPhone is a phone's cell: a number, or a number with a note beside
// it ("+1 (816) 282-2555 (opted out)", "DNC: 512-555-0106"). A column
// named for a phone whose numbers carry notes is still its phone: read
// as anything else, its numbers and what their notes say would be lost.
func notedPhone(v string) bool {
	return phoneLike(v) || phone.Key(v) != 0 && cellNote(v) != Clean
}

// maxParts is the most numbers of a cell read as phones: a cell of more
// keeps the others unread (a callable list blanks it).
const maxParts = 10

// partsOf is, for the values of a column of several phone numbers a cell
// (most values numbers, some of several), the most numbers a cell holds
// (at most maxParts); 0 for any other column.
func partsOf(vals []ValueN) int {
	if len(vals) == 0 || share(vals, severalPhones) == 0 || share(vals, func(v string) bool { _, ok := phone.KeysIn(v); return ok }) < 0.6 {
		return 0
	}
	most := 0
	for _, v := range vals {
		most = max(most, len(strings.FieldsFunc(v.V, phone.NumberSep)))
	}
	return min(most, maxParts)
}

// severalPhones reports a value of two or more parts that look like phone
// numbers ("5125550101, 5125550102", "512-555-0101 | 512-555-0102").
func severalPhones(v string) bool {
	n := 0
	for _, p := range strings.FieldsFunc(v, phone.NumberSep) {
		if phoneLike(strings.TrimSpace(p)) {
			n++
		}
	}
	return n >= 2
}

// aboutAPhone reads a column named after a phone whose values are not
// numbers as what it says of that phone: its status, or whether it is of
// the kind the header names.
func aboutAPhone(c Column, h *header, vals []ValueN) (Column, bool) {
	if len(vals) == 0 {
		return c, false
	}
	if h.is(cCode) && h.idx >= 0 && share(vals, phoneLike) < 0.6 && !mentionsRestriction(vals) {
		// "Phone 1 Status", "Phone2_Scrub Result": what it says of that
		// phone, read by its values as a status column is.
		col := codeColumn(c, vals, true)
		if col.Role == RoleOther {
			col.Role = RolePhoneDetail
		}
		return col, true
	}
	if h.is(cTypeWord) && h.implied != "" &&
		share(vals, func(v string) bool { f := fold(v); return truthy[f] || falsy[f] || unknown[f] }) >= 0.8 {
		// The kind it names is what it says of a phone, not which phone.
		c.Role, c.Implied, c.Convention, c.Qualifier = RolePhoneType, h.implied, ConvFlag, ""
		return c, true
	}
	return c, false
}

// addressColumn is a part of an address: the property's, or the mailing
// address (named so, or an owner's), of the row as a whole.
func addressColumn(c Column, h *header) Column {
	c.Place = "property"
	if h.is(cMailing) || h.is(cGroup) && !h.is(cProperty) {
		c.Place = "mailing" // "owner_address_city": where the owner gets mail
	}
	c.Group = ""
	switch {
	case h.is(cCity):
		c.Role = RoleCity
	case h.is(cZip):
		if h.line == 4 {
			return c
		}
		c.Role = RoleZip
	case h.is(cState):
		c.Role = RoleState
	case h.is(cFull):
		c.Role = RoleAddress
	case h.line >= 2:
		c.Role = RoleStreet2
	default:
		c.Role = RoleStreet
	}
	return c
}

// detailOrOther is a column about one phone that is not its number, type or
// flag (carrier, score), or else a column the layout does not use.
func detailOrOther(c Column, h *header) Column {
	if h.idx >= 0 && h.any(cPhone, cTypeWord) || h.idx >= 0 && h.any(cDNC, cLitigator) {
		c.Role = RolePhoneDetail
		return c
	}
	c.Role = RoleOther
	return c
}

// share is the share of the rows of vals for which ok holds (1 when there
// are none).
func share(vals []ValueN, ok func(string) bool) float64 {
	n, good := 0, 0
	for _, v := range vals {
		n += v.N
		if ok(v.V) {
			good += v.N
		}
	}
	if n == 0 {
		return 1
	}
	return float64(good) / float64(n)
}

func someWord(vals []ValueN, sets ...map[string]bool) bool {
	for _, v := range vals {
		f := fold(v.V)
		for _, s := range sets {
			if s[f] && len(f) > 1 {
				return true
			}
		}
	}
	return false
}

// yesNoOnly reports values that are all Y/N or T/F (read as booleans, not as
// the codes those letters also are).
func yesNoOnly(vals []ValueN) bool {
	for _, v := range vals {
		switch fold(v.V) {
		case "y", "n", "t", "f":
		default:
			return false
		}
	}
	return true
}

// conventionOf decides how a flag column writes its values, from all of
// them: the service's codes (a code-named column whose values are mostly
// codes), marks (every value a mark), state codes (a state list column
// holding states), else words or yes/no, whichever more rows are written
// in.
func conventionOf(k FlagKind, vals []ValueN, codeish bool) Convention {
	codes := func(v string) bool { _, ok := codeIndex[fold(v)]; return ok }
	if codeish && len(vals) > 0 && share(vals, codes) >= 0.8 && !yesNoOnly(vals) && !boolOnly(vals) {
		return ConvCodes
	}
	rows := map[family]int{}
	total := 0
	for _, v := range vals {
		if fam := familyOf(k, fold(v.V)); fam != famNone {
			rows[fam] += v.N
			total += v.N
		}
	}
	switch {
	case total > 0 && rows[famMarks] == total:
		return ConvMarks
	case rows[famStates] > 0:
		return ConvStates
	case rows[famWords] > rows[famBool]:
		return ConvWords
	}
	return ConvFlag
}

func boolOnly(vals []ValueN) bool {
	for _, v := range vals {
		f := fold(v.V)
		if !truthy[f] && !falsy[f] {
			return false
		}
	}
	return true
}

// unknownPhoneFlags asks about the yes/no columns of a phone whose header
// SkipDesk does not understand ("Phone 2 XYZ": Y, "Phone Clean": N): such
// a column may be a list it has no name for. Until the person says what it
// is, the phones it belongs to are not callable (a Guess).
func (l *Layout) unknownPhoneFlags(hs []header, p *Profile, sample [][]string) []Question {
	var qs []Question
	for i := range l.Columns {
		c := &l.Columns[i]
		if !aboutAPhoneUnread(c, &hs[i]) {
			continue
		}
		vals := columnValues(p, sample, i)
		if len(vals) == 0 || share(vals, func(v string) bool { f := fold(v); return truthy[f] || falsy[f] || unknown[f] }) < 1 {
			continue
		}
		c.Role, c.Kind, c.Convention = RoleFlag, Industry, ConvFlag
		qs = append(qs, Question{Topic: "flag", Columns: []string{c.Header}, Blocks: true, Guess: true,
			Message: fmt.Sprintf("%q says yes or no of a phone, and SkipDesk does not know what: is it a do-not-call list? Until you say, the phones it belongs to are not callable", c.Header)})
	}
	return qs
}

// aboutAPhoneUnread reports a column of the result named for a phone (a
// detail of one, or naming a kind of phone) with words SkipDesk has no
// meaning for, or a word of passing that names no list.
func aboutAPhoneUnread(c *Column, h *header) bool {
	switch {
	case c.Input || h.is(cNotFlag) || h.unknowns == 0 && !h.is(cPass):
		return false
	case c.Role == RolePhoneDetail:
		return true
	}
	return c.Role == RoleOther && h.any(cPhone, cTypeWord)
}

// registryDates asks about a "DNC Date" read as maybe the rows' scrub
// date (MayDate) in a file with no other answer on the registry, when
// some rows have no date in it: such a column may as well be when each
// number was put on the DNC list (ConvSince). Read as a scrub date, a
// number the file puts on the list would be callable on another scrub's
// clean answer; so until the person says, it is read as the dates numbers
// were listed, a guess: its phones are not callable.
func (l *Layout) registryDates(hs []header, p *Profile, sample [][]string) []Question {
	for _, c := range l.Columns {
		if c.Role == RoleFlag && (c.Kind == Federal || c.Kind == DNC || c.Kind == Combined) {
			return nil
		}
	}
	var qs []Question
	for i := range l.Columns {
		c := &l.Columns[i]
		if !c.MayDate || c.Input || !hs[i].any(cDNC) || !someBlank(p, sample, i) {
			continue
		}
		c.Role, c.Convention, c.MayDate = RoleFlag, ConvSince, false
		c.Kind, _ = listKind(&hs[i])
		qs = append(qs, Question{Topic: "flag", Columns: []string{c.Header}, Blocks: true, Guess: true,
			Message: fmt.Sprintf("%q has a date for some numbers only, and the file has no other DNC answer: is it when each was scrubbed, or when it was put on the DNC list? Until you say, its phones are not callable", c.Header)})
	}
	return qs
}

// someBlank reports a column left blank in some rows.
func someBlank(p *Profile, sample [][]string, i int) bool {
	if p != nil && i < len(p.Cols) && !p.Cols[i].Skipped {
		for _, v := range p.Cols[i].Values {
			if strings.TrimSpace(v.V) == "" {
				return true
			}
		}
		return false
	}
	for _, rec := range sample {
		if i >= len(rec) || strings.TrimSpace(rec[i]) == "" {
			return true
		}
	}
	return false
}

// unnamedFlags asks about a column with no name ("", or the import's
// "Column 4" for a blank header cell) whose values are all yes or no, or
// marks ("x"), unknown ("?") and blanks, a yes, mark or unknown among them: a
// flag whose header was lost, about a list SkipDesk cannot know. Until the
// person says what it is, every phone of its row is not callable (a
// Guess); left unread, its "Yes" would be nothing.
func (l *Layout) unnamedFlags(hs []header, p *Profile, sample [][]string) []Question {
	var qs []Question
	for i := range l.Columns {
		c := &l.Columns[i]
		if c.Role != RoleOther || c.Input || !unnamed(hs[i].raw) {
			continue
		}
		vals := columnValues(p, sample, i)
		// Mostly: a vendor's own "not checked" letter ("U") among them.
		// A column of no and nothing else says nothing against a phone;
		// one with a "?" among its noes may (its list not checked).
		says := func(v string) bool { f := fold(v); return truthy[f] || marks[f] }
		doubts := func(v string) bool { f := fold(v); return says(v) || f != "" && unknown[f] }
		if len(vals) == 0 || share(vals, func(v string) bool { f := fold(v); return says(v) || falsy[f] || unknown[f] }) < 0.5 ||
			share(vals, doubts) == 0 {
			continue
		}
		// About the row: its place's number ("Column 4") names no phone.
		c.Role, c.Kind, c.Convention = RoleFlag, Industry, ConvFlag
		c.Group, c.Qualifier, c.SlotIndex = "", "", -1
		qs = append(qs, Question{Topic: "flag", Columns: []string{c.Header}, Blocks: true, Guess: true,
			Message: fmt.Sprintf("%s has no name and says yes or no: is it a do-not-call list? Until you say, the phones of its rows are not callable", columnName(c.Header, i))})
	}
	return qs
}

// yesOrNo reports a column whose values are mostly yes, no, marks,
// unknown or a list's words (a vendor's own "not checked" letter among
// them), one of them not blank.
func yesOrNo(vals []ValueN) bool {
	// Yes, no, marks, unknown, and the words a list's answers are written
	// in ("Hit", "Clear", "Listed").
	flagLike := func(v string) bool { f := fold(v); return unknown[f] || familyOf(Internal, f) != famNone }
	return share(vals, flagLike) >= 0.5 && share(vals, func(v string) bool { return fold(v) != "" }) > 0
}

// headerStatesRestriction reports a header that names a restriction in
// words ("Wrong Number", "Deceased", "Reassigned"), without a negation (a
// header of a date or a scrub's coverage, "DNC Scrubbed", is read apart).
func headerStatesRestriction(h string) bool {
	ws := splitWords(h) // a header's words: "Phone 1_Complainer" is "phone 1 complainer"
	for _, w := range ws {
		if measureWords[w] {
			return false // "Litigator Score": a measure, 1 or 0
		}
	}
	stated, _ := StatesRestriction(strings.Join(ws, " "))
	return stated
}

// measureWords name a measure of something rather than whether it holds.
var measureWords = set("score", "count", "risk", "level", "rating", "probability", "percent", "pct", "id", "code", "type",
	"value", "amount", "total", "rank", "grade", "confidence")

// unnamed: a header cell left blank, or named for its place alone.
func unnamed(h string) bool {
	h = strings.TrimSpace(h)
	if h == "" {
		return true
	}
	n, ok := strings.CutPrefix(h, "Column ")
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// columnName names column i for a person: its header, or its place.
func columnName(h string, i int) string {
	if strings.TrimSpace(h) == "" {
		return fmt.Sprintf("Column %d", i+1)
	}
	return fmt.Sprintf("%q", h)
}

// loneState asks about a column headed as a state and nothing else
// ("State", "State List") in a file of DNC answers (it has flag columns)
// with no other part of an address, holding state codes or a list's
// answers ("No", "None", "Clean", blanks): it may say where each phone
// is, or which states' DNC lists have it (a DNC management report's
// "State": NC). Read as
// where the phone is, a number on its state's list would be callable; so
// until the person says, its codes are read as the state lists the phone
// is on and a blank as unknown, a guess: the phones it belongs to are not
// callable.
func (l *Layout) loneState(hs []header, p *Profile, sample [][]string) []Question {
	state, flags := -1, false
	for i, c := range l.Columns {
		switch c.Role {
		case RoleStreet, RoleStreet2, RoleCity, RoleZip, RoleAddress:
			return nil
		case RoleState:
			if state >= 0 {
				return nil // two states: an address's parts, or two places
			}
			state = i
		case RoleFlag:
			flags = true
		}
	}
	if state < 0 || !flags || l.Columns[state].Input || hs[state].has != 1<<cState || hs[state].unknowns != 0 {
		return nil
	}
	vals := columnValues(p, sample, state)
	if len(vals) == 0 || share(vals, statesAnswer) < 1 {
		return nil
	}
	c := &l.Columns[state]
	c.Role, c.Kind, c.Convention, c.Place = RoleFlag, State, ConvStates, ""
	return []Question{{Topic: "flag", Columns: []string{c.Header}, Blocks: true, Guess: true,
		Message: fmt.Sprintf("%q holds a state for each phone and the file has no address: is it the state DNC list the phone is on, or where the phone is? Until you say, the phones it belongs to are not callable", c.Header)}}
}

// statesAnswer reports whether v reads as a state list's answer: a state
// code, a yes or no, a word ("Clean", "Listed"), an unknown marker or a
// one-letter code ("U"), none a place's name (loneState).
func statesAnswer(v string) bool {
	f := fold(v)
	return stateList(f) || familyOf(State, f) != famNone || unknown[f] || len(f) == 1
}

// identifierWords name columns of identifiers and references, whose values
// are codes ("dnc_7f3k2", a file name), not statements.
var identifierWords = set("id", "ids", "job", "ref", "reference", "key", "uuid", "guid", "file", "filename", "url",
	"link", "hash", "sha256", "batch")

func identifier(header string) bool {
	for _, w := range splitWords(header) {
		if identifierWords[w] {
			return true
		}
	}
	return false
}

// reasonColumn: a header of reasons and nothing else unknown ("Reason",
// "DNC Reason", "Reason Code"), as scrub services write why a number was
// flagged ("State (WA)"), not "Sale Reason".
func reasonColumn(h *header) bool {
	return (hasWord(h, "reason") || hasWord(h, "reasons")) && h.unknowns == 0
}

// statesAReason reports whether any value of a column of reasons states
// one (readReason).
func statesAReason(vals []ValueN) bool {
	for _, v := range vals {
		if readReason(v.V).flag != Clean {
			return true
		}
	}
	return false
}

// findRestrictions makes every column that is none of the file's known
// kinds, and whose values mention a restriction anywhere in the file
// ("DNC", "wrong number", "attorney" in a status, tag, disposition or
// note), a restriction source for the phone or the row it belongs to.
func (l *Layout) findRestrictions(hs []header, p *Profile, sample [][]string) {
	// A column of yes and no whose header names a restriction is a flag of
	// it, whatever list it is not.
	for i := range l.Columns {
		c := &l.Columns[i]
		switch c.Role {
		case RoleOther, RolePhoneDetail:
		default:
			continue
		}
		if identifier(c.Header) {
			continue
		}
		vals := columnValues(p, sample, i)
		if h := &hs[i]; yesOrNo(vals) && !h.dated && !h.scope && !h.since && !h.source && headerStatesRestriction(c.Header) {
			// "Wrong Number", "Deceased", "Reassigned", "Complainer": Y or N,
			// the vendor's own list by another name, dated and covered as
			// its other answers are.
			c.Role, c.Kind, c.Convention = RoleFlag, Internal, conventionOf(Internal, vals, false)
			continue
		}
		reasons := reasonColumn(&hs[i])
		if !mentionsRestriction(vals) && !(reasons && statesAReason(vals)) {
			continue
		}
		c.Role, c.Kind, c.Convention = RoleFlag, Restriction, ConvText
		if reasons {
			c.Convention = ConvReason // every reason stated is a reason not to call
		}
		if c.Input {
			c.Group, c.Qualifier, c.SlotIndex = "", "", -1 // the person's own note speaks of the row
		}
	}
}
