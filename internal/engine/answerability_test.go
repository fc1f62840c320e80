package engine

import (
	"strings"
	"testing"
)

// The model the engine ships with loads, names exactly the engine's features, and decides:
// more of the question covered never lowers the score.
func TestDefaultAnswerability(t *testing.T) {
	t.Parallel()
	m, err := DefaultAnswerability()
	if err != nil {
		t.Fatal(err)
	}
	if m.Trained == "" {
		t.Error("the model does not say what it was fitted on")
	}
	for i, w := range m.Weights {
		if w*FeatureSigns[i] < 0 {
			t.Errorf("feature %s has weight %v against its sign %v", FeatureNames[i], w, FeatureSigns[i])
		}
	}
	// A passage that holds most of a two-term question in one sentence and stands well above
	// the next, against one that holds a fifth of it.
	var low, high Features
	for _, f := range []int{featCoverage, featSentence, featQuote} {
		low[f], high[f] = 0.2, 0.9
	}
	low[featMargin], high[featMargin] = loneMargin, loneMargin
	high[featTwoMet] = 1
	if m.Score(low) >= m.Score(high) {
		t.Errorf("score %v at low coverage, %v at high", m.Score(low), m.Score(high))
	}
	if m.Score(high) < m.Threshold || m.Score(low) >= m.Threshold {
		t.Errorf("threshold %v does not part %v (low coverage) from %v (high)", m.Threshold, m.Score(low), m.Score(high))
	}
}

func TestParseAnswerabilityRefusesABadFile(t *testing.T) {
	t.Parallel()
	good, err := DefaultAnswerability()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := good.MarshalFile()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ParseAnswerability(raw); err != nil {
		t.Fatalf("the written model does not read back: %v", err)
	}
	for _, c := range []struct{ file, want string }{
		{`{`, "answerability model"},
		{`{"features":["coverage"],"weights":[1],"threshold":0.5}`, "features and 1 weights"},
		{strings.Replace(string(raw), `"coverage"`, `"covered"`, 1), `feature 0 is "covered"`},
		{strings.Replace(string(raw), `"threshold": `, `"threshold": 1`, 1), "outside (0, 1)"},
	} {
		if _, err := ParseAnswerability([]byte(c.file)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%.40q: error %v, want %q", c.file, err, c.want)
		}
	}
}
