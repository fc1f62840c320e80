// Command quickstart asks svc one question and prints the assistant's reply as one JSON
// object {"body","source","lowConfidence","sources"}.
//
//	SVC_BASE_URL=http://127.0.0.1:8080 SVC_API_KEY=svc_pk_... go run ./sdk/go/examples/quickstart "Do you ship to Germany?"
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"svc/sdk/go/svcclient"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: quickstart QUESTION (with SVC_BASE_URL and SVC_API_KEY set)")
		os.Exit(2)
	}
	client, err := svcclient.New(os.Getenv("SVC_BASE_URL"), os.Getenv("SVC_API_KEY"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	res, err := client.Send(context.Background(), os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	reply := res.Reply()
	sources := reply.Sources
	if sources == nil {
		sources = []svcclient.Source{}
	}
	out, _ := json.Marshal(struct {
		Body          string             `json:"body"`
		Source        string             `json:"source"`
		LowConfidence bool               `json:"lowConfidence"`
		Sources       []svcclient.Source `json:"sources"`
	}{reply.Body, reply.Source, res.LowConfidence, sources})
	fmt.Println(string(out))
}
