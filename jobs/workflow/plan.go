package workflow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/prepare"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// Plan is a submission as the person set it up, in the window or on the
// command line: the same Plan is the same submission wherever it was made.
type Plan struct {
	Kind  jobs.Kind     // jobs.KindTrace or jobs.KindDNC
	Path  string        // the list the person picked
	Input input.Options // how it is read: header line, sheet
	// Mapping maps service fields to headers. With accepted splits, the
	// fields a split derives point to its derived columns
	// (mapping.Split.Columns). A DNC scrub maps mapping.Phone only.
	Mapping mapping.Mapping
	// Splits are the accepted splits of full-name and one-line address
	// columns.
	Splits         []mapping.Split
	Mode           jobs.Mode // traces; "" is normal
	IncludeLLCs    bool      // traces: company rows traced too
	DropDuplicates bool      // rows repeating an earlier one are left out
	// ParentTraceID: a scrub of a trace's phones (TracePhones) names the
	// trace, so that its callable list finds the scrub.
	ParentTraceID string
	// Flagged, in such a scrub, is how many of the trace's numbers its
	// result already puts on a list or says not to call (layout's
	// ListedBlocks): left out of the list, no scrub making them callable.
	Flagged int
	// Abroad, in such a scrub, is how many of its numbers are outside the
	// US (phone.Abroad): left out too, a US scrub not making them callable.
	Abroad int
	// Name is the job's name; "" is the picked file's name.
	Name string
	// Reuse leaves out of the upload the rows the library already holds —
	// a trace's rows traced before (same owner and property), a scrub's
	// phones scrubbed within the last 31 days — and merges their earlier
	// results into the one the person gets. Nothing is left out without it.
	Reuse bool
	// ReuseWithin is how old a reused result may be; 0 is any age (a
	// scrub: 31 days at most whatever it says).
	ReuseWithin time.Duration

	// Repairs chosen before paying (see Repairs): a trace's ZIP codes
	// given back the zero Excel dropped, its rows without a street address
	// left out; a scrub's invalid numbers left out (not charged, rather
	// than charged and refunded), and its numbers outside the US (which a
	// US scrub charges for and cannot answer).
	PadZips, LeaveOutNoAddress, LeaveOutInvalid, LeaveOutAbroad bool

	// ValuesConfirmed are the fields the person said are mapped right
	// although most of their values do not look like the field's (a city
	// column of codes): Validate holds such a field back until then.
	ValuesConfirmed []string
}

// prepare is how the plan's upload is prepared from the inspected file:
// the one place every reading of the upload (count, quote, reuse,
// submission) takes its rules from.
func (p Plan) prepare(ins *input.Inspection, dropDups bool) prepare.Plan {
	return prepare.Plan{Kind: p.Kind, Mapping: p.Mapping, Splits: p.Splits, DropDuplicates: dropDups, Input: readOptions(p, ins),
		Repairs: p.repairs(ins)}
}

// repairs are the plan's repairs in the file's columns. A repair that
// finds nothing to mend in the file sends no prepared copy for it
// (prepare.Describe): a choice on by default costs nothing there.
func (p Plan) repairs(ins *input.Inspection) prepare.Repairs {
	var r prepare.Repairs
	if p.Kind == jobs.KindDNC {
		r.LeaveOutInvalid, r.LeaveOutAbroad = p.LeaveOutInvalid, p.LeaveOutAbroad
		return r
	}
	if p.PadZips {
		for _, k := range []string{mapping.PropertyZip, mapping.MailingZip} {
			if c := p.Mapping[k]; c != "" && slices.Contains(ins.Headers, c) && !slices.Contains(r.PadZips, c) {
				r.PadZips = append(r.PadZips, c)
			}
		}
	}
	if p.LeaveOutNoAddress {
		if c := p.streetColumn(ins); c != "" {
			r.LeaveOutBlank = []string{c}
		}
	}
	return r
}

