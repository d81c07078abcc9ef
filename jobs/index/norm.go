package index

import (
	"bytes"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The one normalisation rule: how names, addresses and e-mails are read
// into words for the search terms, and into the owner key that tells
// whether a row of a list was traced before. The same functions read the
// library's results and the person's list, so both sides always agree.

// fold lowercases s, takes the accents off Latin letters, deletes
// apostrophes and dots (O'NEIL is oneil, L.L.C. is llc) and turns every
// other character that is not a letter or a digit into a space. '#' is
// kept as a word of its own (a unit number: "#4B").
func fold(dst []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
				dst = append(dst, c)
			case c >= 'A' && c <= 'Z':
				dst = append(dst, c+'a'-'A')
			case c == '\'' || c == '.' || c == '`':
			case c == '#':
				dst = append(dst, ' ', '#', ' ')
			default:
				dst = append(dst, ' ')
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case r == '’' || r == '‘':
		case r < 0x250 && latin[r] != "":
			dst = append(dst, latin[r]...)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			dst = utf8.AppendRune(dst, unicode.ToLower(r))
		default:
			dst = append(dst, ' ')
		}
	}
	return dst
}

// latin maps the accented Latin letters to their plain form.
var latin = func() map[rune]string {
	m := map[rune]string{}
	add := func(plain string, accented string) {
		for _, r := range accented {
			m[r] = plain
		}
	}
	add("a", "àáâãäåāăąÀÁÂÃÄÅĀĂĄ")
	add("ae", "æÆ")
	add("c", "çćĉċčÇĆĈĊČ")
	add("d", "ďđÐðĎĐ")
	add("e", "èéêëēĕėęěÈÉÊËĒĔĖĘĚ")
	add("g", "ĝğġģĜĞĠĢ")
	add("h", "ĥħĤĦ")
	add("i", "ìíîïĩīĭįıÌÍÎÏĨĪĬĮİ")
	add("j", "ĵĴ")
	add("k", "ķĶ")
	add("l", "ĺļľŀłĹĻĽĿŁ")
	add("n", "ñńņňÑŃŅŇ")
	add("o", "òóôõöøōŏőÒÓÔÕÖØŌŎŐ")
	add("oe", "œŒ")
	add("r", "ŕŗřŔŖŘ")
	add("s", "śŝşšŚŜŞŠ")
	add("ss", "ß")
	add("t", "ţťŧŢŤŦ")
	add("u", "ùúûüũūŭůűųÙÚÛÜŨŪŬŮŰŲ")
	add("w", "ŵŴ")
	add("y", "ýÿŷÝŸŶ")
	add("z", "źżžŹŻŽ")
	return m
}()

// words appends the folded words of s to dst.
func words(dst []string, buf []byte, s string) ([]string, []byte) {
	buf = fold(buf[:0], s)
	return append(dst, strings.Fields(string(buf))...), buf
}

// Words are the folded words of s, as the index and the search read them.
func Words(s string) []string {
	w, _ := words(nil, nil, s)
	return w
}

// canon is the usual short form of an address word ("street" is "st",
// "north" is "n", "apartment" is "#"); words without one are themselves.
func canon(w string) string {
	if c, ok := addressWords[w]; ok {
		return c
	}
	return w
}

// addressWords are USPS-style short forms: street suffixes, directions,
// unit designators (all "#"), ordinals and a few city words.
var addressWords = map[string]string{
	// suffixes
	"street": "st", "str": "st", "strt": "st",
	"avenue": "ave", "av": "ave", "aven": "ave", "avn": "ave",
	"road": "rd", "drive": "dr", "drv": "dr", "driv": "dr",
	"lane": "ln", "boulevard": "blvd", "boul": "blvd", "blv": "blvd",
	"court": "ct", "crt": "ct", "place": "pl", "plc": "pl",
	"terrace": "ter", "terr": "ter", "circle": "cir", "circ": "cir", "crcl": "cir",
	"parkway": "pkwy", "pkway": "pkwy", "pky": "pkwy", "highway": "hwy", "hiway": "hwy",
	"square": "sq", "sqr": "sq", "trail": "trl", "tr": "trl", "expressway": "expy",
	"freeway": "fwy", "alley": "aly", "crossing": "xing", "point": "pt",
	"ridge": "rdg", "heights": "hts", "hollow": "holw", "plaza": "plz",
	"center": "ctr", "centre": "ctr", "creek": "crk", "crescent": "cres",
	"grove": "grv", "hill": "hl", "landing": "lndg", "meadow": "mdw", "meadows": "mdws",
	"mountain": "mtn", "spring": "spg", "springs": "spgs", "station": "sta",
	"summit": "smt", "valley": "vly", "view": "vw", "village": "vlg", "cove": "cv",
	"estates": "est", "glen": "gln", "harbor": "hbr", "junction": "jct",
	"lake": "lk", "manor": "mnr", "orchard": "orch", "shore": "shr",
	"turnpike": "tpke", "causeway": "cswy", "extension": "ext", "parkways": "pkwy",
	// directions
	"north": "n", "south": "s", "east": "e", "west": "w",
	"northeast": "ne", "northwest": "nw", "southeast": "se", "southwest": "sw",
	// unit designators
	"#": "#", "apartment": "#", "apt": "#", "unit": "#", "suite": "#", "ste": "#", "no": "#",
	"number": "#", "room": "#", "rm": "#", "space": "#", "spc": "#", "lot": "#",
	"trailer": "#", "trlr": "#", "bldg": "#", "building": "#", "floor": "#", "fl": "#",
	// ordinals
	"first": "1st", "second": "2nd", "third": "3rd", "fourth": "4th", "fifth": "5th",
	"sixth": "6th", "seventh": "7th", "eighth": "8th", "ninth": "9th", "tenth": "10th",
	// city words
	"saint": "st", "fort": "ft", "mount": "mt",
}

