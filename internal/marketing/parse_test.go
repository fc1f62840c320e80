package marketing

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"svc/internal/grounding"
)

// hallucinations are model replies that invent a price, a discount, a product and free
// shipping around one true sentence and one true headline, per language, with what must not
// survive the guard and what must.
var hallucinations = map[string]struct {
	reply         string
	banned, kept  []string
	keptVariant   string
	keptInBody    string
	keptHashtagOf string
}{
	"en": {
		reply: `Here is your copy:
` + "```json" + `
{"headline": "Everest Ultra Jacket: now only $19.99!",
 "body": "Get 40% off everything this weekend. Free shipping on every order, no minimum. Three-layer hooded rain jacket with a 20,000 mm waterproof rating and a breathable membrane. The Everest Ultra Jacket is our best seller.",
 "cta": "Grab 40% off now",
 "variants": ["Save 40% today", "Free shipping on all orders", "Meet the Poyraz Rain Jacket", "Everest Ultra Jacket for $19.99"],
 "hashtags": ["#FreeShipping", "#BlackFriday", "#YolcuOutdoor"],
 "strategy_used": "AIDA"}
` + "```",
		banned:      []string{"19.99", "40", "everest", "free shipping", "freeshipping", "blackfriday", "best seller", "off"},
		keptInBody:  "Three-layer hooded rain jacket with a 20,000 mm waterproof rating and a breathable membrane.",
		keptVariant: "Meet the Poyraz Rain Jacket",
	},
	"tr": {
		reply: `{"headline": "Everest Ultra Mont şimdi sadece 199 TL!",
 "body": "Bu hafta sonu tüm ürünlerde %40 indirim. Tüm siparişlerde kargo ücretsiz. 3 katmanlı, 20.000 mm su sütunlu ve nefes alabilen kapüşonlu yağmurluk. Everest Ultra Mont en çok satan ürünümüz.",
 "cta": "%40 indirimi kaçırmayın",
 "variants": ["Bugün %40 indirim", "Tüm siparişlerde ücretsiz kargo", "Poyraz Yağmurluk ile tanışın", "Everest Ultra Mont 199 TL"],
 "hashtags": "#ÜcretsizKargo #KaraCuma #YolcuOutdoor",
 "strategy_used": "AIDA"}`,
		banned:      []string{"199 tl", "40", "everest", "indirim", "ücretsiz", "kargo", "karacuma", "çok satan"},
		keptInBody:  "3 katmanlı, 20.000 mm su sütunlu ve nefes alabilen kapüşonlu yağmurluk.",
		keptVariant: "Poyraz Yağmurluk ile tanışın",
	},
	"de": {
		reply: `{"content": {"headline": "Everest Ultra Jacke jetzt nur 19,99 €!",
 "body": "Dieses Wochenende 40 % Rabatt auf alles. Kostenloser Versand für jede Bestellung. Dreilagige Regenjacke mit Kapuze, 20.000 mm Wassersäule und atmungsaktiver Membran. Die Everest Ultra Jacke ist unser Bestseller.",
 "callToAction": "Jetzt 40 % Rabatt sichern",
 "variants": ["Heute 40 % Rabatt", "Versandkostenfrei bestellen", "Poyraz Regenjacke im Detail", "Everest Ultra Jacke für 19,99 €"],
 "hashtags": ["#Versandkostenfrei", "#BlackFriday", "#YolcuOutdoor"],
 "strategyUsed": "AIDA"}}`,
		banned:      []string{"19,99", "40", "everest", "rabatt", "kostenlos", "versandkostenfrei", "blackfriday", "bestseller"},
		keptInBody:  "Dreilagige Regenjacke mit Kapuze, 20.000 mm Wassersäule und atmungsaktiver Membran.",
		keptVariant: "Poyraz Regenjacke im Detail",
	},
}

