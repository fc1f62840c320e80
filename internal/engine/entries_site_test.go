package engine

import (
	"strings"
	"testing"
)

// docsSite is a documentation site in three languages: an FAQ page whose section headings
// are its questions, guides that repeat the questions' rarer words, a glossary entry and a
// page that opens with its table of contents.
var docsSite = [][3]string{
	{"FAQ", "# FAQ\n\nAnswers to the questions we hear most.\n\n" +
		"## How big is the Lumen ledger?\n\nThe ledger grows all the time, so it has no fixed size. Today the full ledger is about 310 GB; a trimmed one is about 95 GB.\n\n" +
		"## Is Lumen a tumbler?\n\nNo. Lumen hides senders with an automatic process that needs nobody's help; tumblers ask their users to opt in.", "en"},
	{"Importing the ledger", "# Importing the ledger\n\n## Step 1\n\nDownload the ledger file. The ledger file is large, so a ledger download takes a while.\n\n" +
		"## Step 2\n\nNow open a terminal in the folder of the ledger file and type the import command for the ledger.", "en"},
	// "now" is a common word of a site, as on any real one.
	{"Sending", "# Sending\n\nYour transfer is now on its way. You can now close the wallet.", "en"},
	{"Mining", "# Mining\n\nMining is now possible on any computer. Start it now from the settings.", "en"},
	{"Restore height", "# Restore height\n\nTable of contents:\nWhat is the restore height?\nWhy does a wallet need a restore height?\nMy wallet shows a wrong balance after changing the restore height\n\n" +
		"## What is the restore height?\n\nThe restore height tells the wallet from which block to scan.\n\n" +
		"## My wallet balance is wrong after changing the restore height\n\nThis happens when the restore height is set after your first incoming transfer. Set a lower restore height to fix the balance.", "en"},
	{"View-Key", "# View-Key\n\nDer View-Key ist einer der zwei privaten Schlüssel eines Kontos. Mit dem View-Key sieht man alle eingehenden Überweisungen des Kontos, aber keine ausgehenden.", "de"},
	{"Nur-Ansehen-Wallets", "# Nur-Ansehen-Wallets\n\n## Ein Wallet aus dem View-Key erstellen\n\nÖffne dein Wallet und lass dir den privaten View-Key anzeigen. Gib dann den View-Key und die Adresse im neuen Wallet ein, um das Wallet zu erstellen.", "de"},
	{"Häufige Fragen", "# Häufige Fragen\n\n## Warum dauert die Synchronisierung meiner Wallet so lang?\n\nMit einem eigenen Node lädst du die ganze Blockchain herunter. Auf einer alten Festplatte dauert das Tage.", "de"},
	{"Bootstrap-Node", "# Bootstrap-Node\n\nEin Node, der noch nicht synchronisiert ist, leitet die Anfragen des Wallets an einen Bootstrap-Node weiter. So ist das Wallet sofort nutzbar, solange der Node synchronisiert.", "de"},
	{"SSS", "# SSS\n\nEn sık sorulan sorular.\n\n" +
		"## Nasıl Lumen alabilirim?\n\nBir borsadan veya bir kişiden Lumen alabilirsiniz. Madencilik de bir seçenektir.\n\n" +
		"## Lumen'in gizliliği diğer paralardan nasıl farklıdır?\n\nLumen üç teknoloji kullanır: Halka imzalar, Gizli Tutarlar ve Hayalet Adresler. Bunlar göndericiyi, tutarı ve alıcıyı gizler.\n\n" +
		"## Değiştirilebilirlik nedir?\n\nDeğiştirilebilirlik, aynı değerdeki iki miktar para arasında hiçbir fark olmamasıdır.", "tr"},
}

// Each question is answered by the FAQ entry or the glossary entry that holds it, not by a
// guide that repeats its words, another entry or the contents list. This is about which
// passage is quoted, so every reply is given (MinAnswerability -1): whether the paraphrase
// "synchronisiert ewig" is evidence enough is the answerability model's call, measured on
// the dev sets.
func TestDocsSiteEntries(t *testing.T) {
	t.Parallel()
	e, acct := docsKB(t, Options{MinAnswerability: -1}, docsSite...)
	cases := []struct{ lang, question, want, not string }{
		// The FAQ entry, not the guide that repeats "ledger" and says "now".
		{"en", "How big is the ledger now?", "310 GB", "terminal"},
		// The section that answers, not the contents list that repeats its heading.
		{"en", "My wallet shows a wrong balance after changing the restore height, why?", "Set a lower restore height", "Table of contents"},
		// The glossary entry, not the guide that creates a wallet with the key.
		{"de", "Wofür braucht man den View-Key?", "eingehenden Überweisungen", "Öffne"},
		// The FAQ entry that words it otherwise, not the glossary that repeats "synchronisiert".
		{"de", "Mein Wallet synchronisiert ewig, woran liegt das?", "alten Festplatte", "Bootstrap"},
		// The entry whose question this is, not the next one with capitalised names (the
		// place question's cue).
		{"tr", "Lumen'i nereden satın alabilirim?", "borsadan", "Halka"},
		// "ne demek" asks for a definition: no fallback.
		{"tr", "Değiştirilebilirlik ne demek?", "hiçbir fark", ""},
	}
	for _, c := range cases {
		a := ask(t, e, acct, c.lang, c.question)
		if !strings.Contains(a.Text, c.want) || c.not != "" && strings.Contains(a.Text, c.not) {
			t.Errorf("%s %q:\n%s\nwant %q without %q", c.lang, c.question, a.Text, c.want, c.not)
		}
	}
}
