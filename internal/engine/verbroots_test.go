package engine

import (
	"context"
	"testing"
)

// TestTurkishVerbTheKBNeverUses: a Turkish verb in the ability form whose root the KB never
// starts a word with ("kiralayabilir", to rent) is the subject of the question, not a verb
// form the KB words differently: the question falls back though its other words meet. A
// verb whose root the KB uses in another form ("gönderebilir", "gönderilir") still answers.
func TestTurkishVerbTheKBNeverUses(t *testing.T) {
	t.Parallel()
	e, acct := docsKB(t, Options{},
		[3]string{"Kargo", "Hafta içi saat 14:00'e kadar verilen siparişler aynı gün kargoya verilir. Hafta sonu verilen siparişler pazartesi gönderilir.", "tr"},
		[3]string{"Çadırlar", "Uludağ 2 kişilik çadır 2,3 kg ağırlığındadır ve 5 dakikada kurulur.", "tr"})
	tests := []struct {
		question string
		answered bool
	}{
		{"Hafta sonu için çadır kiralayabilir miyim?", false},
		{"Hafta sonu sipariş gönderebilir misiniz?", true},
	}
	for _, tt := range tests {
		a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: tt.question, Lang: "tr"})
		if err != nil {
			t.Fatal(err)
		}
		if a.Confident != tt.answered {
			t.Errorf("%q: answered %v, want %v: %q", tt.question, a.Confident, tt.answered, a.Text)
		}
	}
}
