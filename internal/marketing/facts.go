package marketing

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"svc/internal/engine"
	"svc/internal/lang/lexicon"
	"svc/internal/store"
	"svc/internal/textindex"
)

// fact is a sentence copied word for word from the sources, with where it came from.
type fact struct {
	text  string
	title string // the document's title (for a product, its name)
	url   string
	topic string // "returns", "warranty", "delivery", "payment" or ""
	// topicHits is how many of the topic's words the sentence has.
	topicHits int
	score     float64
	doc       int // index of the passage, for spreading facts over documents
	// onSubject says the sentence holds a word of the subject (the featured product's name,
	// else the brief's key terms), or the brief names none (see proofPoints).
	onSubject bool
}

// Limits of a usable sentence, in characters.
const (
	minFactRunes = 25
	maxFactRunes = 220
)

// briefNoise are the words of a brief that say what to do rather than what about: they would
// make every passage that mentions "customers" or "order" look relevant (the lexicon's
// marketing_brief_noise). Analyzed per language before use.
var briefNoise = strings.Join(lexicon.Default().Entries(lexicon.MarketingBriefNoise, ""), " ")

// passageFacts returns the usable sentences of the passages (product descriptions apart),
// best first: those carrying the brief's key terms, then selling points, earlier (better
// retrieved) passages first. Sentences reading as negative ("cannot be returned") rank low;
// when the brief asks for an offer, sentences about discounts or percentages are left out,
// because next to an unconfirmed offer they would read as that offer.
func (p *plan) passageFacts() []fact {
	noise := make(map[string]bool)
	for _, t := range textindex.IndexTerms(briefNoise, p.lang) {
		noise[t] = true
	}
	var query []textindex.Term
	for _, t := range textindex.QueryTerms(p.req.Brief+"\n"+p.req.Product, p.lang) {
		if !noise[t.Text] {
			query = append(query, t)
		}
	}
	// The subject a proof point must be about: the featured product's name, else the brief's
	// key terms (not its audience's: "to hikers" would make boot care a backpack's proof).
	subject := query
	if p.product != nil {
		subject = textindex.QueryTerms(p.product.Name, p.lang)
	}
	var out []fact
	seen := make(map[string]bool)
	if p.product != nil {
		for _, f := range p.product.feats {
			seen[f.text] = true // the featured product's own sentences are used as such
		}
	}
	n := len(p.src.Passages)
	for i, ps := range p.src.Passages {
		if ps.Type == store.DocProduct || (ps.Lang != "" && ps.Lang != p.lang) {
			continue
		}
		for _, line := range strings.Split(ps.Text, "\n") {
			for _, s := range splitLine(line, p.lang) {
				if !usableSentence(s) || seen[s] || (p.offer && offerSentence(s, p.lang)) {
					continue
				}
				seen[s] = true
				w := words(s, p.lang)
				if p.namesOtherProduct(w) {
					continue
				}
				terms := textindex.IndexTerms(s, p.lang)
				score := 0.0
				for _, q := range query {
					score += termIn(q, terms)
				}
				onSubject := len(subject) == 0 || slices.ContainsFunc(subject, func(q textindex.Term) bool { return termIn(q, terms) > 0 })
				if matchAny(w, sellingWords) {
					score += 0.4
				}
				if matchAny(w, negativeWords) {
					score -= 1
				}
				score += 0.3 * float64(n-i) / float64(n)
				topic, hits := topicOf(s, p.lang)
				out = append(out, fact{text: s, title: factTitle(ps.Title, ps.URL), url: ps.URL, topic: topic, topicHits: hits, score: score, doc: i,
					onSubject: onSubject})
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].score > out[b].score })
	return out
}

// namesOtherProduct reports whether a sentence's words name a product other than the
// featured one (by the first word of its name, "Erciyes" of "Erciyes -5 Sleeping Bag"): next
// to a featured product, such a sentence would read as being about it.
func (p *plan) namesOtherProduct(w []string) bool {
	if p.product == nil {
		return false
	}
	own := firstNameWord(p.product.Name, p.lang)
	for _, pr := range p.products {
		fw := firstNameWord(pr.Name, p.lang)
		if len(fw) >= 4 && fw != own && slices.Contains(w, fw) {
			return true
		}
	}
	return false
}

func firstNameWord(name, lg string) string {
	if w := words(name, lg); len(w) > 0 {
		return w[0]
	}
	return ""
}

// factTitle is the title a fact is cited by.
func factTitle(title, url string) string {
	if t := oneLine(title); t != "" {
		return t
	}
	return url
}

// pickFacts returns up to n of the best facts, spread out: first one per document and topic,
// then one per document, then any that does not read as negative.
func pickFacts(facts []fact, n int, skip map[string]bool) []fact {
	var out []fact
	docs := make(map[int]bool)
	topics := make(map[string]bool)
	for pass := 0; pass < 3 && len(out) < n; pass++ {
		for _, f := range facts {
			if len(out) == n {
				break
			}
			if skip[f.text] || containsFact(out, f.text) || f.score < 0 {
				continue
			}
			if pass < 2 && docs[f.doc] || pass == 0 && f.topic != "" && topics[f.topic] {
				continue
			}
			docs[f.doc], topics[f.topic] = true, true
			out = append(out, f)
		}
	}
	return out
}

