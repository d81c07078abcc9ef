// Package sandbox is a local, faithful implementation of the provider API
// (spec/api.md) with synthetic data. It imports no other package of the
// project: it is an independent reading of the spec, so that tests of the
// client against it catch misreadings. Every choice made where the spec says
// "not shown" is written down in docs/sandbox.md.
package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"
)

// DemoKey is the API key of the account DefaultConfig creates.
const DemoKey = "sk_sandbox_demo"

// Config is the whole sandbox configuration. The JSON form is documented
// field by field in docs/sandbox.md.
type Config struct {
	Rates          Rates            `json:"rates"`
	RecordLimit    int              `json:"record_limit"`     // data rows per bulk job; more gives 422
	MaxUploadBytes int64            `json:"max_upload_bytes"` // size of the file part; more gives 413
	RateLimits     RateLimits       `json:"rate_limits"`
	Processing     Processing       `json:"processing"`
	MatchRate      float64          `json:"match_rate"` // fraction of ordinary rows that match, 0..1
	IDStyle        string           `json:"id_style"`   // "prefixed" (default) or "plain"
	Webhook        WebhookConfig    `json:"webhook"`
	Faults         Faults           `json:"faults"`
	ResultLayouts  ResultLayouts    `json:"result_layouts"` // columns of result files: TraceLayouts, DNCLayouts
	Keys           []KeyConfig      `json:"keys"`
	Now            func() time.Time `json:"-"` // clock for timestamps and rate-limit windows; nil = time.Now
	Logger         *log.Logger      `json:"-"` // nil = discard
}

// Rates are integer credits per row (GET /pricing).
type Rates struct {
	Normal   int64 `json:"normal"`
	Enhanced int64 `json:"enhanced"`
	LLC      int64 `json:"llc"`
	DNC      int64 `json:"dnc"`
}

// RateLimits are requests per key per fixed one-minute window. 0 means the
// spec's value; a negative value switches the level off.
type RateLimits struct {
	ReadPerMinute  int `json:"read_per_minute"`
	WritePerMinute int `json:"write_per_minute"`
}

// Processing decides how long a job stays "processing": the larger of
// MinSeconds and rows / RowsPerSecond (RowsPerSecond <= 0 ignores rows).
type Processing struct {
	RowsPerSecond float64 `json:"rows_per_second"`
	MinSeconds    float64 `json:"min_seconds"`
}

// WebhookConfig tunes webhook delivery. Attempt 1 is sent at finalisation;
// attempt k (k >= 2) follows attempt k-1 after RetryDelaysSeconds[k-2].
type WebhookConfig struct {
	RetryDelaysSeconds []float64 `json:"retry_delays_seconds"`
	TimeoutSeconds     float64   `json:"timeout_seconds"`
	MaxAttempts        int       `json:"max_attempts"`
}

// Faults inject failures so clients can be tested against them.
type Faults struct {
	// ErrorRate is the fraction of requests answered 503 before anything else
	// happens (nothing charged, not counted by the rate limiter). The choice is
	// deterministic: request n fails when floor(n*rate) > floor((n-1)*rate).
	ErrorRate float64 `json:"error_rate"`
	// SlowMS delays every request by this many milliseconds.
	SlowMS int `json:"slow_ms"`
	// ResetDownloadsAfterBytes cuts the connection after this many body bytes
	// of the first download of each job (later downloads, with or without
	// Range, are served whole). 0 = off.
	ResetDownloadsAfterBytes int64 `json:"reset_downloads_after_bytes"`
	// DropCreateResponses: the next N accepted POST /traces or POST /dnc
	// requests create and charge the job, then close the connection without
	// a response (the client cannot know whether it was charged).
	DropCreateResponses int `json:"drop_create_responses"`
}

// KeyConfig is one API key and its account.
type KeyConfig struct {
	Key              string              `json:"key"`
	Email            string              `json:"email"`
	BillingMode      string              `json:"billing_mode"` // "prepaid" (default) or "metered"
	Credits          int64               `json:"credits"`
	MeteredThreshold int64               `json:"metered_threshold"` // metered: usage at which the card is charged
	CardLast4        string              `json:"card_last4"`
	Banned           bool                `json:"banned"`
	PastDue          bool                `json:"past_due"`
	WebhookURL       string              `json:"webhook_url"`
	WebhookSecret    string              `json:"webhook_secret"`
	Subscription     *SubscriptionConfig `json:"subscription"`
}

