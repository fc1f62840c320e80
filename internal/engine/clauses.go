package engine

import "regexp"

// clauseBreak splits a question into its clauses: at a comma or semicolon, and before
// "and" in each language, where a second question often starts ("how much is it, and how long
// does it take?", "Was kostet der Versand und wie lange dauert er?"). The lead-in reads the
// parts of such a question (leadin.go) and a Turkish clause's last word is its verb
// (predicateWords).
var clauseBreak = regexp.MustCompile(`(?i)[,;]|\s(?:and|und|sowie|ve|ayrıca)\s`)
