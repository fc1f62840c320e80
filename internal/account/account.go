package account

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"svc/internal/billing"
	"svc/internal/errs"
	"svc/internal/store"
)

// Service creates, changes and authenticates accounts.
type Service struct {
	st      store.Store
	now     func() time.Time
	keys    *keyCache
	avatars AvatarFetcher // nil: avatar addresses are refused (WithAvatars)
}

// New returns a Service on st; now is the clock (time.Now when nil).
func New(st store.Store, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{st: st, now: now, keys: newKeyCache()}
}

// DefaultDailyAnswers is the daily unique-answer limit of each plan; 0 is unlimited.
func DefaultDailyAnswers(plan string) int {
	switch plan {
	case store.PlanGrowth:
		return 1000
	case store.PlanScale:
		return 5000
	case store.PlanCustom:
		return 0
	default:
		return 200
	}
}

// Settings are the operator-settable fields; nil means "leave as is" (or the default on create).
type Settings struct {
	Name           *string
	Email          *string
	Plan           *string
	Lang           *string
	BalanceMicro   *int64 // create only
	SendRatePerMin *int
	// MarketingRatePerMin and IntelligenceRatePerMin: requests a minute per account.
	MarketingRatePerMin    *int
	IntelligenceRatePerMin *int
	DailyAnswers           *int
	SalesMode              *bool
	TonePreset             *string
	ToneCustom             *string
	// InputRate and OutputRate are the account's prices in micro-USD per 1M tokens.
	InputRate  *int64
	OutputRate *int64
}

// Limits of operator input.
const (
	maxNameLen       = 200
	maxToneCustomLen = 500
	// maxRatePerMin bounds the per-minute rates an operator sets (send, marketing,
	// intelligence): high enough for a load test or an integration that is its own rate
	// limit (a million a minute is past what one process answers).
	maxRatePerMin = 1_000_000
	// DefaultMarketingRate and DefaultIntelligenceRate are the per-account request rates of
	// marketingGenerate and the Intelligence API (SERVICE.md leaves them open): a marketing
	// call is a long generation a person asks for, the Intelligence API serves integrations.
	DefaultMarketingRate    = 10
	DefaultIntelligenceRate = 60
	// maxRate bounds a token price at 1,000 USD per 1M tokens: far above any model's list
	// price, low enough that a typo of a few zeros is refused.
	maxRate = 1_000 * billing.MicroPerUSD
)

// Valid values.
var (
	Plans       = []string{store.PlanStarter, store.PlanGrowth, store.PlanScale, store.PlanCustom}
	Langs       = []string{"tr", "en", "de"}
	TonePresets = []string{store.ToneProfessional, store.ToneWarm, store.ToneEnergetic}
)

func bad(format string, args ...any) error { return errs.Newf(errs.BadRequest, format, args...) }

// badKey is bad with the catalog key of its message (errs.Coded), for the errors a
// dashboard user can meet; the catalog's message takes the same args.
func badKey(key, format string, args ...any) error {
	return errs.Coded(errs.BadRequest, key, format, args...)
}

