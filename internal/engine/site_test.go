package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"svc/internal/kb"
	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// siteShop is one shop's KB on a host: the same kinds of documents on every site, so that a
// question finds something on each and only the scope decides which.
func siteShop(host, price, days string, extra ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"type":"product","name":"Alpine Tent","url":"https://%s/p/alpine-tent","price":%q,"category":"Tents","lang":"en","description":"A light two-person tent for alpine trekking. It is waterproof and weighs 1.4 kg."}`+"\n", host, price)
	for _, name := range extra {
		fmt.Fprintf(&b, `{"type":"product","name":%q,"url":"https://%s/p/%s","price":"50 €","category":"Tents","lang":"en","description":"A roomy family tent for camping trips. It is waterproof."}`+"\n",
			name, host, strings.ToLower(strings.ReplaceAll(name, " ", "-")))
	}
	fmt.Fprintf(&b, `{"type":"page","url":"https://%s/shipping","title":"Shipping","lang":"en","body":"Shipping takes %s business days within the country. Delivery is free over 100 €."}`+"\n", host, days)
	fmt.Fprintf(&b, `{"type":"qa","question":"Can I return a tent?","answer":"Tents can be returned within %s days of delivery.","lang":"en"}`+"\n", days)
	return b.String()
}

// siteKB is one account with two sites and documents of no site, and a second account
// with a site of its own. sites maps every document id of the store to its owner.
type siteKB struct {
	st           *sqlite.Store
	e            *Engine
	acct, other  int64
	siteA, siteB int64
	siteC        int64 // the other account's
	owner        map[int64]string
}

func newSiteKB(t *testing.T) siteKB {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	a, _ := storetest.NewAccount(t, st, "Two Sites", 0)
	o, _ := storetest.NewAccount(t, st, "Other", 0)
	k := siteKB{st: st, acct: a.ID, other: o.ID, owner: map[int64]string{}}
	newSite := func(accountID int64, url string) int64 {
		s := store.Site{AccountID: accountID, URL: url, Host: strings.TrimSuffix(strings.TrimPrefix(url, "https://"), "/")}
		if err := st.CreateSite(ctx, &s); err != nil {
			t.Fatalf("create site: %v", err)
		}
		return s.ID
	}
	k.siteA, k.siteB = newSite(a.ID, "https://a.test/"), newSite(a.ID, "https://b.test/")
	k.siteC = newSite(o.ID, "https://c.test/")
	for _, imp := range []struct {
		owner     string
		accountID int64
		siteID    int64
		jsonl     string
	}{
		{"A", a.ID, k.siteA, siteShop("a.test", "100 €", "2")},
		{"B", a.ID, k.siteB, siteShop("b.test", "900 €", "9", "Summit Tent")},
		{"none", a.ID, 0, siteShop("shop.test", "500 €", "5", "Valley Tent")},
		{"other", o.ID, k.siteC, siteShop("c.test", "700 €", "7", "Ridge Tent")},
	} {
		recs, err := kb.ParseJSONL(strings.NewReader(imp.jsonl))
		if err != nil {
			t.Fatal(err)
		}
		docs, err := kb.BuildAll(recs)
		if err != nil {
			t.Fatal(err)
		}
		for i := range docs {
			docs[i].SiteID = imp.siteID
		}
		if _, err := st.ImportDocuments(ctx, imp.accountID, docs); err != nil {
			t.Fatalf("import %s: %v", imp.owner, err)
		}
		for _, d := range docs {
			k.owner[d.ID] = imp.owner
		}
	}
	if k.e, err = New(st, Options{}); err != nil {
		t.Fatalf("new engine: %v", err)
	}
	return k
}

// check fails the test for every document of a that is not owned by want.
func (k siteKB) check(t *testing.T, what string, a Answer, want string) {
	t.Helper()
	for _, p := range a.Passages {
		if k.owner[p.DocID] != want {
			t.Errorf("%s: passage of %s (%s), want only %s", what, k.owner[p.DocID], p.URL, want)
		}
	}
	for _, id := range a.DocIDs {
		if k.owner[id] != want {
			t.Errorf("%s: document %d of %s, want only %s", what, id, k.owner[id], want)
		}
	}
	for _, c := range a.Cards {
		if k.owner[c.DocID] != want {
			t.Errorf("%s: card %q (%s) of %s, want only %s", what, c.Product.Name, c.Product.URL, k.owner[c.DocID], want)
		}
	}
}

var siteQuestions = []string{
	"How long does shipping take?",
	"Can I return a tent?",
	"What does the Alpine Tent cost?",
	"Which tents do you have?",
	"What products do you have?",
	"Is the Summit Tent waterproof?",
	"Do you sell the Valley Tent or the Ridge Tent?",
}

func TestForSiteZeroIsTheEngine(t *testing.T) {
	k := newSiteKB(t)
	if k.e.ForSite(0) != k.e {
		t.Fatal("ForSite(0) made a copy")
	}
	scoped := k.e.ForSite(k.siteA)
	if scoped == k.e || scoped.ForSite(0) != scoped {
		t.Fatal("ForSite(site) must copy, and ForSite(0) of the copy return it")
	}
	if _, ok := k.e.KB().(siteSearcher); ok {
		t.Fatal("the original engine became scoped")
	}
}

func TestForSiteAnswersOnlyFromItsSite(t *testing.T) {
	k := newSiteKB(t)
	ctx := context.Background()
	eA := k.e.ForSite(k.siteA)
	for _, q := range siteQuestions {
		for _, sales := range []bool{true, false} {
			a, err := eA.Answer(ctx, Request{AccountID: k.acct, Question: q, Lang: "en", SalesMode: sales})
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			k.check(t, q, a, "A")
		}
	}

	// Not vacuous: site A's own answers and cards come through.
	a, _ := eA.Answer(ctx, Request{AccountID: k.acct, Question: "How long does shipping take?", Lang: "en"})
	if !a.Confident || !strings.Contains(a.Text, "2 business days") {
		t.Fatalf("site A's shipping answer: %+v", a)
	}
	a, _ = eA.Answer(ctx, Request{AccountID: k.acct, Question: "What does the Alpine Tent cost?", Lang: "en", SalesMode: true})
	if len(a.Cards) != 1 || a.Cards[0].Product.Price != "100 €" {
		t.Fatalf("site A's tent card: %+v", a.Cards)
	}
	a, _ = eA.Answer(ctx, Request{AccountID: k.acct, Question: "What products do you have?", Lang: "en", SalesMode: true})
	if len(a.Cards) != 1 || a.Cards[0].Product.URL != "https://a.test/p/alpine-tent" {
		t.Fatalf("site A's catalogue: %+v", a.Cards)
	}

	// Site B, and the same engine scoped again, see site B only.
	for _, e := range []*Engine{k.e.ForSite(k.siteB), eA.ForSite(k.siteB)} {
		a, _ := e.Answer(ctx, Request{AccountID: k.acct, Question: "What does the Alpine Tent cost?", Lang: "en", SalesMode: true})
		k.check(t, "site B", a, "B")
		if len(a.Cards) == 0 || a.Cards[0].Product.Price != "900 €" {
			t.Fatalf("site B's tent card: %+v", a.Cards)
		}
	}

	// The unscoped engine still reads the whole account (and only it).
	a, _ = k.e.Answer(ctx, Request{AccountID: k.acct, Question: "Which tents do you have?", Lang: "en", SalesMode: true})
	owners := map[string]bool{}
	for _, c := range a.Cards {
		owners[k.owner[c.DocID]] = true
	}
	if !owners["A"] || !owners["B"] || !owners["none"] || owners["other"] {
		t.Fatalf("unscoped cards come from %v: %+v", owners, a.Cards)
	}
}

func TestForSiteRetrievalPaths(t *testing.T) {
	k := newSiteKB(t)
	ctx := context.Background()
	eA := k.e.ForSite(k.siteA)
	for _, q := range siteQuestions {
		ps, err := eA.Retrieve(ctx, k.acct, q, "en", 10)
		if err != nil {
			t.Fatal(err)
		}
		k.check(t, "retrieve "+q, Answer{Passages: ps}, "A")
	}
	ev, err := eA.Evidence(ctx, k.acct, "How long does shipping take?", "en")
	if err != nil || ev == "" {
		t.Fatalf("evidence: %q %v", ev, err)
	}
	var docID int64
	if _, err := fmt.Sscanf(ev, "%d:", &docID); err != nil || k.owner[docID] != "A" {
		t.Fatalf("evidence %q is from %s", ev, k.owner[docID])
	}
	// The names guard's lookup through the scoped searcher.
	named, err := ProductsIn(ctx, eA.KB(), k.acct, "Alpine Tent, Summit Tent, Valley Tent and Ridge Tent", "en")
	if err != nil || len(named) != 1 {
		t.Fatalf("products named: %v %+v", err, named)
	}
	k.check(t, "products in", Answer{Cards: named}, "A")
}

func TestForSiteNeverCrossesAccounts(t *testing.T) {
	k := newSiteKB(t)
	ctx := context.Background()
	// Site A asked for by the other account, and the other account's site asked for by
	// this one: the account id and the site must both match, so nothing is found.
	for _, tc := range []struct {
		name    string
		e       *Engine
		account int64
	}{
		{"site A for the other account", k.e.ForSite(k.siteA), k.other},
		{"the other account's site for this one", k.e.ForSite(k.siteC), k.acct},
	} {
		for _, q := range siteQuestions {
			a, err := tc.e.Answer(ctx, Request{AccountID: tc.account, Question: q, Lang: "en", SalesMode: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Passages) != 0 || len(a.Cards) != 0 || len(a.DocIDs) != 0 || a.Confident {
				t.Fatalf("%s, %q: %+v", tc.name, q, a)
			}
		}
	}
	// The other account's own site answers from its documents only.
	a, _ := k.e.ForSite(k.siteC).Answer(ctx, Request{AccountID: k.other, Question: "Which tents do you have?", Lang: "en", SalesMode: true})
	k.check(t, "other account", a, "other")
	if len(a.Cards) == 0 {
		t.Fatal("the other account's site found no tents")
	}
}
