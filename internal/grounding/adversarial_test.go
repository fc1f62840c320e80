package grounding

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"svc/internal/store"
)

// adversarialCase is one case of testdata/adversarial.json: the sources of a generation, the
// text generated from them with planted unsupported claims, and every sentence of that text
// listed as supported (must be kept) or unsupported (must be removed).
type adversarialCase struct {
	Name    string `json:"name"`
	Lang    string `json:"lang"`
	Sources struct {
		Business string `json:"business"`
		Passages []struct {
			Title string `json:"title"`
			URL   string `json:"url"`
			Text  string `json:"text"`
			Lang  string `json:"lang"`
		} `json:"passages"`
		Products    []store.Product   `json:"products"`
		ProductText map[string]string `json:"product_text"`
	} `json:"sources"`
	Output      string   `json:"output"`
	Supported   []string `json:"supported"`
	Unsupported []string `json:"unsupported"`
}

func (c adversarialCase) sources() Sources {
	src := Sources{Business: c.Sources.Business, Products: c.Sources.Products, ProductText: c.Sources.ProductText}
	for i, p := range c.Sources.Passages {
		src.Passages = append(src.Passages, Passage{DocID: int64(i + 1), Type: store.DocPage, Title: p.Title,
			URL: p.URL, Text: p.Text, Lang: p.Lang})
	}
	return src
}

func loadAdversarial(t *testing.T) []adversarialCase {
	t.Helper()
	cases, err := readAdversarial()
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func readAdversarial() ([]adversarialCase, error) {
	b, err := os.ReadFile("testdata/adversarial.json")
	if err != nil {
		return nil, err
	}
	var set struct {
		Cases []adversarialCase `json:"cases"`
	}
	err = json.Unmarshal(b, &set)
	return set.Cases, err
}

// tally counts one language's sentences and what the guard did with them.
type tally struct {
	cases, unsupported, caught, supported, removed int
}

func (t tally) catchRate() float64    { return rate(t.caught, t.unsupported) }
func (t tally) falseRemoval() float64 { return rate(t.removed, t.supported) }

func rate(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return 100 * float64(n) / float64(of)
}

// TestAdversarialCatchRate runs the guard on the adversarial set and measures the catch rate
// (unsupported sentences removed / all unsupported) and the false-removal rate (supported
// sentences removed / all supported), per language and overall. Every unsupported sentence
// must go; at most 5% of the supported ones may.
func TestAdversarialCatchRate(t *testing.T) {
	cases := loadAdversarial(t)
	if len(cases) < 60 {
		t.Fatalf("the adversarial set has %d cases, want at least 60", len(cases))
	}
	byLang := map[string]*tally{}
	all := &tally{}
	for _, c := range cases {
		checkCaseData(t, c)
		tl := byLang[c.Lang]
		if tl == nil {
			tl = &tally{}
			byLang[c.Lang] = tl
		}
		cleaned, claims := New(c.sources(), c.Lang).Clean(c.Output)
		for _, x := range []*tally{tl, all} {
			x.cases++
		}
		for _, s := range c.Unsupported {
			caught := !strings.Contains(cleaned, s)
			for _, x := range []*tally{tl, all} {
				x.unsupported++
				if caught {
					x.caught++
				}
			}
			if !caught {
				t.Errorf("%s: kept an unsupported sentence: %q", c.Name, s)
			}
		}
		for _, s := range c.Supported {
			removed := !strings.Contains(cleaned, s)
			for _, x := range []*tally{tl, all} {
				x.supported++
				if removed {
					x.removed++
				}
			}
			if removed {
				t.Logf("%s: removed a supported sentence: %q (claims %v)", c.Name, s, claims)
			}
		}
	}
	var b strings.Builder
	b.WriteString("\n| lang | cases | unsupported sentences | removed | catch rate | supported sentences | removed | false-removal rate |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	row := func(name string, x *tally) {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %.1f%% | %d | %d | %.1f%% |\n", name, x.cases, x.unsupported, x.caught,
			x.catchRate(), x.supported, x.removed, x.falseRemoval())
	}
	for _, l := range []string{"tr", "en", "de"} {
		if x := byLang[l]; x != nil {
			row(l, x)
		}
	}
	row("all", all)
	t.Log(b.String())
	if all.caught < all.unsupported {
		t.Errorf("catch rate %.1f%%, want 100%%", all.catchRate())
	}
	if all.falseRemoval() > 5 {
		t.Errorf("false-removal rate %.1f%%, want at most 5%%", all.falseRemoval())
	}
}

// checkCaseData keeps the set honest: every listed sentence is in the output, and every
// sentence the guard's splitter finds in the output is listed, so no sentence escapes the count.
func checkCaseData(t *testing.T, c adversarialCase) {
	t.Helper()
	listed := append(slices.Clone(c.Supported), c.Unsupported...)
	if len(c.Unsupported) == 0 || len(c.Supported) == 0 {
		t.Errorf("%s: a case needs both supported and unsupported sentences", c.Name)
	}
	for _, s := range listed {
		if !strings.Contains(c.Output, s) {
			t.Errorf("%s: listed sentence not in the output: %q", c.Name, s)
		}
	}
	for _, line := range strings.Split(c.Output, "\n") {
		_, body := splitMarker(line)
		for _, sp := range sentences(body, normLang(c.Lang)) {
			if s := body[sp[0]:sp[1]]; !slices.Contains(listed, s) {
				t.Errorf("%s: sentence of the output not listed: %q", c.Name, s)
			}
		}
	}
}
