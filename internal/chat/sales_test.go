package chat

import (
	"context"
	"slices"
	"strings"
	"testing"

	"svc/internal/demo"
	"svc/internal/engine"
	"svc/internal/kb"
	"svc/internal/ratelimit"
	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// curatedBoot is a curated answer that names a product, imported next to the demo KB.
const curatedBoot = `{"type":"qa","question":"Which boot do you recommend for rocky trails?","answer":"We recommend the Kaçkar Pro Trekking Boot: its YolcuGrip sole holds even on wet rock.","lang":"en"}`

// salesChat returns a chat service over a fresh SQLite store holding the demo KB and
// curatedBoot, the account (Sales Mode on, a balance, no rate limit to speak of) and the
// KB's products.
func salesChat(t *testing.T) (*Service, store.Account, []store.Product) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	acct, _ := storetest.NewAccount(t, st, "Sales", 10_000_000)
	acct.SendRatePerMin = 10_000
	for _, r := range []string{string(demo.KB()), curatedBoot} {
		if _, err := kb.Import(ctx, st, acct.ID, 0, strings.NewReader(r)); err != nil {
			t.Fatalf("import: %v", err)
		}
	}
	recs, err := kb.ParseJSONL(demo.Reader())
	if err != nil {
		t.Fatal(err)
	}
	var products []store.Product
	for _, r := range recs {
		if r.Type == kb.TypeProduct {
			products = append(products, store.Product{Name: r.Name, URL: r.URL, Price: r.Price, Category: r.Category, Image: r.Image})
		}
	}
	eng, err := engine.New(st, engine.Options{})
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	return New(Deps{Store: st, Engine: eng, Limiter: ratelimit.NewMemory()}), acct, products
}

func names(ps []store.Product) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

// checkReply asserts that a reply's products are the KB's, at most MaxProductCards, and
// that its text names no product outside them, by full name or brand.
func checkReply(t *testing.T, m store.Message, products []store.Product) {
	t.Helper()
	if len(m.Products) > MaxProductCards {
		t.Errorf("%d products", len(m.Products))
	}
	for _, p := range m.Products {
		if !slices.Contains(products, p) {
			t.Errorf("product %+v is not in the KB", p)
		}
	}
	body := strings.ToLower(m.Body)
	for _, p := range products {
		if slices.ContainsFunc(m.Products, func(c store.Product) bool { return c.Name == p.Name }) {
			continue
		}
		brand := strings.ToLower(strings.Fields(p.Name)[0])
		if strings.Contains(body, strings.ToLower(p.Name)) || strings.Contains(body, brand) &&
			!slices.ContainsFunc(m.Products, func(c store.Product) bool {
				return strings.HasPrefix(strings.ToLower(c.Name), brand+" ")
			}) {
			t.Errorf("reply names %q without its card: %q", p.Name, m.Body)
		}
	}
}

// TestSendSalesModeProducts sends product and other questions with Sales Mode on and off,
// twice each: the second time the answer comes from the cache and must carry the same
// cards (or none).
func TestSendSalesModeProducts(t *testing.T) {
	svc, acct, products := salesChat(t)
	ctx := context.Background()
	tests := []struct {
		message string
		sales   bool
		want    []string
	}{
		{"Which tent do you recommend?", true, []string{"Uludağ 2 Tent"}},
		{"Kamp için hangi çadırı önerirsiniz?", true, []string{"Uludağ 2 Kişilik Çadır"}},
		{"Kaçkar botunun fiyatı ne kadar?", true, []string{"Kaçkar Pro Trekking Botu"}},
		{"Gibt es Schlafsäcke?", true, []string{"Erciyes -5 Schlafsack"}},
		{"Welche Produkte haben Sie?", true, []string{"Erciyes -5 Schlafsack", "Aladağ 35 Rucksack",
			"Poyraz Regenjacke", "Uludağ 2 Zelt", "Toros Carbon Trekkingstöcke (Paar)", "Kaçkar Pro Trekkingstiefel"}},
		{"What is your return policy?", true, nil},
		{"How long does delivery take?", true, nil},
		{"Kargo ücreti ne kadar?", true, nil},
		{"Was kostet der Versand nach Deutschland?", true, nil},
		{"Is the rain jacket waterproof?", false, nil},
		{"Hangi ürünleriniz var?", false, nil},
		{"Was kostet der Trekkingstiefel Kaçkar?", false, nil},
	}
	for _, tt := range tests {
		a := acct
		a.SalesMode = tt.sales
		for round, source := range []string{"", store.SourceCacheTenant} {
			res, err := svc.Send(ctx, a, 1, tt.message)
			if err != nil {
				t.Fatalf("%q: %v", tt.message, err)
			}
			r := res.Reply
			if source != "" && r.Source != source {
				t.Errorf("%q round %d: source %q, want %q", tt.message, round, r.Source, source)
			}
			if got := names(r.Products); !slices.Equal(got, tt.want) && (len(got) != len(tt.want) || !sameNames(got, tt.want)) {
				t.Errorf("%q round %d (%s): products %q, want %q; reply %q", tt.message, round, r.Source, got, tt.want, r.Body)
			}
			if tt.sales {
				checkReply(t, r, products)
			}
		}
	}
}

