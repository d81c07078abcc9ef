// Package testlists makes owner lists for tests that check a price against
// what the provider charges: lists of people, of companies, with repeated
// rows; it writes a test's file (WriteFile) and reads a CSV file back whole
// (ReadCSV); it runs a generated test over its seeds (RunSeeds,
// FuzzSeeds). Only tests import it.
package testlists

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/skipdesk/skipdesk/assets"
)

// Header of the lists made here (the sample list's).
const Header = "Owner First Name,Owner Last Name,Property Address,Property City,Property State,Property Zip,Mailing Address,Mailing City,Mailing State,Mailing Zip"

// Mapping maps Header's columns to the service's fields.
var Mapping = map[string]string{
	"first_name": "Owner First Name", "last_name": "Owner Last Name",
	"property_street": "Property Address", "property_city": "Property City",
	"property_state": "Property State", "property_zip": "Property Zip",
	"mailing_street": "Mailing Address", "mailing_city": "Mailing City",
	"mailing_state": "Mailing State", "mailing_zip": "Mailing Zip",
}

// List is a named list to price and submit.
type List struct {
	Name string
	Body string
}

// Lists are the varied lists: the bundled sample, a list mostly of
// companies, one with repeated rows (some of them companies).
func Lists() []List {
	var llc, dup strings.Builder
	llc.WriteString(Header + "\r\n")
	for i := 0; i < 60; i++ {
		first, last := fmt.Sprintf("OWNER%d", i), "SMITH"
		switch i % 4 {
		case 0, 1:
			first, last = fmt.Sprintf("OAK %d HOLDINGS LLC", i), ""
		case 2:
			first, last = fmt.Sprintf("PINE %d TRUST", i), ""
		}
		fmt.Fprintf(&llc, "%s,%s,%d Main St,Austin,TX,78701,PO Box %d,Austin,TX,78702\r\n", first, last, i+1, i)
	}
	dup.WriteString(Header + "\r\n")
	for i := 0; i < 40; i++ {
		n := i % 25 // rows 25..39 repeat rows 0..14
		first, last := fmt.Sprintf("ANN%d", n), "LEE"
		if n%5 == 0 {
			first, last = fmt.Sprintf("ELM %d LLC", n), ""
		}
		fmt.Fprintf(&dup, "%s,%s,%d Elm St,Waco,TX,76701,,,,\r\n", first, last, n+1)
	}
	return []List{{"sample-owners.csv", string(assets.SampleOwners)}, {"llc-heavy.csv", llc.String()}, {"duplicates.csv", dup.String()}}
}

// Write writes l into dir and returns its path.
func (l List) Write(dir string) (string, error) {
	p := filepath.Join(dir, l.Name)
	return p, os.WriteFile(p, []byte(l.Body), 0o600)
}

// Choice is one way of submitting a list.
type Choice struct {
	Mode           string // "normal" or "enhanced"
	IncludeLLCs    bool
	DropDuplicates bool
}

// Choices are the combinations worth pricing.
var Choices = []Choice{
	{"normal", false, false}, {"normal", true, false}, {"normal", true, true},
	{"enhanced", false, false}, {"enhanced", true, true},
}

func (c Choice) String() string {
	return fmt.Sprintf("%s llcs=%v drop=%v", c.Mode, c.IncludeLLCs, c.DropDuplicates)
}
