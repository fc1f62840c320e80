package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"

	"svc/internal/engine"
	"svc/internal/eval"
	"svc/internal/i18n"
)

// cmdEvalSite measures an account's KB on a question file before it goes live: every question
// is asked through the visitor's send pipeline with the built-in engine and nothing is
// written or billed (eval.Site). It prints one JSON object (eval.SiteReport: hit rates per
// language and per half of the file, declines of unanswerable questions, every miss) on stdout and the same as a table on stderr. The built-in engine
// is used whatever SVC_LLM_PROVIDER says: it is free and deterministic, so two runs differ
// only when the KB or the engine did.
func cmdEvalSite(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("eval site", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	file := c.fs.String("questions", "", "JSON Lines question file: question, lang, expect, product, no_product, decline")
	langs := c.fs.String("lang", "", "comma-separated languages to ask (default: all in the file)")
	all := c.fs.Bool("replies", false, "report every reply (\"replies\"), hits too, not only the misses")
	if err := c.parseForAccount(args, id); err != nil {
		return err
	}
	if *file == "" {
		return usagef("eval site: --questions FILE is required")
	}
	want := splitList(*langs)
	for _, l := range want {
		if !i18n.Supported(l) {
			return usagef("eval site: --lang takes tr, en and de, not %q", l)
		}
	}
	f, err := os.Open(*file)
	if err != nil {
		return usagef("eval site: %v", err)
	}
	qs, err := eval.ReadQuestions(f)
	f.Close()
	if err != nil {
		return usagef("eval site: %s: %v", *file, err)
	}
	if len(want) > 0 {
		qs = slices.DeleteFunc(qs, func(q eval.SiteQuestion) bool { return !slices.Contains(want, q.Lang) })
		if len(qs) == 0 {
			return usagef("eval site: %s has no questions in %s", *file, *langs)
		}
	}
	st, err := c.openAccount(ctx, *id)
	if err != nil {
		return err
	}
	defer st.Close()
	// With an embedding provider configured the report measures what serve answers:
	// retrieval by meaning beside the keywords, over the vectors already stored.
	sem, err := newSemantic(c.cfg, st, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		return err
	}
	defer sem.close()
	opts := engine.Options{MinSimilarity: c.cfg.EmbedMinSimilarity}
	if sem != nil {
		opts.Semantic = sem.service
	}
	eng, err := engine.New(st, opts)
	if err != nil {
		return fmt.Errorf("start engine: %w", err)
	}
	rep, err := eval.Site(ctx, st, eng, *id, qs, eval.SiteOptions{AllReplies: *all})
	if err != nil {
		return err
	}
	if err := eval.WriteSiteTable(env.Stderr, rep); err != nil {
		return err
	}
	return c.print(rep)
}
