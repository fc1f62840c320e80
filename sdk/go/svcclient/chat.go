package svcclient

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// Start opens or resumes the account's conversation and returns its history.
func (c *Client) Start(ctx context.Context) (*Conversation, error) {
	var out Conversation
	return &out, c.call(ctx, request{op: "chat/start"}, &out)
}

// Send asks a question (at most 2,000 characters) and returns the stored user message and
// the assistant's reply (see SendResult.Reply).
func (c *Client) Send(ctx context.Context, message string) (*SendResult, error) {
	r, err := jsonRequest("chat/send", map[string]string{"message": message})
	if err != nil {
		return nil, err
	}
	var out SendResult
	return &out, c.call(ctx, r, &out)
}

// Suggestions returns help articles and starter questions.
func (c *Client) Suggestions(ctx context.Context) (*Suggestions, error) {
	var out Suggestions
	return &out, c.call(ctx, request{op: "chat/suggestions"}, &out)
}

// Sync returns the messages whose id is greater than sinceID (0 for all).
func (c *Client) Sync(ctx context.Context, sinceID int64) (*Conversation, error) {
	var out Conversation
	q := url.Values{"sinceId": {strconv.FormatInt(sinceID, 10)}}
	return &out, c.call(ctx, request{op: "chat/sync", query: q}, &out)
}

// Feedback rates an assistant message; comment (≤ 500 characters) may be empty.
func (c *Client) Feedback(ctx context.Context, messageID int64, rating Rating, comment string) error {
	f := map[string]any{"messageId": messageID, "rating": string(rating)}
	if comment != "" {
		f["comment"] = comment
	}
	r, err := jsonRequest("chat/feedback", f)
	if err != nil {
		return err
	}
	var out struct {
		Saved bool `json:"saved"`
	}
	return c.call(ctx, r, &out)
}

// APIKey returns the key's metadata, the balance and the account's pricing.
func (c *Client) APIKey(ctx context.Context) (*KeyInfo, error) {
	var out KeyInfo
	return &out, c.call(ctx, request{op: "chat/apiKey"}, &out)
}

// UsageSummary returns the last 30 days' usage and the all-time totals.
func (c *Client) UsageSummary(ctx context.Context) (*UsageSummary, error) {
	var out UsageSummary
	return &out, c.call(ctx, request{op: "chat/usageSummary"}, &out)
}

// GetTone returns the assistant's tone.
func (c *Client) GetTone(ctx context.Context) (*Tone, error) {
	var out Tone
	return &out, c.call(ctx, request{op: "chat/getTone"}, &out)
}

// EmbedTokens lists the account's embed tokens with today's usage.
func (c *Client) EmbedTokens(ctx context.Context) ([]EmbedToken, error) {
	var out struct {
		Tokens []EmbedToken `json:"tokens"`
	}
	return out.Tokens, c.call(ctx, request{op: "chat/embedTokens"}, &out)
}

// EmbedTokenCreate creates a token (at most 5 are active); s.Domains is required. The
// answer holds the full token, shown this once.
func (c *Client) EmbedTokenCreate(ctx context.Context, s EmbedTokenSettings) (*CreatedEmbedToken, error) {
	if len(s.Domains) == 0 {
		return nil, fmt.Errorf("svcclient: EmbedTokenCreate needs at least one domain")
	}
	r, err := jsonRequest("chat/embedTokenCreate", s.fields())
	if err != nil {
		return nil, err
	}
	var out CreatedEmbedToken
	return &out, c.call(ctx, r, &out)
}

// EmbedTokenUpdate changes the fields of s that are set.
func (c *Client) EmbedTokenUpdate(ctx context.Context, id int64, s EmbedTokenSettings) error {
	f := s.fields()
	f["id"] = id
	r, err := jsonRequest("chat/embedTokenUpdate", f)
	if err != nil {
		return err
	}
	var out struct {
		Updated bool `json:"updated"`
	}
	return c.call(ctx, r, &out)
}

// EmbedTokenRevoke revokes a token for good: widgets using it stop at once.
func (c *Client) EmbedTokenRevoke(ctx context.Context, id int64) error {
	r, err := jsonRequest("chat/embedTokenRevoke", map[string]any{"id": id})
	if err != nil {
		return err
	}
	var out struct {
		Revoked bool `json:"revoked"`
	}
	return c.call(ctx, r, &out)
}

// MarketingGenerate writes marketing copy grounded on the knowledge base and products.
func (c *Client) MarketingGenerate(ctx context.Context, req MarketingRequest) (*MarketingResult, error) {
	r, err := jsonRequest("chat/marketingGenerate", req)
	if err != nil {
		return nil, err
	}
	var out MarketingResult
	return &out, c.call(ctx, r, &out)
}

// Intelligence runs an op of the Intelligence API (OpAnswer, OpSummarize, OpCompare,
// OpExtract, OpData).
func (c *Client) Intelligence(ctx context.Context, op string, req IntelligenceRequest) (*IntelligenceResult, error) {
	if _, ok := lookup("intelligence/" + op); !ok || strings.Contains(op, "/") {
		return nil, fmt.Errorf("svcclient: unknown intelligence op %q", op)
	}
	r, err := jsonRequest("intelligence/"+op, req)
	if err != nil {
		return nil, err
	}
	var out IntelligenceResult
	return &out, c.call(ctx, r, &out)
}

func joinComma(v []string) string { return strings.Join(v, ",") }
