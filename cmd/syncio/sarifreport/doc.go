// Package sarifreport turns go/analysis diagnostics into a SARIF 2.1.0 log
// that GitHub code scanning (and other SARIF viewers) can ingest.
//
// Every catalogue rule becomes a driver rule, so a log with no results still
// documents what was checked. A diagnostic's Related information is read as
// the call chain from the request handler to the blocking operation and
// becomes a codeFlow, one threadFlow location per hop, so viewers can step
// through the chain instead of parsing it out of the message.
//
// File locations are written relative to a source root under the
// %SRCROOT% base id, because code scanning matches results to files by their
// path in the repository, not by the absolute path of the machine that ran
// the analysis.
package sarifreport
