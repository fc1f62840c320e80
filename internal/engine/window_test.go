package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"svc/internal/kb"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// docsKB imports pages (title, body in Markdown, lang) into a fresh store and returns an
// engine over them with opts.
func docsKB(t *testing.T, opts Options, pages ...[3]string) (*Engine, int64) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir(), sqlite.Options{})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	acct, _ := storetest.NewAccount(t, st, "Docs", 0)
	var b strings.Builder
	for i, p := range pages {
		line, err := json.Marshal(map[string]string{"type": "page", "title": p[0], "body": p[1], "lang": p[2],
			"url": "https://docs.example/" + p[2] + "/" + strings.Repeat("page", i+1)})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if _, err := kb.Import(ctx, st, acct.ID, 0, strings.NewReader(b.String())); err != nil {
		t.Fatalf("import: %v", err)
	}
	e, err := New(st, opts)
	if err != nil {
		t.Fatalf("new engine: %v", err)
	}
	return e, acct.ID
}

func ask(t *testing.T, e *Engine, acct int64, lang, question string) Answer {
	t.Helper()
	a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: question, Lang: lang})
	if err != nil {
		t.Fatalf("Answer(%q): %v", question, err)
	}
	if !a.Confident {
		t.Fatalf("%q fell back: %q", question, a.Text)
	}
	return a
}

// A sentence that restates the question ("If your wallet does not sync, …") is followed by
// the one that names the cause and the fix; with room for only two sentences, the window
// takes that one, not the earlier sentence that shares more of the question's words.
func TestWindowTakesTheSentenceAfterARestatement(t *testing.T) {
	t.Parallel()
	cases := []struct {
		lang, title, body, question, restates, answer string
	}{
		{"en", "Troubleshooting",
			"# Troubleshooting\n\n## Sync problems\n\nWallets connect to the network when they start, and a wallet shows its balance once it is up to date. If your wallet does not sync, check two things. The daemon must run, and the system clock must be right to the minute. Most sync problems come from one of these.\n\n## Fees\n\nFees depend on the size of a transaction, not on the amount sent.",
			"What should I do if my wallet does not sync?", "If your wallet does not sync", "The daemon must run"},
		{"de", "Fehlerbehebung",
			"# Fehlerbehebung\n\n## Synchronisierung\n\nWallets verbinden sich beim Start mit dem Netzwerk, und ein Wallet zeigt sein Guthaben, sobald es aktuell ist. Wenn dein Wallet nicht synchronisiert, prüfe zwei Dinge. Der Daemon muss laufen, und die Systemuhr muss auf die Minute stimmen. Die meisten Probleme haben eine dieser Ursachen.\n\n## Gebühren\n\nDie Gebühr hängt von der Größe einer Transaktion ab, nicht vom Betrag.",
			"Was tun, wenn mein Wallet nicht synchronisiert?", "Wenn dein Wallet nicht synchronisiert", "Der Daemon muss laufen"},
		{"tr", "Sorun giderme",
			"# Sorun giderme\n\n## Eşitleme\n\nCüzdanlar açılışta ağa bağlanır ve güncel olduklarında bakiyelerini gösterir. Cüzdanınız eşitlenmiyorsa iki şeyi kontrol edin. Arka plan hizmeti çalışmalı ve sistem saati dakikası dakikasına doğru olmalıdır. Sorunların çoğu bunlardan birinden kaynaklanır.\n\n## Ücretler\n\nÜcret, gönderilen miktara değil işlemin boyutuna bağlıdır.",
			"Cüzdanım eşitlenmiyorsa ne yapmalıyım?", "Cüzdanınız eşitlenmiyorsa", "Arka plan hizmeti çalışmalı"},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			t.Parallel()
			e, acct := docsKB(t, Options{MaxReplyChars: 160}, [3]string{c.title, c.body, c.lang})
			a := ask(t, e, acct, c.lang, c.question)
			if !strings.Contains(a.Text, c.restates) || !strings.Contains(a.Text, c.answer) {
				t.Errorf("reply %q: want the restating sentence %q and the answer after it %q", a.Text, c.restates, c.answer)
			}
			if strings.Contains(a.Text, "…") {
				t.Errorf("reply %q cuts a sentence", a.Text)
			}
		})
	}
}

// A lead ending in ":" brings the list under it, item by item, in order; the window stays in
// its section and cuts no item.
func TestWindowQuotesTheListUnderALead(t *testing.T) {
	t.Parallel()
	body := "# Restoring\n\nRestoring needs your 25-word seed and about ten minutes.\n\n" +
		"## From the seed\n\nTo restore a wallet from its seed:\n\n" +
		"1. Open the wallet menu.\n2. Choose Restore from seed.\n3. Type the 25 words in order.\n4. Set a restore height if you know it.\n\n" +
		"## From keys\n\nA view-only wallet is restored from its address and private view key instead."
	e, acct := docsKB(t, Options{MaxReplyChars: 170}, [3]string{"Restoring a wallet", body, "en"})
	a := ask(t, e, acct, "en", "How do I restore a wallet from the seed?")
	want := "To restore a wallet from its seed:\n1. Open the wallet menu.\n2. Choose Restore from seed.\n3. Type the 25 words in order.\n4. Set a restore height if you know it."
	if !strings.Contains(a.Text, want) {
		t.Errorf("reply %q: want the lead and its four steps in order", a.Text)
	}
	if strings.Contains(a.Text, "view-only") {
		t.Errorf("reply %q quotes another section", a.Text)
	}
}

