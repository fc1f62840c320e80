package svcclient

import (
	"encoding/json"
	"fmt"
	"time"
)

// Message is one message of a conversation.
type Message struct {
	ID        int64     `json:"id"`
	Role      string    `json:"role"` // user, assistant, system
	Body      string    `json:"body"`
	Source    string    `json:"source"` // ai, cache_tenant, cache_shared, system, fallback
	CreatedAt time.Time `json:"created_at"`
	Products  []Product `json:"products,omitempty"`
	Sources   []Source  `json:"sources"`
}

// Product is a product card of an assistant message.
type Product struct {
	Name     string `json:"name"`
	URL      string `json:"url,omitempty"`
	Price    string `json:"price,omitempty"`
	Category string `json:"category,omitempty"`
	Image    string `json:"image,omitempty"`
}

// Source is a knowledge-base document an assistant reply quotes; URL is "" for one without
// a page (a Q&A entry, an article).
type Source struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// Conversation is what start and sync return: the account's conversation and its messages
// (all of them for start, those after sinceId for sync). Lang is set by start only.
type Conversation struct {
	ConversationID int64     `json:"conversationId"`
	Lang           string    `json:"lang,omitempty"`
	Messages       []Message `json:"messages"`
}

// SendResult is the answer to a send: the stored user message, then the assistant's reply.
type SendResult struct {
	ConversationID int64     `json:"conversationId"`
	Messages       []Message `json:"messages"`
	LowConfidence  bool      `json:"lowConfidence"`
}

// Reply returns the assistant's reply (the last message whose role is not user).
func (r *SendResult) Reply() Message {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role != "user" {
			return r.Messages[i]
		}
	}
	return Message{}
}

// Article is a help-centre article of the suggestions.
type Article struct {
	ID           int64  `json:"id"`
	Slug         string `json:"slug"`
	Title        string `json:"title"`
	Excerpt      string `json:"excerpt"`
	CategorySlug string `json:"category_slug"`
	CategoryName string `json:"category_name"`
	ViewCount    int    `json:"view_count"`
}

// Suggestions are articles and starter questions to show before the first message.
type Suggestions struct {
	Articles []Article `json:"articles"`
	Seeds    []string  `json:"seeds"`
}

// Rating of a feedback.
type Rating string

// The two ratings.
const (
	Helpful    Rating = "helpful"
	NotHelpful Rating = "not_helpful"
)

// APIKeyInfo is the key's metadata, never the key.
type APIKeyInfo struct {
	ID           int64     `json:"id"`
	APIKeyPrefix string    `json:"api_key_prefix"`
	Status       string    `json:"status"`
	LastUsedAt   time.Time `json:"last_used_at"`
	CreatedAt    time.Time `json:"created_at"`
}

// Pricing is what the account pays, in USD.
type Pricing struct {
	InputPerMUSD  float64 `json:"input_per_m_usd"`
	OutputPerMUSD float64 `json:"output_per_m_usd"`
	TypicalAIUSD  float64 `json:"typical_ai_usd"`
}

// KeyInfo is the apiKey action's data.
type KeyInfo struct {
	APIKey  APIKeyInfo `json:"apiKey"`
	Balance float64    `json:"balance"` // USD
	Pricing Pricing    `json:"pricing"`
}

// UsageTotals counts events and their cost in USD.
type UsageTotals struct {
	Count int     `json:"count"`
	Cost  float64 `json:"cost"`
}

// UsageEvent is one billed or free event.
type UsageEvent struct {
	ID        int64     `json:"id"`
	EventType string    `json:"event_type"`
	CostUSD   float64   `json:"cost_usd"`
	CreatedAt time.Time `json:"created_at"`
}

// UsageSummary is the last 30 days' usage and the all-time totals.
type UsageSummary struct {
	WindowDays  int                    `json:"window_days"`
	ByEvent     map[string]UsageTotals `json:"by_event"`
	TotalCost   float64                `json:"total_cost"`
	TotalEvents int                    `json:"total_events"`
	AllTime     struct {
		Events int     `json:"events"`
		Cost   float64 `json:"cost"`
	} `json:"all_time"`
	Recent             []UsageEvent `json:"recent"`
	PricePerMessageUSD float64      `json:"price_per_message_usd"`
}

// Tone is the assistant's voice; it is changed in the dashboard only.
type Tone struct {
	Preset  string   `json:"preset"`
	Custom  string   `json:"custom"`
	Presets []string `json:"presets"`
}

