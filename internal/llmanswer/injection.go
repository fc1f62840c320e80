package llmanswer

import (
	"regexp"
	"strings"

	"svc/internal/engine"
	"svc/internal/textindex"
)

// instructionPatterns match text addressed to an AI assistant rather than to a reader:
// attempts to override its rules, to give it a new role, or to make it reveal its prompt or
// secrets. They are matched on folded text (lower case, ASCII: "önceki" is "onceki"), in
// the three languages and in English whatever the page's language, because injected text
// is very often English.
var instructionPatterns = []*regexp.Regexp{
	// English
	regexp.MustCompile(`\b(ignore|disregard|forget|override|bypass)\b.{0,30}\b(previous|prior|above|earlier|all|any|your|the|system)\b.{0,20}\b(instruction|prompt|rule|directive|guideline|message)s?\b`),
	regexp.MustCompile(`\b(system|developer|hidden)\s+(prompt|message|instruction)s?\b`),
	regexp.MustCompile(`\b(reveal|print|show|repeat|output|leak|tell me)\b.{0,20}\b(your|system|hidden|initial|original)\s+(prompt|instructions|rules)\b`),
	regexp.MustCompile(`\b(reveal|print|show|give|output|leak|tell me)\b.{0,30}\b(api[ _-]?keys?|secret keys?)\b`),
	regexp.MustCompile(`\byou are (now|no longer)\b|\bnew instructions?\b|\bact as (an? )?(admin|administrator|developer|system|dan)\b|\bjailbreak\b`),
	regexp.MustCompile(`\b(other|another|all) (tenant|customer|account|client)s?'? (data|records|prices|keys|conversations)\b`),
	regexp.MustCompile(`\bsvc_(pk|emb)_`),
	// Turkish (folded)
	regexp.MustCompile(`\b(onceki|yukaridaki|tum|butun)\b.{0,30}\b(talimat|komut|kural|yonerge)\w*\b.{0,30}\b(yok say|unut|gormezden gel|dikkate alma|uyma)\w*`),
	regexp.MustCompile(`\bsistem (istemi|istemini|mesaji|mesajini|komutu|komutlarini|talimat\w*)\b`),
	regexp.MustCompile(`\bartik (sen|bir)\b.{0,40}\b(asistan|yonetici|admin|sistem)\w*`),
	regexp.MustCompile(`\bapi anahtar\w*\b.{0,30}\b(ver|goster|soyle|yaz|paylas)\w*`),
	// German (folded)
	regexp.MustCompile(`\b(ignoriere|ignorier|vergiss|missachte|uberschreibe)\b.{0,30}\b(anweisung|instruktion|regel|vorgabe|prompt)\w*`),
	regexp.MustCompile(`\b(system ?prompt|systemnachricht|systemanweisung)\w*\b`),
	regexp.MustCompile(`\bdu bist (jetzt|nun|ab sofort)\b`),
	regexp.MustCompile(`\bapi.?schlussel\w*\b.{0,30}\b(zeig|verrat|gib|nenn|schreib)\w*`),
}

// instructionLike reports whether a piece of text reads as an instruction to an assistant.
func instructionLike(text string) bool {
	f := textindex.Fold(text)
	for _, re := range instructionPatterns {
		if re.MatchString(f) {
			return true
		}
	}
	return false
}

// dropInstructions removes the sentences of KB text that read as instructions to an
// assistant. A business's pages have no reason to address one; a page that does was
// tampered with or copied from somewhere that was. It reports how many it dropped.
func dropInstructions(text, lg string) (string, int) {
	if !instructionLike(text) {
		return text, 0
	}
	var lines []string
	dropped := 0
	for _, line := range strings.Split(text, "\n") {
		var kept []string
		for _, s := range engine.SplitLine(line, lg) {
			if instructionLike(s) {
				dropped++
				continue
			}
			kept = append(kept, s)
		}
		if len(kept) > 0 {
			lines = append(lines, strings.Join(kept, " "))
		}
	}
	return strings.Join(lines, "\n"), dropped
}
