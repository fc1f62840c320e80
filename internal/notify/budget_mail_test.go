package notify

import (
	"strings"
	"testing"
	"time"

	"svc/internal/i18n"
)

// testTexts are the mails' words from the embedded catalog, as a worker built without one
// reads them.
var testTexts = newMailTexts(i18n.MustLoad())

func TestCleanLabel(t *testing.T) {
	for in, want := range map[string]string{
		"  Summer\r\nBcc: x@y  ": "Summer Bcc: x@y",
		"Mağaza\t\u2028Öğrenci":  "Mağaza Öğrenci",
		"":                       "",
		strings.Repeat("é", 90):  strings.Repeat("é", 80) + "…",
	} {
		if got := cleanLabel(in); got != want {
			t.Errorf("cleanLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBudgetMailWithoutPublicURL(t *testing.T) {
	f := budgetFacts{TokenID: 7, Name: "svc_emb_ab12cd34", Day: time.Date(2026, 12, 31, 0, 0, 0, 0, time.UTC),
		LimitMicro: 60_000_000, SpendMicro: 60_000_500, ExampleUSD: "100.0000", EndpointURL: updatePath}
	for _, lang := range []string{"en", "tr", "de", "fr", ""} {
		subject, text := testTexts.budgetMail(lang, f)
		if !strings.Contains(subject, "svc_emb_ab12cd34") || strings.ContainsAny(subject, "\r\n") {
			t.Fatalf("%s subject %q", lang, subject)
		}
		for _, want := range []string{"\n  POST /api/v1/chat/embedTokenUpdate\n", "  id=7\n", "  daily_budget_usd=100.0000\n",
			"60.0000 USD", "60.0005 USD", "2026", "2027", "00:00"} {
			if !strings.Contains(text, want) {
				t.Fatalf("%s text lacks %q:\n%s", lang, want, text)
			}
		}
		if strings.Contains(text, "curl") || strings.Contains(text, "http") {
			t.Fatalf("%s: a link without a public URL:\n%s", lang, text)
		}
	}
	// Unknown languages get English.
	en, _ := testTexts.budgetMail("en", f)
	if fr, _ := testTexts.budgetMail("fr", f); fr != en {
		t.Fatalf("fallback subject %q", fr)
	}
	// Dates in each language, across the year's end.
	for lang, want := range map[string]string{"en": "1 January 2027", "tr": "1 Ocak 2027", "de": "1. Januar 2027"} {
		if _, text := testTexts.budgetMail(lang, f); !strings.Contains(text, want) {
			t.Fatalf("%s: the reset day %q is missing:\n%s", lang, want, text)
		}
	}
	// At the highest budget no example amount is offered.
	f.ExampleUSD = ""
	if _, text := testTexts.budgetMail("tr", f); !strings.Contains(text, "daily_budget_usd=YENI_BUTCE") {
		t.Fatalf("placeholder missing:\n%s", text)
	}
}
