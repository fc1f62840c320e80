package chat

import "svc/internal/i18n"

// The chat's notices live in the i18n catalog with every other user-facing text.

// balanceNotice is the system message sent when the balance cannot cover an answer. It speaks
// to the visitor, who cannot top up, so it says no more than that the assistant is unavailable.
func (s *Service) balanceNotice(lang string) string { return s.texts.T(lang, "chat.balance_notice") }

// cacheOnlyNotice tells a widget visitor that only frequent questions are answered for now.
// It promises no human and no time beyond what is true: the budget resets at 00:00 UTC, a
// surge passes on its own.
func (s *Service) cacheOnlyNotice(lang, reason string) string {
	if reason == ModeReasonBudget {
		return s.texts.T(lang, "chat.cache_only_budget")
	}
	return s.texts.T(lang, "chat.cache_only_surge")
}

// defaultTexts is the embedded catalog, for a Service built without one.
func defaultTexts() *i18n.Catalog { return i18n.MustLoad() }
