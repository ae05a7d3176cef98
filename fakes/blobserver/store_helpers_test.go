package blobserver

import "time"

// putBytes writes data as the whole blob cname/name, as Put Blob does, for tests that
// set up a store without HTTP.
func (s *store) putBytes(cname, name string, data []byte, props blobProps, now time.Time) (*blob, error) {
	e, err := s.beginWrite(cname, name, "", int64(len(data)))
	if err != nil {
		return nil, err
	}
	if _, err := e.seg.f.WriteAt(data, e.off); err != nil {
		s.abortWrite(e, false)
		return nil, err
	}
	return s.commitBlob(cname, name, e, props, now)
}
