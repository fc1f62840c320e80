package sitetest

import "strings"

// guideTitles are the user guides' titles. The Markdown sources carry none (the live site takes
// them from its translation files, which are not in the shared folder), so they are written
// here: English for every language the guide is untranslated in, the translation where the
// page itself is translated (German).
var guideTitles = map[string]map[string]string{
	"Offline_Backup":                           {"en": "Offline backup", "de": "Offline-Backup"},
	"change-restore-height":                    {"en": "Changing the restore height", "de": "Wiederherstellungshöhe ändern"},
	"cli_wallet_daemon_isolation_qubes_whonix": {"en": "CLI wallet and daemon isolation with Qubes and Whonix", "de": "CLI-Wallet und Daemon mit Qubes und Whonix isolieren"},
	"howto_fix_stuck_funds":                    {"en": "How to fix stuck funds", "de": "Feststeckende Guthaben freigeben"},
	"importing_blockchain":                     {"en": "Importing the Monero blockchain", "de": "Die Monero-Blockchain importieren"},
	"join-monero-matrix":                       {"en": "Join Monero's Matrix rooms", "de": "Den Matrix-Räumen von Monero beitreten"},
	"ledger-wallet-cli":                        {"en": "Generating a Ledger Monero wallet with the CLI", "de": "Eine Ledger-Monero-Wallet mit der CLI erstellen"},
	"make-payment":                             {"en": "Making a payment", "de": "Eine Zahlung tätigen"},
	"mine-to-pool":                             {"en": "Mining to a pool", "de": "In einem Pool minen"},
	"monero-wallet-cli":                        {"en": "monero-wallet-cli", "de": "monero-wallet-cli"},
	"multisig-messaging-system":                {"en": "Multisig messaging system", "de": "Multisig-Nachrichtensystem"},
	"node-i2p-zero":                            {"en": "Running a node over I2P-zero", "de": "Einen Knoten über I2P-zero betreiben"},
	"prove-payment":                            {"en": "Proving a payment", "de": "Eine Zahlung nachweisen"},
	"remote_node_gui":                          {"en": "Connecting the GUI wallet to a remote node", "de": "Die GUI-Wallet mit einem Remote-Knoten verbinden"},
	"restore_account":                          {"en": "Restoring an account", "de": "Ein Konto wiederherstellen"},
	"restore_from_keys":                        {"en": "Restoring a wallet from private keys", "de": "Eine Wallet aus privaten Schlüsseln wiederherstellen"},
	"scan-txid":                                {"en": "Scanning a transaction ID", "de": "Eine Transaktions-ID scannen"},
	"securely_purchase":                        {"en": "Securely purchasing Monero", "de": "Monero sicher kaufen"},
	"solo_mine_GUI":                            {"en": "Solo mining with the GUI", "de": "Solo-Mining mit der GUI"},
	"tor_wallet":                               {"en": "Using Tor with a Monero wallet", "de": "Tor mit einer Monero-Wallet nutzen"},
	"verification-allos-advanced":              {"en": "Verifying the binaries (advanced, all systems)", "de": "Binärdateien verifizieren (fortgeschritten, alle Systeme)"},
	"verification-windows-beginner":            {"en": "Verifying the binaries on Windows (beginner)", "de": "Binärdateien unter Windows verifizieren (Anfänger)"},
	"view_only":                                {"en": "View-only wallets", "de": "Wallets nur zum Ansehen"},
	"vps_run_node":                             {"en": "Running a node on a VPS", "de": "Einen Knoten auf einem VPS betreiben"},
}

// guideTitle names a guide; a guide missing from the table gets its slug in words.
func guideTitle(slug, lang string) string {
	if t, ok := guideTitles[slug]; ok {
		if s, ok := t[lang]; ok {
			return s
		}
		return t["en"]
	}
	return wordsOf(slug)
}

// entryTitle names a glossary entry: its "entry" if it has one, else its first term.
func entryTitle(s source) string {
	if s.Title != "" {
		return s.Title
	}
	if s.Entry != "" {
		return s.Entry
	}
	if len(s.Terms) > 0 {
		return capitalize(s.Terms[0])
	}
	return wordsOf(s.Slug)
}

