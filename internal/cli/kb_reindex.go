package cli

import (
	"context"
	"errors"
	"fmt"

	"svc/internal/account"
	"svc/internal/billing"
	"svc/internal/semantic"
)

// cmdKBReindex runs `svc kb reindex --account ID`: the account's chunks without a vector of
// the configured model are embedded now, in this process, and billed like the background
// embedder's (DECISIONS.md "Semantic retrieval"). A running server's embedder would get to
// them too; this is for an operator who wants it done, and counted, now.
func cmdKBReindex(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("kb reindex", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	if err := c.noPositional(args); err != nil {
		return err
	}
	if err := c.requireAccount(*id); err != nil {
		return err
	}
	if !c.cfg.EmbeddingEnabled() {
		return usagef("kb reindex: no embedding provider is configured: set SVC_EMBED_PROVIDER (openai or ollama), SVC_EMBED_BASE_URL and SVC_EMBED_MODEL")
	}
	emb, err := newEmbedder(c.cfg)
	if err != nil {
		return err
	}
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := account.New(st, nil).Get(ctx, *id); err != nil {
		return err
	}
	w, err := semantic.NewWorker(semantic.WorkerOptions{Store: st, Embedder: emb, Model: c.cfg.EmbedModel,
		PricePerMTok: c.cfg.EmbedPricePerMTok, Batch: c.cfg.EmbedBatchSize, Log: c.logger()})
	if err != nil {
		return err
	}
	rep, err := w.EmbedAccount(ctx, *id)
	switch {
	case errors.Is(err, semantic.ErrProviderDown):
		return fmt.Errorf("kb reindex: the embedding provider is unavailable after %d chunks were embedded; run it again later: %w",
			rep.Embedded, err)
	case errors.Is(err, semantic.ErrCannotPay):
		return fmt.Errorf("kb reindex: the account's balance does not cover the next batch at SVC_EMBED_PRICE_PER_MTOK after %d chunks were embedded; top it up and run it again",
			rep.Embedded)
	case err != nil:
		return fmt.Errorf("kb reindex: %w", err)
	}
	return c.print(reindexOutput{AccountID: rep.AccountID, Model: rep.Model, Embedded: rep.Embedded, Tokens: rep.Tokens,
		CostUSD: billing.USD(rep.CostMicro), Refused: rep.Refused, Chunks: rep.Chunks, Vectors: rep.Vectors,
		OtherModelsDeleted: rep.DeletedOther})
}

// reindexOutput is what `svc kb reindex` prints.
type reindexOutput struct {
	AccountID          int64   `json:"account_id"`
	Model              string  `json:"model"`
	Embedded           int     `json:"embedded"`
	Tokens             int     `json:"tokens"`
	CostUSD            float64 `json:"cost_usd"`
	Refused            int     `json:"refused"`
	Chunks             int     `json:"chunks"`
	Vectors            int     `json:"vectors"`
	OtherModelsDeleted int     `json:"other_models_deleted"`
}
