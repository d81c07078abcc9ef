package export

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// Proof is the record of a callable export: what was exported, from which
// scrubs and how fresh they were, what was kept and what was left out and
// why, with the SHA-256 of every file so the record can be tied to them
// later. The same lines fill the Compliance sheet of an .xlsx export and
// the proof PDF written beside every callable export.
type Proof struct {
	// Set by the caller.
	Account    string // the account's e-mail
	Provider   string // the provider's address
	AppVersion string

	// Filled by ExportCallable.
	Exported time.Time
	Result   ProofFile    // the result exported
	Scrubs   []ProofScrub // the DNC scrubs whose answers were used
	Output   ProofFile    // the file written (its hash is in the PDF only)
	Internal int          // numbers on the internal do-not-call list
	Choices  []string     // the options, in words
	Rows     int          // data rows written
	Phones   PhoneCounts
	PDF      string // where the proof PDF was written
}

// ProofFile names a file and its SHA-256.
type ProofFile struct {
	Name   string
	SHA256 string
}

// ProofScrub is a DNC scrub used by the export.
type ProofScrub struct {
	ProofFile
	JobID      string    // "" when the file has no job record
	Completed  time.Time // when the scrub was made (the job's completion, else the file's date)
	ValidUntil time.Time // Completed + 31 days
	Dated      string    // where Completed comes from, in words
}

// proofLine is one line of the proof: a label and its value, or a heading.
type proofLine struct {
	label, value string
	heading      bool
}

// ProofName is the proof PDF's path for an export written to dst:
// "<name> proof.pdf" beside it.
func ProofName(dst string) string {
	return strings.TrimSuffix(dst, filepath.Ext(dst)) + " proof.pdf"
}

func proofDate(t time.Time) string {
	if t.IsZero() {
		return "not known"
	}
	return t.UTC().Format("2006-01-02 15:04:05") + " UTC"
}

// lines are the proof's content, in order; output says whether to include
// the written file's hash (not in the file itself).
func (p *Proof) lines(output bool) []proofLine {
	ls := []proofLine{
		{label: "Exported", value: proofDate(p.Exported)},
		{label: "Account", value: p.Account},
		{label: "Provider", value: p.Provider},
		{label: "SkipDesk version", value: p.AppVersion},
		{heading: true, label: "Files"},
		{label: "Result exported", value: p.Result.Name},
		{label: "  SHA-256", value: p.Result.SHA256},
	}
	if output {
		ls = append(ls, proofLine{label: "File written", value: p.Output.Name}, proofLine{label: "  SHA-256", value: p.Output.SHA256})
	}
	ls = append(ls, proofLine{heading: true, label: "DNC scrubs used"})
	if len(p.Scrubs) == 0 {
		ls = append(ls, proofLine{label: "Scrubs", value: "none"})
	}
	for i, s := range p.Scrubs {
		job := s.JobID
		if job == "" {
			job = "no job record"
		}
		ls = append(ls,
			proofLine{label: fmt.Sprintf("Scrub %d", i+1), value: s.Name},
			proofLine{label: "  Job", value: job},
			proofLine{label: "  Completed", value: proofDate(s.Completed) + " (" + s.Dated + ")"},
			proofLine{label: "  Valid until", value: proofDate(s.ValidUntil)},
			proofLine{label: "  SHA-256", value: s.SHA256})
	}
	ls = append(ls, proofLine{heading: true, label: "Choices"})
	for _, c := range p.Choices {
		ls = append(ls, proofLine{label: "", value: c})
	}
	ls = append(ls, proofLine{label: "Internal do-not-call list", value: jobs.Plural(int64(p.Internal), "number", "numbers") + ", applied to every phone"})
	ls = append(ls, proofLine{heading: true, label: "Phones"},
		proofLine{label: "Rows written", value: jobs.Thousands(int64(p.Rows))},
		proofLine{label: "Phones kept", value: jobs.Thousands(int64(p.Phones.Kept))},
		proofLine{label: "Phones left out", value: jobs.Thousands(int64(p.Phones.LeftOut()))})
	reasons := make([]string, 0, len(p.Phones.Left))
	for r := range p.Phones.Left {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		ls = append(ls, proofLine{label: "  left out: " + r, value: jobs.Thousands(int64(p.Phones.Left[r]))})
	}
	return ls
}