// EmbedToken is a public widget token with today's usage; Token is shortened except in
// the answer to EmbedTokenCreate.
type EmbedToken struct {
	ID             int64      `json:"id"`
	Token          string     `json:"token"`
	Label          string     `json:"label"`
	AllowedDomains []string   `json:"allowed_domains"`
	DailyBudgetUSD string     `json:"daily_budget_usd"` // decimal, four places
	ShowSources    bool       `json:"show_sources"`
	Status         string     `json:"status"` // active, revoked
	TodaySpendUSD  float64    `json:"today_spend_usd"`
	BudgetUsedPct  int        `json:"budget_used_pct"`
	Conversations  int        `json:"conversations"`
	Visitors       int        `json:"visitors"`
	LastUsedAt     *time.Time `json:"last_used_at"`
	CreatedAt      time.Time  `json:"created_at"`
	// The widget's appearance (DECISIONS.md "Widget appearance").
	Title     string `json:"title,omitempty"`
	Welcome   string `json:"welcome,omitempty"`
	Position  string `json:"position,omitempty"`
	Theme     string `json:"theme,omitempty"`
	AvatarURL string `json:"avatar_url,omitempty"`
}

// EmbedTokenSettings are the fields of EmbedTokenCreate and EmbedTokenUpdate. A nil field is
// not sent: the default on create, unchanged on update. Ptr makes a pointer of a value.
type EmbedTokenSettings struct {
	Domains        []string // allowed domains; required on create
	Label          *string  // ≤ 80 characters
	DailyBudgetUSD *string  // decimal text, 0.05 to 100 ("2.50"); default 1.00
	ShowSources    *bool
	Title          *string // ≤ 60 characters
	Welcome        *string // ≤ 300 characters
	Position       *string // right (default), left
	Theme          *string // light (default), dark, auto
	AvatarURL      *string // https URL, or "" for none
}

// fields is the settings as request fields.
func (s EmbedTokenSettings) fields() map[string]any {
	f := map[string]any{}
	if s.Domains != nil {
		f["domains"] = joinComma(s.Domains)
	}
	for name, v := range map[string]*string{"label": s.Label, "daily_budget_usd": s.DailyBudgetUSD,
		"title": s.Title, "welcome": s.Welcome, "position": s.Position, "theme": s.Theme, "avatar_url": s.AvatarURL} {
		if v != nil {
			f[name] = *v
		}
	}
	if s.ShowSources != nil {
		f["show_sources"] = *s.ShowSources
	}
	return f
}

// CreatedEmbedToken is a new token; Token is its full value, shown this once.
type CreatedEmbedToken struct {
	ID    int64  `json:"id"`
	Token string `json:"token"`
}

// Ptr returns a pointer to v, for the optional fields of settings and updates.
func Ptr[T any](v T) *T { return &v }

// MarketingRequest is a marketingGenerate request; only Brief is required.
type MarketingRequest struct {
	Brief    string `json:"brief"`
	Product  string `json:"product,omitempty"`
	Audience string `json:"audience,omitempty"`
	Goal     string `json:"goal,omitempty"`
	Tone     string `json:"tone,omitempty"`
	Format   string `json:"format,omitempty"`
	Variants int    `json:"variants,omitempty"` // 1 to 5, default 3
	SiteID   int64  `json:"site_id,omitempty"`
	Lang     string `json:"lang,omitempty"`
	Depth    string `json:"depth,omitempty"` // lean (default), full, strategy
}

// MarketingMeta describes how a generator's output was made.
type MarketingMeta struct {
	Lang     string `json:"lang"`
	Grounded bool   `json:"grounded"`
	KBUsed   int    `json:"kb_used"`
	Products int    `json:"products"`
	Tokens   int    `json:"tokens"`
	Depth    string `json:"depth"`
}

// MarketingResult is marketingGenerate's data. Content's shape depends on Meta.Depth: Lean
// decodes the default one; decode full and strategy content with Decode.
type MarketingResult struct {
	Content json.RawMessage `json:"content"`
	Meta    MarketingMeta   `json:"meta"`
}

// MarketingLean is the default (lean) marketing content.
type MarketingLean struct {
	Headline     string   `json:"headline"`
	Body         string   `json:"body"`
	CTA          string   `json:"cta"`
	Variants     []string `json:"variants"`
	Hashtags     []string `json:"hashtags"`
	StrategyUsed string   `json:"strategy_used"`
}

// Lean decodes lean content.
func (r *MarketingResult) Lean() (MarketingLean, error) {
	var l MarketingLean
	if r.Meta.Depth != "" && r.Meta.Depth != "lean" {
		return l, fmt.Errorf("svcclient: the content is of depth %q, not lean", r.Meta.Depth)
	}
	return l, json.Unmarshal(r.Content, &l)
}

// Decode decodes the content into v (a struct or a map).
func (r *MarketingResult) Decode(v any) error { return json.Unmarshal(r.Content, v) }

// Intelligence ops.
const (
	OpAnswer    = "answer"
	OpSummarize = "summarize"
	OpCompare   = "compare"
	OpExtract   = "extract"
	OpData      = "data"
)

