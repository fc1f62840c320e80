package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"svc/internal/account"
	"svc/internal/engine"
	"svc/internal/eval"
	"svc/internal/kb"
)

func cmdKBImport(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("kb import", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	site := c.fs.Int64("site", 0, "site id the records belong to")
	pos, err := c.parse(args)
	if err != nil {
		return err
	}
	if err := c.requireAccount(*id); err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("kb import: exactly one FILE is required (- for standard input)")
	}
	in := env.Stdin
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return usagef("kb import: %v", err)
		}
		defer f.Close()
		in = f
	}
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := account.New(st, nil).Get(ctx, *id); err != nil {
		return err
	}
	res, err := kb.Import(ctx, st, *id, *site, in)
	if err != nil {
		var le *kb.LineError
		if errors.As(err, &le) {
			return usagef("kb import: %v", le)
		}
		return err
	}
	return c.print(res)
}

func splitList(v string) []string {
	var out []string
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func cmdEvalXQuAD(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("eval xquad", env)
	if err != nil {
		return err
	}
	dir := c.fs.String("dir", "../shared/eval/xquad-dev", "folder with xquad.<lang>.dev.json files")
	langs := c.fs.String("langs", "en,de,tr", "comma-separated languages")
	half := c.fs.String("half", "all", "half of the dev articles to report: a (tuned on), b (held out), all, or each (a, b and all)")
	if err := c.noPositional(args); err != nil {
		return err
	}
	halves, ok := map[string][]string{"all": {""}, "a": {eval.HalfA}, "b": {eval.HalfB},
		"each": {eval.HalfA, eval.HalfB, ""}}[*half]
	if !ok {
		return usagef("eval xquad: --half %q: want a, b, all or each", *half)
	}
	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		return usagef("eval xquad: --dir %s is not a folder", *dir)
	}
	for _, l := range splitList(*langs) {
		if _, err := os.Stat(filepath.Join(*dir, "xquad."+l+".dev.json")); err != nil {
			return usagef("eval xquad: no xquad.%s.dev.json in %s", l, *dir)
		}
	}
	reports, err := eval.XQuADHalves(ctx, *dir, splitList(*langs), halves, engine.Options{})
	if err != nil {
		return err
	}
	return c.print(map[string]any{"xquad": reports})
}
