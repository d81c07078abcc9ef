// Package corpus generates realistic owner lists for tests and benchmarks:
// vendor-style headers, company (LLC, trust) rows, blank last names,
// duplicate rows, zips and phones damaged by Excel, accented names, quoted
// addresses. It counts what it generates, so tests can compare a reader's
// findings with the truth.
package corpus

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// Header is the header of the generated lists (12 columns).
var Header = []string{
	"Owner 1 First Name", "Owner 1 Last Name", "Situs Address", "Site City", "Site State", "Site Zip",
	"Mail Address", "Mail City", "Mail State", "Mail Zip", "Phone 1", "Email",
}

// Column indexes in Header.
const (
	First = iota
	Last
	SitusAddress
	SiteCity
	SiteState
	SiteZip
	MailAddress
	MailCity
	MailState
	MailZip
	Phone
	Email
)

// Expect counts what the generator produced.
type Expect struct {
	Rows          int
	EntityRows    int
	DuplicateRows int   // rows repeating an earlier row (all columns, normalised)
	ShortZips     int   // 4-digit zips (both zip columns)
	SciNumbers    int   // phones like 2.01555E+09
	Blanks        []int // per column
}

// Name lists: none of the person names contains an entity token as a word.
var (
	firsts = []string{"James", "Mary", "John", "Patricia", "Robert", "Jennifer", "Michael", "Linda", "William",
		"Elizabeth", "David", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles",
		"Karen", "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Margaret", "Donald", "Sandra"}
	accented = []string{"José", "María", "Zoë", "Renée", "Andrés", "Inés", "Björn", "François", "Müller", "Peña",
		"Muñoz", "Núñez", "Çelik", "Ibáñez", "Gómez"}
	lasts = []string{"Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
		"Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Taylor", "Moore", "Jackson",
		"Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez", "Clark", "Ramirez", "Lewis",
		"Robinson", "Walker", "O'Brien", "Van Der Berg", "St. Clair", "Cobb", "Coe"}
	companies = []string{"Oak Holdings LLC", "Blue Sky Properties Inc", "Smith Family Trust", "Riverside Investments LP",
		"Acme Corp", "Sunrise Partners", "Main Street Group", "Doe Revocable Trust", "Lakeview Enterprises Ltd",
		"First National Bank", "Green Acres Co", "J & M Associates", "Harbor Realty L.L.C.", "Pine PLLC"}
	streets = []string{"Main St", "Oak Ave", "Maple Dr", "Cedar Ln", "Elm St", "Washington Blvd", "Lake Rd",
		"Hillcrest Dr", "Park Ave", "Sunset Blvd", "Pine St", "River Rd", "Church St", "Mill Ln"}
	cities = []struct{ city, state, zip string }{
		{"Boston", "MA", "02134"}, {"Newark", "NJ", "07102"}, {"Hartford", "CT", "06103"}, {"Portland", "ME", "04101"},
		{"Houston", "TX", "77002"}, {"Phoenix", "AZ", "85004"}, {"Dallas", "TX", "75201"}, {"Atlanta", "GA", "30303"},
		{"Denver", "CO", "80202"}, {"Tampa", "FL", "33602"}, {"Memphis", "TN", "38103"}, {"Columbus", "OH", "43215"},
		{"San José", "CA", "95113"}, {"Albuquerque", "NM", "87102"},
	}
)

// Generator makes rows; it is deterministic for a seed.
type Generator struct {
	rnd    *rand.Rand
	recent [][]string // candidates for duplicates
	Expect Expect
}

// New returns a generator.
func New(seed uint64) *Generator {
	return &Generator{rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), Expect: Expect{Blanks: make([]int, len(Header))}}
}

func (g *Generator) pick(xs []string) string { return xs[g.rnd.IntN(len(xs))] }

