package kb

import (
	"strings"
	"testing"

	"svc/internal/tokencount"
)

// Every chunk carries its text's token count, the number the engine bills when it reads the
// chunk, so that billing from the stored count equals counting the text again.
func TestChunksCarryTheirTokenCount(t *testing.T) {
	t.Parallel()
	c, err := tokencount.O200kBase()
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ParseJSONL(strings.NewReader(`{"type":"page","url":"https://x.test/a","title":"Versand","body":"<h1>Versand</h1><p>Wir liefern in 2–3 Werktagen. Rücksendungen sind 30 Tage kostenlos.</p>","lang":"de"}
{"type":"qa","question":"İade süresi kaç gün?","answer":"30 gün içinde ücretsiz iade edebilirsiniz.","lang":"tr"}
{"type":"product","name":"Trail Boot","price":"119,90 €","description":"Waterproof leather boot.","lang":"en"}`))
	if err != nil {
		t.Fatal(err)
	}
	docs, err := BuildAll(recs)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range docs {
		for _, ch := range d.Chunks {
			want, err := c.Count(ch.Text)
			if err != nil {
				t.Fatal(err)
			}
			if ch.Tokens != want || want == 0 {
				t.Errorf("chunk %q: %d tokens stored, %d counted", ch.Text, ch.Tokens, want)
			}
			n++
		}
	}
	if n < 3 {
		t.Fatalf("only %d chunks built", n)
	}
}
