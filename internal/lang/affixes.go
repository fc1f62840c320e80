package lang

// stems are word beginnings typical of one language in shop and support
// messages; they catch inflected forms the vocabulary does not list
// ("siparişlerim", "Bestellnummer", "delivering").
var stems = [numLangs][]string{
	en: {"deliver", "refund", "purchas", "shipp", "receiv", "cancel", "payment", "account", "customer", "tracking", "thank"},
	de: {"bestell", "liefer", "widerruf", "versand", "versend", "rechnung", "zahlung", "bezahl", "rucksend", "ruecksend", "kunden", "erstatt", "geschaft", "geschaeft", "bekomm", "verschick", "umtausch", "gutschein", "dank"},
	tr: {"sipari", "kargo", "sifre", "unut", "teslim", "odeme", "iade", "urun", "fiyat", "ucret", "hesab", "magaza", "musteri", "yardim", "tesekkur", "degis", "gonder", "ulas", "istiyor", "yapabil", "edebil", "alabil"},
}

// suffixes are word endings typical of one language. Endings that are
// just as common elsewhere (Turkish -den against German "Kunden",
// Turkish -tur against German "Natur") are left out on purpose.
var suffixes = [numLangs][]string{
	en: {"ing", "tion", "tions", "ness", "ment", "ments", "ful", "less", "ly", "ous", "ity", "ies", "ed"},
	de: {"ung", "ungen", "keit", "keiten", "heit", "heiten", "lich", "liche", "lichen", "licher", "chen", "isch", "ische", "ischen", "schaft", "ieren", "iert", "ierte", "tzt", "sch", "ern", "gen", "st"},
	tr: {
		"lar", "ler", "lari", "leri", "larin", "lerin", "lardan", "lerden", "larda", "lerde", "lara", "lere",
		"imiz", "iniz", "umuz", "unuz", "imizi", "inizi",
		"iyor", "iyorum", "iyoruz", "uyor", "uyorum", "miyor", "muyor", "yorum", "yoruz",
		"acak", "ecek", "acagim", "ecegim", "abilir", "ebilir", "abilirim", "ebilirim",
		"madi", "medi", "madim", "medim", "mistir", "mustur", "misti", "musti", "mis", "mus",
		"dir", "tir", "sinda", "sinde", "inda", "inde", "ndan", "yla", "yle",
		"siz", "suz", "lik", "luk", "ligi", "lugu", "mak", "mek", "mamak", "memek",
		"sini", "sunu", "sina", "sine", "asi", "esi", "isim", "imi", "misin", "misiniz", "musun", "musunuz",
		"digi", "dugu", "tigi", "tugu", "diginiz", "dugunuz", "iydi", "uydu", "dim", "dum", "tim",
	},
}

// patterns are letter sequences that are frequent in one language and
// rare in the others (German "sch", English "th"; "w" does not occur in
// Turkish words at all).
var patterns = [numLangs][]string{
	en: {"th", "wh", "ou", "ee", "oo", "igh", "w"},
	de: {"sch", "tz", "pf", "ei", "ie", "eu", "w", "ck"},
	tr: {"iy", "ay", "uy"},
}
