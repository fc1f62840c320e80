package api

import (
	"net/http"
	"strings"

	"svc/internal/account"
	"svc/internal/billing"
	"svc/internal/embed"
	"svc/internal/errs"
)

// The embed-token management actions (SERVICE.md): secret key only, never from a browser.

type embedTokenView struct {
	ID             int64    `json:"id"`
	Token          string   `json:"token"` // the prefix only: the full token is shown once, on creation
	Label          string   `json:"label"`
	AllowedDomains []string `json:"allowed_domains"`
	DailyBudgetUSD string   `json:"daily_budget_usd"`
	ShowSources    bool     `json:"show_sources"` // the widget lists a reply's sources under it
	embedAppearanceView
	Status        string  `json:"status"`
	TodaySpendUSD float64 `json:"today_spend_usd"`
	BudgetUsedPct int     `json:"budget_used_pct"`
	Conversations int     `json:"conversations"`
	Visitors      int     `json:"visitors"`
	LastUsedAt    *string `json:"last_used_at"` // null until first used
	CreatedAt     string  `json:"created_at"`
}

func toEmbedTokenView(st account.EmbedTokenStatus) embedTokenView {
	t, u := st.Token, st.Usage
	v := embedTokenView{ID: t.ID, Token: t.Prefix + "…", Label: t.Label, AllowedDomains: t.Domains,
		DailyBudgetUSD: embed.FormatBudget(t.DailyBudgetMicro), ShowSources: !t.HideSources, Status: t.Status, TodaySpendUSD: billing.USD(u.SpendMicro),
		Conversations: u.Conversations, Visitors: u.Visitors, CreatedAt: timestamp(t.CreatedAt)}
	if t.DailyBudgetMicro > 0 {
		// Rounded down, so 100 means the budget is really spent; it can pass 100 by at most
		// one answer's reservation (see chat.VisitorSend).
		v.BudgetUsedPct = int(u.SpendMicro * 100 / t.DailyBudgetMicro)
	}
	if v.AllowedDomains == nil {
		v.AllowedDomains = []string{}
	}
	v.embedAppearanceView = toAppearanceView(t)
	if !t.LastUsedAt.IsZero() {
		ts := timestamp(t.LastUsedAt)
		v.LastUsedAt = &ts
	}
	return v
}

func (s *Server) embedTokens(w http.ResponseWriter, r *http.Request, c account.Caller, _ params) error {
	ts, err := s.accounts.EmbedTokens(r.Context(), c.Account)
	if err != nil {
		return err
	}
	out := make([]embedTokenView, 0, len(ts))
	for _, t := range ts {
		out = append(out, toEmbedTokenView(t))
	}
	writeData(w, map[string]any{"tokens": out})
	return nil
}

// embedInput reads the optional fields of create and update; a field that is absent stays
// nil, so update changes only what was sent.
func embedInput(p params) (account.EmbedTokenInput, error) {
	var in account.EmbedTokenInput
	if v, ok := p["domains"]; ok {
		in.Domains = &v
	}
	if v, ok := p["label"]; ok {
		in.Label = &v
	}
	if v, ok := p["daily_budget_usd"]; ok {
		in.DailyBudget = &v
	}
	readAppearance(p, &in)
	if v, ok := p["show_sources"]; ok {
		var show bool
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true", "1":
			show = true
		case "false", "0":
		default:
			return in, errs.Newf(errs.BadRequest, "show_sources must be true or false, not %q.", truncate(v, 20))
		}
		in.ShowSources = &show
	}
	return in, nil
}

func (s *Server) embedTokenCreate(w http.ResponseWriter, r *http.Request, c account.Caller, p params) error {
	in, err := embedInput(p)
	if err != nil {
		return err
	}
	plain, t, err := s.accounts.CreateEmbedToken(r.Context(), c.Account, in)
	if err != nil {
		return err
	}
	writeData(w, map[string]any{"token": plain, "id": t.ID})
	return nil
}

func tokenID(p params) (int64, error) {
	if p["id"] == "" {
		return 0, errs.New(errs.BadRequest, "The id field is required: the id of one of your embed tokens.")
	}
	return p.int64Param("id", 0)
}

func (s *Server) embedTokenUpdate(w http.ResponseWriter, r *http.Request, c account.Caller, p params) error {
	id, err := tokenID(p)
	if err != nil {
		return err
	}
	in, err := embedInput(p)
	if err != nil {
		return err
	}
	if err := s.accounts.UpdateEmbedToken(r.Context(), c.Account, id, in); err != nil {
		return err
	}
	writeData(w, map[string]bool{"updated": true})
	return nil
}

func (s *Server) embedTokenRevoke(w http.ResponseWriter, r *http.Request, c account.Caller, p params) error {
	id, err := tokenID(p)
	if err != nil {
		return err
	}
	if err := s.accounts.RevokeEmbedToken(r.Context(), c.Account, id); err != nil {
		return err
	}
	writeData(w, map[string]bool{"revoked": true})
	return nil
}
