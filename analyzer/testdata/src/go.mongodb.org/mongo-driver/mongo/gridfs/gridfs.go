// Package gridfs is a minimal stand-in for mongo-driver v1.17's GridFS.
package gridfs

import (
	"context"
	"io"
)

type Bucket struct{}

func (b *Bucket) Delete(fileID interface{}) error                             { return nil }
func (b *Bucket) DeleteContext(ctx context.Context, fileID interface{}) error { return nil }
func (b *Bucket) UploadFromStream(filename string, source io.Reader) (string, error) {
	return "", nil
}
