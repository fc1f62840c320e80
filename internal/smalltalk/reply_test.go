package smalltalk

import (
	"strings"
	"testing"

	"svc/internal/lang/lexicon"
)

var (
	allKinds = []Kind{Greeting, Thanks, Goodbye}
	allLangs = []string{"tr", "en", "de"}
	allTones = []string{Professional, Warm, Energetic}
)

func TestReplyComplete(t *testing.T) {
	seen := map[string]string{}
	for _, kind := range allKinds {
		for _, tone := range allTones {
			perLang := map[string]bool{}
			for _, lang := range allLangs {
				r := Reply(kind, lang, tone)
				if strings.TrimSpace(r) == "" {
					t.Errorf("Reply(%s, %s, %s) is empty", kind, lang, tone)
					continue
				}
				if perLang[r] {
					t.Errorf("Reply(%s, %s, %s) repeats another language's reply: %q", kind, lang, tone, r)
				}
				perLang[r] = true
				key := string(kind) + "/" + lang + "/" + tone
				if prev, dup := seen[r]; dup {
					t.Errorf("replies %s and %s are identical: %q", prev, key, r)
				}
				seen[r] = key
			}
		}
	}
	if len(seen) != len(allKinds)*len(allLangs)*len(allTones) {
		t.Errorf("got %d distinct replies, want %d", len(seen), len(allKinds)*len(allLangs)*len(allTones))
	}
}

func TestReplyFallbacks(t *testing.T) {
	tests := []struct {
		name       string
		kind       Kind
		lang, tone string
		wantSameAs [3]string // kind, lang, tone of the expected reply
	}{
		{"unknown tone is professional", Thanks, "de", "sarcastic", [3]string{"thanks", "de", Professional}},
		{"empty tone is professional", Greeting, "tr", "", [3]string{"greeting", "tr", Professional}},
		{"tone is case-insensitive", Goodbye, "en", "Warm", [3]string{"goodbye", "en", Warm}},
		{"unknown language is English", Greeting, "fr", Warm, [3]string{"greeting", "en", Warm}},
		{"region tag is stripped", Thanks, "de-AT", Energetic, [3]string{"thanks", "de", Energetic}},
		{"unknown kind is a greeting", Kind("weather"), "tr", Warm, [3]string{"greeting", "tr", Warm}},
	}
	for _, tt := range tests {
		got := Reply(tt.kind, tt.lang, tt.tone)
		want := Reply(Kind(tt.wantSameAs[0]), tt.wantSameAs[1], tt.wantSameAs[2])
		if got != want || got == "" {
			t.Errorf("%s: Reply(%q, %q, %q) = %q, want %q", tt.name, tt.kind, tt.lang, tt.tone, got, want)
		}
	}
}

func TestReplyIsDeterministic(t *testing.T) {
	for i := 0; i < 3; i++ {
		if a, b := Reply(Greeting, "en", Warm), Reply(Greeting, "en", Warm); a != b {
			t.Fatalf("Reply changed between calls: %q vs %q", a, b)
		}
	}
}

// TestReplyNeverPromisesHandover guards the product rule that the
// assistant does not offer to pass the visitor to a person.
func TestReplyNeverPromisesHandover(t *testing.T) {
	banned := []string{"agent", "colleague", "human", "staff", "mitarbeiter", "kollege", "temsilci", "çalışan", "yetkili"}
	var all []string
	for _, lg := range lexicon.Languages() {
		table := replies.Table(lexicon.SmalltalkReplies, lg)
		for _, k := range table.Keys() {
			r, _ := table.Get(k)
			all = append(all, r)
		}
	}
	if len(all) != 27 {
		t.Fatalf("%d replies, want 27 (3 kinds, 3 tones, 3 languages)", len(all))
	}
	for _, r := range all {
		low := strings.ToLower(r)
		for _, b := range banned {
			if strings.Contains(low, b) {
				t.Errorf("reply %q mentions %q", r, b)
			}
		}
	}
}

// TestMatchedLanguageHasReply checks Match and Reply fit together: the
// language Match reports is one Reply answers in.
func TestMatchedLanguageHasReply(t *testing.T) {
	for _, text := range []string{"merhaba", "danke", "thanks", "ok"} {
		kind, lang, ok := Match(text)
		if !ok {
			t.Fatalf("Match(%q) failed", text)
		}
		if lang == "" {
			lang = "en"
		}
		if Reply(kind, lang, Professional) == "" {
			t.Errorf("no reply for %q (%s, %s)", text, kind, lang)
		}
	}
}