// streetColumn is the file's column that holds the street of the address
// the plan searches by (the property's, else the mailing address's): the
// one-line address column when a split derives the street. "" when none.
func (p Plan) streetColumn(ins *input.Inspection) string {
	for _, g := range [][]string{mapping.GroupKeys(mapping.GroupProperty), mapping.GroupKeys(mapping.GroupMailing)} {
		if slices.ContainsFunc(g, func(k string) bool { return p.Mapping[k] == "" }) {
			continue
		}
		c := p.Mapping[g[0]]
		if slices.Contains(ins.Headers, c) {
			return c
		}
		for _, sp := range p.Splits {
			if slices.Contains(sp.Columns(ins.Headers), c) {
				return sp.Column
			}
		}
	}
	return ""
}

// mode is the plan's mode, normal when unset.
func (p Plan) mode() jobs.Mode {
	if p.Kind == jobs.KindDNC {
		return ""
	}
	if p.Mode == "" {
		return jobs.ModeNormal
	}
	return p.Mode
}

// name is the job's name: the plan's, else the name the upload is sent
// under.
func (p Plan) name(written bool) string {
	if p.Name != "" {
		return p.Name
	}
	return prepare.UploadName(p.Path, written)
}

// options are the plan's choices the ledger keeps with the submission.
func (p Plan) options() submit.Options {
	o := submit.Options{DropDuplicates: p.DropDuplicates, HeaderLine: p.Input.HeaderLine, Sheet: p.Input.Sheet,
		ParentTraceID: p.ParentTraceID}
	if p.Kind == jobs.KindDNC {
		o.LeaveOutInvalid, o.LeaveOutAbroad = p.LeaveOutInvalid, p.LeaveOutAbroad
	} else {
		o.PadZips, o.LeaveOutNoAddress = p.PadZips, p.LeaveOutNoAddress
	}
	for _, sp := range p.Splits {
		o.Splits = append(o.Splits, sp.Column)
	}
	return o
}

// Headers are the headers the upload of a file with these headers will
// have: the file's own, then the columns accepted splits derive.
func (p Plan) Headers(headers []string) []string {
	out := slices.Clone(headers)
	for _, sp := range p.Splits {
		out = append(out, sp.Columns(headers)...)
	}
	return out
}

// Suggest is the automatic mapping of an inspected file for kind: the
// guesses, and the splits worth accepting (a full-name column, a one-line
// address).
func Suggest(ins *input.Inspection, kind jobs.Kind) mapping.Suggestion {
	return mapping.AutoMap(ins.Headers, ins.Sample, kind)
}

// AcceptSplits returns p with every split of sug accepted: the keys they
// derive now point to the derived columns.
func AcceptSplits(p Plan, ins *input.Inspection, sug mapping.Suggestion) Plan {
	p.Splits = slices.Clone(sug.Splits)
	m := p.Mapping.Clone()
	if m == nil {
		m = mapping.Mapping{}
	}
	for _, sp := range sug.Splits {
		for i, c := range sp.Columns(ins.Headers) {
			m[sp.Keys[i]] = c
		}
	}
	p.Mapping = m
	return p
}

// Validate checks the plan's mapping against the inspected file with the
// provider's rules, every problem at once, in the words mapping gives
// them, and the values of the file's first rows under each mapped field
// (mapping.CheckValues: a field whose values mostly do not fit holds the
// mapping back until the person confirms it, Plan.ValuesConfirmed). The
// window's board and the command line both call it.
func Validate(ins *input.Inspection, p Plan) mapping.Result {
	headers := p.Headers(ins.Headers)
	var opts []mapping.Option
	if len(ins.Blanks) == len(ins.Headers) {
		st := mapping.StatsFrom(ins.Headers, ins.Rows, ins.Blanks)
		if slices.Equal(ins.NameColumns, p.Mapping.NameColumns()) {
			// The inspection's company rows were found by these names.
			st.Companies = ins.EntityRows
		}
		opts = append(opts, mapping.WithStats(st))
	}
	// The values under each mapped field, as the upload will have them.
	opts = append(opts, mapping.WithValues(SplitSample(ins, p.Splits), p.ValuesConfirmed))
	if p.Kind == jobs.KindDNC {
		return mapping.ValidateDNC(headers, p.Mapping, opts...)
	}
	return mapping.Validate(headers, p.Mapping, p.mode(), opts...)
}

