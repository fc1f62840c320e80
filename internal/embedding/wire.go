package embedding

import (
	"context"
	"slices"
)

// openAIRequest is the body of POST {base}/embeddings. encoding_format is always "float":
// base64 is smaller on the wire, but not every compatible server offers it.
type openAIRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
}

// openAIResponse is the part of an embeddings answer that is read.
type openAIResponse struct {
	Data  []openAIItem `json:"data"`
	Usage *struct {
		PromptTokens int `json:"prompt_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
}

type openAIItem struct {
	Index     *int      `json:"index"`
	Embedding []float32 `json:"embedding"`
}

// openAIWire speaks the OpenAI embeddings protocol. The answer's data may come in any order:
// each item's index says which input it embeds. A server that leaves every index out is
// read in order; one that leaves out some is refused.
func openAIWire(g *guard, model string) wire {
	return func(ctx context.Context, texts []string) (batch, error) {
		var out openAIResponse
		if err := g.post.Post(ctx, openAIRequest{Model: model, Input: texts, EncodingFormat: "float"}, &out); err != nil {
			return batch{}, err
		}
		b := batch{vectors: make([][]float32, len(out.Data))}
		if out.Usage != nil {
			b.tokens = max(out.Usage.PromptTokens, out.Usage.TotalTokens)
		}
		indexed := slices.ContainsFunc(out.Data, func(d openAIItem) bool { return d.Index != nil })
		for i, d := range out.Data {
			at := i
			if indexed {
				if d.Index == nil || *d.Index < 0 || *d.Index >= len(out.Data) || b.vectors[*d.Index] != nil {
					return batch{}, g.failed("%w: data %d has a missing, repeated or out-of-range index", ErrBadResponse, i)
				}
				at = *d.Index
			}
			b.vectors[at] = d.Embedding
			if b.vectors[at] == nil {
				b.vectors[at] = []float32{} // absent: refused as empty by the checks, not mistaken for a hole
			}
		}
		return b, nil
	}
}

// ollamaRequest is the body of POST {base}/api/embed.
type ollamaRequest struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

// ollamaResponse is the part of an /api/embed answer that is read.
type ollamaResponse struct {
	Embeddings      [][]float32 `json:"embeddings"`
	PromptEvalCount int         `json:"prompt_eval_count"`
}

// ollamaWire speaks Ollama's /api/embed, whose embeddings are in the order of the input.
func ollamaWire(g *guard, model string) wire {
	return func(ctx context.Context, texts []string) (batch, error) {
		var out ollamaResponse
		if err := g.post.Post(ctx, ollamaRequest{Model: model, Input: texts}, &out); err != nil {
			return batch{}, err
		}
		return batch{vectors: out.Embeddings, tokens: out.PromptEvalCount}, nil
	}
}
