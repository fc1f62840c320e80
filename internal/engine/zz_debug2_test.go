package engine

import (
	"context"
	"os"
	"testing"
)

func TestZZDebug2(t *testing.T) {
	if os.Getenv("DBG2") == "" {
		t.Skip()
	}
	e, acct := docsKB(t, Options{}, [3]string{"Gönderim ve teslimat", "Hafta içi saat 15:00'e kadar gelen siparişler aynı gün paketlenir.\n\n" +
		"## Yurt içi teslimat\n\nYurt içinde her adrese teslimat 2–4 iş günü sürer. Büyük şehirlerde çoğu paket ertesi gün teslim edilir.\n\n" +
		"## Gönderim ücreti\n\nYurt içi gönderim ücreti 79,90 TL'dir. 1.200 TL ve üzeri siparişlerde gönderim ücretsizdir.\n\n" +
		"## Yurt dışı\n\n" +
		"- Fransa: teslimat 6–8 iş günü, gönderim ücreti 12,90 €.\n", "tr"})
	a, _ := e.Answer(context.Background(), Request{AccountID: acct, Question: "Gönderim ücreti ne kadar, kaç günde gelir?", Lang: "tr"})
	t.Logf("%.3f %v %v", a.Answerability, a.Features.Map(), a.Text)
	qa := analyzeQuestion("Gönderim ücreti ne kadar, kaç günde gelir?", "tr")
	t.Logf("%+v", qa)
}
