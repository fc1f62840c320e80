package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode/utf8"

	"svc/internal/chat"
	"svc/internal/i18n"
	"svc/internal/nultext"
)

// SiteQuestion is one line of a question file for `svc eval site` (JSON Lines):
//
//	{"question":"How do I restore my wallet?","lang":"en","expect":"25.word (mnemonic )?seed"}
//	{"question":"Kestrel X2 Pro ne kadar?","lang":"tr","product":"Kestrel X2 Pro","expect":"18\\.499"}
//	{"question":"What is the best way to back up a wallet?","lang":"en","expect":"seed","no_product":true}
//
// expect is a Go regular expression (RE2 syntax) that the reply's text must match; it is
// always matched case-insensitively. product is the name of the one product card the reply
// must show (compared case-insensitively, spaces trimmed): the exact variant and nothing
// beside it, so a question about the "Kestrel X2 Lite" fails when the Pro's card comes first
// or comes along. Leave it out where several cards are a right answer ("which tent for
// winter?") and check the text with expect. no_product says the reply must carry no product
// card at all: the right thing for every question that is not about products. A question
// with expect or product is answerable: a low-confidence reply (the fallback) fails it even
// when its text happens to match.
//
//	{"question":"Do you offer gift wrapping?","lang":"en","decline":true}
//
// decline marks a question the KB does not answer: the right reply is the fallback (source
// "fallback", lowConfidence true, no product card), and any answer is a miss. It excludes
// expect and product, which describe an answer; no_product beside it adds nothing.
//
// A question needs at least one of expect, product, no_product and decline; when it has
// several, all must hold.
type SiteQuestion struct {
	Question  string `json:"question"`
	Lang      string `json:"lang"`
	Expect    string `json:"expect,omitempty"`
	Product   string `json:"product,omitempty"`
	NoProduct bool   `json:"no_product,omitempty"`
	Decline   bool   `json:"decline,omitempty"`
	// Line is the question's line in its file, for the report; it also names the question's
	// half (HalfOf): odd lines tune, even lines confirm.
	Line int `json:"line"`

	re *regexp.Regexp
}

// ReadQuestions reads a question file. Every problem is reported with its line number, and the
// whole file is refused: a measurement over a silently shortened list would mislead.
func ReadQuestions(r io.Reader) ([]SiteQuestion, error) {
	var out []SiteQuestion
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		q, err := parseQuestion(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		q.Line = n
		out = append(out, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read questions: %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no questions in the file")
	}
	return out, nil
}

func parseQuestion(line []byte) (SiteQuestion, error) {
	var q SiteQuestion
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&q); err != nil {
		return q, fmt.Errorf("not a question object: %v", err)
	}
	if dec.More() {
		return q, fmt.Errorf("more than one JSON value on the line")
	}
	q.Question = strings.TrimSpace(q.Question)
	q.Product = strings.TrimSpace(q.Product)
	switch {
	case nultext.In(q.Question):
		// Refused as every surface refuses it (nultext); a visitor's message could not hold one.
		return q, fmt.Errorf(`"question" contains a NUL character (U+0000)`)
	case q.Question == "":
		return q, fmt.Errorf(`"question" is missing or empty`)
	case utf8.RuneCountInString(q.Question) > chat.MaxMessageChars:
		return q, fmt.Errorf(`"question" is longer than a message may be (%d characters)`, chat.MaxMessageChars)
	case !i18n.Supported(q.Lang):
		return q, fmt.Errorf(`"lang" must be tr, en or de, not %q`, q.Lang)
	case q.Expect == "" && q.Product == "" && !q.NoProduct && !q.Decline:
		return q, fmt.Errorf(`give "expect", "product", "no_product" or "decline": nothing to check the reply against`)
	case q.Product != "" && q.NoProduct:
		return q, fmt.Errorf(`"product" and "no_product" contradict each other`)
	case q.Decline && (q.Expect != "" || q.Product != ""):
		return q, fmt.Errorf(`"decline" and "expect" or "product" contradict each other: a declined question has no answer to check`)
	}
	if q.Expect != "" {
		re, err := regexp.Compile("(?i)" + q.Expect)
		if err != nil {
			return q, fmt.Errorf(`"expect" is not a regular expression: %v`, err)
		}
		q.re = re
	}
	return q, nil
}
