// Package extract reads the structured data a shop page declares about itself: product
// cards (JSON-LD, microdata, OpenGraph), breadcrumbs, FAQ pairs and page-level metadata.
// It works on an already parsed page (*html.Node) so the crawler parses each page once.
//
// The package prefers precision to recall: a product card is only returned when the page
// states it in structured data, and every field is taken from the page, never guessed. Real
// shops publish broken JSON-LD, so JSON is repaired leniently before it is given up on, and
// a price is shown the way the page shows it ("2.029,00 TL"), not as the bare number the
// structured data carries ("2029", "TRY").
//
// Nothing here panics on any input, keeps state between calls or touches the network.
package extract
