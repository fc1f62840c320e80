package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// squadFile is the part of the SQuAD v1.1 JSON layout that XQuAD uses and the report reads.
type squadFile struct {
	Data []struct {
		Title      string `json:"title"`
		Paragraphs []struct {
			Context string `json:"context"`
			QAs     []struct {
				ID       string `json:"id"`
				Question string `json:"question"`
				Answers  []struct {
					Text string `json:"text"`
				} `json:"answers"`
			} `json:"qas"`
		} `json:"paragraphs"`
	} `json:"data"`
}

// paragraph is one XQuAD context, imported as one KB page.
type paragraph struct {
	url, title, text string
	article          string // the article's title, underscores read as spaces
}

// question is one XQuAD question with the page it was asked about and its gold answers.
type question struct {
	id, text string
	url      string
	answers  []string
	half     string // HalfA or HalfB: the half of the dev articles its article is in
}

// loadSQuAD reads dir/xquad.<lang>.dev.json into pages and questions. Pages get a stable URL
// per article and paragraph and a title made of the article title (underscores read as
// spaces) and the paragraph number, as a site would title its sections.
func loadSQuAD(dir, lang string) ([]paragraph, []question, error) {
	path := filepath.Join(dir, "xquad."+lang+".dev.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", path, err)
	}
	var f squadFile
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, nil, fmt.Errorf("parse %s: %w", path, err)
	}
	var paras []paragraph
	var qs []question
	for ai, art := range f.Data {
		title := strings.ReplaceAll(art.Title, "_", " ")
		for pi, p := range art.Paragraphs {
			url := fmt.Sprintf("https://xquad.test/%s/%d/%d", lang, ai, pi)
			paras = append(paras, paragraph{url: url, title: fmt.Sprintf("%s (%d)", title, pi+1), text: p.Context,
				article: title})
			for _, qa := range p.QAs {
				q := question{id: qa.ID, text: qa.Question, url: url, half: Half(art.Title)}
				for _, a := range qa.Answers {
					q.answers = append(q.answers, a.Text)
				}
				qs = append(qs, q)
			}
		}
	}
	if len(paras) == 0 || len(qs) == 0 {
		return nil, nil, fmt.Errorf("%s: no paragraphs or questions", path)
	}
	return paras, qs, nil
}

// The two halves of the dev articles. Quality work tunes on half A only and confirms on
// half B, which it never looks at, so that a rule that fits the tuned questions rather than
// the language shows up as a gap between the halves.
const (
	HalfA = "a"
	HalfB = "b"
)

// Half returns the half of the dev split an article belongs to: A when the first byte of the
// SHA-256 of its title, as the file spells it ("Super_Bowl_50"), is even, else B. The title
// is the same in every language's file, so a half holds the same articles in all three; on
// the dev files that is 12 articles each, 281 questions in A and 351 in B per language.
func Half(title string) string {
	if sha256.Sum256([]byte(title))[0]%2 == 0 {
		return HalfA
	}
	return HalfB
}

// Page is an XQuAD paragraph as the report imports it, and Question a question asked about
// the page at URL.
type Page struct{ URL, Title, Article, Text string }

// Question is an XQuAD question and the URL of the page it was asked about.
type Question struct{ Text, URL string }

// LoadXQuAD returns the pages and questions of dir/xquad.<lang>.dev.json, with the URLs and
// titles the report gives them, for other measurements on the same data (`svc bench`).
func LoadXQuAD(dir, lang string) ([]Page, []Question, error) {
	paras, qs, err := loadSQuAD(dir, lang)
	if err != nil {
		return nil, nil, err
	}
	pages := make([]Page, len(paras))
	for i, p := range paras {
		pages[i] = Page{URL: p.url, Title: p.title, Article: p.article, Text: p.text}
	}
	questions := make([]Question, len(qs))
	for i, q := range qs {
		questions[i] = Question{Text: q.text, URL: q.url}
	}
	return pages, questions, nil
}

// importLines renders the pages as a KB import file (JSON Lines), so that the report measures
// exactly what `svc kb import` would index.
func importLines(paras []paragraph, lang string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, p := range paras {
		line := struct {
			Type  string `json:"type"`
			URL   string `json:"url"`
			Title string `json:"title"`
			Body  string `json:"body"`
			Lang  string `json:"lang"`
		}{"page", p.url, p.title, p.text, lang}
		if err := enc.Encode(line); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}
