package smalltalk

import "strings"

// Tone presets a business can choose for its assistant.
const (
	Professional = "professional"
	Warm         = "warm"
	Energetic    = "energetic"
)

type replyKey struct {
	kind Kind
	lang string
	tone string
}

// Reply returns the local answer for kind in lang ("tr", "en", "de") in
// the tone preset ("professional", "warm", "energetic"; unknown =
// professional). An unknown language gets English and an unknown kind
// the greeting, so there is always something sensible to say.
//
// Every reply steers the visitor back to asking about the business,
// which is what the assistant can actually do; none promises a human
// hand-over, because not every business offers one. Replies are fixed
// strings, so the same message always gets the same answer (and tests
// and caches stay deterministic).
func Reply(kind Kind, lang, tone string) string {
	key := replyKey{kind: kind, lang: replyLang(lang), tone: strings.ToLower(strings.TrimSpace(tone))}
	if rank(key.kind) == 0 {
		key.kind = Greeting
	}
	if key.tone != Warm && key.tone != Energetic {
		key.tone = Professional
	}
	return replies[key]
}

// replyLang maps "TR", "de-AT" and the like to a reply language.
func replyLang(lang string) string {
	lang = strings.ToLower(strings.TrimSpace(lang))
	if i := strings.IndexAny(lang, "-_"); i >= 0 {
		lang = lang[:i]
	}
	if lang == "tr" || lang == "de" {
		return lang
	}
	return "en"
}

// replies are written per language rather than translated: German uses
// "Sie" except in the energetic tone, Turkish "siz" except there.
var replies = map[replyKey]string{
	{Greeting, "en", Professional}: "Hello, how can I help you today? Feel free to ask me anything about our products and services.",
	{Greeting, "en", Warm}:         "Hi there, lovely to see you! What would you like to know about us? I'm happy to help.",
	{Greeting, "en", Energetic}:    "Hey, welcome! Fire away: what would you like to know about us?",
	{Thanks, "en", Professional}:   "You're welcome. If you have any other questions about our products or services, just ask.",
	{Thanks, "en", Warm}:           "You're very welcome, I'm glad I could help! Is there anything else you'd like to know?",
	{Thanks, "en", Energetic}:      "Anytime! Got another question about us? Ask away!",
	{Goodbye, "en", Professional}:  "Thank you for your visit. If more questions come up later, I'm here to answer them.",
	{Goodbye, "en", Warm}:          "Take care, and thanks for stopping by! Come back any time you have a question.",
	{Goodbye, "en", Energetic}:     "Bye for now! I'm always ready for your next question!",

	{Greeting, "de", Professional}: "Guten Tag, wie kann ich Ihnen helfen? Stellen Sie mir gern Ihre Frage zu unseren Produkten und Leistungen.",
	{Greeting, "de", Warm}:         "Hallo, schön, dass Sie da sind! Was möchten Sie über uns wissen? Ich helfe Ihnen gern.",
	{Greeting, "de", Energetic}:    "Hey, willkommen! Was willst du über uns wissen? Frag einfach los!",
	{Thanks, "de", Professional}:   "Gern geschehen. Wenn Sie weitere Fragen zu unseren Produkten oder Leistungen haben, fragen Sie einfach.",
	{Thanks, "de", Warm}:           "Sehr gern, es freut mich, dass ich helfen konnte! Gibt es noch etwas, das Sie wissen möchten?",
	{Thanks, "de", Energetic}:      "Immer gern! Noch eine Frage zu uns? Nur zu!",
	{Goodbye, "de", Professional}:  "Vielen Dank für Ihren Besuch. Wenn später Fragen aufkommen, beantworte ich sie gern.",
	{Goodbye, "de", Warm}:          "Alles Gute und danke für Ihren Besuch! Kommen Sie gern wieder, wenn Sie eine Frage haben.",
	{Goodbye, "de", Energetic}:     "Tschüss und bis bald! Ich bin jederzeit für deine nächste Frage da!",

	{Greeting, "tr", Professional}: "Merhaba, size nasıl yardımcı olabilirim? Ürünlerimiz ve hizmetlerimizle ilgili sorularınızı sorabilirsiniz.",
	{Greeting, "tr", Warm}:         "Merhaba, hoş geldiniz! Bizimle ilgili ne öğrenmek istersiniz? Memnuniyetle yardımcı olurum.",
	{Greeting, "tr", Energetic}:    "Selam, hoş geldin! Bizimle ilgili ne merak ediyorsan sor, hemen yanıtlayayım!",
	{Thanks, "tr", Professional}:   "Rica ederim. Ürünlerimiz veya hizmetlerimizle ilgili başka sorunuz olursa sorabilirsiniz.",
	{Thanks, "tr", Warm}:           "Rica ederim, yardımcı olabildiysem ne mutlu bana! Öğrenmek istediğiniz başka bir şey var mı?",
	{Thanks, "tr", Energetic}:      "Ne demek! Aklına başka bir soru gelirse çekinme, sor gitsin!",
	{Goodbye, "tr", Professional}:  "Ziyaretiniz için teşekkür ederiz. Daha sonra sorularınız olursa yanıtlamaktan memnuniyet duyarım.",
	{Goodbye, "tr", Warm}:          "Kendinize iyi bakın, uğradığınız için teşekkürler! Aklınıza bir soru gelirse yine bekleriz.",
	{Goodbye, "tr", Energetic}:     "Görüşmek üzere! Aklına yeni bir soru gelirse ben hep buradayım!",
}
