// Package knowledge is what the analyzer knows about libraries, recognised
// by import path and type name: which of their calls block, build clients,
// open transactions or run callbacks. It knows no rule and no call graph;
// the units above it (regions, the analyzer's rules) ask it.
package knowledge
