// Package analyzer implements the syncio go/analysis Analyzer. It finds
// blocking I/O on HTTP request paths (net/http, gin, echo, fiber and gRPC
// handlers) and reports it at the root's call that leads to the blocking
// operation, with the call chain in the message.
//
// Frameworks are recognised by import path and type name only, so the
// analyzer has no dependency on any of them.
package analyzer
