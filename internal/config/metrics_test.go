package config

import (
	"flag"
	"strings"
	"testing"
)

func TestMetricsConfig(t *testing.T) {
	t.Parallel()
	const token = "0123456789abcdef0123"
	for _, c := range []struct {
		name     string
		env      map[string]string
		args     []string
		addr     string
		tok      string
		enabled  bool
		errorHas string
	}{
		{name: "off by default"},
		{name: "token only", env: map[string]string{"SVC_METRICS_TOKEN": token + "\n"}, tok: token, enabled: true},
		{name: "address only", env: map[string]string{"SVC_METRICS_ADDR": "127.0.0.1:9090"}, addr: "127.0.0.1:9090", enabled: true},
		{name: "both", env: map[string]string{"SVC_METRICS_ADDR": ":9090", "SVC_METRICS_TOKEN": token}, addr: ":9090", tok: token,
			enabled: true},
		{name: "flag", args: []string{"--metrics-addr", "127.0.0.1:9191"}, addr: "127.0.0.1:9191", enabled: true},
		{name: "short token", env: map[string]string{"SVC_METRICS_TOKEN": "secret"}, errorHas: "at least 16 characters"},
		{name: "no port", env: map[string]string{"SVC_METRICS_ADDR": "localhost"}, errorHas: "host:port"},
		{name: "same as the listener", env: map[string]string{"SVC_METRICS_ADDR": DefaultAddr}, errorHas: "must differ"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := Load(env(c.env))
			if err != nil {
				t.Fatal(err)
			}
			fs := flag.NewFlagSet("serve", flag.ContinueOnError)
			cfg.ServeFlags(fs)
			if err := fs.Parse(c.args); err != nil {
				t.Fatal(err)
			}
			err = cfg.Validate()
			if c.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), c.errorHas) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %v, want a line with %q", err, c.errorHas)
				}
				if strings.Contains(err.Error(), "secret") {
					t.Fatalf("the error quotes the token: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.MetricsAddr != c.addr || cfg.MetricsToken != c.tok || cfg.MetricsEnabled() != c.enabled {
				t.Fatalf("addr %q token %q enabled %v", cfg.MetricsAddr, cfg.MetricsToken, cfg.MetricsEnabled())
			}
		})
	}
}
