package engine

import (
	"context"
	"errors"
	"fmt"

	lru "github.com/hashicorp/golang-lru/v2"

	"svc/internal/store"
	"svc/internal/tokencount"
)

// Searcher is the part of the store the engine reads: candidate chunks, the section a chunk
// is part of and the account's term statistics. store.KB satisfies it.
type Searcher interface {
	SearchChunks(ctx context.Context, accountID int64, q store.SearchQuery) ([]store.ChunkHit, error)
	SectionChunks(ctx context.Context, accountID, chunkID int64, reach int) ([]store.ChunkHit, error)
	TermStats(ctx context.Context, accountID int64, terms []store.SearchTerm) (store.TermStats, error)
	Products(ctx context.Context, accountID int64, q store.ProductQuery) ([]store.ChunkHit, error)
	// ChunksByID reads the chunks a search by meaning found, in the order of ids.
	ChunksByID(ctx context.Context, accountID int64, ids []int64) ([]store.ChunkHit, error)
}

// Options tune the engine. The zero value gives the defaults, which were measured on the
// XQuAD dev split (see internal/eval and BENCHMARKS.md).
type Options struct {
	// Candidates is how many chunks the store's full-text search hands to the reranker.
	// Default 50.
	Candidates int
	// PoolChunks is about how many chunks the candidate search scores (see poolTerms):
	// the question's rarest terms are searched until they match this many. Default 2000;
	// negative searches every term.
	PoolChunks int
	// Analyze is how many of the pool's best candidates by BM25 and coverage are split into
	// sentences for the proximity features. Default 15.
	Analyze int
	// AnswerPassages is how many passages Answer retrieves and returns. Default 3.
	AnswerPassages int
	// MaxReplyChars caps the quoted text of a reply (lead-in and source line excluded), in
	// characters. Default 600.
	MaxReplyChars int
	// MaxReply caps a whole extractive reply, lead-in and source line included, in
	// characters: a long source line leaves less room for the quote. Default 700.
	MaxReply int
	// MinCoverage is the share of the question's term weight a passage must contain for
	// arbitration to take it as covering the question on that alone (confident). Default
	// 0.5; negative makes every passage count.
	MinCoverage float64
	// MinSupport is the lower share accepted when the best passage matches at least two of
	// the question's terms. Default 0.2. Arbitration uses both to tell whether a passage in
	// the reply's language is worth preferring; whether a reply is given at all is
	// Answerability's decision.
	MinSupport float64
	// Answerability is the model that decides whether a reply answers; nil means the one
	// the engine ships with (DefaultAnswerability).
	Answerability *Answerability
	// MinAnswerability overrides the model's threshold when positive; negative gives every
	// reply that quotes something (for measuring the model itself).
	MinAnswerability float64
	// Off switches rule families off (see Families), for measuring what each earns.
	Off []string
	// Ranking holds the reranking and extraction weights; nil means DefaultRanking().
	Ranking *Ranking
	// MaxCards is the most product cards a Sales Mode answer carries. Default and most: 8,
	// the limit of SERVICE.md.
	MaxCards int
	// Semantic is retrieval by meaning beside the keyword index (issue 25); nil answers
	// from the keyword index alone.
	Semantic Semantic
	// MinSimilarity is the least cosine similarity of the question and the chunk found by
	// meaning that a question the keyword evidence does not answer is answered from; 0 takes
	// the default. Each embedding model has its own scale.
	MinSimilarity float64
	// MinStandOut is how far (semanticRead.z) the nearest chunk by meaning must stand above
	// the others for a question the keyword evidence does not answer to be answered from it;
	// 0 takes the default, measured on the tuning half (see semantic_answer.go).
	MinStandOut float64
	// MinRerank is the reranker's score the best chunk must reach instead, when a reranker
	// ran; 0 takes the default.
	MinRerank float64
}

// summariesKept bounds the remembered token counts of questions, replies and summaries (see
// textTokens): two a turn, so the turns of the last few hundred sends.
const summariesKept = 1024

// maxCards is SERVICE.md's limit of product cards per message.
const maxCards = 8

// Engine answers questions from an account's knowledge base by retrieval and extraction. It
// holds no per-request state and is safe for concurrent use.
type Engine struct {
	kb   Searcher
	opts Options
	rank Ranking
	// model decides whether a reply answers its question.
	model Answerability
	tok   *tokencount.Counter
	// sentences remembers the analysed sentences of recently read chunks.
	sentences *sentenceMemo
	// summaries remembers the token counts of recent questions, replies and summaries (see
	// textTokens).
	summaries *lru.Cache[string, int]
}

