package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"svc/internal/store"
)

func TestAnswerInQuestionLanguageWithSource(t *testing.T) {
	e, acct := shopKB(t)
	tests := []struct {
		lang, question string
		wantText       string // must be quoted in the reply
		wantSource     string // the source line
	}{
		{"tr", "ayakkabı iadesi nasıl yapılır", "Ayakkabıların iadesi 30 gün içinde ücretsizdir.",
			"Kaynak: İade ve değişim (https://kuzey-patika.example/tr/iade)"},
		{"tr", "nasil siparis veririm", "Ürünü sepete ekleyin", "Kaynak: Nasıl sipariş veririm?"},
		{"de", "Wie lange dauern Lieferungen?", "2–4 Werktagen",
			"Quelle: Lieferung (https://kuzey-patika.example/de/lieferung)"},
		{"en", "Can I return shoes for free?", "Shoes can be returned free of charge within 30 days.",
			"Source: Returns (https://kuzey-patika.example/en/returns)"},
		{"en", "When is the Istanbul store open?", "open every day from 10:00 to 20:00",
			"Source: Our stores (https://kuzey-patika.example/en/stores)"},
		{"en", "How much is the Storm Jacket?", "Price: 3,450.00 TL",
			"Source: Storm Jacket (https://kuzey-patika.example/en/product/storm-jacket)"},
		{"tr", "Fırtına mont kaça?", "Fiyat: 3.450,00 TL",
			"Kaynak: Fırtına Mont (https://kuzey-patika.example/tr/urun/firtina-mont)"},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: tt.question, Lang: tt.lang})
			if err != nil {
				t.Fatalf("Answer: %v", err)
			}
			if !a.Confident {
				t.Fatalf("not confident: %q", a.Text)
			}
			if !hasLeadIn(a.Text, tt.lang, store.ToneProfessional) {
				t.Errorf("reply %q does not start with a %s lead-in", a.Text, tt.lang)
			}
			if !strings.Contains(a.Text, tt.wantText) {
				t.Errorf("reply %q does not quote %q", a.Text, tt.wantText)
			}
			if !strings.HasSuffix(a.Text, "\n"+tt.wantSource) {
				t.Errorf("reply %q does not end with the source line %q", a.Text, tt.wantSource)
			}
			if len(a.DocIDs) != 1 || len(a.Passages) == 0 || a.DocIDs[0] != a.Passages[0].DocID {
				t.Errorf("DocIDs %v, passages %d: want the first passage's document cited", a.DocIDs, len(a.Passages))
			}
			if n := len([]rune(a.Text)); n > 700 {
				t.Errorf("reply is %d characters long", n)
			}
		})
	}
}

func TestAnswerToneChangesLeadIn(t *testing.T) {
	e, acct := shopKB(t)
	for _, lg := range []string{"tr", "en", "de"} {
		question := map[string]string{
			"tr": "Ayakkabı iadesi ücretli mi?",
			"en": "Can I return shoes for free?",
			"de": "Kann ich Schuhe zurückgeben?",
		}[lg]
		replies := map[string]string{}
		for _, tone := range []string{store.ToneProfessional, store.ToneWarm, store.ToneEnergetic} {
			a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: question, Lang: lg, Tone: tone})
			if err != nil {
				t.Fatalf("Answer: %v", err)
			}
			if !a.Confident || !hasLeadIn(a.Text, lg, tone) {
				t.Errorf("%s/%s: reply %q (confident %v) does not start with a lead-in of its tone", lg, tone, a.Text, a.Confident)
			}
			if tone == store.ToneProfessional && strings.Contains(a.Text, "!") {
				t.Errorf("%s: professional reply has an exclamation mark: %q", lg, a.Text)
			}
			replies[tone] = a.Text
		}
		if replies[store.ToneProfessional] == replies[store.ToneWarm] ||
			replies[store.ToneWarm] == replies[store.ToneEnergetic] ||
			replies[store.ToneProfessional] == replies[store.ToneEnergetic] {
			t.Errorf("%s: tones give identical replies: %q", lg, replies)
		}
	}
}

