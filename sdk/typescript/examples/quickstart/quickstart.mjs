// Asks svc one question and prints the assistant's reply as one JSON object
// {"body","source","lowConfidence","sources"}.
//
//   SVC_BASE_URL=http://127.0.0.1:8080 SVC_API_KEY=svc_pk_... node sdk/typescript/examples/quickstart/quickstart.mjs "Do you ship to Germany?"
//
// In your own project, import from "svc-client" instead of the relative path.
import { SvcClient } from "../../dist/index.js";

const question = process.argv[2];
if (!question) {
  console.error("usage: quickstart.mjs QUESTION (with SVC_BASE_URL and SVC_API_KEY set)");
  process.exit(2);
}
try {
  const client = new SvcClient({ baseUrl: process.env.SVC_BASE_URL ?? "", apiKey: process.env.SVC_API_KEY ?? "" });
  const { reply, lowConfidence } = await client.send(question);
  console.log(JSON.stringify({ body: reply.body, source: reply.source, lowConfidence, sources: reply.sources ?? [] }));
} catch (err) {
  console.error(String(err?.message ?? err));
  process.exit(1);
}
