// Package after is ../before done right: the server keeps its
// WriteTimeout for every other route, and the streaming handler moves the
// write deadline itself before each event with http.ResponseController,
// so a stream may last as long as its own bound (WithDeadline) while a
// client that stops reading is still dropped within one write. It waits
// on its feed and on the request's context together. Upload does the same
// on the read side: the server keeps its ReadTimeout, and an upload moves
// its read deadline before each read, so a long upload is not cut and a
// silent client is dropped.
package after
