package chat

import (
	"slices"
	"strings"
	"testing"

	"svc/internal/store"
)

func TestHeadingSeed(t *testing.T) {
	t.Parallel()
	tests := []struct{ heading, lang, want string }{
		{"How do I install Pusula on Windows?", "en", "How do I install Pusula on Windows?"},
		{"How to verify the binaries", "en", "How do I verify the binaries?"},
		{"What is a remote node", "en", "What is a remote node?"},
		{"Setup › Can I restore from keys?", "en", "Can I restore from keys?"},
		{"Installing on macOS", "en", ""},
		{"Questions?", "en", ""},
		{"What's the meaning of [technical word]?", "en", ""},
		{"Wie installiere ich Pusula unter Windows?", "de", "Wie installiere ich Pusula unter Windows?"},
		{"Was ist ein Knoten", "de", "Was ist ein Knoten?"},
		{"Wie man Schlagwörter hinzufügt", "de", ""},
		{"Systemvoraussetzungen", "de", ""},
		{"Pusula'yı Windows'a nasıl kurarım?", "tr", "Pusula'yı Windows'a nasıl kurarım?"},
		{"Etiket nasıl eklenir", "tr", "Etiket nasıl eklenir?"},
		{"Uzak düğüm nedir", "tr", "Uzak düğüm nedir?"},
		{"Çevrimdışı kullanabilir miyim", "tr", "Çevrimdışı kullanabilir miyim?"},
		{"Sistem gereksinimleri", "tr", ""},
		// An untranslated heading on a Turkish page is no Turkish question.
		{"How do I restore my wallet from the mnemonic seed?", "tr", ""},
		{"Wie installiere ich Pusula unter Windows?", "en", ""},
		{strings.Repeat("How do I do this ", 10) + "?", "en", ""},
	}
	for _, tt := range tests {
		got, ok := headingSeed(tt.heading, tt.lang)
		if ok != (tt.want != "") || got != tt.want {
			t.Errorf("headingSeed(%q, %s) = %q, %v; want %q", tt.heading, tt.lang, got, ok, tt.want)
		}
	}
}

func TestBySection(t *testing.T) {
	t.Parallel()
	art := func(id int64, cat string) store.Article {
		return store.Article{ID: id, CategorySlug: cat, CategoryName: cat}
	}
	// Most viewed first: a, a, a, b, c, b.
	arts := []store.Article{art(1, "a"), art(2, "a"), art(3, "a"), art(4, "b"), art(5, "c"), art(6, "b")}
	var ids []int64
	for _, a := range bySection(arts, 4) {
		ids = append(ids, a.ID)
	}
	// Every section gets one before any gets a second; the result is grouped by section.
	if want := []int64{1, 2, 4, 5}; !slices.Equal(ids, want) {
		t.Fatalf("bySection = %v, want %v", ids, want)
	}
	if got := bySection(arts, 10); len(got) != len(arts) || got[3].ID != 4 || got[4].ID != 6 {
		t.Fatalf("bySection(all) = %+v", got)
	}
	if got := bySection(nil, 10); len(got) != 0 {
		t.Fatalf("bySection(nil) = %+v", got)
	}
}

func TestHeadingSeedsFAQFirst(t *testing.T) {
	t.Parallel()
	heads := []store.Heading{
		{DocID: 1, Text: "Installing Pusula"}, {DocID: 1, Text: "How do I install it on Windows?"},
		{DocID: 1, Text: "How do I install it on a Mac?"}, {DocID: 1, Text: "System requirements"},
		{DocID: 1, Text: "Uninstalling"},
		{DocID: 2, Text: "Sync"}, {DocID: 2, Text: "What does sync do?"},
		{DocID: 3, Text: "Frequently asked questions"}, {DocID: 3, Text: "Is it free?"},
		{DocID: 3, Text: "Can I use it offline?"},
	}
	want := []string{"Is it free?", "Can I use it offline?", "How do I install it on Windows?", "What does sync do?",
		"How do I install it on a Mac?"}
	if got := headingSeeds(heads, "en"); !slices.Equal(got, want) {
		t.Fatalf("headingSeeds = %q, want %q", got, want)
	}
}
