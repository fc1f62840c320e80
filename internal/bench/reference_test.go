package bench

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestReferenceHandlerEchoesInTheEnvelope(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(ReferenceHandler())
	defer srv.Close()
	resp, err := http.Post(srv.URL+sendPath, "application/x-www-form-urlencoded",
		strings.NewReader(url.Values{"message": {"Merhaba dünya"}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q", ct)
	}
	var env struct {
		Success bool              `json:"success"`
		Data    map[string]string `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		t.Fatal(err)
	}
	if !env.Success || env.Data["echo"] != "Merhaba dünya" {
		t.Errorf("answer = %+v", env)
	}
	ready, err := http.Get(srv.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	ready.Body.Close()
	if ready.StatusCode != http.StatusOK {
		t.Errorf("/readyz = %d", ready.StatusCode)
	}
}