// IntelligenceRequest holds the parameters of every op; set those the op reads: Question
// (answer), Topic (summarize, extract), Items or Query (compare), Fields (extract), Type
// with Page, Limit, Category and Query (data).
type IntelligenceRequest struct {
	Format   string   `json:"format,omitempty"` // text, markdown, json, table, list
	Depth    string   `json:"depth,omitempty"`  // lean, full
	SiteID   int64    `json:"site_id,omitempty"`
	Lang     string   `json:"lang,omitempty"`
	Question string   `json:"question,omitempty"`
	Topic    string   `json:"topic,omitempty"`
	Items    []string `json:"items,omitempty"`
	Query    string   `json:"query,omitempty"`
	Fields   []string `json:"fields,omitempty"`
	Type     string   `json:"type,omitempty"` // products, faq, categories
	Page     int      `json:"page,omitempty"`
	Limit    int      `json:"limit,omitempty"`
	Category string   `json:"category,omitempty"`
}

// IntelligenceMeta describes how an op's result was made; Total counts the data op's matches.
type IntelligenceMeta struct {
	Lang     string `json:"lang"`
	Grounded bool   `json:"grounded"`
	KBUsed   int    `json:"kb_used"`
	Products int    `json:"products"`
	Tokens   int    `json:"tokens"`
	Depth    string `json:"depth"`
	Total    *int   `json:"total,omitempty"`
}

// IntelligenceResult is an op's data. Result's shape depends on Format: read it with Text,
// Table, List or JSON.
type IntelligenceResult struct {
	Op     string           `json:"op"`
	Format string           `json:"format"`
	Result json.RawMessage  `json:"result"`
	Meta   IntelligenceMeta `json:"meta"`
}

// Table is a result of format table.
type Table struct {
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
}

// Text returns a text or markdown result.
func (r *IntelligenceResult) Text() (string, error) {
	var t struct {
		Result string `json:"result"`
	}
	err := r.decode([]string{"text", "markdown"}, &t)
	return t.Result, err
}

// Table returns a table result.
func (r *IntelligenceResult) Table() (Table, error) {
	var t Table
	return t, r.decode([]string{"table"}, &t)
}

// List returns a list result.
func (r *IntelligenceResult) List() ([]string, error) {
	var l struct {
		Items []string `json:"items"`
	}
	err := r.decode([]string{"list"}, &l)
	return l.Items, err
}

// JSON decodes a json result's data into v.
func (r *IntelligenceResult) JSON(v any) error {
	var j struct {
		Data json.RawMessage `json:"data"`
	}
	if err := r.decode([]string{"json"}, &j); err != nil {
		return err
	}
	return json.Unmarshal(j.Data, v)
}

func (r *IntelligenceResult) decode(formats []string, v any) error {
	for _, f := range formats {
		if r.Format == f {
			return json.Unmarshal(r.Result, v)
		}
	}
	return fmt.Errorf("svcclient: the result is of format %q, not %s", r.Format, formats[0])
}

// KBDocumentsQuery filters and pages the documents list; zero fields are left out.
type KBDocumentsQuery struct {
	Type  string // page, qa, product, article
	Q     string
	Page  int
	Limit int // ≤ 100
}

// KBDocument is one document of the knowledge base.
type KBDocument struct {
	ID        int64     `json:"id"`
	Type      string    `json:"type"`
	Title     string    `json:"title"`
	URL       string    `json:"url"`
	Lang      string    `json:"lang"`
	UpdatedAt time.Time `json:"updated_at"`
}

// KBDocumentList is one page of documents and the count of all that match.
type KBDocumentList struct {
	Documents []KBDocument `json:"documents"`
	Total     int          `json:"total"`
}

// UploadOptions are documentUpload's optional fields; lang is detected when left out.
type UploadOptions struct {
	Lang  string
	Title string
	URL   string
}

// UploadResult names the documents an upload stored and counts their chunks.
type UploadResult struct {
	Documents []int64 `json:"documents"`
	Chunks    int     `json:"chunks"`
}

// QA is a curated question and answer; on update, nil fields are left unchanged.
type QA struct {
	Question *string
	Answer   *string
	Lang     *string
}

func (q QA) fields() map[string]any {
	f := map[string]any{}
	for name, v := range map[string]*string{"question": q.Question, "answer": q.Answer, "lang": q.Lang} {
		if v != nil {
			f[name] = *v
		}
	}
	return f
}

// KBProduct is a product to upsert, matched by SKU, else by URL.
type KBProduct struct {
	Name        string `json:"name"`
	URL         string `json:"url,omitempty"`
	Price       string `json:"price,omitempty"`
	Category    string `json:"category,omitempty"`
	Image       string `json:"image,omitempty"`
	Description string `json:"description,omitempty"`
	SKU         string `json:"sku,omitempty"`
}

// UpsertResult counts the products created and updated.
type UpsertResult struct {
	Created int `json:"created"`
	Updated int `json:"updated"`
}

// ImportCounts counts what an import stored, by type (pages, qa, products, articles,
// unchanged).
type ImportCounts map[string]int

// CrawlStatus is the state of a crawl and what it found so far.
type CrawlStatus struct {
	State    string `json:"state"` // queued, running, done, failed
	Pages    int    `json:"pages"`
	Products int    `json:"products"`
	Articles int    `json:"articles"`
	Skipped  int    `json:"skipped"`
}
