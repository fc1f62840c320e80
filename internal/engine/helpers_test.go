package engine

import (
	"context"
	"os"
	"testing"

	"svc/internal/kb"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// shopKB imports testdata/shop.jsonl, a small fictional outdoor shop in three languages,
// into a fresh SQLite store and returns an engine over it and the account id.
func shopKB(t *testing.T) (*Engine, int64) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	acct, _ := storetest.NewAccount(t, st, "Kuzey Patika", 0)
	f, err := os.Open("testdata/shop.jsonl")
	if err != nil {
		t.Fatalf("open fixture: %v", err)
	}
	defer f.Close()
	if _, err := kb.Import(ctx, st, acct.ID, 0, f); err != nil {
		t.Fatalf("import: %v", err)
	}
	e, err := New(st, Options{})
	if err != nil {
		t.Fatalf("new engine: %v", err)
	}
	return e, acct.ID
}

// unanswerable are questions the shop KB has no answer to, per language: other subjects
// entirely, and some that share a word with it (Istanbul, price, order) without being about
// the shop.
var unanswerable = map[string][]string{
	"en": {
		"What is quantum entanglement?",
		"Who won the football match last night?",
		"What will the weather be like tomorrow?",
		"What is the capital of Australia?",
		"How do I bake a chocolate cake?",
		"What is the current price of Bitcoin?",
		"Who wrote War and Peace?",
		"How many moons does Jupiter have?",
		"Can you recommend a good movie?",
		"How do I change the oil in my car?",
		"What causes earthquakes?",
		"Is it going to rain in Istanbul this weekend?",
		"What was the score of the Galatasaray game?",
		"Explain the theory of relativity.",
		"How do I install Python on Windows?",
		"Do you sell laptops?",
	},
	"de": {
		"Was ist Quantenverschränkung?",
		"Wer hat gestern das Fußballspiel gewonnen?",
		"Wie wird das Wetter morgen?",
		"Was ist die Hauptstadt von Australien?",
		"Wie backe ich einen Schokoladenkuchen?",
		"Wie hoch ist der Bitcoin-Kurs heute?",
		"Wer hat Krieg und Frieden geschrieben?",
		"Wie viele Monde hat Jupiter?",
		"Können Sie mir einen guten Film empfehlen?",
		"Wie wechsle ich das Öl in meinem Auto?",
		"Was verursacht Erdbeben?",
		"Regnet es am Wochenende in Istanbul?",
		"Wie ist das Spiel von Bayern München ausgegangen?",
		"Erklären Sie mir die Relativitätstheorie.",
		"Wie installiere ich Python unter Windows?",
		"Verkaufen Sie auch Laptops?",
	},
	"tr": {
		"Kuantum dolanıklığı nedir?",
		"Dün akşamki futbol maçını kim kazandı?",
		"Yarın hava nasıl olacak?",
		"Avustralya'nın başkenti neresidir?",
		"Çikolatalı kek nasıl yapılır?",
		"Bitcoin'in güncel fiyatı ne kadar?",
		"Savaş ve Barış'ı kim yazdı?",
		"Jüpiter'in kaç uydusu var?",
		"Bana iyi bir film önerir misiniz?",
		"Arabamın yağını nasıl değiştiririm?",
		"Depremlere ne sebep olur?",
		"Bu hafta sonu İstanbul'da yağmur yağacak mı?",
		"Galatasaray maçı kaç kaç bitti?",
		"Görelilik teorisini açıklar mısınız?",
		"Windows'a Python nasıl kurulur?",
		"Dizüstü bilgisayar satıyor musunuz?",
	},
}
