package client

import (
	"encoding/json"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// Status is a job status, as the domain declares it once (jobs.Status). The
// spec lists processing, completed and failed but says the full set is "not
// shown": any other value is kept as received.
type Status = jobs.Status

// The statuses the spec lists.
const (
	StatusProcessing = jobs.StatusProcessing
	StatusCompleted  = jobs.StatusCompleted
	StatusFailed     = jobs.StatusFailed
)

// Trace modes, as the domain declares them (jobs.Mode), in the form the
// API's fields take.
const (
	ModeNormal   = string(jobs.ModeNormal)
	ModeEnhanced = string(jobs.ModeEnhanced)
)

// Trace list types (the type query parameter of GET /traces).
const (
	TypeBulk   = "bulk"
	TypeSingle = "single"
)

// Extra holds the members of a JSON object that the spec does not name, so
// that nothing the server sends is lost.
type Extra map[string]json.RawMessage

// Account is GET /account.
type Account struct {
	ID           string        `json:"id"`
	Email        string        `json:"email"`
	BillingMode  string        `json:"billing_mode"` // "prepaid" or "metered"
	Credits      int64         `json:"credits"`
	Subscription *Subscription `json:"subscription"`
	Metered      *Metered      `json:"metered"`
	Extra        Extra         `json:"-"`
}

// Billing modes.
const (
	BillingPrepaid = "prepaid"
	BillingMetered = "metered"
)

// Subscription is the account's plan, when it has one.
type Subscription struct {
	PlanID           string    `json:"plan_id"`
	PlanName         string    `json:"plan_name"`
	CreditsLimit     int64     `json:"credits_limit"`
	CreditsUsed      int64     `json:"credits_used"`
	CurrentPeriodEnd time.Time `json:"current_period_end"`
	Extra            Extra     `json:"-"`
}

// Metered is the metered-billing object. The spec does not show its fields;
// these are the ones the sandbox documents (docs/sandbox.md). Anything else is
// kept in Extra.
type Metered struct {
	Threshold     int64  `json:"threshold"`      // usage at which the card is charged
	UnbilledUsage int64  `json:"unbilled_usage"` // credits used since the last charge
	PastDue       bool   `json:"past_due"`       // submissions get 402 while true
	CardLast4     string `json:"card_last4"`
	Extra         Extra  `json:"-"`
}

// Rates are integer credits per row.
type Rates struct {
	Normal   int64 `json:"normal"`
	Enhanced int64 `json:"enhanced"`
	LLC      int64 `json:"llc"`
	DNC      int64 `json:"dnc"`
	Extra    Extra `json:"-"`
}

// Pricing is GET /pricing.
type Pricing struct {
	Rates Rates `json:"rates"`
}

// Metadata is the _metadata object of list responses.
type Metadata struct {
	Page       int `json:"page"`
	PerPage    int `json:"per_page"`
	PageCount  int `json:"page_count"`
	TotalCount int `json:"total_count"`
}

// Tier is one member of a trace breakdown.
type Tier struct {
	Rate            int64 `json:"rate"`
	Rows            int   `json:"rows"`
	Match           int   `json:"match"`
	NoMatch         int   `json:"no_match"`
	Error           int   `json:"error"`
	CreditsCharged  int64 `json:"credits_charged"`
	CreditsRefunded int64 `json:"credits_refunded"`
}

// Breakdown is present only on traces with include_llcs true.
type Breakdown struct {
	Individuals Tier `json:"individuals"`
	LLCs        Tier `json:"llcs"`
}

// Trace is a bulk or single trace job: list items, GET /traces/:id and the
// data of trace.* webhooks share this shape.
type Trace struct {
	ID              string     `json:"id"`
	EncodedID       string     `json:"encoded_id,omitempty"`
	Type            string     `json:"type,omitempty"` // "bulk" or "single"; not in the spec, kept when sent
	Status          Status     `json:"status"`
	Mode            string     `json:"mode"`
	IncludeLLCs     bool       `json:"include_llcs"`
	TotalRows       int        `json:"total_rows"`
	EntityRows      int        `json:"entity_rows"`
	MatchCount      int        `json:"match_count"`
	NoMatchCount    int        `json:"no_match_count"`
	ErrorCount      int        `json:"error_count"`
	CreditsCharged  int64      `json:"credits_charged"`
	CreditsRefunded int64      `json:"credits_refunded"`
	Name            string     `json:"name"`
	DownloadURL     *string    `json:"download_url"`
	CreatedAt       time.Time  `json:"created_at"`
	CompletedAt     time.Time  `json:"completed_at,omitzero"`
	ErrorMessage    *string    `json:"error_message"`
	Breakdown       *Breakdown `json:"breakdown,omitempty"`
	Extra           Extra      `json:"-"`
}

// TraceList is GET /traces.
type TraceList struct {
	Metadata Metadata `json:"_metadata"`
	Traces   []Trace  `json:"traces"` // the items that could be read
	// Invalid lists the items that could not be read (lists.go).
	Invalid []*ListItemError `json:"-"`
}

// TraceCreated is the 201 body of POST /traces.
type TraceCreated struct {
	Success        bool              `json:"success"`
	ID             string            `json:"id"`
	Status         Status            `json:"status"`
	Mode           string            `json:"mode"`
	IncludeLLCs    bool              `json:"include_llcs"`
	TotalRows      int               `json:"total_rows"`
	EntityRows     int               `json:"entity_rows"`
	Cost           int64             `json:"cost"`
	CreditsCharged int64             `json:"credits_charged"`
	Columns        map[string]string `json:"columns"`
	Extra          Extra             `json:"-"`
}

// DNCJob is a DNC scrub job: GET /dnc/:id, list items and dnc.* webhook data.
type DNCJob struct {
	ID              string    `json:"id"`
	EncodedID       string    `json:"encoded_id,omitempty"`
	Name            string    `json:"name"`
	Status          Status    `json:"status"`
	TotalRows       int       `json:"total_rows"`
	MatchCount      int       `json:"match_count"`
	ErrorCount      int       `json:"error_count"`
	Rate            int64     `json:"rate"`
	CreditsCharged  int64     `json:"credits_charged"`
	CreditsRefunded int64     `json:"credits_refunded"`
	DownloadURL     *string   `json:"download_url"`
	CreatedAt       time.Time `json:"created_at"`
	CompletedAt     time.Time `json:"completed_at,omitzero"`
	ErrorMessage    *string   `json:"error_message"`
	Extra           Extra     `json:"-"`
}

// DNCList is GET /dnc.
type DNCList struct {
	Metadata Metadata `json:"_metadata"`
	Jobs     []DNCJob `json:"jobs"` // the items that could be read
	// Invalid lists the items that could not be read (lists.go).
	Invalid []*ListItemError `json:"-"`
}

// DNCCreated is the body of POST /dnc.
type DNCCreated struct {
	ID             string `json:"id"`
	Name           string `json:"name"`
	Status         Status `json:"status"`
	TotalRows      int    `json:"total_rows"`
	Rate           int64  `json:"rate"`
	CreditsCharged int64  `json:"credits_charged"`
	Extra          Extra  `json:"-"`
}

// SingleTraceRequest is the JSON body of POST /traces/single.
type SingleTraceRequest struct {
	FirstName      string `json:"first_name"`
	LastName       string `json:"last_name,omitempty"`
	Address        string `json:"address"`
	City           string `json:"city"`
	State          string `json:"state"`
	Zip            string `json:"zip"`
	MailingAddress string `json:"mailing_address,omitempty"`
	MailingCity    string `json:"mailing_city,omitempty"`
	MailingState   string `json:"mailing_state,omitempty"`
	MailingZip     string `json:"mailing_zip,omitempty"`
	IsEntity       bool   `json:"is_entity,omitempty"`
}

// Phone is one phone of a single trace result. Type values are not listed by
// the spec ("mobile", "landline", "voip" from the sandbox); any is kept.
type Phone struct {
	Number string `json:"number"`
	Type   string `json:"type"`
}

// SingleTraceResult is the response of POST /traces/single.
type SingleTraceResult struct {
	ID              string   `json:"id,omitempty"`
	Matched         bool     `json:"matched"`
	FirstName       string   `json:"first_name"`
	LastName        string   `json:"last_name"`
	Phones          []Phone  `json:"phones"`
	Emails          []string `json:"emails"`
	Credits         int64    `json:"credits"`
	CreditsRefunded int64    `json:"credits_refunded"`
	IsEntity        bool     `json:"is_entity"`
	Extra           Extra    `json:"-"`
}

// WebhookDelivery is returned by the retry-webhook endpoints.
type WebhookDelivery struct {
	DeliveryID string `json:"delivery_id"`
	Attempt    int    `json:"attempt"`
	Status     string `json:"status"`
	Extra      Extra  `json:"-"`
}
