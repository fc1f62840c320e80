package engine

import (
	"context"
	"strings"
	"testing"
)

// A German noun of the question met only by the verb of the same spelling is no evidence:
// "Laden" (a shop) against "Laden Sie … herunter" (download) and "laden" (to load). The same
// noun written as a noun in the passage still answers.
func TestHomonymCarriesNoAnswer(t *testing.T) {
	t.Parallel()
	e, acct := docsKB(t, Options{},
		[3]string{"Installation", "Laden Sie zum Installieren das vollständige Abbild herunter. Danach können Sie die App auf Ihr Gerät laden und starten.", "de"},
		[3]string{"Updates", "Die App prüft jeden Tag, ob eine neue Version bereitsteht, und lädt sie im Hintergrund.", "de"},
		[3]string{"Kontakt", "Unser Team erreichen Sie per E-Mail. Ein Ladengeschäft haben wir nicht.", "de"},
	)
	a, err := e.Answer(context.Background(), Request{AccountID: acct, Question: "Habt ihr einen Laden in München?", Lang: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if a.Confident {
		t.Errorf("a question about a shop answered from the verb laden: %q (features %v)", a.Text, a.Features.Map())
	}

	e, acct = docsKB(t, Options{},
		[3]string{"Filialen", "Unseren Laden in München finden Sie in der Sendlinger Straße 5. Er ist montags bis samstags geöffnet.", "de"},
		[3]string{"Installation", "Laden Sie zum Installieren das vollständige Abbild herunter.", "de"},
	)
	a, err = e.Answer(context.Background(), Request{AccountID: acct, Question: "Habt ihr einen Laden in München?", Lang: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Confident || !strings.Contains(a.Text, "Sendlinger") {
		t.Errorf("the shop's own page did not answer: %q (features %v)", a.Text, a.Features.Map())
	}
}