// SubscriptionConfig is the account's plan; nil means "subscription": null.
type SubscriptionConfig struct {
	PlanID       string `json:"plan_id"`
	PlanName     string `json:"plan_name"`
	CreditsLimit int64  `json:"credits_limit"`
	CreditsUsed  int64  `json:"credits_used"`
	// CurrentPeriodEnd is RFC 3339; zero means 30 days after the server starts.
	CurrentPeriodEnd time.Time `json:"current_period_end"`
}

// Defaults of the spec and of the sandbox.
const (
	DefaultRecordLimit    = 500_000
	DefaultMaxUploadBytes = 50 << 20
	DefaultReadPerMinute  = 1200
	DefaultWritePerMinute = 120
)

// SpecRetryDelays are the spec's webhook retry delays in seconds.
var SpecRetryDelays = []float64{1, 5, 30, 300, 1800}

// DefaultConfig is one prepaid demo account (DemoKey, 25,000 credits, a
// subscription, no webhook) and the spec's limits.
func DefaultConfig() Config {
	return Config{
		Rates:          Rates{Normal: 1, Enhanced: 3, LLC: 2, DNC: 1},
		RecordLimit:    DefaultRecordLimit,
		MaxUploadBytes: DefaultMaxUploadBytes,
		RateLimits:     RateLimits{ReadPerMinute: DefaultReadPerMinute, WritePerMinute: DefaultWritePerMinute},
		Processing:     Processing{RowsPerSecond: 2000, MinSeconds: 2},
		MatchRate:      0.7,
		IDStyle:        "prefixed",
		Webhook: WebhookConfig{
			RetryDelaysSeconds: append([]float64(nil), SpecRetryDelays...),
			TimeoutSeconds:     10,
			MaxAttempts:        5,
		},
		Keys: []KeyConfig{DemoKeyConfig()},
	}
}

// DemoKeyConfig is the demo account of DefaultConfig.
func DemoKeyConfig() KeyConfig {
	return KeyConfig{
		Key:         DemoKey,
		Email:       "demo@example.com",
		BillingMode: "prepaid",
		Credits:     25_000,
		Subscription: &SubscriptionConfig{
			PlanID:       "plan_sandbox",
			PlanName:     "Sandbox",
			CreditsLimit: 25_000,
		},
	}
}

// LoadConfig reads a JSON config file. Absent fields keep DefaultConfig's
// values; an absent or empty "keys" keeps the demo account. Unknown fields
// are an error (a typo would otherwise be silently ignored).
func LoadConfig(path string) (Config, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("sandbox config: %w", err)
	}
	cfg, err := ParseConfig(b)
	if err != nil {
		return Config{}, fmt.Errorf("sandbox config %s: %w", path, err)
	}
	return cfg, nil
}

// ParseConfig is LoadConfig on bytes.
func ParseConfig(b []byte) (Config, error) {
	cfg := DefaultConfig()
	cfg.Keys = nil
	cfg.Webhook.RetryDelaysSeconds = nil
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cfg); err != nil {
		return Config{}, describeJSONError(b, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Config{}, errors.New("unexpected data after the JSON object")
	}
	if len(cfg.Keys) == 0 {
		cfg.Keys = []KeyConfig{DemoKeyConfig()}
	}
	if cfg.Webhook.RetryDelaysSeconds == nil {
		cfg.Webhook.RetryDelaysSeconds = append([]float64(nil), SpecRetryDelays...)
	}
	if err := cfg.validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

func describeJSONError(b []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line := 1 + bytes.Count(b[:min(int(se.Offset), len(b))], []byte("\n"))
		return fmt.Errorf("line %d: %v", line, err)
	}
	return err
}

