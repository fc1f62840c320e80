package eval

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"svc/internal/chat"
	"svc/internal/engine"
	"svc/internal/store"
)

// SiteReport is what `svc eval site` prints: hit rates per language and every miss.
type SiteReport struct {
	AccountID int64            `json:"account_id"`
	SalesMode bool             `json:"sales_mode"`
	Questions int              `json:"questions"`
	Hits      int              `json:"hits"`
	HitRate   float64          `json:"hit_rate"`
	Langs     []SiteLangReport `json:"langs"`
	Misses    []SiteMiss       `json:"misses"`
}

// SiteLangReport is one language's line of the report.
type SiteLangReport struct {
	Lang      string  `json:"lang"`
	Questions int     `json:"questions"`
	Hits      int     `json:"hits"`
	HitRate   float64 `json:"hit_rate"`
	// Fallbacks counts replies that were the "no answer" fallback.
	Fallbacks int `json:"fallbacks"`
	// StrayCards counts questions marked no_product that got a product card anyway.
	StrayCards     int     `json:"stray_cards"`
	MeanReplyChars float64 `json:"mean_reply_chars"`
}

// SiteMiss is one question whose reply failed its checks, with what it got.
type SiteMiss struct {
	Line      int      `json:"line"`
	Lang      string   `json:"lang"`
	Question  string   `json:"question"`
	Reply     string   `json:"reply"`
	ReplyLang string   `json:"reply_lang"`
	Source    string   `json:"source"`
	Cards     []string `json:"cards"`
	Expect    string   `json:"expect,omitempty"`
	Product   string   `json:"product,omitempty"`
	NoProduct bool     `json:"no_product,omitempty"`
	// Why names the checks that failed.
	Why []string `json:"why"`
}

// Site asks every question of qs as a visitor of the account would, through the chat
// service's send pipeline (language reading, small talk, the account's curated Q&A and
// answer cache, the answer engine, Sales Mode's product cards as the account has it set) and
// checks each reply. It is a measurement, not traffic: nothing is written. The pipeline runs
// on a read-only view of st (see dryStore) that keeps every read and swallows every write,
// so no conversation, message, charge, reservation, cache entry or notice is stored, the
// balance and the daily quota are neither checked nor touched, and each question starts a
// conversation of its own with no history, in the question's language.
func Site(ctx context.Context, st store.Store, ans chat.Answerer, accountID int64, qs []SiteQuestion) (SiteReport, error) {
	acct, err := st.GetAccount(ctx, accountID)
	if err != nil {
		return SiteReport{}, fmt.Errorf("account %d: %w", accountID, err)
	}
	dry := &dryStore{Store: st, acct: acct}
	// The copy the pipeline sees can always afford an answer: the balance and the quota are
	// billing's business, and a measurement bills nothing.
	dry.acct.BalanceMicro, dry.acct.ReservedMicro, dry.acct.DailyAnswers = 1<<50, 0, 0
	svc := chat.New(chat.Deps{Store: dry, Engine: ans, Limiter: allowAll{}})

	rep := SiteReport{AccountID: accountID, SalesMode: acct.SalesMode, Questions: len(qs), Misses: []SiteMiss{}}
	byLang := map[string]*SiteLangReport{}
	chars := map[string]int{}
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			return SiteReport{}, err
		}
		lr := byLang[q.Lang]
		if lr == nil {
			lr = &SiteLangReport{Lang: q.Lang}
			byLang[q.Lang] = lr
		}
		dry.lang = q.Lang
		res, err := svc.Send(ctx, dry.acct, 0, q.Question)
		if err != nil {
			return SiteReport{}, fmt.Errorf("line %d: %w", q.Line, err)
		}
		reply := res.Reply
		lr.Questions++
		chars[q.Lang] += utf8.RuneCountInString(reply.Body)
		if reply.Source == store.SourceFallback {
			lr.Fallbacks++
		}
		if q.NoProduct && len(reply.Products) > 0 {
			lr.StrayCards++
		}
		why := check(q, reply)
		if len(why) == 0 {
			lr.Hits++
			rep.Hits++
			continue
		}
		cards := []string{}
		for _, p := range reply.Products {
			cards = append(cards, strings.TrimSpace(p.Name+" "+p.Price))
		}
		rep.Misses = append(rep.Misses, SiteMiss{Line: q.Line, Lang: q.Lang, Question: q.Question, Reply: reply.Body,
			ReplyLang: reply.Lang, Source: reply.Source, Cards: cards, Expect: q.Expect, Product: q.Product,
			NoProduct: q.NoProduct, Why: why})
	}
	for _, lr := range byLang {
		lr.HitRate = ratio(lr.Hits, lr.Questions)
		lr.MeanReplyChars = float64(chars[lr.Lang]) / float64(lr.Questions)
		rep.Langs = append(rep.Langs, *lr)
	}
	order := map[string]int{"tr": 0, "en": 1, "de": 2}
	sort.Slice(rep.Langs, func(i, j int) bool { return order[rep.Langs[i].Lang] < order[rep.Langs[j].Lang] })
	rep.HitRate = ratio(rep.Hits, rep.Questions)
	return rep, nil
}