// Row returns the next data row (a new slice).
func (g *Generator) Row() []string {
	r := g.rnd
	var row []string
	if len(g.recent) > 0 && r.IntN(100) < 3 {
		// A duplicate of a recent row, as vendors' merged lists have them;
		// sometimes with different case and punctuation.
		src := g.recent[r.IntN(len(g.recent))]
		row = append([]string(nil), src...)
		if r.IntN(2) == 0 {
			row[First] = strings.ToUpper(row[First])
			row[Last] = strings.ToUpper(row[Last])
			row[SitusAddress] = strings.ReplaceAll(row[SitusAddress], " St", " St.")
		}
		g.Expect.DuplicateRows++
	} else {
		row = g.fresh()
		if len(g.recent) < 64 {
			g.recent = append(g.recent, row)
		} else {
			g.recent[r.IntN(len(g.recent))] = row
		}
	}
	g.count(row)
	return row
}

func (g *Generator) fresh() []string {
	r := g.rnd
	row := make([]string, len(Header))
	switch n := r.IntN(100); {
	case n < 5: // a company: name in the last-name column
		row[Last] = strings.ToUpper(g.pick(companies))
	case n < 7: // blank last name
		row[First] = g.pick(firsts)
	case n < 9:
		row[First], row[Last] = g.pick(accented), g.pick(lasts)
	default:
		row[First], row[Last] = g.pick(firsts), g.pick(lasts)
	}
	site := cities[r.IntN(len(cities))]
	row[SitusAddress] = fmt.Sprintf("%d %s", 1+r.IntN(9999), g.pick(streets))
	if r.IntN(20) == 0 {
		row[SitusAddress] += fmt.Sprintf(", Apt %d", 1+r.IntN(40)) // quoted in the CSV
	}
	row[SiteCity], row[SiteState], row[SiteZip] = site.city, site.state, site.zip
	mail := site
	if r.IntN(3) == 0 {
		mail = cities[r.IntN(len(cities))]
		row[MailAddress] = fmt.Sprintf("PO Box %d", 1+r.IntN(9999))
	} else {
		row[MailAddress] = row[SitusAddress]
	}
	row[MailCity], row[MailState], row[MailZip] = mail.city, mail.state, mail.zip
	// Excel drops the leading zero of northeastern zips.
	for _, c := range []int{SiteZip, MailZip} {
		if row[c][0] == '0' && r.IntN(4) == 0 {
			row[c] = row[c][1:]
		}
	}
	switch n := r.IntN(100); {
	case n < 10: // no phone
	case n < 12:
		row[Phone] = fmt.Sprintf("%d.%05dE+09", 2+r.IntN(8), r.IntN(100000))
	case n < 30:
		row[Phone] = fmt.Sprintf("(%d) %d-%04d", 201+r.IntN(798), 201+r.IntN(798), r.IntN(10000))
	default:
		row[Phone] = fmt.Sprintf("%d%d%04d", 201+r.IntN(798), 201+r.IntN(798), r.IntN(10000))
	}
	if r.IntN(3) > 0 && row[First] != "" {
		row[Email] = strings.ToLower(asciiOnly(row[First])) + fmt.Sprintf("%d@example.com", r.IntN(1000))
	}
	return row
}

func asciiOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 {
			return r
		}
		return 'x'
	}, s)
}

func (g *Generator) count(row []string) {
	e := &g.Expect
	e.Rows++
	if row[First] == "" && row[Last] != "" {
		e.EntityRows++ // only companies leave the first name blank
	}
	for i, v := range row {
		if v == "" {
			e.Blanks[i]++
		}
	}
	for _, c := range []int{SiteZip, MailZip} {
		if len(row[c]) == 4 {
			e.ShortZips++
		}
	}
	if strings.Contains(row[Phone], "E+") {
		e.SciNumbers++
	}
}

// Format says how a list is written.
type Format struct {
	Delim    rune   // 0 means ','
	LineEnd  string // "\n" (default), "\r\n" or "\r"
	Encoding string // "UTF-8" (default), "UTF-8 BOM", "UTF-16LE", "UTF-16BE", "Windows-1252"
	Title    []string
	QuoteAll bool // quote every field, as some CRMs export
}

// Write writes a header and rows rows from g to w in format f, and returns
// the bytes written.
func Write(w io.Writer, g *Generator, rows int, f Format) (int64, error) {
	return WriteUntil(w, g, rows, -1, f)
}