// validate reports the first problem of a config, naming the field.
func (c *Config) validate() error {
	if c.MatchRate < 0 || c.MatchRate > 1 {
		return fmt.Errorf("match_rate %v: must be between 0 and 1", c.MatchRate)
	}
	switch c.IDStyle {
	case "", "prefixed", "plain":
	default:
		return fmt.Errorf("id_style %q: must be \"prefixed\" or \"plain\"", c.IDStyle)
	}
	if err := c.validateAmounts(); err != nil {
		return err
	}
	if err := c.ResultLayouts.validate(); err != nil {
		return err
	}
	if c.Faults.ErrorRate < 0 || c.Faults.ErrorRate > 1 {
		return fmt.Errorf("faults.error_rate %v: must be between 0 and 1", c.Faults.ErrorRate)
	}
	return c.validateKeys()
}

// validateAmounts checks the rates, limits, processing and webhook times:
// none may be negative.
func (c *Config) validateAmounts() error {
	if c.Rates.Normal < 0 || c.Rates.Enhanced < 0 || c.Rates.LLC < 0 || c.Rates.DNC < 0 {
		return errors.New("rates: must not be negative")
	}
	if c.RecordLimit < 0 || c.MaxUploadBytes < 0 {
		return errors.New("record_limit and max_upload_bytes must not be negative")
	}
	if c.Processing.MinSeconds < 0 || c.Processing.RowsPerSecond < 0 {
		return errors.New("processing: values must not be negative")
	}
	for i, d := range c.Webhook.RetryDelaysSeconds {
		if d < 0 {
			return fmt.Errorf("webhook.retry_delays_seconds[%d]: must not be negative", i)
		}
	}
	if c.Webhook.MaxAttempts < 0 || c.Webhook.TimeoutSeconds < 0 {
		return errors.New("webhook: values must not be negative")
	}
	return nil
}

// validateKeys checks each key and that none is listed twice.
func (c *Config) validateKeys() error {
	seen := map[string]bool{}
	for i, k := range c.Keys {
		if err := k.validate(); err != nil {
			return fmt.Errorf("keys[%d]: %w", i, err)
		}
		if seen[k.Key] {
			return fmt.Errorf("keys[%d]: the key is listed twice", i)
		}
		seen[k.Key] = true
	}
	return nil
}

func (k *KeyConfig) validate() error {
	if strings.TrimSpace(k.Key) == "" || strings.ContainsAny(k.Key, " \t\r\n") {
		return errors.New("key: must be a non-empty string without spaces")
	}
	switch k.BillingMode {
	case "", "prepaid", "metered":
	default:
		return fmt.Errorf("billing_mode %q: must be \"prepaid\" or \"metered\"", k.BillingMode)
	}
	if k.Credits < 0 || k.MeteredThreshold < 0 {
		return errors.New("credits and metered_threshold must not be negative")
	}
	if k.WebhookURL != "" && !strings.HasPrefix(k.WebhookURL, "http://") && !strings.HasPrefix(k.WebhookURL, "https://") {
		return errors.New("webhook_url: must be an http:// or https:// URL")
	}
	return nil
}

// normalized fills zero values with the spec's or the sandbox's defaults.
func (c Config) normalized() Config {
	if c.RecordLimit == 0 {
		c.RecordLimit = DefaultRecordLimit
	}
	if c.MaxUploadBytes == 0 {
		c.MaxUploadBytes = DefaultMaxUploadBytes
	}
	if c.RateLimits.ReadPerMinute == 0 {
		c.RateLimits.ReadPerMinute = DefaultReadPerMinute
	}
	if c.RateLimits.WritePerMinute == 0 {
		c.RateLimits.WritePerMinute = DefaultWritePerMinute
	}
	if c.IDStyle == "" {
		c.IDStyle = "prefixed"
	}
	if c.Webhook.RetryDelaysSeconds == nil {
		c.Webhook.RetryDelaysSeconds = append([]float64(nil), SpecRetryDelays...)
	}
	if c.Webhook.TimeoutSeconds == 0 {
		c.Webhook.TimeoutSeconds = 10
	}
	if c.Webhook.MaxAttempts == 0 {
		c.Webhook.MaxAttempts = 5
	}
	c.ResultLayouts = c.ResultLayouts.normalized()
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Logger == nil {
		c.Logger = log.New(io.Discard, "", 0)
	}
	c.Keys = append([]KeyConfig(nil), c.Keys...)
	return c
}

func seconds(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }
