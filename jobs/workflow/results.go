package workflow

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/assets"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/export"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/optout"
)

// ExportView writes the rows of v (the viewer's filtered and sorted view of
// r) to dest, .xlsx or .csv by its extension. With phone filters in the
// view, the phones that fail them are left out as the viewer leaves them
// out, and appear nowhere in the file.
//
// A view filtered to the callable phones is a callable list: it takes the
// person's choices (nil: the defaults), refuses a stale scrub, and gets
// its proof of scrub (see ExportJob).
func (s *ResultService) ExportView(ctx context.Context, r Result, v View, dest string, choices *CallableChoices,
	progress func(done, total int64)) (*ExportReport, error) {
	x, ok := r.(*result)
	if !ok {
		return nil, errors.New("workflow: not a result opened here")
	}
	if err := x.Index(ctx, nil); err != nil { // the view and its layout are known
		return nil, err
	}
	rows := x.r.Permutation()
	x.mu.Lock()
	quick, at := slices.Clone(x.quick), x.at
	x.mu.Unlock()
	// The window's save dialog asked before replacing a file.
	req := ExportRequest{Source: r.Path(), Dest: dest, Rows: rows, Filters: quick, DNC: r.Scrubs(), Layout: r.Layout(), Progress: progress,
		Replace: true}
	if choices != nil {
		choices.apply(&req)
	}
	if slices.Contains(quick, jobs.QuickCallableNow) && req.CallableAt.IsZero() {
		req.CallableAt = at // the instant the view was read at: the rows it shows
	}
	return s.results().Export(ctx, req)
}

// ExportRequest is an export of a result file to Excel (.xlsx) or CSV.
type ExportRequest struct {
	Source string // a result CSV
	Dest   string // .xlsx or .csv
	// Record is the job record for the Summary sheet; "" the one beside
	// Source, when there is one.
	Record string
	// DNC are DNC results of a trace result's phones (any layout; of two
	// with a number, the first): each phone's flags are merged in.
	DNC []string
	// OnlyCallable keeps only the phones that may be called: valid, clean
	// on every list (a trace's own flags, the DNC results', a DNC result's).
	OnlyCallable bool
	// Filters are quick filters: a row filter drops rows, a phone filter
	// leaves out the phones that fail it (they appear nowhere in the file)
	// and drops the rows left with none.
	Filters []jobs.QuickFilter
	// Rows are the 0-based data rows to export, in order; nil every row.
	Rows []int
	// Layout is the result's layout (as corrected); nil detects it.
	Layout *layout.Layout
	// TruncateLongCells cuts cells over Excel's 32,767 characters (listed
	// in the report) instead of failing.
	TruncateLongCells bool
	Progress          func(done, total int64)
	// Replace: the person agreed to replace Dest (and a callable export's
	// proof beside it) when there is a file of that name: the window's
	// save dialog asked, or --force. Otherwise an *ExistsError, nothing
	// written.
	Replace bool

	// The choices of a callable export (see export.CallableOptions): leave
	// out mobiles (autodialed calls), keep litigators, keep phones whose
	// answer is not known, leave out the phones of a scrub over 31 days
	// old (else such a scrub is refused: StaleError). The internal
	// do-not-call list always applies. LeaveOutUnsure exports although a
	// file's layout has open questions that bear on callability, leaving
	// out the phones they touch (else a *layout.QuestionError).
	LeaveOutMobiles, KeepLitigators, KeepUnknown, LeaveOutStale, LeaveOutUnsure bool

	// CallableAt, when set, leaves out every phone that may not be called
	// at that instant (the calling rules of its places), counted per
	// reason. Zero: no phone is left out for the time of day; each still
	// carries its window.
	CallableAt time.Time
	// Preset names a dialer or CRM layout (DialerPresets) to write the
	// callable list in; "" the result's own layout.
	Preset string
	// CallLog is a dialer's call log (CSV or XLSX: a number, the call's
	// date and time): a number called as many times as its state's cap
	// (FL, OK, MD: 3) in the 24 hours before CallableAt, or now, is left
	// out.
	CallLog string
	// CallLogZone is the zone the call log's times without one are written
	// in; nil: not known, read as this computer's and counted in any zone
	// they may be in (optout.CallLog.Window).
	CallLogZone *time.Location
}

