// Package storage is a minimal stand-in for Qiniu go-sdk v7.25 storage.
package storage

import "context"

type FileInfo struct{}

type BatchOpRet struct{}

type GetObjectInput struct {
	Context context.Context
	Range   string
}

type GetObjectOutput struct{}

type BucketManager struct{}

func NewBucketManager() *BucketManager { return &BucketManager{} }

func (m *BucketManager) Stat(bucket, key string) (FileInfo, error)       { return FileInfo{}, nil }
func (m *BucketManager) Batch(operations []string) ([]BatchOpRet, error) { return nil, nil }
func (m *BucketManager) BatchWithContext(ctx context.Context, bucket string, operations []string) ([]BatchOpRet, error) {
	return nil, nil
}
func (m *BucketManager) Get(bucket, key string, options *GetObjectInput) (*GetObjectOutput, error) {
	return nil, nil
}
