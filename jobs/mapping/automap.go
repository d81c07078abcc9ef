package mapping

import (
	"sort"
	"strings"

	"github.com/skipdesk/skipdesk/jobs"
)

// Guess is one automatic mapping of a header to a key.
type Guess struct {
	Key        string  `json:"key"`
	Header     string  `json:"header"`
	Column     int     `json:"column"`     // index of Header in the headers
	Confidence float64 `json:"confidence"` // 0..1: 1 exact key, 0.95 same words, 0.9 known synonym, less for looser readings
	Reason     string  `json:"reason"`     // "exact key", "same words", "synonym", "header words", plus sample notes
}

// Certain reports a guess made from a header that names the field exactly:
// the key itself, its words, or a header vendors use for it, with values
// that do not disagree. Its confidence number is below 1 only because the
// sample could still surprise; a person is shown it as certain.
func (g Guess) Certain() bool {
	known := strings.HasPrefix(g.Reason, "exact key") || strings.HasPrefix(g.Reason, "same words") || strings.HasPrefix(g.Reason, "synonym")
	return known && !strings.Contains(g.Reason, "disagree")
}

// Suggestion is what AutoMap proposes for a file.
type Suggestion struct {
	Guesses []Guess `json:"guesses"` // in the catalogue's key order
	Splits  []Split `json:"splits"`  // columns worth splitting into fields
}

// Mapping is the mapping of the guesses alone (splits not accepted).
func (s Suggestion) Mapping() Mapping {
	m := Mapping{}
	for _, g := range s.Guesses {
		m[g.Key] = g.Header
	}
	return m
}

// WithSplits is the mapping once every suggested split is accepted: the keys a
// split derives point to its derived columns (Split.Columns), replacing any
// guess for them.
func (s Suggestion) WithSplits(headers []string) Mapping {
	m := s.Mapping()
	for _, sp := range s.Splits {
		for i, c := range sp.Columns(headers) {
			m[sp.Keys[i]] = c
		}
	}
	return m
}

// Confidence returns the confidence of the guess for key (0 when none).
func (s Suggestion) Confidence(key string) float64 {
	for _, g := range s.Guesses {
		if g.Key == key {
			return g.Confidence
		}
	}
	return 0
}

// MinConfidence is the lowest score AutoMap keeps as a guess.
const MinConfidence = 0.5

// AutoMap guesses the mapping of a file from its headers and a sample of its
// rows (rows aligned with headers; may be nil). Each header gets at most one
// key and each key at most one header: the highest confidence wins. Columns
// holding full names or single-line addresses are offered as Splits rather
// than mapped whole.
func AutoMap(headers []string, sample [][]string, kind jobs.Kind) Suggestion {
	keys := Keys(kind)
	profiles := make([]profile, len(headers))
	for i := range headers {
		profiles[i] = profileColumn(sample, i)
	}
	type cand struct {
		key    string
		col    int
		score  float64
		reason string
	}
	var cands []cand
	for i, h := range headers {
		ws := words(h)
		c := strings.Join(ws, "")
		named := false
		for _, k := range keys {
			s, why := scoreWords(h, ws, c, k)
			if s <= 0 {
				continue
			}
			named = true
			s, why = adjustBySample(k, s, why, profiles[i])
			if s >= MinConfidence {
				cands = append(cands, cand{k, i, s, why})
			}
		}
		if !named {
			if k, s := fromValues(ws, profiles[i], kind); k != "" {
				cands = append(cands, cand{k, i, s, "values only"})
			}
		}
	}
	sort.SliceStable(cands, func(a, b int) bool {
		if cands[a].score != cands[b].score {
			return cands[a].score > cands[b].score
		}
		if cands[a].col != cands[b].col {
			return cands[a].col < cands[b].col
		}
		return keyIndex(cands[a].key) < keyIndex(cands[b].key)
	})
	usedKey := map[string]bool{}
	usedCol := map[int]bool{}
	out := Suggestion{Guesses: []Guess{}, Splits: []Split{}}
	for _, c := range cands {
		if usedKey[c.key] || usedCol[c.col] {
			continue
		}
		usedKey[c.key], usedCol[c.col] = true, true
		out.Guesses = append(out.Guesses, Guess{Key: c.key, Header: headers[c.col], Column: c.col, Confidence: round2(c.score), Reason: c.reason})
	}
	sort.Slice(out.Guesses, func(a, b int) bool { return keyIndex(out.Guesses[a].Key) < keyIndex(out.Guesses[b].Key) })
	if kind == jobs.KindTrace {
		out.Splits = append(out.Splits, suggestSplits(headers, sample, profiles, out.Mapping(), usedCol)...)
	}
	return out
}

