package export

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/skipdesk/skipdesk/assets"
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
	Scrubs   []ProofScrub // the DNC scrubs whose answers the kept phones rest on
	// ValidUntil is the earliest valid-until of the answers the kept
	// phones rest on: when the list may no longer be called from.
	ValidUntil time.Time
	Output     ProofFile // the file written (its hash is in the PDF only)
	Internal   int       // numbers on the internal do-not-call list
	Choices    []string  // the options, in words
	Rows       int       // data rows written
	Phones     PhoneCounts
	PDF        string      // where the proof PDF was written
	Parts      []ProofFile // the files written when a preset's limit split the list (Output is the first)

	// The calling-time rule.
	RulesVersion string         // the calling rules table's version
	CallableAt   time.Time      // the instant the list was judged at; zero: none
	DialingMode  string         // "manual" or "autodialed"
	CallLog      string         // the dialer's call log whose calls the cap counted; "" none
	TimeLeft     map[string]int // phones left out for the time rule, per reason
	Keep         string         // how long the proof is kept, and the rule
	Preset       string         // the dialer or CRM layout written; "" the result's own
}

// ProofFile names a file and its SHA-256.
type ProofFile struct {
	Name   string
	SHA256 string
}

// ProofScrub is a DNC result whose answers the export used, with every date
// its answers carry (a merged result reuses answers of earlier scrubs, each
// with its own).
type ProofScrub struct {
	ProofFile
	JobID      string      // "" when the file has no job record
	Completed  time.Time   // the oldest of Dates
	ValidUntil time.Time   // Completed + 31 days: the earliest valid-until of its answers
	Dated      string      // where the dates come from, in words
	Dates      []ProofDate // each date of its answers, oldest first
}

// ProofDate is a date a DNC result's answers were scrubbed, how many kept
// phones rest on it, and until when they may be called from it.
type ProofDate struct {
	Scrubbed   time.Time
	ValidUntil time.Time
	Phones     int
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
			proofLine{label: "  Dated by", value: s.Dated})
		for _, d := range s.Dates {
			ls = append(ls, proofLine{label: "  Scrubbed " + proofDate(d.Scrubbed),
				value: "valid until " + proofDate(d.ValidUntil) + ", " + jobs.Plural(int64(d.Phones), "phone", "phones")})
		}
		ls = append(ls, proofLine{label: "  Valid until", value: proofDate(s.ValidUntil)},
			proofLine{label: "  SHA-256", value: s.SHA256})
	}
	if !p.ValidUntil.IsZero() {
		ls = append(ls, proofLine{label: "List valid until", value: proofDate(p.ValidUntil) + " (the earliest of the answers above)"})
	}
	ls = append(ls, p.timeLines()...)
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

// proofFont is the proof's font family: DejaVu Sans, embedded (subset)
// so that every name prints in its own letters.
const proofFont = "DejaVu"

// timeLines are the calling-time rule's lines: the rules table, the
// instant, the windows applied per reason, the dialing mode, the keeping.
func (p *Proof) timeLines() []proofLine {
	ls := []proofLine{{heading: true, label: "Calling time"},
		{label: "Rules table", value: "version " + p.RulesVersion},
		{label: "Windows", value: "each phone's calling window in the called person's local time is in its time zone, call from and call until columns"}}
	if p.CallableAt.IsZero() {
		ls = append(ls, proofLine{label: "Callable at", value: "no instant given: no phone left out for the time of day"})
	} else {
		ls = append(ls, proofLine{label: "Callable at", value: p.CallableAt.Format(time.RFC3339) + " (" + proofDate(p.CallableAt) + ")"})
	}
	reasons := make([]string, 0, len(p.TimeLeft))
	for r := range p.TimeLeft {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		ls = append(ls, proofLine{label: "  left out: " + r, value: jobs.Thousands(int64(p.TimeLeft[r]))})
	}
	ls = append(ls, proofLine{label: "Dialing mode", value: p.DialingMode})
	if p.CallLog != "" {
		ls = append(ls, proofLine{label: "Call log", value: p.CallLog + ": the calls of the 24 hours before the instant counted against each state's cap"})
	}
	if p.Preset != "" {
		ls = append(ls, proofLine{label: "Layout", value: p.Preset})
	}
	for i, f := range p.Parts {
		ls = append(ls, proofLine{label: fmt.Sprintf("Part %d", i+1), value: f.Name}, proofLine{label: "  SHA-256", value: f.SHA256})
	}
	return append(ls, proofLine{label: "Keep this proof", value: p.Keep})
}

