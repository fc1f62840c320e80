package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"svc/internal/engine"
	"svc/internal/store"
	"svc/internal/testsets"
)

// Owners' test sets from the command line (DECISIONS.md, "Owner test sets"): `svc tests
// import`, `run` and `list`. The rules are internal/testsets'.

// testItem is one test as `svc tests list` prints it.
type testItem struct {
	ID         int64    `json:"id"`
	Q          string   `json:"q"`
	Lang       string   `json:"lang"`
	Expect     []string `json:"expect"`
	Answerable bool     `json:"answerable"`
	Product    string   `json:"product,omitempty"`
	Origin     string   `json:"origin"`
	CreatedAt  string   `json:"created_at"`
}

// testList is what `svc tests list` prints.
type testList struct {
	Tests []testItem `json:"tests"`
}

// cmdTestsImport adds the tests of a JSON Lines file (or standard input, "-"): every line or
// none, each bad line reported with its number (exit 2).
func cmdTestsImport(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("tests import", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	pos, err := c.parse(args)
	if err != nil {
		return err
	}
	if err := c.requireAccount(*id); err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("tests import: exactly one FILE is required (- for standard input)")
	}
	in := env.Stdin
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return usagef("tests import: %v", err)
		}
		defer f.Close()
		in = f
	}
	st, err := c.openAccount(ctx, *id)
	if err != nil {
		return err
	}
	defer st.Close()
	res, err := testsets.New(testsets.Deps{Store: st}).Import(ctx, *id, in)
	if err != nil {
		var ie *testsets.ImportError
		if errors.As(err, &ie) {
			return usagef("tests import: %s", ie.Error())
		}
		return err
	}
	return c.print(res)
}

// cmdTestsRun runs the account's whole set through the answer pipeline as serve answers
// (the built-in engine, or the configured model, billed like a Studio call) and prints the
// report; it writes no conversation. A run that stopped early (the balance ran out, the
// command was interrupted) is printed too, and exits 1.
func cmdTestsRun(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("tests run", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	st, err := c.openForAccount(ctx, args, id)
	if err != nil {
		return err
	}
	defer st.Close()
	log := c.logger()
	// With an embedding provider configured the run asks what serve answers: retrieval by
	// meaning beside the keywords, over the vectors already stored.
	sem, err := newSemantic(c.cfg, st, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		return err
	}
	defer sem.close()
	engs, err := newEngines(c.cfg, st, log, nil, semanticSearch(sem))
	if err != nil {
		return err
	}
	svc := testsets.New(testsets.Deps{Store: st, Answerer: engs.answerer, Billed: engs.model != nil, Log: log,
		HoldTTL: c.cfg.HoldTTL})
	rep, err := svc.RunNow(ctx, *id, store.TestTriggerCLI)
	if err != nil {
		return err
	}
	if err := c.print(rep); err != nil {
		return err
	}
	if rep.Status != store.TestRunDone {
		return fmt.Errorf("tests run: run %d %s", rep.RunID, rep.Error)
	}
	return nil
}

// semanticSearch is the engine's retrieval by meaning: a nil interface without a provider,
// not a nil *semantic.Service in one.
func semanticSearch(p *semanticParts) engine.Semantic {
	if p == nil {
		return nil
	}
	return p.service
}

// cmdTestsList prints the account's tests.
func cmdTestsList(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("tests list", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	st, err := c.openForAccount(ctx, args, id)
	if err != nil {
		return err
	}
	defer st.Close()
	cases, err := testsets.New(testsets.Deps{Store: st}).List(ctx, *id)
	if err != nil {
		return err
	}
	out := testList{Tests: make([]testItem, 0, len(cases))}
	for _, t := range cases {
		out.Tests = append(out.Tests, testItem{ID: t.ID, Q: t.Question, Lang: t.Lang, Expect: t.Expect, Answerable: t.Answerable,
			Product: t.Product, Origin: t.Origin, CreatedAt: t.CreatedAt.UTC().Format(time.RFC3339)})
	}
	return c.print(out)
}
