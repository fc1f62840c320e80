package intel

import (
	"testing"

	"svc/internal/grounding"
	"svc/internal/store"
)

// TestCompareRowsKeepTheVariant: comparing two siblings by name gives each item its own
// model's row, whichever comes first among the sources.
func TestCompareRowsKeepTheVariant(t *testing.T) {
	t.Parallel()
	src := grounding.Sources{Products: []store.Product{{Name: "Nova 12 Pro", Price: "$699.00"}, {Name: "Nova 12 Lite", Price: "$399.00"}}}
	for _, lg := range []string{"en", "tr", "de"} {
		rows := orderProducts(Request{Items: []string{"Nova 12 Lite", "Nova 12 Pro"}}, src, newCorpus(src, lg))
		if len(rows) != 2 || rows[0].Name != "Nova 12 Lite" || rows[1].Name != "Nova 12 Pro" {
			t.Errorf("%s: rows %+v", lg, rows)
		}
		// "Nova 12 Pro Max" holds every term of "Nova 12 Pro" and comes first; the Pro is meant.
		max := grounding.Sources{Products: []store.Product{{Name: "Nova 12 Pro Max", Price: "$899.00"}, src.Products[0]}}
		rows = orderProducts(Request{Items: []string{"Nova 12 Pro"}}, max, newCorpus(max, lg))
		if len(rows) != 1 || rows[0].Name != "Nova 12 Pro" {
			t.Errorf("%s: rows %+v", lg, rows)
		}
	}
}
