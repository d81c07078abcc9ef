package workflow

// Service is the application layer: the composition root Open builds. Its
// capabilities hang off it as small services, each a view of the one core
// (the configuration, the session, the ledger, the tracker and the library
// indexes) with the methods of one concern, as client.Client has Traces and
// DNC. Every service is safe for concurrent use and every method may block
// and honours its context.
type Service struct {
	*core
}

// SessionService opens, resumes and closes the connection, and keeps the
// settings and the webhook secret (service.go).
type SessionService struct{ *core }

// QuoteService reads a list before paying: inspection, counts, rates and
// the quote (quote.go, read.go, results.go's Inspect and SampleList).
type QuoteService struct{ *core }

// PresetService keeps the mapping presets and the dialer presets
// (plan.go, calltime.go).
type PresetService struct{ *core }

// SubmitService sends what costs money: bulk submissions, the single
// lookup and the scrub of a trace's phones, all through the ledger
// (submit.go).
type SubmitService struct{ *core }

// JobService is the jobs list and what happens to a job: events, waiting,
// settling an unknown outcome, downloading and exporting its result
// (jobs.go).
type JobService struct{ *core }

// APIService reads the provider's endpoints; nothing there is charged
// (api.go).
type APIService struct{ *core }

// ResultService opens results for the viewer, queries, exports them and
// reads them through their layout as the person corrected it (results.go,
// view.go).
type ResultService struct{ *core }

// LibraryService keeps the library: its index, searches, imports and
// results fetched from a teammate's library (index.go, import.go).
type LibraryService struct{ *core }

// ComplianceService keeps the company's own do-not-call list, opt-outs and
// the calling rules (compliance.go, dnclist.go, calltime.go).
type ComplianceService struct{ *core }

// TeamService shares the records with a team's database and stops sharing
// (team.go).
type TeamService struct{ *core }

// Sessions opens and closes the connection and keeps the settings.
func (s *Service) Sessions() *SessionService { return s.sessions() }

// Quotes reads, counts and prices a list before paying.
func (s *Service) Quotes() *QuoteService { return s.quotes() }

// Presets keeps mapping and dialer presets.
func (s *Service) Presets() *PresetService { return s.presets() }

// Submissions sends what costs money.
func (s *Service) Submissions() *SubmitService { return s.submissions() }

// Jobs is the jobs list and each job's course.
func (s *Service) Jobs() *JobService { return s.jobs() }

// API reads the provider's endpoints.
func (s *Service) API() *APIService { return s.api() }

// Results opens, queries and exports results.
func (s *Service) Results() *ResultService { return s.results() }

// Library keeps and searches the library.
func (s *Service) Library() *LibraryService { return s.libraryService() }

// Compliance keeps the company's list, opt-outs and calling rules.
func (s *Service) Compliance() *ComplianceService { return s.compliance() }

// Team shares the records with a team.
func (s *Service) Team() *TeamService { return s.team() }

func (c *core) sessions() *SessionService       { return &SessionService{c} }
func (c *core) quotes() *QuoteService           { return &QuoteService{c} }
func (c *core) presets() *PresetService         { return &PresetService{c} }
func (c *core) submissions() *SubmitService     { return &SubmitService{c} }
func (c *core) jobs() *JobService               { return &JobService{c} }
func (c *core) api() *APIService                { return &APIService{c} }
func (c *core) results() *ResultService         { return &ResultService{c} }
func (c *core) libraryService() *LibraryService { return &LibraryService{c} }
func (c *core) compliance() *ComplianceService  { return &ComplianceService{c} }
func (c *core) team() *TeamService              { return &TeamService{c} }