// states maps state names to their two-letter codes.
var states = map[string]string{
	"alabama": "al", "alaska": "ak", "arizona": "az", "arkansas": "ar", "california": "ca",
	"colorado": "co", "connecticut": "ct", "delaware": "de", "florida": "fl", "georgia": "ga",
	"hawaii": "hi", "idaho": "id", "illinois": "il", "indiana": "in", "iowa": "ia",
	"kansas": "ks", "kentucky": "ky", "louisiana": "la", "maine": "me", "maryland": "md",
	"massachusetts": "ma", "michigan": "mi", "minnesota": "mn", "mississippi": "ms",
	"missouri": "mo", "montana": "mt", "nebraska": "ne", "nevada": "nv", "new hampshire": "nh",
	"new jersey": "nj", "new mexico": "nm", "new york": "ny", "north carolina": "nc",
	"north dakota": "nd", "ohio": "oh", "oklahoma": "ok", "oregon": "or", "pennsylvania": "pa",
	"rhode island": "ri", "south carolina": "sc", "south dakota": "sd", "tennessee": "tn",
	"texas": "tx", "utah": "ut", "vermont": "vt", "virginia": "va", "washington": "wa",
	"west virginia": "wv", "wisconsin": "wi", "wyoming": "wy", "district of columbia": "dc",
	"puerto rico": "pr",
}

// Address is an address as a row gives it.
type Address struct {
	Street, Street2, City, State, Zip string
	// Full is the whole address on one line, used when Street is blank.
	Full string
}

// Zip5 reads a zip code: its first five digits, a leading zero put back
// where a spreadsheet dropped it (2134 is 02134, an 8-digit zip+4 too);
// "" when it is not a zip.
func Zip5(s string) string { return zip5(s) }

func zip5(s string) string {
	s = strings.TrimSpace(s)
	n := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= '0' && c <= '9' {
			n++
		} else if c != '-' && c != ' ' {
			return ""
		}
	}
	if n == 5 && len(s) == 5 {
		return s // the common case, as it is
	}
	var d [9]byte
	k := 0
	for i := 0; i < len(s) && k < 9; i++ {
		if c := s[i]; c >= '0' && c <= '9' {
			d[k] = c
			k++
		}
	}
	switch n {
	case 4, 8:
		return "0" + string(d[:4])
	case 5, 9:
		return string(d[:5])
	}
	return ""
}

// scratch holds the buffers the key functions reuse.
type scratch struct {
	buf   []byte
	spans [][2]int
}

// split folds s into sc.buf (after what is there) and appends the spans
// of its words to sc.spans.
func (sc *scratch) split(s string) {
	from := len(sc.buf)
	sc.buf = fold(sc.buf, s)
	for i := from; i < len(sc.buf); {
		for i < len(sc.buf) && sc.buf[i] == ' ' {
			i++
		}
		j := i
		for j < len(sc.buf) && sc.buf[j] != ' ' {
			j++
		}
		if j > i {
			sc.spans = append(sc.spans, [2]int{i, j})
		}
		i = j
	}
}

func (sc *scratch) word(i int) []byte { return sc.buf[sc.spans[i][0]:sc.spans[i][1]] }

