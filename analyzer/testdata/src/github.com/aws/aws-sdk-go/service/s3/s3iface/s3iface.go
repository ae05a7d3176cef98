// Package s3iface is a minimal stand-in for aws-sdk-go v1's S3API.
package s3iface

import (
	"context"

	"github.com/aws/aws-sdk-go/service/s3"
)

type S3API interface {
	PutObject(*s3.PutObjectInput) (*s3.PutObjectOutput, error)
	PutObjectWithContext(context.Context, *s3.PutObjectInput) (*s3.PutObjectOutput, error)
}
