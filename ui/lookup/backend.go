// Package lookup is the single-record trace screen: a form with the spec's
// fields, the cost before the click and the result inline.
package lookup

import (
	"context"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// Backend is what the single lookup needs from the app; the application layer
// (jobs/workflow) implements it. Methods may block and are called off the UI thread.
type Backend interface {
	// Pricing is GET /pricing: the normal and llc rates priced before the click.
	Pricing(ctx context.Context) (*client.Pricing, error)
	// Single is POST /traces/single, recorded in the ledger (charged: never
	// resent automatically).
	Single(ctx context.Context, req client.SingleTraceRequest) (*client.SingleTraceResult, error)
	// OnInternalList says which numbers are on the company's own
	// do-not-call list (by their 10 digits).
	OnInternalList(ctx context.Context, numbers []string) (map[string]bool, error)
}

// FromWorkflow is the lookup's backend over the application layer's
// services: the rates, the single lookup, the company's list.
func FromWorkflow(s *workflow.Service) Backend {
	return workflowBackend{s.Sessions(), s.Submissions(), s.Compliance()}
}

type workflowBackend struct {
	*workflow.SessionService
	*workflow.SubmitService
	*workflow.ComplianceService
}
