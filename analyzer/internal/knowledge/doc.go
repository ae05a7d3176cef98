// Package knowledge is what the analyzer knows about libraries, recognised
// by import path and type name: which of their calls block, build clients,
// open transactions or run callbacks. It knows no rule and no call graph;
// the units above it (regions, the analyzer's rules) ask it.
//
// The SIO001 table is data, not code: blocking.txt, embedded and parsed
// once (BuiltinBlocking), one row per context-less call with its
// replacement and the evidence for it. A user's blocking setting is a row
// of the same format (ParseRow).
package knowledge
