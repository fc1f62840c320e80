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

// SiteReport is what `svc eval site` prints: hit rates per language, per language and half,
// and every miss.
type SiteReport struct {
	AccountID int64            `json:"account_id"`
	SalesMode bool             `json:"sales_mode"`
	Questions int              `json:"questions"`
	Hits      int              `json:"hits"`
	HitRate   float64          `json:"hit_rate"`
	Langs     []SiteLangReport `json:"langs"`
	// Halves splits every language's line in two (SiteLangReport.Half): the questions on odd
	// lines ("tune") and those on even lines ("confirm"). Both are always reported, so that a
	// change tuned on one half is judged on the other without a second run.
	Halves []SiteLangReport `json:"halves"`
	Misses []SiteReply      `json:"misses"`
	// Replies holds every question's reply, hits too, when SiteOptions.AllReplies asks.
	Replies []SiteReply `json:"replies,omitempty"`
}

// The halves of a question file: a question on an odd line is in the tuning half, one on an
// even line in the confirming half.
const (
	HalfTune    = "tune"
	HalfConfirm = "confirm"
)

// HalfOf names the half of a question file that line belongs to.
func HalfOf(line int) string {
	if line%2 == 1 {
		return HalfTune
	}
	return HalfConfirm
}

// SiteOptions tunes a measurement.
type SiteOptions struct {
	// AllReplies keeps every reply in the report (Replies), not only the misses: for reading
	// what the hits said, and for writing a new question file's expectations.
	AllReplies bool
}

// SiteLangReport is one language's line of the report, or one half of it.
type SiteLangReport struct {
	Lang string `json:"lang"`
	// Half is HalfTune or HalfConfirm in SiteReport.Halves, empty in SiteReport.Langs.
	Half      string  `json:"half,omitempty"`
	Questions int     `json:"questions"`
	Hits      int     `json:"hits"`
	HitRate   float64 `json:"hit_rate"`
	// Answerable counts the questions that are not marked decline, and AnswerableHits those of
	// them whose reply passed every check.
	Answerable     int `json:"answerable"`
	AnswerableHits int `json:"answerable_hits"`
	// AnsweredWrong counts the answerable questions that got an answer (not the fallback) that
	// failed a check: a wrong answer, where a fallback would only have been a missed one.
	AnsweredWrong int `json:"answered_wrong"`
	// Unanswerable counts the questions marked decline, Declines those that got the
	// fallback, and DeclineRate is their ratio.
	Unanswerable int     `json:"unanswerable"`
	Declines     int     `json:"declines"`
	DeclineRate  float64 `json:"decline_rate"`
	// Fallbacks counts replies that were the "no answer" fallback.
	Fallbacks int `json:"fallbacks"`
	// StrayCards counts questions marked no_product that got a product card anyway.
	StrayCards     int     `json:"stray_cards"`
	MeanReplyChars float64 `json:"mean_reply_chars"`

	chars int // the replies' characters, for MeanReplyChars
}

// add counts one question's reply into the line.
func (l *SiteLangReport) add(q SiteQuestion, reply store.Message, hit bool) {
	l.Questions++
	l.chars += utf8.RuneCountInString(reply.Body)
	fallback := reply.Source == store.SourceFallback
	if fallback {
		l.Fallbacks++
	}
	if q.NoProduct && len(reply.Products) > 0 {
		l.StrayCards++
	}
	if hit {
		l.Hits++
	}
	switch {
	case q.Decline:
		l.Unanswerable++
		if hit {
			l.Declines++
		}
	default:
		l.Answerable++
		if hit {
			l.AnswerableHits++
		} else if !fallback {
			l.AnsweredWrong++
		}
	}
}

// finish works out the line's ratios.
func (l *SiteLangReport) finish() {
	l.HitRate = ratio(l.Hits, l.Questions)
	l.DeclineRate = ratio(l.Declines, l.Unanswerable)
	l.MeanReplyChars = ratio(l.chars, l.Questions)
}

// SiteReply is one question with the reply it got; in Misses, the checks it failed.
type SiteReply struct {
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
	Decline   bool     `json:"decline,omitempty"`
	// Why names the checks that failed; empty for a hit.
	Why []string `json:"why,omitempty"`
}

