package dashboard_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/crawl"
	"svc/internal/embed"
	"svc/internal/errs"
	"svc/internal/i18n"
	"svc/internal/kb"
	"svc/internal/ratelimit"
	"svc/internal/studio"
)

// htmlText is s as html/template writes it into a page.
var htmlText = strings.NewReplacer("&", "&amp;", "'", "&#39;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "+", "&#43;").Replace

// inLang signs a new browser in and sets the user's language, as the profile page does.
func inLang(t *testing.T, h *harness, email, pw, lang string) *browser {
	t.Helper()
	b := h.browser()
	b.signIn(email, pw)
	if p := b.post("/dashboard/profile/lang", url.Values{"lang": {lang}, "back": {"/dashboard/"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("set lang %s: %d", lang, p.Status)
	}
	return b
}

// mustShowKeyed fails unless the page shows key's message in lang with args, and not the
// English sentence safe.
func mustShowKeyed(t *testing.T, cat *i18n.Catalog, p page, lang, safe, key string, args ...any) {
	t.Helper()
	want := cat.T(lang, key, args...)
	if want == key || strings.Contains(want, "%!") {
		t.Fatalf("%s %s: bad catalog message %q", lang, key, want)
	}
	if !strings.Contains(p.Body, htmlText(want)) {
		t.Errorf("%s: page lacks %q (%s)", lang, want, key)
	}
	if safe != "" && strings.Contains(p.Body, htmlText(safe)) {
		t.Errorf("%s: page shows the English %q", lang, safe)
	}
}

func TestWidgetTokenErrorsInTheUsersLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Çınar Kitap")
	cat := i18n.MustLoad()
	domains := "shop.example"
	tok, _, err := h.accounts.CreateEmbedToken(context.Background(), a, account.EmbedTokenInput{Domains: &domains})
	if err != nil {
		t.Fatal(err)
	}
	_ = tok
	tokens, err := h.accounts.EmbedTokens(context.Background(), a)
	if err != nil || len(tokens) != 1 {
		t.Fatalf("tokens: %v %v", tokens, err)
	}
	edit := "/dashboard/widget/tokens/" + strconv.FormatInt(tokens[0].Token.ID, 10)
	long := strings.Repeat("ş", embed.MaxLabelChars+1)
	shownLong := `"` + strings.Repeat("ş", 60) + `…"`

	literal := map[string][]string{
		"tr": {"genel sonek", "günlük bütçesi aralık dışında", "etiketi çok uzun", "kullanıcı adı içermemeli", "ondalık"},
		"de": {"öffentliches Suffix", "außerhalb des zulässigen Bereichs", "ist zu lang", "keinen Benutzernamen", "Nachkommastellen"},
	}
	for _, lang := range []string{"tr", "de"} {
		b := inLang(t, h, email, pw, lang)

		p := b.post("/dashboard/widget/tokens", url.Values{"domains": {"com"}})
		kbMustStatus(t, "public suffix", p, http.StatusBadRequest)
		mustShowKeyed(t, cat, p, lang, "is a top-level domain or public suffix", "err.embed.domain_public_suffix", `"com"`, "com")
		mustContain(t, p.Body, literal[lang][0])

		p = b.post("/dashboard/widget/tokens", url.Values{"domains": {"shop.example"}, "daily_budget_usd": {"500"}})
		kbMustStatus(t, "budget", p, http.StatusBadRequest)
		mustShowKeyed(t, cat, p, lang, "is out of range", "widget.error_budget_range", `"500"`, "0,05 $", "100,00 $")
		mustContain(t, p.Body, literal[lang][1])

		p = b.post("/dashboard/widget/tokens", url.Values{"domains": {"shop.example"}, "label": {long}})
		kbMustStatus(t, "label", p, http.StatusBadRequest)
		mustShowKeyed(t, cat, p, lang, "is too long:", "err.embed.label_too_long", shownLong, embed.MaxLabelChars+1, embed.MaxLabelChars)
		mustContain(t, p.Body, literal[lang][2])

		p = b.post("/dashboard/widget/tokens", url.Values{"domains": {"user@evil.example"}})
		kbMustStatus(t, "user info", p, http.StatusBadRequest)
		mustShowKeyed(t, cat, p, lang, "must not contain a user name", "err.embed.domain_userinfo", `"user@evil.example"`)
		mustContain(t, p.Body, literal[lang][3])

		// Editing a token goes through the same validation.
		p = b.post(edit, url.Values{"domains": {"shop.example"}, "daily_budget_usd": {"1.23456"}})
		kbMustStatus(t, "edit budget", p, http.StatusBadRequest)
		mustShowKeyed(t, cat, p, lang, "decimal places", "err.embed.budget_decimals", `"1.23456"`, 4)
		mustContain(t, p.Body, literal[lang][4])
	}

	// English writes the limits as the English pages write money.
	b := inLang(t, h, email, pw, "en")
	p := b.post("/dashboard/widget/tokens", url.Values{"domains": {"shop.example"}, "daily_budget_usd": {"500"}})
	mustContain(t, p.Body, htmlText(`The daily budget "500" is out of range: it must be from $0.05 to $100.00.`))
}

func TestStudioErrorsInTheUsersLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, pw := h.tenant("Yolcu Outdoor")
	cat := i18n.MustLoad()
	for lang, words := range map[string][]string{
		"tr": {"Bir özet girin", "karakter uzunluğunda", "en az iki öğe", "işlemi için bir soru girin", "Sınır 1 ile"},
		"de": {"Geben Sie ein Briefing ein", "Zeichen lang; höchstens", "mindestens zwei Einträge", "eine Frage ein", "Das Limit muss"},
	} {
		b := inLang(t, h, email, pw, lang)

		p := b.post("/dashboard/studio/marketing", url.Values{"brief": {"  "}, "product": {"Boots"}})
		kbMustStatus(t, "empty brief", p, http.StatusBadRequest)
		mustShowKeyed(t, cat, p, lang, "The brief field is required", "err.studio.brief_required")
		mustContain(t, p.Body, words[0], `value="Boots"`)

		brief := strings.Repeat("a", studio.MaxBriefChars+1)
		p = b.hxPost("/dashboard/studio/marketing", url.Values{"brief": {brief}})
		mustShowKeyed(t, cat, p, lang, "characters long; at most", "err.studio.brief_too_long", studio.MaxBriefChars+1, studio.MaxBriefChars)
		mustContain(t, p.Body, words[1])

		p = b.post("/dashboard/studio/intelligence", url.Values{"op": {"compare"}, "items": {"Only one"}})
		kbMustStatus(t, "one item", p, http.StatusBadRequest)
		mustShowKeyed(t, cat, p, lang, "compare needs at least two items", "err.studio.items_too_few")
		mustContain(t, p.Body, words[2])

		p = b.hxPost("/dashboard/studio/intelligence", url.Values{"op": {"answer"}, "question": {" "}})
		mustShowKeyed(t, cat, p, lang, "The question field is required", "err.studio.question_required", "answer")
		mustContain(t, p.Body, words[3])

		p = b.hxPost("/dashboard/studio/intelligence", url.Values{"op": {"data"}, "type": {"products"}, "limit": {"5000"}})
		mustShowKeyed(t, cat, p, lang, "limit must be 1 to", "err.studio.limit_range", studio.MaxDataLimit)
		mustContain(t, p.Body, words[4])
	}
}

func TestKBImportLinesInTheUsersLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, pw := h.tenant("Shop")
	file := strings.Join([]string{
		`{"type":"qa","question":"Do you sell stoves?","answer":"Yes, three kinds.","lang":"en"}`,
		`{"type":"qa","question":"Do you sell fuel?"}`,
		`{"type":"gadget","name":"x"}`,
		`{"type":"page","title":"Empty","body":"<p>  </p>","lang":"xx"}`,
		`{"type":"product","name":"Stove","colour":"red"}`,
	}, "\n")
	want := map[string][]string{
		"tr": {"Satır 2: qa kaydı için question ve answer gerekli",
			htmlText(`Satır 3: bilinmeyen tür "gadget" (page, qa, product veya article olmalı)`),
			htmlText(`Satır 4: lang "xx"; tr, en veya de olmalı`),
			htmlText(`Satır 5: bilinmeyen alan "colour"`)},
		"de": {"Zeile 2: qa braucht question und answer",
			htmlText(`Zeile 3: unbekannter Typ "gadget" (erwartet: page, qa, product oder article)`),
			htmlText(`Zeile 4: lang "xx" ist nicht tr, en oder de`),
			htmlText(`Zeile 5: unbekanntes Feld "colour"`)},
	}
	for lang, lines := range want {
		b := inLang(t, h, email, pw, lang)
		p := b.kbUpload("/dashboard/kb/import", "file", "kb.jsonl", []byte(file), nil)
		kbMustStatus(t, "bad file", p, http.StatusBadRequest)
		mustContain(t, p.Body, lines...)
		if strings.Contains(p.Body, "qa needs question and answer") {
			t.Errorf("%s: the English reason is shown", lang)
		}
	}

	// A line that parses but builds to nothing (kb.Build's reason) is translated too.
	b := inLang(t, h, email, pw, "de")
	p := b.kbUpload("/dashboard/kb/import", "file", "kb.jsonl", []byte(`{"type":"page","title":"Empty","body":"<p>  </p>"}`+"\n"), nil)
	kbMustStatus(t, "empty page", p, http.StatusBadRequest)
	mustContain(t, p.Body, "Zeile 1: der body der page enthält nach der Bereinigung keinen Text")

	// English keeps kb's own wording.
	b = inLang(t, h, email, pw, "en")
	p = b.kbUpload("/dashboard/kb/import", "file", "kb.jsonl", []byte(file), nil)
	mustContain(t, p.Body, "Line 2: qa needs question and answer", `Line 3: unknown type &#34;gadget&#34;`)
}

