package api_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/config"
	"svc/internal/demo/demotest"
	"svc/internal/embedding"
	"svc/internal/embedding/embedtest"
	"svc/internal/llm/llmtest"
	"svc/internal/llmanswer/llmanswertest"
	"svc/internal/semantic"
	"svc/internal/store"
)

// semanticConfig is the configuration of retrieval by meaning through the fake embedding
// server's protocol (openai or ollama).
func semanticConfig(emb *embedtest.Server, protocol string) config.Config {
	cfg := config.Config{LLMProvider: "builtin"}
	cfg.EmbedProvider, cfg.EmbedModel = protocol, "concepts-test"
	cfg.EmbedBaseURL = emb.OpenAIBaseURL()
	if protocol == embedding.ProviderOllama {
		cfg.EmbedBaseURL = emb.OllamaBaseURL()
	}
	cfg.EmbedTimeout, cfg.EmbedQueryTimeout, cfg.EmbedBatchSize = 5*time.Second, 2*time.Second, embedding.DefaultBatchSize
	return cfg
}

// embedKB embeds the account's KB in the foreground, as `svc kb reindex` does, so that the
// first question finds its vectors.
func embedKB(t *testing.T, h *harness, cfg config.Config, accountID int64) {
	t.Helper()
	emb, err := embedding.New(cfg.EmbeddingConfig())
	if err != nil {
		t.Fatal(err)
	}
	w, err := semantic.NewWorker(semantic.WorkerOptions{Store: h.st, Embedder: emb, Model: cfg.EmbedModel})
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := w.EmbedAccount(context.Background(), accountID); err != nil || rep.Embedded == 0 {
		t.Fatalf("embed the KB: %+v %v", rep, err)
	}
}

type sentReply struct {
	Messages []struct {
		Role    string `json:"role"`
		Source  string `json:"source"`
		Sources []struct {
			Title string `json:"title"`
			URL   string `json:"url"`
		} `json:"sources"`
	} `json:"messages"`
}

func (h *harness) sendMessage(key, message string) sentReply {
	h.t.Helper()
	r := h.postForm("/api/v1/chat/send", key, url.Values{"message": {message}})
	if r.Status != http.StatusOK {
		h.t.Fatalf("send %q: %d %s", message, r.Status, r.raw)
	}
	var out sentReply
	r.decode(h.t, &out)
	return out
}

// TestParaphraseAnsweredThroughEachProtocol: a question whose words are not on the page that
// answers it is answered from that page once the KB is embedded, through the OpenAI and the
// Ollama wire protocols; without retrieval by meaning the same question is declined; and the
// question's embedding is metered as an embedding event.
func TestParaphraseAnsweredThroughEachProtocol(t *testing.T) {
	t.Parallel()
	const q = "Can I get my money back?"
	plain := newHarness(t)
	_, plainKey := plain.tenant(account.Settings{Lang: ptr("en"), SalesMode: ptr(false), BalanceMicro: ptr(int64(5_000_000))})
	if r := plain.sendMessage(plainKey, q); r.Messages[1].Source != store.SourceFallback {
		t.Fatalf("keywords alone answered the paraphrase: %+v", r.Messages[1])
	}
	for _, protocol := range []string{embedding.ProviderOpenAI, embedding.ProviderOllama} {
		t.Run(protocol, func(t *testing.T) {
			t.Parallel()
			emb := embedtest.Start(t, embedtest.Options{})
			cfg := semanticConfig(emb, protocol)
			cfg.EmbedPricePerMTok = 20_000_000 // 20 USD a million tokens: a question's few cost something
			h := newHarnessWith(t, cfg)
			id, key := h.tenant(account.Settings{Lang: ptr("en"), SalesMode: ptr(false), BalanceMicro: ptr(int64(5_000_000))})
			embedKB(t, h, cfg, id)
			before := h.usageOf(key)["embedding"] // the KB's batches, embedded here without a price
			reply := h.sendMessage(key, q).Messages[1]
			if reply.Source != store.SourceAI || len(reply.Sources) == 0 || !strings.Contains(reply.Sources[0].Title, "Return") {
				t.Fatalf("%s: the paraphrase was not answered from the returns page: %+v", protocol, reply)
			}
			if got := h.usageOf(key)["embedding"]; before.Count == 0 || got.Count != before.Count+1 || got.Cost <= before.Cost {
				t.Errorf("%s: embedding events %+v then %+v, want the KB's batches and then the question's one, charged",
					protocol, before, got)
			}
			a, err := h.st.GetAccount(context.Background(), id)
			if err != nil || h.ledgerSum(id) != a.BalanceMicro {
				t.Errorf("%s: the ledger sums to %d, the balance is %d (%v)", protocol, h.ledgerSum(id), a.BalanceMicro, err)
			}
			// A question the KB cannot answer is still declined.
			if r := h.sendMessage(key, "What is the current price of Bitcoin?").Messages[1]; r.Source != store.SourceFallback {
				t.Errorf("%s: answered what the KB does not hold: %+v", protocol, r)
			}
		})
	}
}

