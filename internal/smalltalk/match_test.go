package smalltalk

import "testing"

func TestMatch(t *testing.T) {
	tests := []struct {
		text string
		kind Kind
		lang string
	}{
		// English
		{"hi", Greeting, ""},
		{"Hi there!", Greeting, "en"},
		{"hello 👋", Greeting, "en"},
		{"Good morning", Greeting, "en"},
		{"hey everyone", Greeting, "en"},
		{"how are you?", Greeting, "en"},
		{"thanks", Thanks, "en"},
		{"Thank you so much!!", Thanks, "en"},
		{"thanks a lot", Thanks, "en"},
		{"many thanks :)", Thanks, "en"},
		{"ok", Thanks, ""},
		{"OK, thanks", Thanks, "en"},
		{"bye", Goodbye, "en"},
		{"Have a nice day!", Goodbye, "en"},
		{"thanks, bye", Goodbye, "en"},
		{"see you later", Goodbye, "en"},
		// German
		{"hallo", Greeting, "de"},
		{"Hallo zusammen!", Greeting, "de"},
		{"Guten Tag", Greeting, "de"},
		{"guten morgen :)", Greeting, "de"},
		{"Moin", Greeting, "de"},
		{"Wie geht's?", Greeting, "de"},
		{"danke", Thanks, "de"},
		{"Vielen Dank!", Thanks, "de"},
		{"danke schön", Thanks, "de"},
		{"Dankeschön", Thanks, "de"},
		{"alles klar, danke", Thanks, "de"},
		{"tschüss", Goodbye, "de"},
		{"tschuess", Goodbye, "de"},
		{"Auf Wiedersehen", Goodbye, "de"},
		{"danke und tschüss", Goodbye, "de"},
		{"schönen Tag noch", Goodbye, "de"},
		{"schoenen Tag noch", Goodbye, "de"},
		{"hi zusammen", Greeting, "de"},
		// Turkish
		{"merhaba!", Greeting, "tr"},
		{"Merhabalar", Greeting, "tr"},
		{"selam", Greeting, "tr"},
		{"İyi günler", Greeting, "tr"},
		{"iyi gunler", Greeting, "tr"},
		{"herkese merhaba", Greeting, "tr"},
		{"Günaydın", Greeting, "tr"},
		{"kolay gelsin", Greeting, "tr"},
		{"teşekkürler", Thanks, "tr"},
		{"Çok teşekkürler!", Thanks, "tr"},
		{"cok tesekkur ederim", Thanks, "tr"},
		{"sağ olun", Thanks, "tr"},
		{"TEŞEKKÜRLER", Thanks, "tr"},
		{"tamam teşekkürler", Thanks, "tr"},
		{"görüşürüz", Goodbye, "tr"},
		{"hoşça kalın", Goodbye, "tr"},
		{"teşekkürler, iyi geceler", Goodbye, "tr"},
		// Mixed languages give no single language.
		{"hello, danke", Thanks, ""},
	}
	for _, tt := range tests {
		kind, lang, ok := Match(tt.text)
		if !ok || kind != tt.kind || lang != tt.lang {
			t.Errorf("Match(%q) = (%q, %q, %v), want (%q, %q, true)", tt.text, kind, lang, ok, tt.kind, tt.lang)
		}
	}
}

func TestMatchRejectsQuestions(t *testing.T) {
	for _, text := range []string{
		"",
		"👋",
		"?!",
		"hi, where is my order?",
		"thanks, but my parcel is still missing",
		"hello, do you ship to Austria?",
		"ok so what now",
		"good",
		"hello world",
		"thank you for nothing",
		"you too",
		"hallo, wo ist meine Bestellung?",
		"danke, und was kostet der Versand?",
		"guten Tag, ich habe eine Frage",
		"morgen",
		"merhaba siparişim nerede",
		"teşekkürler ama ürün bozuk geldi",
		"iyi",
		"selam kargo ne zaman gelir",
		"hi hi hi hi hi hi hi hi hi hi hi hi hi",
	} {
		if kind, lang, ok := Match(text); ok {
			t.Errorf("Match(%q) = (%q, %q, true), want no match", text, kind, lang)
		}
	}
}