// TestEnglishCatalogIsTheSafeSentence: for every keyed error the domain packages make, the
// key exists, the English catalog message formatted with Args is byte for byte the Safe
// sentence the API and CLI show (so English pages are unchanged), and the other languages
// format without a fmt error and differ from English.
func TestEnglishCatalogIsTheSafeSentence(t *testing.T) {
	t.Parallel()
	cat := i18n.MustLoad()
	seen := map[string]bool{}
	check := func(what, safe, key string, args []any) {
		t.Helper()
		if key == "" {
			t.Errorf("%s: %q has no key", what, safe)
			return
		}
		seen[key] = true
		if !cat.Has(key) {
			t.Errorf("%s: key %q is not in the catalog", what, key)
			return
		}
		if en := cat.T("en", key, args...); en != safe {
			t.Errorf("%s: %s\n en catalog %q\n safe       %q", what, key, en, safe)
		}
		for _, lang := range []string{"tr", "de"} {
			m := cat.T(lang, key, args...)
			if strings.Contains(m, "%!") || m == safe {
				t.Errorf("%s: %s in %s: %q", what, key, lang, m)
			}
		}
	}
	checkErr := func(what string, err error) {
		t.Helper()
		e, ok := errs.As(err)
		if !ok {
			t.Errorf("%s: %v is not an *errs.Error", what, err)
			return
		}
		check(what, e.Safe, e.Key, e.Args)
	}

	for _, in := range []string{"", "com", "co.uk", "a b", "ftp://x.example", "http://", "user@x.example", "*",
		"x..example", strings.Repeat("a", 64) + ".example", "x.example:99999", strings.Repeat("a.", 130) + "example", "a\u202eb.example"} {
		_, err := embed.NormalizeDomain(in)
		checkErr("domain "+in, err)
	}
	many := ""
	for i := range embed.MaxDomains + 1 {
		many += "d" + strconv.Itoa(i) + ".example,"
	}
	for _, in := range []string{many, " , "} {
		_, err := embed.NormalizeDomains(in)
		checkErr("domains", err)
	}
	for _, in := range []string{"", "abc", "1.23456", "500", "0.01"} {
		_, err := embed.ParseBudget(in)
		checkErr("budget "+in, err)
	}
	for _, in := range []string{"\xff", strings.Repeat("x", embed.MaxLabelChars+1)} {
		_, err := embed.NormalizeLabel(in)
		checkErr("label", err)
	}

	for _, c := range []struct{ url, name string }{{"", ""}, {"https://" + strings.Repeat("a", crawl.MaxSiteURLLen), ""},
		{"http://%zz", ""}, {"https://u:p@shop.example", ""}, {"ftp://shop.example", ""}, {"https://", ""},
		{"https://shop.example", strings.Repeat("n", crawl.MaxSiteNameLen+1)}} {
		_, err := crawl.NewSite(1, c.url, c.name)
		if !errors.Is(err, crawl.ErrSiteURL) && !errors.Is(err, crawl.ErrSiteName) {
			t.Errorf("site %q: %v lost its sentinel", c.url, err)
		}
		checkErr("site "+c.url, err)
	}

	ctx := context.Background()
	h := newHarness(t)
	a, _, _, _ := h.tenant("Keys")
	for _, s := range []account.Settings{{TonePreset: ptr("grumpy")}, {ToneCustom: ptr(strings.Repeat("x", 501))}, {Lang: ptr("fr")}} {
		_, err := h.accounts.Update(ctx, a.ID, s)
		checkErr("account", err)
	}
	for i := range account.MaxActiveEmbedTokens {
		d := "t" + strconv.Itoa(i) + ".example"
		if _, _, err := h.accounts.CreateEmbedToken(ctx, a, account.EmbedTokenInput{Domains: &d}); err != nil {
			t.Fatal(err)
		}
	}
	d := "one-more.example"
	_, _, err := h.accounts.CreateEmbedToken(ctx, a, account.EmbedTokenInput{Domains: &d})
	checkErr("token limit", err)
	empty := " "
	_, _, err = h.accounts.CreateEmbedToken(ctx, a, account.EmbedTokenInput{Domains: &empty})
	checkErr("domains field", err)

	for _, line := range []string{`[1]`, `{"title":"x"}`, `{"type":"gadget"}`, `{"type":"qa"} x`, `{"type":"qa","question":1}`,
		`{"type":"product","name":"x","price":{}}`, `{"type":"qa","colour":"red"}`, `{"type":"qa",`, `{"type":"qa","question":"q","answer":"a","lang":"xx"}`,
		`{"type":"page","body":"b"}`, `{"type":"page","title":"t"}`, `{"type":"qa","question":"q"}`, `{"type":"product"}`,
		`{"type":"article","slug":"s"}`, `{"type":"page","url":"javascript:x","title":"t","body":"b"}`,
		`{"type":"page","url":"https://x.example/` + strings.Repeat("a", 3000) + `","title":"t","body":"b"}`,
		`{"type":"page","title":"` + strings.Repeat("t", 1000) + `","body":"b"}`,
		`{"type":"page","title":"t","body":"` + strings.Repeat("b", 3<<20) + `"}`,
		`{"type":"article","slug":"a b","title":"t","body":"b"}`} {
		_, err := kb.ParseJSONL(strings.NewReader(line))
		le, ok := errors.AsType[*kb.LineError](err)
		if !ok {
			t.Errorf("line %.60s: %v", line, err)
			continue
		}
		check("line "+line[:min(len(line), 60)], le.Reason, le.Key, le.Args)
	}
	for _, rec := range []string{`{"type":"page","title":"t","body":"<p> </p>"}`, `{"type":"article","slug":"s","title":"t","body":"<p> </p>"}`,
		`{"type":"qa","question":"q","answer":"<p> </p>"}`} {
		recs, err := kb.ParseJSONL(strings.NewReader(rec))
		if err != nil {
			t.Fatal(err)
		}
		_, err = kb.Build(recs[0])
		le, ok := errors.AsType[*kb.LineError](err)
		if !ok {
			t.Fatalf("build %s: %v", rec, err)
		}
		check("build", le.Reason, le.Key, le.Args)
	}
	// The studio's validation runs before anything uses its engine.
	svc := studio.New(studio.Deps{Store: h.st})
	bad := strings.Repeat("x", studio.MaxFieldChars+1)
	for _, in := range []studio.MarketingInput{{Brief: "\xff"}, {Brief: " "}, {Brief: strings.Repeat("b", studio.MaxBriefChars+1)},
		{Brief: "b", Product: bad}, {Brief: "b", Audience: bad}, {Brief: "b", Goal: bad}, {Brief: "b", Tone: bad}, {Brief: "b", Format: bad},
		{Brief: "b", Variants: ptr(9)}, {Brief: "b", Lang: "fr"}, {Brief: "b", Depth: "deep"}} {
		_, err := svc.Marketing(ctx, a, in)
		checkErr("marketing", err)
	}
	long := strings.Repeat("q", studio.MaxQuestionChars+1)
	for _, in := range []studio.IntelInput{{Op: "drop"}, {Op: "answer", Format: "pdf"}, {Op: "answer", Depth: "deep"},
		{Op: "answer", Lang: "fr"}, {Op: "answer"}, {Op: "answer", Question: "\xff"}, {Op: "answer", Question: long},
		{Op: "summarize"}, {Op: "summarize", Topic: long}, {Op: "summarize", Topic: "\xff"},
		{Op: "compare", Query: long}, {Op: "compare", Query: "\xff"}, {Op: "compare", Items: []string{"a"}}, {Op: "compare"},
		{Op: "compare", Items: make([]string, studio.MaxItems+1)}, {Op: "compare", Items: []string{"a", bad}},
		{Op: "extract"}, {Op: "extract", Fields: make([]string, studio.MaxFields+1)}, {Op: "extract", Fields: []string{bad}},
		{Op: "data"}, {Op: "data", Type: "widgets"}, {Op: "data", Type: "faq", Page: ptr(int64(0))},
		{Op: "data", Type: "faq", Limit: ptr(int64(studio.MaxDataLimit + 1))}} {
		_, err := svc.Intelligence(ctx, a, in)
		checkErr("intelligence "+in.Op, err)
	}

	// Rate limits: the limiter is used up first, so validation passes and the limit refuses.
	lim := ratelimit.NewMemory()
	limited := studio.New(studio.Deps{Store: h.st, Limiter: lim})
	for what, perMin := range map[string]int{"marketing": a.MarketingRatePerMin, "intelligence": a.IntelligenceRatePerMin} {
		for i := 0; i < 10_000; i++ {
			if ok, _ := lim.Allow(what+":acct:"+strconv.FormatInt(a.ID, 10), perMin, time.Now().UTC()); !ok {
				break
			}
		}
	}
	_, err = limited.Marketing(ctx, a, studio.MarketingInput{Brief: "b"})
	checkErr("marketing rate", err)
	_, err = limited.Intelligence(ctx, a, studio.IntelInput{Op: "answer", Question: "q"})
	checkErr("intelligence rate", err)

	// Updating: an empty list, and a revoked token.
	ts, err := h.accounts.EmbedTokens(ctx, a)
	if err != nil || len(ts) == 0 {
		t.Fatal(ts, err)
	}
	id := ts[0].Token.ID
	checkErr("update empty", h.accounts.UpdateEmbedToken(ctx, a, id, account.EmbedTokenInput{Domains: &empty}))
	if err := h.accounts.RevokeEmbedToken(ctx, a, id); err != nil {
		t.Fatal(err)
	}
	checkErr("update revoked", h.accounts.UpdateEmbedToken(ctx, a, id, account.EmbedTokenInput{Domains: &d}))

	// A line longer than the scanner takes.
	_, err = kb.ParseJSONL(strings.NewReader(`{"type":"qa","question":"` + strings.Repeat("q", 5<<20) + `"}`))
	if le, ok := errors.AsType[*kb.LineError](err); ok {
		check("long line", le.Reason, le.Key, le.Args)
	} else {
		t.Errorf("long line: %v", err)
	}

	// A record nobody parsed (kb.Build's own check of the type).
	_, err = kb.Build(kb.Record{Type: "gadget", Line: 4})
	if le, ok := errors.AsType[*kb.LineError](err); !ok || le.Line != 4 {
		t.Errorf("build gadget: %v", err)
	} else {
		check("build type", le.Reason, le.Key, le.Args)
	}

	for _, k := range cat.Keys("en") {
		if strings.HasPrefix(k, "err.") && !seen[k] {
			t.Logf("not exercised: %s", k)
		}
	}
	if len(seen) < 90 {
		t.Errorf("only %d keys exercised", len(seen))
	}
}

