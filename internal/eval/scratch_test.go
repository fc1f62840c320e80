package eval

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"svc/internal/engine"
)

func variants() []struct {
	name string
	opts engine.Options
} {
	type v = struct {
		name string
		opts engine.Options
	}
	base := engine.DefaultRanking()
	mk := func(name string, f func(r *engine.Ranking, o *engine.Options)) v {
		r := base
		o := engine.Options{MinCoverage: -1}
		f(&r, &o)
		o.Ranking = &r
		return v{name, o}
	}
	var out []v
	spec := os.Getenv("VARIANTS")
	out = append(out, mk("default", func(r *engine.Ranking, o *engine.Options) {}))
	for _, s := range strings.Split(spec, ";") {
		if s == "" {
			continue
		}
		s := s
		out = append(out, mk(s, func(r *engine.Ranking, o *engine.Options) { apply(s, r, o) }))
	}
	return out
}

func apply(s string, r *engine.Ranking, o *engine.Options) {
	for _, kv := range strings.Split(s, ",") {
		var k string
		var f float64
		parts := strings.SplitN(kv, "=", 2)
		k = parts[0]
		fmt.Sscan(parts[1], &f)
		switch k {
		case "k1":
			r.K1 = f
		case "b":
			r.B = f
		case "cov":
			r.Coverage = f
		case "sent":
			r.Sentence = f
		case "bigram":
			r.Bigram = f
		case "title":
			r.Title = f
		case "lang":
			r.Lang = f
		case "sbigram":
			r.SentBigram = f
		case "cue":
			r.Cue = f
		case "nb":
			r.Neighbour = f
		case "spread":
			r.Spread = f
		case "max":
			o.MaxReplyChars = int(f)
		case "analyze":
			o.Analyze = int(f)
		case "cand":
			o.Candidates = int(f)
		case "mincov":
			o.MinCoverage = f
		}
	}
}

func TestScratch(t *testing.T) {
	ctx := context.Background()
	langs := []string{"en", "de", "tr"}
	if l := os.Getenv("LANGS"); l != "" {
		langs = strings.Split(l, ",")
	}
	var cs []*corpus
	for _, lg := range langs {
		t0 := time.Now()
		c, err := loadCorpus(ctx, "/work/shared/eval/xquad-dev", lg)
		if err != nil {
			t.Fatal(err)
		}
		defer c.close()
		cs = append(cs, c)
		fmt.Println("load", lg, time.Since(t0))
	}
	for _, v := range variants() {
		var reps []LangReport
		t0 := time.Now()
		for _, c := range cs {
			outs, err := c.run(ctx, v.opts)
			if err != nil {
				t.Fatal(err)
			}
			reps = append(reps, summarize(c.lang, outs))
			if os.Getenv("DUMP") != "" {
				dump(c.lang, outs)
			}
		}
		fmt.Printf("== %s (%v)\n", v.name, time.Since(t0))
		WriteTable(os.Stdout, reps)
	}
}

func dump(lg string, outs []outcome) {
	f, _ := os.Create("/tmp/scratch/dump." + lg + ".txt")
	defer f.Close()
	for _, o := range outs {
		fmt.Fprintf(f, "Q: %s\nGOLD: %v rank=%d found=%v conf=%v\nR: %s\n\n", o.q.text, o.q.answers, o.rank, o.found, o.confident, o.reply)
	}
}
