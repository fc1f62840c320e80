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
	e, acct := docsKB(t, Options{}, [3]string{"Shipping and delivery", "Orders placed before 3 pm on a weekday are packed the same day.\n\n" +
		"## Domestic delivery\n\nDelivery to any address in the country takes 2–4 business days. In large cities most parcels arrive the next day.\n\n" +
		"## Shipping cost\n\nDomestic shipping costs $7.90. Orders of $120 or more ship free.\n\n" +
		"## Abroad\n\n" +
		"- France: delivery in 6–8 business days, shipping cost €12.90.\n", "en"})
	a, _ := e.Answer(context.Background(), Request{AccountID: acct, Question: "How much does shipping cost, and how long is delivery?", Lang: "en"})
	t.Logf("%.3f %v %v", a.Answerability, a.Features.Map(), a.Text)
}
