package resultgen

import (
	"fmt"
	"hash/fnv"
	"strconv"
)

// phoneFact is a number as the world has it: where its area code is, what
// line it is, and the lists it is really on. Every file of a case that
// answers for it derives its answer from these facts, so files agree with
// each other except in what they checked, when, and how they wrote it.
type phoneFact struct {
	digits    string
	state     string
	typ       LineType
	federal   bool
	onState   bool // on its state's list
	litigator bool
	dma       bool
	dead      bool // disconnected or not in service
	company   bool // on the company's own list
}

// areaCodes are real area codes by state. The states whose codes are also
// English words (OK, IN, OR, ME, HI, OH, AL, MA, PA) are the point: a
// column of state codes holds them as list answers.
var areaCodes = map[string][]string{
	"TX": {"512", "214", "713", "210", "817"}, "FL": {"305", "407", "813", "904"}, "CA": {"213", "415", "619", "916"},
	"NY": {"212", "718", "516"}, "GA": {"404", "678"}, "AZ": {"602", "480"}, "CO": {"303", "720"}, "NJ": {"201", "973"},
	"WA": {"206", "509"}, "NC": {"704", "919"}, "TN": {"615", "901"}, "MO": {"314", "816"}, "IL": {"312", "773"},
	"OK": {"405", "918"}, "IN": {"317", "219"}, "OR": {"503", "541"}, "ME": {"207"}, "HI": {"808"}, "OH": {"216", "614"},
	"AL": {"205", "334"}, "MA": {"617", "508"}, "PA": {"215", "412"},
}

// abroadList are area codes of the North American plan outside the US:
// Toronto, Vancouver, Montreal, Jamaica, the Dominican Republic. Owners of
// US property who live there reach real lists with such numbers (one in
// fifty of the generator's).
var abroadList = []string{"416", "647", "604", "514", "876", "809"}

// abroadCodes is abroadList as a set, for the truth.
var abroadCodes = func() map[string]bool {
	m := map[string]bool{}
	for _, c := range abroadList {
		m[c] = true
	}
	return m
}()

// plainStates are states whose codes read as nothing but states; wordStates
// are those whose codes are English words too.
var (
	plainStates = []string{"TX", "FL", "CA", "NY", "GA", "AZ", "CO", "NJ", "WA", "NC", "TN", "MO", "IL"}
	wordStates  = []string{"OK", "IN", "OR", "ME", "HI", "OH", "AL", "MA", "PA"}
)

// numbers hands out distinct valid numbers for a case.
type numbers struct {
	r    rng
	used map[string]bool
}

// next is a new number in state: a real area code, an exchange 2-9xx that
// is not N11 nor 555, any line number.
func (n *numbers) next(state string) string {
	codes := areaCodes[state]
	if n.r.chance(0.02) {
		codes = abroadList // a number abroad, the owner's
	}
	for {
		ac := pick(n.r, codes)
		ex := n.r.between(200, 999)
		if ex%100 == 11 || ex == 555 {
			continue
		}
		d := fmt.Sprintf("%s%03d%04d", ac, ex, n.r.IntN(10000))
		if !n.used[d] {
			n.used[d] = true
			return d
		}
	}
}

// newPhone makes a phone with its facts. late: the phone may be in a state
// whose code is an English word (the case keeps those to late rows when it
// tests a convention broken late).
func (g *gen) newPhone(wordState bool) *phoneFact {
	r := g.r
	st := pick(r, plainStates)
	if wordState {
		st = pick(r, wordStates)
	}
	p := &phoneFact{digits: g.nums.next(st), state: st}
	switch x := r.Float64(); {
	case x < 0.55:
		p.typ = TypeMobile
	case x < 0.85:
		p.typ = TypeLandline
	default:
		p.typ = TypeVoIP
	}
	p.federal = r.chance(g.rates.federal)
	p.onState = r.chance(g.rates.state)
	p.litigator = r.chance(g.rates.litigator)
	p.dma = r.chance(0.08)
	p.dead = r.chance(0.04)
	p.company = r.chance(g.rates.company)
	g.facts[p.digits] = p
	return p
}

// phoneFormat writes 10 digits as a vendor or a person would.
type phoneFormat func(r rng, d string) string

// phoneFormats are the ways numbers are written in real exports: bare
// digits (dialers, BatchData), (512) 555-0101 (PropStream, CRMs),
// dots (hand-typed lists), E.164 (GoHighLevel, Twilio-based tools), with a
// leading 1 and an extension (TLO/IDI business lines), spaces.
var phoneFormats = []phoneFormat{
	func(_ rng, d string) string { return d },
	func(_ rng, d string) string { return "(" + d[:3] + ") " + d[3:6] + "-" + d[6:] },
	func(_ rng, d string) string { return d[:3] + "." + d[3:6] + "." + d[6:] },
	func(_ rng, d string) string { return "+1" + d },
	func(_ rng, d string) string { return d[:3] + "-" + d[3:6] + "-" + d[6:] },
	func(_ rng, d string) string { return "1-" + d[:3] + "-" + d[3:6] + "-" + d[6:] },
	func(r rng, d string) string {
		return "1-" + d[:3] + "-" + d[3:6] + "-" + d[6:] + " x" + strconv.Itoa(r.between(1, 999))
	},
	func(_ rng, d string) string { return "+1 (" + d[:3] + ") " + d[3:6] + "-" + d[6:] },
	func(_ rng, d string) string { return d[:3] + " " + d[3:6] + " " + d[6:] },
	func(_ rng, d string) string { return "1" + d },
}

// withExtension writes a business line with its extension, as TLO/IDI-
// style returns do now and then.
func withExtension(r rng, d string) string {
	return "1-" + d[:3] + "-" + d[3:6] + "-" + d[6:] + " x" + strconv.Itoa(r.between(1, 999))
}

// otherFormats are those a file mixes in now and then.
var otherFormats = append([]phoneFormat{withExtension}, phoneFormats...)

// damaged is a number as Excel or a careless hand leaves it: scientific
// notation that lost digits, a digit missing. What it was cannot be told.
func damaged(r rng, d string) string {
	switch r.IntN(3) {
	case 0:
		return d[:1] + "." + d[1:6] + "E+09"
	case 1:
		return d[:3] + "-" + d[3:6] + "-" + d[6:9]
	}
	return "(" + d[:3] + ") " + d[3:6] + "-" + d[6:8]
}

// draw is a number in [0, 1) fixed for the phone and salt: the same
// random choice each time a file asks about the phone.
func (p *phoneFact) draw(salt string) float64 {
	h := fnv.New64a()
	h.Write([]byte(p.digits))
	h.Write([]byte(salt))
	return float64(h.Sum64()>>11) / (1 << 53)
}