// Parse of a hallucinating reply followed by Guard leaves none of the inventions and keeps
// what the sources support.
func TestParseThenGuardRemovesHallucinations(t *testing.T) {
	for _, lg := range langs {
		h := hallucinations[lg]
		src := onlyProducts(demoSources(t, lg))
		req := Request{Brief: discountBriefs[lg], Product: demoProducts[lg].query, Lang: lg, Business: "Yolcu Outdoor", Variants: 3, Format: "social"}
		c, err := Parse(req, src, h.reply)
		if err != nil {
			t.Fatalf("%s: %v", lg, err)
		}
		l := c.(*Lean)
		if !strings.Contains(l.Headline, "Everest") || !strings.Contains(l.Body, "40") || len(l.Variants) != 3 {
			t.Fatalf("%s: the reply was not read as written: %+v", lg, l)
		}
		claims := Guard(c, req, src)
		if len(claims) == 0 {
			t.Errorf("%s: the guard reported no claims", lg)
		}
		checkLean(t, req, c)
		b, _ := json.Marshal(c)
		out := strings.ToLower(string(b))
		for _, w := range h.banned {
			if strings.Contains(out, w) {
				t.Errorf("%s: %q survived: %s", lg, w, b)
			}
		}
		if !strings.Contains(l.Body, h.keptInBody) {
			t.Errorf("%s: the supported sentence was lost: %q", lg, l.Body)
		}
		if !slices.Contains(l.Variants, h.keptVariant) {
			t.Errorf("%s: the supported variant was lost: %q", lg, l.Variants)
		}
		if !slices.Contains(l.Hashtags, "YolcuOutdoor") {
			t.Errorf("%s: the business hashtag was lost: %q", lg, l.Hashtags)
		}
	}
}

// The same holds of the full deliverable and the strategy: invented figures, offers and
// products go, the shape stays.
func TestParseThenGuardDeepContent(t *testing.T) {
	fullReply := `{"positioning": "The Everest Ultra Jacket is the number one rain jacket in Europe. Three-layer hooded rain jacket with a 20,000 mm waterproof rating and a breathable membrane.",
 "segment": "Hikers", "funnel_stage": "MOFU",
 "angles": [{"name": "Price", "hook": "Only $19.99 this week", "message": "Get 40% off the Poyraz Rain Jacket."},
            {"name": "Product", "hook": "Meet the Poyraz Rain Jacket", "message": "Three-layer hooded rain jacket with a 20,000 mm waterproof rating and a breathable membrane."}],
 "objections": [{"objection": "Is it too expensive?", "response": "Not with free shipping and a lifetime warranty."}],
 "channel_adaptations": [{"channel": "Instagram", "copy": "Free shipping this weekend only!", "notes": "Post at 6 pm."}],
 "proof_points": [{"claim": "Rated 4.9 by 12,000 customers", "source": "Reviews", "url": "https://example.com/reviews"},
                  {"claim": "Poyraz Rain Jacket: $94.00", "source": "Poyraz Rain Jacket"}],
 "hashtags": ["FreeShipping", "PoyrazRainJacket"],
 "strategy_rationale": "Discounts drive 30% more sales.",
 "next_experiment": {"hypothesis": "A 40% discount beats 30%.", "variant_a": "40% off", "variant_b": "30% off", "metric": "CTR"}}`
	strategyReply := `{"sections": [
 {"key": "measurement", "title": "KPIs", "summary": "Grow conversion by 25% in a month.", "points": ["Spend $5,000 on ads."],
  "kpis": [{"name": "CTR", "stage": "consideration", "definition": "Clicks over impressions", "target": "4.5%"}]},
 {"key": "budget", "summary": "Spend $5,000 in total.", "points": ["$3,000 on Instagram", "Test small before scaling."]},
 {"key": "market_analysis", "summary": "The Everest Ultra Jacket leads a market worth $2 billion.", "points": ["Poyraz Rain Jacket: $94.00 (Clothing)"]}]}`
	src := onlyProducts(demoSources(t, "en"))
	for _, tc := range []struct {
		depth, reply string
		banned       []string
	}{
		{DepthFull, fullReply, []string{"everest", "number one", "19.99", "40%", "free shipping", "lifetime", "4.9", "12,000", "example.com", "freeshipping", "30%", "6 pm"}},
		{DepthStrategy, strategyReply, []string{"everest", "25%", "5,000", "3,000", "4.5%", "billion"}},
	} {
		req := Request{Brief: "Promote the rain jacket", Product: "Poyraz Rain Jacket", Lang: "en", Depth: tc.depth, Business: "Yolcu Outdoor"}
		c, err := Parse(req, src, tc.reply)
		if err != nil {
			t.Fatal(err)
		}
		if claims := Guard(c, req, src); len(claims) == 0 {
			t.Errorf("%s: no claims reported", tc.depth)
		}
		checkContent(t, req, c)
		b, _ := json.Marshal(c)
		out := strings.ToLower(string(b))
		for _, w := range tc.banned {
			if strings.Contains(out, w) {
				t.Errorf("%s: %q survived: %s", tc.depth, w, b)
			}
		}
		if !strings.Contains(string(b), "$94.00") {
			t.Errorf("%s: the true price was lost: %s", tc.depth, b)
		}
		if tc.depth == DepthFull {
			f := c.(*Full)
			if f.FunnelStage != StageConsideration {
				t.Errorf("funnel stage %q, want consideration", f.FunnelStage)
			}
			if !slices.Contains(f.Hashtags, "PoyrazRainJacket") {
				t.Errorf("supported hashtag lost: %q", f.Hashtags)
			}
			for _, pp := range f.ProofPoints {
				if pp.Claim == "Poyraz Rain Jacket: $94.00" && pp.URL != "https://yolcu-outdoor.example/en/products/poyraz-rain-jacket" {
					t.Errorf("proof point not cited by its product page: %+v", pp)
				}
			}
		}
		if tc.depth == DepthStrategy {
			s := c.(*Strategy)
			if got := s.Sections[slices.Index(sectionKeys, SectionBudget)].Points; !slices.Contains(got, "Test small before scaling.") {
				t.Errorf("budget points %q lost the supported one", got)
			}
		}
	}
}

