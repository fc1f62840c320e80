package insights

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

var testNow = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

// questionsOf makes questions of texts in lang, an hour apart, newest first.
func questionsOf(lang string, texts ...string) []Question {
	qs := make([]Question, len(texts))
	for i, t := range texts {
		qs[i] = Question{ID: int64(i + 1), Text: t, Lang: lang, At: testNow.Add(-time.Duration(i) * time.Hour), Outcome: Answered}
	}
	return qs
}

func group(qs []Question) []Language {
	return Group(qs, Options{RecentSince: testNow.AddDate(0, 0, -7)})
}

// topicOf finds the topic of the question text in the grouping ("" for Other, "?" when the
// question is in none of the examples: pass MaxExamples large enough).
func topicOf(langs []Language, text string) string {
	for _, l := range langs {
		for _, tp := range l.Topics {
			for _, e := range tp.Examples {
				if e.Text == text {
					if tp.Other {
						return ""
					}
					return tp.Terms[0]
				}
			}
		}
	}
	return "?"
}

func groupAll(qs []Question) []Language {
	return Group(qs, Options{RecentSince: testNow.AddDate(0, 0, -7), MaxExamples: len(qs)})
}

// The fixture's questions land in the topics a person would put them in, in each language,
// inflected forms together through the language layer: Turkish suffixes (siparişim,
// siparişlerimi, iadesi, iadeyi, kargom, kargoya) and the ability form (ödeyebilir → öde,
// joining ödeme), German plurals and compounds (Bestellungen, Lieferzeit, geliefert,
// Rücksendeadresse, Versandkosten), English stems (orders, returning, refunded, delivered).
func TestGroupsAsAPersonWould(t *testing.T) {
	t.Parallel()
	fx := fixture()
	var qs []Question
	for i, c := range fx {
		qs = append(qs, Question{ID: int64(i + 1), Text: c.text, Lang: c.lang, At: testNow.Add(-time.Duration(i) * time.Hour),
			Outcome: c.outcome})
	}
	got := groupAll(qs)
	placed, marked := 0, 0
	for _, c := range fx {
		if c.topic == "" {
			continue
		}
		marked++
		if tp := topicOf(got, c.text); tp == c.topic {
			placed++
		} else {
			t.Errorf("%s %q is in topic %q, want %q", c.lang, c.text, tp, c.topic)
		}
	}
	t.Logf("%d of %d questions in the topic a person would choose", placed, marked)
	labels := map[string][]string{}
	for _, l := range got {
		for _, tp := range l.Topics {
			if !tp.Other {
				labels[l.Lang] = append(labels[l.Lang], strings.Join(tp.Label, " · "))
			}
		}
	}
	want := map[string][]string{
		"en": {"order", "return", "delivery", "refund", "shipping"},
		"tr": {"iade", "ödeme", "sipariş", "kargo"},
		"de": {"Bestellung", "Lieferung", "Rücksendung", "Versandkosten", "Zahlung"},
	}
	for l, w := range want {
		if !reflect.DeepEqual(labels[l], w) {
			t.Errorf("%s topics %q, want %q", l, labels[l], w)
		}
	}
	if langs := []string{got[0].Lang, got[1].Lang, got[2].Lang}; !slices.Equal(langs, []string{"en", "tr", "de"}) {
		t.Errorf("languages in the order %v, want the most asked first", langs)
	}
}

// Pairs of a word's inflected forms that the language layer brings together: each pair
// alone (with a question on something else beside it) is one topic.
func TestInflectedFormsGroupTogether(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang, a, b string
	}{
		{"tr", "İade nasıl yapılır?", "İadesi ne zaman yatar"},
		{"tr", "İade şartları", "İadeyi kim öder"},
		{"tr", "Siparişim nerede", "Siparişlerimi göremiyorum"},
		{"tr", "Kargo ücreti", "Kargoya verildi mi"},
		{"tr", "Kapıda ödeme var mı", "Taksitle ödeyebilir miyim"},
		{"tr", "Faturamı nereden indiririm", "Fatura adresi"},
		{"en", "I want a refund", "Refunded yet?"},
		{"en", "Delivery times", "Was my package delivered?"},
		{"en", "Orders placed yesterday", "Where is my order"},
		{"en", "Returning a gift", "Return policy"},
		{"de", "Wo ist meine Bestellung", "Bestellungen ändern"},
		{"de", "Lieferung nach Österreich", "Wann wird geliefert"},
		{"de", "Wie lange dauert die Lieferung", "Lieferzeit"},
		{"de", "Kann ich mit Kreditkarte bezahlen?", "Zahlung per Rechnung"},
		{"de", "Rücksendung kostenlos", "Rücksendeadresse"},
		{"de", "Versand in die Schweiz", "Versandkosten"},
		{"de", "Zahlung per Rechnung", "Welche Zahlungsarten gibt es"},
	} {
		got := groupAll(questionsOf(c.lang, c.a, c.b, otherSubject[c.lang]))
		ta, tb := topicOf(got, c.a), topicOf(got, c.b)
		if ta == "" || ta != tb {
			t.Errorf("%s: %q is in %q, %q in %q; want one topic", c.lang, c.a, ta, c.b, tb)
		}
		if to := topicOf(got, otherSubject[c.lang]); to != "" {
			t.Errorf("%s: the unrelated %q is in %q", c.lang, otherSubject[c.lang], to)
		}
	}
}

