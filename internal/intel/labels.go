package intel

import (
	"fmt"
	"strings"

	"svc/internal/engine"
	"svc/internal/lang"
	"svc/internal/lang/lexicon"
)

// labels are the fixed words of shaped results in one language: column headers, headings
// and the sentences that say the knowledge base has nothing. They are added after Guard, so
// they state nothing about the business.
type labels struct {
	answer, source, sources, link                  string
	keyPoints, point                               string
	comparison, product, price, category, details  string
	verdict                                        string
	field, value, evidence                         string
	noAnswer, noPoints, noProducts, notStated      string
	openQuote, closeQuote                          string
	attrs                                          map[string]string // Attribute.Key -> label
	dataName, dataURL, dataDesc, dataImage, langLb string
	question, kind, slug, count                    string
}

// allLabels are the labels of each language, read from the lexicon's intel_labels once.
var allLabels = func() map[string]labels {
	out := make(map[string]labels)
	for _, lg := range lexicon.Languages() {
		l, _ := labelsFrom(lexicon.Default().Table(lexicon.IntelLabels, lg))
		out[lg] = l
	}
	return out
}()

// labelsFrom reads one language's labels; it returns the keys of the labels struct the table
// lacks, and the table keys the struct does not know, for the test that holds them equal.
func labelsFrom(t lexicon.TableView) (l labels, problems []string) {
	l.attrs = make(map[string]string)
	seen := 0
	for _, k := range t.Keys() {
		v, _ := t.Get(k)
		if a, ok := strings.CutPrefix(k, "attr."); ok {
			l.attrs[a] = v
			continue
		}
		if !l.set(k, v) {
			problems = append(problems, "unknown label "+k)
			continue
		}
		seen++
	}
	if seen != labelCount {
		problems = append(problems, fmt.Sprintf("%d of %d labels", seen, labelCount))
	}
	return l, problems
}

// labelCount is the number of string labels set knows.
const labelCount = 29

// set sets the label named k (the field's name) to v, reporting whether k is one.
func (l *labels) set(k, v string) bool {
	switch k {
	case "answer":
		l.answer = v
	case "sources":
		l.sources = v
	case "link":
		l.link = v
	case "keyPoints":
		l.keyPoints = v
	case "point":
		l.point = v
	case "comparison":
		l.comparison = v
	case "product":
		l.product = v
	case "price":
		l.price = v
	case "category":
		l.category = v
	case "details":
		l.details = v
	case "verdict":
		l.verdict = v
	case "field":
		l.field = v
	case "value":
		l.value = v
	case "evidence":
		l.evidence = v
	case "noAnswer":
		l.noAnswer = v
	case "noPoints":
		l.noPoints = v
	case "noProducts":
		l.noProducts = v
	case "notStated":
		l.notStated = v
	case "openQuote":
		l.openQuote = v
	case "closeQuote":
		l.closeQuote = v
	case "dataName":
		l.dataName = v
	case "dataURL":
		l.dataURL = v
	case "dataDesc":
		l.dataDesc = v
	case "dataImage":
		l.dataImage = v
	case "langLb":
		l.langLb = v
	case "question":
		l.question = v
	case "kind":
		l.kind = v
	case "slug":
		l.slug = v
	case "count":
		l.count = v
	default:
		return false
	}
	return true
}

// labelsFor returns the labels of lg, English for anything else. The source label is the
// engine's, the one its replies' source lines use.
func labelsFor(lg string) labels {
	l, ok := allLabels[lg]
	if !ok {
		l = allLabels[lang.EN]
	}
	l.source = engine.SourceLabel(lg)
	return l
}

// attrLabel is the label of an attribute key in lg: the known keys are translated, a
// model's own key is shown with spaces and a capital.
func attrLabel(key, lg string) string {
	if l, ok := labelsFor(lg).attrs[key]; ok {
		return l
	}
	b := []rune(key)
	for i, r := range b {
		if r == '_' || r == '-' {
			b[i] = ' '
		}
	}
	if len(b) > 0 && b[0] >= 'a' && b[0] <= 'z' {
		b[0] -= 'a' - 'A'
	}
	return string(b)
}
