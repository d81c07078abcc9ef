// Package wizard holds the screens that turn a file into a paid job: the
// trace wizard (pick, map, options, cost, submit) and the DNC scrub.
//
// The screens reach the rest of the app only through Backend, which the
// desk facade (jobs/desk) implements. Pure domain rules (auto-mapping,
// validation, estimates, phone normalisation) are called from jobs/ directly.
package wizard

import (
	"context"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/input"
)

// Backend is what the wizard and the DNC scrub need from the app. Every
// method may block (disk, network, keyring): the screens call them off the
// UI thread and honour ctx for cancellation.
//
// The signatures use only client and jobs types and built-in types, so that
// jobs/desk satisfies the interface without importing ui/.
type Backend interface {
	// Inspect reads the picked file (CSV or XLSX) in one streaming pass.
	Inspect(ctx context.Context, path string, opts input.Options) (*input.Inspection, error)

	// Pricing is GET /pricing (rates may change: fetched each time a wizard opens).
	Pricing(ctx context.Context) (*client.Pricing, error)
	// Account is GET /account (balance, billing mode) for "balance after".
	Account(ctx context.Context) (*client.Account, error)

	// PresetNames lists the saved mapping presets, sorted for display.
	PresetNames(ctx context.Context) ([]string, error)
	// LoadPreset returns the mapping (service key → header) of a saved preset.
	LoadPreset(ctx context.Context, name string) (map[string]string, error)
	// MatchPreset finds the saved preset whose header signature equals that of
	// headers; name is "" when none matches.
	MatchPreset(ctx context.Context, headers []string) (name string, mapping map[string]string, err error)
	// SavePreset stores mapping under name with the signature of headers,
	// replacing a preset of the same name.
	SavePreset(ctx context.Context, name string, headers []string, mapping map[string]string) error

	// SubmitTrace prepares the picked file (XLSX to CSV, header line, duplicate
	// rows dropped when dropDuplicates) and submits it through the ledger.
	// up.Path is the file the user picked; up.FileName the job name;
	// up.ColumnMapping, up.Mode and up.IncludeLLCs are the user's choices;
	// up.Progress receives upload progress. opts are the input options the
	// file was inspected with (sheet, header line).
	//
	// When the same file, mapping and options were submitted recently and again
	// is false, it returns an error matching submit.ErrDuplicate (errors.Is)
	// without sending anything; the wizard asks the user and calls again with
	// again=true. It returns the job id.
	SubmitTrace(ctx context.Context, up client.TraceUpload, opts input.Options, dropDuplicates, again bool) (jobID string, err error)

	// SubmitDNC prepares the phone list and submits it through the ledger:
	// up.Path the picked file, up.PhoneColumn the header holding the phones,
	// up.Progress the upload progress. Duplicates behave as for SubmitTrace.
	SubmitDNC(ctx context.Context, up client.DNCUpload, opts input.Options, again bool) (jobID string, err error)

	// TracePhones builds a phone list (one CSV column "phone", one row per
	// phone of phone_1..phone_3 of the trace result, blanks skipped) from a
	// completed trace's result file, for "Scrub these phones". It returns the
	// path of the file it wrote.
	TracePhones(ctx context.Context, traceResultPath, traceJobID string) (path string, err error)
}