// callable reports an export that hands over numbers to call: only
// callable phones, or the callable filter.
func (r *ExportRequest) callable() bool {
	return r.OnlyCallable || slices.ContainsFunc(r.Filters, jobs.QuickFilter.Callable)
}

// Export writes a result as req says and reports what it wrote.
func (s *ResultService) Export(ctx context.Context, req ExportRequest) (*export.Report, error) {
	if !req.Replace {
		if err := notThere(req.Dest, req.callable()); err != nil {
			return nil, err
		}
	}
	var meta *library.Meta
	record := req.Record
	if record == "" {
		if _, err := os.Stat(library.RecordPath(req.Source)); err == nil {
			record = library.RecordPath(req.Source)
		}
	}
	if record != "" {
		m, err := library.ReadRecord(record)
		if err != nil {
			return nil, fmt.Errorf("job record: %w", err)
		}
		meta = &m
	}
	if len(req.DNC) > 0 || req.OnlyCallable || len(req.Filters) > 0 {
		keys, err := s.internalKeys(ctx)
		if err != nil {
			return nil, err
		}
		opts := export.CallableOptions{OnlyCallable: req.OnlyCallable,
			Filters: req.Filters, DNC: req.DNC, Layout: req.Layout, Rows: req.Rows, Meta: meta, Progress: intProgress(req.Progress),
			Internal: keys, Now: time.Now(), OwnDate: ownDate(req.Source), LeaveOutMobiles: req.LeaveOutMobiles,
			KeepLitigators: req.KeepLitigators, KeepUnknown: req.KeepUnknown, LeaveOutStale: req.LeaveOutStale,
			LeaveOutUnsure: req.LeaveOutUnsure, Corrections: s.layoutOptions().Corrections}
		if err := s.callingOptions(ctx, &req, &opts); err != nil {
			return nil, err
		}
		if req.callable() {
			opts.Proof = s.proof(ctx)
		}
		return export.ExportCallable(ctx, req.Source, "", req.Dest, opts)
	}
	if req.Preset != "" {
		return nil, ErrNoPreset
	}
	return export.Export(ctx, req.Source, req.Dest, export.Options{Meta: meta, Rows: req.Rows, Progress: intProgress(req.Progress),
		TruncateLongCells: req.TruncateLongCells})
}

// ExistsError: an export would replace files the person did not agree to
// replace (ExportRequest.Replace); nothing was written.
type ExistsError struct {
	Paths []string // the export's file, its proof: those that exist
}

func (e *ExistsError) Error() string {
	return fmt.Sprintf("%s already exists: nothing was written", strings.Join(e.Paths, " and "))
}

// notThere is an *ExistsError when dest (or, for a callable export, its
// proof, or the parts a dialer's row limit splits it into) exists: a file,
// a folder, a link.
func notThere(dest string, callable bool) error {
	paths := []string{dest}
	if callable {
		paths = append(paths, export.ProofName(dest))
		paths = append(paths, partsOf(dest)...)
	}
	var there []string
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil {
			there = append(there, p)
		}
	}
	if len(there) == 0 {
		return nil
	}
	return &ExistsError{Paths: there}
}

// partsOf are the files beside dest named as the parts of an export to it
// ("<name> (part 2 of 3).csv").
func partsOf(dest string) []string {
	ext := filepath.Ext(dest)
	prefix := strings.TrimSuffix(filepath.Base(dest), ext) + " (part "
	des, _ := os.ReadDir(filepath.Dir(dest))
	var out []string
	for _, de := range des {
		if n := de.Name(); strings.HasPrefix(n, prefix) && strings.HasSuffix(n, ")"+ext) {
			out = append(out, filepath.Join(filepath.Dir(dest), n))
		}
	}
	return out
}

