package intel

import (
	"context"
	"os"
	"sync"
	"testing"

	"svc/internal/demo"
	"svc/internal/engine"
	"svc/internal/grounding"
	"svc/internal/kb"
	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
	"svc/internal/textindex"
)

// fixture is the demo KB imported into the embedded store, with the built-in engine's
// retrieval over it: the caller of this package retrieves sources the same way.
type fixture struct {
	st      *sqlite.Store
	eng     *engine.Engine
	account int64
	catalog []store.ChunkHit
	dir     string
}

var (
	fixOnce sync.Once
	fix     *fixture
	fixErr  error
)

func demoFixture(t *testing.T) *fixture {
	t.Helper()
	fixOnce.Do(func() {
		ctx := context.Background()
		dir, err := os.MkdirTemp("", "intel-test-")
		if err != nil {
			fixErr = err
			return
		}
		st, err := sqlite.Open(ctx, dir, sqlite.Options{})
		if err != nil {
			fixErr = err
			return
		}
		acct, _ := storetest.NewAccount(t, st, "Yolcu Outdoor", 0)
		if _, err := kb.Import(ctx, st, acct.ID, 0, demo.Reader()); err != nil {
			fixErr = err
			return
		}
		eng, err := engine.New(st, engine.Options{})
		if err != nil {
			fixErr = err
			return
		}
		catalog, err := st.Products(ctx, acct.ID, store.ProductQuery{Limit: 500})
		if err != nil {
			fixErr = err
			return
		}
		fix = &fixture{st: st, eng: eng, account: acct.ID, catalog: catalog, dir: dir}
	})
	if fixErr != nil {
		t.Fatalf("demo fixture: %v", fixErr)
	}
	return fix
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fix != nil {
		fix.st.Close()
		os.RemoveAll(fix.dir)
	}
	os.Exit(code)
}

// sources gathers what the caller would for text in lg: the six best passages (one per
// document) and their products, the named products first.
func (f *fixture) sources(t *testing.T, text, lg string, named []string) grounding.Sources {
	t.Helper()
	src := grounding.Sources{Business: "Yolcu Outdoor", Passages: []grounding.Passage{}, Products: []store.Product{},
		ProductText: map[string]string{}}
	seen := map[string]bool{}
	add := func(p store.Product, text string) {
		k := textindex.Fold(p.Name)
		if p.Name == "" || seen[k] || len(src.Products) >= 8 {
			return
		}
		seen[k] = true
		src.Products = append(src.Products, p)
		src.ProductText[p.Name] = text
	}
	for _, name := range named {
		if h, ok := f.product(name, lg); ok {
			add(*h.Product, h.Text)
		}
	}
	ps, err := f.eng.Passages(context.Background(), f.account, text, lg, 6)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.Product != nil {
			add(*p.Product, p.Text)
		}
		src.Passages = append(src.Passages, grounding.Passage{DocID: p.DocID, Type: p.DocType, Title: p.Title,
			URL: p.URL, Text: p.Text, Lang: p.Lang})
	}
	return src
}

// product finds a product of the catalog by name, in lg: the one whose name shares the most
// analyzed terms with it.
func (f *fixture) product(name, lg string) (store.ChunkHit, bool) {
	want := textindex.IndexTerms(name, lg)
	var best store.ChunkHit
	bestN := 0
	for _, h := range f.catalog {
		if h.Product == nil || h.Lang != lg {
			continue
		}
		have := map[string]bool{}
		for _, t := range textindex.IndexTerms(h.Product.Name, h.Lang) {
			have[t] = true
		}
		n := 0
		for _, t := range want {
			if have[t] {
				n++
			}
		}
		if n > bestN {
			best, bestN = h, n
		}
	}
	return best, bestN > 0
}
