package account

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"svc/internal/embed"
	"svc/internal/errs"
	"svc/internal/store"
)

// MaxActiveEmbedTokens is SERVICE.md's limit of active embed tokens per account.
const MaxActiveEmbedTokens = 5

// EmbedTokenInput is what embedTokenCreate and embedTokenUpdate accept, as sent. A nil field
// is "not given": create applies the default, update leaves the stored value.
type EmbedTokenInput struct {
	Domains     *string
	Label       *string
	DailyBudget *string // USD, decimal
	// ShowSources says whether the widget lists a reply's sources under it (default true).
	ShowSources *bool

	// The widget's appearance (issue 28), as sent; see embed's normalisers for each.
	Title         *string
	Welcome       *string
	WelcomeByLang map[string]string // welcome_tr, welcome_en, welcome_de: a key present is given
	Position      *string
	OffsetX       *string
	OffsetY       *string
	Theme         *string
	AvatarURL     *string // fetched once and stored; "" removes the avatar
	LauncherLabel *string
	PanelWidth    *string
	PanelHeight   *string
	Starters      *[]string
	Inline        *string
}

// AvatarFetcher fetches and checks an avatar image (avatar.Fetcher); its errors are client
// errors naming what was wrong.
type AvatarFetcher interface {
	Fetch(ctx context.Context, rawURL string) (store.EmbedAvatar, error)
}

// WithAvatars sets the fetcher of avatar images and returns s; without one an avatar_url is
// refused. It is wiring, called before s serves anything.
func (s *Service) WithAvatars(f AvatarFetcher) *Service {
	s.avatars = f
	return s
}

// EmbedTokenStatus is a token with today's usage, as embedTokens reports it.
type EmbedTokenStatus struct {
	Token store.EmbedToken
	Usage store.EmbedUsage
}

// CreateEmbedToken validates in and stores a new active token; it returns the full token,
// which is never readable again, and the record.
func (s *Service) CreateEmbedToken(ctx context.Context, a store.Account, in EmbedTokenInput) (string, store.EmbedToken, error) {
	if in.Domains == nil || strings.TrimSpace(*in.Domains) == "" {
		return "", store.EmbedToken{}, badKey("err.embed.domains_field_required", "The domains field is required: a comma-separated list such as example.com, shop.example.com.")
	}
	t := store.EmbedToken{AccountID: a.ID, DailyBudgetMicro: embed.DefaultBudgetMicro, Appearance: store.DefaultAppearance()}
	if err := s.applyEmbedInput(ctx, &t, in); err != nil {
		return "", store.EmbedToken{}, err
	}
	plain, prefix, hash, err := embed.NewToken()
	if err != nil {
		return "", store.EmbedToken{}, fmt.Errorf("create embed token: %w", err)
	}
	t.Prefix, t.Hash = prefix, hash
	err = s.st.CreateEmbedToken(ctx, &t, MaxActiveEmbedTokens)
	if errors.Is(err, store.ErrLimitReached) {
		return "", store.EmbedToken{}, errs.Wrap(errs.TooMany, fmt.Sprintf(
			"An account can have at most %d active embed tokens; revoke one with embedTokenRevoke first.",
			MaxActiveEmbedTokens), err).WithKey("err.embed.token_limit", MaxActiveEmbedTokens)
	}
	if err != nil {
		return "", store.EmbedToken{}, err
	}
	return plain, t, nil
}

// UpdateEmbedToken changes the given fields of an active token of the account.
func (s *Service) UpdateEmbedToken(ctx context.Context, a store.Account, id int64, in EmbedTokenInput) error {
	t, err := s.embedToken(ctx, a, id)
	if err != nil {
		return err
	}
	if t.Status == store.EmbedRevoked {
		return badKey("err.embed.token_revoked", "Embed token %d is revoked, which is permanent; create a new token instead.", id)
	}
	if in.Domains != nil && strings.TrimSpace(*in.Domains) == "" {
		return badKey("err.embed.domains_empty", "domains cannot be empty; a token needs at least one allowed domain.")
	}
	if err := s.applyEmbedInput(ctx, &t, in); err != nil {
		return err
	}
	err = s.st.UpdateEmbedToken(ctx, &t)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return notFoundToken(id)
	case errors.Is(err, store.ErrRevoked):
		return badKey("err.embed.token_revoked", "Embed token %d is revoked, which is permanent; create a new token instead.", id)
	}
	return err
}