func TestParseNotJSON(t *testing.T) {
	src := demoSources(t, "en")
	for _, reply := range []string{"", "Sorry, I cannot help with that.", "{not json", "```\nheadline: x\n```"} {
		if _, err := Parse(Request{Lang: "en"}, src, reply); !errors.Is(err, ErrNotJSON) {
			t.Errorf("Parse(%q) error %v, want ErrNotJSON", reply, err)
		}
	}
}

// Parse fixes the shape of lean copy: counts, hashtags, missing and renamed fields.
func TestParseFixesLean(t *testing.T) {
	src := demoSources(t, "en")
	for _, tc := range []struct {
		name, reply string
		variants    int
		check       func(t *testing.T, l *Lean)
	}{
		{"too many variants", `{"headline": "A", "body": "B.", "cta": "C", "variants": ["1", "2", "3", "4", "5", "6", "7"], "hashtags": ["#x"]}`, 2,
			func(t *testing.T, l *Lean) {
				if !slices.Equal(l.Variants, []string{"1", "2"}) {
					t.Errorf("variants %q", l.Variants)
				}
			}},
		{"too few variants", `{"headline": "A", "body": "B.", "cta": "C", "variants": ["only one", "A", "only one"]}`, 4,
			func(t *testing.T, l *Lean) {
				if len(l.Variants) != 4 || l.Variants[0] != "only one" || slices.Contains(l.Variants, "A") {
					t.Errorf("variants %q", l.Variants)
				}
			}},
		{"variants as one string", `{"headline": "A", "body": "B.", "cta": "C", "variants": "- one\n- two\n- three"}`, 3,
			func(t *testing.T, l *Lean) {
				if !slices.Equal(l.Variants, []string{"one", "two", "three"}) {
					t.Errorf("variants %q", l.Variants)
				}
			}},
		{"hashtags as a string", `{"headline": "A", "body": "B.", "cta": "C", "hashtags": "#Hiking, #Rain #hiking ＃Yolcu"}`, 1,
			func(t *testing.T, l *Lean) {
				if !slices.Equal(l.Hashtags, []string{"Hiking", "Rain", "Yolcu"}) {
					t.Errorf("hashtags %q", l.Hashtags)
				}
			}},
		{"missing fields", `{"body": "Only a body."}`, 3,
			func(t *testing.T, l *Lean) {
				if l.Headline == "" || l.CTA == "" || l.Body != "Only a body." || l.Hashtags == nil || len(l.Variants) != 3 || l.StrategyUsed == "" {
					t.Errorf("not completed: %+v", l)
				}
			}},
		{"wrapped and renamed", "Sure!\n```json\n{\"data\": {\"Title\": \"A\", \"Main Copy\": \"B.\", \"call_to_action\": \"C\", \"frameworks\": [\"AIDA\", \"FAB\"]}}\n```", 1,
			func(t *testing.T, l *Lean) {
				if l.Headline != "A" || l.Body != "B." || l.CTA != "C" || l.StrategyUsed != "AIDA + FAB" {
					t.Errorf("not read: %+v", l)
				}
			}},
		{"scalar JSON", `"just a string"`, 2,
			func(t *testing.T, l *Lean) {
				if l.Headline == "" || l.Body == "" || len(l.Variants) != 2 {
					t.Errorf("not built: %+v", l)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := Request{Brief: "Promote the shop", Lang: "en", Business: "Yolcu Outdoor", Variants: tc.variants}
			c, err := Parse(req, src, tc.reply)
			if err != nil {
				t.Fatal(err)
			}
			l := c.(*Lean)
			tc.check(t, l)
			checkLean(t, req, l)
			if b, _ := json.Marshal(l); strings.Contains(string(b), "null") {
				t.Errorf("null in %s", b)
			}
		})
	}
}

// Parse completes the full deliverable: missing lists and fields from the built-in composer,
// synonyms of stages, never null.
func TestParseFixesFull(t *testing.T) {
	src := demoSources(t, "tr")
	req := Request{Brief: "Yağmurluğu tanıtın", Product: "Poyraz Yağmurluk", Lang: "tr", Depth: DepthFull, Business: "Yolcu Outdoor"}
	c, err := Parse(req, src, `{"positioning": "Poyraz Yağmurluk yürüyüşçüler için.", "funnelStage": "Dönüşüm", "objections": [{"question": "Pahalı mı?"}], "nextExperiment": {"a": "Başlık A"}}`)
	if err != nil {
		t.Fatal(err)
	}
	f := c.(*Full)
	if f.Hashtags == nil || len(f.Hashtags) != 0 {
		t.Errorf("missing hashtags are %#v, want []", f.Hashtags)
	}
	f.Hashtags = []string{"x"}
	checkFull(t, f)
	if f.Positioning != "Poyraz Yağmurluk yürüyüşçüler için." || f.FunnelStage != StageConversion {
		t.Errorf("fields not read: %q %q", f.Positioning, f.FunnelStage)
	}
	if len(f.Objections) != 1 || f.Objections[0].Objection != "Pahalı mı?" || f.Objections[0].Response == "" {
		t.Errorf("objections %+v", f.Objections)
	}
	if f.NextExperiment.VariantA != "Başlık A" || f.NextExperiment.VariantB == "" || f.NextExperiment.Metric == "" {
		t.Errorf("experiment %+v", f.NextExperiment)
	}
	if b, _ := json.Marshal(f); strings.Contains(string(b), "null") {
		t.Errorf("null in %s", b)
	}
}

// Parse always returns the twelve sections in order: the reply's, wherever and however it
// put them, and the built-in composer's for the rest.
func TestParseFixesStrategy(t *testing.T) {
	src := demoSources(t, "de")
	req := Request{Brief: "Regenjacke bewerben", Product: "Poyraz Regenjacke", Lang: "de", Depth: DepthStrategy, Business: "Yolcu Outdoor"}
	for _, tc := range []struct {
		name, reply string
		want        map[string]string // key → summary the reply gave
	}{
		{"out of order, unknown and repeated", `{"sections": [
			{"key": "risks", "summary": "Risiko A."},
			{"key": "nonsense", "summary": "X."},
			{"title": "Marktanalyse", "summary": "Markt A."},
			{"key": "risks", "summary": "Risiko B."},
			{"key": "Funnel", "summary": "Trichter.", "stages": [{"stage": "Kaufabschluss", "message": "Jetzt kaufen."}, {"stage": "TOFU", "objective": "Sichtbar werden."}], "kpis": [{"name": "CTR"}]},
			{"key": "measurement", "kpis": [{"name": "Conversion-Rate"}, {"name": "Reichweite", "target": "Ausgangswert"}]}]}`,
			map[string]string{SectionRisks: "Risiko A.", SectionMarketAnalysis: "Markt A.", SectionFunnel: "Trichter."}},
		{"sections as keys", `{"personas": {"summary": "Wer kauft.", "personas": [{"name": "Wanderin", "forces": {"push": "Alte Jacke undicht."}}]}, "budget": "Klein anfangen."}`,
			map[string]string{SectionPersonas: "Wer kauft.", SectionBudget: "Klein anfangen."}},
		{"a bare list", `[{"key": "roadmap", "summary": "Schritt für Schritt."}]`,
			map[string]string{SectionRoadmap: "Schritt für Schritt."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Parse(req, src, tc.reply)
			if err != nil {
				t.Fatal(err)
			}
			s := c.(*Strategy)
			checkStrategy(t, s)
			for _, sec := range s.Sections {
				if want, ok := tc.want[sec.Key]; ok && sec.Summary != want {
					t.Errorf("%s: summary %q, want %q", sec.Key, sec.Summary, want)
				}
				if sec.Title != textsFor("de").sectionTitles[sec.Key] {
					t.Errorf("%s: title %q", sec.Key, sec.Title)
				}
				switch sec.Key {
				case SectionFunnel:
					if tc.name == "out of order, unknown and repeated" && (sec.Stages[2].Message != "Jetzt kaufen." || sec.Stages[0].Objective != "Sichtbar werden.") {
						t.Errorf("stages not read: %+v", sec.Stages)
					}
				case SectionMeasurement:
					if tc.name == "out of order, unknown and repeated" {
						if len(sec.KPIs) != 2 || sec.KPIs[0].Stage != StageConversion || sec.KPIs[1].Target != "Ausgangswert" {
							t.Errorf("KPIs %+v", sec.KPIs)
						}
					}
				case SectionPersonas:
					if tc.name == "sections as keys" && (len(sec.Personas) != 1 || sec.Personas[0].Name != "Wanderin" || sec.Personas[0].Forces.Push != "Alte Jacke undicht." || sec.Personas[0].Forces.Habit == "") {
						t.Errorf("personas %+v", sec.Personas)
					}
				}
			}
			if b, _ := json.Marshal(s); strings.Contains(string(b), "null") {
				t.Errorf("null in %s", b)
			}
		})
	}
}

// Guard replaces unsupported short fields with safe built-in lines and keeps counts exact.
func TestGuardReplacesShortFields(t *testing.T) {
	for _, lg := range langs {
		src := onlyProducts(demoSources(t, lg))
		req := Request{Brief: "x", Lang: lg, Business: "Yolcu Outdoor", Variants: 5}
		l := &Lean{
			Headline: "Everest Ultra 3000 for $19.99",
			Body:     "Everest Ultra 3000 for $19.99.",
			CTA:      "Get 40% off the Everest Ultra 3000",
			Variants: []string{"Everest Ultra 3000 for $19.99", "Everest Ultra 3000", "Everest Ultra 3000 at 40% off", "Everest X200", "Everest X200 for $19.99"},
			Hashtags: []string{"#EverestUltra3000"},
		}
		if claims := Guard(l, req, src); len(claims) == 0 {
			t.Errorf("%s: no claims", lg)
		}
		checkLean(t, req, l)
		b, _ := json.Marshal(l)
		if strings.Contains(string(b), "Everest") || strings.Contains(string(b), "19.99") {
			t.Errorf("%s: %s", lg, b)
		}
		if l.StrategyUsed == "" {
			t.Errorf("%s: no strategy_used", lg)
		}
	}
}

func TestGuardIgnoresOtherValues(t *testing.T) {
	src := grounding.Sources{}
	for _, c := range []Content{nil, Lean{}, (*Lean)(nil), (*Full)(nil), (*Strategy)(nil), "text"} {
		if claims := Guard(c, Request{Lang: "en"}, src); len(claims) != 0 {
			t.Errorf("Guard(%T) = %v", c, claims)
		}
	}
}
