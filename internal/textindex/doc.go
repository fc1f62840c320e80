// Package textindex is the single text analyzer that svc uses both when it
// indexes knowledge-base text and when it analyzes a visitor's question.
//
// Using one analyzer on both sides is the whole point: the analyzed terms
// are stored in a plain "terms" column and matched by SQLite FTS5 or a
// PostgreSQL 'simple' tsvector, so both stores rank alike and neither needs
// a language-specific configuration. Off-the-shelf analyzers fail Turkish
// (dotted İ, dotless ı, inconsistent Snowball stems), which is why the
// pipeline is spelled out here:
//
//  1. NFC-normalize, split on anything that is not a letter or digit, and
//     split at apostrophes (for Turkish the suffix after the apostrophe is
//     dropped: "İstanbul'da" -> "istanbul").
//  2. Lower-case language-aware ("İ" is always "i"; for Turkish "I" is "ı").
//  3. Drop stop words (checked on the ASCII-folded word).
//  4. Stem: Snowball for English and German; for Turkish keep only a fixed
//     prefix of the word, and match short query words as prefixes. German
//     words first get umlauts typed as digraphs restored ("groesse") and
//     common compounds split at linking suffixes ("Rechnungs|adresse").
//  5. Fold to ASCII (ı->i, ş->s, ß->ss, é->e, ...), so a question typed
//     without diacritics matches.
//
// Numbers are kept as terms; thousands separators are removed so
// "2.029,00" and "2,029" both give "2029".
//
// The choices (Turkish prefix length, stop words, German handling) were
// measured with the XQuAD retrieval harness in xquad_test.go.
package textindex