func TestAnswerTokenCounts(t *testing.T) {
	e, acct := shopKB(t)
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatalf("tokenizer: %v", err)
	}
	count := func(s string) int {
		n, err := codec.Count(s)
		if err != nil {
			t.Fatalf("count: %v", err)
		}
		return n
	}
	for _, s := range []string{"hello world", "Ayakkabıların iadesi 30 gün içinde ücretsizdir.", "Größe", ""} {
		if got, want := e.CountTokens(s), count(s); got != want {
			t.Errorf("CountTokens(%q) = %d, tokenizer says %d", s, got, want)
		}
	}

	question := "Can I return shoes for free?"
	a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: question, Lang: "en"})
	if err != nil {
		t.Fatalf("Answer: %v", err)
	}
	if a.OutputTokens <= 0 || a.OutputTokens != count(a.Text) {
		t.Errorf("OutputTokens = %d, the reply has %d", a.OutputTokens, count(a.Text))
	}
	// The engine read at least the question and the passage it quoted.
	if min := count(question) + count(a.Passages[0].Text); a.InputTokens < min {
		t.Errorf("InputTokens = %d, want at least %d", a.InputTokens, min)
	}

	fb, err := e.Answer(context.Background(), Request{AccountID: acct, Question: "What is quantum entanglement?", Lang: "en"})
	if err != nil {
		t.Fatalf("Answer: %v", err)
	}
	if fb.InputTokens != count("What is quantum entanglement?") || fb.OutputTokens != count(fb.Text) {
		t.Errorf("fallback tokens in %d out %d", fb.InputTokens, fb.OutputTokens)
	}
}

// TestAnswerUnanswerableFallsBack asks the shop KB questions it cannot answer, in all three
// languages and tones, and requires the fallback for every one of them.
func TestAnswerUnanswerableFallsBack(t *testing.T) {
	e, acct := shopKB(t)
	tones := []string{store.ToneProfessional, store.ToneWarm, store.ToneEnergetic}
	total, fell := 0, 0
	for lg, questions := range unanswerable {
		for i, question := range questions {
			tone := tones[i%len(tones)]
			a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: question, Lang: lg, Tone: tone})
			if err != nil {
				t.Fatalf("Answer(%q): %v", question, err)
			}
			total++
			if a.Confident {
				t.Errorf("%s %q answered confidently: %q", lg, question, a.Text)
				continue
			}
			fell++
			if want := phrasesFor(lg, tone).fallback; a.Text != want {
				t.Errorf("%s %q: fallback %q, want %q", lg, question, a.Text, want)
			}
			if len(a.DocIDs) != 0 || len(a.Passages) != 0 {
				t.Errorf("%s %q: fallback cites %v, %d passages", lg, question, a.DocIDs, len(a.Passages))
			}
		}
	}
	t.Logf("unanswerable questions falling back: %d of %d", fell, total)
}

func TestAnswerConfidentOnAnswerable(t *testing.T) {
	e, acct := shopKB(t)
	questions := []struct{ lang, question string }{
		{"tr", "Para iadesi ne zaman yapılır?"},
		{"tr", "Yurt dışına gönderim var mı?"},
		{"tr", "Mağaza hangi saatlerde açık?"},
		{"en", "How long does the refund take?"},
		{"en", "Do you ship abroad?"},
		{"en", "Is the storm jacket waterproof?"},
		{"de", "Wann erfolgt die Erstattung?"},
		{"de", "Liefern Sie ins Ausland?"},
		{"de", "Wann hat die Filiale in Istanbul geöffnet?"},
	}
	for _, q := range questions {
		a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: q.question, Lang: q.lang})
		if err != nil {
			t.Fatalf("Answer(%q): %v", q.question, err)
		}
		if !a.Confident {
			t.Errorf("%s %q fell back", q.lang, q.question)
		}
	}
}

func TestAnswerDetectsMissingLanguage(t *testing.T) {
	e, acct := shopKB(t)
	a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: "Wie lange dauert die Lieferung?"})
	if err != nil {
		t.Fatalf("Answer: %v", err)
	}
	if !strings.Contains(a.Text, "Quelle: ") {
		t.Errorf("reply to a German question without Lang is not German: %q", a.Text)
	}
	a, err = e.Answer(context.Background(), Request{AccountID: acct, Question: "Can I return shoes?", Lang: "EN-gb"})
	if err != nil {
		t.Fatalf("Answer: %v", err)
	}
	if !strings.Contains(a.Text, "Source: ") {
		t.Errorf("reply with Lang EN-gb is not English: %q", a.Text)
	}
}

func TestNewRejectsNilSearcher(t *testing.T) {
	if _, err := New(nil, Options{}); err == nil {
		t.Error("New(nil) succeeded")
	}
}

// Forget drops only what speeds answers up: the same question gets the same answer, analysed
// again, and the memos fill again.
func TestForgetKeepsAnswers(t *testing.T) {
	e, acct := shopKB(t)
	ask := func() Answer {
		t.Helper()
		a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: "How long does shipping take?", Lang: "en"})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	before := ask()
	if e.sentences.memo.Len() == 0 {
		t.Fatal("the answer left no analysed chunk in the memo")
	}
	e.Forget()
	if n := e.sentences.memo.Len(); n != 0 {
		t.Fatalf("%d chunks remembered after Forget", n)
	}
	if after := ask(); after.Text != before.Text || after.InputTokens != before.InputTokens {
		t.Fatalf("after Forget: %q (%d tokens), before: %q (%d tokens)", after.Text, after.InputTokens, before.Text, before.InputTokens)
	}
}
