package marketing

import (
	"hash/fnv"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/grounding"
	"svc/internal/lang"
	"svc/internal/lang/lexicon"
	"svc/internal/store"
	"svc/internal/textindex"
	"svc/internal/textindex/bm25"
	"svc/internal/variant"
)

// Copy formats the composer tells apart; "" is generic copy.
const (
	formatSocial  = "social"
	formatEmail   = "email"
	formatAd      = "ad"
	formatSMS     = "sms"
	formatLanding = "landing"
)

// Copywriting frameworks.
const (
	fwAIDA = "AIDA"
	fwPAS  = "PAS"
	fwFAB  = "FAB"
)

// plan is everything the composer reads from a request and its sources, worked out once.
type plan struct {
	req       Request
	src       grounding.Sources
	lang      string
	t         *texts
	tone      string
	tt        *toneTexts
	format    string
	stage     string
	framework string
	depth     string
	variants  int
	business  string
	audience  string // the request's audience when safe to echo, else ""
	product   *featured
	category  string          // the featured product's category, else the first the brief names
	products  []store.Product // the products of the sources in the request's language
	cats      []string        // their categories, in order, once each
	briefCats []string        // the categories the brief names
	facts     []fact          // passage sentences, best first
	offer     bool            // the brief asks for an offer (discount, sale, coupon...)
	claims    bool            // the brief states figures or offers
	seed      uint32
}

// featured is the product the copy features.
type featured struct {
	store.Product
	short string // the name without a trailing parenthesis, for headlines
	feats []fact // sentences of its own description
}

func newPlan(req Request, src grounding.Sources) *plan {
	p := &plan{req: req, src: src}
	p.lang = req.Lang
	if p.lang != lang.TR && p.lang != lang.DE {
		p.lang = lang.EN
	}
	p.t = textsFor(p.lang)
	p.tone = toneOf(req)
	p.tt = p.t.toneFor(p.tone)
	p.depth = req.Depth
	if p.depth != DepthFull && p.depth != DepthStrategy {
		p.depth = DepthLean
	}
	p.variants = req.Variants
	if p.variants <= 0 {
		p.variants = 3
	}
	p.variants = min(p.variants, 5)
	p.business = oneLine(req.Business)
	if p.business == "" {
		p.business = oneLine(src.Business)
	}
	p.business = clipRunes(p.business, 80)

	h := fnv.New32a()
	for _, s := range []string{req.Brief, req.Product, req.Audience, req.Goal, req.Format, p.lang} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	p.seed = h.Sum32()

	briefWords := words(req.Brief, p.lang)
	p.offer = matchAny(briefWords, offerWords)
	p.claims = p.offer || strings.ContainsAny(req.Brief, "0123456789%€$£₺")
	p.audience = safeAudience(req.Audience, p.lang)

	p.format = formatOf(words(req.Format, p.lang))
	if p.format == "" && req.Format == "" {
		p.format = formatOf(briefWords)
	}

	p.products = productsIn(src, p.lang)
	for _, pr := range p.products {
		if c := oneLine(pr.Category); c != "" && !containsFold(p.cats, c) {
			p.cats = append(p.cats, c)
		}
	}
	p.product = p.feature()
	p.briefCats = p.categoriesIn(req.Brief)
	switch {
	case p.product != nil:
		p.category = oneLine(p.product.Category)
	case len(p.briefCats) > 0:
		p.category = p.briefCats[0]
	}
	p.facts = p.passageFacts()

	// The goal says the stage; without one, a brief that asks for an offer wants sales, and
	// otherwise its own words may say it.
	p.stage = stageOf(words(req.Goal, p.lang))
	if p.stage == "" && p.offer {
		p.stage = StageConversion
	}
	if p.stage == "" {
		p.stage = stageOf(briefWords)
	}
	if p.stage == "" {
		p.stage = StageAwareness
		if p.product != nil {
			p.stage = StageConsideration
		}
	}
	p.framework = frameworkOf(p.stage, p.product != nil)
	return p
}

