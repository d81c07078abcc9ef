package workflow

import (
	"encoding/csv"
	"strconv"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// keepSingle keeps a single lookup's answer in the library as a one-row
// trace result — the owner and address asked, the names, phones and
// e-mails found, whether the owner was found — so that the Library lists
// it, its search finds it, and a later trace of the same owner reuses it.
// It returns where it went.
func (s *SubmitService) keepSingle(jobID string, req client.SingleTraceRequest, res *client.SingleTraceResult, at time.Time) (string, error) {
	lib, err := s.library()
	if err != nil {
		return "", err
	}
	headers, rec := singleRecord(req, res)
	var b strings.Builder
	w := csv.NewWriter(&b)
	_ = w.Write(headers)
	_ = w.Write(rec)
	w.Flush()
	meta := library.Meta{JobID: jobID, Kind: jobs.KindTrace, Name: submit.SingleName(&req) + ".csv", Status: jobs.StatusCompleted,
		CreatedAt: at, CompletedAt: at, TotalRows: 1}
	dest := lib.PathFor(meta)
	if err := library.WriteFileAtomic(dest, []byte(b.String())); err != nil {
		return "", err
	}
	if err := lib.Record(meta, dest); err != nil {
		return "", err
	}
	s.indexInBackground(lib.Dir())
	return dest, nil
}

// singleRecord is a single lookup's answer as a trace result's header and
// row, in the provider's result columns.
func singleRecord(req client.SingleTraceRequest, res *client.SingleTraceResult) ([]string, []string) {
	match := "no_match"
	if res.Matched {
		match = "matched"
	}
	headers := []string{"first_name", "last_name", "property_address", "property_city", "property_state", "property_zip",
		"mailing_address", "mailing_city", "mailing_state", "mailing_zip", "owner_first_name", "owner_last_name"}
	rec := []string{req.FirstName, req.LastName, req.Address, req.City, req.State, req.Zip,
		req.MailingAddress, req.MailingCity, req.MailingState, req.MailingZip, res.FirstName, res.LastName}
	for i, p := range res.Phones {
		n := strconv.Itoa(i + 1)
		headers = append(headers, "phone_"+n, "phone_"+n+"_type")
		rec = append(rec, p.Number, p.Type)
	}
	for i, e := range res.Emails {
		headers = append(headers, "email_"+strconv.Itoa(i+1))
		rec = append(rec, e)
	}
	headers = append(headers, "is_entity", "match_status")
	rec = append(rec, strconv.FormatBool(res.IsEntity), match)
	return headers, rec
}