// appendStreetKey appends a street line in its canonical words: "123
// North Main Street, Apt. 4-B" is "123 n main st #4b". A unit designator
// (apt, unit, suite, #, …) starts the unit: its words are joined, so "#4B",
// "Apt 4-B" and "Unit 4 B" are the same unit. street2 (a second address
// line) is the unit when it is not blank.
func appendStreetKey(dst []byte, sc *scratch, street, street2 string) []byte {
	sc.buf, sc.spans = sc.buf[:0], sc.spans[:0]
	sc.split(street)
	n := len(sc.spans)
	if strings.TrimSpace(street2) != "" {
		sc.split(street2)
		if len(sc.spans) > n && canonBytes(sc.word(n)) != "#" {
			sc.buf = append(sc.buf, " #"...)
			sc.spans = slices.Insert(sc.spans, n, [2]int{len(sc.buf) - 1, len(sc.buf)})
		}
	}
	start := len(dst)
	unit := false
	for i := range sc.spans {
		w := sc.word(i)
		c := canonBytes(w)
		if c == "#" {
			if !unit {
				unit = true
				dst = append(dst, " #"...)
			}
			continue
		}
		switch {
		case unit: // the unit's words, joined
		case len(dst) > start:
			dst = append(dst, ' ')
		}
		if c != "" {
			dst = append(dst, c...)
		} else {
			dst = append(dst, w...)
		}
	}
	if len(dst) > start && dst[start] == ' ' {
		dst = append(dst[:start], dst[start+1:]...)
	}
	return dst
}

// canonBytes is canon of a word given as bytes, "" when it has no short
// form (no allocation).
func canonBytes(w []byte) string {
	if !addressFilter.mayHold(w) {
		return ""
	}
	return addressWords[string(w)]
}

// wordFilter tells, without a map look-up, most words that are not keys
// of a map of words (a list's owner keys look up every word of every row):
// a bit per (length, first byte, last byte), set for each key. A word
// whose bit is clear is not a key; one whose bit is set may be.
type wordFilter [64]uint64

func newWordFilter[V any](m map[string]V) *wordFilter {
	var f wordFilter
	for k := range m {
		b := filterBit([]byte(k))
		f[b/64] |= 1 << (b % 64)
	}
	return &f
}

func filterBit(w []byte) uint {
	if len(w) == 0 {
		return 0
	}
	return (uint(len(w))*131 + uint(w[0])*31 + uint(w[len(w)-1])) % 4096
}

func (f *wordFilter) mayHold(w []byte) bool {
	b := filterBit(w)
	return f[b/64]&(1<<(b%64)) != 0
}

// The filters of the maps of words a key looks every word up in.
var (
	addressFilter = newWordFilter(addressWords)
	noiseFilter   = newWordFilter(nameNoise)
	companyFilter = newWordFilter(companyWords)
)

// AddressKey is an address in canonical form, for telling whether two
// rows are the same property: the street line's canonical words with its
// unit, then the 5-digit zip; without a zip, the city and the state. ""
// when there is no street.
func AddressKey(a Address) string {
	return string(appendAddressKey(nil, &scratch{}, a))
}

func appendAddressKey(dst []byte, sc *scratch, a Address) []byte {
	street, city, state, zip := a.Street, a.City, a.State, a.Zip
	if strings.TrimSpace(street) == "" && strings.TrimSpace(a.Full) != "" {
		street, city, state, zip = splitFull(a.Full)
	}
	start := len(dst)
	dst = appendStreetKey(dst, sc, street, a.Street2)
	if len(dst) == start {
		return dst
	}
	dst = append(dst, '|')
	if z := zip5(zip); z != "" {
		return append(dst, z...)
	}
	sc.buf, sc.spans = sc.buf[:0], sc.spans[:0]
	sc.split(city)
	for i := range sc.spans {
		if i > 0 {
			dst = append(dst, ' ')
		}
		w := sc.word(i)
		if c := canonBytes(w); c != "" {
			dst = append(dst, c...)
		} else {
			dst = append(dst, w...)
		}
	}
	dst = append(dst, '|')
	return append(dst, stateCode(state)...)
}

// stateCode is a state as its two-letter code.
func stateCode(s string) string {
	w := strings.Join(Words(s), " ")
	if c, ok := states[w]; ok {
		return c
	}
	return w
}