// check returns why reply fails q's checks; none when it passes.
func check(q SiteQuestion, reply store.Message) []string {
	var why []string
	if q.re != nil && !q.re.MatchString(reply.Body) {
		why = append(why, "reply does not match expect")
	}
	if q.Product != "" {
		switch {
		case len(reply.Products) == 0:
			why = append(why, "no product card; expected "+q.Product)
		case !strings.EqualFold(strings.TrimSpace(reply.Products[0].Name), q.Product):
			why = append(why, fmt.Sprintf("first card is %s; expected %s", reply.Products[0].Name, q.Product))
		}
	}
	if q.NoProduct && len(reply.Products) > 0 {
		why = append(why, "product card on a question that must get none")
	}
	return why
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// dryStore is the read-only view of a store the measurement runs the send pipeline on: reads
// go to the store, and the few calls of the pipeline that write are answered here without
// writing. A write this view does not know of would reach the store, so the test
// TestSiteWritesNothing compares the store's tables before and after a run.
type dryStore struct {
	store.Store
	acct   store.Account
	lang   string // the conversation language of the question being asked
	nextID atomic.Int64
}

// GetAccount returns the measurement's copy of the account (the balance is billing's
// business, see Site).
func (d *dryStore) GetAccount(ctx context.Context, id int64) (store.Account, error) {
	if id == d.acct.ID {
		return d.acct, nil
	}
	return d.Store.GetAccount(ctx, id)
}

// OpenConversation starts a new, unsaved conversation for every question, in its language,
// so that no question is read as a follow-up of the one before.
func (d *dryStore) OpenConversation(_ context.Context, accountID int64, _ string) (store.Conversation, error) {
	now := time.Now().UTC()
	return store.Conversation{ID: -d.nextID.Add(1), AccountID: accountID, Lang: d.lang, CreatedAt: now, UpdatedAt: now}, nil
}

func (d *dryStore) LastMessages(context.Context, int64, int64, int) ([]store.Message, error) {
	return nil, nil
}

// SaveTurn keeps nothing: the turn's reply is what the measurement reads.
func (d *dryStore) SaveTurn(_ context.Context, t *store.Turn) error {
	t.User.CreatedAt = time.Now().UTC()
	t.Reply.CreatedAt = t.User.CreatedAt
	return nil
}

func (d *dryStore) CountEvents(context.Context, int64, string, time.Time) (int, error) { return 0, nil }

func (d *dryStore) Reserve(_ context.Context, accountID, amountMicro int64, _ time.Duration, _ *store.TokenBudget) (store.Reservation, error) {
	return store.Reservation{ID: d.nextID.Add(1), AccountID: accountID, AmountMicro: amountMicro}, nil
}

func (d *dryStore) Release(context.Context, int64, int64) error { return nil }

func (d *dryStore) EnqueueNotice(context.Context, *store.Notice) (bool, error) { return false, nil }

// allowAll is the rate limiter of a measurement: its questions are not a visitor's burst.
type allowAll struct{}

func (allowAll) Allow(string, int, time.Time) (bool, time.Duration) { return true, 0 }

// compile-time check that the built-in engine is what Site expects.
var _ chat.Answerer = (*engine.Engine)(nil)