// writeProofPDF writes the proof as a PDF at path (atomically).
func writeProofPDF(path string, p *Proof) error {
	pdf := fpdf.New("P", "mm", "Letter", "")
	pdf.AddUTF8FontFromBytes(proofFont, "", assets.ProofFont)
	pdf.AddUTF8FontFromBytes(proofFont, "B", assets.ProofFontBold)
	pdf.SetTitle("Proof of scrub: "+p.Output.Name, true)
	pdf.SetCreator("SkipDesk "+p.AppVersion, true)
	pdf.SetCreationDate(p.Exported)
	pdf.SetModificationDate(p.Exported)
	pdf.SetMargins(18, 18, 18)
	pdf.SetAutoPageBreak(true, 18)
	pdf.AddPage()
	pdf.SetFont(proofFont, "B", 16)
	pdf.CellFormat(0, 9, "Proof of scrub", "", 1, "L", false, 0, "")
	pdf.SetFont(proofFont, "", 10)
	pdf.MultiCell(0, 5, "The callable list "+p.Output.Name+" was written by SkipDesk from the files and DNC scrubs below. "+
		"Every phone in it is a valid number, clean on the lists named, answered by a scrub made no more than 31 days "+
		"before the export, and not on the company's own do-not-call list, unless a choice below says otherwise.", "", "L", false)
	pdf.Ln(3)
	lines := p.lines(true)
	labelW := proofLabelWidth(pdf, lines)
	for _, l := range lines {
		if l.heading {
			pdf.Ln(2)
			pdf.SetFont(proofFont, "B", 12)
			pdf.CellFormat(0, 7, l.label, "B", 1, "L", false, 0, "")
			pdf.Ln(1)
			continue
		}
		pdf.SetFont(proofFont, "B", 9)
		pdf.CellFormat(labelW, 5, l.label, "", 0, "L", false, 0, "")
		if strings.HasSuffix(l.label, "SHA-256") {
			pdf.SetFont("Courier", "", 7.5) // 64 hex digits on one line: a core font
		} else {
			pdf.SetFont(proofFont, "", 9)
		}
		pdf.MultiCell(0, 5, l.value, "", "L", false)
	}
	if err := pdf.Error(); err != nil {
		return fmt.Errorf("export: proof %s: %w", path, err)
	}
	return writeAtomic(path, func(f *os.File) error { return pdf.Output(f) })
}

// proofLabelWidth is the width of the labels' column: the widest label's,
// so that no label runs into its value, within 52 to 70 mm (a SHA-256
// keeps its one line beside it).
func proofLabelWidth(pdf *fpdf.Fpdf, lines []proofLine) float64 {
	pdf.SetFont(proofFont, "B", 9)
	w := 52.0
	for _, l := range lines {
		if !l.heading {
			w = max(w, pdf.GetStringWidth(l.label)+3)
		}
	}
	return min(w, 70)
}

// fileSHA256 is the SHA-256 of a file, in hex.
func fileSHA256(path string) (string, error) {
	sum, _, err := input.HashFile(path)
	return sum, err
}

// proofScrubs lists, for the proof, every DNC result the kept phones'
// answers rest on — the result itself (its own answers) and each joined
// one — with each date of those answers, and the earliest valid-until.
func (m *mergeSource) proofScrubs(src string, p *Proof) error {
	if p.Result.SHA256 = sourceSum(m.src); p.Result.SHA256 == "" {
		sum, err := fileSHA256(src)
		if err != nil {
			return fmt.Errorf("export: proof: %w", err)
		}
		p.Result.SHA256 = sum
	}
	bySrc := map[int][]ProofDate{}
	for k, n := range m.dated {
		bySrc[k.src] = append(bySrc[k.src], ProofDate{Scrubbed: k.day, ValidUntil: k.day.Add(layout.MaxScrubAge), Phones: n})
	}
	srcs := make([]int, 0, len(bySrc))
	for k := range bySrc {
		srcs = append(srcs, k)
	}
	slices.Sort(srcs)
	p.Scrubs, p.ValidUntil = p.Scrubs[:0], time.Time{}
	for _, k := range srcs {
		path := src
		if k >= 0 {
			path = m.join.Sources()[k].Name
		}
		s, err := scrubOf(path, m.l.HasDates() && k < 0)
		if err != nil {
			return err
		}
		s.Dates = bySrc[k]
		slices.SortFunc(s.Dates, func(a, b ProofDate) int { return a.Scrubbed.Compare(b.Scrubbed) })
		s.Completed, s.ValidUntil = s.Dates[0].Scrubbed, s.Dates[0].ValidUntil
		if p.ValidUntil.IsZero() || s.ValidUntil.Before(p.ValidUntil) {
			p.ValidUntil = s.ValidUntil
		}
		p.Scrubs = append(p.Scrubs, s)
	}
	return nil
}

// scrubOf describes a DNC result's file for the proof: its hash, its job
// and where the dates of its answers come from (rowDates: its rows' own
// scrub date column).
func scrubOf(path string, rowDates bool) (ProofScrub, error) {
	sum, err := fileSHA256(path)
	if err != nil {
		return ProofScrub{}, fmt.Errorf("export: proof: %w", err)
	}
	s := ProofScrub{ProofFile: ProofFile{Name: filepath.Base(path), SHA256: sum}, Dated: "its rows' scrub dates"}
	m, err := library.ReadRecord(library.RecordPath(path))
	switch {
	case err != nil:
	case m.Merged != nil:
		s.JobID, s.Dated = m.JobID, "each row's own scrub (reused answers keep the date of the scrub that made them)"
	case rowDates:
		s.JobID = m.JobID
	case m.Scrubbed != nil:
		s.JobID = m.JobID
		s.Dated = fmt.Sprintf("as given when imported, by %s on %s", m.Scrubbed.By, m.Scrubbed.At.UTC().Format("2006-01-02"))
	case !m.Imported():
		s.JobID, s.Dated = m.JobID, "the job's completion"
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
