// Package s3manager is a minimal stand-in for aws-sdk-go v1's transfer
// manager: value-receiver Upload and UploadWithContext.
package s3manager

import "context"

type UploadInput struct{ Bucket, Key *string }

type UploadOutput struct{}

type Uploader struct{}

func NewUploader() *Uploader { return &Uploader{} }

func (u Uploader) Upload(input *UploadInput) (*UploadOutput, error) { return nil, nil }

func (u Uploader) UploadWithContext(ctx context.Context, input *UploadInput) (*UploadOutput, error) {
	return nil, nil
}