// RevokeEmbedToken revokes a token of the account for good; the widget using it stops with
// its next request. Revoking a revoked token succeeds.
func (s *Service) RevokeEmbedToken(ctx context.Context, a store.Account, id int64) error {
	if id <= 0 {
		return bad("id must be the positive id of one of your embed tokens.")
	}
	if err := s.st.RevokeEmbedToken(ctx, a.ID, id); errors.Is(err, store.ErrNotFound) {
		return notFoundToken(id)
	} else if err != nil {
		return err
	}
	return nil
}

// EmbedTokens lists the account's tokens with their usage since 00:00 UTC today.
func (s *Service) EmbedTokens(ctx context.Context, a store.Account) ([]EmbedTokenStatus, error) {
	ts, err := s.st.EmbedTokens(ctx, a.ID)
	if err != nil {
		return nil, err
	}
	usage, err := s.st.EmbedUsage(ctx, a.ID, s.now().UTC().Truncate(24*time.Hour))
	if err != nil {
		return nil, err
	}
	out := make([]EmbedTokenStatus, 0, len(ts))
	for _, t := range ts {
		out = append(out, EmbedTokenStatus{Token: t, Usage: usage[t.ID]})
	}
	return out, nil
}

func (s *Service) embedToken(ctx context.Context, a store.Account, id int64) (store.EmbedToken, error) {
	if id <= 0 {
		return store.EmbedToken{}, bad("id must be the positive id of one of your embed tokens.")
	}
	t, err := s.st.GetEmbedToken(ctx, a.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		return t, notFoundToken(id)
	}
	return t, err
}

func notFoundToken(id int64) error {
	return errs.Newf(errs.NotFound, "No embed token with id %d on this account.", id)
}

// applyEmbedInput validates the given fields of in onto t; a new avatar address is fetched
// (last, so that a bad setting is reported without a fetch).
func (s *Service) applyEmbedInput(ctx context.Context, t *store.EmbedToken, in EmbedTokenInput) error {
	if in.Domains != nil {
		ds, err := embed.NormalizeDomains(*in.Domains)
		if err != nil {
			return err
		}
		t.Domains = ds
	}
	if in.Label != nil {
		l, err := embed.NormalizeLabel(*in.Label)
		if err != nil {
			return err
		}
		t.Label = l
	}
	if in.DailyBudget != nil {
		b, err := embed.ParseBudget(*in.DailyBudget)
		if err != nil {
			return err
		}
		t.DailyBudgetMicro = b
	}
	if in.ShowSources != nil {
		t.HideSources = !*in.ShowSources
	}
	if err := applyAppearance(&t.Appearance, in); err != nil {
		return err
	}
	return s.applyAvatar(ctx, t, in.AvatarURL)
}