// WriteUntil is Write that stops after rows rows or once size bytes (of the
// encoded output) are written, whichever comes first (a negative value is
// no limit).
func WriteUntil(w io.Writer, g *Generator, rows int, size int64, f Format) (int64, error) {
	cw := &countWriter{w: w}
	out, closer := encoded(cw, f.Encoding)
	bw := bufio.NewWriterSize(out, 64<<10)
	lineEnd := f.LineEnd
	if lineEnd == "" {
		lineEnd = "\n"
	}
	var body io.Writer = bw
	if lineEnd == "\r" {
		body = &crWriter{w: bw}
	}
	for _, t := range f.Title {
		io.WriteString(bw, t+lineEnd)
	}
	cv := f.records(body, lineEnd)
	cv.Write(Header)
	for i := 0; rows < 0 || i < rows; i++ {
		if size >= 0 && i%256 == 0 {
			cv.Flush()
			bw.Flush()
			if cw.n >= size {
				break
			}
		}
		if err := cv.Write(g.Row()); err != nil {
			return cw.n, err
		}
	}
	cv.Flush()
	if err := cv.Error(); err != nil {
		return cw.n, err
	}
	if err := bw.Flush(); err != nil {
		return cw.n, err
	}
	if closer != nil {
		if err := closer.Close(); err != nil {
			return cw.n, err
		}
	}
	return cw.n, cw.err
}

// encoded is the writer that writes to cw in the encoding named (a BOM
// written first for "UTF-8 BOM"), and what to close to finish it (nil:
// nothing).
func encoded(cw *countWriter, encoding string) (io.Writer, io.Closer) {
	var enc transform.Transformer
	switch encoding {
	case "UTF-8 BOM":
		cw.Write([]byte{0xEF, 0xBB, 0xBF})
	case "UTF-16LE":
		enc = unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewEncoder()
	case "UTF-16BE":
		enc = unicode.UTF16(unicode.BigEndian, unicode.UseBOM).NewEncoder()
	case "Windows-1252":
		enc = charmap.Windows1252.NewEncoder()
	}
	if enc == nil {
		return cw, nil
	}
	t := transform.NewWriter(cw, enc)
	return t, t
}

// records is the record writer of the format: every field quoted, or
// encoding/csv's quoting, with its delimiter and line end.
func (f Format) records(body io.Writer, lineEnd string) recordWriter {
	if f.QuoteAll {
		delim := f.Delim
		if delim == 0 {
			delim = ','
		}
		eol := strings.ReplaceAll(lineEnd, "\r", "\n")
		if lineEnd == "\r\n" {
			eol = "\r\n"
		}
		return &quoteAllWriter{w: body, delim: string(delim), eol: eol}
	}
	c := csv.NewWriter(body)
	if f.Delim != 0 {
		c.Comma = f.Delim
	}
	c.UseCRLF = lineEnd == "\r\n"
	return c
}

type recordWriter interface {
	Write([]string) error
	Flush()
	Error() error
}

// quoteAllWriter writes every field quoted.
type quoteAllWriter struct {
	w     io.Writer
	delim string
	eol   string
	err   error
}

func (q *quoteAllWriter) Write(rec []string) error {
	var b strings.Builder
	for i, f := range rec {
		if i > 0 {
			b.WriteString(q.delim)
		}
		b.WriteString(`"` + strings.ReplaceAll(f, `"`, `""`) + `"`)
	}
	b.WriteString(q.eol)
	if _, err := io.WriteString(q.w, b.String()); err != nil && q.err == nil {
		q.err = err
	}
	return q.err
}

func (q *quoteAllWriter) Flush()       {}
func (q *quoteAllWriter) Error() error { return q.err }

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	if err != nil && c.err == nil {
		c.err = err
	}
	return n, err
}

// crWriter turns "\n" into "\r" (an old Mac export). encoding/csv writes
// embedded line breaks as they are, and the generator makes none.
type crWriter struct{ w io.Writer }

func (c *crWriter) Write(p []byte) (int, error) {
	q := []byte(strings.ReplaceAll(string(p), "\n", "\r"))
	if _, err := c.w.Write(q); err != nil {
		return 0, err
	}
	return len(p), nil
}
