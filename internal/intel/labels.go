package intel

import (
	"errors"
	"fmt"
	"strings"

	"svc/internal/engine"
	"svc/internal/i18n"
	"svc/internal/lang"
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

// labelPrefix starts every catalog key of the labels: "intel.<field>", and
// "intel.attr.<key>" for an attribute key's label.
const labelPrefix = "intel."

// allLabels are the labels of every catalog language, read when the package is initialized.
// They are sentences and headers a reader sees, not words code matches, so they live in the
// i18n catalog with the engine's reply texts; the catalog is embedded and the tests prove
// every label is there, so a failure here is a build defect, not a runtime condition.
var allLabels = mustLoadLabels(i18n.MustLoad())

func mustLoadLabels(c *i18n.Catalog) map[string]labels {
	all, err := loadLabels(c)
	if err != nil {
		panic(err)
	}
	return all
}

// loadLabels reads the labels of every language of c: each language must have every label
// set knows and no "intel.*" key it does not, so a misspelt key fails here rather than
// leaving a blank header.
func loadLabels(c *i18n.Catalog) (map[string]labels, error) {
	all := make(map[string]labels, len(i18n.Langs))
	var errs []error
	for _, lg := range i18n.Langs {
		l, problems := labelsFrom(c, lg)
		for _, p := range problems {
			errs = append(errs, fmt.Errorf("intel: labels of %s: %s", lg, p))
		}
		all[lg] = l
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return all, nil
}

// labelsFrom reads one language's labels from the catalog's "intel.*" keys; it returns the
// labels struct's keys the catalog lacks and the catalog keys the struct does not know.
func labelsFrom(c *i18n.Catalog, lg string) (l labels, problems []string) {
	l.attrs = make(map[string]string)
	seen := 0
	for _, k := range c.Keys(lg) {
		name, ok := strings.CutPrefix(k, labelPrefix)
		if !ok {
			continue
		}
		v, _ := c.Raw(lg, k)
		if v == "" {
			problems = append(problems, "empty label "+k)
			continue
		}
		if a, ok := strings.CutPrefix(name, "attr."); ok {
			l.attrs[a] = v
			continue
		}
		if !l.set(name, v) {
			problems = append(problems, "unknown label "+k)
			continue
		}
		seen++
	}
	if seen != labelCount {
		problems = append(problems, fmt.Sprintf("%d of %d labels", seen, labelCount))
	}
	if len(l.attrs) == 0 {
		problems = append(problems, "no attribute labels")
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
