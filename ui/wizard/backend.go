// Package wizard holds the screens that turn a file into a paid job: the
// trace wizard (pick, map, options, cost, submit) and the DNC scrub.
//
// The screens reach the rest of the app only through their backends, which
// the application layer (jobs/workflow) implements: every rule — how a
// mapping is validated, how a file is counted and priced, how a job is
// submitted through the ledger — is the layer's, the same the command line
// follows. The screens only build widgets and call it.
package wizard

import (
	"context"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// DNCBackend is what the DNC scrub needs. Every method may block (disk,
// network, keyring): the screens call them off the UI thread and honour ctx
// for cancellation.
type DNCBackend interface {
	// Inspect reads the picked file (CSV or XLSX) in one streaming pass.
	Inspect(ctx context.Context, path string, opts input.Options) (*input.Inspection, error)
	// Read reads the picked file once before it is paid for: its
	// inspection and, for the plan settle makes of the file's start, the
	// counts of a trace's upload (nil for a scrub, or where the plan's
	// rows cannot be counted), as Count would give them.
	Read(ctx context.Context, path string, opts input.Options, settle func(head *input.Inspection) (workflow.Plan, error)) (*input.Inspection, workflow.Plan, *workflow.Counts, error)
	// Rates reads the pricing and the account (rates may change: read each
	// time a screen opens).
	Rates(ctx context.Context) (workflow.Rates, error)
	// Count reads the file as its upload will be read: what the provider
	// will bill (workflow.Price turns it into a price).
	Count(ctx context.Context, p workflow.Plan, ins *input.Inspection) (*workflow.Counts, error)
	// Submit prepares the file and submits it through the ledger. With a
	// recent identical submission it returns workflow.ErrDuplicate without
	// sending anything, unless opts.Again.
	Submit(ctx context.Context, p workflow.Plan, ins *input.Inspection, opts workflow.SubmitOptions) (*workflow.Submitted, error)
	// TracePhones writes a completed trace's phones as a phone list and
	// returns the plan that scrubs it, linked to the trace.
	TracePhones(ctx context.Context, traceResultPath, traceJobID string) (workflow.Plan, error)
}

// TraceBackend is what the trace wizard needs: the scrub's, and presets.
type TraceBackend interface {
	DNCBackend
	// PresetNames lists the saved mapping presets, sorted for display.
	PresetNames(ctx context.Context) ([]string, error)
	// LoadPreset returns a saved preset.
	LoadPreset(ctx context.Context, name string) (*mapping.Preset, error)
	// MatchPreset finds the preset saved for files with these headers; nil
	// when none.
	MatchPreset(ctx context.Context, headers []string, kind jobs.Kind) (*mapping.Preset, error)
	// SavePreset stores the plan's mapping and options under name for
	// files with these headers.
	SavePreset(ctx context.Context, name string, headers []string, p workflow.Plan) error
}

// FromWorkflow is the wizards' backend over the application layer's
// services: reading and pricing a list, submitting it, its presets.
func FromWorkflow(s *workflow.Service) TraceBackend {
	return workflowBackend{s.Quotes(), s.Submissions(), s.Presets()}
}

type workflowBackend struct {
	*workflow.QuoteService
	*workflow.SubmitService
	*workflow.PresetService
}