// applyAppearance validates the given appearance settings onto a.
func applyAppearance(a *store.EmbedAppearance, in EmbedTokenInput) error {
	var err error
	set := func(p *string, f func(string) (string, error), dst *string) {
		if err == nil && p != nil {
			*dst, err = f(*p)
		}
	}
	setInt := func(p *string, f func(string) (int, error), dst *int) {
		if err == nil && p != nil {
			*dst, err = f(*p)
		}
	}
	set(in.Title, embed.NormalizeTitle, &a.Title)
	set(in.Welcome, func(v string) (string, error) { return embed.NormalizeWelcome("welcome", v) }, &a.Welcome)
	set(in.Position, embed.ParsePosition, &a.Position)
	setInt(in.OffsetX, func(v string) (int, error) { return embed.ParseOffset("offset_x", v) }, &a.OffsetX)
	setInt(in.OffsetY, func(v string) (int, error) { return embed.ParseOffset("offset_y", v) }, &a.OffsetY)
	set(in.Theme, embed.ParseTheme, &a.Theme)
	set(in.LauncherLabel, embed.NormalizeLauncherLabel, &a.LauncherLabel)
	setInt(in.PanelWidth, embed.ParsePanelWidth, &a.PanelWidth)
	setInt(in.PanelHeight, embed.ParsePanelHeight, &a.PanelHeight)
	set(in.Inline, embed.NormalizeInline, &a.Inline)
	if err != nil {
		return err
	}
	for _, lang := range embed.WelcomeLangs {
		v, ok := in.WelcomeByLang[lang]
		if !ok {
			continue
		}
		w, err := embed.NormalizeWelcome("welcome_"+lang, v)
		if err != nil {
			return err
		}
		if a.WelcomeByLang == nil {
			a.WelcomeByLang = map[string]string{}
		}
		if w == "" {
			delete(a.WelcomeByLang, lang)
		} else {
			a.WelcomeByLang[lang] = w
		}
	}
	if len(a.WelcomeByLang) == 0 {
		a.WelcomeByLang = nil
	}
	if in.Starters != nil {
		qs, err := embed.NormalizeStarters(*in.Starters)
		if err != nil {
			return err
		}
		a.Starters = qs
		if len(qs) == 0 {
			a.Starters = nil
		}
	}
	return nil
}

// applyAvatar fetches the image at a new avatar address, or removes the avatar for "". The
// same address as stored keeps the stored image without fetching it again (an owner who
// changed the image behind the address sets it again after clearing it).
func (s *Service) applyAvatar(ctx context.Context, t *store.EmbedToken, raw *string) error {
	if raw == nil {
		return nil
	}
	u, err := embed.NormalizeAvatarURL(*raw)
	if err != nil {
		return err
	}
	if u == "" {
		t.Appearance.AvatarURL, t.AvatarHash, t.AvatarType, t.AvatarData = "", "", "", nil
		return nil
	}
	if u == t.Appearance.AvatarURL && t.AvatarHash != "" {
		return nil
	}
	if s.avatars == nil {
		return badKey("err.embed.avatar_unavailable", "This server does not fetch avatar images; leave avatar_url empty.")
	}
	img, err := s.avatars.Fetch(ctx, u)
	if err != nil {
		return err
	}
	t.Appearance.AvatarURL, t.AvatarHash, t.AvatarType, t.AvatarData = u, img.Hash, img.Type, img.Data
	return nil
}

// EmbedCaller is an authenticated embed token and its account, as read for this request.
type EmbedCaller struct {
	Account store.Account
	Token   store.EmbedToken
}

var errBadEmbedToken = errs.New(errs.Unauthorized, "Missing, invalid or revoked embed token.")

// AuthenticateEmbed resolves a presented embed token; a revoked token fails at once, since
// nothing about tokens is cached. Every failure is the same Unauthorized error.
func (s *Service) AuthenticateEmbed(ctx context.Context, presented string) (EmbedCaller, error) {
	prefix, hash, ok := embed.ParseToken(presented)
	if !ok {
		return EmbedCaller{}, errBadEmbedToken
	}
	candidates, err := s.st.ActiveEmbedTokensByPrefix(ctx, prefix)
	if err != nil {
		return EmbedCaller{}, fmt.Errorf("authenticate embed token: %w", err)
	}
	found, ok := matchHash(hash, candidates, func(t store.EmbedToken) []byte { return t.Hash })
	if !ok {
		return EmbedCaller{}, errBadEmbedToken
	}
	a, err := s.st.GetAccount(ctx, found.AccountID)
	if err != nil {
		return EmbedCaller{}, fmt.Errorf("authenticate embed token: %w", err)
	}
	if now := s.now().UTC(); found.LastUsedAt.IsZero() || now.Sub(found.LastUsedAt) > time.Minute {
		if err := s.st.TouchEmbedToken(ctx, found.ID, now); err != nil {
			return EmbedCaller{}, fmt.Errorf("authenticate embed token: %w", err)
		}
		found.LastUsedAt = now
	}
	return EmbedCaller{Account: a, Token: found}, nil
}
