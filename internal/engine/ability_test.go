package engine

import (
	"strings"
	"testing"
)

// "Can I pay in instalments?" with the ability form of "öde" (pay) finds the page that says
// "ödeme" (payment): the question's word is searched by its root, not by a prefix ("ödeye")
// that no page holds and that would weigh most in the coverage check.
func TestTurkishAbilityVerbFindsItsRoot(t *testing.T) {
	t.Parallel()
	e, acct := docsKB(t, Options{},
		[3]string{"Ödeme yöntemleri", "Kredi kartı, havale ve kapıda ödeme kabul ediyoruz.\n\n" +
			"## Taksit\n\nKredi kartıyla ödemede 2, 4 ve 8 taksit seçenekleri sunulur. 2.000 TL üzeri siparişlerde 4 taksit vade farksızdır.", "tr"},
		[3]string{"İade", "Ürünü 14 gün içinde iade edebilirsiniz. İade kargo ücreti bizden.", "tr"})
	a := ask(t, e, acct, "tr", "Taksitle ödeyebilir miyim?")
	if !strings.Contains(a.Text, "2, 4 ve 8 taksit") {
		t.Errorf("reply lacks the instalment rule:\n%s", a.Text)
	}
}
