// Package eval measures the built-in answer engine on public question-answering data, so
// that every change to analysis, ranking or extraction is judged by numbers rather than by a
// handful of hand-picked questions.
//
// XQuAD (a professionally translated subset of SQuAD v1.1, in English, German and Turkish)
// is imported exactly as `svc kb import` would import a site: one page per paragraph,
// through internal/kb, into a fresh SQLite store. Each question is then asked through the
// engine's public API, and the report counts how often the source paragraph comes first
// (Top1) or among five (Top5), how often the reply quotes a gold answer, how long replies
// are and how many questions got the "no answer" fallback.
//
// Only the dev half of XQuAD lives beside the repository (../shared/eval/xquad-dev); the
// other half is held out, so tune only general techniques here.
package eval
