package engine

import (
	"reflect"
	"testing"

	"svc/internal/textindex"
)

func TestAnalyzeQuestion(t *testing.T) {
	tests := []struct {
		lang, question string
		kind           qtype
		terms          []string // analyzed term texts
		weak           []bool
	}{
		{"en", "How many tackles did Luke Kuechly register?", askNumber, []string{"tackl", "luke", "kuech", "regist"}, nil},
		{"en", "How long does shipping take?", askDuration, []string{"ship", "take"}, []bool{false, true}},
		{"en", "In what year did Tesla die?", askDate, []string{"tesla", "die"}, nil},
		{"en", "Who founded the company?", askPerson, []string{"found", "compani"}, nil},
		{"en", "Where is the store?", askPlace, []string{"store"}, nil},
		{"en", "Can I return shoes?", askOther, []string{"return", "shoe"}, nil},
		{"de", "Wie lange dauert die Lieferung?", askDuration, []string{"dauert", "liefer"}, []bool{true, false}},
		{"de", "In welchem Jahr starb Tesla?", askDate, []string{"starb", "tesla"}, nil},
		{"de", "Wer gründete die Firma?", askPerson, []string{"grundet", "firma"}, nil},
		{"de", "Wie viele Filialen gibt es?", askNumber, []string{"filial"}, nil},
		{"de", "Was kostet der Versand?", askNumber, []string{"versand"}, nil},
		{"tr", "Kargo ne kadar sürer?", askDuration, []string{"kargo"}, nil},
		{"tr", "Hangi yılda kuruldu?", askDate, []string{"kurul"}, nil},
		{"tr", "Kaç mağazanız var?", askNumber, []string{"magaz"}, nil},
		{"tr", "Şirketi kim kurdu?", askPerson, []string{"sirke", "kurdu"}, nil},
		{"tr", "Mağaza nerede?", askPlace, []string{"magaz"}, nil},
		// The question phrase is kept when nothing else is left.
		{"en", "How long?", askDuration, []string{"long"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.question, func(t *testing.T) {
			q := analyzeQuestion(tt.question, tt.lang)
			if q.kind != tt.kind {
				t.Errorf("kind = %d, want %d", q.kind, tt.kind)
			}
			var got []string
			for _, term := range q.terms {
				got = append(got, term.Text)
			}
			if !reflect.DeepEqual(got, tt.terms) {
				t.Errorf("terms = %q, want %q", got, tt.terms)
			}
			want := tt.weak
			if want == nil {
				want = make([]bool, len(tt.terms))
			}
			if !reflect.DeepEqual(q.weak, want) {
				t.Errorf("weak = %v, want %v", q.weak, want)
			}
		})
	}
}

func TestHasCue(t *testing.T) {
	tests := []struct {
		sentence, lang string
		kind           qtype
		qwords         []string
		want           bool
	}{
		{"Kuechly led the team with 118 tackles.", "en", askNumber, nil, true},
		{"Kuechly led the team with many tackles.", "en", askNumber, nil, false},
		{"The game was played in 2016.", "en", askNumber, []string{"2016"}, false}, // already in the question
		{"There were three of them.", "en", askNumber, nil, true},
		{"Delivery takes 2–4 business days.", "en", askDuration, nil, true},
		{"Shipping costs 79.90 TL.", "en", askDuration, nil, false},
		{"Die Lieferung dauert 5 Werktage.", "de", askDuration, nil, true},
		{"Teslimat 2 gün sürer.", "tr", askDuration, nil, true},
		{"He died in 1943.", "en", askDate, nil, true},
		{"It is open from 10:00 to 20:00.", "en", askDate, nil, true},
		{"Geöffnet ist montags bis samstags, am Sonntag geschlossen.", "de", askDate, nil, true},
		{"Mağaza Mayıs ayında açıldı.", "tr", askDate, nil, true},
		{"It was founded by Nikola Tesla.", "en", askPerson, []string{"founded"}, true},
		{"It was founded long ago.", "en", askPerson, nil, false},
		{"Die Firma gründete Nikola Tesla.", "de", askPerson, nil, true},
		{"Die Firma gründete ein Ingenieur.", "de", askPerson, nil, false}, // one capitalised noun is no name
		{"Shoes are free.", "en", askOther, nil, false},
	}
	for _, tt := range tests {
		qwords := map[string]bool{}
		for _, w := range tt.qwords {
			qwords[w] = true
		}
		if got := hasCue(tt.sentence, tt.kind, tt.lang, qwords); got != tt.want {
			t.Errorf("hasCue(%q, %d) = %v, want %v", tt.sentence, tt.kind, got, tt.want)
		}
	}
}

func TestSoftMatch(t *testing.T) {
	tests := []struct {
		query textindex.Term
		term  string
		lang  string
		want  bool
	}{
		{textindex.Term{Text: "finanzi"}, "finanziert", "de", true},
		{textindex.Term{Text: "warschaus"}, "warschau", "de", true},
		{textindex.Term{Text: "demonstration"}, "funkdemonstration", "de", true},
		{textindex.Term{Text: "demonstration"}, "funkdemonstration", "en", false}, // suffixes only in German
		{textindex.Term{Text: "lief"}, "liefer", "de", false},                     // too short
		{textindex.Term{Text: "return"}, "return", "en", false},                   // a full match, not a near one
		{textindex.Term{Text: "constitut"}, "constitution", "en", true},
		{textindex.Term{Text: "magaz"}, "magazi", "tr", false}, // Turkish is already prefix-matched
		{textindex.Term{Text: "iade", Prefix: true}, "iades", "tr", false},
	}
	for _, tt := range tests {
		if got := softMatch(tt.query, tt.term, tt.lang); got != tt.want {
			t.Errorf("softMatch(%+v, %q, %s) = %v, want %v", tt.query, tt.term, tt.lang, got, tt.want)
		}
	}
}

func TestMatchTerm(t *testing.T) {
	tests := []struct {
		query textindex.Term
		term  string
		want  bool
	}{
		{textindex.Term{Text: "iade", Prefix: true}, "iades", true},
		{textindex.Term{Text: "iade", Prefix: true}, "ia", false},
		{textindex.Term{Text: "iade"}, "iades", false},
		{textindex.Term{Text: "14"}, "14", true},
		{textindex.Term{Text: "14"}, "140", false},
	}
	for _, tt := range tests {
		if got := matchTerm(tt.query, tt.term); got != tt.want {
			t.Errorf("matchTerm(%+v, %q) = %v, want %v", tt.query, tt.term, got, tt.want)
		}
	}
}

func TestBigramWeight(t *testing.T) {
	q := query{terms: make([]textindex.Term, 3), idf: []float64{1, 2, 3}}
	tests := []struct {
		seq  []int
		want float64
	}{
		{[]int{0, 1}, 1.5},            // first pair adjacent
		{[]int{1, -1, 0}, 1.5},        // reversed, one term apart
		{[]int{0, -1, -1, 1}, 0},      // too far apart
		{[]int{0, 1, 2}, 1.5 + 2.5},   // both pairs
		{[]int{2, 0}, 0},              // not adjacent in the question
		{[]int{1, -1, 2, -1, 0}, 2.5}, // 1-2 within reach, 2-0 is no pair
	}
	for _, tt := range tests {
		if got := q.bigramWeight(tt.seq); got != tt.want {
			t.Errorf("bigramWeight(%v) = %v, want %v", tt.seq, got, tt.want)
		}
	}
}

func TestLowerCaseTerms(t *testing.T) {
	text := "Wer sang die Nationalhymne beim Spiel, und wer spielte?"
	qa := analyzeQuestion(text, "de")
	got := make(map[string]bool)
	for i, term := range qa.terms {
		got[term.Text] = qa.lower[i]
	}
	// German capitalises nouns: "sang" and "spielte" are verbs, the rest are nouns.
	want := map[string]bool{"sang": true, "nationalhymn": false, "spiel": false, "spielt": true}
	for term, w := range want {
		if l, ok := got[term]; !ok || l != w {
			t.Errorf("term %q: lower %v (present %v), want %v; terms %v", term, l, ok, w, qa.terms)
		}
	}
	if en := analyzeQuestion("who sang the anthem?", "en"); en.lower != nil {
		t.Errorf("English question has lower-case flags %v", en.lower)
	}
}
