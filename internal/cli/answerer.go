package cli

import (
	"fmt"
	"log/slog"

	"svc/internal/chat"
	"svc/internal/config"
	"svc/internal/engine"
	"svc/internal/llm"
	"svc/internal/llmanswer"
	"svc/internal/store"
)

// engines are the answer engines the configuration names.
type engines struct {
	answerer chat.Answerer  // the built-in engine, or the model-backed one on top of it
	builtin  *engine.Engine // retrieval and the built-in composer for every generator
	model    llm.Client     // nil with the built-in engine
}

// newEngines builds the answer engine the configuration names: the built-in engine, or the
// model-backed engine on top of it (which still retrieves with it and falls back to it).
// obs, when not nil, is told of every provider call (metrics); sem, when not nil, is
// retrieval by meaning beside the keyword index (an embedding provider is configured).
func newEngines(cfg config.Config, st store.Store, log *slog.Logger, obs llm.Observer, sem engine.Semantic) (engines, error) {
	eng, err := engine.New(st, engine.Options{Semantic: sem, MinSimilarity: cfg.EmbedMinSimilarity})
	if err != nil {
		return engines{}, fmt.Errorf("start engine: %w", err)
	}
	if cfg.LLMProvider == "" || cfg.LLMProvider == "builtin" {
		return engines{answerer: eng, builtin: eng}, nil
	}
	client, err := llm.New(llm.Config{Provider: cfg.LLMProvider, BaseURL: cfg.LLMBaseURL, APIKey: cfg.LLMAPIKey,
		Model: cfg.LLMModel, Timeout: cfg.LLMTimeout, MaxRetries: cfg.LLMMaxRetries})
	if err != nil {
		return engines{}, fmt.Errorf("language model provider: %w", err)
	}
	// Outermost, so a call counts once however many attempts the retrier made; obs nil
	// leaves the client as it is.
	client = llm.Observe(client, cfg.LLMProvider, cfg.LLMModel, obs)
	a, err := llmanswer.New(client, eng, st, llmanswer.Options{Model: cfg.LLMModel, SmallModel: cfg.LLMSmallModel}, log)
	if err != nil {
		return engines{}, err
	}
	log.Info("answers by language model", "provider", cfg.LLMProvider, "model", cfg.LLMModel, "small_model", cfg.LLMSmallModel)
	return engines{answerer: a, builtin: eng, model: client}, nil
}
