package eval

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"svc/internal/engine"
)

// TestFamilyAblation measures every dev set with each rule family of the engine switched off
// in turn (engine.Families), both halves, and logs BENCHMARKS.md's ablation table: answerable
// questions answered right, and unanswerable ones declined, as change against all families on.
// SVC_EVAL_ABLATION=1 go test -run FamilyAblation -v ./internal/eval/ (SVC_EVAL_ABLATION_ONLY=a,b
// measures only those families).
func TestFamilyAblation(t *testing.T) {
	if os.Getenv("SVC_EVAL_ABLATION") == "" {
		t.Skip("set SVC_EVAL_ABLATION=1 to run")
	}
	base := outcomeRates(devSamples(t, engine.Options{}))
	var b strings.Builder
	keys := make([]string, 0, len(base))
	for k := range base {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Fprintf(&b, "| family off | %s |\n|---|%s\n", strings.Join(keys, " | "), strings.Repeat("---|", len(keys)))
	fmt.Fprintf(&b, "| (none: all on) |")
	for _, k := range keys {
		fmt.Fprintf(&b, " %s |", base[k])
	}
	b.WriteString("\n")
	families := engine.Families
	if only := os.Getenv("SVC_EVAL_ABLATION_ONLY"); only != "" {
		families = strings.Split(only, ",")
	}
	for _, fam := range families {
		got := outcomeRates(devSamples(t, engine.Options{Off: []string{fam}}))
		for k, r := range base {
			if g := got[k]; g.answerable != r.answerable || g.unanswerable != r.unanswerable {
				t.Errorf("%s off: %s asked %d+%d questions, all on %d+%d", fam, k, g.answerable, g.unanswerable,
					r.answerable, r.unanswerable)
			}
		}
		fmt.Fprintf(&b, "| %s |", fam)
		for _, k := range keys {
			fmt.Fprintf(&b, " %s |", got[k].diff(base[k]))
		}
		b.WriteString("\n")
	}
	t.Logf("ablation (answered right / declined, change with the family off):\n%s", b.String())
}

// rates are one set and half's answered-right and declined counts.
type rates struct{ right, answerable, declined, unanswerable int }

func (r rates) String() string {
	s := fmt.Sprintf("%d/%d", r.right, r.answerable)
	if r.unanswerable > 0 {
		s += fmt.Sprintf(", %d/%d", r.declined, r.unanswerable)
	}
	return s
}

func (r rates) diff(base rates) string {
	s := fmt.Sprintf("%+d", r.right-base.right)
	if r.unanswerable > 0 {
		s += fmt.Sprintf(", %+d", r.declined-base.declined)
	}
	return s
}

// outcomeRates counts each set's outcome per half ("set tune" / "set confirm").
func outcomeRates(samples []Sample) map[string]rates {
	out := map[string]rates{}
	for _, s := range samples {
		k := s.Set + " confirm"
		if s.Tune {
			k = s.Set + " tune"
		}
		r := out[k]
		if s.Answerable {
			r.answerable++
			if s.Answered && s.Right {
				r.right++
			}
		} else {
			r.unanswerable++
			if !s.Answered {
				r.declined++
			}
		}
		out[k] = r
	}
	return out
}