// TestTurkishQuestionOnAnEnglishOnlyKB: with a model configured, a Turkish question is
// answered from a KB whose pages exist only in English: the search by meaning crosses the
// language, the model reads the English page and is asked to write Turkish, and the reply
// cites the original page. The built-in engine alone declines it (it quotes only passages in
// the question's language).
func TestTurkishQuestionOnAnEnglishOnlyKB(t *testing.T) {
	t.Parallel()
	const q = "Paramı geri alabilir miyim?"
	emb := embedtest.Start(t, embedtest.Options{})
	model := llmtest.Start(t, llmtest.Options{APIKey: "provider-key", Script: llmanswertest.Script{}.Step})
	cfg := semanticConfig(emb, embedding.ProviderOpenAI)
	builtin := newHarnessWith(t, cfg)
	cfg.LLMProvider, cfg.LLMBaseURL, cfg.LLMAPIKey, cfg.LLMModel = "openai", model.OpenAIBaseURL(), "provider-key", "gpt-test"
	cfg.LLMTimeout = 5 * time.Second
	h := newHarnessWith(t, cfg)
	for _, hh := range []*harness{builtin, h} {
		a, key, err := hh.accounts.Create(context.Background(), account.Settings{Name: ptr("Yolcu"), Lang: ptr("tr"),
			SalesMode: ptr(false), BalanceMicro: ptr(int64(5_000_000))})
		if err != nil {
			t.Fatal(err)
		}
		var english []store.Document
		for _, d := range demotest.Docs(t) {
			if d.Lang == "en" && d.Type != store.DocProduct {
				english = append(english, d)
			}
		}
		if _, err := hh.st.ImportDocuments(context.Background(), a.ID, english); err != nil {
			t.Fatal(err)
		}
		embedKB(t, hh, cfg, a.ID)
		reply := hh.sendMessage(key, q).Messages[1]
		if hh == builtin {
			if reply.Source != store.SourceFallback {
				t.Errorf("the built-in engine quoted another language: %+v", reply)
			}
			continue
		}
		if reply.Source != store.SourceAI || len(reply.Sources) == 0 || !strings.Contains(reply.Sources[0].Title, "Return") {
			t.Fatalf("the Turkish question was not answered from the English returns page: %+v", reply)
		}
	}
	var asked bool
	for _, c := range model.Calls() {
		if llmanswertest.SubCall(c) != "reply" {
			continue
		}
		asked = true
		prompt := c.System
		for _, m := range c.Messages {
			prompt += "\n" + m.Content
		}
		if !strings.Contains(prompt, "Returns and refunds") {
			t.Errorf("the model did not read the English returns page")
		}
	}
	if !asked {
		t.Fatal("the model was never asked to reply")
	}
}