// fromValues guesses a key from a column's values alone, at the lowest
// confidence kept: a phone column whatever its header (in a phone list), and
// zips, states and street addresses under a header that says nothing
// ("Column 3", what a blank header becomes).
func fromValues(ws []string, p profile, kind jobs.Kind) (string, float64) {
	if p.n < 2 {
		return "", 0
	}
	if kind == jobs.KindDNC {
		if p.phone >= 0.8 {
			return Phone, MinConfidence
		}
		return "", 0
	}
	if !(len(ws) == 0 || (len(ws) == 2 && ws[0] == "column" && ws[1][0] >= '0' && ws[1][0] <= '9')) {
		return "", 0
	}
	switch {
	case p.zip >= 0.9:
		return PropertyZip, MinConfidence
	case p.state >= 0.9:
		return PropertyState, MinConfidence
	case p.street >= 0.8 && p.fullAddr < 0.6:
		return PropertyStreet, MinConfidence
	}
	return "", 0
}

func round2(f float64) float64 { return float64(int(f*100+0.5)) / 100 }

func keyIndex(k string) int {
	for i, f := range traceFields {
		if f.Key == k {
			return i
		}
	}
	return len(traceFields)
}

// bestKeyForHeader is the key a header reads as, without a sample.
func bestKeyForHeader(h string, kind jobs.Kind) (string, float64) {
	best, bestS := "", 0.0
	for _, k := range Keys(kind) {
		if s, _ := scoreHeader(h, k); s > bestS {
			best, bestS = k, s
		}
	}
	return best, bestS
}

// words splits a header into lower-case words, as every reader of headers
// does (jobs.HeaderWords).
func words(h string) []string { return jobs.HeaderWords(h) }

// compact is a header's words run together: "Owner 1 First-Name" → "owner1firstname".
func compact(h string) string { return strings.Join(words(h), "") }

// compactKeys are the keys without their underscores ("firstname").
var compactKeys = map[string]string{}

func init() {
	for _, f := range append(Fields(jobs.KindTrace), Fields(jobs.KindDNC)...) {
		compactKeys[f.Key] = strings.ReplaceAll(f.Key, "_", "")
	}
}

// synonyms are the headers list vendors, county sites and CRMs use, in
// compact form, with the key they mean.
var synonyms = map[string]string{}