// apply validates s and writes it over a. Plan changes reset the daily limit to the new plan's
// default unless a limit is given too.
func apply(a *store.Account, s Settings) error {
	if s.Name != nil {
		n := strings.TrimSpace(*s.Name)
		if n == "" || utf8.RuneCountInString(n) > maxNameLen {
			return bad("name must be 1 to %d characters", maxNameLen)
		}
		a.Name = n
	}
	if s.Email != nil {
		e := strings.TrimSpace(*s.Email)
		if e != "" && (!strings.Contains(e, "@") || len(e) > 254 || strings.ContainsAny(e, " \r\n")) {
			return bad("email %q is not an e-mail address", e)
		}
		a.Email = e
	}
	if s.Plan != nil {
		if !slices.Contains(Plans, *s.Plan) {
			return bad("plan must be one of %s", strings.Join(Plans, ", "))
		}
		if a.Plan != *s.Plan && s.DailyAnswers == nil {
			a.DailyAnswers = DefaultDailyAnswers(*s.Plan)
		}
		a.Plan = *s.Plan
	}
	if s.Lang != nil {
		if !slices.Contains(Langs, *s.Lang) {
			return badKey("err.account.lang", "lang must be one of %s", strings.Join(Langs, ", "))
		}
		a.Lang = *s.Lang
	}
	if s.SendRatePerMin != nil {
		if *s.SendRatePerMin < 1 || *s.SendRatePerMin > maxRatePerMin {
			return bad("send rate must be 1 to %d a minute", maxRatePerMin)
		}
		a.SendRatePerMin = *s.SendRatePerMin
	}
	for _, r := range []struct {
		v    *int
		to   *int
		name string
	}{{s.MarketingRatePerMin, &a.MarketingRatePerMin, "marketing"}, {s.IntelligenceRatePerMin, &a.IntelligenceRatePerMin, "intelligence"}} {
		if r.v == nil {
			continue
		}
		if *r.v < 1 || *r.v > maxRatePerMin {
			return bad("the %s rate must be 1 to %d a minute", r.name, maxRatePerMin)
		}
		*r.to = *r.v
	}
	for _, r := range []struct {
		v    *int64
		to   *int64
		name string
	}{{s.InputRate, &a.InputRate, "input"}, {s.OutputRate, &a.OutputRate, "output"}} {
		if r.v == nil {
			continue
		}
		if *r.v < 0 || *r.v > maxRate {
			return bad("the %s price must be 0 to %s USD per 1M tokens", r.name, billing.FormatUSD(maxRate))
		}
		*r.to = *r.v
	}
	if s.DailyAnswers != nil {
		if *s.DailyAnswers < 0 {
			return bad("daily answers must be 0 (unlimited) or more")
		}
		a.DailyAnswers = *s.DailyAnswers
	}
	if s.SalesMode != nil {
		a.SalesMode = *s.SalesMode
	}
	if s.TonePreset != nil {
		if !slices.Contains(TonePresets, *s.TonePreset) {
			return badKey("err.account.tone_preset", "tone preset must be one of %s", strings.Join(TonePresets, ", "))
		}
		a.TonePreset = *s.TonePreset
	}
	if s.ToneCustom != nil {
		c := strings.TrimSpace(*s.ToneCustom)
		if utf8.RuneCountInString(c) > maxToneCustomLen {
			return badKey("err.account.tone_custom_too_long", "custom tone note must be at most %d characters", maxToneCustomLen)
		}
		a.ToneCustom = c
	}
	return nil
}

// Create makes an account with the defaults of DECISIONS.md and returns it with its first key,
// the only time the key is ever shown.
func (s *Service) Create(ctx context.Context, set Settings) (store.Account, string, error) {
	a := store.Account{Plan: store.PlanStarter, Lang: "en", SalesMode: true, TonePreset: store.ToneProfessional,
		SendRatePerMin: 15, DailyAnswers: DefaultDailyAnswers(store.PlanStarter),
		MarketingRatePerMin: DefaultMarketingRate, IntelligenceRatePerMin: DefaultIntelligenceRate,
		InputRate: billing.DefaultInputRate, OutputRate: billing.DefaultOutputRate}
	if set.Name == nil {
		return a, "", bad("name is required")
	}
	if err := apply(&a, set); err != nil {
		return a, "", err
	}
	if set.BalanceMicro != nil {
		if *set.BalanceMicro < 0 {
			return a, "", bad("balance cannot be negative")
		}
		a.BalanceMicro = *set.BalanceMicro
	}
	plain, key, err := NewKey()
	if err != nil {
		return a, "", err
	}
	if err := s.st.CreateAccount(ctx, &a, &key); err != nil {
		return a, "", fmt.Errorf("create account: %w", err)
	}
	return a, plain, nil
}

