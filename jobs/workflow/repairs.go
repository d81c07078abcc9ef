package workflow

import (
	"slices"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
)

// RepairOffer is what can be mended in a trace's file before paying, for
// the plan's mapping: the window offers each repair with its count, the
// command line names it in its warnings.
type RepairOffer struct {
	// ShortZips counts the ZIP codes, in the mapped ZIP columns, that lost
	// their leading zero in Excel (Plan.PadZips gives it back);
	// ZipExample is one of them and ZipFixed the same value repaired.
	ShortZips  int    `json:"short_zips,omitempty"`
	ZipExample string `json:"zip_example,omitempty"`
	ZipFixed   string `json:"zip_fixed,omitempty"`
	// NoAddress counts the rows whose street (StreetColumn) is blank: they
	// cannot be searched, and Plan.LeaveOutNoAddress leaves them out so
	// that they are not charged.
	NoAddress    int    `json:"no_address_rows,omitempty"`
	StreetColumn string `json:"street_column,omitempty"`
}

// Repairable is the offer of repairs for a trace of the inspected file
// with p's mapping and splits. A scrub's repair is leaving out its invalid
// numbers: its Counts' scan counts them.
func Repairable(ins *input.Inspection, p Plan) RepairOffer {
	var o RepairOffer
	if ins == nil || p.Kind == jobs.KindDNC {
		return o
	}
	q := p
	q.PadZips, q.LeaveOutNoAddress = true, true
	r := q.repairs(ins)
	for _, c := range r.PadZips {
		i := slices.Index(ins.Headers, c)
		if i < 0 || i >= len(ins.ShortZipsIn) {
			continue
		}
		o.ShortZips += ins.ShortZipsIn[i]
		for _, row := range ins.Sample {
			if o.ZipExample != "" || i >= len(row) {
				break
			}
			if z, ok := input.PadZip(row[i]); ok {
				o.ZipExample, o.ZipFixed = row[i], z
			}
		}
	}
	if len(r.LeaveOutBlank) > 0 {
		o.StreetColumn = r.LeaveOutBlank[0]
		if i := slices.Index(ins.Headers, o.StreetColumn); i >= 0 && i < len(ins.Blanks) {
			o.NoAddress = ins.Blanks[i]
		}
	}
	return o
}
