package workflow

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs/calltime"
	"github.com/skipdesk/skipdesk/jobs/dialer"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/optout"
)

// The calling-time rules: the dated rules table and the numbering data,
// read once for the process (they ship with SkipDesk).
var callingEngine = sync.OnceValues(func() (*calltime.Engine, error) { return calltime.New(nil) })

// CallingRules is the engine that places phones and applies the calling
// rules; its Table is the rules table with its version.
func (s *ComplianceService) CallingRules() (*calltime.Engine, error) {
	e, err := callingEngine()
	if err != nil {
		return nil, fmt.Errorf("the calling rules that ship with SkipDesk cannot be read: %w", err)
	}
	return e, nil
}

// RulesHelp is the rules table as Help shows it, with where the numbering
// data comes from.
func (s *ComplianceService) RulesHelp() (string, error) {
	e, err := s.compliance().CallingRules()
	if err != nil {
		return "", err
	}
	return calltime.HelpText(e.Table()) + "\nWhere a phone is: " + e.DataInfo() + "\n", nil
}

// RulesHelpMarkdown is RulesHelp as Markdown, for the window's Help.
func (s *ComplianceService) RulesHelpMarkdown() (string, error) {
	e, err := s.compliance().CallingRules()
	if err != nil {
		return "", err
	}
	return calltime.HelpMarkdown(e.Table()) + "\n**Where a phone is:** " + e.DataInfo() + "\n", nil
}

// PresetsDir is the folder of the person's own dialer presets.
func (s *PresetService) PresetsDir() string { return filepath.Join(s.cfg.Home, "dialer-presets") }

// DialerPresets lists the dialer and CRM layouts: SkipDesk's, then the
// person's (PresetsDir). A file of the person's that cannot be used is
// named in problems; the others still load.
func (s *PresetService) DialerPresets() (presets []*dialer.Preset, problems []error, err error) {
	builtin, err := dialer.Builtin()
	if err != nil {
		return nil, nil, err
	}
	mine, problems := dialer.LoadDir(s.presets().PresetsDir(), builtin)
	return append(builtin, mine...), problems, nil
}

// DialerPreset finds a preset by its ID ("reisift") or name ("REISift").
func (s *PresetService) DialerPreset(name string) (*dialer.Preset, error) {
	ps, _, err := s.presets().DialerPresets()
	if err != nil {
		return nil, err
	}
	if p, ok := dialer.Find(ps, name); ok {
		return p, nil
	}
	ids := make([]string, 0, len(ps))
	for _, p := range ps {
		ids = append(ids, p.ID)
	}
	return nil, fmt.Errorf("no dialer preset %q; there are: %s", name, strings.Join(ids, ", "))
}

// SaveDialerPreset saves a person's preset in PresetsDir.
func (s *PresetService) SaveDialerPreset(p *dialer.Preset) error {
	builtin, err := dialer.Builtin()
	if err != nil {
		return err
	}
	return dialer.Save(s.presets().PresetsDir(), p, builtin)
}

// OptOutImport is what an opt-out import found and did.
type OptOutImport struct {
	*optout.Import
	Added   int // numbers put on the company's list
	Already int // numbers that were on it already
}

// ImportOptOuts reads an SMS tool's replies export, a dialer's
// dispositions export or a CRM's contacts export with opt-out marks and
// puts every opt-out on the company's do-not-call list (ReadOptOuts, then
// AddOptOuts).
func (s *ComplianceService) ImportOptOuts(ctx context.Context, path string, loc *time.Location) (*OptOutImport, error) {
	imp, err := s.ReadOptOuts(ctx, path, loc)
	if err != nil {
		return nil, err
	}
	return s.AddOptOuts(ctx, imp)
}

// ReadOptOuts reads an export of opt-outs and changes nothing: what
// AddOptOuts puts on the list, for a person to look at first (an entry
// stays on the list years after it is added). loc is the zone of dates
// written without one (nil: this computer's).
func (s *ComplianceService) ReadOptOuts(ctx context.Context, path string, loc *time.Location) (*optout.Import, error) {
	e, err := s.compliance().CallingRules()
	if err != nil {
		return nil, err
	}
	if loc == nil {
		loc = time.Local
	}
	return optout.Read(ctx, path, e, optout.Options{Location: loc, Now: time.Now().In(loc)})
}

// AddOptOuts puts every opt-out of imp on the company's do-not-call list,
// dated when it was made, its reason naming the reply, the deadline to
// honour it and the first date it may be removed. A reply that only may be
// an opt-out goes on the list too (fail closed), said so in its reason,
// for a person to read.
func (s *ComplianceService) AddOptOuts(ctx context.Context, imp *optout.Import) (*OptOutImport, error) {
	res := &OptOutImport{Import: imp}
	entries := optOutEntries(imp, s.team().Computer())
	if len(entries) == 0 {
		return res, nil
	}
	led, done, err := s.internalLedger(true)
	if err != nil {
		return nil, err
	}
	defer done()
	if res.Added, err = led.CompanyList().AddInternal(ctx, entries); err != nil {
		return nil, err
	}
	res.Already = len(entries) - res.Added
	return res, nil
}

// optOutEntries are the company-list entries of an import: one per number,
// its earliest opt-out.
func optOutEntries(imp *optout.Import, by string) []ledger.InternalEntry {
	first := map[string]int{}
	for i, e := range imp.Entries {
		if j, ok := first[e.Number]; !ok || e.Made.Before(imp.Entries[j].Made) {
			first[e.Number] = i
		}
	}
	var out []ledger.InternalEntry
	for i, e := range imp.Entries {
		if first[e.Number] != i {
			continue
		}
		entry := ledger.InternalEntry{Number: e.Number, AddedAt: e.Made, Reason: OptOutReason(e), By: by,
			Source: fmt.Sprintf("%s %s, %s", imp.Layout, filepath.Base(imp.File), optout.At(e.Sheet, e.Line))}
		// An opt-out cannot be removed before its time; one that only may be
		// can, once a person has read it (the removal's reason recorded).
		if e.Terms.Keep != nil && e.Class == optout.Stop {
			entry.KeepUntil = e.Terms.NotBefore // removal refused before it
		}
		out = append(out, entry)
	}
	return out
}

// OptOutReason is an opt-out in the words the company's list keeps: what
// was said, how, when it must be honoured by, and the rule that keeps it
// (the first date it may be removed is the entry's KeepUntil).
func OptOutReason(e optout.Entry) string {
	how := "call disposition"
	switch {
	case e.Flag:
		how = "marked in the export"
	case e.Text:
		how = "text reply"
	}
	what := "opt-out"
	if e.Class == optout.Maybe {
		what = "possible opt-out (a person should read it)"
	}
	s := fmt.Sprintf("%s: %s %q; honour by %s", what, how, e.Said, e.Terms.HonourBy.Format(time.DateOnly))
	if e.Terms.Keep != nil {
		s += fmt.Sprintf("; kept under %s", e.Terms.Keep.Source)
	}
	if e.DateNote != "" {
		s += "; " + e.DateNote
	}
	return s
}

// ErrNoPreset: an export named a preset but gave no callable list to shape.
var ErrNoPreset = errors.New("a dialer preset shapes a callable list: export with only callable phones")