// ---- presets -------------------------------------------------------------

// presetStore is where presets live: Config.PresetsFile when set, else the
// ledger (shared by the window and the command line on this computer).
func (s *core) presetStore() (mapping.PresetStore, error) {
	if s.cfg.PresetsFile != "" {
		return mapping.NewFileStore(s.cfg.PresetsFile), nil
	}
	sess, err := s.books()
	if err != nil {
		return nil, err
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return ledger.PresetStore{L: sess.led}, nil
}

// savedPresets is every mapping preset of the preset store.
func (s *core) savedPresets() ([]mapping.Preset, error) {
	st, err := s.presetStore()
	if err != nil {
		return nil, err
	}
	return st.Presets()
}

// PresetNames lists the saved mapping presets, sorted.
func (s *PresetService) PresetNames(ctx context.Context) ([]string, error) {
	ps, err := s.savedPresets()
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(ps))
	for _, p := range ps {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	return names, nil
}

// LoadPreset returns a saved preset.
func (s *PresetService) LoadPreset(ctx context.Context, name string) (*mapping.Preset, error) {
	ps, err := s.savedPresets()
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
		if p.Name == name {
			p.Mapping = p.Mapping.Clone()
			return &p, nil
		}
	}
	return nil, fmt.Errorf("no preset named %q", name)
}

// MatchPreset finds the preset saved for files with these headers and
// kind; nil when none. Without a place to keep presets (no session, no
// presets file) there is none.
func (s *PresetService) MatchPreset(ctx context.Context, headers []string, kind jobs.Kind) (*mapping.Preset, error) {
	st, err := s.presetStore()
	if errors.Is(err, ErrNotConnected) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return mapping.MatchPreset(st, headers, kind)
}

// SavePreset stores the plan's mapping and options under name for files
// with these headers. A plan with accepted splits names derived columns,
// which a file with these headers does not have: refused.
func (s *PresetService) SavePreset(ctx context.Context, name string, headers []string, p Plan) error {
	if len(p.Splits) > 0 {
		return errors.New("a mapping with split columns cannot be saved as a preset (it names columns SkipDesk derives, not the file's own)")
	}
	st, err := s.presetStore()
	if err != nil {
		return err
	}
	return st.SavePreset(mapping.NewPreset(name, headers, p.Kind, p.Mapping.Clone(), p.mode(), p.IncludeLLCs))
}

// SplitSample is the inspection's sample rows with the columns the splits
// derive appended, as the upload will have them: what a screen shows of
// the split columns.
func SplitSample(ins *input.Inspection, splits []mapping.Split) [][]string {
	if len(splits) == 0 {
		return ins.Sample
	}
	idx := make([]int, len(splits))
	for i, sp := range splits {
		idx[i] = slices.Index(ins.Headers, sp.Column)
	}
	out := make([][]string, len(ins.Sample))
	for r, row := range ins.Sample {
		nr := slices.Clone(row)
		for len(nr) < len(ins.Headers) {
			nr = append(nr, "")
		}
		for i, sp := range splits {
			v := ""
			if idx[i] >= 0 && idx[i] < len(row) {
				v = row[idx[i]]
			}
			vals, _ := sp.Apply(v)
			for k := range sp.Keys {
				if k < len(vals) {
					nr = append(nr, vals[k])
				} else {
					nr = append(nr, "")
				}
			}
		}
		out[r] = nr
	}
	return out
}
