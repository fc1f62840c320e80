package api_test

import (
	"strings"
	"testing"

	"svc/internal/account"
)

// TestDemoRepliesOpenDifferently: on the demo KB, the built-in engine's replies to questions
// of different kinds do not all open with one canned phrase. Each language's questions ask
// for steps, a yes or no, a price, a duration, a time, a place; their lead-ins (the text up to
// the first colon) must be of at least four different wordings, and the same question asked
// on another account opens the same way.
func TestDemoRepliesOpenDifferently(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	questions := map[string][]string{
		"en": {"How do I send a product for repair?", "Can I return shoes for free?", "How much is the Poyraz Rain Jacket?",
			"How long does a repair take?", "When is the Kadıköy store open?", "Where is your store in Istanbul?",
			"Which jacket size for a 100 cm chest?"},
		"de": {"Wie kann ich meine Bestellung verfolgen?", "Gibt es eine Garantie?", "Was kostet der Versand?",
			"Wie lange dauern Lieferungen nach Deutschland?", "Wann ist der Laden in Kadıköy geöffnet?",
			"Wo ist Ihr Geschäft in Istanbul?", "Welche Schuhgröße brauche ich?"},
		"tr": {"Siparişimi nasıl takip ederim?", "Kadıköy mağazası pazar günü açık mı?", "Kargo ücreti ne kadar?",
			"Türkiye içinde teslimat kaç gün sürer?", "Garanti süresi ne kadar?", "İstanbul'daki mağazanız nerede?",
			"Kaçkar botunun fiyatı ne kadar?"},
	}
	lead := func(body string) string {
		if i := strings.Index(body, ": "); i > 0 {
			return body[:i]
		}
		return ""
	}
	for lg, qs := range questions {
		t.Run(lg, func(t *testing.T) {
			_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(10_000_000)), SendRatePerMin: ptr(1000)})
			_, again := h.tenant(account.Settings{BalanceMicro: ptr(int64(10_000_000)), SendRatePerMin: ptr(1000)})
			seen := map[string]bool{}
			answered := 0
			for _, q := range qs {
				d, _ := h.send(key, q)
				rep := d.Messages[1]
				if rep.Source != "ai" {
					continue
				}
				answered++
				seen[lead(rep.Body)] = true
				if d2, _ := h.send(again, q); lead(d2.Messages[1].Body) != lead(rep.Body) {
					t.Errorf("%q opens with %q on one account and %q on another", q, lead(rep.Body), lead(d2.Messages[1].Body))
				}
			}
			if answered < 5 || len(seen) < 4 {
				t.Errorf("%d of %d questions answered, with %d lead-ins: %q", answered, len(qs), len(seen), leadList(seen))
			}
		})
	}
}

func leadList(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
