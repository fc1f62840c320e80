package demo_test

import (
	"context"
	"strings"
	"testing"

	"svc/internal/chat"
	"svc/internal/demo"
	"svc/internal/engine"
	"svc/internal/kb"
	"svc/internal/ratelimit"
	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// demoChat is the chat pipeline over the demo KB with Sales Mode on, as `svc demo` serves it.
func demoChat(t *testing.T) (*chat.Service, store.Account) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	acct, _ := storetest.NewAccount(t, st, "Yolcu Outdoor", 10_000_000)
	acct.SendRatePerMin = 10_000
	if _, err := kb.Import(ctx, st, acct.ID, 0, demo.Reader()); err != nil {
		t.Fatalf("import: %v", err)
	}
	eng, err := engine.New(st, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return chat.New(chat.Deps{Store: st, Engine: eng, Limiter: ratelimit.NewMemory()}), acct
}

// TestDemoSalesAnswers: the demo's product failures of issue 15, asked as a visitor asks
// them, composed and then served from the cache. A question about returns is answered with
// the returns rule and no product card, even when it names a product the shop sells; a
// how-to question with "best" gets the pages; a real product question keeps its card.
func TestDemoSalesAnswers(t *testing.T) {
	t.Parallel()
	svc, acct := demoChat(t)
	ctx := context.Background()
	for _, tt := range []struct {
		message string
		want    string   // the reply holds it
		cards   []string // the products carded
		never   string   // the reply never holds it
	}{
		{"What is your return policy for a sleeping bag?", "30 days", nil, "$105.00"},
		{"Rücksendung eines Schlafsacks – was kostet das?", "5,90 €", nil, "99,90 €"},
		{"Uyku tulumu iadesi ne kadar?", "49,90 TL", nil, "3.390,00 TL"},
		{"What is the best way to wash a sleeping bag?", "easy to wash", nil, "$105.00"},
		{"Was ist der beste Weg, einen Schlafsack zu waschen?", "leicht zu waschen", nil, "99,90 €"},
		{"How much is the Erciyes sleeping bag?", "$105.00", []string{"Erciyes -5 Sleeping Bag"}, "49,90"},
		{"Was kostet der Erciyes Schlafsack?", "99,90 €", []string{"Erciyes -5 Schlafsack"}, "5,90"},
		{"Erciyes uyku tulumu ne kadar?", "3.390,00 TL", []string{"Erciyes -5 Uyku Tulumu"}, "49,90"},
	} {
		for round := range 2 {
			res, err := svc.Send(ctx, acct, 1, tt.message)
			if err != nil {
				t.Fatal(err)
			}
			r := res.Reply
			var got []string
			for _, p := range r.Products {
				got = append(got, p.Name)
			}
			if strings.Join(got, "|") != strings.Join(tt.cards, "|") {
				t.Errorf("%q round %d (%s): products %q, want %q", tt.message, round, r.Source, got, tt.cards)
			}
			if !strings.Contains(r.Body, tt.want) || strings.Contains(r.Body, tt.never) {
				t.Errorf("%q round %d (%s): reply %q, want %q and never %q", tt.message, round, r.Source, r.Body, tt.want, tt.never)
			}
		}
	}
}
