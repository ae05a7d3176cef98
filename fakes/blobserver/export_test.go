package blobserver

import "time"

// WithClock makes the store age staged blocks by now instead of time.Now, so tests move
// time forward rather than sleep through an expiry.
func WithClock(now func() time.Time) Option { return func(s *Server) { s.store.now = now } }

// SegmentSize lets tests size blocks so that they fill and seal segment files.
const SegmentSize = segmentSize
