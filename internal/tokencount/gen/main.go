//go:build ignore

// This program writes o200k_base.tokens.gz, the vocabulary that package tokencount embeds,
// from github.com/tiktoken-go/tokenizer, the library whose counts tokencount reproduces. It
// decodes every token id with the library's Codec.Decode and writes, gzip-compressed:
//
//	uvarint  n, the number of tokens (ids 0 to n-1, dense)
//	n bytes  the length of each token, in id order (no token is longer than 255 bytes)
//	         the tokens' bytes, concatenated in id order
//
// The special tokens (<|endoftext|>, <|endofprompt|>) are left out: the library's Count
// never produces them, it tokenizes their text like any other.
//
// Run from internal/tokencount: go generate (or go run gen/main.go).
package main

import (
	"bufio"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"log"
	"os"

	"github.com/tiktoken-go/tokenizer"
)

const out = "o200k_base.tokens.gz"

func main() {
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		log.Fatal(err)
	}
	var tokens []string
	for id := uint(0); ; id++ {
		tok, err := codec.Decode([]uint{id})
		if err != nil {
			break // the first id with no token ends the dense range
		}
		if len(tok) > 255 {
			log.Fatalf("token %d is %d bytes, more than a length byte holds", id, len(tok))
		}
		tokens = append(tokens, tok)
	}
	f, err := os.Create(out)
	if err != nil {
		log.Fatal(err)
	}
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		log.Fatal(err)
	}
	// The lengths come before the bytes rather than interleaved: alike bytes together
	// compress about 7% better.
	w := bufio.NewWriter(zw)
	w.Write(binary.AppendUvarint(nil, uint64(len(tokens))))
	for _, t := range tokens {
		w.WriteByte(byte(len(t)))
	}
	for _, t := range tokens {
		w.WriteString(t)
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	st, err := os.Stat(out)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d tokens, %d bytes\n", out, len(tokens), st.Size())
}
