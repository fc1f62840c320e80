package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// placesShop is a shop whose FAQ entry answers the shipping price for one country and whose
// shipping page lists the others.
var placesShop = kbLines(
	map[string]string{
		"type":     "qa",
		"question": "How much does shipping to France cost?",
		"answer":   "Shipping to France costs 12 €; free from 100 €.",
		"lang":     "en",
	},
	map[string]string{
		"type":     "qa",
		"question": "Was kostet der Versand nach Frankreich?",
		"answer":   "Der Versand nach Frankreich kostet 12 €; ab 100 € kostenlos.",
		"lang":     "de",
	},
	map[string]string{
		"type":  "page",
		"url":   "https://shop.example/en/shipping",
		"title": "Shipping",
		"lang":  "en",
		"body":  "# Shipping\n\nWe ship every order within two days.\n\n## Other countries\n\nSpain and Portugal: 15 €, 4–6 business days.\n\nItaly: 14 €, 3–5 business days.",
	},
	map[string]string{
		"type":  "page",
		"url":   "https://shop.example/de/versand",
		"title": "Versand",
		"lang":  "de",
		"body":  "# Versand\n\nWir versenden jede Bestellung innerhalb von zwei Tagen.\n\n## Andere Länder\n\nSpanien und Portugal: 15 €, 4–6 Werktage.\n\nItalien: 14 €, 3–5 Werktage.",
	},
	map[string]string{
		"type":  "page",
		"url":   "https://shop.example/en/stores",
		"title": "Our stores",
		"lang":  "en",
		"body":  "Our store in Paris is open Monday to Saturday, 10:00–19:00. We have no store in Lyon.",
	},
)

// TestPlaceAskedComesFirst: a passage about another country than the one asked about, and
// about none asked, is no answer when a passage names it: the entry for France loses to the
// line for Spain, though it shares every other word with the question. A city of the
// country asked about is no other place, and a question that names no place is left alone.
func TestPlaceAskedComesFirst(t *testing.T) {
	t.Parallel()
	e, acct, _ := salesKB(t, placesShop)
	tests := []struct{ lang, question, want string }{
		{"en", "How much does shipping to Spain cost?", "15 €"},
		{"de", "Wie viel kostet der Versand nach Spanien?", "15 €"},
		{"en", "How much does shipping to Italy cost?", "14 €"},
		{"en", "How much does shipping to France cost?", "12 €"},
		{"en", "Is your store in France open on Saturday?", "Paris"},
		{"en", "How much does shipping cost?", "12 €"},
	}
	for _, tt := range tests {
		a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: tt.question, Lang: tt.lang})
		if err != nil {
			t.Fatal(err)
		}
		if !a.Confident || !strings.Contains(a.Text, tt.want) {
			t.Errorf("%s %q: want %q in the reply, got %q", tt.lang, tt.question, tt.want, a.Text)
		}
	}
}

// kbLines renders documents as the lines of a `svc kb import` file.
func kbLines(docs ...map[string]string) string {
	var b strings.Builder
	for _, d := range docs {
		line, err := json.Marshal(d)
		if err != nil {
			panic(err) // a map of strings always marshals
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.String()
}