// splitFull reads "123 Main St, Springfield, IL 62701" into its parts: the
// street is what comes before the first comma (or the words before the
// state and zip when there is no comma), the zip the last 5- or 9-digit
// word, the state the two letters before it.
func splitFull(full string) (street, city, state, zip string) {
	rest := full
	if i := strings.IndexByte(full, ','); i >= 0 {
		street, rest = full[:i], full[i+1:]
	}
	ws := strings.Fields(strings.NewReplacer(",", " ").Replace(rest))
	if street == "" {
		ws = strings.Fields(full)
	}
	for len(ws) > 0 {
		last := ws[len(ws)-1]
		if z := Zip5(last); z != "" && zip == "" && len(last) >= 4 {
			zip = last
			ws = ws[:len(ws)-1]
			continue
		}
		if len(Words(last)) == 1 && len(strings.Trim(last, ".")) == 2 && state == "" && zip != "" {
			state = last
			ws = ws[:len(ws)-1]
		}
		break
	}
	if street == "" {
		street = strings.Join(ws, " ")
	} else {
		city = strings.Join(ws, " ")
	}
	return street, city, state, zip
}

// nameNoise are words left out of a name key: honorifics and "and".
var nameNoise = map[string]bool{"mr": true, "mrs": true, "ms": true, "miss": true, "dr": true, "and": true}

// companyWords are the short forms of company words in names.
var companyWords = map[string]string{
	"incorporated": "inc", "corporation": "corp", "company": "co", "limited": "ltd",
}

// NameKey is an owner's name in canonical form: its folded words, sorted
// (so "SMITH, JOHN" is "John Smith"), without initials, honorifics and
// "and", with company words in their short form (Incorporated is inc).
// Generational suffixes (Jr, Sr, III) are kept: father and son at one
// address are two owners.
func NameKey(first, last, full string) string {
	return string(appendNameKey(nil, &scratch{}, first, last, full))
}

func appendNameKey(dst []byte, sc *scratch, first, last, full string) []byte {
	sc.buf, sc.spans = sc.buf[:0], sc.spans[:0]
	sc.split(first)
	sc.buf = append(sc.buf, ' ')
	sc.split(last)
	if len(sc.spans) == 0 {
		sc.split(full)
	}
	// The words kept, company words in their short form (appended to the
	// buffer once, not looked up at each comparison of the sort).
	kept := sc.spans[:0]
	for _, sp := range sc.spans {
		w := sc.buf[sp[0]:sp[1]]
		if (len(w) == 1 && w[0] >= 'a' && w[0] <= 'z') || (noiseFilter.mayHold(w) && nameNoise[string(w)]) {
			continue
		}
		if companyFilter.mayHold(w) {
			if c, ok := companyWords[string(w)]; ok {
				sc.buf = append(sc.buf, c...)
				sp = [2]int{len(sc.buf) - len(c), len(sc.buf)}
			}
		}
		kept = append(kept, sp)
	}
	word := func(sp [2]int) []byte { return sc.buf[sp[0]:sp[1]] }
	slices.SortFunc(kept, func(a, b [2]int) int { return bytes.Compare(word(a), word(b)) })
	for i, sp := range kept {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, word(sp)...)
	}
	return dst
}

// OwnerKey is what makes two rows the same lookup: the owner's name key and
// the property's address key. "" when the row has no property address.
func OwnerKey(name, address string) string {
	if address == "" {
		return ""
	}
	return name + "\x1f" + address
}

// OwnerHash is the 64-bit hash (FNV-1a) of an owner key that the index
// keeps (a match is confirmed against the row itself before it is reused).
func OwnerHash(key string) int64 { return ownerHash(key) }

func ownerHash[T string | []byte](key T) int64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= 1099511628211
	}
	return int64(h)
}

// Keyer computes owner keys (OwnerKey of NameKey and AddressKey) reusing
// its buffers: for reading a whole list. Use one per goroutine.
type Keyer struct {
	sc  scratch
	buf []byte
}

// Key is the owner key of a name and a property address; "" without an
// address. It is valid until the next call.
func (k *Keyer) Key(first, last, full string, a Address) string {
	if !k.build(first, last, full, a) {
		return ""
	}
	return string(k.buf)
}

// Hash is OwnerHash of Key's key, made without a string of its own; ok is
// false without an address (no key).
func (k *Keyer) Hash(first, last, full string, a Address) (h int64, ok bool) {
	if !k.build(first, last, full, a) {
		return 0, false
	}
	return ownerHash(k.buf), true
}

// build makes the owner key in k.buf; false without an address.
func (k *Keyer) build(first, last, full string, a Address) bool {
	k.buf = appendNameKey(k.buf[:0], &k.sc, first, last, full)
	k.buf = append(k.buf, '\x1f')
	n := len(k.buf)
	k.buf = appendAddressKey(k.buf, &k.sc, a)
	return len(k.buf) > n
}
