package tokencount

import "github.com/dlclark/regexp2/v2"

// splitPattern is o200k_base's pre-tokenizer (words with an optional leading non-letter and
// English contraction, numbers of up to three digits, runs of punctuation, line breaks,
// whitespace) as the library matches it, which differs from the pattern as tiktoken and
// the library write it in two places. The library runs code generated from the pattern by
// regexp2cg, and that code has two bugs that the counts here reproduce, so that they stay
// the library's to the token:
//
//   - \x7f (DEL) is missing from the ASCII bitmaps of [^\r\n\p{L}\p{N}] and
//     [^\s\p{L}\p{N}], so no alternative matches it and it counts no token. Here the two
//     classes leave it out explicitly.
//   - In \s*[\r\n]+, when \s* has taken a whole run of whitespace it backtracks to the
//     first line break in the run instead of the last, so "\n \n" splits as "\n", " \n".
//     [^\S\r\n]*[\r\n]+ matches just that.
//
// The tests compare the pieces and the counts with the library's on every rune in many
// contexts, on random text and by fuzzing; these were the only differences found. tiktoken
// proper gives DEL a token and keeps "\n \n" whole: restoring the two written forms would
// count like it, a token more per DEL run and per such run of line breaks.
const splitPattern = `[^\r\n\x7f\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\x7f\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\x7f\p{L}\p{N}]+[\r\n/]*|[^\S\r\n]*[\r\n]+|\s+(?!\S)|\s+`

// newSplitter compiles splitPattern. It is a backtracking pattern in .NET's dialect (the
// (?!\S) lookahead is beyond Go's regexp), hence regexp2, the library's own matcher, here
// its interpreter: 0.8 MB of binary, and as fast on this pattern as the library's generated
// matcher (BenchmarkCount).
func newSplitter() (*regexp2.Regexp, error) {
	return regexp2.Compile(splitPattern, regexp2.None)
}
