package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fenceProblems lists what is wrong with the fenced code blocks of a Markdown text
// (CommonMark's rules: a fence is three or more backticks or tildes indented up to three
// spaces; it is closed by a line of the same character, at least as long, with nothing
// after it). A block left open swallows the rest of the page, so every heading after it
// renders as code; it shows either as a block still open at the end or as a fence with an
// info string ("```sh") inside an open block, which is where the writer meant a new block to
// start. Our documents never show a fence inside a code block, so both are mistakes.
func fenceProblems(text string) []string {
	var problems []string
	var open string // the opening fence's run of characters; "" outside a block
	openLine := 0
	for i, line := range strings.Split(text, "\n") {
		n := i + 1
		trimmed := strings.TrimLeft(line, " ")
		if len(line)-len(trimmed) > 3 || !(strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")) {
			continue
		}
		run := trimmed[:len(trimmed)-len(strings.TrimLeft(trimmed, trimmed[:1]))]
		info := strings.TrimSpace(trimmed[len(run):])
		switch {
		case open == "":
			open, openLine = run, n
		case run[0] == open[0] && len(run) >= len(open) && info == "":
			open = ""
		case info != "":
			problems = append(problems, "line "+strconv.Itoa(n)+": a fence with an info string ("+trimmed+") inside the block opened at line "+
				strconv.Itoa(openLine)+": that block is not closed")
		}
	}
	if open != "" {
		problems = append(problems, "the code block opened at line "+strconv.Itoa(openLine)+" is never closed")
	}
	return problems
}

// Every Markdown document of the repository closes each code block it opens: README.md's
// "Running in a container" and "Running under systemd" blocks did not, and everything after
// them rendered as code.
func TestMarkdownCodeFencesBalance(t *testing.T) {
	t.Parallel()
	root := filepath.Join("..", "..")
	var docs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".md") {
			docs = append(docs, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, path := range docs {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		found[filepath.Base(path)] = true
		for _, p := range fenceProblems(string(b)) {
			t.Errorf("%s: %s", path, p)
		}
	}
	for _, want := range []string{"README.md", "ARCHITECTURE.md", "CHANGELOG.md"} {
		if !found[want] {
			t.Errorf("%s was not checked (found %v)", want, docs)
		}
	}
}

func TestFenceProblems(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		problems   int
	}{
		{"closed blocks", "# A\n\n```sh\ngo test\n```\n\n~~~\nx\n~~~\n", 0},
		{"a longer closing fence", "````\n```\n````\n", 0},
		{"indented fences", "   ```sh\nx\n   ```\n", 0},
		{"four spaces is code, not a fence", "    ```\ntext\n", 0},
		{"the README's container block", "## Running in a container\n\n```sh\ndocker build -t svc .\n\n## Building a release binary\n\n```sh\ngo build\n```\n", 1},
		{"open at the end", "```sh\ngo test\n", 1},
		{"a tilde fence does not close a backtick one", "```\nx\n~~~\n", 1},
		{"a closing fence with text after it does not close", "```sh\nx\n``` sh\n```\n", 1},
	} {
		if got := fenceProblems(tc.text); len(got) != tc.problems {
			t.Errorf("%s: %v, want %d problems", tc.name, got, tc.problems)
		}
	}
}
