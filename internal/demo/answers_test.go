package demo_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"svc/internal/demo/demotest"
	"svc/internal/engine"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// demoEngine is the built-in engine over the demo KB, in a fresh SQLite store.
func demoEngine(t *testing.T) (*engine.Engine, int64) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	acct, _ := storetest.NewAccount(t, st, "Demo", 0)
	if _, err := st.ImportDocuments(ctx, acct.ID, demotest.Docs(t)); err != nil {
		t.Fatalf("import: %v", err)
	}
	e, err := engine.New(st, engine.Options{})
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	return e, acct.ID
}

// TestDemoAnswers asks the demo the questions a new user got wrong answers to, as the demo
// account asks them (Sales Mode on), and checks each reply against the KB's answer: what it
// must quote, what it must not, and that it stays within 700 characters with no cards.
func TestDemoAnswers(t *testing.T) {
	t.Parallel()
	e, acct := demoEngine(t)
	tests := []struct {
		name, lang, question string
		want                 []string // quoted in the reply
		not                  []string // absent from it
	}{
		{
			// "Raten zahlen" is the KB's "Ratenzahlung": the instalment rule, not the
			// customs Q&A that shares only "zahlen".
			name: "instalments", lang: "de", question: "Kann ich in Raten zahlen?",
			want: []string{"Ratenzahlung ist nur mit in der Türkei ausgegebenen Kreditkarten möglich",
				"Für Bestellungen nach Deutschland bieten wir keine Ratenzahlung an"},
			not: []string{"Zölle"},
		},
		{
			// "süresi" only names the length asked for; the KB gives the days without it.
			name: "return period", lang: "tr", question: "İade süresi kaç gün?",
			want: []string{"30 gün içinde"},
		},
		{
			// Berlin is nowhere in the KB, Germany is: the Q&A says there is no store there.
			// (In the KB's own word: the synonym groups that read "Laden" as "Filiale" went in
			// issue 23, having helped one dev question and nothing else.)
			name: "store in Berlin", lang: "de", question: "Wann hat eure Filiale in Berlin geöffnet?",
			want: []string{"in Deutschland haben wir keine Filiale"},
			not:  []string{"Geöffnet Montag"},
		},
		{
			name: "domestic shipping", lang: "tr", question: "Kargo ücreti ne kadar, kaç günde gelir?",
			want: []string{"Türkiye içi kargo ücreti 89,90 TL"},
		},
		{
			// "US" is no pronoun here: the Q&A spells it "the United States".
			name: "shipping to the US", lang: "en", question: "Do you ship to the US?",
			want: []string{"$24.00"},
		},
		{
			// Both stores answer; each one's hours stay with its name.
			name: "Sunday hours", lang: "tr", question: "Mağazanız pazar günü kaçta açılıyor?",
			want: []string{"Pazar 12:00–19:00", "pazar günü kapalıdır"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := e.Answer(context.Background(), engine.Request{AccountID: acct, Question: tt.question,
				Lang: tt.lang, SalesMode: true})
			if err != nil {
				t.Fatalf("Answer: %v", err)
			}
			if !a.Confident {
				t.Fatalf("%q fell back: %q", tt.question, a.Text)
			}
			for _, w := range tt.want {
				if !strings.Contains(a.Text, w) {
					t.Errorf("%q: reply %q does not quote %q", tt.question, a.Text, w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(a.Text, n) {
					t.Errorf("%q: reply %q quotes %q", tt.question, a.Text, n)
				}
			}
			if n := utf8.RuneCountInString(a.Text); n > 700 {
				t.Errorf("%q: reply is %d characters", tt.question, n)
			}
			if len(a.Cards) != 0 {
				t.Errorf("%q: %d product cards on a question about the shop's rules", tt.question, len(a.Cards))
			}
			checkNamesKept(t, a.Text)
		})
	}
}

// hours matches a range of opening hours ("10:00–20:00").
var hours = regexp.MustCompile(`\d{1,2}:\d{2}\s*[–-]\s*\d{1,2}:\d{2}`)

// checkNamesKept requires every line of a reply that states opening hours to name the store
// they belong to, so that two stores' hours never stand side by side without their names.
func checkNamesKept(t *testing.T, reply string) {
	t.Helper()
	for _, line := range strings.Split(reply, "\n") {
		if !hours.MatchString(line) || strings.Contains(line, "(hafta içi") || strings.Contains(line, "(werktags") {
			continue // the customer service's phone hours name no store
		}
		if !strings.Contains(line, "Kadıköy") && !strings.Contains(line, "Ankara") {
			t.Errorf("line %q states opening hours without the store's name", line)
		}
	}
}
