package textindex

import "testing"

func TestAbilityRoot(t *testing.T) {
	t.Parallel()
	cases := []struct {
		word, root string
		ok         bool
	}{
		{"ödeyebilir", "öde", true},
		{"ödeyebilirim", "öde", true},
		{"gelebilir", "gel", true},
		{"kullanabiliyor", "kullan", true},
		{"bulabilecek", "bul", true},
		{"bulamaz", "bul", true},
		{"yapamaz", "", false},          // a light verb keeps the whole word's prefix
		{"yapabiliyorsunuz", "", false}, // ("taksit yapabiliyorsunuz")
		{"ödeyemem", "öde", true},
		{"gelemiyor", "gel", true},
		{"alabilir", "", false},  // a two-letter root is too short a prefix
		{"edebilir", "", false},  // so is "ed"
		{"kabiliyet", "", false}, // not a verb ending
		{"stabilite", "", false}, // nor is this
		{"ödeme", "", false},     // a verbal noun keeps its own term
		{"bekleme", "", false},
		{"otomobil", "", false},
	}
	for _, c := range cases {
		root, ok := abilityRoot(c.word)
		if ok != c.ok || root != c.root {
			t.Errorf("abilityRoot(%q) = %q, %v; want %q, %v", c.word, root, ok, c.root, c.ok)
		}
	}
}

// TestQueryTermsAbilityRoot checks that a Turkish question with "can I pay" finds a page that
// writes "ödeme" (payment): the ability form's own prefix ("ödeye") is on no page.
func TestQueryTermsAbilityRoot(t *testing.T) {
	t.Parallel()
	q := QueryTerms("Taksitle ödeyebilir miyim?", "tr")
	page := IndexTerms("Kredi kartıyla ödemede 2, 3, 6 ve 9 taksit seçenekleri vardır.", "tr")
	found := false
	for _, qt := range q {
		for _, p := range page {
			if qt.Text == "ode" && qt.Prefix && p == "odeme" {
				found = true
			}
		}
	}
	if !found {
		t.Fatalf("query terms %v do not reach %q through the root of ödeyebilir", q, page)
	}
}
