package extract

import (
	"strings"

	"golang.org/x/net/html"
)

// QA is one question of a page's FAQ with its answer as plain text (HTML stripped, white
// space collapsed).
type QA struct{ Question, Answer string }

// FAQ returns the question–answer pairs of the page's JSON-LD FAQPage (mainEntity Question
// with acceptedAnswer, one or many) and microdata FAQPage, in page order, each question
// once. Pairs without a question or an answer are left out.
func FAQ(doc *html.Node) []QA {
	if doc == nil {
		return nil
	}
	var out []QA
	seen := map[string]bool{}
	add := func(q, a string) {
		key := strings.ToLower(q)
		if q == "" || a == "" || seen[key] {
			return
		}
		seen[key] = true
		out = append(out, QA{Question: q, Answer: a})
	}
	ld := readLD(doc)
	for _, b := range ld.blocks {
		for _, v := range b.values {
			ldVisit(v, 0, func(o map[string]any) bool {
				if !hasType(ldTypes(o), "FAQPage") {
					return true
				}
				for _, q := range ld.objects(o["mainEntity"]) {
					question := cleanText(ldString(q["name"]))
					if question == "" {
						question = cleanText(ldString(q["text"]))
					}
					add(question, ld.answer(q))
				}
				return false
			})
		}
	}
	for _, it := range readMicrodata(doc) {
		mdFAQ(it, 0, add)
	}
	return out
}

// answer is the text of a Question's accepted answer (the first one with text), or of a
// suggested answer when a page gives no accepted one.
func (d ldDoc) answer(q map[string]any) string {
	for _, k := range [...]string{"acceptedAnswer", "suggestedAnswer"} {
		for _, a := range d.objects(q[k]) {
			if s := cleanText(ldString(a["text"])); s != "" {
				return s
			}
		}
		if s, ok := q[k].(string); ok { // an answer given as a bare string
			if s = cleanText(s); s != "" {
				return s
			}
		}
	}
	return ""
}

// mdFAQ finds microdata FAQPage items however they nest and reads their questions.
func mdFAQ(it *mdItem, depth int, add func(q, a string)) {
	if depth > maxItemDepth {
		return
	}
	if !it.is("FAQPage") {
		for _, p := range it.props {
			if p.item != nil {
				mdFAQ(p.item, depth+1, add)
			}
		}
		return
	}
	for _, p := range it.all("mainEntity") {
		if p.item == nil {
			continue
		}
		q := p.item.text("name")
		if q == "" {
			q = p.item.text("text")
		}
		a := ""
		for _, k := range [...]string{"acceptedAnswer", "suggestedAnswer"} {
			for _, ap := range p.item.all(k) {
				if ap.item != nil {
					a = ap.item.text("text")
				} else {
					a = ap.text()
				}
				if a != "" {
					break
				}
			}
			if a != "" {
				break
			}
		}
		add(q, a)
	}
}