// Update changes the given settings of an account.
func (s *Service) Update(ctx context.Context, accountID int64, set Settings) (store.Account, error) {
	if set.BalanceMicro != nil {
		return store.Account{}, bad("the balance changes only through balance add")
	}
	a, err := s.Get(ctx, accountID)
	if err != nil {
		return a, err
	}
	if err := apply(&a, set); err != nil {
		return a, err
	}
	if err := s.st.UpdateAccount(ctx, &a); err != nil {
		return a, fmt.Errorf("update account: %w", err)
	}
	return a, nil
}

// Get reads an account; a missing one is a NotFound error the operator can read.
func (s *Service) Get(ctx context.Context, accountID int64) (store.Account, error) {
	a, err := s.st.GetAccount(ctx, accountID)
	if errors.Is(err, store.ErrNotFound) {
		return a, errs.Newf(errs.NotFound, "account %d does not exist", accountID)
	}
	return a, err
}

// RotateKey issues a new key and revokes the old one in the same transaction.
func (s *Service) RotateKey(ctx context.Context, accountID int64) (string, error) {
	plain, key, err := NewKey()
	if err != nil {
		return "", err
	}
	if err := s.st.RotateKey(ctx, accountID, &key); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return "", errs.Newf(errs.NotFound, "account %d does not exist", accountID)
		}
		return "", fmt.Errorf("rotate key: %w", err)
	}
	return plain, nil
}

// AddBalance tops up (or, negative, corrects) the balance and returns the new one.
func (s *Service) AddBalance(ctx context.Context, accountID int64, micro int64, note string) (int64, error) {
	if micro == 0 {
		return 0, bad("amount must not be zero")
	}
	bal, err := s.st.AddBalance(ctx, accountID, micro, note)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return 0, errs.Newf(errs.NotFound, "account %d does not exist", accountID)
	case errors.Is(err, store.ErrInsufficientBalance):
		return 0, bad("the balance cannot go below zero")
	case err != nil:
		return 0, fmt.Errorf("add balance: %w", err)
	}
	return bal, nil
}

// Caller is an authenticated key and its account, as read for this request.
type Caller struct {
	Account store.Account
	Key     store.APIKey
}

var errUnauthorized = errs.New(errs.Unauthorized, "Missing, invalid or revoked API key.")

// Authenticate resolves a presented secret key. Every failure is the same Unauthorized error,
// so a caller cannot tell a malformed key from a revoked one.
func (s *Service) Authenticate(ctx context.Context, presented string) (Caller, error) {
	if !WellFormed(presented) {
		return Caller{}, errUnauthorized
	}
	h := sha256.Sum256([]byte(presented))
	found, ok, err := s.keys.remembered(ctx, s.st, h)
	if err != nil {
		return Caller{}, fmt.Errorf("authenticate: %w", err)
	}
	if !ok {
		// The key and its account are one read: authentication is on every request.
		candidates, err := s.st.ActiveKeyAccounts(ctx, KeyPrefix(presented))
		if err != nil {
			return Caller{}, fmt.Errorf("authenticate: %w", err)
		}
		if found, ok = matchHash(h[:], candidates, func(c store.KeyAccount) []byte { return c.Key.Hash }); !ok {
			return Caller{}, errUnauthorized
		}
		s.keys.put(h, found)
	}
	key, a := found.Key, found.Account
	// last_used_at is kept to the minute: a key used within the last minute needs no write,
	// so most requests never touch the single writer connection.
	if now := s.now().UTC(); key.LastUsedAt.IsZero() || now.Sub(key.LastUsedAt) > time.Minute {
		if err := s.st.TouchKey(ctx, key.ID, now); err != nil {
			return Caller{}, fmt.Errorf("authenticate: %w", err)
		}
		key.LastUsedAt = now
	}
	return Caller{Account: a, Key: key}, nil
}