// toneOf maps the request's free tone to the closest preset, else the account's preset.
func toneOf(req Request) string {
	if t := strings.TrimSpace(req.Tone); t != "" {
		w := words(t, "en")
		switch {
		case matchAny(w, energeticWords):
			return store.ToneEnergetic
		case matchAny(w, warmWords):
			return store.ToneWarm
		case matchAny(w, professionalWords):
			return store.ToneProfessional
		}
	}
	switch req.TonePreset {
	case store.ToneWarm, store.ToneEnergetic, store.ToneProfessional:
		return req.TonePreset
	}
	return store.ToneProfessional
}

// formatOf reads a copy format from words.
func formatOf(w []string) string {
	switch {
	case matchAny(w, emailWords):
		return formatEmail
	case matchAny(w, smsWords):
		return formatSMS
	case matchAny(w, socialWords):
		return formatSocial
	case matchAny(w, adWords):
		return formatAd
	case matchAny(w, landingWords):
		return formatLanding
	}
	return ""
}

// stageOf reads a funnel stage from a goal's words; "" when they name none.
func stageOf(w []string) string {
	switch {
	case matchAny(w, retentionWords):
		return StageRetention
	case matchAny(w, advocacyWords):
		return StageAdvocacy
	case matchAny(w, conversionWords):
		return StageConversion
	case matchAny(w, considerationWords):
		return StageConsideration
	case matchAny(w, awarenessWords):
		return StageAwareness
	}
	return ""
}

// frameworkOf chooses the copywriting framework: FAB when a product's features can carry the
// copy at the middle and bottom of the funnel, PAS for conversion without a product, AIDA
// otherwise.
func frameworkOf(stage string, product bool) string {
	switch stage {
	case StageConsideration, StageConversion, StageRetention:
		if product {
			return fwFAB
		}
		if stage == StageConversion {
			return fwPAS
		}
	}
	return fwAIDA
}

// Keyword lists, ASCII-folded, matched against a text's folded words; the lexicon's
// marketing_keywords sections, where the notation is described (x, x*, *x, *x*). Requests may
// be written in any of the three languages whatever their lang, so every list holds all three.
var (
	offerWords         = keywords("offer")
	emailWords         = keywords("email")
	smsWords           = keywords("sms")
	socialWords        = keywords("social")
	adWords            = keywords("ad")
	landingWords       = keywords("landing")
	awarenessWords     = keywords("awareness")
	considerationWords = keywords("consideration")
	conversionWords    = keywords("conversion")
	retentionWords     = keywords("retention")
	advocacyWords      = keywords("advocacy")
	professionalWords  = keywords("professional")
	warmWords          = keywords("warm")
	energeticWords     = keywords("energetic")
	returnsWords       = keywords("returns")
	warrantyWords      = keywords("warranty")
	deliveryWords      = keywords("delivery")
	paymentWords       = keywords("payment")
	sellingWords       = keywords("selling")
	negativeWords      = keywords("negative")
)

// keywords returns one section of marketing_keywords; a missing section fails
// TestKeywordSections.
func keywords(section string) []string {
	for _, sec := range lexicon.Default().Sections(lexicon.MarketingKeywords, "") {
		if sec.Name == section {
			return sec.Entries
		}
	}
	return nil
}

// words returns the folded words of text.
func words(text, lg string) []string { return textindex.Words(text, lg) }

// matchAny reports whether the words match an entry of list (see the keyword lists): a
// phrase of patterns in the lexicon's notation (lexicon.PhraseAt).
func matchAny(w []string, list []string) bool {
	return slices.ContainsFunc(list, func(k string) bool { return lexicon.PhraseAt(w, strings.Fields(k)) >= 0 })
}

// productsIn returns the products of src that are not in another language than lg.
func productsIn(src grounding.Sources, lg string) []store.Product {
	var out []store.Product
	for _, pr := range src.Products {
		if strings.TrimSpace(pr.Name) == "" {
			continue
		}
		if l, ok := productLang(src, pr); ok && l != lg {
			continue
		}
		out = append(out, pr)
	}
	return out
}

