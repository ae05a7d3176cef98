// Package blobserver is an in-process fake of the subset of the Azure Blob Storage REST API
// that the demo's uploads need, spoken well enough for the real azblob SDK (v1.8.3):
// Create Container, Get Container Properties, Delete Container, Put Blob, Put Block,
// Put Block List, Get Blob (with ranges), Get Blob Properties and Delete Blob.
//
// It is the embedded default storage of the demo API, so the API runs with no outside
// services. Azurite remains the reference: the conformance suite in this package runs the
// same checks, through the real SDK, against both (see storagetest.Conformance and
// tools/azurite/run.sh).
//
// URLs are path style, as Azurite's: http://host:port/devstoreaccount1/container/blob.
// Requests are not authenticated: any Authorization header is accepted, so the connection
// string built from AccountName and AccountKey works unchanged against this fake and against
// Azurite. Errors follow the service: the status, an x-ms-error-code header and an XML
// <Error><Code/><Message/></Error> body.
//
// Blob bytes are kept on disk, in segment files of a private temporary directory that
// Close removes; only the index is in memory. A byte cap and a blob-count cap bound both: a
// full store answers 507 (code FakeStorageFull, which is this fake's own) and never drops
// a blob it acknowledged. The byte cap counts committed blobs alone: blocks staged by Put
// Block and not yet committed have an allowance of their own, as large, and a blob's
// staged blocks are discarded once it has seen no Put Block for WithStagedBlockExpiry
// (DefaultStagedBlockExpiry), or at once by a Put Blob, Put Block List or Delete Blob on
// it. So uploads abandoned between Put Block and Put Block List never take the room of
// committed blobs, and give theirs back within minutes. WithPath keeps the store in a directory of the caller's instead,
// never removed, with a journal of the index, so a server started later on it (after a
// Close or a kill) serves every blob committed there before.
//
// New alone is an instant store. A storage model (WithLatency, WithJitter, WithBandwidth:
// per-request latency plus size ÷ bandwidth, with optional jitter) and failure injection
// (503 ServerBusy or 500 InternalError, which azcore retries) model a remote store;
// DefaultConfig is the Azure-like model the demo API uses, and binds the knobs to flags.
//
// Not implemented (501 NotImplemented): account-level operations such as listing
// containers, listing blobs, page and append blobs, leases, snapshots, copies, tags, and
// CRC64 structured-message transfer validation. Signatures are not verified.
package blobserver
