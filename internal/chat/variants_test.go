package chat

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"svc/internal/engine"
	"svc/internal/kb"
	"svc/internal/ratelimit"
	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// docsShopChat is a chat service over the engine's docs-beside-shop fixture: a wallet's
// documentation and a shop with two sibling phones and a water bottle, in tr, en and de.
func docsShopChat(t *testing.T, extra ...string) (*Service, store.Account) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	acct, _ := storetest.NewAccount(t, st, "Vault", 10_000_000)
	acct.SendRatePerMin = 10_000
	f, err := os.Open("../engine/testdata/variants.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := kb.Import(ctx, st, acct.ID, 0, f); err != nil {
		t.Fatalf("import: %v", err)
	}
	for _, r := range extra {
		if _, err := kb.Import(ctx, st, acct.ID, 0, strings.NewReader(r)); err != nil {
			t.Fatalf("import: %v", err)
		}
	}
	eng, err := engine.New(st, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return New(Deps{Store: st, Engine: eng, Limiter: ratelimit.NewMemory()}), acct
}

// TestSendVariantCardsFromCache: a price question about one model carries that model alone,
// composed and from the cache; its sibling's question is not served the first one's answer.
func TestSendVariantCardsFromCache(t *testing.T) {
	t.Parallel()
	svc, acct := docsShopChat(t)
	ctx := context.Background()
	for _, tt := range []struct{ message, want, price, sibling string }{
		{"Nova 12 Lite fiyatı ne kadar?", "Nova 12 Lite", "14.999,00 TL", "24.999,00 TL"},
		{"Nova 12 Pro fiyatı ne kadar?", "Nova 12 Pro", "24.999,00 TL", "14.999,00 TL"},
		{"How much is the Nova 12 Lite?", "Nova 12 Lite", "$399.00", "$699.00"},
		{"How much is the Nova 12 Pro?", "Nova 12 Pro", "$699.00", "$399.00"},
		{"Was kostet das Nova 12 Pro?", "Nova 12 Pro", "649,00 €", "379,00 €"},
		{"Was kostet das Nova 12 Lite?", "Nova 12 Lite", "379,00 €", "649,00 €"},
	} {
		for round := range 2 {
			res, err := svc.Send(ctx, acct, 1, tt.message)
			if err != nil {
				t.Fatal(err)
			}
			r := res.Reply
			if got := names(r.Products); !slices.Equal(got, []string{tt.want}) {
				t.Errorf("%q round %d (%s): products %q", tt.message, round, r.Source, got)
			}
			if !strings.Contains(r.Body, tt.price) || strings.Contains(r.Body, tt.sibling) {
				t.Errorf("%q round %d (%s): reply %q", tt.message, round, r.Source, r.Body)
			}
		}
	}
}

// TestSendHowToGetsNoCard: "the best way to …" gets the documentation and no product, when
// composed and when served again from the cache.
func TestSendHowToGetsNoCard(t *testing.T) {
	t.Parallel()
	svc, acct := docsShopChat(t)
	ctx := context.Background()
	for _, q := range []string{"What is the best way to back up my wallet?", "Cüzdanımı yedeklemenin en iyi yolu nedir?",
		"Was ist der beste Weg, meine Wallet zu sichern?"} {
		for round := range 2 {
			res, err := svc.Send(ctx, acct, 1, q)
			if err != nil {
				t.Fatal(err)
			}
			if r := res.Reply; len(r.Products) != 0 || !strings.Contains(r.Body, "25") {
				t.Errorf("%q round %d (%s): products %q, reply %q", q, round, r.Source, names(r.Products), r.Body)
			}
		}
	}
}

// TestSendNumberKeepsOneLanguage: a message that is only a number (the API reads
// {"message":42} as "42") takes the conversation's language, and so does every line of the
// reply: no English price line under a German or Turkish lead-in.
func TestSendNumberKeepsOneLanguage(t *testing.T) {
	t.Parallel()
	foreign := map[string][]string{"de": {"Price:", "$", "TL"}, "tr": {"Price:", "$", "Preis:"}, "en": {"Preis:", "Fiyat:", "TL"}}
	for _, lg := range []string{"de", "tr", "en"} {
		svc, acct, _ := salesChat(t)
		acct.Lang = lg
		res, err := svc.Send(context.Background(), acct, 1, "42")
		if err != nil {
			t.Fatal(err)
		}
		r := res.Reply
		if r.Lang != lg {
			t.Errorf("%s: reply in %s", lg, r.Lang)
		}
		for _, w := range foreign[lg] {
			if strings.Contains(r.Body, w) {
				t.Errorf("%s: reply %q has %q", lg, r.Body, w)
			}
		}
	}
}

// TestSendCuratedAnswerKeepsTheVariant: a curated answer about one model is no answer to the
// same question about its sibling, though the two differ in one word of six.
func TestSendCuratedAnswerKeepsTheVariant(t *testing.T) {
	t.Parallel()
	svc, acct := docsShopChat(t,
		`{"type":"qa","question":"How long does the Nova 12 Pro battery last?","answer":"The Nova 12 Pro's battery lasts two days.","lang":"en"}`,
		`{"type":"qa","question":"Nova 12 Pro'nun pil ömrü ne kadar?","answer":"Nova 12 Pro'nun pili iki gün dayanır.","lang":"tr"}`)
	ctx := context.Background()
	for _, tt := range []struct {
		message string
		curated bool
	}{
		{"How long does the Nova 12 Pro battery last?", true},
		{"How long does the Nova 12 Lite battery last?", false},
		{"Nova 12 Pro'nun pil ömrü ne kadar?", true},
		{"Nova 12 Lite'ın pil ömrü ne kadar?", false},
	} {
		res, err := svc.Send(ctx, acct, 1, tt.message)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Contains(res.Reply.Body, "Nova 12 Pro'")
		if got != tt.curated {
			t.Errorf("%q: reply %q (%s), curated answer %v", tt.message, res.Reply.Body, res.Reply.Source, got)
		}
	}
}