// callingOptions adds the calling rules, the instant, the call log and the
// preset of a request to an export's options.
func (s *core) callingOptions(ctx context.Context, req *ExportRequest, opts *export.CallableOptions) error {
	e, err := s.compliance().CallingRules()
	if err != nil {
		return err
	}
	opts.Calltime, opts.CallableAt = e, req.CallableAt
	if err := callLogOptions(ctx, req, opts); err != nil {
		return err
	}
	if req.Preset == "" {
		return nil
	}
	if !req.callable() {
		return ErrNoPreset
	}
	opts.Preset, err = s.presets().DialerPreset(req.Preset)
	return err
}

// callLogOptions reads a request's call log into the calls of the 24
// hours before the export's instant (CallableAt, else its Now).
func callLogOptions(ctx context.Context, req *ExportRequest, opts *export.CallableOptions) error {
	if req.CallLog == "" {
		return nil
	}
	if !req.callable() {
		return ErrNoCallLog
	}
	loc := req.CallLogZone
	if loc == nil {
		loc = time.Local
	}
	log, err := optout.ReadCallLog(ctx, req.CallLog, optout.Options{Location: loc, Now: opts.Now, Guessed: req.CallLogZone == nil})
	if err != nil {
		return fmt.Errorf("call log: %w", err)
	}
	at := opts.CallableAt
	if at.IsZero() {
		at = opts.Now
	}
	opts.Calls = log.Recent(at)
	opts.CallLog = callLogSaid(log, req, at)
	return nil
}

// callLogSaid is what the proof says of a call log: the file, the calls
// read, the lines passed over or read with a doubt, the zone of its times.
func callLogSaid(log *optout.CallLog, req *ExportRequest, at time.Time) string {
	s := fmt.Sprintf("%s (%s calls read", filepath.Base(req.CallLog), jobs.Thousands(int64(len(log.Calls))))
	if n := len(log.Problems); n > 0 {
		s += fmt.Sprintf("; %s lines passed over or counted as recent, their time not read", jobs.Thousands(int64(n)))
	}
	if n := len(log.Notes); n > 0 {
		s += fmt.Sprintf("; %s counted for both ends, the way they went not said", jobs.Plural(int64(n), "call", "calls"))
	}
	if req.CallLogZone != nil {
		s += "; times without a zone read in " + req.CallLogZone.String()
	} else if slices.ContainsFunc(log.Calls, func(c optout.Call) bool { return !c.Zoned && !c.At.IsZero() }) {
		before, after := log.Window(at)
		s += fmt.Sprintf("; its times carry no zone: a call counts from %s before to %s after the instant, as far as a log in any zone from UTC to Hawaii's read in this computer's may be off",
			hours(before), hours(after))
	}
	return s + ")"
}

// hours writes a duration of whole hours ("29 hours").
func hours(d time.Duration) string { return jobs.Plural(int64(d/time.Hour), "hour", "hours") }

// ErrNoCallLog: an export gave a call log but no callable list to apply it to.
var ErrNoCallLog = errors.New("a call log caps the calls of a callable list: export with only callable phones")

// CallableChoices are the person's choices for a callable list (see
// ExportRequest); the internal do-not-call list always applies.
type CallableChoices struct {
	LeaveOutMobiles, KeepLitigators, KeepUnknown, LeaveOutStale, LeaveOutUnsure bool
	// Preset is the dialer or CRM layout to write ("" the result's own);
	// CallableAt leaves out the phones that may not be called then;
	// CallLog caps the calls of the last 24 hours (ExportRequest.CallLog).
	Preset     string
	CallableAt time.Time
	CallLog    string
}

// apply copies the choices into a request.
func (c *CallableChoices) apply(req *ExportRequest) {
	req.LeaveOutMobiles, req.KeepLitigators, req.KeepUnknown, req.LeaveOutStale, req.LeaveOutUnsure = c.LeaveOutMobiles,
		c.KeepLitigators, c.KeepUnknown, c.LeaveOutStale, c.LeaveOutUnsure
	req.Preset, req.CallableAt, req.CallLog = c.Preset, c.CallableAt, c.CallLog
}

