package smalltalk

import (
	"sort"
	"strings"

	"svc/internal/textindex"
)

// phrase is one recognised word sequence. Fillers ("there", "zusammen",
// "herkese") have an empty kind: they may accompany a phrase but are not
// small talk on their own.
type phrase struct {
	words []string
	kind  Kind
	lang  string // "" when the phrase is used in several languages
}

// phraseEntry is a phrase as written in the table below, with natural
// spelling; buildPhrases runs it through the same word splitting as the
// messages.
type phraseEntry struct {
	kind Kind
	lang string
	text []string
}

var phraseTable = []phraseEntry{
	{Greeting, "en", []string{"hello", "hiya", "howdy", "greetings", "good morning", "good afternoon", "good evening", "good day", "morning", "yo", "what's up", "whats up", "how are you", "how are you doing", "how's it going", "hows it going"}},
	{Greeting, "de", []string{"hallo", "hallöchen", "moin", "moin moin", "servus", "grüß gott", "grüß dich", "grüezi", "guten morgen", "guten tag", "guten abend", "wie geht's", "wie gehts", "wie geht es dir", "wie geht es ihnen"}},
	{Greeting, "tr", []string{"merhaba", "merhabalar", "selam", "selamlar", "slm", "mrb", "selamün aleyküm", "aleyküm selam", "günaydın", "iyi günler", "iyi akşamlar", "iyi çalışmalar", "hayırlı günler", "hayırlı işler", "kolay gelsin", "nasılsın", "nasılsınız", "naber", "ne haber"}},
	{Greeting, "", []string{"hi", "hey", "hej", "salut"}},

	{Thanks, "en", []string{"thanks", "thank you", "thankyou", "many thanks", "thx", "ty", "tysm", "cheers", "much appreciated", "appreciate it", "i appreciate it", "thanks for your help", "thank you for your help", "thanks for the help", "got it", "alright", "all right", "great", "perfect", "awesome", "nice", "understood"}},
	{Thanks, "de", []string{"danke", "danke schön", "dankeschön", "danke sehr", "vielen dank", "vielen lieben dank", "herzlichen dank", "besten dank", "tausend dank", "danke vielmals", "danke für die hilfe", "danke für ihre hilfe", "danke für deine hilfe", "alles klar", "prima", "perfekt", "toll", "verstanden", "passt"}},
	{Thanks, "tr", []string{"teşekkürler", "teşekkür ederim", "teşekkür ederiz", "çok teşekkürler", "çok teşekkür ederim", "sağ ol", "sağol", "sağ olun", "sağolun", "çok sağ ol", "çok sağ olun", "eyvallah", "tşk", "tşkler", "tşk ederim", "mersi", "eline sağlık", "ellerinize sağlık", "yardımınız için teşekkürler", "tamam", "tamamdır", "anladım", "peki", "harika", "süpersin"}},
	{Thanks, "", []string{"ok", "okay", "okey", "okey dokey", "super", "süper", "merci", "cool"}},

	{Goodbye, "en", []string{"bye", "goodbye", "good bye", "bye bye", "see you", "see ya", "see you later", "see you soon", "take care", "have a nice day", "have a good day", "have a great day", "good night", "cya", "farewell", "later"}},
	{Goodbye, "de", []string{"tschüss", "tschüs", "tschau", "auf wiedersehen", "auf wiederhören", "bis bald", "bis später", "bis dann", "bis morgen", "schönen tag", "schönen tag noch", "einen schönen tag noch", "schönes wochenende", "gute nacht", "mach's gut", "machs gut", "ade", "adieu"}},
	{Goodbye, "tr", []string{"hoşça kal", "hoşçakal", "hoşça kalın", "görüşürüz", "görüşmek üzere", "güle güle", "iyi geceler", "kendine iyi bak", "kendinize iyi bakın", "bay bay", "allaha emanet", "iyi hafta sonları"}},
	{Goodbye, "", []string{"ciao"}},

	// Fillers: words that dress up a phrase ("hi there", "thanks a lot",
	// "hallo zusammen", "herkese merhaba") without changing its meaning.
	{"", "en", []string{"there", "everyone", "everybody", "all", "guys", "folks", "team", "again", "so", "very", "much", "a", "lot", "really", "you", "too", "and", "oh", "well", "dear", "lol"}},
	{"", "de", []string{"zusammen", "leute", "ihr", "und", "nochmal", "nochmals", "sehr", "ganz", "lieben", "liebe", "lieber", "noch", "auch", "dir", "ihnen", "euch"}},
	{"", "tr", []string{"herkese", "arkadaşlar", "ve", "size", "sana", "de", "da", "çok", "hocam", "efendim"}},
	{"", "", []string{"hm", "hmm", "ah"}},
}

// phrasesByFirst indexes the phrases by their first word, longest first,
// so cover tries "thank you so much"-style sequences before "thank".
var phrasesByFirst = buildPhrases(phraseTable)

func buildPhrases(table []phraseEntry) map[string][]phrase {
	byFirst := make(map[string][]phrase)
	add := func(text string, e phraseEntry) {
		words := textindex.Words(text, "en")
		if len(words) > 0 {
			byFirst[words[0]] = append(byFirst[words[0]], phrase{words: words, kind: e.kind, lang: e.lang})
		}
	}
	for _, e := range table {
		for _, text := range e.text {
			add(text, e)
			// Folding turns "tschüss" into "tschuss"; visitors without
			// umlauts on their keyboard write "tschuess".
			if alt := umlautDigraphs.Replace(text); e.lang == "de" && alt != text {
				add(alt, e)
			}
		}
	}
	for _, ps := range byFirst {
		sort.SliceStable(ps, func(i, j int) bool { return len(ps[i].words) > len(ps[j].words) })
	}
	return byFirst
}

var umlautDigraphs = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue")
