package api

import (
	"time"

	"svc/internal/store"
)

// Wire types: the JSON shapes of SERVICE.md, kept apart from the store's records.

type messageView struct {
	ID        int64           `json:"id"`
	Role      string          `json:"role"`
	Body      string          `json:"body"`
	Source    string          `json:"source"`
	CreatedAt string          `json:"created_at"`
	Products  []store.Product `json:"products,omitempty"`
	// Sources name the KB documents an assistant reply quotes (url "" for a document without
	// a page, such as a Q&A entry); [] on every other message. The body keeps its "Source:"
	// line for clients that read only the text.
	Sources []store.Source `json:"sources"`
}

func timestamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func messageViews(ms []store.Message) []messageView {
	out := make([]messageView, 0, len(ms))
	for _, m := range ms {
		out = append(out, toMessageView(m))
	}
	return out
}

func toMessageView(m store.Message) messageView {
	v := messageView{ID: m.ID, Role: m.Role, Body: m.Body, Source: m.Source, CreatedAt: timestamp(m.CreatedAt),
		Sources: []store.Source{}}
	if m.Role != store.RoleUser {
		v.Products = m.Products
		if len(m.Sources) > 0 {
			v.Sources = m.Sources
		}
	}
	return v
}

type conversationView struct {
	ConversationID int64         `json:"conversationId"`
	Lang           string        `json:"lang,omitempty"`
	Messages       []messageView `json:"messages"`
}

type sendView struct {
	ConversationID int64         `json:"conversationId"`
	Messages       []messageView `json:"messages"`
	LowConfidence  bool          `json:"lowConfidence"`
}

type articleView struct {
	ID           int64  `json:"id"`
	Slug         string `json:"slug"`
	Title        string `json:"title"`
	Excerpt      string `json:"excerpt"`
	CategorySlug string `json:"category_slug"`
	CategoryName string `json:"category_name"`
	ViewCount    int    `json:"view_count"`
}

type suggestionsView struct {
	Articles []articleView `json:"articles"`
	Seeds    []string      `json:"seeds"`
}

type keyView struct {
	ID         int64  `json:"id"`
	Prefix     string `json:"api_key_prefix"`
	Status     string `json:"status"`
	LastUsedAt string `json:"last_used_at"`
	CreatedAt  string `json:"created_at"`
}

type pricingView struct {
	InputPerM  float64 `json:"input_per_m_usd"`
	OutputPerM float64 `json:"output_per_m_usd"`
	TypicalAI  float64 `json:"typical_ai_usd"`
}

type apiKeyView struct {
	APIKey  keyView     `json:"apiKey"`
	Balance float64     `json:"balance"`
	Pricing pricingView `json:"pricing"`
}

type eventTotalView struct {
	Count int     `json:"count"`
	Cost  float64 `json:"cost"`
}

type allTimeView struct {
	Events int     `json:"events"`
	Cost   float64 `json:"cost"`
}

type recentView struct {
	ID        int64   `json:"id"`
	EventType string  `json:"event_type"`
	CostUSD   float64 `json:"cost_usd"`
	CreatedAt string  `json:"created_at"`
}

type usageView struct {
	WindowDays      int                       `json:"window_days"`
	ByEvent         map[string]eventTotalView `json:"by_event"`
	TotalCost       float64                   `json:"total_cost"`
	TotalEvents     int                       `json:"total_events"`
	AllTime         allTimeView               `json:"all_time"`
	Recent          []recentView              `json:"recent"`
	PricePerMessage float64                   `json:"price_per_message_usd"`
}

type toneView struct {
	Preset  string   `json:"preset"`
	Custom  string   `json:"custom"`
	Presets []string `json:"presets"`
}

// The widget's surface (internal, unversioned): the Chat API's shapes plus the token's mode.

type embedStartView struct {
	ConversationID  int64  `json:"conversationId"`
	Lang            string `json:"lang"`
	Name            string `json:"name"`
	Mode            string `json:"mode"`
	Reason          string `json:"reason,omitempty"`
	MaxMessageChars int    `json:"maxMessageChars"`
	// ShowSources is the token's setting: whether the widget lists a reply's sources.
	ShowSources bool          `json:"showSources"`
	Messages    []messageView `json:"messages"`
}

type embedSendView struct {
	ConversationID int64         `json:"conversationId"`
	Messages       []messageView `json:"messages"`
	LowConfidence  bool          `json:"lowConfidence"`
	Mode           string        `json:"mode"`
	// Lang is the reply's language: the widget's hint under it must be in the same one.
	Lang   string `json:"lang,omitempty"`
	Reason string `json:"reason,omitempty"`
}

type embedSyncView struct {
	ConversationID int64         `json:"conversationId"`
	Messages       []messageView `json:"messages"`
	Mode           string        `json:"mode"`
	Reason         string        `json:"reason,omitempty"`
}
