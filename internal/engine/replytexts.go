package engine

import (
	"fmt"

	"svc/internal/i18n"
	"svc/internal/store"
)

// The fixed texts of a reply (lead-ins, tone openers, fallbacks, the source label, the
// openings of a product list) live in the i18n catalog under "reply.*", with every other
// user-facing text, so a translator edits them in one place and the catalog's tests prove
// each exists in every language. The engine reads them once into the tables below; they are
// read-only afterwards.

// replyTexts are the reply texts of every language, looked up by language (then tone or
// kind).
type replyTexts struct {
	leads    map[string][leadKinds][]string // lang → kind → its wordings
	openers  map[string]map[string][]string // lang → tone → openers; none for professional
	fallback map[string]map[string]string   // lang → tone → fallback
	source   map[string]string              // lang → the label of the source line
	products map[string]productIntro        // lang → openings of a product list
}

// leadNames name each kind of lead-in in the catalog: "reply.lead.<name>.<n>", n from 1.
var leadNames = [leadKinds]string{
	leadGeneral:    "general",
	leadHowTo:      "how_to",
	leadYesNo:      "yes_no",
	leadPrice:      "price",
	leadDuration:   "duration",
	leadWhen:       "when",
	leadPlace:      "place",
	leadDefinition: "definition",
	leadVerdict:    "verdict",
}

// replies are the catalog's reply texts, read when the package is initialized. The catalog
// is embedded and its tests (and TestReplyTextsComplete) prove every key is there, so a
// failure here is a build defect, not a runtime condition.
var replies = mustReplyTexts(i18n.MustLoad())

// The tables the rest of the engine looks up, from the catalog.
var (
	sourceLabels  = replies.source
	productIntros = replies.products
)

func mustReplyTexts(c *i18n.Catalog) replyTexts {
	t, err := loadReplyTexts(c)
	if err != nil {
		panic(err)
	}
	return t
}

// loadReplyTexts reads the reply texts of every language of c. A lead-in kind or a tone
// opener has as many wordings as the catalog numbers ("….1", "….2", …); every lead-in kind
// needs at least one.
func loadReplyTexts(c *i18n.Catalog) (replyTexts, error) {
	t := replyTexts{
		leads:    map[string][leadKinds][]string{},
		openers:  map[string]map[string][]string{},
		fallback: map[string]map[string]string{},
		source:   map[string]string{},
		products: map[string]productIntro{},
	}
	tones := []string{store.ToneProfessional, store.ToneWarm, store.ToneEnergetic}
	for _, lg := range i18n.Langs {
		one := func(key string) (string, error) {
			m, ok := c.Raw(lg, key)
			if !ok || m == "" {
				return "", fmt.Errorf("engine: reply text %q missing in %s", key, lg)
			}
			return m, nil
		}
		var leads [leadKinds][]string
		for k := range leadKinds {
			leads[k] = numbered(c, lg, "reply.lead."+leadNames[k])
			if len(leads[k]) == 0 {
				return replyTexts{}, fmt.Errorf("engine: no lead-in %q in %s", leadNames[k], lg)
			}
		}
		t.leads[lg] = leads
		t.openers[lg] = map[string][]string{}
		t.fallback[lg] = map[string]string{}
		for _, tone := range tones {
			t.openers[lg][tone] = numbered(c, lg, "reply.opener."+tone)
			f, err := one("reply.fallback." + tone)
			if err != nil {
				return replyTexts{}, err
			}
			t.fallback[lg][tone] = f
		}
		var err error
		if t.source[lg], err = one("reply.source"); err != nil {
			return replyTexts{}, err
		}
		var p productIntro
		for _, f := range []struct {
			key string
			to  *string
		}{{"list", &p.list}, {"recommend", &p.recommend}, {"compare", &p.compare}, {"price", &p.price}, {"stock", &p.stock}} {
			if *f.to, err = one("reply.products." + f.key); err != nil {
				return replyTexts{}, err
			}
		}
		t.products[lg] = p
	}
	return t, nil
}

// numbered lists the messages key.1, key.2, … of lg up to the first missing one.
func numbered(c *i18n.Catalog, lg, key string) []string {
	var out []string
	for n := 1; ; n++ {
		m, ok := c.Raw(lg, fmt.Sprintf("%s.%d", key, n))
		if !ok || m == "" {
			return out
		}
		out = append(out, m)
	}
}

// SourceLabel is the word that introduces a reply's source ("Source", "Kaynak", "Quelle") in
// lg, English for a language the catalog lacks: the one label of the source line
// (SourceLine) and of every other place that names a reply's source.
func SourceLabel(lg string) string {
	if l, ok := sourceLabels[lg]; ok {
		return l
	}
	return sourceLabels["en"]
}