// ExportReport says what an export wrote (and a callable list's proof).
type ExportReport = export.Report

// ExportJob writes a job's result to dest (.xlsx or .csv). With callable
// choices, a DNC job's result keeps only the numbers that may be called
// (valid, not on the DNC registry, not a litigator, not on the internal
// list, scrubbed in the last 31 days); a trace's result gets each phone's
// flags from the newest DNC scrub of its phones and keeps only the
// callable phones, and the proof of scrub is written beside it.
// ErrNeedScrub when the trace's phones were never scrubbed; a
// *StaleError when a scrub is too old (nothing written).
func (s *JobService) ExportJob(ctx context.Context, j Job, dest string, callable *CallableChoices, progress func(done, total int64)) (*ExportReport, error) {
	if j.ResultPath == "" {
		return nil, fmt.Errorf("%s: the result is not downloaded yet", j.Name)
	}
	// The window's save dialog asked before replacing a file.
	req := ExportRequest{Source: j.ResultPath, Dest: dest, Progress: progress, Replace: true}
	if callable != nil {
		req.OnlyCallable = true
		callable.apply(&req)
	}
	if callable != nil && j.Kind != jobs.KindDNC {
		req.DNC = s.scrubsOf(j.ResultPath)
		need, err := s.needsScrub(j, req.DNC)
		if err != nil {
			return nil, err
		}
		if need {
			return nil, ErrNeedScrub
		}
	}
	return s.results().Export(ctx, req)
}

// needsScrub says whether the callable list of j (a trace) needs a scrub
// of its phones first: no scrub of them (scrubs) and no flags of its own.
func (s *JobService) needsScrub(j Job, scrubs []string) (bool, error) {
	if j.Kind == jobs.KindDNC || len(scrubs) > 0 {
		return false, nil
	}
	l, err := s.resultLayout(j.ResultPath)
	if err != nil {
		return false, err
	}
	return l.Check(nil, jobs.QuickCallable) != nil, nil
}

// ScrubOffer is the scrub a trace's callable list needs first, priced.
type ScrubOffer struct {
	Phones  int   // the distinct valid numbers sent
	Credits int64 // what the scrub costs (-1: not known now)
}

// ScrubFirst says, before any other question, whether the callable list
// of j needs a scrub of its phones first, and prices it: nil when it does
// not (a DNC result, a trace already scrubbed or carrying its own flags).
func (s *JobService) ScrubFirst(ctx context.Context, j Job) (*ScrubOffer, error) {
	if j.ResultPath == "" {
		return nil, fmt.Errorf("%s: the result is not downloaded yet", j.Name)
	}
	need, err := s.needsScrub(j, s.scrubsOf(j.ResultPath))
	if err != nil || !need {
		return nil, err
	}
	p, err := s.submissions().TracePhones(ctx, j.ResultPath, j.ID)
	if err != nil {
		return nil, err
	}
	ins, err := Inspect(ctx, p.Path, input.Options{})
	if err != nil {
		return nil, err
	}
	offer := &ScrubOffer{Phones: ins.Rows, Credits: -1}
	if q, err := s.quotes().Quote(ctx, p, ins); err == nil {
		offer.Phones, offer.Credits = q.Rows, q.Credits
	}
	return offer, nil
}

// resultLayout is the layout of the result at path, read over the whole
// file with the person's answers for its header.
func (s *core) resultLayout(path string) (*layout.Layout, error) {
	return library.DetectLayout(path, s.layoutOptions())
}

