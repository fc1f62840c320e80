// Package lexicon holds svc's word lists, phrase lists and reply phrases for tr, en and de.
// They live in data files embedded in the binary (data/<lang>/<list>.txt, data/all/<list>.txt
// for lists shared by the languages; a list of one language's grammar, such as Turkish
// suffixes, has only that language's file), are loaded and validated once, and are read through
// one immutable Lexicon. Code names a list by a List value of this package, so a list the
// code reads always exists and a file the code does not know is an error.
//
// The package sits below every other language package (it imports only the standard library
// and x/text) so that textindex, which lang itself builds on, can read its stop words here.
// For the same reason it cannot tokenize: callers analyze entries and text with their own
// analyzer and match the tokens with Matcher.
//
// File format: UTF-8 text, one entry per line; blank lines and lines starting with "# " (or
// just "#") are comments, so an entry may start with '#' ("#num off"). A Words list holds
// words separated by white space (several per line, so long lists such as stop words read in
// alphabetical runs), a Phrases list one word or phrase per line, a Groups list one group of
// space-separated words per line, a Table one "key = value" per line, and a Sections list
// named sections, each a "[name]" line followed by one phrase per line (a phrase may recur
// in two sections, not twice in one). Runs of spaces count as one.
package lexicon
