package ledger

// Ledger is an open ledger: one database whose records are kept by parts of
// one concern each, as the application layer has its services. Every part
// is a view of the same database and clock; all are safe for concurrent
// use and every write is committed before the method returns.
type Ledger struct {
	*book
}

// Jobs keeps the jobs, what each cost and where its result was downloaded
// (jobs.go, adopt.go).
type Jobs struct{ *book }

// Submissions keeps each submission from its intent to its outcome, and the
// duplicate guard (submissions.go).
type Submissions struct{ *book }

// CompanyList is the company's own do-not-call list with the log of every
// addition and removal (internal.go).
type CompanyList struct{ *book }

// Team is what computers sharing a team's database agree through it: who
// they are, the leases on the jobs each follows, the key's request budget
// (team.go).
type Team struct{ *book }

// Saved keeps what the person saved: mapping presets and layout
// corrections (presets.go, team.go).
type Saved struct{ *book }

// Webhooks keeps the webhook deliveries handled (webhooks.go).
type Webhooks struct{ *book }

// Jobs keeps the jobs and their spend and downloads.
func (l *Ledger) Jobs() *Jobs { return l.jobs() }

// Submissions keeps the submissions.
func (l *Ledger) Submissions() *Submissions { return l.submissions() }

// CompanyList is the company's own do-not-call list.
func (l *Ledger) CompanyList() *CompanyList { return l.companyList() }

// Team is what the computers of a team agree through the database.
func (l *Ledger) Team() *Team { return l.team() }

// Saved keeps presets and layout corrections.
func (l *Ledger) Saved() *Saved { return l.saved() }

// Webhooks keeps the webhook deliveries handled.
func (l *Ledger) Webhooks() *Webhooks { return l.webhooks() }

func (b *book) jobs() *Jobs               { return &Jobs{b} }
func (b *book) submissions() *Submissions { return &Submissions{b} }
func (b *book) companyList() *CompanyList { return &CompanyList{b} }
func (b *book) team() *Team               { return &Team{b} }
func (b *book) saved() *Saved             { return &Saved{b} }
func (b *book) webhooks() *Webhooks       { return &Webhooks{b} }