// SearchLibrary lists the downloaded results, newest first; with a query,
// only those with a matching row (phone numbers compare by their digits),
// each with a few of its hits.
func (s *LibraryService) SearchLibrary(ctx context.Context, q string) ([]LibraryItem, error) {
	lib, err := s.library()
	if err != nil {
		return nil, err
	}
	q = strings.TrimSpace(q)
	if err := checkQuery(q); err != nil {
		return nil, err
	}
	if q != "" {
		if items, ok, err := s.searchLibrary(ctx, lib, q); ok {
			return items, err
		}
	}
	entries, err := lib.List()
	if err != nil {
		return nil, err
	}
	var hits map[string][]string
	if q != "" {
		hs, err := lib.Search(ctx, q, library.DefaultSearchLimit*5)
		if err != nil {
			return nil, err
		}
		hits = map[string][]string{}
		for _, h := range hs {
			if len(hits[h.Path]) < 3 {
				hits[h.Path] = append(hits[h.Path], hitText(h))
			}
		}
	}
	var out []LibraryItem
	for _, e := range entries {
		if hits != nil && hits[e.Path] == nil {
			continue
		}
		it := itemOf(e)
		it.Hits = hits[e.Path]
		out = append(out, it)
	}
	return out, nil
}

func hitText(h library.Hit) string {
	headers := make([]string, len(h.Fields))
	rec := make([]string, len(h.Fields))
	for i, f := range h.Fields {
		headers[i], rec[i] = f.Name, f.Value
	}
	words := rowWords(headers, rec)
	if words == "" && len(rec) > 0 {
		words = rec[0] // what was found, when nothing else reads
	}
	return fmt.Sprintf("row %d: %s", h.Row, words)
}

// rowWords is a row found, in words: its owner, its property, its phones
// as a person reads them and whether the service found the owner ("Ann
// Lee · 100 Oak St, Austin, TX · (512) 555-0101 · Not found"), never the
// file's raw values (false, no_match). The row's columns are read by
// their headers, as any result's are.
func rowWords(headers, rec []string) string {
	l := layout.Detect(headers, [][]string{rec}, layout.Options{})
	var row layout.Row
	l.NewReader(nil).Read(rec, &row)
	var parts []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, s)
		}
	}
	add(layout.Names(&row))
	add(row.Property.String())
	var phones []string
	for _, p := range row.DistinctPhones() {
		if len(phones) < 3 {
			phones = append(phones, p.Display())
		}
	}
	add(strings.Join(phones, ", "))
	add(strings.Join(row.Emails, ", "))
	add(layout.MatchWords(row.Match))
	return strings.Join(parts, " · ")
}

// library is the open session's library, or (offline, before any session)
// the default one.
func (s *core) library() (*library.Library, error) {
	if sess, err := s.current(); err == nil {
		return sess.lib, sess.libErr
	}
	return library.Open(s.cfg.ResultsDir())
}

// Classify says which flow a file belongs to: a result (the viewer; read
// through the layout rules, whatever service wrote it), a phone list (the
// DNC scrub) or an owner list (the trace wizard).
func (s *ResultService) Classify(ctx context.Context, path string) (FileKind, error) {
	headers, sample, err := readHead(path, "", library.LayoutSample)
	if err != nil {
		return FileOwners, err
	}
	switch layout.Detect(headers, sample, layout.Options{}).Kind {
	case layout.KindTrace:
		return FileTraceResult, nil
	case layout.KindDNC:
		return FileDNCResult, nil
	}
	return listKind(headers), nil
}

// listKind tells a list to submit by its header: a phone list (phone
// columns and little else), else an owner list.
func listKind(headers []string) FileKind {
	phoneCols, nameOrAddr := 0, 0
	for _, h := range headers {
		h = strings.ToLower(strings.TrimSpace(h))
		switch {
		case strings.Contains(h, "phone") || strings.Contains(h, "mobile") || strings.Contains(h, "cell") || h == "number" || h == "tel":
			phoneCols++
		case strings.Contains(h, "name") || strings.Contains(h, "address") || strings.Contains(h, "street") || strings.Contains(h, "zip") || strings.Contains(h, "city"):
			nameOrAddr++
		}
	}
	if phoneCols > 0 && (nameOrAddr == 0 || len(headers) <= 2) {
		return FilePhones
	}
	return FileOwners
}

