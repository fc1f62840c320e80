package semantic

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"svc/internal/billing"
	"svc/internal/embedding"
	"svc/internal/store"
	"svc/internal/vecindex"
)

// EmbeddingCall is the CallUsage.Call name of an embedding usage event's one call.
const EmbeddingCall = "embedding"

// storedEncoding names an encoding as the store's rows do (store.ChunkVector.Encoding).
func storedEncoding(e vecindex.Encoding) string {
	switch e {
	case vecindex.Float32:
		return "f32"
	case vecindex.Float16:
		return "f16"
	case vecindex.Int8:
		return "i8"
	}
	return e.String()
}

// DocumentText is what is embedded of a chunk: its document's title and heading path, as a
// reader sees them above it (and as the engine gives the reranker), then its text.
func DocumentText(c store.ChunkText) string {
	head := c.Title
	if c.Heading != "" && c.Heading != c.Title {
		head += " " + c.Heading
	}
	if head == "" {
		return c.Text
	}
	return head + "\n" + c.Text
}

// affordable checks, when embedding is charged, that the account's free balance covers the
// batch's estimated cost; otherwise it pauses the account (logged once) and returns
// ErrCannotPay without calling the provider.
func (w *Worker) affordable(ctx context.Context, id int64, chunks []store.ChunkText) error {
	if w.o.PricePerMTok == 0 {
		return nil
	}
	est := 0
	for _, c := range chunks {
		if c.Tokens > 0 {
			est += c.Tokens + utf8.RuneCountInString(c.Title+c.Heading)/4
		} else {
			est += utf8.RuneCountInString(DocumentText(c)) / 4
		}
	}
	need := billing.Cost(est, 0, w.o.PricePerMTok, 0)
	a, err := w.st.GetAccount(ctx, id)
	if err != nil {
		return err
	}
	if a.BalanceMicro-a.ReservedMicro >= need {
		return nil
	}
	return w.pause(id, need)
}

// pause stops embedding the account until its free balance reaches need.
func (w *Worker) pause(id, need int64) error {
	w.mu.Lock()
	_, already := w.paused[id]
	w.paused[id] = need
	w.mu.Unlock()
	if !already {
		w.log.Warn("embedding paused: the account's balance does not cover it; keyword search still answers",
			"account", id, "next_batch_micro_usd", need)
	}
	return fmt.Errorf("%w (account %d)", ErrCannotPay, id)
}

// keep bills the embedded chunks as one embedding usage event, then stores their vectors
// and hands them to the Service's index. Both run to the end once the provider has
// answered, even when ctx ends meanwhile: tokens spent are billed, and what is billed is
// stored. An account that cannot pay gets nothing stored (and is paused).
func (w *Worker) keep(ctx context.Context, id int64, chunks []store.ChunkText, res embedding.Result, rep *Report) error {
	ctx = context.WithoutCancel(ctx)
	cost := billing.Cost(res.Tokens, 0, w.o.PricePerMTok, 0)
	if res.Tokens > 0 {
		c := &store.Charge{EventType: store.EventEmbedding, AmountMicro: cost, InputTokens: res.Tokens,
			Calls: []store.CallUsage{{Call: EmbeddingCall, Model: w.o.Model, InputTokens: res.Tokens, CostMicro: cost}}}
		if _, err := w.st.ChargeUsage(ctx, id, c, 0); err != nil {
			if errors.Is(err, store.ErrInsufficientBalance) {
				return w.pause(id, cost)
			}
			return fmt.Errorf("semantic: bill embedding: %w", err)
		}
		rep.Tokens += res.Tokens
		rep.CostMicro += c.AmountMicro
	}
	vecs := make([]store.ChunkVector, 0, len(chunks))
	adds := make([]added, 0, len(chunks))
	for i, c := range chunks {
		data, err := vecindex.Encode(vecindex.DefaultEncoding, res.Vectors[i])
		if err != nil {
			return fmt.Errorf("semantic: chunk %d: %w", c.ID, err) // the embedder checked it: a bug
		}
		vecs = append(vecs, store.ChunkVector{ChunkID: c.ID, Dim: len(res.Vectors[i]),
			Encoding: storedEncoding(vecindex.DefaultEncoding), Data: data})
		adds = append(adds, added{id: c.ID, doc: c.DocID, lang: c.Lang, vec: res.Vectors[i]})
	}
	before, verr := w.st.VectorVersion(ctx, id, w.o.Model)
	n, err := w.st.PutChunkVectors(ctx, id, w.o.Model, vecs)
	if err != nil {
		return fmt.Errorf("semantic: store vectors: %w", err)
	}
	rep.Embedded += n
	if w.o.Service != nil {
		after, aerr := w.st.VectorVersion(ctx, id, w.o.Model)
		if verr != nil || aerr != nil {
			w.o.Service.Invalidate(id) // versions unknown: a fresh load is the safe way
		} else {
			w.o.Service.stored(id, before, after, adds)
		}
	}
	return nil
}