func init() {
	add := func(key string, hs ...string) {
		for _, h := range hs {
			synonyms[compact(h)] = key
		}
	}
	add(FirstName, "First", "First Name", "FName", "Owner First", "Owner First Name", "Owner 1 First Name",
		"Owner1 First", "Owner 1 First", "Owner FName", "Primary First Name", "Primary Owner First Name",
		"Given Name", "Forename", "Name First", "Contact First Name", "First Nm", "Owner First Nm",
		"Buyer First Name", "Grantee First Name", "Mail First Name", "Input First Name", "Owner Name First",
		"Owner1FirstName", "OwnerFirstName1", "First Name 1", "Seller First Name", "Lead First Name")
	add(LastName, "Last", "Last Name", "LName", "Owner Last", "Owner Last Name", "Owner 1 Last Name",
		"Owner1 Last", "Owner 1 Last", "Owner LName", "Primary Last Name", "Primary Owner Last Name",
		"Surname", "Family Name", "Name Last", "Contact Last Name", "Last Nm", "Owner Last Nm",
		"Buyer Last Name", "Grantee Last Name", "Mail Last Name", "Input Last Name", "Owner Name Last",
		"Owner1LastName", "OwnerLastName1", "Last Name 1", "Seller Last Name", "Lead Last Name")
	add(PropertyStreet, "Property Address", "Property Street", "Property Street Address", "Property Addr",
		"Property Address 1", "Property Address Line 1", "Prop Address", "Prop Addr", "Prop Street",
		"Situs Address", "Situs Street", "Situs Addr", "Situs Street Address", "Situs", "Site Address",
		"Site Addr", "Site Street", "Subject Address", "Subject Property Address", "Location Address",
		"Physical Address", "Parcel Address", "Address", "Street", "Street Address", "Address 1",
		"Address Line 1", "Addr", "Input Property Address", "Property Full Street Address", "Situs Full Street")
	add(PropertyCity, "Property City", "Prop City", "Situs City", "Site City", "Subject City", "Location City",
		"Physical City", "Parcel City", "City", "Town", "Input Property City", "Property City Name", "Situs City Name")
	add(PropertyState, "Property State", "Prop State", "Situs State", "Site State", "Subject State",
		"Location State", "Physical State", "Parcel State", "State", "ST", "Input Property State", "Situs ST", "Property ST")
	add(PropertyZip, "Property Zip", "Property Zip Code", "Property Zipcode", "Property Postal Code", "Prop Zip",
		"Situs Zip", "Situs Zip Code", "Situs Zip 5", "Site Zip", "Site Zip Code", "Subject Zip", "Location Zip",
		"Physical Zip", "Parcel Zip", "Zip", "Zip Code", "Zipcode", "Zip5", "Postal Code", "Postcode",
		"Input Property Zip", "Property Zip 5", "Property Zip5")
	add(MailingStreet, "Mail Address", "Mailing Address", "Mail Street", "Mailing Street", "Mailing Street Address",
		"Mail Addr", "Mailing Addr", "Mail Address 1", "Mailing Address 1", "Mailing Address Line 1",
		"Owner Address", "Owner Mailing Address", "Owner Mail Address", "Owner Street", "Mail Full Street",
		"Input Mailing Address", "Mailing Full Street Address", "Tax Mailing Address", "Billing Address")
	add(MailingCity, "Mail City", "Mailing City", "Owner City", "Owner Mailing City", "Owner Mail City",
		"Input Mailing City", "Tax Mailing City", "Billing City", "Mailing City Name")
	add(MailingState, "Mail State", "Mailing State", "Owner State", "Owner Mailing State", "Owner Mail State",
		"Mail ST", "Mailing ST", "Input Mailing State", "Tax Mailing State", "Billing State")
	add(MailingZip, "Mail Zip", "Mailing Zip", "Mailing Zip Code", "Mail Zip Code", "Mail Zipcode", "Mail Zip5",
		"Mailing Zip 5", "Mailing Postal Code", "Owner Zip", "Owner Zip Code", "Owner Mailing Zip",
		"Owner Mail Zip", "Input Mailing Zip", "Tax Mailing Zip", "Billing Zip")
	add(Phone, "Phone", "Phone 1", "Phone1", "Phone Number", "Phone Number 1", "Phone #", "Phone No", "Cell",
		"Cell Phone", "Cell 1", "Cellphone", "Mobile", "Mobile Phone", "Mobile 1", "Mobile Number",
		"Wireless", "Wireless 1", "Wireless Phone", "Telephone", "Tel", "Tel No", "Primary Phone",
		"Contact Phone", "Owner Phone", "Owner 1 Phone", "Phone Mobile", "Mobile Phone 1", "Number",
		"Landline", "Landline 1", "Home Phone", "Work Phone", "Best Phone", "Contact Number", "Ph")
}

// Words that say which address group a header belongs to.
var (
	mailWords = map[string]bool{"mail": true, "mailing": true, "mailto": true, "tax": true, "billing": true, "owner": true}
	propWords = map[string]bool{"property": true, "prop": true, "situs": true, "site": true, "subject": true, "location": true,
		"physical": true, "parcel": true, "premises": true}
	partWords = map[string]string{
		"address": "street", "addr": "street", "street": "street", "adr": "street", "str": "street",
		"city": "city", "town": "city", "municipality": "city",
		"state": "state", "st": "state", "province": "state",
		"zip": "zip", "zipcode": "zip", "postal": "zip", "postcode": "zip", "zip5": "zip",
	}
	// Words that make a header something else than the field it resembles.
	spoilWords = map[string]bool{"type": true, "date": true, "status": true, "count": true, "county": true, "country": true,
		"unit": true, "apt": true, "suite": true, "middle": true, "mi": true, "suffix": true, "full": true, "carrier": true,
		"dnc": true, "score": true, "email": true, "e": true, "fips": true, "code4": true, "plus4": true, "vacant": true,
		"owned": true, "occupied": true, "flag": true, "value": true, "id": true, "name": true, "distance": true, "prefix": true}
	// Words of a column holding one piece of a street address.
	streetPieceWords = map[string]bool{"number": true, "num": true, "no": true, "house": true, "dir": true, "direction": true,
		"predir": true, "postdir": true, "pre": true, "post": true, "care": true, "attn": true}
	phoneWords = map[string]bool{"phone": true, "cell": true, "mobile": true, "wireless": true, "telephone": true, "tel": true,
		"landline": true, "ph": true, "cellphone": true}
)