func sameNames(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// TestSendCachedAnswerFollowsSalesMode: an answer cached with Sales Mode on is served with
// its cards while the mode is on and without them once it is off.
func TestSendCachedAnswerFollowsSalesMode(t *testing.T) {
	svc, acct, _ := salesChat(t)
	ctx := context.Background()
	q := "Do you sell sleeping bags?"
	first, err := svc.Send(ctx, acct, 1, q)
	if err != nil {
		t.Fatal(err)
	}
	if first.Reply.Source != store.SourceAI || !slices.Equal(names(first.Reply.Products), []string{"Erciyes -5 Sleeping Bag"}) {
		t.Fatalf("first: %s %q", first.Reply.Source, names(first.Reply.Products))
	}
	off := acct
	off.SalesMode = false
	second, err := svc.Send(ctx, off, 1, q)
	if err != nil {
		t.Fatal(err)
	}
	if second.Reply.Source != store.SourceCacheTenant || len(second.Reply.Products) != 0 {
		t.Errorf("Sales Mode off: %s %q", second.Reply.Source, names(second.Reply.Products))
	}
	third, err := svc.Send(ctx, acct, 1, q)
	if err != nil {
		t.Fatal(err)
	}
	if third.Reply.Source != store.SourceCacheTenant || !slices.Equal(names(third.Reply.Products), []string{"Erciyes -5 Sleeping Bag"}) ||
		third.Reply.Body != first.Reply.Body {
		t.Errorf("Sales Mode on again: %s %q %q", third.Reply.Source, names(third.Reply.Products), third.Reply.Body)
	}
}

// TestSendCuratedAnswerCards: a curated answer that recommends a product carries that
// product with Sales Mode on, and nothing with it off; a curated answer about something
// else carries nothing.
func TestSendCuratedAnswerCards(t *testing.T) {
	svc, acct, products := salesChat(t)
	ctx := context.Background()
	res, err := svc.Send(ctx, acct, 1, "Which boot do you recommend for rocky trails?")
	if err != nil {
		t.Fatal(err)
	}
	r := res.Reply
	if r.Source != store.SourceCacheTenant || !strings.HasPrefix(r.Body, "We recommend the Kaçkar") {
		t.Fatalf("not the curated answer: %s %q", r.Source, r.Body)
	}
	if got := names(r.Products); !slices.Equal(got, []string{"Kaçkar Pro Trekking Boot"}) {
		t.Errorf("curated products %q", got)
	}
	checkReply(t, r, products)

	off := acct
	off.SalesMode = false
	res, err = svc.Send(ctx, off, 1, "Which boot do you recommend for rocky trails?")
	if err != nil || len(res.Reply.Products) != 0 {
		t.Errorf("Sales Mode off: %v %q", err, names(res.Reply.Products))
	}
	res, err = svc.Send(ctx, acct, 1, "What is your return policy?")
	if err != nil || res.Reply.Source != store.SourceCacheTenant || len(res.Reply.Products) != 0 {
		t.Errorf("return policy: %v %s %q", err, res.Reply.Source, names(res.Reply.Products))
	}
}
