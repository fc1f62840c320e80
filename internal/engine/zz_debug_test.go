package engine

import (
	"context"
	"os"
	"strings"
	"testing"
)

func TestZZDebug(t *testing.T) {
	qs := os.Getenv("DBG_Q")
	if qs == "" {
		t.Skip()
	}
	e, acct := shopKB(t)
	sales := os.Getenv("DBG_SALES") != ""
	if sales {
		e, acct, _ = demoSalesKB(t)
	}
	for _, line := range strings.Split(qs, "|") {
		lg, q, _ := strings.Cut(line, ":")
		a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: q, Lang: lg, SalesMode: sales && os.Getenv("DBG_NOSALES") == ""})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %q score %.3f conf %v feats %v\n%s", lg, q, a.Answerability, a.Confident, a.Features.Map(), a.Text)
	}
}
