package studio

import (
	"context"
	"encoding/json"
	"strings"
	"unicode/utf8"

	"svc/internal/errs"
	"svc/internal/grounding"
	"svc/internal/marketing"
	"svc/internal/store"
)

// Limits of marketingGenerate (SERVICE.md; the optional fields' lengths are ours).
const (
	MaxBriefChars   = 2000
	MaxFieldChars   = 300
	MinVariants     = 1
	MaxVariants     = 5
	DefaultVariants = 3
)

// Depths of marketingGenerate.
const (
	DepthLean     = "lean"
	DepthFull     = "full"
	DepthStrategy = "strategy"
)

// MarketingInput is marketingGenerate's parameters as sent; nil means not given.
type MarketingInput struct {
	Brief, Product, Audience, Goal, Tone, Format string
	Lang, Depth                                  string
	Variants                                     *int
	SiteID                                       *int64
}

// MarketingResult is data of marketingGenerate.
type MarketingResult struct {
	Content marketing.Content
	Meta    Meta
}

// Marketing writes grounded marketing copy for the account.
func (s *Service) Marketing(ctx context.Context, a store.Account, in MarketingInput) (MarketingResult, error) {
	req, siteID, err := s.marketingRequest(ctx, a, in)
	if err != nil {
		return MarketingResult{}, err
	}
	if err := s.allow(a, "marketing", a.MarketingRatePerMin); err != nil {
		return MarketingResult{}, err
	}
	if a.BalanceMicro-a.ReservedMicro <= 0 {
		return MarketingResult{}, errNoBalance
	}
	var named []string
	if req.Product != "" {
		named = []string{req.Product}
	}
	query := strings.Join([]string{req.Brief, req.Product, req.Goal, req.Audience}, " ")
	src, err := s.gather(ctx, a, siteID, query, req.Lang, named)
	if err != nil {
		return MarketingResult{}, err
	}
	var content marketing.Content
	g := generation{event: EventMarketing}
	reservation := int64(0)
	defer func() { s.release(ctx, a, reservation) }()
	if s.model != nil {
		prompt := marketing.Prompt(req, src)
		resp, rid, ok, err := s.callModel(ctx, a, prompt)
		if err != nil {
			return MarketingResult{}, err
		}
		reservation = rid
		if ok {
			if c, perr := marketing.Parse(req, src, resp.Text); perr == nil {
				marketing.Guard(c, req, src)
				content = c
				g.in, g.out = resp.InputTokens, resp.OutputTokens
				g.calls = []store.CallUsage{{Call: "marketing", Model: resp.Model, InputTokens: resp.InputTokens,
					OutputTokens: resp.OutputTokens}}
			} else {
				s.log.Warn("model marketing reply was not JSON; the built-in composer writes instead", "account", a.ID, "err", perr)
			}
		}
		if content == nil {
			g.degraded = true
		}
	}
	if content == nil {
		content = marketing.Compose(req, src)
		if !g.degraded {
			g.in, g.out = s.builtinTokens(query, src), s.outputTokens(content)
		}
	}
	tokens, err := s.settle(ctx, a, g, reservation)
	if err != nil {
		return MarketingResult{}, err
	}
	reservation = 0
	return MarketingResult{Content: content, Meta: Meta{Lang: req.Lang, Grounded: !src.Empty(), KBUsed: len(src.Passages),
		Products: len(src.Products), Tokens: tokens, Depth: req.Depth}}, nil
}

// marketingRequest validates in into the composer's request and the site scope.
func (s *Service) marketingRequest(ctx context.Context, a store.Account, in MarketingInput) (marketing.Request, int64, error) {
	req := marketing.Request{Business: a.Name, TonePreset: a.TonePreset, Variants: DefaultVariants}
	brief := strings.TrimSpace(in.Brief)
	switch n := utf8.RuneCountInString(brief); {
	case !utf8.ValidString(brief):
		return req, 0, errs.Coded(errs.BadRequest, "err.studio.brief_utf8", "The brief is not valid UTF-8 text.")
	case n == 0:
		return req, 0, errs.Coded(errs.BadRequest, "err.studio.brief_required", "The brief field is required: what the copy is about.")
	case n > MaxBriefChars:
		return req, 0, errs.Coded(errs.BadRequest, "err.studio.brief_too_long", "The brief is %d characters long; at most %d are allowed.", n, MaxBriefChars)
	}
	req.Brief = brief
	for _, f := range []struct {
		name string
		v    string
		to   *string
	}{{"product", in.Product, &req.Product}, {"audience", in.Audience, &req.Audience}, {"goal", in.Goal, &req.Goal},
		{"tone", in.Tone, &req.Tone}, {"format", in.Format, &req.Format}} {
		v := strings.TrimSpace(f.v)
		if !utf8.ValidString(v) || utf8.RuneCountInString(v) > MaxFieldChars {
			return req, 0, errs.Newf(errs.BadRequest, "%s must be text of at most %d characters.", f.name, MaxFieldChars).
				WithKey("err.studio."+f.name+"_too_long", MaxFieldChars)
		}
		*f.to = v
	}
	if in.Variants != nil {
		if *in.Variants < MinVariants || *in.Variants > MaxVariants {
			return req, 0, errs.Coded(errs.BadRequest, "err.studio.variants_range", "variants must be %d to %d.", MinVariants, MaxVariants)
		}
		req.Variants = *in.Variants
	}
	lang, err := requestLang(in.Lang, a.Lang)
	if err != nil {
		return req, 0, err
	}
	req.Lang = lang
	switch d := strings.TrimSpace(in.Depth); d {
	case "", DepthLean:
		req.Depth = DepthLean
	case DepthFull, DepthStrategy:
		req.Depth = d
	default:
		return req, 0, errs.Coded(errs.BadRequest, "err.studio.marketing_depth_invalid", "depth must be full or strategy, or left out for the lean output.")
	}
	var site int64
	if in.SiteID != nil {
		if site, err = s.siteScope(ctx, a, *in.SiteID); err != nil {
			return req, 0, err
		}
	}
	return req, site, nil
}

// requestLang is the request's language, or the account's when none is given.
func requestLang(v, def string) (string, error) {
	switch v = strings.TrimSpace(v); v {
	case "":
		return def, nil
	case "tr", "en", "de":
		return v, nil
	}
	return "", errs.Coded(errs.BadRequest, "err.studio.lang_invalid", "lang must be tr, en or de.")
}

// builtinTokens counts what the built-in composer read: the request and every source text,
// in the o200k tokens chat answers are billed in.
func (s *Service) builtinTokens(request string, src grounding.Sources) int {
	n := s.eng.CountTokens(request)
	read := map[string]bool{}
	for _, p := range src.Passages {
		n += s.eng.CountTokens(p.Text)
		read[p.Text] = true
	}
	for _, p := range src.Products {
		// A product found among the passages was read (and counted) as one of them.
		if t := src.ProductText[p.Name]; !read[t] {
			n += s.eng.CountTokens(t)
			read[t] = true
		}
	}
	return n
}

// outputTokens counts what a composer wrote, as the JSON the caller receives.
func (s *Service) outputTokens(v any) int {
	b, _ := json.Marshal(v)
	return s.eng.CountTokens(string(b))
}
