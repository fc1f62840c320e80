package api_test

import (
	"fmt"
	"net/url"
	"testing"

	"svc/internal/account"
)

// BenchmarkSend measures one `send` through the real router, auth, pipeline and SQLite store,
// for each way a message can be answered. Reported in BENCHMARKS.md.
func BenchmarkSend(b *testing.B) {
	questions := []string{"Which jacket size for a 100 cm chest?", "Wie lange habe ich Garantie?",
		"Kadıköy mağazası pazar günü açık mı?", "How much does the Uludağ 2 tent cost?"}
	cases := []struct {
		name string
		msg  func(i int) string
	}{
		{"smalltalk", func(int) string { return "Hello!" }},
		{"cache_tenant", func(int) string { return "How long does delivery take?" }},
		{"builtin_answer", func(i int) string { return fmt.Sprintf("%s %d", questions[i%len(questions)], i) }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			h := newHarness(b)
			_, key := h.tenant(account.Settings{SendRatePerMin: ptr(10_000), DailyAnswers: ptr(0),
				BalanceMicro: ptr(int64(1_000_000_000))})
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				r := h.postForm("/api/v1/chat/send", key, url.Values{"message": {tc.msg(i)}})
				if r.Status != 200 {
					b.Fatalf("send: %d %s", r.Status, r.raw)
				}
			}
		})
	}
}
