package lang

import "strings"

// vocabulary maps an ASCII-folded word to the languages it belongs to.
// A word listed for two languages ("in", "was", "da") counts half for
// each.
var vocabulary = buildVocabulary(map[int]string{en: wordsEN, de: wordsDE, tr: wordsTR})

func buildVocabulary(lists map[int]string) map[string][]int {
	v := make(map[string][]int)
	for l := 0; l < numLangs; l++ {
		for _, w := range strings.Fields(lists[l]) {
			if !containsLang(v[w], l) {
				v[w] = append(v[w], l)
			}
		}
	}
	return v
}

func containsLang(ls []int, l int) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

// wordsEN: frequent English function words, question words, greetings
// and shop vocabulary.
const wordsEN = `
the a an and or but if then than because so that this these those there here
what which who whom whose when where why how
is are was were be been being am do does did done doesnt dont didnt isnt arent wasnt cant wont
have has had having i you he she it we they me him her us them my your his its our their mine yours
not no yes can could will would shall should may might must
of to in on at by for with from about into over after before under between through during without
up down out off again just only also very too much many more most some any all each every other another such same own
new old good great well get got make made take took go going come came know see want need like
please thanks thank thx cheers hello hi hey bye goodbye okay sorry great perfect awesome warranty guarantee
order orders ordered shipping ship shipped delivery deliver delivered refund return returns returned
price prices cost costs pay payment paid account password store shop help item items product products
package parcel tracking track long time day days week weeks email address phone number cancel change
anyone anything something still yet already arrive arrived received receive send sent wrong broken
size open opening hours today tomorrow yesterday year years money free
`

// wordsDE: frequent German function words, question words, greetings
// and shop vocabulary (with umlauts folded: fur = für, zuruck = zurück).
const wordsDE = `
der die das den dem des ein eine einen einem einer eines und oder aber doch denn weil wenn dass ob als
wie wo was wer wen wem wessen wann warum wieso weshalb welche welcher welches welchen welchem woher wohin wieviel wieviele worum womit wofur
ist sind bin bist war waren wird werden wurde wurden worden hat habe haben hast hatte hatten
kann konnen koennen kannst muss mussen muessen soll sollen will wollen mochte moechte mochten moechten darf durfen
gibt geht gehen kommt kommen ich du er sie es wir ihr mich mir dich dir uns euch ihnen ihm ihn
mein meine meinen meinem meiner dein deine ihre ihren unser unsere nicht kein keine keinen nichts
noch schon auch nur sehr mehr viel viele immer wieder jetzt heute morgen gestern bald hier dort da
zu zum zur mit von vom bei beim nach aus auf fur fuer uber ueber unter vor hinter neben zwischen ohne gegen durch bis seit um im ins am an in
bitte danke dank vielen hallo moin servus guten tag abend tschuss tschuess tschues wiedersehen ja nein gut gerne prima perfekt toll garantie
lange dauert kostet kosten versand lieferung bestellung bestellt bestellen paket rechnung zahlung bezahlen
ruckgabe rueckgabe rucksendung ruecksendung umtausch konto passwort kunde geld preis preise ware frage hilfe
brauche brauchen erhalten bekommen angekommen verschickt zuruck zurueck moglich moeglich sich man einmal etwas alles sonst also dann
jahr jahre jahren zeit leider kaputt falsch bekomme funktioniert offnungszeiten oeffnungszeiten geoffnet geoeffnet
`

// wordsTR: frequent Turkish function words, question words and
// particles, greetings and shop vocabulary, folded (nasil = nasıl).
const wordsTR = `
ve veya ile ama fakat ancak ki de da mi mu bu su o bir iki uc ben sen biz siz onlar
beni bana benim senin sizin bizim onun sizi size icin gibi kadar daha cok az en her hic hep tum butun bazi baska
sonra once simdi bugun yarin dun hala artik zaten neden nicin niye nasil ne neydi nerede nereye nereden nerde hangi hangisi kac kim kimin kimdi kimdir
zaman misin misiniz miyim midir musun musunuz var yok degil evet hayir tamam lutfen
tesekkur tesekkurler tesekkurederim sagol saol sagolun merhaba merhabalar selam selamlar harika mukemmel garanti gunaydin iyi gunler aksamlar geceler
hosca hoscakal kal gorusuruz olan olarak oldu olur olsun olmaz olmadi yapabilir yapmak etmek ederim ediyorum
istiyorum isterim ister istiyoruz lazim gerek gerekiyor mumkun nedir acaba bile yani sey icinde uzerinde hakkinda gore ayni yeni eski
buyuk kucuk gun hafta ay yil saat dakika para fiyat ucret ucretsiz kargo siparis siparisim teslimat iade urun
magaza adres hesap sifre odeme kredi kart indirim musteri hizmet destek yardim bilgi numara telefon
gelmedi geldi gelir gelecek ulasmadi yaptim verdim aldim almak satin iptal bozuk yanlis hala
`
