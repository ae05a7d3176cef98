// Package blob returns its implementation behind an interface from a
// factory, as storage.New(cfg) does in real services.
package blob

import "net/http"

type Storage interface{ Put(name string) error }

type s3 struct{ endpoint string }

func (s *s3) Put(name string) error {
	_, err := http.Post(s.endpoint+"/"+name, "application/octet-stream", nil)
	return err
}

// New converts *s3 to Storage in its return.
func New(endpoint string) Storage { return &s3{endpoint: endpoint} }

type gcs struct{}

func (gcs) Put(name string) error {
	_, err := http.Get("http://gcs/" + name)
	return err
}

func dial(endpoint string) (*gcs, error) { return &gcs{}, nil }

// Open converts *gcs to Storage by returning another call's results.
func Open(endpoint string) (Storage, error) { return dial(endpoint) }
