package bitcoinsite

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Question is one line of questions.<lang>.jsonl: an answerable question lists the
// substrings a right reply contains (any one of them, compared case-insensitively); an
// unanswerable one lists none.
type Question struct {
	Q          string   `json:"q"`
	Expect     []string `json:"expect"`
	Answerable bool     `json:"answerable"`
}

// siteQuestion is a line of `svc eval site`'s question file (internal/eval.SiteQuestion),
// written here rather than imported because internal/eval's own tests use this package.
type siteQuestion struct {
	Question string `json:"question"`
	Lang     string `json:"lang"`
	Expect   string `json:"expect,omitempty"`
	Decline  bool   `json:"decline,omitempty"`
}

// QuestionFile turns questions.<lang>.jsonl of the folder src into `svc eval site`'s question
// file: an answerable question's substrings, regexp-quoted and alternated, become its expect;
// an unanswerable question is marked decline. Line n of the result is line n of the source
// (a blank line stays blank), so the report's halves (odd lines tune, even lines confirm)
// are the source file's.
func QuestionFile(src, lang string) ([]byte, error) {
	name := filepath.Join(src, "questions."+lang+".jsonl")
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			out.WriteByte('\n')
			continue
		}
		var q Question
		if err := json.Unmarshal(line, &q); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", name, n, err)
		}
		sq := siteQuestion{Question: q.Q, Lang: lang}
		switch {
		case q.Answerable && len(q.Expect) > 0:
			quoted := make([]string, len(q.Expect))
			for i, e := range q.Expect {
				quoted[i] = regexp.QuoteMeta(e)
			}
			sq.Expect = strings.Join(quoted, "|")
		case !q.Answerable && len(q.Expect) == 0:
			sq.Decline = true
		default:
			return nil, fmt.Errorf("%s line %d: answerable %v with %d expected substrings", name, n, q.Answerable, len(q.Expect))
		}
		j, err := json.Marshal(sq)
		if err != nil {
			return nil, err
		}
		out.Write(j)
		out.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return out.Bytes(), nil
}