// The quote fills its room with whole sentences, and a long source line leaves it less, so
// that no reply exceeds MaxReply.
func TestWindowFitsTheReply(t *testing.T) {
	t.Parallel()
	var body strings.Builder
	body.WriteString("# Fees\n\n")
	for i := range 20 {
		body.WriteString("The network fee of a transaction depends on its size in bytes and on the priority chosen, not on the amount sent. ")
		if i%3 == 0 {
			body.WriteString("A larger ring means a larger transaction. ")
		}
	}
	long := strings.Repeat("very-long-documentation-title ", 6)
	e, acct := docsKB(t, Options{}, [3]string{long, body.String(), "en"})
	a := ask(t, e, acct, "en", "Does the fee depend on the amount sent?")
	if n := utf8.RuneCountInString(a.Text); n > 700 || n < 450 {
		t.Errorf("reply of %d characters, want the room filled up to at most 700: %q", n, a.Text)
	}
	if strings.Contains(a.Text, "…") {
		t.Errorf("reply %q cuts a sentence", a.Text)
	}
	small, acct2 := docsKB(t, Options{MaxReply: 500}, [3]string{long, body.String(), "en"})
	if a := ask(t, small, acct2, "en", "Does the fee depend on the amount sent?"); utf8.RuneCountInString(a.Text) > 500 {
		t.Errorf("reply of %d characters with MaxReply 500", utf8.RuneCountInString(a.Text))
	}
}

func TestLeadsOnAndNeedsBefore(t *testing.T) {
	t.Parallel()
	sents := func(lines ...string) []sentence {
		var out []sentence
		for i, l := range lines {
			for _, s := range SplitLine(l, "en") {
				out = append(out, sentence{text: s, line: i})
			}
		}
		return out
	}
	list := sents("Steps:", "Open it.", "Close it.", "Done. Then rest.")
	if !leadsOn(list, 0, 0, "en") || !leadsOn(list, 0, 1, "en") {
		t.Error("a lead ending in ':' and its first item do not lead on to the next item")
	}
	if leadsOn(list, 3, 3, "en") {
		t.Error("a paragraph sentence leads on")
	}
	if !needsBefore(list, 1, "en") {
		t.Error("a list item does not need its lead")
	}
	para := sents("The store opened in 2019. It is open daily. Parking is free.")
	if !needsBefore(para, 1, "en") || needsBefore(para, 2, "en") {
		t.Error("needsBefore: want only the sentence that opens with a pronoun")
	}
	for _, c := range []struct {
		s, lang string
		want    bool
	}{
		{"If the wallet does not sync, wait.", "en", true},
		{"The wallet syncs.", "en", false},
		{"Falls das Wallet hängt, warte.", "de", true},
		{"Cüzdan eşitlenmiyorsa bekleyin.", "tr", true},
		{"Siparişiniz gelmezse bize yazın.", "tr", true},
		{"İsterseniz iade edebilirsiniz.", "tr", true},
		{"Fransa'ya gönderim yapıyoruz.", "tr", false},
		{"Kasa önünde ödeme yapılır.", "tr", false},
	} {
		if got := conditional(c.s, c.lang); got != c.want {
			t.Errorf("conditional(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// A sentence too long for the reply keeps the stretch that holds the question's words, not
// just its start.
func TestClipAround(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("Filler words say nothing here, ", 12) + "the restore height tells the wallet where to start scanning, " +
		strings.Repeat("and more filler follows it ", 6) + "end."
	match := func(w string) bool { return w == "restore" || w == "height" || w == "scanning" }
	got := clipAround(long, 120, match)
	if utf8.RuneCountInString(got) > 120 || !strings.HasPrefix(got, "…restore height tells the wallet where to start scanning") || !strings.HasSuffix(got, "…") {
		t.Errorf("clipAround = %q", got)
	}
	if got := clipAround(long, 120, func(string) bool { return false }); got != clipSentence(long, 120) {
		t.Errorf("without the question's words: %q, want the start", got)
	}
	if got := clipAround("short one.", 120, match); got != "short one." {
		t.Errorf("a sentence that fits was changed: %q", got)
	}
}

// A list of questions, as in a page's contents, does not pull in question after question.
func TestLeadsOnNotThroughAListOfQuestions(t *testing.T) {
	t.Parallel()
	var sents []sentence
	for i, l := range []string{"What is a restore height?", "Why do wallets have one?", "How do I change it?"} {
		sents = append(sents, sentence{text: l, line: i})
	}
	if leadsOn(sents, 0, 0, "en") || leadsOn(sents, 1, 1, "en") {
		t.Error("a question leads on to the next question")
	}
	sents = append(sents[:1], sentence{text: "It is the block height a wallet starts scanning from.", line: 1})
	if !leadsOn(sents, 0, 0, "en") {
		t.Error("a question does not lead on to its answer")
	}
}

// A question and its reply are counted when they are billed, and the fold that later takes
// them into the conversation's summary finds those counts: it counts only its new summary.
func TestFoldReusesBilledCounts(t *testing.T) {
	t.Parallel()
	e, acct := docsKB(t, Options{MinAnswerability: -1},
		[3]string{"Shipping", "# Shipping\n\nEvery order ships within two working days from our Berlin warehouse.", "en"})
	q := "How fast do orders ship?"
	a := ask(t, e, acct, "en", q)
	for _, s := range []string{q, a.Text} {
		if n, ok := e.summaries.Get(s); !ok || n != e.CountTokens(s) {
			t.Errorf("count of %q remembered: %d, %v; want %d", s, n, ok, e.CountTokens(s))
		}
	}
	sm, err := e.Summarize(context.Background(), SummaryRequest{AccountID: acct, Lang: "en",
		Turns: []Turn{{Role: "user", Text: q}, {Role: "assistant", Text: a.Text}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := e.CountTokens(q) + e.CountTokens(a.Text); sm.Calls[0].InputTokens != want {
		t.Errorf("fold input = %d tokens, want %d", sm.Calls[0].InputTokens, want)
	}
}
