package eval

import (
	"context"
	"os"
	"testing"
)

func TestScratch(t *testing.T) {
	reps, err := XQuAD(context.Background(), "/work/shared/eval/xquad-dev", []string{"en", "de", "tr"})
	if err != nil {
		t.Fatal(err)
	}
	WriteTable(os.Stdout, reps)
}