func containsFact(list []fact, text string) bool {
	for _, f := range list {
		if f.text == text {
			return true
		}
	}
	return false
}

// topicFact returns the fact most about topic, among those not in skip, or false.
func topicFact(facts []fact, topic string, skip map[string]bool) (fact, bool) {
	best, found := fact{}, false
	for _, f := range facts {
		if f.topic != topic || skip[f.text] || f.score < 0 {
			continue
		}
		if !found || f.score+0.2*float64(f.topicHits) > best.score+0.2*float64(best.topicHits) {
			best, found = f, true
		}
	}
	return best, found
}

var (
	reListItem = regexp.MustCompile(`^\d+[.)]\s`)
	reURL      = regexp.MustCompile(`(?i)https?://|www\.|\b[\pL\pN-]+\.[a-z]{2,}/`)
	rePhone    = regexp.MustCompile(`\+?\d[\d ()-]{7,}\d`)
)

// usableSentence reports whether a passage sentence can stand in marketing copy on its own:
// a whole sentence of reasonable length, not a question, a heading, a list step, a table row,
// a "Label: value" line, a menu path or contact details.
func usableSentence(s string) bool {
	n := utf8.RuneCountInString(s)
	if n < minFactRunes || n > maxFactRunes {
		return false
	}
	first, _ := utf8.DecodeRuneInString(s)
	if !unicode.IsUpper(first) && !unicode.IsDigit(first) {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	if last != '.' && last != '!' {
		return false
	}
	if strings.ContainsAny(s, "@>|<{}") || reListItem.MatchString(s) || labelLine(s) ||
		reURL.MatchString(s) || rePhone.MatchString(s) {
		return false
	}
	digits, letters := 0, 0
	for _, r := range s {
		switch {
		case unicode.IsDigit(r):
			digits++
		case unicode.IsLetter(r):
			letters++
		}
	}
	return letters >= 3*digits
}

// labelLine reports whether s reads as "Label: value" rather than a sentence with a colon in
// it: the part before the colon has at most four words, or the part after it starts with a
// figure ("Germany: 5–7 business days", "Preis: 89,90 €", "Hazırlanıyor: siparişiniz...").
func labelLine(s string) bool {
	i := strings.Index(s, ": ")
	if i < 0 {
		return false
	}
	if len(strings.Fields(s[:i])) <= 4 {
		return true
	}
	r, _ := utf8.DecodeRuneInString(strings.TrimSpace(s[i+1:]))
	return unicode.IsDigit(r) || strings.ContainsAny(string(r), "$€£₺")
}

// productSentences returns the sentences of a product's description, in order: whole
// sentences, and the short feature lines product pages list without a full stop, which get
// one. The lines a product's chunk starts with (its name; category and price as "Label:
// value") are not sentences of it.
func productSentences(text, name, lg string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.EqualFold(strings.TrimSpace(line), strings.TrimSpace(name)) {
			continue // the name heading a product's chunk
		}
		for _, s := range splitLine(line, lg) {
			n := utf8.RuneCountInString(s)
			if n < 12 || n > maxFactRunes || strings.HasSuffix(s, "?") || strings.HasSuffix(s, ":") || labelLine(s) ||
				strings.ContainsAny(s, "@>|<{}") || reURL.MatchString(s) || rePhone.MatchString(s) {
				continue
			}
			if last, _ := utf8.DecodeLastRuneInString(s); last != '.' && last != '!' {
				s += "."
			}
			if !containsString(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// offerSentence reports whether a sentence is about a discount or a percentage.
func offerSentence(s, lg string) bool {
	return strings.Contains(s, "%") || matchAny(words(s, lg), offerWords)
}

// topicWords are the topics of sentences, for objections, angles and risks.
var topicWords = []struct {
	topic string
	words []string
}{
	{"returns", returnsWords},
	{"warranty", warrantyWords},
	{"delivery", deliveryWords},
	{"payment", paymentWords},
}

// topicOf names what a sentence is mostly about, and how many of the topic's words it has.
func topicOf(s, lg string) (string, int) {
	w := words(s, lg)
	best, hits := "", 0
	for _, tw := range topicWords {
		n := 0
		for _, k := range tw.words {
			if lexicon.PhraseAt(w, strings.Fields(k)) >= 0 {
				n++
			}
		}
		if n > hits {
			best, hits = tw.topic, n
		}
	}
	return best, hits
}

// splitLine splits one line into sentences the way the answer engine does.
func splitLine(line, lg string) []string {
	line = strings.TrimSpace(line)
	if line == "" {
		return nil
	}
	return engine.SplitLine(line, lg)
}