var otherSubject = map[string]string{"tr": "Mağaza saatleri", "en": "Store opening hours", "de": "Öffnungszeiten des Ladens"}

// Words that only share their first letters stay apart: "kargo" and "kart", "card" and
// "cardigan", a three-letter Turkish word and the two longer words it begins.
func TestDifferentWordsStayApart(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		lang    string
		a, b, x string // a and b share a word's beginning only; x shares a's word
	}{
		{"tr", "Kargo ücreti", "Kart ile ödeme", "Kargom nerede"},
		{"en", "Do you sell cardigans", "Can I pay by card", "Cardigan sizes"},
		{"tr", "Kargom nerede", "Karton kutu var mı", "Kargo ücreti"},
	} {
		got := groupAll(questionsOf(c.lang, c.a, c.b, c.x))
		if ta, tb := topicOf(got, c.a), topicOf(got, c.b); ta == tb {
			t.Errorf("%s: %q and %q are both in %q", c.lang, c.a, c.b, ta)
		}
	}
	// "kar" (a word of its own) joins one of the words it begins, and does not join them.
	got := groupAll(questionsOf("tr", "Kargo ücreti", "Kargom nerede", "Kartla ödeme", "Kartım geçmedi", "Kar yağınca kargo gelir mi"))
	if a, b := topicOf(got, "Kargo ücreti"), topicOf(got, "Kartla ödeme"); a == b {
		t.Errorf("kargo and kart questions both in %q", a)
	}
}

// A word nearly every question holds (the shop's own subject) does not swallow the rest: a
// question's first key term is its rarest shared one, so returns of shoes are a return
// question, while the questions that say nothing but "shoes" make the shoes topic.
func TestAWordEveryQuestionHoldsDoesNotSwallowTheRest(t *testing.T) {
	t.Parallel()
	var texts []string
	for range 5 {
		texts = append(texts, "Do your shoes run small?", "Which shoe size should I take?", "Are the shoes waterproof?",
			"Shoe care tips", "Shoes for wide feet?")
	}
	texts = append(texts, "Can I return shoes?", "Can I return shoes I wore once?", "Return policy", "How do returns work")
	got := groupAll(questionsOf("en", texts...))
	for _, q := range []string{"Can I return shoes?", "Can I return shoes I wore once?", "Return policy"} {
		if tp := topicOf(got, q); tp != "return" {
			t.Errorf("%q is in %q, want return", q, tp)
		}
	}
	if tp := topicOf(got, "Shoe care tips"); tp != "shoe" {
		t.Errorf("shoe care is in %q, want shoe", tp)
	}
	ret := got[0].Topics[1]
	if strings.Join(ret.Label, " · ") != "return · shoes" || ret.Asked != 4 {
		t.Errorf("the return topic: %q, %d questions", ret.Label, ret.Asked)
	}
}

// A question asked again and again in the same words is a topic even when it shares no term
// with any other question; asked once, it is left for Other, as are questions of stop words,
// numbers and weak words alone.
func TestRepeatedQuestionAndOther(t *testing.T) {
	t.Parallel()
	got := groupAll(questionsOf("tr", "Mağazanız İstanbul'da mı?", "mağazanız istanbul'da mı", "Mağazanız  İSTANBUL'DA mı?",
		"Merhaba", "12345", "Ne kadar sürer?", "Garanti süresi", "Garanti belgesi", "Tek soru burada"))
	l := got[0]
	if len(l.Topics) != 3 {
		t.Fatalf("topics %+v", l.Topics)
	}
	store := l.Topics[0]
	if store.Terms[0] != "istan" || strings.Join(store.Label, " · ") != "istanbul" || store.Asked != 3 || len(store.Examples) != 1 {
		t.Errorf("the repeated question's topic: %+v", store)
	}
	// The three spellings are one example, written as last asked (the first: newest first).
	if e := store.Examples[0]; e.Text != "Mağazanız İstanbul'da mı?" || e.Asked != 3 || e.ID != 1 {
		t.Errorf("its example: %+v", e)
	}
	if g := l.Topics[1]; g.Terms[0] != "garan" || g.Asked != 2 {
		t.Errorf("the guarantee topic: %+v", g)
	}
	other := l.Topics[2]
	if !other.Other || other.Asked != 4 || len(other.Terms) != 0 {
		t.Errorf("other: %+v", other)
	}
}