// productLang is the language of a product: that of its passage when the sources hold one,
// else that of its description when it reads clearly as one language.
func productLang(src grounding.Sources, pr store.Product) (string, bool) {
	for _, ps := range src.Passages {
		if ps.Type == store.DocProduct && ps.Lang != "" && (ps.Title == pr.Name || (pr.URL != "" && ps.URL == pr.URL)) {
			return ps.Lang, true
		}
	}
	if text := src.ProductText[pr.Name]; text != "" {
		if d, conf := lang.Detect(text); conf >= 0.5 {
			return d, true
		}
	}
	return "", false
}

// feature finds the product to feature: the request's product when it names a product of the
// sources, or a name their passages use; without one, a product the brief clearly names.
func (p *plan) feature() *featured {
	if name := oneLine(p.req.Product); name != "" {
		if i := bestProduct(name, p.products, p.lang, false); i >= 0 {
			return p.featuredProduct(p.products[i])
		}
		if f := p.namedInPassages(name); f != nil {
			return f
		}
		return nil
	}
	if i := bestProduct(p.req.Brief, p.products, p.lang, true); i >= 0 {
		return p.featuredProduct(p.products[i])
	}
	return nil
}

// bestProduct returns the index of the product that query names best, or -1. A request's
// product must match at least half of its own terms; a brief must name at least half of the
// product's terms including the first (the brand-like word), so "a tent for summer" features
// no tent but "the Uludağ tent" does. A product whose variant the query excludes
// (variant.Fit: "Nova 12 Lite" against "Nova 12 Pro") is never the one.
func bestProduct(query string, products []store.Product, lg string, brief bool) int {
	q := textindex.QueryTerms(query, lg)
	if len(q) == 0 {
		return -1
	}
	names := make([]string, len(products))
	for i, pr := range products {
		names[i] = pr.Name
	}
	fit := variant.Fit(query, names)
	best, bestScore := -1, 0.0
	for i, pr := range products {
		name := textindex.IndexTerms(stripParen(pr.Name), lg)
		if len(name) == 0 || !fit[i] {
			continue
		}
		matchedQ := 0
		for _, t := range q {
			if termIn(t, name) > 0 {
				matchedQ++
			}
		}
		matchedName, first := 0, false
		for j, n := range name {
			if termIn(textindex.Term{Text: n}, termTexts(q)) > 0 {
				matchedName++
				if j == 0 {
					first = true
				}
			}
		}
		var score float64
		if brief {
			if !first || 2*matchedName < len(name) {
				continue
			}
			score = float64(matchedName) / float64(len(name))
		} else {
			if 2*matchedQ < len(q) || matchedQ == 0 {
				continue
			}
			score = float64(matchedQ)/float64(len(q)) + 0.1*float64(matchedName)/float64(len(name))
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	return best
}

func termTexts(q []textindex.Term) []string {
	out := make([]string, len(q))
	for i, t := range q {
		out[i] = t.Text
	}
	return out
}

// termIn scores how well a query term matches a list of analyzed terms: 1 for the same term
// (or a prefix term's match), 0.7 for a near match (one stem extends the other), else 0.
func termIn(q textindex.Term, terms []string) float64 {
	best := 0.0
	for _, t := range terms {
		switch {
		case bm25.Match(q.Text, q.Prefix, t):
			return 1
		case textindex.Extends(q.Text, t, 4):
			best = 0.7
		}
	}
	return best
}

func (p *plan) featuredProduct(pr store.Product) *featured {
	f := &featured{Product: pr, short: stripParen(oneLine(pr.Name))}
	if f.short == "" {
		f.short = oneLine(pr.Name)
	}
	text := p.src.ProductText[pr.Name]
	title, url := pr.Name, pr.URL
	if text == "" {
		for _, ps := range p.src.Passages {
			if ps.Type == store.DocProduct && (ps.Title == pr.Name || (pr.URL != "" && ps.URL == pr.URL)) {
				text = ps.Text
				break
			}
		}
	}
	for _, s := range productSentences(text, pr.Name, p.lang) {
		if p.offer && offerSentence(s, p.lang) {
			continue
		}
		topic, hits := topicOf(s, p.lang)
		f.feats = append(f.feats, fact{text: s, title: title, url: url, topic: topic, topicHits: hits})
	}
	return f
}

// namedInPassages features a name the request gives that no product card holds but a passage
// uses (a plan or service of the business), with the passages' spelling and no price.
func (p *plan) namedInPassages(name string) *featured {
	if utf8.RuneCountInString(name) < 3 {
		return nil
	}
	re, err := regexp.Compile(`(?i)(^|[^\pL\pN])(` + regexp.QuoteMeta(name) + `)([^\pL\pN]|$)`)
	if err != nil {
		return nil
	}
	for _, ps := range p.src.Passages {
		if ps.Lang != "" && ps.Lang != p.lang {
			continue
		}
		m := re.FindStringSubmatch(ps.Text)
		if m == nil {
			continue
		}
		f := &featured{Product: store.Product{Name: m[2], URL: ps.URL}, short: m[2]}
		for _, line := range strings.Split(ps.Text, "\n") {
			for _, s := range splitLine(line, p.lang) {
				if re.MatchString(s) && usableSentence(s) && !(p.offer && offerSentence(s, p.lang)) {
					topic, hits := topicOf(s, p.lang)
					f.feats = append(f.feats, fact{text: s, title: ps.Title, url: ps.URL, topic: topic, topicHits: hits})
				}
			}
		}
		return f
	}
	return nil
}

// categoriesIn returns the categories of the range that text names.
func (p *plan) categoriesIn(text string) []string {
	q := textindex.QueryTerms(text, p.lang)
	var out []string
	for _, c := range p.cats {
		terms := textindex.IndexTerms(c, p.lang)
		for _, t := range q {
			if termIn(t, terms) > 0 {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// safeAudience returns the audience when it can be echoed in copy: one short line with no
// figures, prices or offers, and nothing tag-like. Its first letter is lowered in English and
// Turkish when the first word is an ordinary capitalised word ("Hikers" → "hikers").
func safeAudience(a, lg string) string {
	a = strings.Trim(oneLine(a), " .,:;!?-–—\"'")
	if a == "" || utf8.RuneCountInString(a) > 60 || strings.ContainsAny(a, "0123456789%€$£₺<>{}[]#@/\\|") {
		return ""
	}
	if matchAny(words(a, lg), offerWords) {
		return ""
	}
	if lg == lang.DE {
		return a
	}
	first, _, _ := strings.Cut(a, " ")
	rs := []rune(first)
	if len(rs) > 1 && unicode.IsUpper(rs[0]) && strings.ToLower(string(rs[1:])) == string(rs[1:]) {
		lower := unicode.ToLower(rs[0])
		if lg == lang.TR {
			lower = unicode.TurkishCase.ToLower(rs[0])
		}
		return string(lower) + a[utf8.RuneLen(rs[0]):]
	}
	return a
}

// oneLine collapses white space, control characters included, into single spaces.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }), " ")
}

// stripParen drops a trailing parenthesis: "Toros Carbon Trekking Poles (pair)" is featured
// in a headline as "Toros Carbon Trekking Poles".
func stripParen(name string) string {
	name = strings.TrimSpace(name)
	if strings.HasSuffix(name, ")") {
		if i := strings.LastIndex(name, "("); i > 0 {
			return strings.TrimSpace(name[:i])
		}
	}
	return name
}

func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:n]))
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// lowerCategory lowers a category for use inside an English or Turkish
// sentence ("Footwear" → "footwear", "Sırt Çantası" → "sırt çantası"); German nouns keep
// their capital.
func lowerCategory(c, lg string) string {
	if lg == lang.DE {
		return c
	}
	if lg == lang.TR {
		return strings.ToLowerSpecial(unicode.TurkishCase, c)
	}
	return strings.ToLower(c)
}
