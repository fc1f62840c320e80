package eval

import (
	"context"
	"testing"

	"svc/internal/engine"
	"svc/internal/store"
)

// BenchmarkXQuADAnswer runs the built-in engine's Answer on every XQuAD dev question of a
// language over that language's KB, one question after another: what a new answer costs in
// the engine alone, the part issue 23's decision added to (profile it with -cpuprofile).
//
//	go test ./internal/eval -run '^$' -bench XQuADAnswer$ -benchtime 2x -cpuprofile /tmp/answer.prof
func BenchmarkXQuADAnswer(b *testing.B) {
	dir := xquadDir(&testing.T{})
	for _, lg := range []string{"en", "de", "tr"} {
		b.Run(lg, func(b *testing.B) {
			ctx := context.Background()
			c, err := loadCorpus(ctx, dir, lg)
			if err != nil {
				b.Fatal(err)
			}
			defer c.close()
			eng, err := engine.New(c.st, engine.Options{})
			if err != nil {
				b.Fatal(err)
			}
			answered := 0
			b.ResetTimer()
			for b.Loop() {
				answered = 0
				for _, q := range c.qs {
					a, err := eng.Answer(ctx, engine.Request{AccountID: c.accountID, Question: q.text, Lang: lg, Tone: store.ToneProfessional})
					if err != nil {
						b.Fatal(err)
					}
					if a.Confident {
						answered++
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(c.qs)), "µs/question")
			b.ReportMetric(float64(answered), "answered")
		})
	}
}
