package sandbox

import (
	"fmt"
	"net/http"
	"time"
)

// account is the state behind one API key.
type account struct {
	key           string
	id            string
	email         string
	mode          string // prepaid | metered
	credits       int64
	threshold     int64
	unbilled      int64
	cardLast4     string
	cardCharges   int
	banned        bool
	pastDue       bool
	webhookURL    string
	webhookSecret string
	sub           *SubscriptionConfig
}

// AddKey adds an API key and its account while the server runs.
func (s *Server) AddKey(k KeyConfig) error {
	if err := k.validate(); err != nil {
		return fmt.Errorf("sandbox key: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.accounts[k.Key]; dup {
		return fmt.Errorf("sandbox key: the key is already registered")
	}
	a := &account{
		key:           k.Key,
		id:            accountID(k.Key),
		email:         k.Email,
		mode:          k.BillingMode,
		credits:       k.Credits,
		threshold:     k.MeteredThreshold,
		cardLast4:     k.CardLast4,
		banned:        k.Banned,
		pastDue:       k.PastDue,
		webhookURL:    k.WebhookURL,
		webhookSecret: k.WebhookSecret,
	}
	if a.mode == "" {
		a.mode = "prepaid"
	}
	if a.email == "" {
		a.email = "user-" + a.id[:8] + "@example.com"
	}
	if a.mode == "metered" {
		if a.threshold == 0 {
			a.threshold = 10_000
		}
		if a.cardLast4 == "" {
			a.cardLast4 = "4242"
		}
	}
	if k.Subscription != nil {
		sub := *k.Subscription
		if sub.CurrentPeriodEnd.IsZero() {
			sub.CurrentPeriodEnd = s.now().UTC().Add(30 * 24 * time.Hour).Truncate(time.Millisecond)
		}
		a.sub = &sub
	}
	s.accounts[k.Key] = a
	return nil
}

// withAccount runs fn on the account of key under the server lock.
func (s *Server) withAccount(key string, fn func(a *account)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accounts[key]
	if a == nil {
		return fmt.Errorf("sandbox: no such key")
	}
	fn(a)
	return nil
}

// SetPastDue marks a (metered) account past due: charged POSTs get 402.
func (s *Server) SetPastDue(key string, v bool) error {
	return s.withAccount(key, func(a *account) { a.pastDue = v })
}

// SetBanned bans an account: every request gets 403.
func (s *Server) SetBanned(key string, v bool) error {
	return s.withAccount(key, func(a *account) { a.banned = v })
}

// SetCredits sets a prepaid balance.
func (s *Server) SetCredits(key string, credits int64) error {
	return s.withAccount(key, func(a *account) { a.credits = credits })
}

// SetWebhook sets the webhook URL and secret of a key (empty URL = off).
func (s *Server) SetWebhook(key, url, secret string) error {
	return s.withAccount(key, func(a *account) { a.webhookURL, a.webhookSecret = url, secret })
}

// Account returns the current state of a key's account.
func (s *Server) Account(key string) (AccountSnapshot, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.accounts[key]
	if a == nil {
		return AccountSnapshot{}, false
	}
	return a.view(), true
}

// SubscriptionSnapshot is the subscription object of GET /account.
type SubscriptionSnapshot struct {
	PlanID           string `json:"plan_id"`
	PlanName         string `json:"plan_name"`
	CreditsLimit     int64  `json:"credits_limit"`
	CreditsUsed      int64  `json:"credits_used"`
	CurrentPeriodEnd string `json:"current_period_end"`
}

// MeteredJSON is the "metered" object of GET /account (its fields are "not
// shown" by the spec; docs/sandbox.md).
type MeteredJSON struct {
	Threshold     int64  `json:"threshold"`
	UnbilledUsage int64  `json:"unbilled_usage"`
	PastDue       bool   `json:"past_due"`
	CardLast4     string `json:"card_last4"`
}

// AccountSnapshot is the account as GET /account shows it.
type AccountSnapshot struct {
	ID           string                `json:"id"`
	Email        string                `json:"email"`
	BillingMode  string                `json:"billing_mode"`
	Credits      int64                 `json:"credits"`
	Subscription *SubscriptionSnapshot `json:"subscription"`
	Metered      *MeteredJSON          `json:"metered"`
}

func (a *account) view() AccountSnapshot {
	v := AccountSnapshot{ID: a.id, Email: a.email, BillingMode: a.mode, Credits: a.credits}
	if a.sub != nil {
		v.Subscription = &SubscriptionSnapshot{
			PlanID:           a.sub.PlanID,
			PlanName:         a.sub.PlanName,
			CreditsLimit:     a.sub.CreditsLimit,
			CreditsUsed:      a.sub.CreditsUsed,
			CurrentPeriodEnd: timestamp(a.sub.CurrentPeriodEnd),
		}
	}
	if a.mode == "metered" {
		v.Metered = &MeteredJSON{Threshold: a.threshold, UnbilledUsage: a.unbilled, PastDue: a.pastDue, CardLast4: a.cardLast4}
	}
	return v
}

func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

func (s *Server) handleAccount(w http.ResponseWriter, r *http.Request, a *account, _ string) {
	s.mu.Lock()
	v := a.view()
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, v)
}

func (s *Server) handlePricing(w http.ResponseWriter, r *http.Request, _ *account, _ string) {
	s.mu.Lock()
	rates := s.cfg.Rates
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]Rates{"rates": rates})
}

// charge takes cost credits up front; the caller holds s.mu. A past-due
// account is refused whatever the cost.
func (s *Server) charge(a *account, cost int64) *apiError {
	if a.pastDue {
		return plainErr(http.StatusPaymentRequired, "PAST_DUE", "the account is past due: update the card on file before submitting more work")
	}
	switch a.mode {
	case "metered":
		a.unbilled += cost
		if a.threshold > 0 && a.unbilled >= a.threshold {
			a.unbilled = 0 // the card on file is charged for the usage
			a.cardCharges++
		}
	default:
		if a.credits < cost {
			return plainErr(http.StatusPaymentRequired, "INSUFFICIENT_CREDITS",
				fmt.Sprintf("insufficient credits: this request costs %d credits and the balance is %d", cost, a.credits))
		}
		a.credits -= cost
	}
	if a.sub != nil {
		a.sub.CreditsUsed += cost
	}
	return nil
}

// refund gives credits back; the caller holds s.mu.
func (s *Server) refund(a *account, amount int64) {
	if amount <= 0 {
		return
	}
	switch a.mode {
	case "metered":
		a.unbilled = max(0, a.unbilled-amount)
	default:
		a.credits += amount
	}
	if a.sub != nil {
		a.sub.CreditsUsed = max(0, a.sub.CreditsUsed-amount)
	}
}
