// Package libtest generates result files shaped like the provider's
// (CONTRACT §7) for tests and benchmarks of the library and the export.
package libtest

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"time"
)

// TraceInputHeaders are the input columns of a generated trace result.
var TraceInputHeaders = []string{
	"record_id", "first_name", "last_name", "property_address", "property_city", "property_state",
	"property_zip", "mailing_address", "mailing_city", "mailing_state", "mailing_zip", "county",
	"apn", "assessed_value",
}

// TraceResultHeaders are the columns the provider adds to a trace result.
var TraceResultHeaders = []string{
	"owner_first_name", "owner_last_name", "phone_1", "phone_1_type", "phone_2", "phone_2_type",
	"phone_3", "phone_3_type", "email_1", "email_2", "is_entity", "match_status",
}

var (
	firsts  = []string{"JOHN", "MARY", "ROBERT", "PATRICIA", "MICHAEL", "LINDA", "DAVID", "BARBARA", "JAMES", "ELIZABETH", "MARÍA", "JOSÉ"}
	lasts   = []string{"SMITH", "JOHNSON", "WILLIAMS", "BROWN", "JONES", "GARCIA", "MILLER", "DAVIS", "RODRIGUEZ", "MARTINEZ", "O'NEIL", "NGUYEN"}
	streets = []string{"MAIN ST", "OAK AVE", "PINE RD", "MAPLE DR", "CEDAR LN", "ELM ST", "LAKEVIEW BLVD", "HILLCREST CT"}
	cities  = []string{"SPRINGFIELD", "RIVERSIDE", "FRANKLIN", "GREENVILLE", "BRISTOL", "CLINTON", "SALEM", "FAIRVIEW"}
	states  = []string{"NJ", "MA", "CT", "NY", "TX", "FL", "OH", "CA"}
	types   = []string{"mobile", "landline", "voip"}
)

// Phone returns the fictional number number n (exchange 555, line 01XX).
func Phone(area, n int) string {
	return fmt.Sprintf("%03d55501%02d", 200+area%800, n%100)
}

// WriteTrace writes a trace result of rows data rows (26 columns, ~180
// bytes a row: 400k rows make ~72 MB). Zips of New England states keep their
// leading zero; about one row in six is not matched.
func WriteTrace(w io.Writer, rows int, seed uint64) error {
	rnd := rand.New(rand.NewPCG(seed, 1))
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	if err := cw.Write(append(append([]string{}, TraceInputHeaders...), TraceResultHeaders...)); err != nil {
		return err
	}
	rec := make([]string, 26)
	for i := range rows {
		first, last := firsts[rnd.IntN(len(firsts))], lasts[rnd.IntN(len(lasts))]
		st := rnd.IntN(len(states))
		zip := strconv.Itoa(1000 + rnd.IntN(98000))
		for len(zip) < 5 {
			zip = "0" + zip
		}
		rec[0] = strconv.Itoa(100000 + i)
		rec[1], rec[2] = first, last
		rec[3] = strconv.Itoa(1+rnd.IntN(9999)) + " " + streets[rnd.IntN(len(streets))]
		rec[4], rec[5], rec[6] = cities[rnd.IntN(len(cities))], states[st], zip
		rec[7] = "PO BOX " + strconv.Itoa(1+rnd.IntN(999))
		rec[8], rec[9], rec[10] = cities[rnd.IntN(len(cities))], states[st], zip
		rec[11] = cities[rnd.IntN(len(cities))]
		rec[12] = fmt.Sprintf("%03d-%03d-%03d", rnd.IntN(1000), rnd.IntN(1000), rnd.IntN(1000))
		rec[13] = strconv.Itoa(50000 + rnd.IntN(900000))
		for k := 14; k < 26; k++ {
			rec[k] = ""
		}
		status := "matched"
		switch r := rnd.IntN(12); {
		case r < 2:
			status = "no_match"
		case r == 2 && i%7 == 0:
			status = "error"
		}
		rec[24] = "false"
		if status == "matched" {
			rec[14], rec[15] = first, last
			n := 1 + rnd.IntN(3)
			for p := 0; p < n; p++ {
				rec[16+2*p] = Phone(rnd.IntN(800), rnd.IntN(100))
				rec[17+2*p] = types[rnd.IntN(3)]
			}
			rec[22] = fmt.Sprintf("%s.%s%d@example.com", first[:1], last, rnd.IntN(100))
			if rnd.IntN(3) == 0 {
				rec[23] = fmt.Sprintf("%s%d@example.com", last, rnd.IntN(1000))
			}
		}
		rec[25] = status
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteTraceFile writes a generated trace result to path.
func WriteTraceFile(path string, rows int, seed uint64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	err = WriteTrace(bw, rows, seed)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// ScrubDay is when the generated DNC result was scrubbed (the benchmarks
// export their callable lists the day after).
var ScrubDay = time.Date(2026, 11, 23, 15, 0, 0, 0, time.UTC)

// WriteScrubFile writes a DNC result of every number Phone makes (800 area
// codes × 100 lines, ~3.6 MB), one in ten on the registry; the caller
// writes its job record (scrubbed at ScrubDay).
func WriteScrubFile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	fmt.Fprint(w, "phone,phone_normalized,dnc,litigator,line_type,status\r\n")
	for area := range 800 {
		for n := range 100 {
			p := Phone(area, n)
			fmt.Fprintf(w, "%s,%s,%v,false,mobile,ok\r\n", p, p, (area+n)%10 == 0)
		}
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