// Site asks every question of qs as a visitor of the account would, through the chat
// service's send pipeline (language reading, small talk, the account's curated Q&A and
// answer cache, the answer engine, Sales Mode's product cards as the account has it set) and
// checks each reply. It is a measurement, not traffic: nothing is written. The pipeline runs
// on a read-only view of st (see dryStore) that keeps every read and swallows every write,
// so no conversation, message, charge, reservation, cache entry or notice is stored, the
// balance and the daily quota are neither checked nor touched, and each question starts a
// conversation of its own with no history, in the question's language.
func Site(ctx context.Context, st store.Store, ans chat.Answerer, accountID int64, qs []SiteQuestion, opts SiteOptions) (SiteReport, error) {
	asker, err := NewAsker(ctx, st, ans, accountID)
	if err != nil {
		return SiteReport{}, err
	}
	rep := SiteReport{AccountID: accountID, SalesMode: asker.dry.acct.SalesMode, Questions: len(qs), Misses: []SiteReply{}}
	type key struct{ lang, half string }
	lines := map[key]*SiteLangReport{}
	line := func(lang, half string) *SiteLangReport {
		k := key{lang, half}
		if lines[k] == nil {
			lines[k] = &SiteLangReport{Lang: lang, Half: half}
		}
		return lines[k]
	}
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			return SiteReport{}, err
		}
		asked, err := asker.Ask(ctx, q.Question, q.Lang)
		if err != nil {
			return SiteReport{}, fmt.Errorf("line %d: %w", q.Line, err)
		}
		reply := asked.Reply
		why := check(q, reply)
		hit := len(why) == 0
		line(q.Lang, "").add(q, reply, hit)
		line(q.Lang, HalfOf(q.Line)).add(q, reply, hit)
		if hit {
			rep.Hits++
		}
		if hit && !opts.AllReplies {
			continue
		}
		cards := []string{}
		for _, p := range reply.Products {
			cards = append(cards, strings.TrimSpace(p.Name+" "+p.Price))
		}
		r := SiteReply{Line: q.Line, Lang: q.Lang, Question: q.Question, Reply: reply.Body, ReplyLang: reply.Lang,
			Source: reply.Source, Cards: cards, Expect: q.Expect, Product: q.Product, NoProduct: q.NoProduct,
			Decline: q.Decline, Why: why}
		if !hit {
			rep.Misses = append(rep.Misses, r)
		}
		if opts.AllReplies {
			rep.Replies = append(rep.Replies, r)
		}
	}
	rep.Halves = []SiteLangReport{}
	for _, l := range lines {
		l.finish()
		if l.Half == "" {
			rep.Langs = append(rep.Langs, *l)
		} else {
			rep.Halves = append(rep.Halves, *l)
		}
	}
	order := map[string]int{"tr": 0, "en": 1, "de": 2, HalfTune: 0, HalfConfirm: 1}
	for _, ls := range [][]SiteLangReport{rep.Langs, rep.Halves} {
		sort.Slice(ls, func(i, j int) bool {
			if ls[i].Lang != ls[j].Lang {
				return order[ls[i].Lang] < order[ls[j].Lang]
			}
			return order[ls[i].Half] < order[ls[j].Half]
		})
	}
	rep.HitRate = ratio(rep.Hits, rep.Questions)
	return rep, nil
}

// Asker asks questions of one account as a visitor would, through the chat service's send
// pipeline on the read-only view of the store (dryStore): each question in a conversation
// of its own, nothing stored, the balance and the quota neither checked nor touched. It is
// what Site measures with, and what owners' test runs (internal/testsets) ask through. An
// Asker asks one question at a time: it is not safe for concurrent use.
type Asker struct {
	dry *dryStore
	svc *chat.Service
}

// NewAsker reads the account (its Sales Mode, tone and name, as its visitors get them) and
// returns an Asker for it.
func NewAsker(ctx context.Context, st store.Store, ans chat.Answerer, accountID int64) (*Asker, error) {
	acct, err := st.GetAccount(ctx, accountID)
	if err != nil {
		return nil, fmt.Errorf("account %d: %w", accountID, err)
	}
	dry := &dryStore{Store: st, acct: acct}
	// The copy the pipeline sees can always afford an answer: the balance and the quota are
	// billing's business, and a measurement bills nothing (a test run bills what Asked
	// reports, itself).
	dry.acct.BalanceMicro, dry.acct.ReservedMicro, dry.acct.DailyAnswers = 1<<50, 0, 0
	return &Asker{dry: dry, svc: chat.New(chat.Deps{Store: dry, Engine: ans, Limiter: allowAll{}})}, nil
}

// Asked is one question's reply and what the pipeline would have charged for it.
type Asked struct {
	Reply store.Message
	// Charges are the usage events the turn would have recorded (the answer's, and any
	// further ones such as a summary), priced at the account's rates; nothing was charged.
	Charges []store.Charge
}

// Ask asks question in lang (the conversation's language the question starts in).
func (a *Asker) Ask(ctx context.Context, question, lang string) (Asked, error) {
	a.dry.lang = lang
	a.dry.turn = nil
	res, err := a.svc.Send(ctx, a.dry.acct, 0, question)
	if err != nil {
		return Asked{}, err
	}
	out := Asked{Reply: res.Reply}
	if t := a.dry.turn; t != nil {
		out.Charges = append(append(out.Charges, t.Charge), t.Extra...)
	}
	return out, nil
}

// check returns why reply fails q's checks; none when it passes.
func check(q SiteQuestion, reply store.Message) []string {
	var why []string
	if q.Decline {
		if reply.Source != store.SourceFallback || !reply.LowConfidence {
			why = append(why, "answered a question the KB does not answer; expected the fallback")
		}
		if len(reply.Products) > 0 {
			why = append(why, "product card on a question that must get the fallback")
		}
		return why
	}
	if (q.re != nil || q.Product != "") && reply.LowConfidence {
		why = append(why, "low-confidence reply ("+reply.Source+") to an answerable question")
	}
	if q.re != nil && !q.re.MatchString(reply.Body) {
		why = append(why, "reply does not match expect")
	}
	if q.Product != "" {
		switch {
		case len(reply.Products) == 0:
			why = append(why, "no product card; expected "+q.Product)
		case !strings.EqualFold(strings.TrimSpace(reply.Products[0].Name), q.Product):
			why = append(why, fmt.Sprintf("first card is %s; expected %s", reply.Products[0].Name, q.Product))
		case len(reply.Products) > 1:
			var others []string
			for _, p := range reply.Products[1:] {
				others = append(others, p.Name)
			}
			why = append(why, fmt.Sprintf("%s came with other cards: %s", q.Product, strings.Join(others, ", ")))
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
	// turn is the last turn the pipeline would have saved (Asker reads its charges).
	turn *store.Turn
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
	d.turn = t
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
