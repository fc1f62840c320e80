package api

import (
	"net/http"
	"time"

	"svc/internal/account"
	"svc/internal/billing"
	"svc/internal/chat"
	"svc/internal/errs"
	"svc/internal/store"
)

func (s *Server) start(w http.ResponseWriter, r *http.Request, c account.Caller, _ params) error {
	v, err := s.chat.Start(r.Context(), c.Account)
	if err != nil {
		return err
	}
	writeData(w, conversationView{ConversationID: v.ConversationID, Lang: v.Lang, Messages: messageViews(v.Messages)})
	return nil
}

func (s *Server) send(w http.ResponseWriter, r *http.Request, c account.Caller, p params) error {
	msg, ok := p["message"]
	if !ok {
		return errs.New(errs.BadRequest, "The message field is required.")
	}
	if wantsStream(r) {
		return s.newEventStream(w, r).run(func(st chat.Stream) (chat.SendResult, error) {
			return s.chat.SendStream(r.Context(), c.Account, c.Key.ID, msg, st)
		}, func(res chat.SendResult) any { return toSendView(res) })
	}
	res, err := s.chat.Send(r.Context(), c.Account, c.Key.ID, msg)
	if err != nil {
		return err
	}
	writeData(w, toSendView(res))
	return nil
}

func toSendView(res chat.SendResult) sendView {
	return sendView{ConversationID: res.ConversationID, LowConfidence: res.LowConfidence,
		Messages: []messageView{toMessageView(res.User), toMessageView(res.Reply)}}
}

func (s *Server) sync(w http.ResponseWriter, r *http.Request, c account.Caller, p params) error {
	since, err := p.int64Param("sinceId", 0)
	if err != nil {
		return err
	}
	if since < 0 {
		return errs.New(errs.BadRequest, "sinceId must be 0 or a message id.")
	}
	v, err := s.chat.Sync(r.Context(), c.Account, since)
	if err != nil {
		return err
	}
	writeData(w, conversationView{ConversationID: v.ConversationID, Messages: messageViews(v.Messages)})
	return nil
}

func (s *Server) suggestions(w http.ResponseWriter, r *http.Request, c account.Caller, _ params) error {
	sg, err := s.chat.Suggestions(r.Context(), c.Account)
	if err != nil {
		return err
	}
	writeData(w, toSuggestionsView(sg))
	return nil
}

func toSuggestionsView(sg chat.Suggestions) suggestionsView {
	out := suggestionsView{Articles: make([]articleView, 0, len(sg.Articles)), Seeds: sg.Seeds}
	for _, a := range sg.Articles {
		out.Articles = append(out.Articles, articleView{ID: a.ID, Slug: a.Slug, Title: a.Title, Excerpt: a.Excerpt,
			CategorySlug: a.CategorySlug, CategoryName: a.CategoryName, ViewCount: a.ViewCount})
	}
	return out
}

func (s *Server) feedback(w http.ResponseWriter, r *http.Request, c account.Caller, p params) error {
	if p["messageId"] == "" {
		return errs.New(errs.BadRequest, "The messageId field is required.")
	}
	id, err := p.int64Param("messageId", 0)
	if err != nil {
		return err
	}
	if err := s.chat.Feedback(r.Context(), c.Account, id, p["rating"], p["comment"]); err != nil {
		return err
	}
	writeData(w, map[string]bool{"saved": true})
	return nil
}

// typicalCost is the account's real recent average answer cost, or SERVICE.md's typical cost
// until there is usage to average.
func (s *Server) typicalCost(r *http.Request, a store.Account) (int64, error) {
	avg, ok, err := s.st.AverageCost(r.Context(), a.ID, 50)
	if err != nil || !ok {
		return billing.DefaultTypical, err
	}
	return avg, nil
}

func (s *Server) apiKey(w http.ResponseWriter, r *http.Request, c account.Caller, _ params) error {
	typical, err := s.typicalCost(r, c.Account)
	if err != nil {
		return err
	}
	k := c.Key
	writeData(w, apiKeyView{
		APIKey: keyView{ID: k.ID, Prefix: k.Prefix, Status: k.Status, LastUsedAt: timestamp(k.LastUsedAt),
			CreatedAt: timestamp(k.CreatedAt)},
		Balance: billing.USD(c.Account.BalanceMicro),
		Pricing: pricingView{InputPerM: billing.USD(c.Account.InputRate), OutputPerM: billing.USD(c.Account.OutputRate), TypicalAI: billing.USD(typical)},
	})
	return nil
}

// usageWindow is the usage summary's window (SERVICE.md: 30 days).
const usageWindow = 30

func (s *Server) usageSummary(w http.ResponseWriter, r *http.Request, c account.Caller, _ params) error {
	since := s.now().UTC().Add(-usageWindow * 24 * time.Hour)
	sum, err := s.st.UsageSummary(r.Context(), c.Account.ID, since, 20)
	if err != nil {
		return err
	}
	typical, err := s.typicalCost(r, c.Account)
	if err != nil {
		return err
	}
	out := usageView{WindowDays: usageWindow, ByEvent: map[string]eventTotalView{}, TotalCost: billing.USD(sum.WindowCost),
		TotalEvents: sum.WindowCount, AllTime: allTimeView{Events: sum.AllTimeCount, Cost: billing.USD(sum.AllTimeCost)},
		Recent: make([]recentView, 0, len(sum.Recent)), PricePerMessage: billing.USD(typical)}
	for t, e := range sum.ByEvent {
		out.ByEvent[t] = eventTotalView{Count: e.Count, Cost: billing.USD(e.CostMicro)}
	}
	for _, e := range sum.Recent {
		out.Recent = append(out.Recent, recentView{ID: e.ID, EventType: e.EventType, CostUSD: billing.USD(e.CostMicro),
			CreatedAt: timestamp(e.CreatedAt)})
	}
	writeData(w, out)
	return nil
}

func (s *Server) getTone(w http.ResponseWriter, r *http.Request, c account.Caller, _ params) error {
	writeData(w, toneView{Preset: c.Account.TonePreset, Custom: c.Account.ToneCustom, Presets: account.TonePresets})
	return nil
}