// writeProofPDF writes the proof as a PDF at path (atomically).
func writeProofPDF(path string, p *Proof) error {
	pdf := fpdf.New("P", "mm", "Letter", "")
	pdf.SetTitle("Proof of scrub: "+p.Output.Name, true)
	pdf.SetCreator("SkipDesk "+p.AppVersion, true)
	pdf.SetCreationDate(p.Exported)
	pdf.SetModificationDate(p.Exported)
	pdf.SetMargins(18, 18, 18)
	pdf.SetAutoPageBreak(true, 18)
	tr := pdf.UnicodeTranslatorFromDescriptor("") // cp1252: the core fonts' encoding
	pdf.AddPage()
	pdf.SetFont("Helvetica", "B", 16)
	pdf.CellFormat(0, 9, tr("Proof of scrub"), "", 1, "L", false, 0, "")
	pdf.SetFont("Helvetica", "", 10)
	pdf.MultiCell(0, 5, tr("The callable list "+p.Output.Name+" was written by SkipDesk from the files and DNC scrubs below. "+
		"Every phone in it is a valid number, clean on the lists named, answered by a scrub made no more than 31 days "+
		"before the export, and not on the company's own do-not-call list, unless a choice below says otherwise."), "", "L", false)
	pdf.Ln(3)
	const labelW = 52
	for _, l := range p.lines(true) {
		if l.heading {
			pdf.Ln(2)
			pdf.SetFont("Helvetica", "B", 12)
			pdf.CellFormat(0, 7, tr(l.label), "B", 1, "L", false, 0, "")
			pdf.Ln(1)
			continue
		}
		pdf.SetFont("Helvetica", "B", 9)
		pdf.CellFormat(labelW, 5, tr(l.label), "", 0, "L", false, 0, "")
		font := "Helvetica"
		if strings.HasSuffix(l.label, "SHA-256") {
			font = "Courier"
		}
		pdf.SetFont(font, "", 9)
		pdf.MultiCell(0, 5, tr(l.value), "", "L", false)
	}
	if err := pdf.Error(); err != nil {
		return fmt.Errorf("export: proof %s: %w", path, err)
	}
	return writeAtomic(path, func(f *os.File) error { return pdf.Output(f) })
}

// fileSHA256 is the SHA-256 of a file, in hex.
func fileSHA256(path string) (string, error) {
	sum, _, err := input.HashFile(path)
	return sum, err
}

// scrubOf describes a DNC scrub's file for the proof: its job and when it
// was made (the job's completion; the file's date when it has no record;
// own, the date the caller gives, for a result's own flags).
func scrubOf(path string, own time.Time) (ProofScrub, error) {
	sum, err := fileSHA256(path)
	if err != nil {
		return ProofScrub{}, fmt.Errorf("export: proof: %w", err)
	}
	s := ProofScrub{ProofFile: ProofFile{Name: filepath.Base(path), SHA256: sum}}
	if m, err := library.ReadRecord(library.RecordPath(path)); err == nil && m.JobID != "" {
		s.JobID = m.JobID
		if !m.CompletedAt.IsZero() {
			s.Completed, s.Dated = m.CompletedAt, "the job's completion"
		}
	}
	if s.Completed.IsZero() && !own.IsZero() {
		s.Completed, s.Dated = own, "as given for the file"
	}
	if s.Completed.IsZero() {
		if info, err := os.Stat(path); err == nil {
			s.Completed, s.Dated = info.ModTime(), "the file's date: no job record"
		}
	}
	if !s.Completed.IsZero() {
		s.ValidUntil = s.Completed.Add(layout.MaxScrubAge)
	}
	return s, nil
}

// choices are the export's options in words.
func (o *CallableOptions) choices() []string {
	var cs []string
	fs := make([]string, 0, len(o.Filters))
	for _, f := range o.Filters {
		fs = append(fs, string(f))
	}
	if o.OnlyCallable {
		cs = append(cs, "Only callable phones")
	}
	if len(fs) > 0 {
		cs = append(cs, "Filters: "+strings.Join(fs, ", "))
	}
	yes := func(b bool, on, off string) string {
		if b {
			return on
		}
		return off
	}
	cs = append(cs,
		yes(o.LeaveOutMobiles, "Mobiles and phones of unknown type: left out (autodialed calls)", "Mobiles: kept"),
		yes(o.KeepLitigators, "Litigators: KEPT by choice", "Litigators: left out"),
		yes(o.KeepUnknown, "Phones whose answer is not known: KEPT by choice (their flags say unknown)", "Phones whose answer is not known: left out"),
		yes(o.LeaveOutStale, "Phones of scrubs over 31 days old: left out", "Scrubs over 31 days old: refused"))
	return cs
}
