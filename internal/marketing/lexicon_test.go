package marketing

import (
	"slices"
	"testing"

	"svc/internal/lang/lexicon"
)

// TestKeywordSections holds marketing_keywords to the code: every keyword list the code reads
// has its section, and every section is read.
func TestKeywordSections(t *testing.T) {
	t.Parallel()
	read := map[string][]string{
		"offer": offerWords, "email": emailWords, "sms": smsWords, "social": socialWords, "ad": adWords,
		"landing": landingWords, "awareness": awarenessWords, "consideration": considerationWords,
		"conversion": conversionWords, "retention": retentionWords, "advocacy": advocacyWords,
		"professional": professionalWords, "warm": warmWords, "energetic": energeticWords,
		"returns": returnsWords, "warranty": warrantyWords, "delivery": deliveryWords,
		"payment": paymentWords, "selling": sellingWords, "negative": negativeWords,
	}
	for name, words := range read {
		if len(words) == 0 {
			t.Errorf("keyword list %s is empty", name)
		}
	}
	for _, sec := range lexicon.Default().Sections(lexicon.MarketingKeywords, "") {
		if _, ok := read[sec.Name]; !ok {
			t.Errorf("section [%s] is read by no keyword list", sec.Name)
		}
	}
}

// TestAliasTargets holds the alias tables to the code: every alias names a stage or a section.
func TestAliasTargets(t *testing.T) {
	t.Parallel()
	for alias, st := range stageAliases {
		if !slices.Contains(stages, st) {
			t.Errorf("stage alias %q names no stage: %q", alias, st)
		}
	}
	for alias, key := range sectionAliases {
		if !slices.Contains(sectionKeys, key) {
			t.Errorf("section alias %q names no section: %q", alias, key)
		}
	}
	if len(stageAliases) < 39 {
		t.Errorf("%d stage aliases, want the 39 listed", len(stageAliases))
	}
}