// Request is one question to answer.
type Request struct {
	AccountID int64
	Question  string
	Lang      string // detected language of the question: tr, en or de
	Tone      string // store.ToneProfessional, ToneWarm or ToneEnergetic; "" = professional
	// SalesMode is the account's Sales Mode: a question about products gets the relevant
	// products as cards, and the reply names no product outside them. Off, the reply is the
	// plain extractive one and carries no cards.
	SalesMode bool
	// Business is the account's name, as the assistant introduces itself.
	Business string
	// ToneCustom is the account's style note. Model-backed engines follow it; the built-in
	// engine's phrases come from the preset alone.
	ToneCustom string
	// Summary is the conversation's summary of the turns older than History.
	Summary string
	// History is the conversation's recent messages before Question, oldest first.
	History []Turn
	// Stream, when set, is handed the reply while it is composed, as far as it is final: an
	// engine that writes with a model releases each sentence once it has passed the guard.
	// The pieces are only a preview of Answer.Text, which is what counts; an engine may
	// send none (the built-in engine composes at once). It is called on Answer's goroutine.
	Stream func(Piece)
}

// Piece is part of a reply released while it is composed: Text follows what was released
// before, or, with Replace, stands instead of all of it (the reply became a decline).
type Piece struct {
	Text    string
	Replace bool
}

// Card is a product card with the document it was learned from.
type Card struct {
	DocID   int64
	Lang    string // the document's language
	Product store.Product
}

// Passage is a retrieved chunk with its document's identity and the engine's score.
type Passage struct {
	ChunkID int64
	DocID   int64
	DocType string
	Title   string
	URL     string
	Lang    string
	Text    string
	Score   float64
	Product *store.Product
}

// New returns an engine reading kb. It loads the o200k_base tokenizer once, here, so that
// requests never pay for it.
func New(kb Searcher, opts Options) (*Engine, error) {
	if kb == nil {
		return nil, errors.New("engine: nil searcher")
	}
	if opts.PoolChunks == 0 {
		opts.PoolChunks = 2000
	}
	if opts.Candidates <= 0 {
		opts.Candidates = 50
	}
	if opts.Analyze <= 0 {
		opts.Analyze = 15
	}
	if opts.AnswerPassages <= 0 {
		opts.AnswerPassages = 3
	}
	if opts.MaxReplyChars <= 0 {
		opts.MaxReplyChars = 600
	}
	if opts.MaxReply <= 0 {
		opts.MaxReply = 700
	}
	if opts.MinCoverage == 0 {
		opts.MinCoverage = 0.5
	}
	if opts.MaxCards <= 0 || opts.MaxCards > maxCards {
		opts.MaxCards = maxCards
	}
	if opts.MinSupport == 0 {
		opts.MinSupport = 0.2
	}
	rank := DefaultRanking()
	if opts.Ranking != nil {
		rank = *opts.Ranking
	}
	model := opts.Answerability
	if model == nil {
		m, err := DefaultAnswerability()
		if err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		model = &m
	}
	tok, err := tokencount.O200kBase()
	if err != nil {
		return nil, fmt.Errorf("engine: load tokenizer: %w", err)
	}
	summaries, err := lru.New[string, int](summariesKept)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	return &Engine{kb: kb, opts: opts, rank: rank, model: *model, tok: tok, sentences: newSentenceMemo(), summaries: summaries}, nil
}

// CountTokens counts the o200k_base tokens of s, the unit that usage is billed in. Invalid
// UTF-8 is counted, not refused (each bad byte as U+FFFD), so a bill never fails on a
// visitor's typing; should the counter still report an error, one token per byte is the
// safe over-estimate.
func (e *Engine) CountTokens(s string) int {
	n, err := e.tok.Count(s)
	if err != nil {
		return len(s)
	}
	return n
}

// Forget drops what the engine remembers only to answer faster: the analysed sentences of
// recent chunks and the token counts of recent questions, replies and summaries. Answers
// stay the same; the next ones analyse again. An idle server calls it before it returns its
// memory.
func (e *Engine) Forget() {
	e.sentences.purge()
	e.summaries.Purge()
}
