// Package s3 is a minimal stand-in for aws-sdk-go v1.55's S3 client
// (aws.Context is an alias of context.Context there).
package s3

import "context"

type S3 struct{}

type PutObjectInput struct{ Bucket, Key *string }

type PutObjectOutput struct{}

func (c *S3) PutObject(input *PutObjectInput) (*PutObjectOutput, error) { return nil, nil }

func (c *S3) PutObjectWithContext(ctx context.Context, input *PutObjectInput) (*PutObjectOutput, error) {
	return nil, nil
}