func wordsOf(slug string) string {
	return capitalize(strings.NewReplacer("_", " ", "-", " ").Replace(slug))
}

func capitalize(s string) string {
	for i, r := range s {
		return strings.ToUpper(string(r)) + s[i+len(string(r)):]
	}
	return s
}

// chrome holds the page furniture's words in one language.
type chrome struct {
	Home, Guides, Glossary, FAQ, Shop, Site, Tagline, Language string
	Footer                                                     []string // boilerplate link texts
	Copyright, Crumbs, Price, InStock, AddToCart, Products     string
	FAQIntro, GuidesIntro, GlossaryIntro, ShopIntro            string
}

var chromes = map[string]chrome{
	"en": {
		Home: "Home", Guides: "User guides", Glossary: "Moneropedia", FAQ: "FAQ", Shop: "Shop",
		Site: "The Monero Project", Tagline: "Private, decentralized cryptocurrency that keeps your finances confidential and secure.",
		Language:  "Language",
		Footer:    []string{"Privacy policy", "Legal", "Press kit", "Contact", "Community", "Blog", "Downloads"},
		Copyright: "© 2026 The Monero Project. Site content licensed under the BSD 3-Clause licence.",
		Crumbs:    "Breadcrumbs", Price: "Price", InStock: "In stock, ships in 2–3 business days",
		AddToCart: "Add to cart", Products: "Products",
		FAQIntro:      "Answers to the questions we hear most often.",
		GuidesIntro:   "Step-by-step guides for wallets, nodes, mining and more.",
		GlossaryIntro: "The Monero glossary: the terms you will meet, explained.",
		ShopIntro:     "Hardware and merchandise from our community partners.",
	},
	"de": {
		Home: "Startseite", Guides: "Benutzerhandbücher", Glossary: "Moneropedia", FAQ: "Häufige Fragen", Shop: "Shop",
		Site: "Das Monero-Projekt", Tagline: "Private, dezentrale Kryptowährung, die deine Finanzen vertraulich und sicher hält.",
		Language:  "Sprache",
		Footer:    []string{"Datenschutz", "Impressum", "Pressematerial", "Kontakt", "Community", "Blog", "Downloads"},
		Copyright: "© 2026 Das Monero-Projekt. Inhalte unter der BSD-3-Clause-Lizenz.",
		Crumbs:    "Brotkrümelnavigation", Price: "Preis", InStock: "Auf Lager, Versand in 2–3 Werktagen",
		AddToCart: "In den Warenkorb", Products: "Produkte",
		FAQIntro:      "Antworten auf die Fragen, die wir am häufigsten hören.",
		GuidesIntro:   "Schritt-für-Schritt-Anleitungen zu Wallets, Knoten, Mining und mehr.",
		GlossaryIntro: "Das Monero-Glossar: die Begriffe, denen du begegnest, erklärt.",
		ShopIntro:     "Hardware und Fanartikel unserer Community-Partner.",
	},
	"tr": {
		Home: "Ana Sayfa", Guides: "Kullanıcı Rehberleri", Glossary: "Moneropedia", FAQ: "SSS", Shop: "Mağaza",
		Site: "Monero Projesi", Tagline: "Finanslarınızı gizli ve güvende tutan özel, merkeziyetsiz kripto para.",
		Language:  "Dil",
		Footer:    []string{"Gizlilik politikası", "Yasal", "Basın kiti", "İletişim", "Topluluk", "Blog", "İndirmeler"},
		Copyright: "© 2026 Monero Projesi. Site içeriği BSD 3-Clause lisansı altındadır.",
		Crumbs:    "İçerik haritası", Price: "Fiyat", InStock: "Stokta, 2–3 iş gününde kargoda",
		AddToCart: "Sepete ekle", Products: "Ürünler",
		FAQIntro:      "En sık duyduğumuz soruların yanıtları.",
		GuidesIntro:   "Cüzdanlar, düğümler, madencilik ve daha fazlası için adım adım rehberler.",
		GlossaryIntro: "Monero sözlüğü: karşılaşacağınız terimler ve açıklamaları.",
		ShopIntro:     "Topluluk ortaklarımızdan donanım ve ürünler.",
	},
}

// Langs are the site's languages, in the order of its language switcher.
var Langs = []string{"en", "de", "tr"}