// readHead reads a list or a result (CSV in any encoding, or XLSX): its
// header and first n rows.
func readHead(path, sheet string, n int) ([]string, [][]string, error) {
	r, err := input.Open(path, input.Options{SampleRows: -1, Sheet: sheet})
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	var sample [][]string
	for len(sample) < n {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		sample = append(sample, slices.Clone(rec))
	}
	return r.Headers(), sample, nil
}

// SampleList writes the bundled sample owner list into the SkipDesk folder
// (once) and returns its path.
func (s *QuoteService) SampleList(ctx context.Context) (string, error) {
	dir := filepath.Join(s.cfg.Home, "samples")
	path := filepath.Join(dir, assets.SampleOwnersName)
	if b, err := os.ReadFile(path); err == nil && string(b) == string(assets.SampleOwners) {
		return path, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := library.WriteFileAtomic(path, assets.SampleOwners); err != nil {
		return "", err
	}
	return path, nil
}

// intProgress adapts a progress callback to the export's int counts.
func intProgress(f func(done, total int64)) func(done, total int) {
	if f == nil {
		return nil
	}
	return func(done, total int) { f(int64(done), int64(total)) }
}

// Inspect reads a list (CSV or XLSX) in one streaming pass: encoding,
// delimiter, header, rows, company rows, blanks, duplicates, Excel damage.
func Inspect(ctx context.Context, path string, opts input.Options) (*input.Inspection, error) {
	return input.Inspect(ctx, path, opts)
}

// Inspect is the package's Inspect, for callers that hold a Service.
func (s *QuoteService) Inspect(ctx context.Context, path string, opts input.Options) (*input.Inspection, error) {
	return Inspect(ctx, path, opts)
}

// LibraryWritable checks, before paying, that a result can be saved into
// the library.
func (s *LibraryService) LibraryWritable() error {
	lib, err := s.library()
	if err != nil {
		return err
	}
	return lib.Writable()
}

// ErrEmptyLibrary: no result was ever downloaded into the library.
var ErrEmptyLibrary = errors.New("no results downloaded yet")

// ResultsDir is the library folder dir names, or the configured one.
func (s *LibraryService) ResultsDir(dir string) string {
	if dir != "" {
		return dir
	}
	return s.cfg.ResultsDir()
}

// RowHit is a row SearchRows found. Teammate names the computer whose
// library holds it when it is in a teammate's result (a team's index):
// Path is "" then.
type RowHit struct {
	library.Hit
	Teammate string `json:",omitempty"`
}

// SearchRows finds the rows of the results in the library (dir; "" the
// configured one) that hold q — a phone in any format, a name, an address
// — at most limit of them. ErrEmptyLibrary when the configured library was
// never made. In a team (a session open on the team's database) the
// configured library's search finds teammates' rows too.
func (s *LibraryService) SearchRows(ctx context.Context, dir, q string, limit int) ([]RowHit, error) {
	if err := checkQuery(q); err != nil {
		return nil, err
	}
	d := s.libraryService().ResultsDir(dir)
	if _, err := os.Stat(d); err != nil {
		if dir == "" && errors.Is(err, os.ErrNotExist) {
			return nil, ErrEmptyLibrary
		}
		return nil, fmt.Errorf("library folder: %w", err)
	}
	hits, ok, err := s.searchRowsIndexed(ctx, d, q, limit)
	if !ok {
		var lib *library.Library
		if lib, err = library.Open(d); err != nil {
			return nil, err
		}
		hits, err = lib.Search(ctx, q, limit)
	}
	out := make([]RowHit, len(hits))
	var tm *teammates
	for i, h := range hits {
		out[i].Hit = h
		if h.Path == "" {
			if tm == nil {
				tm = s.teammates()
			}
			out[i].Teammate = tm.name(ctx, h)
		}
	}
	return out, err
}