var keyPart = map[string]struct{ group, part string }{
	PropertyStreet: {GroupProperty, "street"}, PropertyCity: {GroupProperty, "city"}, PropertyState: {GroupProperty, "state"}, PropertyZip: {GroupProperty, "zip"},
	MailingStreet: {GroupMailing, "street"}, MailingCity: {GroupMailing, "city"}, MailingState: {GroupMailing, "state"}, MailingZip: {GroupMailing, "zip"},
}

// scoreHeader is how well a header names a key, from the header alone.
func scoreHeader(h, key string) (float64, string) {
	ws := words(h)
	return scoreWords(h, ws, strings.Join(ws, ""), key)
}

// scoreWords is scoreHeader with the header's words (and their compact
// form c) already made.
func scoreWords(h string, ws []string, c, key string) (float64, string) {
	if h == key {
		return 1, "exact key"
	}
	if c == "" {
		return 0, ""
	}
	if c == compactKeys[key] {
		return 0.95, "same words"
	}
	ord := ordinal(ws)
	if k, ok := synonyms[c]; ok {
		if k != key {
			return 0, ""
		}
		return 0.9, "synonym"
	}
	// Looser reading from the header's words.
	s := wordScore(ws, key)
	if s <= 0 {
		return 0, ""
	}
	if ord > 1 {
		s -= 0.15 * float64(min(ord-1, 3))
	}
	return s, "header words"
}

// ordinal is the owner/phone number a header carries ("Owner 2 First" → 2), 0 if none.
func ordinal(ws []string) int {
	for i, w := range ws {
		if len(w) == 1 && w[0] >= '1' && w[0] <= '9' {
			if i > 0 && (ws[i-1] == "zip" || ws[i-1] == "line") {
				continue // Zip 5, Line 1
			}
			return int(w[0] - '0')
		}
	}
	return 0
}

func has(ws []string, set map[string]bool) bool {
	for _, w := range ws {
		if set[w] {
			return true
		}
	}
	return false
}

// wordScore is how well the words of a header name the field key: the
// name fields, the phone, and the address parts each have their own rule.
func wordScore(ws []string, key string) float64 {
	switch key {
	case FirstName, LastName:
		return nameWordScore(ws, key)
	case Phone:
		if !has(ws, phoneWords) {
			return 0
		}
		for _, w := range ws {
			if spoilWords[w] && w != "name" {
				return 0
			}
		}
		return 0.75
	}
	kp, ok := keyPart[key]
	if !ok || addressPart(ws) != kp.part {
		return 0
	}
	mail, prop := has(ws, mailWords), has(ws, propWords)
	switch {
	case mail && prop:
		return 0
	case mail:
		if kp.group == GroupMailing {
			return 0.8
		}
		return 0
	case prop:
		if kp.group == GroupProperty {
			return 0.8
		}
		return 0
	}
	// No group word: the property address by default.
	if kp.group == GroupProperty {
		return 0.7
	}
	return 0.55
}

// nameWordScore scores a header for first_name or last_name: it must say
// which of the two it is, and not be another part of a name (middle, full)
// or another thing (company, date, e-mail).
func nameWordScore(ws []string, key string) float64 {
	first, last, spoil := false, false, false
	for _, w := range ws {
		switch w {
		case "first", "fname", "firstname", "given", "forename":
			first = true
		case "last", "lname", "lastname", "surname", "family":
			last = true
		case "middle", "mi", "suffix", "full", "company", "business", "entity", "date", "email", "initial", "maiden":
			spoil = true
		}
	}
	if spoil || first == last {
		return 0
	}
	if (key == FirstName) == first {
		return 0.75
	}
	return 0
}

// addressPart is the one part of an address a header names (street, city,
// state, zip), or "" when it names none, several ("City State Zip") or a
// piece the service does not take (Address 2, Zip 4, St Number).
func addressPart(ws []string) string {
	part := ""
	for i, w := range ws {
		if p, ok := partWords[w]; ok {
			if w == "st" && i+1 < len(ws) { // "St Name", "St Number"
				continue
			}
			switch {
			case part == "" || part == p:
				part = p
			case part == "street":
				part = p // "Property Address City": the city of the address
			case p == "street":
				// "City Address": keep the city
			default:
				return "" // "City State Zip": a combined column
			}
		}
		if spoilWords[w] || streetPieceWords[w] {
			return ""
		}
		if (w == "2" || w == "line2" || w == "4") && part != "" {
			return "" // Address 2, Zip 4
		}
	}
	return part
}