// Every "err." key the domain packages name literally is in the catalog, and so is every
// key the studio builds from a field name.
func TestEveryErrorKeyIsInTheCatalog(t *testing.T) {
	t.Parallel()
	cat := i18n.MustLoad()
	key := regexp.MustCompile(`"(err\.[a-z0-9_.]+)"`)
	n := 0
	for _, dir := range []string{"account", "embed", "studio", "crawl", "kb"} {
		files, _ := filepath.Glob(filepath.Join("..", dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range key.FindAllStringSubmatch(string(b), -1) {
				if strings.HasSuffix(m[1], ".") || strings.HasSuffix(m[1], "_") {
					continue // a prefix a key is built from, below
				}
				n++
				if !cat.Has(m[1]) {
					t.Errorf("%s: %q is not in the catalog", f, m[1])
				}
			}
		}
	}
	var built []string
	for _, name := range []string{"question", "topic", "query"} {
		built = append(built, "err.studio."+name+"_utf8", "err.studio."+name+"_required", "err.studio."+name+"_too_long")
	}
	for _, name := range []string{"product", "audience", "goal", "tone", "format"} {
		built = append(built, "err.studio."+name+"_too_long")
	}
	built = append(built, "err.studio.rate_limited_marketing", "err.studio.rate_limited_intelligence")
	for _, k := range built {
		if !cat.Has(k) {
			t.Errorf("%q is not in the catalog", k)
		}
	}
	if n < 70 {
		t.Errorf("only %d keys found in the domain packages", n)
	}
}
