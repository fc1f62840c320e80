package crawl_test

import (
	"errors"
	"strings"
	"testing"

	"svc/internal/crawl"
)

func TestNewSiteValidatesAndNormalises(t *testing.T) {
	s, err := crawl.NewSite(7, "  HTTPS://WWW.Shop.Example:443/start ", "")
	if err != nil || s.URL != "https://www.shop.example/start" || s.Host != "shop.example" || s.Name != "www.shop.example" || s.AccountID != 7 {
		t.Fatalf("NewSite: %+v %v", s, err)
	}
	if s, _ := crawl.NewSite(7, "https://shop.example", "  My shop "); s.Name != "My shop" {
		t.Errorf("name: %q", s.Name)
	}
	for _, bad := range []string{"", "shop.example", "ftp://shop.example", "https://", "https://user:pw@shop.example/",
		"javascript:alert(1)", "https://shop.example/" + strings.Repeat("a", crawl.MaxSiteURLLen)} {
		if _, err := crawl.NewSite(7, bad, ""); !errors.Is(err, crawl.ErrSiteURL) {
			t.Errorf("%.40q: %v", bad, err)
		}
	}
	if _, err := crawl.NewSite(7, "https://shop.example", strings.Repeat("ş", crawl.MaxSiteNameLen+1)); !errors.Is(err, crawl.ErrSiteName) {
		t.Errorf("long name: %v", err)
	}
}
