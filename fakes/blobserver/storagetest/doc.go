// Package storagetest holds the storage conformance suite and the rule for running it
// against Azurite, for tests only.
//
// Conformance drives a Blob endpoint through the real azblob SDK. It is written once and
// run against both fakes/blobserver and Azurite, so the fake cannot drift from the real
// service unnoticed.
//
// AzuriteConnectionString applies the project's rule for the real-storage variant of any
// storage test: use SYNCIO_AZURITE_CONNECTION_STRING when set (tools/azurite/run.sh sets it),
// otherwise skip with a message, except under CI=true, where a missing Azurite fails the
// test so CI can never skip it silently.
package storagetest
