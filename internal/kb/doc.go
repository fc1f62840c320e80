// Package kb turns knowledge-base import records (the JSON Lines format of `svc kb import`,
// described in DECISIONS.md) into store documents: it validates the records, cleans HTML
// bodies to text, detects the language when a record leaves it out, splits the text into
// retrievable chunks and analyzes each chunk for the full-text index.
//
// Parsing and building are separate steps so that a file is validated completely before
// anything is written: a bad line fails the whole import.
package kb