// A topic counts its questions in the window and the last days, what became of them and
// how their replies were rated.
func TestFigures(t *testing.T) {
	t.Parallel()
	qs := []Question{
		{ID: 1, Text: "Where is my order?", At: testNow, Outcome: Answered, Rating: Helpful},
		{ID: 2, Text: "Cancel my order", At: testNow.Add(-24 * time.Hour), Outcome: Declined, Rating: NotHelpful},
		{ID: 3, Text: "Order status", At: testNow.AddDate(0, 0, -6), Outcome: Answered, Rating: Helpful},
		{ID: 4, Text: "where is my ORDER ?", At: testNow.AddDate(0, 0, -8), Outcome: Unserved},
		{ID: 5, Text: "Change order address", At: testNow.AddDate(0, 0, -20), Outcome: Declined},
	}
	for i := range qs {
		qs[i].Lang = "en"
	}
	got := group(qs)
	tp := got[0].Topics[0]
	want := Figures{Asked: 5, Recent: 3, Answered: 2, Declined: 2, Helpful: 2, NotHelpful: 1}
	if tp.Figures != want || tp.Rated() != 3 {
		t.Errorf("figures %+v, want %+v", tp.Figures, want)
	}
	// Examples: the question asked twice first (as last asked), then the newest; three.
	var ex []string
	for _, e := range tp.Examples {
		ex = append(ex, fmt.Sprintf("%s ×%d #%d", e.Text, e.Asked, e.ID))
	}
	if w := []string{"Where is my order? ×2 #1", "Cancel my order ×1 #2", "Order status ×1 #3"}; !slices.Equal(ex, w) {
		t.Errorf("examples %q, want %q", ex, w)
	}
	if e := tp.Examples[1]; e.Declined != 1 || !e.LastAt.Equal(testNow.Add(-24*time.Hour)) || e.Lang != "en" {
		t.Errorf("the declined example: %+v", e)
	}
}

// The same questions in any order give the same topics.
func TestDeterministic(t *testing.T) {
	t.Parallel()
	var qs []Question
	for i, c := range fixture() {
		qs = append(qs, Question{ID: int64(i + 1), Text: c.text, Lang: c.lang, At: testNow.Add(-time.Duration(i%7) * time.Hour),
			Outcome: c.outcome})
	}
	want := group(slices.Clone(qs))
	r := rand.New(rand.NewPCG(7, 7))
	for range 20 {
		r.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
		if got := group(slices.Clone(qs)); !reflect.DeepEqual(got, want) {
			t.Fatalf("a shuffled input grouped otherwise:\n got %+v\nwant %+v", got, want)
		}
	}
}

// A language gets at most MaxTopics topics; the questions of the rest are counted in Other.
func TestMaxTopics(t *testing.T) {
	t.Parallel()
	qs := questionsOf("en", "order status", "order late", "refund please", "refund late?", "shipping cost", "shipping time",
		"invoice copy", "invoice address")
	got := Group(qs, Options{RecentSince: testNow, MaxTopics: 2})
	l := got[0]
	if len(l.Topics) != 3 || !l.Topics[2].Other || l.Topics[2].Asked != 4 || l.Questions != 8 {
		t.Fatalf("topics %+v", l.Topics)
	}
	if l.Topics[0].Asked+l.Topics[1].Asked != 4 {
		t.Errorf("the two topics hold %d and %d", l.Topics[0].Asked, l.Topics[1].Asked)
	}
	if got := Group(nil, Options{}); len(got) != 0 {
		t.Errorf("no questions: %+v", got)
	}
}

// A question in a language the layer does not know is read as English.
func TestOtherLanguagesReadAsEnglish(t *testing.T) {
	t.Parallel()
	got := group(append(questionsOf("", "refund status", "refund please"), questionsOf("fr", "refund now")...))
	if len(got) != 1 || got[0].Lang != "en" || got[0].Topics[0].Asked != 3 {
		t.Errorf("got %+v", got)
	}
}

// BenchmarkGroup groups 1,000 questions of three languages, the most the overview reads:
// the fixture's questions asked again and again (as/repeated), or each worded apart
// (distinct: every text analyzed).
func BenchmarkGroup(b *testing.B) {
	fx := fixture()
	for _, distinct := range []bool{false, true} {
		r := rand.New(rand.NewPCG(1, 2))
		qs := make([]Question, 1000)
		for i := range qs {
			c := fx[r.IntN(len(fx))]
			text := c.text
			if distinct {
				text = fmt.Sprintf("%s (%d)", text, i)
			}
			qs[i] = Question{ID: int64(i + 1), Text: text, Lang: c.lang, At: testNow.Add(-time.Duration(i) * time.Minute),
				Outcome: c.outcome}
		}
		name := "repeated"
		if distinct {
			name = "distinct"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				Group(qs, Options{RecentSince: testNow.AddDate(0, 0, -7)})
			}
		})
		// Through a warm memo, as the overview groups on a visit after the first.
		m, _ := NewMemo(2 * len(qs))
		NewCorpus(qs, m)
		b.Run(name+"/memo", func(b *testing.B) {
			for b.Loop() {
				NewCorpus(qs, m).Group(nil, Options{RecentSince: testNow.AddDate(0, 0, -7)})
			}
		})
	}
}
