// Package bundle builds the widget's TypeScript sources into one minified script with
// esbuild's Go API. It is shared by the generator (../build) and the freshness test, so both
// use exactly the same options; the server binary never imports it.
package bundle

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"svc/internal/i18n"
)

// Entry is the entry point, relative to the widget directory.
const Entry = "src/main.ts"

// Output is the committed bundle, relative to the widget directory.
const Output = "dist/widget.js"

// Banner starts the bundle.
const Banner = "/* svc widget */"

// Build bundles the sources under dir (the internal/widget directory) in memory and returns
// the script. The result depends only on the sources and the esbuild version: no paths,
// timestamps or source maps end up in it.
func Build(dir string) ([]byte, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	res := api.Build(api.BuildOptions{
		AbsWorkingDir:     abs,
		EntryPoints:       []string{Entry},
		Outfile:           Output,
		Write:             false,
		Bundle:            true,
		Format:            api.FormatIIFE,
		Platform:          api.PlatformBrowser,
		Target:            api.ES2020,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		TreeShaking:       api.TreeShakingTrue,
		Sourcemap:         api.SourceMapNone,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetASCII, // the host page may not be UTF-8
		Banner:            map[string]string{"js": Banner},
		LogLevel:          api.LogLevelSilent,
		Plugins:           []api.Plugin{cssText, catalogModule},
	})
	if len(res.Errors) > 0 {
		return nil, messages("esbuild", res.Errors)
	}
	if len(res.Warnings) > 0 {
		return nil, messages("esbuild warning", res.Warnings)
	}
	if len(res.OutputFiles) != 1 {
		return nil, fmt.Errorf("esbuild: %d output files, want 1", len(res.OutputFiles))
	}
	return res.OutputFiles[0].Contents, nil
}

// cssText makes `import css from "./x.css"` a string of the minified stylesheet.
var cssText = api.Plugin{
	Name: "css-text",
	Setup: func(b api.PluginBuild) {
		b.OnLoad(api.OnLoadOptions{Filter: `\.css$`}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src, err := os.ReadFile(a.Path)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			r := api.Transform(string(src), api.TransformOptions{
				Loader:           api.LoaderCSS,
				MinifyWhitespace: true,
				MinifySyntax:     true,
				LegalComments:    api.LegalCommentsNone,
				Charset:          api.CharsetASCII,
				Target:           api.ES2020,
				LogLevel:         api.LogLevelSilent,
			})
			if len(r.Errors) > 0 {
				return api.OnLoadResult{}, messages(filepath.Base(a.Path), r.Errors)
			}
			if len(r.Warnings) > 0 {
				return api.OnLoadResult{}, messages(filepath.Base(a.Path)+" warning", r.Warnings)
			}
			css := strings.TrimSpace(string(r.Code))
			return api.OnLoadResult{Contents: &css, Loader: api.LoaderText}, nil
		})
	},
}

func messages(what string, ms []api.Message) error {
	errs := make([]error, 0, len(ms))
	for _, m := range ms {
		if m.Location != nil {
			errs = append(errs, fmt.Errorf("%s: %s:%d:%d: %s", what, m.Location.File, m.Location.Line, m.Location.Column, m.Text))
		} else {
			errs = append(errs, fmt.Errorf("%s: %s", what, m.Text))
		}
	}
	return errors.Join(errs...)
}

// catalogModule is the virtual module "svc:catalog": the embed.* messages of every language
// of svc's i18n catalog, as JSON, so the widget's words live in the one catalog too.
var catalogModule = api.Plugin{
	Name: "svc-catalog",
	Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `^svc:catalog$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: "catalog", Namespace: "svc"}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "svc"}, func(api.OnLoadArgs) (api.OnLoadResult, error) {
			cat, err := i18n.Load()
			if err != nil {
				return api.OnLoadResult{}, err
			}
			out := map[string]map[string]string{}
			for _, lang := range i18n.Langs {
				out[lang] = map[string]string{}
				for _, k := range cat.Keys(lang) {
					if strings.HasPrefix(k, "embed.") {
						out[lang][k], _ = cat.Raw(lang, k)
					}
				}
			}
			js, err := json.Marshal(out)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			s := string(js)
			return api.OnLoadResult{Contents: &s, Loader: api.LoaderJSON}, nil
		})
	},
}
