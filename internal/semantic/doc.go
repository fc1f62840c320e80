// Package semantic is retrieval by meaning beside keyword search (issue 25), wired from the
// providers of internal/embedding, the in-process indexes of internal/vecindex and the
// vectors of store.Vectors:
//
//   - Service implements engine.Semantic: a question's embedding through the per-account
//     query cache, bounded by a short timeout; the nearest chunks in the account's index,
//     loaded lazily from the store and dropped when another process or replica changed the
//     account's KB or vectors; the reranker. It degrades instead of failing: a provider that
//     is down, slow or refusing leaves a search without hits (keyword search answers alone),
//     logged once when the trouble starts and once when it ends, and counted.
//   - Worker embeds KB chunks in the background: the chunks without a vector of the
//     configured model are its queue (store.Vectors), so every write path feeds it without
//     knowing of it; Notify wakes it after a write in this process, a poll finds those of
//     other processes. It bills each batch as an embedding usage event, stops for an account
//     that cannot pay, backs off while the provider is down, and drops other models' vectors
//     once the current model covers an account. EmbedAccount is `svc kb reindex`.
//   - NotifyKBWrites wraps a store so that every committed write of KB chunks calls Notify.
package semantic
