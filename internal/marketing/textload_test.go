package marketing

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"svc/internal/i18n"
)

// TestTextsComplete: every language has every text, and the maps the composer looks up by
// funnel stage, section or tone hold every one of them.
func TestTextsComplete(t *testing.T) {
	t.Parallel()
	all, err := loadTexts(i18n.MustLoad())
	if err != nil {
		t.Fatal(err)
	}
	for _, lg := range i18n.Langs {
		tx := all[lg]
		byKey := map[string][]string{
			"stage names": stages, "metrics": stages, "objectives": stages, "KPI names": stages,
			"KPI definitions": stages, "section titles": sectionKeys, "tone names": composerTones,
		}
		lookups := map[string]map[string]string{
			"stage names": tx.stageNames, "metrics": tx.metrics, "objectives": tx.objectives,
			"KPI names": tx.kpiNames, "KPI definitions": tx.kpiDefinitions,
			"section titles": tx.sectionTitles, "tone names": tx.toneNames,
		}
		for _, tone := range composerTones {
			byKey[tone+" calls to action"], lookups[tone+" calls to action"] = stages, tx.tones[tone].cta
			byKey[tone+" product calls"], lookups[tone+" product calls"] = stages, tx.tones[tone].ctaProduct
		}
		for name, m := range lookups {
			for _, k := range byKey[name] {
				if m[k] == "" {
					t.Errorf("%s: %s lack %q", lg, name, k)
				}
			}
		}
	}
}

var placeholder = regexp.MustCompile(`\{[a-z]+\}`)

// TestTextsPlaceholders: a message has the placeholders of its English original, so no fact
// the composer fills in is dropped and none is left unfilled in one language. (The catalog's
// own test compares fmt verbs, which these texts do not use.)
func TestTextsPlaceholders(t *testing.T) {
	t.Parallel()
	c := i18n.MustLoad()
	holders := func(m string) []string {
		return slices.Compact(slices.Sorted(slices.Values(placeholder.FindAllString(m, -1))))
	}
	n := 0
	for _, key := range c.Keys(i18n.Default) {
		if !strings.HasPrefix(key, textPrefix) {
			continue
		}
		n++
		en, _ := c.Raw(i18n.Default, key)
		for _, lg := range i18n.Langs[1:] {
			m, _ := c.Raw(lg, key)
			if !slices.Equal(holders(m), holders(en)) {
				t.Errorf("%s %s has %v, English %v", lg, key, holders(m), holders(en))
			}
		}
	}
	if n == 0 {
		t.Fatal("no marketing texts in the catalog")
	}
}

// TestLoadTextsRejects: a text missing from the catalog, or a "marketing.*" key the composer
// does not read, fails the load.
func TestLoadTextsRejects(t *testing.T) {
	t.Parallel()
	c := i18n.MustLoad()
	catalog := func(change func(map[string]string)) *i18n.Catalog {
		fs := fstest.MapFS{}
		for _, lg := range i18n.Langs {
			m := map[string]string{}
			for _, k := range c.Keys(lg) {
				m[k], _ = c.Raw(lg, k)
			}
			if lg == "tr" {
				change(m)
			}
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			fs["catalog/"+lg+".json"] = &fstest.MapFile{Data: b}
		}
		out, err := i18n.LoadFS(fs, "catalog")
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if _, err := loadTexts(catalog(func(map[string]string) {})); err != nil {
		t.Fatalf("the catalog as it is fails: %v", err)
	}
	for name, tc := range map[string]struct {
		change func(map[string]string)
		want   string
	}{
		"missing text": {func(m map[string]string) { delete(m, "marketing.plan.positioning") },
			`"marketing.plan.positioning" missing in tr`},
		"missing list": {func(m map[string]string) {
			for k := range m {
				if strings.HasPrefix(k, "marketing.strategy.budget.") {
					delete(m, k)
				}
			}
		}, `"marketing.strategy.budget" missing in tr`},
		"gap in a list": {func(m map[string]string) { delete(m, "marketing.strategy.budget.1") },
			`"marketing.strategy.budget.2" (tr) is no text`},
		"stray key": {func(m map[string]string) { m["marketing.plan.positoning"] = "x" },
			`"marketing.plan.positoning" (tr) is no text`},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := loadTexts(catalog(tc.change))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("loadTexts error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}
