package dashboard

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"svc/internal/i18n"
	"svc/internal/store"
)

var pageConversations = page{name: "conversations", title: "conversations.title", nav: "conversations"}

// conversationsPerPage is the list's page size (keyset paging, so deep pages cost the same).
const conversationsPerPage = 50

// conversationsStore is what the conversations pages read.
type conversationsStore interface {
	ListConversations(ctx context.Context, accountID int64, f store.ConversationFilter) ([]store.ConversationRow, error)
	GetConversation(ctx context.Context, accountID, conversationID int64) (store.Conversation, error)
	Transcript(ctx context.Context, accountID, conversationID, beforeID int64, limit int) ([]store.TranscriptMessage, error)
	EmbedTokens(ctx context.Context, accountID int64) ([]store.EmbedToken, error)
	GetEmbedToken(ctx context.Context, accountID, tokenID int64) (store.EmbedToken, error)
}

func (s *Server) conversationRoutes(rt router) {
	rt.handle("GET /dashboard/conversations", member, s.conversationsPage)
	rt.handle("GET /dashboard/conversations/{id}", member, s.transcriptPage)
}

// Values of the channel select besides an embed token's id.
const (
	channelAPI    = "api"
	channelWidget = "widget"
)

// convFilter is the filter form as the user sent it: shown again in the form and carried
// into the paging links as it came, so that a page and the next agree on what they list.
type convFilter struct {
	Token    string // "", channelAPI, channelWidget or an embed token's id
	Lang     string
	From, To string // YYYY-MM-DD, UTC days, both inclusive
	Rating   string
	Fallback bool
}

func readConvFilter(q url.Values) convFilter {
	return convFilter{Token: strings.TrimSpace(q.Get("token")), Lang: q.Get("lang"),
		From: strings.TrimSpace(q.Get("from")), To: strings.TrimSpace(q.Get("to")), Rating: q.Get("rating"),
		Fallback: q.Get("fallback") != ""}
}

// query is the filter as URL parameters, empty ones left out.
func (f convFilter) query() url.Values {
	q := url.Values{}
	for k, v := range map[string]string{"token": f.Token, "lang": f.Lang, "from": f.From, "to": f.To, "rating": f.Rating} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if f.Fallback {
		q.Set("fallback", "1")
	}
	return q
}

// Active reports whether any filter is set.
func (f convFilter) Active() bool { return len(f.query()) > 0 }

// tokenOption is one embed token of the channel select.
type tokenOption struct {
	Value, Label string
	Revoked      bool
}

// convRow is a list row with what the template shows in place of ids.
type convRow struct {
	store.ConversationRow
	Channel string // the token's label or prefix; "" for the API conversation
	Visitor string // the visitor id's first characters
}

type conversationsData struct {
	Filter  convFilter
	Tokens  []tokenOption
	Ratings []string
	Rows    []convRow
	// Older is the next page's URL ("" on the last page); Newest the first page's when this
	// is a later one.
	Older, Newest string
}

// conversationsPage lists the account's conversations, newest first. Bad filter input is
// a 400 with the form and a message, never a query.
func (s *Server) conversationsPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	q := r.URL.Query()
	d := conversationsData{Filter: readConvFilter(q), Ratings: []string{store.RatingHelpful, store.RatingNotHelpful}}
	tokens, err := s.st.EmbedTokens(r.Context(), c.Account.ID)
	if err != nil {
		return err
	}
	names := map[int64]string{}
	for _, t := range tokens {
		names[t.ID] = tokenName(t)
		d.Tokens = append(d.Tokens, tokenOption{Value: strconv.FormatInt(t.ID, 10), Label: names[t.ID], Revoked: t.Status == store.EmbedRevoked})
	}
	f, err := storeFilter(d.Filter, q, names)
	if err != nil {
		s.formError(w, r, c, pageConversations, err, d)
		return nil
	}
	f.Limit = conversationsPerPage + 1 // one more tells whether there is an older page
	rows, err := s.st.ListConversations(r.Context(), c.Account.ID, f)
	if err != nil {
		return err
	}
	if len(rows) > conversationsPerPage {
		rows = rows[:conversationsPerPage]
		last := rows[len(rows)-1]
		next := d.Filter.query()
		// Nanoseconds: the store keeps microseconds, and a cursor cut to the second would
		// skip the rows of that second.
		next.Set("before_at", last.LastMessageAt.UTC().Format(time.RFC3339Nano))
		next.Set("before_id", strconv.FormatInt(last.ID, 10))
		d.Older = "/dashboard/conversations?" + next.Encode()
	}
	if !f.BeforeAt.IsZero() {
		d.Newest = "/dashboard/conversations"
		if q := d.Filter.query(); len(q) > 0 {
			d.Newest += "?" + q.Encode()
		}
	}
	for _, row := range rows {
		cr := convRow{ConversationRow: row, Visitor: clip(9, row.Visitor)}
		if row.EmbedTokenID != 0 {
			cr.Channel = row.TokenLabel
			if cr.Channel == "" {
				cr.Channel = names[row.EmbedTokenID]
			}
		}
		d.Rows = append(d.Rows, cr)
	}
	s.render(w, r, c, pageConversations, 0, d)
	return nil
}

// tokenName is how the pages name an embed token: its label, else its public prefix.
func tokenName(t store.EmbedToken) string {
	if t.Label != "" {
		return t.Label
	}
	return t.Prefix + "…"
}

// storeFilter checks the form and the paging cursor and turns them into the store's filter.
// names holds the account's embed tokens: any other id is refused, not silently empty.
func storeFilter(in convFilter, q url.Values, names map[int64]string) (store.ConversationFilter, error) {
	var f store.ConversationFilter
	switch in.Token {
	case "":
	case channelAPI:
		f.Channel = store.ChannelAPI
	case channelWidget:
		f.Channel = store.ChannelWidget
	default:
		id, err := strconv.ParseInt(in.Token, 10, 64)
		if _, ok := names[id]; err != nil || !ok {
			return f, invalid("conversations.error_token")
		}
		f.Channel, f.EmbedTokenID = store.ChannelWidget, id
	}
	if in.Lang != "" && !i18n.Supported(in.Lang) {
		return f, invalid("conversations.error_lang")
	}
	f.Lang = in.Lang
	if in.Rating != "" && in.Rating != store.RatingHelpful && in.Rating != store.RatingNotHelpful {
		return f, invalid("conversations.error_rating")
	}
	f.Rating = in.Rating
	f.HadFallback = in.Fallback
	from, err := parseDay(in.From)
	if err != nil {
		return f, invalid("conversations.error_date", clip(40, in.From))
	}
	to, err := parseDay(in.To)
	if err != nil {
		return f, invalid("conversations.error_date", clip(40, in.To))
	}
	if !from.IsZero() && !to.IsZero() && from.After(to) {
		return f, invalid("conversations.error_range")
	}
	f.Since = from
	if !to.IsZero() {
		f.Until = to.AddDate(0, 0, 1) // the "to" day is included
	}
	at, id := q.Get("before_at"), q.Get("before_id")
	if at != "" || id != "" {
		t, err1 := time.Parse(time.RFC3339, at)
		n, err2 := strconv.ParseInt(id, 10, 64)
		if err1 != nil || err2 != nil || n <= 0 {
			return f, invalid("conversations.error_cursor")
		}
		f.BeforeAt, f.BeforeID = t.UTC(), n
	}
	return f, nil
}

// parseDay reads a date input's value as the start of that UTC day ("" is the zero time).
func parseDay(v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	return time.Parse(time.DateOnly, v)
}
