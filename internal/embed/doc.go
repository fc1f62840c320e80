// Package embed holds the rules of the browser chat widget that need neither a database nor
// HTTP: the public embed token's form, the domain lock (what an owner may list, what an
// Origin header names, and which hosts a list lets in), the daily budget's exact decimal
// form, the token's label, the visitor id, and surge protection.
//
// The widget runs on pages the service does not control, so everything here treats its input
// as hostile: forms are checked exactly, errors shown to an owner never echo control
// characters, and the domain lock refuses anything that would open more sites than the owner
// meant (a bare TLD, a public suffix, a user name hiding the real host).
package embed
