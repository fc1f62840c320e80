package cli

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"svc/internal/account"
	"svc/internal/engine"
	"svc/internal/errs"
	"svc/internal/eval"
	"svc/internal/ingest"
	"svc/internal/kb"
	"svc/internal/store"
)

func cmdKBImport(ctx context.Context, args []string, env Env) error {
	c, err := newCommand("kb import", env)
	if err != nil {
		return err
	}
	id := c.accountFlag()
	site := c.fs.Int64("site", 0, "site id the records belong to")
	lang := c.fs.String("lang", "", "a document's language (tr, en, de); detected when left out")
	title := c.fs.String("title", "", "a document's title; the file's name when left out")
	url := c.fs.String("url", "", "a document's address (http or https), if it has one")
	products := c.fs.Bool("products", false, "FILE is a products spreadsheet (CSV or XLSX with a header row)")
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
	opt := ingest.Options{Name: pos[0], Lang: *lang, Title: *title, URL: *url}
	if err := checkDocFlags(opt); err != nil {
		return err
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
	// A document or a spreadsheet is read whole (ingest bounds it); a JSON Lines file is
	// streamed as before. The first bytes tell them apart (ingest.JSONLines).
	br := bufio.NewReaderSize(in, 4096)
	head, _ := br.Peek(4096)
	jsonl := !*products && (pos[0] == "-" || ingest.JSONLines(pos[0], head))
	if jsonl && (*lang != "" || *title != "" || *url != "") {
		return usagef("kb import: --lang, --title and --url are for documents; a JSON Lines file says them per line")
	}
	st, err := c.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if _, err := account.New(st, nil).Get(ctx, *id); err != nil {
		return err
	}
	switch {
	case *products:
		return c.importProducts(ctx, st, *id, *site, br, opt)
	case !jsonl:
		return c.importDocument(ctx, st, *id, *site, br, opt)
	}
	res, err := kb.Import(ctx, st, *id, *site, br)
	if err != nil {
		var le *kb.LineError
		if errors.As(err, &le) {
			return usagef("kb import: %v", le)
		}
		return err
	}
	return c.print(res)
}

// checkDocFlags checks --lang and --url before anything is read.
func checkDocFlags(opt ingest.Options) error {
	switch opt.Lang {
	case "", "tr", "en", "de":
	default:
		return usagef("kb import: --lang %q: want tr, en or de", opt.Lang)
	}
	if opt.URL != "" {
		rec := kb.Record{Type: kb.TypePage, URL: opt.URL, Title: "x", Body: "x"}
		if err := kb.Validate(&rec); err != nil {
			return usagef("kb import: --url: %v", err)
		}
	}
	return nil
}

// importDocument reads one document file (PDF, Office, CSV, Markdown, text, HTML) and
// stores what it yields as uploaded documents. A bad file is a bad argument (exit 2) naming
// its problem; nothing is stored.
func (c *command) importDocument(ctx context.Context, st store.Store, accountID, siteID int64, in io.Reader, opt ingest.Options) error {
	res, err := ingest.Read(ctx, in, opt)
	if err != nil {
		if e, ok := errs.As(err); ok && ingest.Code(err) != "" {
			return usagef("kb import: %s", e.Safe)
		}
		return err
	}
	for i := range res.Documents {
		res.Documents[i].SiteID, res.Documents[i].Origin = siteID, store.OriginUpload
	}
	counts, err := st.ImportDocuments(ctx, accountID, res.Documents)
	if err != nil {
		return err
	}
	ids := make([]int64, 0, len(res.Documents))
	for _, d := range res.Documents {
		ids = append(ids, d.ID)
	}
	return c.print(map[string]any{"format": res.Format, "documents": ids, "chunks": res.Chunks(),
		"unchanged": counts.Unchanged})
}

// importProducts upserts a products spreadsheet's rows (by SKU, else URL). Bad rows are a
// bad argument listing them; nothing is stored.
func (c *command) importProducts(ctx context.Context, st store.Store, accountID, siteID int64, in io.Reader, opt ingest.Options) error {
	docs, err := ingest.Products(ctx, in, opt)
	if err != nil {
		if e, ok := errs.As(err); ok && e.Kind != errs.Internal {
			return usagef("kb import: %s", e.Safe)
		}
		return err
	}
	for i := range docs {
		docs[i].SiteID, docs[i].Origin = siteID, store.OriginUpload
	}
	res, err := st.UpsertProducts(ctx, accountID, docs)
	if err != nil {
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
